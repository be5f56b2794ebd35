// The API key in use and what GET /key/info said about it; the elements last picked on a database page
// (New task starts from them).
import { storedKey, type KeyInfo } from './api.js';
export const session = $state<{
  key: string | null;
  info: KeyInfo | null;
  picked: { db: string; elements: string[] } | null;
}>({ key: storedKey(), info: null, picked: null });
