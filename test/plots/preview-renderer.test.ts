// The preview renderer process of a calculation host (worker/host-png.ts): PNGs are made in a child process,
// so a rendering that aborts (a resvg panic) or is refused costs only that PNG, and the next one is rendered.
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../service/helpers.js';
import { isPng, pngSize } from '../../worker/plots/png.js';

type Renderer = import('../../worker/host-png.js').PreviewRenderer;
let renderer: Renderer;
const dir = mkdtempSync(join(tmpdir(), 'preview-renderer-'));
const GOOD =
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><defs><clipPath id="c"><rect x="10" y="10" width="180" height="80"/></clipPath></defs>' +
  '<g clip-path="url(#c)"><polyline points="0,50 200,50" stroke="#000" stroke-width="2" fill="none"/></g></svg>';
const OUTSIDE = GOOD.replace('0,50 200,50', '900,10 900,90');

beforeAll(async () => {
  ensureBuilt();
  // The renderer forks dist/worker/host-png-child.js, so the compiled module is used.
  const { PreviewRenderer } = (await import(
    join(process.cwd(), 'dist', 'worker', 'host-png.js')
  )) as typeof import('../../worker/host-png.js');
  renderer = new PreviewRenderer(30_000);
});
afterAll(() => renderer?.close());

describe('preview renderer process', () => {
  it('renders an SVG file to a PNG file of the requested width', async () => {
    writeFileSync(join(dir, 'a.svg'), GOOD);
    await renderer.render(join(dir, 'a.svg'), join(dir, 'a.png'), 400);
    const png = readFileSync(join(dir, 'a.png'));
    expect(isPng(png)).toBe(true);
    expect(pngSize(png)).toEqual({ width: 400, height: 200 });
  });

  it('a process that dies while rendering costs that PNG only; the next PNG is rendered by a new process', async () => {
    writeFileSync(join(dir, 'b.svg'), GOOD);
    const first = renderer.render(join(dir, 'b.svg'), join(dir, 'b.png'), 400);
    const pid = renderer.pid()!;
    process.kill(pid, 'SIGABRT'); // what a resvg panic ends in
    await expect(first).rejects.toThrow(/the renderer process ended \(signal SIGABRT\)/);
    await renderer.render(join(dir, 'b.svg'), join(dir, 'c.png'), 400);
    expect(renderer.pid()).not.toBe(pid);
    expect(isPng(readFileSync(join(dir, 'c.png')))).toBe(true);
  });

  it('renderMissing renders the SVGs of a task without a PNG and reports the ones refused', async () => {
    const task = mkdtempSync(join(tmpdir(), 'preview-task-'));
    const preview = join(task, 'preview');
    await import('node:fs').then((fs) => fs.mkdirSync(preview));
    writeFileSync(join(preview, 'good.svg'), GOOD);
    writeFileSync(join(preview, 'outside.svg'), OUTSIDE);
    const problems = await renderer.renderMissing(task, 300);
    expect(problems).toEqual([
      'preview outside.png not rendered: svgToPng: invalid geometry: <polyline> lies entirely outside its clip rectangle',
    ]);
    expect(existsSync(join(preview, 'good.png'))).toBe(true);
    expect(existsSync(join(preview, 'outside.png'))).toBe(false);
  });
});
