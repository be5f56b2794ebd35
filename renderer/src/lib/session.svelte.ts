// The API key in use and what GET /key/info said about it.
import { storedKey, type KeyInfo } from './api.js';
export const session = $state<{ key: string | null; info: KeyInfo | null }>({ key: storedKey(), info: null });
