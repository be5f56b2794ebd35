// Kind "boundary": the temperature at which the set of stable phases changes along a line of fixed
// overall composition (shared/validation/README.md), by a T scan of global equilibria and bisection
// to 1e-6 K (worker/mapping/queries.ts). The quantity names the two phase sets, e.g.
// "T at which the FCC_A1 miscibility gap closes (FCC_A1#1+FCC_A1#2 <-> FCC_A1)".
import { equilibrium } from '../../core/equilibrium.js';
import { phaseNames, type PhaseSetChange } from '../../mapping/queries.js';
import { caseDatabase } from '../databases.js';
import type { ComputedValue, KindHandler, ValidationCase } from '../types.js';
import { solverComponents } from '../scope.js';
import { fixedX, lineChanges } from '../line-changes.js';
import type { NativeDatabase } from '../../core/native.js';
import { alloyQuantity } from '../alloy.js';
import { vocabularyEntry } from './vocabulary.js';

/** "A#1+A#2" -> sorted base names ["A", "A"]. */
export function phaseSet(s: string): string[] {
  return s
    .split('+')
    .map((p) => p.trim().toUpperCase().replace(/#\d+$/, ''))
    .filter(Boolean)
    .sort();
}

/**
 * "X(EL) at which ... (SET1 <-> SET2)" at fixed T: the mole fraction of EL (the others fixed, the dependent
 * component taking up the rest) at which the stable set changes between the two named sets, located on a
 * 200-point scan of (0, 1 - others) and bisected to 1e-10. Null when no such change exists.
 */
function compositionBoundary(c: ValidationCase, db: NativeDatabase, el: string, a: string, b: string): number | null {
  const T = c.conditions.T,
    P = typeof c.conditions.P === 'number' ? c.conditions.P : 101325;
  if (typeof T !== 'number') throw new Error('a composition boundary needs a single T condition');
  const X = Object.fromEntries(Object.entries(fixedX(c)).filter(([k]) => k !== el));
  const others = Object.values(X).reduce((s, v) => s + v, 0);
  const at = (x: number) => {
    const r = equilibrium({
      database: db,
      components: solverComponents(c, db),
      phases: c.phases,
      conditions: { T, P, X: { ...X, [el]: x } },
    });
    return r.converged ? phaseNames(r).join('+') : null;
  };
  const lo = 1e-10,
    hi = 1 - others - 1e-10,
    n = 200;
  let px = lo,
    pk = at(lo);
  for (let i = 1; i <= n; i++) {
    const x = lo + ((hi - lo) * i) / n;
    const k = at(x);
    if (pk && k && pk !== k && ((pk === a && k === b) || (pk === b && k === a))) {
      let l = px,
        h = x;
      while (h - l > 1e-10) {
        const m = 0.5 * (l + h),
          km = at(m);
        if (km === pk) l = m;
        else h = m;
      }
      return 0.5 * (l + h);
    }
    px = x;
    pk = k;
  }
  return null;
}

export const boundary: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  let changes: PhaseSetChange[] | null = null;
  return c.expected.map((e): ComputedValue => {
    const q = e.quantity.trim();
    const alloy = alloyQuantity(q, c, db);
    if (alloy) return alloy;
    const xb = /^X\(([A-Z0-9]+)\)[^()]*\(([^()]*?)\s*<->\s*([^()]*?)\)\s*$/i.exec(q);
    if (xb) {
      const x = compositionBoundary(c, db, xb[1].toUpperCase(), phaseSet(xb[2]).join('+'), phaseSet(xb[3]).join('+'));
      return x === null
        ? { value: null, error: `no change ${xb[2]} <-> ${xb[3]} along X(${xb[1]}) at T = ${String(c.conditions.T)}` }
        : { value: x };
    }
    if (!/^T\b/.test(q) || (/^T\s+at which\b/.test(q) && !/<->/.test(q)))
      return vocabularyEntry(c, ctx, { c, db, mode: 'equilibrium', cond: c.conditions, entry: e });
    changes ??= lineChanges(c, db);
    const m = /\(([^()]*?)\s*<->\s*([^()]*?)\)\s*$/.exec(q);
    if (!m) {
      if (changes.length === 1) return { value: changes[0].T };
      return {
        value: null,
        unsupported: `quantity ${q} names no phase sets and the line has ${changes.length} changes`,
      };
    }
    const a = phaseSet(m[1]).join('+'),
      b = phaseSet(m[2]).join('+');
    const hit = changes.find((ch) => {
      const lo = ch.below.join('+'),
        hi = ch.above.join('+');
      return (lo === a && hi === b) || (lo === b && hi === a);
    });
    if (!hit) {
      return {
        value: null,
        unsupported: `no change ${a} <-> ${b} along the line; changes: ${changes.map((ch) => `${ch.below.join('+')} -> ${ch.above.join('+')} at ${ch.T.toFixed(3)} K`).join('; ')}`,
      };
    }
    return { value: hit.T };
  });
};
