// The few Electron APIs PhaseDesk uses, typed locally. electron is an optionalDependency that cannot be
// downloaded on the build machines, so `tsc` must pass without its types; main.ts and preload.cts load the
// module at run time (require('electron') inside the Electron process) and cast it to these shapes.
// Names and signatures follow https://www.electronjs.org/docs/latest/api/ (Electron 45).

export interface WebContentsLike {
  on(event: 'will-navigate', listener: (event: { preventDefault(): void }, url: string) => void): void;
  setWindowOpenHandler(
    handler: (details: { url: string }) => {
      action: 'allow' | 'deny';
      overrideBrowserWindowOptions?: BrowserWindowOptions;
    },
  ): void;
  openDevTools(): void;
}

export interface BrowserWindowOptions {
  width?: number;
  height?: number;
  minWidth?: number;
  minHeight?: number;
  show?: boolean;
  title?: string;
  backgroundColor?: string;
  webPreferences?: {
    preload?: string;
    contextIsolation?: boolean;
    sandbox?: boolean;
    nodeIntegration?: boolean;
    webSecurity?: boolean;
    spellcheck?: boolean;
  };
}

export interface BrowserWindowLike {
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): void;
  on(event: 'closed', listener: () => void): void;
  show(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  webContents: WebContentsLike;
}

export interface IpcMainEventLike {
  returnValue: unknown;
  senderFrame: { url: string } | null;
}

export interface ElectronMain {
  app: {
    requestSingleInstanceLock(): boolean;
    whenReady(): Promise<void>;
    on(event: 'second-instance' | 'window-all-closed' | 'activate', listener: () => void): void;
    on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): void;
    quit(): void;
    exit(code?: number): void;
    getPath(name: 'userData' | 'logs'): string;
    isPackaged: boolean;
    setAppUserModelId?(id: string): void;
  };
  BrowserWindow: new (options: BrowserWindowOptions) => BrowserWindowLike;
  ipcMain: { on(channel: string, listener: (event: IpcMainEventLike) => void): void };
  shell: { openExternal(url: string): Promise<void> };
  dialog: { showErrorBox(title: string, content: string): void };
}

/** What the preload exposes to the renderer as globalThis.phasedesk (read by renderer/src/lib/api.ts and console.svelte.ts). */
export interface DesktopSession {
  apiKey: string | null;
  consoleToken: string;
  /** Marks the desktop shell (the renderer can say "restart PhaseDesk" instead of "restart the service"). */
  desktop: true;
}
export const SESSION_CHANNEL = 'phasedesk:session';
