// The Electron shell's logic (main/electron/desktop.ts) driven with a stand-in for the Electron module (Electron
// itself cannot be downloaded here): embedded service in userData, window on the service origin, session handed
// to the preload only on that origin, navigation kept on the origin, single instance, the service closed before
// quitting, the desktop key kept across restarts.
import { EventEmitter } from 'node:events';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../service/helpers.js';
import { resolveSettings } from '../../main/config.js';
import { runDesktop, type DesktopHandle } from '../../main/electron/desktop.js';
import type {
  BrowserWindowOptions,
  DesktopSession,
  ElectronMain,
  IpcMainEventLike,
} from '../../main/electron/electron-api.js';
import { SESSION_CHANNEL } from '../../main/electron/electron-api.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

class FakeWindow {
  static all: FakeWindow[] = [];
  url = '';
  navigate?: (e: { preventDefault(): void }, url: string) => void;
  openHandler?: (d: { url: string }) => { action: 'allow' | 'deny' };
  focused = 0;
  constructor(public options: BrowserWindowOptions) {
    FakeWindow.all.push(this);
  }
  loadURL(u: string) {
    this.url = u;
    return Promise.resolve();
  }
  once() {}
  on() {}
  show() {}
  restore() {}
  focus() {
    this.focused++;
  }
  isMinimized() {
    return false;
  }
  isDestroyed() {
    return false;
  }
  webContents = {
    on: (_ev: 'will-navigate', fn: (e: { preventDefault(): void }, url: string) => void) => {
      this.navigate = fn;
    },
    setWindowOpenHandler: (fn: (d: { url: string }) => { action: 'allow' | 'deny' }) => {
      this.openHandler = fn;
    },
    openDevTools() {},
  };
}

function fakeElectron(userData: string, lock = true) {
  const app = new EventEmitter() as EventEmitter &
    ElectronMain['app'] & { quits: number; quitted: boolean; exitCode?: number };
  const ipc = new Map<string, (e: IpcMainEventLike) => void>();
  const opened: string[] = [];
  Object.assign(app, {
    quits: 0,
    quitted: false,
    isPackaged: false,
    requestSingleInstanceLock: () => lock,
    whenReady: () => Promise.resolve(),
    getPath: () => userData,
    // As in Electron: quit() emits before-quit, and a handler that calls preventDefault() cancels the quit.
    quit() {
      app.quits++;
      let prevented = false;
      app.emit('before-quit', {
        preventDefault: () => {
          prevented = true;
        },
      });
      if (!prevented) app.quitted = true;
    },
    exit(code?: number) {
      app.exitCode = code ?? 0;
    },
  });
  const electron: ElectronMain = {
    app,
    BrowserWindow: FakeWindow as unknown as ElectronMain['BrowserWindow'],
    ipcMain: {
      on: (ch, fn) => {
        ipc.set(ch, fn);
      },
    },
    shell: {
      openExternal: async (u) => {
        opened.push(u);
      },
    },
    dialog: {
      showErrorBox: (t, c) => {
        throw new Error(`${t}: ${c}`);
      },
    },
  };
  const ask = (url: string | null) => {
    const e: IpcMainEventLike = { returnValue: undefined, senderFrame: url === null ? null : { url } };
    ipc.get(SESSION_CHANNEL)!(e);
    return e.returnValue as DesktopSession | null;
  };
  return { electron, app, ask, opened };
}

function userDataDir(settings: Record<string, number> = { port: 0 }): string {
  const d = mkdtempSync(join(tmpdir(), 'phasedesk-desktop-'));
  dirs.push(d);
  writeFileSync(join(d, 'settings.json'), JSON.stringify({ pool_size: 1, thread_budget: 1, ...settings }));
  return d;
}

async function quit(f: ReturnType<typeof fakeElectron>, h: DesktopHandle) {
  f.app.quit();
  expect(f.app.quitted).toBe(false); // held back until the service is closed
  await h.stopped;
  expect(f.app.quitted).toBe(true);
}

