// The renderer (renderer/dist, built by `npm run build:renderer`) served by the same listener, so
// that the window, a browser and scripts share one origin and one API. The app uses hash routes
// and relative API URLs, so only the built files are needed: no fallback route.
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';

export async function registerRendererRoutes(
  app: FastifyInstance,
  packageRoot: string,
  log: (line: string) => void,
): Promise<boolean> {
  const root = join(packageRoot, 'renderer', 'dist');
  if (!existsSync(join(root, 'index.html'))) {
    log('renderer not built (run `npm run build:renderer`); serving the API only');
    return false;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    index: ['index.html'],
    // The page talks only to its own origin; nothing else may be loaded or framed.
    setHeaders: (res) => {
      res.setHeader(
        'Content-Security-Policy',
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
      );
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });
  return true;
}
