import { statSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../service/context.js';
import {
  enabledDatabase,
  getDatabase,
  listDatabases,
  loadTdbModule,
  phasesForElements,
  userDbStatus,
} from '../service/databases.js';
import type { NativeLoadWarning, TdbInfo } from '../../worker/core/database.js';
import { auth } from './auth-hook.js';
import { parseOrThrow } from '../requests/parse.js';
import {
  dbByTaskQuery,
  dbListQuery,
  dbUserStatusQuery,
  phaseNamesRequest,
  phasesRequest,
} from '../requests/databases.js';
import { getPhaseNames, setPhaseNames } from '../service/phase-names.js';

export function registerDatabaseRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/database', async (req) => listDatabases(ctx, auth(req).user.id, parseOrThrow(dbListQuery, req.query)));
  app.get('/database/users', async (req) =>
    listDatabases(ctx, auth(req).user.id, parseOrThrow(dbListQuery, req.query), true),
  );
  app.get('/database/by-task', async (req) =>
    listDatabases(ctx, auth(req).user.id, parseOrThrow(dbByTaskQuery, req.query)),
  );
  app.get('/database/user/status', async (req) => {
    const q = parseOrThrow(dbUserStatusQuery, req.query);
    return userDbStatus(ctx, auth(req).user.id, q.user_id, q.topdb_id);
  });
  app.get<{ Params: { db_id: string } }>('/database/:db_id', async (req) => {
    const item = await getDatabase(ctx, auth(req).user.id, req.params.db_id);
    const row = await enabledDatabase(ctx, req.params.db_id);
    return { ...item, load_warnings: row ? await loadWarnings(row.file_path) : [] };
  });
  app.post<{ Params: { db_id: string } }>('/database/:db_id/phases', async (req) => {
    const a = auth(req);
    const body = parseOrThrow(phasesRequest, req.body);
    return phasesForElements(ctx, a.user.id, req.params.db_id, body.element_list);
  });
  // Extension: the display names of the database's phases (docs/api.md)
  app.get<{ Params: { db_id: string } }>('/database/:db_id/phase-names', async (req) => {
    auth(req);
    return getPhaseNames(ctx, req.params.db_id);
  });
  app.put<{ Params: { db_id: string } }>('/database/:db_id/phase-names', async (req) => {
    auth(req);
    const body = parseOrThrow(phaseNamesRequest, req.body);
    return setPhaseNames(ctx, req.params.db_id, body.names);
  });
}

/** The warnings of one stored file, kept while the file is unchanged (mf-steel.tdb takes 0.15 s to read). */
const warningsCache = new Map<string, { stamp: string; warnings: NativeLoadWarning[] }>();

/**
 * GET /database/{db_id} extension `load_warnings`: what the reader ignored or dropped in the stored file, each with
 * its file and line; a file that no longer reads gives its error as the one entry.
 */
async function loadWarnings(filePath: string): Promise<NativeLoadWarning[]> {
  let stamp: string;
  try {
    const st = statSync(filePath);
    stamp = `${st.size}|${st.mtimeMs}`;
  } catch (e) {
    return [{ file: filePath, line: 0, message: `cannot read the file: ${(e as Error).message}`, phase: '' }];
  }
  const known = warningsCache.get(filePath);
  if (known?.stamp === stamp) return known.warnings;
  let warnings: NativeLoadWarning[];
  try {
    warnings = ((await loadTdbModule()).readTdbInfo(filePath) as TdbInfo).loadWarnings;
  } catch (e) {
    const err = e as Error & { file?: string; line?: number; reason?: string };
    warnings = [{ file: err.file ?? filePath, line: err.line ?? 0, message: err.reason ?? err.message, phase: '' }];
  }
  if (warningsCache.size >= 64) warningsCache.clear();
  warningsCache.set(filePath, { stamp, warnings });
  return warnings;
}
