// Preview renderer process, forked by a calculation host (worker/host-png.ts): renders one SVG file to
// PNG per message. It runs with --expose-gc and collects after every image, because the native memory resvg
// allocates is returned only when its JavaScript wrapper is collected and the Node-API finalizers have run
// (in a later turn of the event loop: each message is one turn).
import { readFileSync, writeFileSync } from 'node:fs';
import { svgToPng } from './plots/png.js';

export interface RenderRequest {
  id: number;
  svgPath: string;
  pngPath: string;
  width: number;
}
export interface RenderReply {
  id: number;
  ok: boolean;
  error?: string;
  rssMb: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', (m: RenderRequest) => {
  let reply: RenderReply;
  try {
    writeFileSync(m.pngPath, svgToPng(readFileSync(m.svgPath, 'utf8'), { width: m.width }));
    reply = { id: m.id, ok: true, rssMb: 0 };
  } catch (e) {
    reply = { id: m.id, ok: false, error: (e as Error).message ?? String(e), rssMb: 0 };
  }
  gc?.();
  reply.rssMb = process.memoryUsage.rss() / 2 ** 20;
  process.send!(reply);
});
process.on('disconnect', () => process.exit(0));
