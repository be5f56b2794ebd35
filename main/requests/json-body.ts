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

const OPEN_OBJECT = 0x7b,
  OPEN_ARRAY = 0x5b,
  CLOSE_OBJECT = 0x7d,
  CLOSE_ARRAY = 0x5d,
  COMMA = 0x2c,
  QUOTE = 0x22,
  BACKSLASH = 0x5c;
/** The JSON escape of U+0000: PostgreSQL's text cannot hold that character, and no field of the API means it. */
const NUL_ESCAPE = /\\u0000/i;

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
      if (++entries[depth - 1]! >= MAX_JSON_ENTRIES)
        return `${what}: an array or object with more than ${MAX_JSON_ENTRIES} entries`;
      if (++values > MAX_JSON_VALUES) return `${what}: more than ${MAX_JSON_VALUES} JSON values`;
    }
  }
  return null;
}

/**
 * The path ("task_config.tdb_code", "components[2]") of the first string or key holding U+0000 in a parsed body,
 * or null. Iterative: the body has passed the shape bounds, so the walk is bounded too.
 */
export function nulCharacterPath(value: unknown): string | null {
  const stack: { v: unknown; path: string }[] = [{ v: value, path: '' }];
  const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path || '(body)';
      continue;
    }
    if (Array.isArray(v)) {
      v.forEach((x, i) => stack.push({ v: x, path: `${path}[${i}]` }));
      continue;
    }
    if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\u0000')) return `${join(path, k.replaceAll('\u0000', '\\u0000'))} (a key)`;
        stack.push({ v: x, path: join(path, k) });
      }
    }
  }
  return null;
}

/** JSON.parse behind the shape bounds; both failures are 400s, and so is a string holding U+0000. */
export function parseJsonBody(text: string, what = 'request body'): unknown {
  const problem = jsonShapeProblem(text, what);
  if (problem) throw new HttpError(400, problem);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, `Invalid JSON body: ${(e as Error).message}`);
  }
  if (NUL_ESCAPE.test(text)) {
    const path = nulCharacterPath(value);
    if (path) throw new HttpError(400, `${path}: must not contain the NUL character (U+0000)`);
  }
  return value;
}
