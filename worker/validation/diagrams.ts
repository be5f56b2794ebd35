// The phase diagrams of validation cases, mapped once per run: a binary case's T-X diagram
// (worker/mapping/binary.ts) and a ternary case's isothermal section (worker/mapping/ternary.ts).
import { mapBinary, type BinaryDiagram } from '../mapping/binary.js';
import { mapTernary, type TernarySection } from '../mapping/ternary.js';
import { caseDatabase } from './databases.js';
import { caseElements } from './scope.js';
import type { KindHandler, ValidationCase } from './types.js';

/** Range {min, max} of a grid condition, or null. */
function rangeOf(v: unknown): [number, number] | null {
  if (v && typeof v === 'object' && !Array.isArray(v) && 'min' in v && 'max' in v) {
    const o = v as { min: number; max: number };
    return [o.min, o.max];
  }
  return null;
}

const diagrams = new Map<string, BinaryDiagram>();

/**
 * The diagram of a binary case (cached per database, phases and ranges for the run). The x component
 * is the one a composition condition names (else the second element); T range from the case's T grid
 * or `defaultT`.
 */
export function caseDiagram(
  c: ValidationCase,
  ctx: Parameters<KindHandler>[1],
  defaultT: [number, number] = [250, 2200],
): BinaryDiagram {
  const els = caseElements(c);
  if (els.length !== 2)
    throw new Error(`case ${c.id}: a phase diagram needs exactly 2 elements, got ${els.join(', ')}`);
  const db = caseDatabase(c, ctx);
  let xc = els[1];
  let X: [number, number] = [0, 1];
  for (const [k, v] of Object.entries(c.conditions)) {
    const m = /^X\(([A-Z0-9]+)\)$/i.exec(k);
    if (m && els.includes(m[1].toUpperCase())) {
      xc = m[1].toUpperCase();
      X = rangeOf(v) ?? [0, 1];
    }
  }
  const T = rangeOf(c.conditions.T) ?? defaultT;
  const P = typeof c.conditions.P === 'number' ? c.conditions.P : 101325;
  const key = JSON.stringify([c.tdb, c.parameter_overrides ?? {}, els, xc, c.phases, T, X, P]);
  let d = diagrams.get(key);
  if (!d) {
    d = mapBinary({
      database: db,
      components: [els[0], els[1]],
      xComponent: xc,
      phases: c.phases,
      T,
      X,
      P,
      threads: 1,
    });
    diagrams.set(key, d);
  }
  return d;
}

const sections = new Map<string, TernarySection>();

/**
 * The isothermal section of a ternary case at its fixed T (cached for the run); a composition condition given as a
 * range {min, max} limits that component's window.
 */
export function caseSection(c: ValidationCase, ctx: Parameters<KindHandler>[1]): TernarySection {
  const els = caseElements(c);
  if (els.length !== 3 || typeof c.conditions.T !== 'number')
    throw new Error(`case ${c.id}: an isothermal section needs 3 elements and one T`);
  const db = caseDatabase(c, ctx);
  const window = els.map((e): [number, number] => {
    const k = Object.keys(c.conditions).find((key) => new RegExp(`^X\\(${e}\\)$`, 'i').test(key));
    return (k && rangeOf(c.conditions[k])) || [0, 1];
  });
  const P = typeof c.conditions.P === 'number' ? c.conditions.P : 101325;
  const key = JSON.stringify([c.tdb, c.parameter_overrides ?? {}, els, c.phases, c.conditions.T, window, P]);
  let s = sections.get(key);
  if (!s) {
    s = mapTernary({
      database: db,
      components: [els[0], els[1], els[2]],
      phases: c.phases,
      T: c.conditions.T,
      P,
      window,
      threads: 2,
    });
    sections.set(key, s);
  }
  return s;
}
