import type { Store } from '../db/index.js';
import type { ServiceSettings } from '../config.js';

/** Everything a service function needs; built once by main/server.ts. */
export interface ServiceContext {
  store: Store;
  settings: ServiceSettings;
  /** HMAC secret for signed download URLs (from <dataDir>/secret). */
  secret: Buffer;
  /** Origin used in signed URLs, e.g. http://127.0.0.1:7431 (set once listening). */
  origin: string;
  /** Kicks the scheduler after a task was created (no-op before the scheduler starts). */
  kick(): void;
  /** Asks a running calculation to stop (sets the cancel flag of its control block). */
  requestStop(taskUuid: string): void;
  log(line: string): void;
}
