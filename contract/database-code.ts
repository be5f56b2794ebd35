// The code of a database record (task_config.tdb_code), which is also the name of its stored file
// (<dataDir>/databases/<code>.tdb): the rules every path that creates a record applies (the console, `db import`,
// the bundled catalog, the desktop's "Open a database file"), and the code derived from a file name.
// Pure TypeScript.

export const DATABASE_CODE_MAX = 64;
const CODE_CHARACTERS = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/**
 * Names Windows reserves for devices, with or without an extension (NUL.tdb is the device NUL): a file of that name
 * cannot be created there (Microsoft, "Naming Files, Paths, and Namespaces").
 */
const WINDOWS_DEVICE = /^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])$/i;

/** Why a code cannot name a database, or null when it can. */
export function databaseCodeProblem(code: string): string | null {
  if (code.length === 0) return 'must not be empty';
  if (code.length > DATABASE_CODE_MAX) return `must be at most ${DATABASE_CODE_MAX} characters (it has ${code.length})`;
  if (!CODE_CHARACTERS.test(code))
    return 'may only contain letters, digits, _ . - and must start with a letter or a digit';
  if (WINDOWS_DEVICE.test(code.split('.')[0]!))
    return `'${code}' is a device name on Windows (CON, PRN, AUX, NUL, COM0-9, LPT0-9) and cannot name a file`;
  return null;
}

/** The existing code that differs from `code` only by case (the two files would be one on macOS and Windows). */
export function caseCollision(code: string, existing: readonly string[]): string | undefined {
  return existing.find((c) => c !== code && c.toUpperCase() === code.toUpperCase());
}

/**
 * A code for a database file: its name without the extension, upper case, other characters as _, cut to the
 * length limit; a device name gets a _TDB suffix, and a code taken (in any case) gets _2, _3, ...
 */
export function codeFromFileName(fileName: string, taken: readonly string[] = []): string {
  const stem = fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  let base =
    stem
      .toUpperCase()
      .replace(/[^A-Z0-9_.-]+/g, '_')
      .replace(/^[^A-Z0-9]+/, '')
      .slice(0, DATABASE_CODE_MAX) || 'DATABASE';
  if (databaseCodeProblem(base)) base = `${base.slice(0, DATABASE_CODE_MAX - 4)}_TDB`;
  const used = new Set(taken.map((c) => c.toUpperCase()));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const c = `${base.slice(0, DATABASE_CODE_MAX - suffix.length)}${suffix}`;
    if (!used.has(c)) return c;
  }
}

/** A readable name for a database file: its name without the extension. */
export function nameFromFileName(fileName: string): string {
  return (
    fileName
      .replace(/^.*[\\/]/, '')
      .replace(/\.[^.]*$/, '')
      .trim()
      .slice(0, 200) || 'Database'
  );
}
