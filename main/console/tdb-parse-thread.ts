// Worker thread of a TDB import: parses the text with the project's single TDB reader (worker/core/database.ts,
// the native core) so that a large file never holds the service's event loop. One message in, one message out.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabaseFromString, summarize, summarizeMobilityFile } from '../../worker/core/database.js';
import { isCoreError } from '../../worker/core/errors.js';

export interface ParseRequest {
  text: string;
  name: string;
}
export type ParseReply =
  { ok: true; info: ReturnType<typeof summarize>; parameterCount: number } | { ok: false; message: string };

const { text, name } = workerData as ParseRequest;
let reply: ParseReply;
try {
  const raw = openDatabaseFromString(text, name).info();
  reply = { ok: true, info: summarize(raw), parameterCount: raw.parameterCount };
} catch (e) {
  reply = { ok: false, message: (e as Error).message };
  // a file of mobility data alone is a catalog entry too: tasks name it beside a thermodynamic database
  if (isCoreError(e, 'PD_TDB_MOBILITY_ONLY')) {
    try {
      const { parameterCount, ...info } = summarizeMobilityFile(text, name);
      reply = { ok: true, info, parameterCount };
    } catch (m) {
      reply = { ok: false, message: (m as Error).message };
    }
  }
}
parentPort!.postMessage(reply);