describe('desktop shell', () => {
  ensureBuilt();
  let firstKey = '';
  const userData = userDataDir();
  // The data directory the desktop shares with `phasedesk start` (PHASEDESK_DATA_DIR wins, as for the CLI).
  const env = { ...process.env, PHASEDESK_DATA_DIR: userData };

  it('starts the service in its data directory, opens the window on its origin and hands the session to that origin only', async () => {
    const f = fakeElectron(userData);
    FakeWindow.all = [];
    const h = runDesktop(f.electron, { preloadPath: '/x/preload.cjs', env });
    await h.started;
    const svc = h.service()!;
    expect(svc.ctx.settings.dataDir).toBe(userData);
    const win = FakeWindow.all[0]!;
    expect(win.url).toBe(`${svc.ctx.origin}/`);
    expect(win.options.webPreferences).toMatchObject({
      preload: '/x/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    expect((await fetch(win.url)).status).toBe(200);

    const s = f.ask(`${svc.ctx.origin}/#/tasks`)!;
    expect(s.consoleToken).toBe(readFileSync(join(userData, 'console-token'), 'utf8').trim());
    expect(s.apiKey).toMatch(/^tk_[A-Za-z0-9]{32}$/);
    firstKey = s.apiKey!;
    expect(statSync(join(userData, 'desktop-key')).mode & 0o777).toBe(0o600);
    const info = await fetch(`${svc.baseUrl}/key/info`, { headers: { Authorization: `Bearer ${s.apiKey}` } });
    expect(info.status).toBe(200);
    const settings = await fetch(`${svc.ctx.origin}/console/v1/settings`, {
      headers: { 'X-PhaseDesk-Console': s.consoleToken },
    });
    expect(((await settings.json()) as { data_dir: string }).data_dir).toBe(userData);

    expect(f.ask('https://evil.example/')).toBeNull();
    expect(f.ask(`http://localhost:${svc.port}/`)).toBeNull(); // another origin string for the same socket
    expect(f.ask(null)).toBeNull();
    expect(f.ask('not a url')).toBeNull();

    // Navigation stays on the origin; other links go to the system browser.
    let prevented = 0;
    win.navigate!(
      {
        preventDefault: () => {
          prevented++;
        },
      },
      `${svc.ctx.origin}/#/keys`,
    );
    expect(prevented).toBe(0);
    win.navigate!(
      {
        preventDefault: () => {
          prevented++;
        },
      },
      'https://example.org/doc',
    );
    expect(prevented).toBe(1);
    expect(win.openHandler!({ url: 'https://example.org/paper' }).action).toBe('deny');
    expect(win.openHandler!({ url: 'file:///etc/passwd' }).action).toBe('deny');
    expect(win.openHandler!({ url: `${svc.ctx.origin}/api/v2/openapi.json` }).action).toBe('allow');
    expect(f.opened).toEqual(['https://example.org/doc', 'https://example.org/paper']);

    f.app.emit('second-instance');
    expect(win.focused).toBe(1);

    await quit(f, h);
    await expect(fetch(`${svc.baseUrl}/key/info`)).rejects.toThrow(); // listener closed
  });

  it('a second instance hands over and starts nothing', async () => {
    const f = fakeElectron(userData, false);
    FakeWindow.all = [];
    const h = runDesktop(f.electron, { env });
    await h.started;
    expect(f.app.quitted).toBe(true);
    expect(h.service()).toBeUndefined();
    expect(FakeWindow.all).toHaveLength(0);
  });

  it('keeps its key across restarts, replaces it once disabled, and avoids a port in use', async () => {
    let blocker: Server | undefined;
    const busy = await new Promise<number>((res) => {
      blocker = createServer().listen(0, '127.0.0.1', () => res((blocker!.address() as { port: number }).port));
    });
    try {
      writeFileSync(join(userData, 'settings.json'), JSON.stringify({ pool_size: 1, thread_budget: 1, port: busy }));
      const f = fakeElectron(userData);
      const h = runDesktop(f.electron, { env });
      await h.started;
      const svc = h.service()!;
      expect(svc.port).not.toBe(busy);
      const s = f.ask(`${svc.ctx.origin}/`)!;
      expect(s.apiKey).toBe(firstKey);
      // The user disables that key in the Keys screen: the next start issues a new "desktop app" key.
      const keys = (await (
        await fetch(`${svc.ctx.origin}/console/v1/keys`, { headers: { 'X-PhaseDesk-Console': s.consoleToken } })
      ).json()) as { items: { id: number; key_prefix: string }[] };
      const mine = keys.items.find((k) => firstKey.startsWith(k.key_prefix))!;
      await fetch(`${svc.ctx.origin}/console/v1/keys/${mine.id}`, {
        method: 'PATCH',
        headers: { 'X-PhaseDesk-Console': s.consoleToken, 'Content-Type': 'application/json' },
        body: '{"is_active":false}',
      });
      await quit(f, h);
    } finally {
      blocker?.close();
    }
    writeFileSync(join(userData, 'settings.json'), JSON.stringify({ pool_size: 1, thread_budget: 1, port: 0 }));
    const f2 = fakeElectron(userData);
    const h2 = runDesktop(f2.electron, { env });
    await h2.started;
    const s2 = f2.ask(`${h2.service()!.ctx.origin}/`)!;
    expect(s2.apiKey).toMatch(/^tk_/);
    expect(s2.apiKey).not.toBe(firstKey);
    const info = (await (
      await fetch(`${h2.service()!.baseUrl}/key/info`, { headers: { Authorization: `Bearer ${s2.apiKey}` } })
    ).json()) as { key_name: string };
    expect(info.key_name).toBe('desktop app');
    await quit(f2, h2);
  });

  it("uses the same data directory as `phasedesk start` by default, not Electron's userData", async () => {
    // Linux rule of main/config.ts defaultDataDir: $XDG_DATA_HOME/PhaseDesk; nothing names a data directory.
    const xdg = mkdtempSync(join(tmpdir(), 'phasedesk-xdg-'));
    const electronData = mkdtempSync(join(tmpdir(), 'phasedesk-electron-userdata-'));
    dirs.push(xdg, electronData);
    const cliEnv: NodeJS.ProcessEnv = {
      ...process.env,
      XDG_DATA_HOME: xdg,
      PHASEDESK_PORT: '0',
      PHASEDESK_POOL_SIZE: '1',
      PHASEDESK_THREAD_BUDGET: '1',
    };
    delete cliEnv.PHASEDESK_DATA_DIR;
    writeFileSync(join(electronData, 'phasedesk.sqlite'), ''); // data an earlier build kept in Electron's folder
    const expected = resolveSettings({}, cliEnv).dataDir;
    expect(expected).toBe(join(xdg, 'PhaseDesk'));

    const f = fakeElectron(electronData);
    const h = runDesktop(f.electron, { env: cliEnv });
    await h.started;
    expect(h.service()!.ctx.settings.dataDir).toBe(expected);
    const s = f.ask(`${h.service()!.ctx.origin}/`)!;
    await quit(f, h);
    expect(existsSync(join(expected, 'desktop-key'))).toBe(true);
    expect(readdirSync(electronData)).toEqual(['phasedesk.sqlite']); // untouched; nothing new written there
    expect(readFileSync(join(expected, 'phasedesk.log'), 'utf8')).toContain(
      `earlier PhaseDesk data found in ${electronData}`,
    );

    // The CLI, started without --data-dir in the same environment, sees the desktop's key and token.
    const cli = (...args: string[]) =>
      execFileSync(process.execPath, [join(ROOT, 'dist', 'main', 'cli.js'), ...args], {
        encoding: 'utf8',
        env: cliEnv,
      });
    const prefix = s.apiKey!.slice(0, 7);
    expect(cli('key', 'list', 'local')).toContain(prefix);
    expect(readFileSync(join(expected, 'console-token'), 'utf8').trim()).toBe(s.consoleToken);
  });
});
