// The tolerance rule of the cases file: pass if |computed - value| <= atol + rtol*|value| per expected
// entry, element-wise for lists and for the numbers inside nested objects (shared/validation/README.md).
import type { ExpectedEntry, Tolerance } from './types.js';

export interface Comparison {
  ok: boolean;
  deviation?: number;
  message?: string;
}

function numericCompare(
  computed: unknown,
  expected: unknown,
  rtol: number,
  atol: number,
  acc: { dev: number },
): string | null {
  if (typeof expected === 'number') {
    if (typeof computed !== 'number' || !Number.isFinite(computed))
      return `computed value ${String(computed)} is not a number`;
    const d = Math.abs(computed - expected);
    acc.dev = Math.max(acc.dev, d);
    return d <= atol + rtol * Math.abs(expected)
      ? null
      : `|${computed} - ${expected}| = ${d} > ${atol + rtol * Math.abs(expected)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(computed) || computed.length !== expected.length) return 'list lengths differ';
    for (let i = 0; i < expected.length; i++) {
      const m = numericCompare(computed[i], expected[i], rtol, atol, acc);
      if (m) return `[${i}] ${m}`;
    }
    return null;
  }
  if (expected && typeof expected === 'object') {
    if (!computed || typeof computed !== 'object') return 'computed value is not an object';
    for (const [k, v] of Object.entries(expected as Record<string, unknown>)) {
      const m = numericCompare((computed as Record<string, unknown>)[k], v, rtol, atol, acc);
      if (m) return `${k}: ${m}`;
    }
    return null;
  }
  return computed === expected ? null : `${String(computed)} != ${String(expected)}`;
}

/**
 * rtol and atol of an entry: as its fields give them, else as its `basis` writes them ("allclose(rtol=1e-3)"),
 * else the defaults of the numpy call the basis names (README "EXPECTED entries": assert_allclose rtol 1e-7,
 * atol 0; isclose/allclose rtol 1e-5, atol 1e-8; assert_almost_equal(decimal=d) atol 1.5*10^-d, d = 7 by
 * default); without any of them, exact.
 */
export function toleranceOf(t: Tolerance | undefined): { rtol: number; atol: number } {
  const basis = t?.basis ?? '';
  const param = (name: string) => {
    const m = new RegExp(`\\b${name}\\s*=\\s*([-+0-9.eE]+)`).exec(basis);
    return m && Number.isFinite(Number(m[1])) ? Number(m[1]) : undefined;
  };
  let def = { rtol: 0, atol: 0 };
  if (/assert_almost_equal/.test(basis)) def = { rtol: 0, atol: 1.5 * 10 ** -(param('decimal') ?? 7) };
  else if (/assert_allclose/.test(basis)) def = { rtol: 1e-7, atol: 0 };
  else if (/\b(isclose|allclose)\b/.test(basis)) def = { rtol: 1e-5, atol: 1e-8 };
  return { rtol: t?.rtol ?? param('rtol') ?? def.rtol, atol: t?.atol ?? param('atol') ?? def.atol };
}

/** less_than / greater_than: the computed number, or every number of a computed list, against the value. */
function bound(computed: unknown, value: unknown, below: boolean): Comparison {
  const vals = Array.isArray(computed) ? computed : [computed];
  const ok =
    typeof value === 'number' &&
    vals.length > 0 &&
    vals.every((c) => typeof c === 'number' && (below ? c < value : c > value));
  return ok
    ? { ok }
    : { ok, message: `${JSON.stringify(computed)} is not ${below ? 'below' : 'above'} ${String(value)}` };
}

export function compareEntry(e: ExpectedEntry, computed: unknown): Comparison {
  const { rtol, atol } = toleranceOf(e.tolerance);
  switch (e.compare ?? 'numeric') {
    case 'equal':
      return JSON.stringify(computed) === JSON.stringify(e.value) ? { ok: true } : { ok: false, message: 'not equal' };
    case 'less_than':
      return bound(computed, e.value, true);
    case 'greater_than':
      return bound(computed, e.value, false);
    case 'set_equal': {
      const a = new Set(computed as string[]);
      const b = new Set(e.value as string[]);
      return { ok: a.size === b.size && [...a].every((x) => b.has(x)) };
    }
    case 'multiset_equal':
      return {
        ok: JSON.stringify([...(computed as string[])].sort()) === JSON.stringify([...(e.value as string[])].sort()),
      };
    case 'sorted': {
      const acc = { dev: 0 };
      const sortNum = (v: unknown) => (Array.isArray(v) ? [...(v as number[])].sort((x, y) => x - y) : v);
      const m = numericCompare(sortNum(computed), sortNum(e.value), rtol, atol, acc);
      return { ok: m === null, deviation: acc.dev, message: m ?? undefined };
    }
    case 'unordered': {
      // Lists whose items may come in any order (e.g. composition sets): every expected item must
      // match a distinct computed item within the tolerance (small lists: exhaustive matching).
      if (!Array.isArray(computed) || !Array.isArray(e.value) || computed.length !== e.value.length) {
        return { ok: false, message: 'list lengths differ' };
      }
      const expectedItems = e.value as unknown[];
      const used = new Array<boolean>(computed.length).fill(false);
      let best = Infinity;
      const match = (i: number, dev: number): boolean => {
        if (i === expectedItems.length) {
          best = Math.min(best, dev);
          return true;
        }
        let found = false;
        for (let j = 0; j < computed.length; j++) {
          if (used[j]) continue;
          const acc = { dev: 0 };
          if (numericCompare(computed[j], expectedItems[i], rtol, atol, acc) !== null) continue;
          used[j] = true;
          found = match(i + 1, Math.max(dev, acc.dev)) || found;
          used[j] = false;
        }
        return found;
      };
      return match(0, 0)
        ? { ok: true, deviation: best }
        : { ok: false, message: 'no pairing of computed and expected items is within tolerance' };
    }
    case 'contains_sets': {
      // Every expected phase set must occur among the computed ones (compared as sets of names;
      // extra computed sets are allowed). Used by the step and map kinds.
      if (!Array.isArray(computed) || !Array.isArray(e.value))
        return { ok: false, message: 'expected lists of phase sets' };
      const norm = (v: unknown) =>
        Array.isArray(v) ? [...new Set((v as unknown[]).map(String))].sort().join('+') : String(v);
      const have = new Set((computed as unknown[]).map(norm));
      const missing = (e.value as unknown[]).map(norm).filter((k) => !have.has(k));
      return missing.length ? { ok: false, message: `missing ${missing.join(', ')}` } : { ok: true };
    }
    case 'numeric': {
      const acc = { dev: 0 };
      const m = numericCompare(computed, e.value, rtol, atol, acc);
      return { ok: m === null, deviation: acc.dev, message: m ?? undefined };
    }
    default:
      return { ok: false, message: `comparison '${e.compare}' is not implemented` };
  }
}
