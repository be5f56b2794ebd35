// The phase-set changes along T at a line case's fixed overall composition (worker/mapping/queries.ts), cached
// per database for the run: the boundary kind's temperatures and the alloy's liquidus and solidus read them.
import { elementsOf } from '../../contract/phases.js';
import type { NativeDatabase } from '../core/native.js';
import { phaseSetChanges, type PhaseSetChange } from '../mapping/queries.js';
import { solverComponents } from './scope.js';
import type { ValidationCase } from './types.js';

/** Fixed mole fractions of a line case (X(EL) = number conditions). */
export function fixedX(c: ValidationCase): Record<string, number> {
  const X: Record<string, number> = {};
  for (const [k, v] of Object.entries(c.conditions)) {
    const m = /^X\(([A-Z0-9]+)\)$/i.exec(k);
    if (m && typeof v === 'number') X[m[1].toUpperCase()] = v;
  }
  return X;
}

const lines = new WeakMap<NativeDatabase, Map<string, PhaseSetChange[]>>();

/**
 * The line's fixed mole fractions: X(EL) conditions, or W(EL) mass fractions (all elements but one, masses
 * from the ELEMENT lines of the TDB) converted to mole fractions, as literature alloys are given in wt%.
 */
export function lineX(c: ValidationCase, db: NativeDatabase): Record<string, number> {
  const X = fixedX(c);
  const W: Record<string, number> = {};
  for (const [k, v] of Object.entries(c.conditions)) {
    const m = /^W\(([A-Z0-9]+)\)$/i.exec(k.replace(/\s+/g, ''));
    if (m && typeof v === 'number') W[m[1].toUpperCase()] = v;
  }
  if (!Object.keys(W).length) return X;
  if (Object.keys(X).length) throw new Error('a line needs X or W conditions, not both');
  const els = elementsOf(c.components);
  const free = els.filter((e) => !(e in W));
  if (free.length !== 1) throw new Error('give the mass fractions of all elements but one');
  const masses = Object.fromEntries(db.info().elements.map((e) => [e.name.toUpperCase(), e.mass]));
  const w = { ...W, [free[0]]: 1 - Object.values(W).reduce((a, b) => a + b, 0) };
  const n = Object.fromEntries(els.map((e) => [e, w[e] / masses[e]]));
  const tot = Object.values(n).reduce((a, b) => a + b, 0);
  return Object.fromEntries(Object.keys(W).map((e) => [e, n[e] / tot]));
}

/** The phase-set changes along T at the case's fixed composition (cached per database for the run). */
export function lineChanges(c: ValidationCase, db: NativeDatabase): PhaseSetChange[] {
  const P = typeof c.conditions.P === 'number' ? c.conditions.P : 101325;
  const X = lineX(c, db);
  const key = JSON.stringify([c.components, c.phases, X, P]);
  let m = lines.get(db);
  if (!m) lines.set(db, (m = new Map()));
  let out = m.get(key);
  if (!out) {
    out = phaseSetChanges({
      database: db,
      components: solverComponents(c, db),
      phases: c.phases,
      X,
      P,
      T: [200, 3000],
      step: 5,
    });
    m.set(key, out);
  }
  return out;
}
