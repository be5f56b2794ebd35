// Kind "metastable": driving forces of phases (formula sheet §9.2) from the stable equilibrium, also as
// extrema over a composition grid ("max_over_grid(DF(PHASE))"), and isolated-phase quantities
// ("... of isolated PHASE": equilibrium with only that phase allowed and one composition set). T0 quantities are not implemented yet and are reported as unsupported.
import type { EquilibriumResult } from '../../core/equilibrium.js';
import type { ComputedValue, KindHandler, ValidationCase } from '../types.js';
import { caseDatabase } from '../databases.js';
import { isolatedQuantity, pointConditions, solveCase } from './equilibrium.js';

function driving(r: EquilibriumResult, phase: string): number | null {
  if (r.phases.some((p) => p.name === phase)) return 0;
  const m = r.metastable.find((p) => p.name === phase);
  return m ? m.DF : null;
}

/** Grid of a condition given as a list (numpy arange already expanded in the case) or {min,max,step}. */
function gridOf(c: ValidationCase): { key: string; values: number[] } | null {
  for (const [k, v] of Object.entries(c.conditions)) {
    if (Array.isArray(v)) return { key: k, values: v as number[] };
    if (v && typeof v === 'object' && 'min' in v) {
      const g = v as { min: number; max: number; step: number };
      const values: number[] = [];
      for (let x = g.min; x < g.max - 1e-12; x += g.step) values.push(x);
      return { key: k, values };
    }
  }
  return null;
}

export const metastable: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  const grid = gridOf(c);
  const results = new Map<number, EquilibriumResult>();
  const at = (v?: number): EquilibriumResult => {
    const key = v ?? NaN;
    if (!results.has(key)) {
      const cond = grid && v !== undefined ? pointConditions(c, { [grid.key]: v }) : pointConditions(c);
      const r = solveCase(c, db, cond);
      results.set(key, r);
    }
    return results.get(key)!;
  };
  return c.expected.map((e): ComputedValue => {
    const q = e.quantity.trim();
    let m: RegExpExecArray | null;
    if ((m = /^(max|min)_over_grid\(DF\(([A-Z0-9_]+)\)\)$/i.exec(q))) {
      if (!grid) return { value: null, unsupported: 'no grid in the conditions' };
      const vals: number[] = [];
      for (const v of grid.values) {
        const r = at(v);
        if (!r.converged) continue;  // "ignoring points without a result" (README)
        const df = driving(r, m[2].toUpperCase());
        if (df !== null) vals.push(df);
      }
      if (!vals.length) return { value: null, unsupported: 'no converged grid point' };
      return { value: m[1].toLowerCase() === 'max' ? Math.max(...vals) : Math.min(...vals) };
    }
    if ((m = /^DF\(([A-Z0-9_]+)\)$/i.exec(q))) {
      const r = at();
      if (!r.converged) throw new Error(`equilibrium did not converge: ${r.reason}`);
      const df = driving(r, m[1].toUpperCase());
      return df === null ? { value: null, unsupported: `${m[1]} not considered` } : { value: df };
    }
    const iso = isolatedQuantity(q, c, db);
    if (iso) return iso;
    if (/T0\(|GM\(FCC_A1\)=GM\(/.test(q)) return { value: null, unsupported: 'T0 calculations are not implemented yet' };
    return { value: null, unsupported: `quantity ${q}` };
  });
};
