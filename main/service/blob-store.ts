// Where task files live, behind one small interface: the calculation writes into a local directory (the native
// core and the preview renderer write files), the service records, copies, serves and removes them. The embedded
// service's store is <dataDir>/tasks/; a lab server's is the same layout in the directory its API processes and
// workers share (PHASEDESK_BLOB_DIR, a network share), so any API process serves any worker's files.
import { createReadStream, openSync, type ReadStream } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { copyTaskFiles, removeTaskDir, scanTaskFiles, taskDir, type FileKind, type FoundFile } from './files.js';

/** A lab-server attempt's folder inside a task's folder: run-<n> (a task's own job), merge-<n> (a grid's merge job). */
export const ATTEMPT_FOLDER = /^(run|merge)-(\d+)$/;

export function attemptFolder(kind: 'run' | 'merge', attempt: number): string {
  return `${kind}-${attempt}`;
}

export interface BlobStore {
  /**
   * The directory a task's calculation writes into (<dir>/{result,preview,vtk}/): the task's folder, or with
   * `attempt` (a lab-server job's attempt, main/server/attempt-dir.ts) a folder of that attempt inside it, so that two
   * workers running the same task never write into one folder.
   */
  taskDir(uuid: string, attempt?: string): string;
  /** The files a calculation left in taskDir(uuid, attempt), with size and sha256, made private (0600). */
  scan(uuid: string, attempt?: string): FoundFile[];
  /** A cache hit: recorded files (relative paths) copied to another task's paths. */
  copy(copies: { from: string; to: string }[]): void;
  /** The task's folder removed; false when a writer kept it (files.ts removeTaskDir), left to the orphan sweep. */
  remove(uuid: string): boolean;
  /** A recorded file (task_files.rel_path) to stream, or undefined when it is gone. */
  open(relPath: string): ReadStream | undefined;
  /** Relative path a task's file is recorded under. */
  relPath(uuid: string, kind: FileKind, name: string): string;
}

export function directoryBlobStore(root: string): BlobStore {
  const base = resolve(root);
  return {
    taskDir: (uuid, attempt) => (attempt ? join(taskDir(root, uuid), attempt) : taskDir(root, uuid)),
    scan: (uuid, attempt) => scanTaskFiles(root, attempt ? join(taskDir(root, uuid), attempt) : taskDir(root, uuid)),
    copy: (copies) => copyTaskFiles(root, copies),
    remove: (uuid) => removeTaskDir(root, uuid),
    open(relPath) {
      const full = resolve(base, relPath);
      if (!full.startsWith(base + sep)) return undefined;
      // Opened here, not when the stream first reads: a file removed meanwhile (its task deleted) is a 404 now, or
      // stays readable through the descriptor until the download ends.
      let fd: number;
      try {
        fd = openSync(full, 'r');
      } catch {
        return undefined;
      }
      return createReadStream(full, { fd });
    },
    relPath: (uuid, kind, name) => `tasks/${uuid}/${kind}/${name}`,
  };
}
