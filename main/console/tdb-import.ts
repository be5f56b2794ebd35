// The one way a TDB file enters the catalog (console upload, `db import` in the CLI, the bundled catalog): the
// text is parsed off the event loop in a worker thread (tdb-parse-thread.ts) by the project's single TDB reader,
// and the same refusals apply whoever imports it.
import { existsSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { HttpError } from '../util/errors.js';
import type { TdbInfo } from '../../worker/core/database.js';
import type { ParseReply } from './tdb-parse-thread.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The compiled thread script: next to this file under dist/, or the repository's dist/ when run from sources (vitest). */
export function parseThreadFile(): string {
  return here.split(sep).includes('dist')
    ? join(here, 'tdb-parse-thread.js')
    : resolve(here, '..', '..', 'dist', 'main', 'console', 'tdb-parse-thread.js');
}

export interface ParsedTdb {
  info: TdbInfo;
  parameterCount: number;
}

/**
 * Parses TDB text in a worker thread. A malformed file is a 400 "tdb: FILE:LINE: message"; a file that defines
 * no element (nothing could be calculated with it) is a 400 naming the file.
 */
export async function parseTdbForImport(text: string, fileName: string): Promise<ParsedTdb> {
  const script = parseThreadFile();
  if (!existsSync(script))
    throw new HttpError(503, `the TDB reader thread (${script}) is not built: run npm run build`);
  const reply = await new Promise<ParseReply>((resolveP, reject) => {
    const w = new Worker(script, { workerData: { text, name: fileName } });
    let answered = false;
    w.once('message', (m: ParseReply) => {
      answered = true;
      resolveP(m);
      void w.terminate();
    });
    w.once('error', (e) => reject(new HttpError(400, `tdb: ${fileName}: the reader failed: ${e.message}`)));
    w.once('exit', (code) => {
      if (!answered) reject(new HttpError(400, `tdb: ${fileName}: the reader stopped (exit code ${code})`));
    });
  });
  if (!reply.ok) throw new HttpError(400, `tdb: ${reply.message}`);
  if (reply.info.elements.length === 0) throw new HttpError(400, `tdb: ${fileName}: the file defines no element`);
  return { info: reply.info, parameterCount: reply.parameterCount };
}
