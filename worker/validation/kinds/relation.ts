// Kind "relation": an identity between model evaluations that must hold for any site fractions, written as
// an expression of the vocabulary in which the atoms name the phase and "y", e.g.
// "GM(BCC_4SL, y) - GM(BCC_NOB, y)", "TC(B2_BCC, y) - TC(BCC_A2, y)". Every phase named with y must have the same
// site-fraction variables; the expression is evaluated (property mode, worker/validation/quantities.ts) on
// 200 random configurations (uniform on every sublattice simplex, fixed seed), or at the case's own
// site_fractions when it gives them, and the value of largest magnitude is reported.
import type { PhaseModel } from '../../core/models.js';
import { caseDatabase } from '../databases.js';
import { evaluateQuantity } from '../quantities.js';
import { phaseModel, Unsupported } from '../scope.js';
import type { ComputedValue, KindHandler, ValidationCase } from '../types.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return (s + 0.5) / 4294967296;
  };
}

function worstOf(values: unknown[]): number {
  let worst = 0;
  for (const v of values) {
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new Error(`the relation has no finite value (${String(v)})`);
    if (Math.abs(v) > Math.abs(worst)) worst = v;
  }
  return worst;
}

export const relation: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  return c.expected.map((e): ComputedValue => {
    try {
      const phases = [
        ...new Set([...e.quantity.matchAll(/([A-Za-z0-9_]+)\s*,\s*y\s*\)/g)].map((m) => m[1].toUpperCase())),
      ];
      if (!phases.length) throw new Unsupported(`relation ${e.quantity}: no atom names a phase with y`);
      const scope = (cc: ValidationCase) => ({ c: cc, db, mode: 'property' as const, cond: cc.conditions, entry: e });
      if (c.site_fractions && phases.every((p) => Object.keys(c.site_fractions!).some((k) => k.toUpperCase() === p))) {
        const v = evaluateQuantity(e.quantity, scope(c));
        return { value: Array.isArray(v) ? worstOf(v) : worstOf([v]) };
      }
      const models: PhaseModel[] = phases.map((p) => phaseModel(db, p, c.components));
      const key = (m: PhaseModel) => m.variables.map((v) => `${v.sublattice}:${v.species}`).join();
      if (models.some((m) => key(m) !== key(models[0])))
        throw new Error(`${phases.join(', ')} have different site-fraction variables`);
      const a = models[0];
      const rand = rng(12345);
      const values: unknown[] = [];
      for (let trial = 0; trial < 200; trial++) {
        const spec: Array<Record<string, number>> = Array.from({ length: a.info.numSublattices }, () => ({}));
        for (let s = 0; s < a.info.numSublattices; s++) {
          const vars = a.variables.filter((v) => v.sublattice === s);
          const t = vars.map(() => -Math.log(rand()));
          const sum = t.reduce((x, y) => x + y, 0);
          vars.forEach((v, i) => (spec[s][v.species] = t[i] / sum));
        }
        const sf = Object.fromEntries(phases.map((p) => [p, spec]));
        const v = evaluateQuantity(e.quantity, scope({ ...c, site_fractions: sf }));
        values.push(...(Array.isArray(v) ? v : [v]));
      }
      return { value: worstOf(values) };
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      return err instanceof Unsupported ? { value: null, unsupported: msg } : { value: null, error: msg };
    }
  });
};
