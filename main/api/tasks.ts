import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../service/context.js';
import { cancelTask, deleteTask, getTask, listTasks, taskFiles } from '../service/tasks.js';
import { createTask } from '../service/task-create.js';
import { signedUrl, type FileKind } from '../service/files.js';
import { parseOrThrow } from '../requests/parse.js';
import { parseTaskCreateRequest, taskListQuery } from '../requests/tasks.js';
import { auth } from './auth-hook.js';

export function registerTaskRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/task', async (req, reply) => {
    const a = auth(req);
    return reply.code(200).send(await createTask(ctx, a, parseTaskCreateRequest(req.body)));
  });
  // Fixed path registered alongside the parameterized one; find-my-way prefers static segments.
  app.get('/task/list', async (req) => {
    const q = parseOrThrow(taskListQuery, req.query);
    return listTasks(ctx, auth(req), q);
  });
  app.get<{ Params: { id: string } }>('/task/:id', async (req) => getTask(ctx, auth(req), req.params.id));
  app.patch<{ Params: { id: string } }>('/task/:id/cancel', async (req) => cancelTask(ctx, auth(req), req.params.id));
  app.delete<{ Params: { id: string } }>('/task/:id', async (req, reply) => {
    await deleteTask(ctx, auth(req), req.params.id);
    return reply.code(200).send();
  });
  for (const kind of ['result', 'preview', 'vtk'] as FileKind[]) {
    app.get<{ Params: { id: string } }>(`/task/:id/${kind}`, async (req) =>
      taskFiles(ctx, auth(req), req.params.id, kind, (uuid, name) => signedUrl(ctx, uuid, kind, name)),
    );
  }
}
