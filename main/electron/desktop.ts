// The desktop shell's logic, apart from loading Electron (main/electron/main.ts), so that a test can drive it
// with a stand-in for the Electron module (test/console/desktop.test.ts): single-instance lock, embedded
// service in the same data directory as `phasedesk start` (PHASEDESK_DATA_DIR, else the per-OS app-data folder of
// main/config.ts defaultDataDir), one window on the service's origin, session for the preload only on that origin,
// service closed (listener, worker pool, store) before the app quits.
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveSettings } from '../config.js';
import { PACKAGE_ROOT, startService, type RunningService } from '../server.js';
import { SESSION_CHANNEL, type BrowserWindowLike, type DesktopSession, type ElectronMain } from './electron-api.js';
import { desktopKey } from './desktop-key.js';
import { answerSessionRequests, createWindow } from './desktop-window.js';

const here = dirname(fileURLToPath(import.meta.url));

/** What runDesktop exposes for tests and for main.ts; `started` settles once the window is open (or start failed). */
export interface DesktopHandle {
  started: Promise<void>;
  service(): RunningService | undefined;
  window(): BrowserWindowLike | undefined;
  /** Resolves when before-quit has closed the service. */
  stopped: Promise<void>;
}

/** Lines to the console and, once the data directory is known, to <dataDir>/phasedesk.log. */
class DesktopLog {
  file: string | undefined;

  readonly line = (line: string): void => {
    const stamped = `${new Date().toISOString()} ${line}`;
    console.log(stamped);
    if (this.file) {
      try {
        appendFileSync(this.file, stamped + '\n');
      } catch {
        /* logging must never stop the app */
      }
    }
  };
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
 * Earlier builds kept the service data in Electron's userData folder (on Linux not the CLI's folder): say where
 * it is rather than silently starting empty; nothing is moved or deleted.
 */
function noticeEarlierData(electronFolder: string, dataDir: string, log: (line: string) => void): void {
  if (
    electronFolder !== dataDir &&
    existsSync(join(electronFolder, 'phasedesk.sqlite')) &&
    !existsSync(join(dataDir, 'phasedesk.sqlite'))
  ) {
    log(
      `earlier PhaseDesk data found in ${electronFolder}; this start uses ${dataDir} (start with PHASEDESK_DATA_DIR=${electronFolder} to keep using it)`,
    );
  }
}

/**
 * Packaged app: the native core sits in the unpacked app folder next to dist/ (electron-builder.yml). Inside
 * app.asar the unpacked copy (asarUnpack in electron-builder.yml) is named explicitly, so the workers' dlopen never
 * depends on asar path redirection.
 */
function useUnpackedAddon(): void {
  const addon = join(PACKAGE_ROOT, 'native-core', 'build', 'Release', 'phasedesk_core.node').replace(
    /app\.asar([\\/])/,
    'app.asar.unpacked$1',
  );
  if (!process.env.PHASEDESK_CORE_ADDON && existsSync(addon)) process.env.PHASEDESK_CORE_ADDON = addon;
}

/**
 * The embedded service in the CLI's data directory, exactly as `phasedesk start` finds it (resolveSettings without a
 * --data-dir flag), so the app and the CLI share keys, databases and tasks. Electron's own browser data stays in
 * app.getPath('userData') (on macOS and Windows the same folder; on Linux ~/.config/PhaseDesk).
 */
async function startEmbeddedService(
  app: ElectronMain['app'],
  env: NodeJS.ProcessEnv,
  log: DesktopLog,
): Promise<{ svc: RunningService; dataDir: string }> {
  const dataDir = resolveSettings({}, env).dataDir;
  mkdirSync(dataDir, { recursive: true });
  log.file = join(dataDir, 'phasedesk.log');
  noticeEarlierData(app.getPath('userData'), dataDir, log.line);
  useUnpackedAddon();
  const wanted = resolveSettings({ dataDir }, env).port;
  const port = (await portFree(wanted)) ? wanted : 0;
  if (port !== wanted) log.line(`port ${wanted} is in use; the service takes a free port instead`);
  return { svc: await startService({ dataDir, port }, log.line), dataDir };
}

export function runDesktop(
  electron: ElectronMain,
  opts: { preloadPath?: string; env?: NodeJS.ProcessEnv } = {},
): DesktopHandle {
  const { app, ipcMain, dialog } = electron;
  const preloadPath = opts.preloadPath ?? join(here, 'preload.cjs');
  const env = opts.env ?? process.env;
  const log = new DesktopLog();
  let svc: RunningService | undefined;
  let win: BrowserWindowLike | undefined;

  const openWindow = (origin: string) => {
    win = createWindow(electron, origin, preloadPath, () => {
      win = undefined;
    });
  };
  async function start(): Promise<void> {
    const { svc: s, dataDir } = await startEmbeddedService(app, env, log);
    svc = s;
    const session: DesktopSession = {
      apiKey: await desktopKey(s, dataDir, log.line),
      consoleToken: s.consoleToken,
      desktop: true,
    };
    log.line(`PhaseDesk service on ${s.baseUrl} (data in ${dataDir})`);
    answerSessionRequests(ipcMain, SESSION_CHANNEL, s.ctx.origin, session);
    openWindow(s.ctx.origin);
  }

  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => {
    resolveStopped = r;
  });
  const handle = (started: Promise<void>): DesktopHandle => ({
    started,
    service: () => svc,
    window: () => win,
    stopped,
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
    if (!win && svc) openWindow(svc.ctx.origin);
  });
  app.on('window-all-closed', () => app.quit());
  closeServiceBeforeQuit(app, () => svc, log.line, resolveStopped);
  const started = app
    .whenReady()
    .then(start)
    .catch((err: Error) => {
      log.line(`PhaseDesk could not start: ${err.stack ?? err.message}`);
      dialog.showErrorBox(
        'PhaseDesk could not start',
        `${err.message}\n\nDetails are in ${log.file ?? 'the console'}.`,
      );
      app.exit(1);
    });
  return handle(started);
}

/** Keeps the app alive at its first quit until the workers have stopped and the store is closed, then quits for real. */
function closeServiceBeforeQuit(
  app: ElectronMain['app'],
  service: () => RunningService | undefined,
  log: (line: string) => void,
  onStopped: () => void,
): void {
  let stopping = false;
  let stopped = false;
  app.on('before-quit', (e) => {
    const svc = service();
    if (!svc || stopped) return;
    e.preventDefault();
    if (stopping) return;
    stopping = true;
    log('stopping the service (running calculations are cancelled)');
    svc
      .close()
      .catch((err: Error) => log(`service close failed: ${err.message}`))
      .finally(() => {
        stopped = true;
        onStopped();
        app.quit();
      });
  });
}
