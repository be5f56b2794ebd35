// The desktop shell's logic, apart from loading Electron (main/electron/main.ts), so that a test can drive it
// with a stand-in for the Electron module (test/console/desktop.test.ts): single-instance lock, embedded
// service in the same data directory as `phasedesk start` (PHASEDESK_DATA_DIR, else the per-OS app-data folder of
// main/config.ts defaultDataDir), one window on the service's origin, session for the preload only on that origin,
// service closed (listener, worker pool, store) before the app quits.
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveSettings } from '../config.js';
import { PACKAGE_ROOT, startService, type RunningService } from '../server.js';
import { LOCAL_USER } from '../console/bootstrap.js';
import { issueKey } from '../console/keys.js';
import { hashApiKey } from '../service/keys.js';
import { isPast } from '../util/time.js';
import { SESSION_CHANNEL, type BrowserWindowLike, type DesktopSession, type ElectronMain } from './electron-api.js';

const here = dirname(fileURLToPath(import.meta.url));

/** What runDesktop exposes for tests and for main.ts; `started` settles once the window is open (or start failed). */
export interface DesktopHandle {
  started: Promise<void>;
  service(): RunningService | undefined;
  window(): BrowserWindowLike | undefined;
  /** Resolves when before-quit has closed the service. */
  stopped: Promise<void>;
}

