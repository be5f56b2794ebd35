import type { Store } from '../db/index.js';
import type { ServiceSettings } from '../config.js';
import type { BlobStore } from './blob-store.js';

/** Everything a service function needs; built once by main/server.ts. */
export interface ServiceContext {
  store: Store;
  settings: ServiceSettings;
  /** Task files: <dataDir>/tasks/, on a lab server the shared directory (main/service/blob-store.ts). */
  blobs: BlobStore;
  /** HMAC secret for signed download URLs (from <dataDir>/secret). */
  secret: Buffer;
  /** Origin used in signed URLs, e.g. http://127.0.0.1:7431 (set once listening). */
  origin: string;
  /** Kicks the scheduler after a task was created (no-op before the scheduler starts). */
  kick(): void;
  /** Asks a running calculation to stop (sets the cancel flag of its control block). */
  requestStop(taskUuid: string): void;
  /** The server new tasks cannot be handed to right now (a lab server's Redis), or undefined. */
  queueUnavailable(): string | undefined;
  log(line: string): void;
}
