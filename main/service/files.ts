import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { ServiceContext } from './context.js';

export const FILE_KINDS = ['result', 'preview', 'vtk'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export function taskDir(dataDir: string, uuid: string): string {
  return join(dataDir, 'tasks', uuid);
}

/** Files and folders of the data directory are the owner's alone: keys' hashes, the URL secret, results. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
export const SQLITE_FILES = ['phasedesk.sqlite', 'phasedesk.sqlite-wal', 'phasedesk.sqlite-shm'];

/** Creates the data directory (and its tasks/ folder) with mode 0700, tightening them if they exist. */
export function prepareDataDir(dataDir: string): void {
  for (const d of [dataDir, join(dataDir, 'tasks')]) {
    mkdirSync(d, { recursive: true, mode: PRIVATE_DIR_MODE });
    chmodPrivate(d, PRIVATE_DIR_MODE);
  }
}

/** The SQLite file and its WAL/SHM companions 0600 (SQLite gives new companions the main file's mode). */
export function protectStoreFiles(dataDir: string): void {
  for (const f of SQLITE_FILES) if (existsSync(join(dataDir, f))) chmodPrivate(join(dataDir, f), PRIVATE_FILE_MODE);
}

function chmodPrivate(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch {
    /* a file system without modes (FAT, some mounts): nothing to tighten */
  }
}

/** <dataDir>/secret: 32 random bytes, created at first start with mode 600. */
export function loadOrCreateSecret(dataDir: string): Buffer {
  const p = join(dataDir, 'secret');
  if (existsSync(p)) return Buffer.from(readFileSync(p, 'utf8').trim(), 'hex');
  const s = randomBytes(32);
  writeFileSync(p, s.toString('hex') + '\n', { mode: 0o600 });
  chmodSync(p, 0o600);
  return s;
}

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function sign(secret: Buffer, path: string, expires: number): string {
  return createHmac('sha256', secret).update(`${path}\n${expires}`).digest('hex');
}

/** Signed URL: HMAC-SHA256 over the URL path and the expiry (unix seconds). */
export function signedUrl(ctx: ServiceContext, uuid: string, kind: FileKind, name: string, nowMs = Date.now()): string {
  const path = `/downloads/${uuid}/${kind}/${encodeURIComponent(name)}`;
  const expires = Math.floor(nowMs / 1000) + ctx.settings.urlExpirySeconds;
  return `${ctx.origin}${path}?expires=${expires}&signature=${sign(ctx.secret, path, expires)}`;
}

export function verifySignature(
  secret: Buffer,
  path: string,
  expires: string | undefined,
  signature: string | undefined,
  nowMs = Date.now(),
): boolean {
  if (!expires || !signature || !/^\d+$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const exp = Number(expires);
  if (exp * 1000 <= nowMs) return false;
  const want = Buffer.from(sign(secret, path, exp), 'hex');
  return timingSafeEqual(want, Buffer.from(signature, 'hex'));
}

export interface FoundFile {
  kind: FileKind;
  name: string;
  relPath: string;
  size: number;
  sha256: string;
}

/**
 * Files a calculation left in <dir>/{result,preview,vtk}/ (flat, one level), `dir` being a task's folder or, on the
 * lab server, one attempt's folder inside it; relPath is relative to the data directory.
 */
export function scanTaskFiles(dataDir: string, dir: string): FoundFile[] {
  const out: FoundFile[] = [];
  for (const kind of FILE_KINDS) {
    const kd = join(dir, kind);
    if (!existsSync(kd)) continue;
    // The calculation wrote with the process umask; results are private like the rest of the data directory.
    chmodPrivate(dir, PRIVATE_DIR_MODE);
    chmodPrivate(kd, PRIVATE_DIR_MODE);
    for (const name of readdirSync(kd).sort()) {
      const full = join(kd, name);
      const st = statSync(full);
      if (!st.isFile()) continue;
      chmodPrivate(full, PRIVATE_FILE_MODE);
      out.push({
        kind,
        name,
        relPath: relative(dataDir, full).split(sep).join('/'),
        size: st.size,
        sha256: sha256File(full),
      });
    }
  }
  return out;
}

/** Cache hit: the recorded files of the source task (data-directory relative paths) copied to the new paths. */
export function copyTaskFiles(dataDir: string, copies: { from: string; to: string }[]): void {
  for (const { from, to } of copies) {
    const dst = join(dataDir, to);
    mkdirSync(dirname(dst), { recursive: true, mode: PRIVATE_DIR_MODE });
    chmodPrivate(dirname(dirname(dst)), PRIVATE_DIR_MODE);
    copyFileSync(join(dataDir, from), dst);
    chmodPrivate(dst, PRIVATE_FILE_MODE);
  }
}

/**
 * Removes a task's folder; false when it could not. A calculation that has not yet seen its cancel flag (a task
 * deleted while it runs) may add a file between the removal of a folder's entries and of the folder itself
 * (ENOTEMPTY). After a few retries the folder is left behind: the embedded scheduler and the lab worker remove the
 * folder of a task deleted meanwhile when its calculation returns, and the orphan sweep (orphans.ts) takes the rest.
 */
export function removeTaskDir(dataDir: string, uuid: string): boolean {
  try {
    rmSync(taskDir(dataDir, uuid), { recursive: true, force: true, maxRetries: 3, retryDelay: 10 });
    return true;
  } catch {
    return false;
  }
}