export function runDesktop(
  electron: ElectronMain,
  opts: { preloadPath?: string; env?: NodeJS.ProcessEnv } = {},
): DesktopHandle {
  const { app, BrowserWindow, ipcMain, shell, dialog } = electron;
  const preloadPath = opts.preloadPath ?? join(here, 'preload.cjs');
  const env = opts.env ?? process.env;
  let svc: RunningService | undefined;
  let win: BrowserWindowLike | undefined;
  let session: DesktopSession | undefined;
  let logFile: string | undefined;

  function log(line: string): void {
    const stamped = `${new Date().toISOString()} ${line}`;
    console.log(stamped);
    if (logFile) {
      try {
        appendFileSync(logFile, stamped + '\n');
      } catch {
        /* logging must never stop the app */
      }
    }
  }

  /** True when 127.0.0.1:port can be bound now (the listener then takes it; port 0 is always free). */
  function portFree(port: number): Promise<boolean> {
    if (port === 0) return Promise.resolve(true);
    return new Promise((res) => {
      const s = createServer();
      s.once('error', () => res(false));
      s.listen({ host: '127.0.0.1', port, exclusive: true }, () => s.close(() => res(true)));
    });
  }

  /**
   * The API key the window uses: the first-start key, else the one saved in <dataDir>/desktop-key if it still
   * exists, is active and unexpired, else a new key "desktop app" of the local user. The service keeps only key
   * hashes, so the desktop keeps its own key in this 0600 file, next to the console token.
   */
  async function desktopKey(s: RunningService, dataDir: string): Promise<string | null> {
    const file = join(dataDir, 'desktop-key');
    const save = (k: string) => {
      writeFileSync(file, k + '\n', { mode: 0o600 });
      chmodSync(file, 0o600);
      return k;
    };
    if (s.firstKey) return save(s.firstKey);
    if (existsSync(file)) {
      const k = readFileSync(file, 'utf8').trim();
      const row = await s.store.db
        .selectFrom('api_keys')
        .select(['is_active', 'expires_at'])
        .where('key_hash', '=', hashApiKey(k))
        .executeTakeFirst();
      if (row && row.is_active === 1 && !isPast(row.expires_at)) return k;
    }
    try {
      return save((await issueKey(s.store, LOCAL_USER, { name: 'desktop app' })).key);
    } catch (e) {
      log(`no API key for the window (${(e as Error).message}); the key screen will ask for one`);
      return null;
    }
  }

  function createWindow(origin: string): void {
    win = new BrowserWindow({
      width: 1360,
      height: 900,
      minWidth: 900,
      minHeight: 600,
      show: false,
      title: 'PhaseDesk',
      backgroundColor: '#f5f6f8',
      webPreferences: {
        preload: preloadPath,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        spellcheck: false,
      },
    });
    const sameOrigin = (url: string) => {
      try {
        return new URL(url).origin === origin;
      } catch {
        return false;
      }
    };
    // The window only ever shows the service's origin; anything else opens in the user's browser.
    win.webContents.on('will-navigate', (e, url) => {
      if (sameOrigin(url)) return;
      e.preventDefault();
      if (/^https?:/.test(url)) void shell.openExternal(url);
    });
    win.webContents.setWindowOpenHandler(({ url }) => {
      // Same-origin pages (downloads, openapi.json) open without the preload: they get no session.
      if (sameOrigin(url))
        return {
          action: 'allow',
          overrideBrowserWindowOptions: {
            webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false },
          },
        };
      if (/^https?:/.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    win.once('ready-to-show', () => win?.show());
    win.on('closed', () => {
      win = undefined;
    });
    void win.loadURL(`${origin}/`);
  }

  async function start(): Promise<void> {
    // The CLI's rule exactly (resolveSettings without a --data-dir flag), so the app and `phasedesk start` share
    // keys, databases and tasks. Electron's own browser data stays in app.getPath('userData') (on macOS and
    // Windows the same folder; on Linux ~/.config/PhaseDesk).
    const dataDir = resolveSettings({}, env).dataDir;
    mkdirSync(dataDir, { recursive: true });
    logFile = join(dataDir, 'phasedesk.log');
    // Earlier builds kept the service data in Electron's userData folder (on Linux not the CLI's folder): say where
    // it is rather than silently starting empty; nothing is moved or deleted.
    const electronFolder = app.getPath('userData');
    if (
      electronFolder !== dataDir &&
      existsSync(join(electronFolder, 'phasedesk.sqlite')) &&
      !existsSync(join(dataDir, 'phasedesk.sqlite'))
    ) {
      log(
        `earlier PhaseDesk data found in ${electronFolder}; this start uses ${dataDir} (start with PHASEDESK_DATA_DIR=${electronFolder} to keep using it)`,
      );
    }
    // Packaged app: the native core sits in the unpacked app folder next to dist/ (electron-builder.yml).
    // Inside app.asar the unpacked copy (asarUnpack in electron-builder.yml) is named explicitly, so the workers'
    // dlopen never depends on asar path redirection.
    const addon = join(PACKAGE_ROOT, 'native-core', 'build', 'Release', 'phasedesk_core.node').replace(
      /app\.asar([\\/])/,
      'app.asar.unpacked$1',
    );
    if (!process.env.PHASEDESK_CORE_ADDON && existsSync(addon)) process.env.PHASEDESK_CORE_ADDON = addon;
    const wanted = resolveSettings({ dataDir }, env).port;
    const port = (await portFree(wanted)) ? wanted : 0;
    if (port !== wanted) log(`port ${wanted} is in use; the service takes a free port instead`);
    svc = await startService({ dataDir, port }, log);
    session = { apiKey: await desktopKey(svc, dataDir), consoleToken: svc.consoleToken, desktop: true };
    log(`PhaseDesk service on ${svc.baseUrl} (data in ${dataDir})`);
    const origin = svc.ctx.origin;
    // The preload asks synchronously; only a frame on the service's origin gets the key and the token.
    ipcMain.on(SESSION_CHANNEL, (e) => {
      const url = e.senderFrame?.url ?? '';
      let ok = false;
      try {
        ok = new URL(url).origin === origin;
      } catch {
        ok = false;
      }
      e.returnValue = ok ? session : null;
    });
    createWindow(origin);
  }

  let resolveStopped!: () => void;
  const stoppedP = new Promise<void>((r) => {
    resolveStopped = r;
  });
  const handle = (started: Promise<void>): DesktopHandle => ({
    started,
    service: () => svc,
    window: () => win,
    stopped: stoppedP,
  });

  if (!app.requestSingleInstanceLock()) {
    // Another PhaseDesk owns the data directory (SQLite store, worker pool): hand over to it.
    app.quit();
    resolveStopped();
    return handle(Promise.resolve());
  }
  app.setAppUserModelId?.('org.phasedesk.app');
  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('activate', () => {
    if (!win && svc) createWindow(svc.ctx.origin);
  });
  app.on('window-all-closed', () => app.quit());
  let stopping = false;
  let stopped = false;
  app.on('before-quit', (e) => {
    if (!svc || stopped) return;
    // Keep the app alive until the workers have stopped and the store is closed, then quit for real.
    e.preventDefault();
    if (stopping) return;
    stopping = true;
    log('stopping the service (running calculations are cancelled)');
    svc
      .close()
      .catch((err: Error) => log(`service close failed: ${err.message}`))
      .finally(() => {
        stopped = true;
        resolveStopped();
        app.quit();
      });
  });
  const started = app
    .whenReady()
    .then(start)
    .catch((err: Error) => {
      log(`PhaseDesk could not start: ${err.stack ?? err.message}`);
      dialog.showErrorBox('PhaseDesk could not start', `${err.message}\n\nDetails are in ${logFile ?? 'the console'}.`);
      app.exit(1);
    });
  return handle(started);
}
