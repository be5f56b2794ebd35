// Kind "property": a quantity of one phase at given T, P and site fractions, no minimisation.
// Site fractions are used exactly as given (no renormalisation). GM, GM_NO_IDMIX, SM, HM, CPM, TC,
// BMAGN (per mole of atoms, as Thermo-Calc reports it: §5.4), VM; Y(PHASE) for a phase whose
// charge-neutral set is a single point (§7.4).
import { PhaseModel } from '../../core/models.js';
import { caseDatabase, stateOf } from '../databases.js';
import type { ComputedValue, KindHandler } from '../types.js';
import { uniqueFeasiblePoint } from '../feasible.js';

const phaseQuantities = new Set(['GM', 'GM_NO_IDMIX', 'SM', 'HM', 'CPM', 'TC', 'BMAGN', 'VM']);

export const property: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  const { T, P } = stateOf(c);
  const models = new Map<string, PhaseModel | null>();
  const model = (phase: string) => {
    if (!models.has(phase)) models.set(phase, PhaseModel.build(db, phase, c.components));
    return models.get(phase)!;
  };
  return c.expected.map((e): ComputedValue => {
    const yq = /^Y\((.+)\)$/.exec(e.quantity);
    const phase = (e.phase ?? yq?.[1] ?? '').toUpperCase();
    if (!phase) return { value: null, unsupported: `no phase named for ${e.quantity}` };
    const m = model(phase);
    if (!m) throw new Error(`phase ${phase} cannot form from ${c.components.join(',')}`);
    if (yq) {
      if (c.site_fractions?.[phase]) return { value: c.site_fractions[phase] };
      const y = uniqueFeasiblePoint(m.variables.length, m.constraints);
      if (!y) throw new Error(`the constraint set of ${phase} is not a single point`);
      const out: Array<Record<string, number>> = Array.from({ length: m.info.numSublattices }, () => ({}));
      m.variables.forEach((v, k) => {
        out[v.sublattice][v.species] = y[k];
      });
      return { value: out };
    }
    if (!phaseQuantities.has(e.quantity)) return { value: null, unsupported: `property ${e.quantity}` };
    const spec = c.site_fractions?.[phase];
    if (!spec) throw new Error(`no site fractions given for ${phase}`);
    const p = m.properties(T, P, m.siteFractions(spec));
    const q = e.quantity === 'BMAGN' ? p.BMAGN_per_atom : (p as unknown as Record<string, number>)[e.quantity];
    return { value: q };
  });
};
