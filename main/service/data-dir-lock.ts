// One service per data directory. The desktop app and `phasedesk start` share the same default folder, and a
// second service on it would fail the first one's running tasks in its restart recovery and run its pending tasks
// twice. The lock is a file created exclusively, holding the owner's process id and host: a lock whose process
// is gone (killed, crashed) is stale and taken over; a live owner makes the second start fail with a message
// that says which process holds the folder.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'service.lock';

interface LockRecord {
  pid: number;
  host: string;
  started_at: string;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockRecord,
    readonly lockFile: string,
  ) {
    super(
      `the data directory ${dataDir} is in use by another PhaseDesk service (process ${holder.pid} on ${holder.host}, ` +
        `started ${holder.started_at}): stop that one first, or start this one with --data-dir DIR` +
        (holder.host === hostname() ? '' : ` (if that service no longer runs, delete ${lockFile})`),
    );
    this.name = 'DataDirInUseError';
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockRecord | undefined {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockRecord>;
    return typeof v.pid === 'number' && typeof v.host === 'string'
      ? { pid: v.pid, host: v.host, started_at: String(v.started_at ?? '') }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the data directory for this process; returns the function that gives it back. Throws DataDirInUseError
 * when a live service (another process on this host, or any process recorded by another host) holds it.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const file = join(dataDir, LOCK_FILE);
  const mine: LockRecord = { pid: process.pid, host: hostname(), started_at: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify(mine));
      } finally {
        closeSync(fd);
      }
      return () => {
        const held = readLock(file);
        if (held && held.pid === mine.pid && held.host === mine.host) {
          try {
            unlinkSync(file);
          } catch {
            /* already gone */
          }
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const held = readLock(file);
      // the same process (an embedding that restarts its service) may take its own folder again
      if (held && held.host === mine.host && held.pid === mine.pid) return () => undefined;
      if (held && (held.host !== mine.host || processAlive(held.pid))) throw new DataDirInUseError(dataDir, held, file);
      // stale: its process is gone, or the file is unreadable (a crash while it was written)
      try {
        unlinkSync(file);
      } catch {
        /* another start took it over meanwhile: try again */
      }
    }
  }
  throw new Error(`could not take ${file}`);
}
