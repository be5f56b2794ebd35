// The desktop window: one BrowserWindow on the service's origin, with the preload; anything else opens in the
// user's browser, and same-origin pages opened from it (downloads, openapi.json) get no preload, so no session.
import type { BrowserWindowLike, ElectronMain } from './electron-api.js';

function sameOriginAs(origin: string) {
  return (url: string) => {
    try {
      return new URL(url).origin === origin;
    } catch {
      return false;
    }
  };
}

/** Opens the window on the service's origin; `onClosed` runs once it is closed. */
export function createWindow(
  electron: Pick<ElectronMain, 'BrowserWindow' | 'shell'>,
  origin: string,
  preloadPath: string,
  onClosed: () => void,
): BrowserWindowLike {
  const { BrowserWindow, shell } = electron;
  const win = new BrowserWindow({
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
  const sameOrigin = sameOriginAs(origin);
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
  let open = true;
  win.once('ready-to-show', () => {
    if (open) win.show();
  });
  win.on('closed', () => {
    open = false;
    onClosed();
  });
  void win.loadURL(`${origin}/`);
  return win;
}

/** The preload asks synchronously; only a frame on the service's origin gets the key and the token. */
export function answerSessionRequests(
  ipcMain: ElectronMain['ipcMain'],
  channel: string,
  origin: string,
  session: unknown,
): void {
  const sameOrigin = sameOriginAs(origin);
  ipcMain.on(channel, (e) => {
    e.returnValue = sameOrigin(e.senderFrame?.url ?? '') ? session : null;
  });
}
