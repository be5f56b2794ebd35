// Kind "derivative": equilibrium, then the total (dot) derivatives named "A.B" (formula sheet §9.4),
// computed by the solver from the converged state; other quantities as for kind "equilibrium".
import type { ComputedValue, KindHandler } from '../types.js';
import { caseDatabase } from '../databases.js';
import { pointConditions, quantityOf, solveCase } from './equilibrium.js';

const isDerivative = (q: string) => /^[A-Z0-9_(),#*]+\.(T|P|X\([A-Z0-9]+\))$/i.test(q.trim());

export const derivative: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  const derivs = c.expected.map((e) => e.quantity.trim()).filter(isDerivative);
  const r = solveCase(c, db, pointConditions(c), derivs);
  if (!r.converged) throw new Error(`equilibrium did not converge: ${r.reason}`);
  return c.expected.map((e): ComputedValue => {
    const q = e.quantity.trim();
    if (isDerivative(q)) {
      const v = r.derivatives[q];
      return v === undefined ? { value: null, unsupported: `derivative ${q}` } : { value: v };
    }
    return quantityOf(q, r, c, db) ?? { value: null, unsupported: `quantity ${q}` };
  });
};
