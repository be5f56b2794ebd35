// The tolerance rule of the cases file: pass if |computed - value| <= atol + rtol*|value| per expected
// entry, element-wise for lists and for the numbers inside nested objects (shared/validation/README.md).
import type { ExpectedEntry } from './types.js';

export interface Comparison {
  ok: boolean;
  deviation?: number;
  message?: string;
}

function numericCompare(computed: unknown, expected: unknown, rtol: number, atol: number, acc: { dev: number }): string | null {
  if (typeof expected === 'number') {
    if (typeof computed !== 'number' || !Number.isFinite(computed)) return `computed value ${String(computed)} is not a number`;
    const d = Math.abs(computed - expected);
    acc.dev = Math.max(acc.dev, d);
    return d <= atol + rtol * Math.abs(expected) ? null : `|${computed} - ${expected}| = ${d} > ${atol + rtol * Math.abs(expected)}`;
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

export function compareEntry(e: ExpectedEntry, computed: unknown): Comparison {
  const rtol = e.tolerance?.rtol ?? 0;
  const atol = e.tolerance?.atol ?? 0;
  switch (e.compare ?? 'numeric') {
    case 'equal':
      return JSON.stringify(computed) === JSON.stringify(e.value) ? { ok: true } : { ok: false, message: 'not equal' };
    case 'less_than':
      return { ok: typeof computed === 'number' && computed < (e.value as number) };
    case 'greater_than':
      return { ok: typeof computed === 'number' && computed > (e.value as number) };
    case 'set_equal': {
      const a = new Set(computed as string[]);
      const b = new Set(e.value as string[]);
      return { ok: a.size === b.size && [...a].every((x) => b.has(x)) };
    }
    case 'multiset_equal':
      return { ok: JSON.stringify([...(computed as string[])].sort()) === JSON.stringify([...(e.value as string[])].sort()) };
    case 'sorted': {
      const acc = { dev: 0 };
      const sortNum = (v: unknown) => (Array.isArray(v) ? [...(v as number[])].sort((x, y) => x - y) : v);
      const m = numericCompare(sortNum(computed), sortNum(e.value), rtol, atol, acc);
      return { ok: m === null, deviation: acc.dev, message: m ?? undefined };
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
