import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../service/context.js';
import { getDatabase, listDatabases, phasesForElements, userDbStatus } from '../service/databases.js';
import { auth } from './auth-hook.js';
import { parseOrThrow } from '../requests/parse.js';
import { dbByTaskQuery, dbListQuery, dbUserStatusQuery, phasesRequest } from '../requests/databases.js';

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
  app.get<{ Params: { db_id: string } }>('/database/:db_id', async (req) =>
    getDatabase(ctx, auth(req).user.id, req.params.db_id),
  );
  app.post<{ Params: { db_id: string } }>('/database/:db_id/phases', async (req) => {
    const a = auth(req);
    const body = parseOrThrow(phasesRequest, req.body);
    return phasesForElements(ctx, a.user.id, req.params.db_id, body.element_list);
  });
}
