import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../service/context.js';
import { FILE_KINDS, verifySignature } from '../service/files.js';
import { HttpError } from '../util/errors.js';

/** GET /downloads/<uuid>/<kind>/<name>?expires=&signature= : signed, no API key (the URL is the credential). */
export function registerDownloadRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get<{
    Params: { uuid: string; kind: string; name: string };
    Querystring: { expires?: string; signature?: string };
  }>('/downloads/:uuid/:kind/:name', async (req, reply) => {
    const rawPath = req.url.split('?')[0]!;
    if (!verifySignature(ctx.secret, rawPath, req.query.expires, req.query.signature)) {
      throw new HttpError(403, 'Invalid or expired signature');
    }
    const { uuid, kind, name } = req.params;
    if (!(FILE_KINDS as readonly string[]).includes(kind)) throw new HttpError(404, 'File not found');
    const task = await ctx.store.db.selectFrom('tasks').select(['id']).where('uuid', '=', uuid).executeTakeFirst();
    const file =
      task &&
      (await ctx.store.db
        .selectFrom('task_files')
        .select(['rel_path', 'size'])
        .where('task_id', '=', task.id)
        .where('kind', '=', kind as 'result')
        .where('name', '=', name)
        .executeTakeFirst());
    const stream = file ? ctx.blobs.open(file.rel_path) : undefined;
    if (!file || !stream) throw new HttpError(404, 'File not found');
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${name.replace(/"/g, '')}"`)
      .header('content-length', String(file.size))
      .send(stream);
  });
}
