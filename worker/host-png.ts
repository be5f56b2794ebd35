// Preview PNGs of a calculation host, rendered in a separate, recycled child process with a time limit
// per image: a resvg panic (a Rust abort) or a hung rendering costs only that preview PNG, never the
// calculation or the service, and the native memory resvg holds goes away with the process.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RenderReply, RenderRequest } from './host-png-child.js';

const CHILD_FILE = join(dirname(fileURLToPath(import.meta.url)), 'host-png-child.js');
/** The renderer is replaced after this many images or above this resident size. */
export const RENDERER_MAX_IMAGES = 200;
export const RENDERER_MAX_RSS_MB = 512;

export class PreviewRenderer {
  private child?: ChildProcess;
  private images = 0;
  private nextId = 1;

  constructor(private readonly timeoutMs: number) {}

  /** Renders every <taskDir>/preview/*.svg that has no .png yet; returns one line per PNG that could not be made. */
  async renderMissing(taskDir: string, width: number): Promise<string[]> {
    const dir = join(taskDir, 'preview');
    if (!existsSync(dir)) return [];
    const problems: string[] = [];
    for (const f of readdirSync(dir)
      .filter((n) => n.endsWith('.svg'))
      .sort()) {
      const png = join(dir, `${f.slice(0, -4)}.png`);
      if (existsSync(png)) continue;
      try {
        await this.render(join(dir, f), png, width);
      } catch (e) {
        problems.push(`preview ${f.slice(0, -4)}.png not rendered: ${(e as Error).message}`);
      }
    }
    return problems;
  }

  render(svgPath: string, pngPath: string, width: number): Promise<void> {
    const child = this.spawn();
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const onMessage = (r: RenderReply) => {
        if (r.id !== id) return;
        cleanup();
        this.images++;
        if (this.images >= RENDERER_MAX_IMAGES || r.rssMb > RENDERER_MAX_RSS_MB) this.retire();
        if (r.ok) resolve();
        else reject(new Error(r.error ?? 'rendering failed'));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        cleanup();
        if (this.child === child) this.child = undefined;
        reject(new Error(`the renderer process ended (${signal ? `signal ${signal}` : `exit code ${code}`})`));
      };
      const timer = setTimeout(() => {
        cleanup();
        this.retire('SIGKILL');
        reject(new Error(`rendering took longer than ${Math.round(this.timeoutMs / 1000)} s`));
      }, this.timeoutMs);
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send({ id, svgPath, pngPath, width } satisfies RenderRequest);
    });
  }

  private spawn(): ChildProcess {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) return this.child;
    this.images = 0;
    // --expose-gc: the renderer collects after each image (see host-png-child.ts).
    this.child = fork(CHILD_FILE, [], {
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: process.env,
    });
    this.child.stderr?.resume(); // a panic's message is not needed: the exit signal is reported
    return this.child;
  }

  private retire(signal: NodeJS.Signals = 'SIGTERM'): void {
    const c = this.child;
    this.child = undefined;
    if (!c) return;
    if (signal === 'SIGKILL') c.kill('SIGKILL');
    else c.disconnect();
  }

  pid(): number | undefined {
    return this.child?.pid;
  }

  close(): void {
    this.retire('SIGKILL');
  }
}
