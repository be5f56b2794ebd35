// Properties of one phase at given site fractions that the core does not return itself: site fractions per
// sublattice, the charge residual, the phase's mole fractions and pycalphad's degree of ordering. Used by the
// validation runner (worker/validation/quantities.ts) and by the result documents (worker/results/thermo-extra.ts).
import type { PhaseModel } from '../core/models.js';
import type { NativeDatabaseInfo } from '../core/native.js';

/** Site fractions per sublattice ({species: y}) in the validation-case notation. */
export function siteFractionSpec(model: PhaseModel, y: ArrayLike<number>): Array<Record<string, number>> {
  const out: Array<Record<string, number>> = Array.from({ length: model.info.numSublattices }, () => ({}));
  model.variables.forEach((v, k) => {
    out[v.sublattice][v.species] = y[k];
  });
  return out;
}

/** sum_s a_s sum_i y_si q_i per formula unit: the residual of the model's electroneutrality row (§7.4). */
export function netCharge(model: PhaseModel, y: ArrayLike<number>): number {
  const row = model.constraints.find((k) => k.kind === 'charge');
  if (!row) return 0;
  let q = -row.rhs;
  row.coeff.forEach((a, k) => {
    q += a * y[k];
  });
  return q;
}

/** Mole fractions of the elements in a phase at y (moles per formula unit / atoms per formula unit). */
export function phaseX(model: PhaseModel, y: ArrayLike<number>): Record<string, number> {
  const mo = model.moles(Float64Array.from(y), 0);
  return Object.fromEntries(model.info.elements.map((e, A) => [e, mo.M[A] / mo.Nf]));
}

/**
 * pycalphad's degree of ordering (Model.degree_of_ordering at the README's commit), written out:
 *   a'_s = a_s / sum_s a_s sum_{i: atoms(i) > 0} y_si        (site ratios per mole of non-vacancy sites)
 *   x_i  = Model.moles(i): the mole fraction of element i in the phase (sum_s a'_s y_si when every species
 *          is one atom; the site-weighted species fraction for a molecular species)
 *   DOO  = (1/n) sum_i sum_{s holding i} a'_s |y_si - x_i| / x_i
 * over the n species with atoms of the phase; 0 for a disordered state, larger for stronger ordering.
 * A species with x_i = 0 contributes nothing (pycalphad would give 0/0 = NaN).
 */
export function degreeOfOrdering(info: NativeDatabaseInfo, model: PhaseModel, y: ArrayLike<number>): number {
  const ph = info.phases.find((p) => p.name === model.name);
  if (!ph) throw new Error(`phase ${model.name} not in the database`);
  if (model.info.ionicLiquid)
    throw new Error('degree of ordering of the ionic liquid is not defined here (variable site ratios)');
  const atoms = (sp: string) => {
    const s = info.species.find((x) => x.name.toUpperCase() === sp.toUpperCase());
    return s ? Object.values(s.composition).reduce((a, b) => a + b, 0) : sp === 'VA' ? 0 : 1;
  };
  let norm = 0;
  model.variables.forEach((v, k) => {
    if (atoms(v.species) > 0) norm += ph.siteRatios[v.sublattice] * y[k];
  });
  const species = [...new Set(model.variables.filter((v) => atoms(v.species) > 0).map((v) => v.species))];
  const xEl = phaseX(model, y);
  let total = 0;
  for (const sp of species) {
    // Model.moles(i): the element's mole fraction for a pure-element species, else its site-weighted fraction
    let x = 0;
    if (sp in xEl) x = xEl[sp];
    else
      model.variables.forEach((v, k) => {
        if (v.species === sp) x += (ph.siteRatios[v.sublattice] / norm) * y[k];
      });
    if (!(x > 0)) continue;
    model.variables.forEach((v, k) => {
      if (v.species === sp) total += ((ph.siteRatios[v.sublattice] / norm) * Math.abs(y[k] - x)) / x;
    });
  }
  return total / species.length;
}
