// Shape bounds of JSON request bodies, checked on the raw text before JSON.parse: one linear pass with an explicit
// counter stack (no recursion), so neither a body nested thousands of levels deep (which overflowed recursive walks
// such as the cache key's canonical JSON) nor one with hundreds of thousands of entries (which held the event loop
// for seconds in validation) reaches any code that walks the parsed value.
import { HttpError } from '../util/errors.js';

/** Deepest nesting of arrays and objects in a body (a task creation request needs 5). */
export const MAX_JSON_DEPTH = 32;
/** Most entries of one array or object. */
export const MAX_JSON_ENTRIES = 10_000;
/** Most arrays, objects and entries in a whole body. */
export const MAX_JSON_VALUES = 100_000;

const OPEN_OBJECT = 0x7b, OPEN_ARRAY = 0x5b, CLOSE_OBJECT = 0x7d, CLOSE_ARRAY = 0x5d, COMMA = 0x2c, QUOTE = 0x22, BACKSLASH = 0x5c;

/**
 * "<what>: <bound>" when the JSON text exceeds a bound, null otherwise. The text is not validated as JSON here
 * (JSON.parse does that next); strings are skipped, so a large file inside a string costs one pass.
 */
export function jsonShapeProblem(text: string, what = 'request body'): string | null {
  // entries[d] counts the commas seen at depth d + 1, i.e. entries - 1 of the open container.
  const entries = new Int32Array(MAX_JSON_DEPTH + 1);
  let depth = 0;
  let values = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const ch = text.charCodeAt(i);
    if (ch === QUOTE) {
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (ch === OPEN_OBJECT || ch === OPEN_ARRAY) {
      if (depth >= MAX_JSON_DEPTH) return `${what}: JSON nested more than ${MAX_JSON_DEPTH} levels deep`;
      entries[depth] = 0;
      depth++;
      if (++values > MAX_JSON_VALUES) return `${what}: more than ${MAX_JSON_VALUES} JSON values`;
    } else if (ch === CLOSE_OBJECT || ch === CLOSE_ARRAY) {
      if (depth > 0) depth--;
    } else if (ch === COMMA && depth > 0) {
      if (++entries[depth - 1]! >= MAX_JSON_ENTRIES) return `${what}: an array or object with more than ${MAX_JSON_ENTRIES} entries`;
      if (++values > MAX_JSON_VALUES) return `${what}: more than ${MAX_JSON_VALUES} JSON values`;
    }
  }
  return null;
}

/** JSON.parse behind the shape bounds; both failures are 400s. */
export function parseJsonBody(text: string, what = 'request body'): unknown {
  const problem = jsonShapeProblem(text, what);
  if (problem) throw new HttpError(400, problem);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, `Invalid JSON body: ${(e as Error).message}`);
  }
}
