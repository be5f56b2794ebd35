// The site fractions of a phase whose composition fixes them: one sublattice holds every element (no vacancy on it),
// every other sublattice holds only vacancies (a substitutional solution: LIQUID (A,B,...), FCC_A1 (A,B,...)(VA)).
// Such a phase at composition x has y = x on its sublattice of atoms; any other phase has internal degrees of
// freedom (ordering, interstitials, stoichiometric sublattices) and no such map.
import type { PhaseModel } from '../core/models.js';

/** y of the phase at mole fractions x, or null for a phase whose composition does not fix its site fractions. */
export function compositionSites(model: PhaseModel): ((x: Readonly<Record<string, number>>) => Float64Array) | null {
  const vars = model.variables;
  const holding = new Set(vars.filter((v) => v.species !== 'VA').map((v) => v.sublattice));
  if (holding.size !== 1) return null;
  const atoms = [...holding][0]!;
  if (vars.some((v) => v.sublattice === atoms && v.species === 'VA')) return null;
  if (!vars.every((v) => v.sublattice === atoms || v.species === 'VA')) return null;
  return (x) => Float64Array.from(vars, (v) => (v.species === 'VA' ? 1 : (x[v.species] ?? 0)));
}
