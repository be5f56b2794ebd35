// Electron entry of the PhaseDesk desktop app (package.json "main": dist/main/electron/main.js).
// It loads Electron and hands over to runDesktop (main/electron/desktop.ts): the embedded service in this
// process (data in the same directory as `phasedesk start`), one window on the service's own origin (the listener serves
// renderer/dist), a single instance, and on quit the service is closed: listener, then the worker pool (running
// calculations are asked to cancel and given a grace period, main/service/scheduler.ts close()), then the store.
import { createRequire } from 'node:module';
import { runDesktop } from './desktop.js';
import type { ElectronMain } from './electron-api.js';

const require = createRequire(import.meta.url);

function loadElectron(): ElectronMain {
  // Outside Electron, require('electron') is the npm package's path string (or missing): say how to start instead.
  let m: unknown;
  try {
    m = require('electron');
  } catch {
    m = undefined;
  }
  if (!m || typeof m !== 'object' || !('app' in m)) {
    console.error(
      'dist/main/electron/main.js is the Electron entry: run it with `npx electron .` (Electron is an optional dependency).\n' +
        'Without Electron, start the service with `phasedesk start` and open the printed address in a browser.',
    );
    process.exit(1);
  }
  return m as ElectronMain;
}

runDesktop(loadElectron());
