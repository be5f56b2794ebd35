// Where task files live, behind one small interface: the calculation writes into a local directory (the native
// core and the preview renderer write files), the service records, copies, serves and removes them. The embedded
// service's store is <dataDir>/tasks/; a lab server's is the same layout in the directory its API processes and
// workers share (PHASEDESK_BLOB_DIR, a network share), so any API process serves any worker's files.
import { createReadStream, existsSync, type ReadStream } from 'node:fs';
import { resolve, sep } from 'node:path';
import { copyTaskFiles, removeTaskDir, scanTaskFiles, taskDir, type FileKind, type FoundFile } from './files.js';

export interface BlobStore {
  /** The directory a task's calculation writes into (<dir>/{result,preview,vtk}/). */
  taskDir(uuid: string): string;
  /** The files a calculation left, with size and sha256, made private (0600). */
  scan(uuid: string): FoundFile[];
  /** A cache hit: the files of one task become another's. */
  copy(fromUuid: string, toUuid: string): void;
  remove(uuid: string): void;
  /** A recorded file (task_files.rel_path) to stream, or undefined when it is gone. */
  open(relPath: string): ReadStream | undefined;
  /** Relative path a task's file is recorded under. */
  relPath(uuid: string, kind: FileKind, name: string): string;
}

export function directoryBlobStore(root: string): BlobStore {
  const base = resolve(root);
  return {
    taskDir: (uuid) => taskDir(root, uuid),
    scan: (uuid) => scanTaskFiles(root, uuid),
    copy: (from, to) => copyTaskFiles(root, from, to),
    remove: (uuid) => removeTaskDir(root, uuid),
    open(relPath) {
      const full = resolve(base, relPath);
      if (!full.startsWith(base + sep) || !existsSync(full)) return undefined;
      return createReadStream(full);
    },
    relPath: (uuid, kind, name) => `tasks/${uuid}/${kind}/${name}`,
  };
}
