// Preload of the PhaseDesk window (compiled to dist/main/electron/preload.cjs: sandboxed preloads must be
// CommonJS). It runs with contextIsolation and sandbox on, asks the main process once for the session
// (API key of the embedded service + console token) and exposes it read-only as globalThis.phasedesk, which
// renderer/src/lib/api.ts (apiKey) and renderer/src/lib/console.svelte.ts (consoleToken) read.
import type { DesktopSession } from './electron-api.js';

interface PreloadElectron {
  contextBridge: { exposeInMainWorld(key: string, api: unknown): void };
  ipcRenderer: { sendSync(channel: string): unknown };
}

const { contextBridge, ipcRenderer } = require('electron') as PreloadElectron;
// Same value as SESSION_CHANNEL in electron-api.ts (a CommonJS preload cannot load that ES module at run time).
const session = ipcRenderer.sendSync('phasedesk:session') as DesktopSession | null;
// The main process answers null to any page that is not the service's own origin: expose nothing then.
if (session) contextBridge.exposeInMainWorld('phasedesk', Object.freeze({ ...session }));
