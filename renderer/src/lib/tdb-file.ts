// Reading a TDB file the user picked or dropped, for an upload to the console's import (POST /console/v1/databases).

/** The service's upload cap (a 16 MiB JSON body) less the envelope. */
export const MAX_TDB_BYTES = 16 * 1024 * 1024 - 64 * 1024;

/** Why the file cannot be uploaded, or null. */
export function tdbFileProblem(f: File): string | null {
  if (f.size > MAX_TDB_BYTES) return `the file is ${(f.size / 1048576).toFixed(1)} MB; the limit is 16 MB`;
  return null;
}

/** TDB files are often Latin-1 (comments, references): decoded as UTF-8 when valid, else as Windows-1252. */
export async function readTdbText(f: File): Promise<string> {
  const buf = await f.arrayBuffer();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return new TextDecoder('windows-1252').decode(buf);
  }
}
