// Kind "relation": an identity between two model evaluations that must hold for any site fractions.
// Supported form: "GM(PHASE_A, y) - GM(PHASE_B, y)" -- both phases must have the same variables; the
// identity is checked on random configurations (fixed seed) and the value of largest magnitude is
// reported.
import { PhaseModel } from '../../core/models.js';
import { caseDatabase, stateOf } from '../databases.js';
import type { ComputedValue, KindHandler } from '../types.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return (s + 0.5) / 4294967296;
  };
}

export const relation: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  const { T, P } = stateOf(c);
  return c.expected.map((e): ComputedValue => {
    const m = /^GM\(\s*([^,]+?)\s*,\s*y\s*\)\s*-\s*GM\(\s*([^,]+?)\s*,\s*y\s*\)$/.exec(e.quantity);
    if (!m) return { value: null, unsupported: `relation ${e.quantity}` };
    const a = PhaseModel.build(db, m[1], c.components);
    const b = PhaseModel.build(db, m[2], c.components);
    if (!a || !b) throw new Error(`phase ${!a ? m[1] : m[2]} cannot form from ${c.components.join(',')}`);
    const key = (v: { sublattice: number; species: string }) => `${v.sublattice}:${v.species}`;
    if (a.variables.map(key).join() !== b.variables.map(key).join()) {
      throw new Error(`${m[1]} and ${m[2]} have different site-fraction variables`);
    }
    const rand = rng(12345);
    let worst = 0;
    const nsub = a.info.numSublattices;
    for (let trial = 0; trial < 200; trial++) {
      // uniform point on every sublattice simplex (t = -ln u, normalised)
      const y = new Float64Array(a.variables.length);
      for (let s = 0; s < nsub; s++) {
        const idx = a.variables.map((v, k) => (v.sublattice === s ? k : -1)).filter((k) => k >= 0);
        let sum = 0;
        for (const k of idx) sum += (y[k] = -Math.log(rand()));
        for (const k of idx) y[k] /= sum;
      }
      const d = a.evaluate(T, P, y, 0).GM - b.evaluate(T, P, y, 0).GM;
      if (Math.abs(d) > Math.abs(worst)) worst = d;
    }
    return { value: worst };
  });
};
