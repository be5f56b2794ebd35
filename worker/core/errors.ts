// Errors thrown by the calculation core (native-core). Every exception that crosses the Node-API boundary
// becomes an Error with a clear message and a machine-readable `code` (as better-sqlite3's SqliteError);
// code that reacts to a kind of failure reads the code, never the message text. The codes are listed once, in
// native-core/src/io/errors.hpp (kErrorCodes), from which error-codes.generated.ts is made.
import { CORE_ERROR_CODES } from './error-codes.generated.js';

export { CORE_ERROR_CODES };

export type CoreErrorCode = (typeof CORE_ERROR_CODES)[number];

/** An Error thrown by the core. */
export interface CoreError extends Error {
  code: CoreErrorCode;
  /** PD_TDB_*, PD_FILE: the file's base name */
  file?: string;
  /** PD_TDB_*, PD_FILE: the 1-based line (0 when the file could not be read) */
  line?: number;
  /** PD_TDB_*, PD_FILE: the message without "FILE:LINE: " */
  reason?: string;
  /** PD_INTERNAL: the C++ exception's own text, for a bug report (never shown as the message) */
  detail?: string;
}

const KNOWN = new Set<string>(CORE_ERROR_CODES);

/** True for an Error thrown by the core, optionally of one of the given codes. */
export function isCoreError(e: unknown, ...codes: CoreErrorCode[]): e is CoreError {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string' || !KNOWN.has(code)) return false;
  return codes.length === 0 || codes.includes(code as CoreErrorCode);
}

/** True for a refused database file (malformed, beyond a bound, unreadable): the error names file and line. */
export function isDatabaseFileError(e: unknown): e is CoreError & { file: string; line: number; reason: string } {
  return isCoreError(e, 'PD_TDB_SYNTAX', 'PD_TDB_LIMIT', 'PD_FILE');
}
