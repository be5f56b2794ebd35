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

/**
 * T0-type root: the value of `variable` (T or X(EL)) at which GM of p1 and p2, each alone as one
 * composition set at the overall composition, are equal. Sign changes are bracketed on a fine scan of
 * [t0_minimum_value, t0_maximum_value]; the root nearest the source's start value is refined by
 * bisection (pycalphad iterates from that start value, calculation settings of the case).
 */
function t0Root(c: ValidationCase, db: ReturnType<typeof caseDatabase>, p1: string, p2: string, variable: string,
  fixed: Record<string, number>): number | null {
  const calc = (c.calculation ?? {}) as Record<string, number>;
  const isT = variable === 'T';
  const lo = calc.t0_minimum_value ?? (isT ? 298.15 : 0);
  const hi = calc.t0_maximum_value ?? (isT ? 3000 : 1);
  const start = (isT ? calc.t0_start_T : calc.t0_start) ?? (lo + hi) / 2;
  const f = (v: number): number => {
    const cond = pointConditions(c, { ...fixed, [variable]: v });
    const g = (ph: string) => {
      const r = solveCase({ ...c, phases: [ph] }, db, cond, [], true);
      return r.converged ? r.GM : NaN;
    };
    return g(p1) - g(p2);
  };
  const n = isT ? 200 : 100;
  const xs: number[] = [];
  const fs: number[] = [];
  for (let i = 0; i <= n; i++) {
    xs.push(lo + ((hi - lo) * i) / n);
    fs.push(f(xs[i]));
  }
  let best: number | null = null;
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(fs[i]) || !Number.isFinite(fs[i + 1]) || fs[i] * fs[i + 1] > 0) continue;
    let a = xs[i], b = xs[i + 1], fa = fs[i];
    for (let k = 0; k < 60; k++) {
      const mid = 0.5 * (a + b);
      const fm = f(mid);
      if (!Number.isFinite(fm)) break;
      if (fa * fm <= 0) b = mid;
      else { a = mid; fa = fm; }
    }
    const root = 0.5 * (a + b);
    if (best === null || Math.abs(root - start) < Math.abs(best - start)) best = root;
  }
  return best;
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
    if ((m = /^(max|min)_over_grid\(T0\(([A-Z0-9_]+),([A-Z0-9_]+)\)\)$/i.exec(q))) {
      if (!grid) return { value: null, unsupported: 'no grid in the conditions' };
      const vals: number[] = [];
      for (const v of grid.values) {
        const t0 = t0Root(c, db, m[2].toUpperCase(), m[3].toUpperCase(), 'T', { [grid.key]: v });
        if (t0 !== null) vals.push(t0);
      }
      if (!vals.length) return { value: null, unsupported: 'no T0 found on the grid' };
      return { value: m[1].toLowerCase() === 'max' ? Math.max(...vals) : Math.min(...vals) };
    }
    if ((m = /^X\(([A-Z0-9]+)\) at which GM\(([A-Z0-9_]+)\)=GM\(([A-Z0-9_]+)\)$/i.exec(q))) {
      const x = t0Root(c, db, m[2].toUpperCase(), m[3].toUpperCase(), `X(${m[1].toUpperCase()})`, {});
      return x === null ? { value: null, unsupported: 'no root in range' } : { value: x };
    }
    return { value: null, unsupported: `quantity ${q}` };
  });
};
