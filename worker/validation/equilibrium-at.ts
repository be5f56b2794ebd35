// The equilibrium at a validation point: the point's conditions as solver conditions, and Y(PHASE,s,SPECIES)
// conditions checked against the result or solved for by the free mole fraction.
import type { EquilibriumConditions, EquilibriumResult } from '../core/equilibrium.js';
import { compositionKey, normKey, siteFractionConditions, type PointConditions } from './conditions.js';
import { caseElements, NoResult, phaseModel, solveCached, Unsupported, type Scope } from './scope.js';

/** Solver conditions of a point (T, P, X, W, MU; N must be 1; Y conditions are handled by the caller). */
export function solverConditions(point: PointConditions): EquilibriumConditions {
  const out: EquilibriumConditions = { T: NaN, P: 101325 };
  for (const [k0, v] of Object.entries(point)) {
    const k = normKey(k0);
    if (k === 'T') out.T = v;
    else if (k === 'P') out.P = v;
    else if (k === 'N') {
      if (v !== 1) throw new Unsupported('only N = 1 is supported');
    } else if (/^Y\(/.test(k)) continue;
    else {
      const ck = compositionKey(k);
      if (!ck) throw new Unsupported(`condition ${k0}`);
      (out[ck.kind] ??= {})[ck.element] = v;
    }
  }
  if (!Number.isFinite(out.T)) throw new Unsupported('no temperature condition');
  return out;
}

const clampFraction = (v: number) => Math.min(1 - 1e-10, Math.max(1e-10, v));

function siteFractionOf(
  s: Scope,
  r: EquilibriumResult,
  phase: string,
  sublattice: number,
  species: string,
): number | null {
  const set = r.phases.find((p) => p.name === phase);
  if (!set) return null;
  const model = phaseModel(s.db, phase, s.c.components);
  const k = model.variables.findIndex((v) => v.sublattice === sublattice && v.species === species);
  return k < 0 ? 0 : set.y[k];
}

/**
 * The equilibrium at a point. Y(PHASE,s,SPECIES) conditions: when the other conditions already fix the
 * system (C-1 composition conditions), the Y condition must agree with the result (checked to 1e-6 after
 * the 1e-10 clamp); when it replaces one composition condition (beside X, W or MU ones), the free mole
 * fraction (of the species' element if that is free) is solved so that the stable PHASE has that site
 * fraction (scan + bisection).
 */
export function equilibriumAt(s: Scope, point: PointConditions, derivatives: string[] = []): EquilibriumResult {
  const phases = s.isolated ? [s.isolated] : s.c.phases;
  const base = solverConditions(point);
  const run = (cond: EquilibriumConditions) =>
    solveCached(s.db, s.c.components, phases, cond, !!s.isolated, derivatives);
  const ys = siteFractionConditions(point);
  const els = caseElements(s.c);
  const fixed = Object.keys(base.X ?? {}).length + Object.keys(base.W ?? {}).length + Object.keys(base.MU ?? {}).length;
  if (ys.length === 0 || fixed >= els.length - 1) {
    const r = run(base);
    if (!r.converged) throw new NoResult(`equilibrium did not converge: ${r.reason}`);
    for (const yc of ys) {
      const got = siteFractionOf(s, r, yc.phase, yc.sublattice, yc.species);
      if (got === null) throw new NoResult(`condition ${yc.key}: ${yc.phase} is not stable at the other conditions`);
      if (Math.abs(got - clampFraction(yc.value)) > 1e-6) {
        throw new Error(
          `condition ${yc.key} = ${yc.value} contradicts the other conditions (the equilibrium has ${got})`,
        );
      }
    }
    return r;
  }
  if (ys.length !== 1 || fixed !== els.length - 2) {
    throw new Unsupported(
      'Y conditions: one Y condition may replace one composition condition; other combinations are not supported',
    );
  }
  const yc = ys[0];
  // the mole fraction solved for: of an element no X, W or MU condition names (the other conditions stay)
  const freeEls = els.filter((e) => ![base.X, base.W, base.MU].some((c) => c && e in c));
  const vary = freeEls.includes(yc.species) ? yc.species : freeEls[0];
  const others = Object.values(base.X ?? {}).reduce((a, b) => a + b, 0);
  const target = clampFraction(yc.value);
  const f = (x: number): { d: number; r: EquilibriumResult } | null => {
    const r = run({ ...base, X: { ...(base.X ?? {}), [vary]: x } });
    if (!r.converged) return null;
    const got = siteFractionOf(s, r, yc.phase, yc.sublattice, yc.species);
    return got === null ? null : { d: got - target, r };
  };
  const lo = 1e-10,
    hi = 1 - others - 1e-10;
  const n = 50;
  let prev: { x: number; v: { d: number; r: EquilibriumResult } } | null = null;
  for (let i = 0; i <= n; i++) {
    const x = lo + ((hi - lo) * i) / n;
    const v = f(x);
    if (!v) {
      prev = null;
      continue;
    }
    if (v.d === 0) return v.r;
    if (prev && prev.v.d * v.d < 0) {
      let a = prev.x,
        b = x,
        fa = prev.v.d,
        best = v;
      for (let k = 0; k < 80 && b - a > 1e-15; k++) {
        const mid = 0.5 * (a + b);
        const fm = f(mid);
        if (!fm) break;
        best = fm;
        if (fa * fm.d <= 0) b = mid;
        else {
          a = mid;
          fa = fm.d;
        }
      }
      return best.r;
    }
    prev = { x, v };
  }
  throw new NoResult(`no X(${vary}) gives ${yc.key} = ${yc.value}`);
}
