// Kind "equilibrium": global equilibrium at the case's conditions with the allowed phases
// (worker/core/equilibrium.ts), then the expected quantities (shared/validation/README.md).
// Also exports the pieces the kinds "derivative" and "metastable" reuse.
import { equilibrium as solve, type EquilibriumConditions, type EquilibriumResult } from '../../core/equilibrium.js';
import { PhaseModel } from '../../core/models.js';
import type { NativeDatabase } from '../../core/native.js';
import { caseDatabase } from '../databases.js';
import type { ComputedValue, KindHandler, ValidationCase } from '../types.js';

/** Point conditions of a case (lists/grids are handled by the caller). Y(...) conditions are ignored:
 * the cases that carry them also fix the same composition through X (README, cumg liquid cases). */
export function pointConditions(c: ValidationCase, override: Record<string, number> = {}): EquilibriumConditions {
  const raw = { ...c.conditions, ...override } as Record<string, unknown>;
  const out: EquilibriumConditions = { T: NaN, P: 101325 };
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'T' || k === 'P' || k === 'N') {
      if (typeof v !== 'number') throw new Error(`condition ${k} is not a single number`);
      if (k === 'N') {
        if (v !== 1) throw new Error('only N = 1 is supported');
      } else out[k] = v;
      continue;
    }
    const m = /^(X|W|MU)\(([A-Z0-9]+)\)$/i.exec(k);
    if (!m) {
      if (/^Y\(/i.test(k)) continue;
      throw new Error(`condition ${k} is not supported`);
    }
    if (typeof v !== 'number') throw new Error(`condition ${k} is not a single number`);
    const kind = m[1].toUpperCase() as 'X' | 'W' | 'MU';
    (out[kind] ??= {})[m[2].toUpperCase()] = v;
  }
  if (!Number.isFinite(out.T)) throw new Error('no temperature condition');
  return out;
}

export function solveCase(c: ValidationCase, db: NativeDatabase, cond: EquilibriumConditions,
  derivatives: string[] = [], singleSet = false): EquilibriumResult {
  return solve({ database: db, components: c.components, phases: c.phases, conditions: cond,
    options: { derivatives, singleSet } });
}

/** "Q of isolated PHASE[ (single composition set)]": the phase alone, one composition set. */
export function isolatedQuantity(q: string, c: ValidationCase, db: NativeDatabase): ComputedValue | null {
  const m = /^(.+) of isolated ([A-Z0-9_]+)( \(single composition set\))?$/i.exec(q.trim());
  if (!m) return null;
  const phase = m[2].toUpperCase();
  const r = solveCase({ ...c, phases: [phase] }, db, pointConditions(c), [], true);
  if (!r.converged) throw new Error(`isolated ${phase} did not converge: ${r.reason}`);
  return quantityOf(m[1].trim(), r, c, db) ?? { value: null, unsupported: `quantity ${m[1]}` };
}

function elementMasses(db: NativeDatabase): Record<string, number> {
  return Object.fromEntries(db.info().elements.map((e) => [e.name, e.mass]));
}

function massFractions(x: Record<string, number>, masses: Record<string, number>): Record<string, number> {
  let tot = 0;
  for (const [e, v] of Object.entries(x)) tot += v * masses[e];
  return Object.fromEntries(Object.entries(x).map(([e, v]) => [e, (v * masses[e]) / tot]));
}

/** One expected quantity from an equilibrium result; null = not a quantity this function knows. */
export function quantityOf(q: string, r: EquilibriumResult, c: ValidationCase, db: NativeDatabase): ComputedValue | null {
  const Q = q.trim();
  if (['GM', 'HM', 'SM', 'CPM'].includes(Q)) return { value: (r as unknown as Record<string, number>)[Q] };
  let m: RegExpExecArray | null;
  if ((m = /^MU\(([A-Z0-9]+)\)$/i.exec(Q))) return { value: r.mu[m[1].toUpperCase()] };
  if ((m = /^X\(([A-Z0-9]+)\)$/i.exec(Q))) return { value: r.x[m[1].toUpperCase()] };
  if ((m = /^W\(([A-Z0-9]+)\)$/i.exec(Q))) return { value: massFractions(r.x, elementMasses(db))[m[1].toUpperCase()] };
  if (Q === 'stable_phases') return { value: r.phases.map((p) => p.name) };
  if (Q === 'mass_balance_error') return { value: r.massBalanceError };
  if (Q === 'NP_sorted_nonzero') return { value: r.phases.map((p) => p.NP).filter((v) => v > 0).sort((a, b) => a - b) };
  if ((m = /^NP\(([A-Z0-9_]+)\)$/i.exec(Q))) {
    const ph = m[1].toUpperCase();
    return { value: r.phases.filter((p) => p.name === ph).reduce((a, p) => a + p.NP, 0) };
  }
  if ((m = /^(X|W)\(([A-Z0-9_]+)(#\*)?,([A-Z0-9]+)\)$/i.exec(Q))) {
    const ph = m[2].toUpperCase(), el = m[4].toUpperCase();
    const sets = r.phases.filter((p) => p.name === ph);
    if (sets.length === 0) return { value: null, unsupported: `${ph} is not stable here` };
    const masses = m[1].toUpperCase() === 'W' ? elementMasses(db) : null;
    const val = (p: (typeof sets)[number]) => (masses ? massFractions(p.x, masses)[el] : p.x[el]);
    return { value: m[3] ? sets.map(val) : val(sets[0]) };
  }
  if ((m = /^Y\(([A-Z0-9_]+)\)$/i.exec(Q))) {
    const ph = m[1].toUpperCase();
    const set = r.phases.find((p) => p.name === ph);
    if (!set) return { value: null, unsupported: `${ph} is not stable here` };
    const model = PhaseModel.build(db, ph, c.components);
    if (!model) return { value: null, unsupported: `${ph} cannot form` };
    const out: Array<Record<string, number>> = Array.from({ length: model.info.numSublattices }, () => ({}));
    model.variables.forEach((v, k) => { out[v.sublattice][v.species] = set.y[k]; });
    return { value: out };
  }
  if ((m = /^net_charge\(([A-Z0-9_]+)\)$/i.exec(Q))) {
    // sum_s a_s sum_i y_si q_i: the residual of the model's electroneutrality row (§7.4)
    const ph = m[1].toUpperCase();
    const set = r.phases.find((p) => p.name === ph);
    const model = PhaseModel.build(db, ph, c.components);
    if (!set || !model) return { value: null, unsupported: `${ph} is not stable here` };
    const row = model.constraints.find((k) => k.kind === 'charge');
    if (!row) return { value: 0 };
    let q = -row.rhs;
    row.coeff.forEach((a, k) => { q += a * set.y[k]; });
    return { value: q };
  }
  if (Q === 'composition_sets') {
    return { value: r.phases.map((p) => ({ X: p.x, NP: p.NP, GM: p.GM })) };
  }
  return null;
}

export const equilibrium: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  const r = solveCase(c, db, pointConditions(c));
  if (!r.converged) throw new Error(`equilibrium did not converge: ${r.reason}`);
  return c.expected.map((e) => quantityOf(e.quantity, r, c, db) ?? isolatedQuantity(e.quantity, c, db) ??
    { value: null, unsupported: `quantity ${e.quantity}` });
};
