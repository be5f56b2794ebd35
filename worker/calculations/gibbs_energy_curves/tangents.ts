// The stable common tangents of a Gibbs energy line: each multi-phase region of the global equilibrium along the
// line gives GM(x) = sum_i MU_i x_i touching its phases.
import { phaseLabel } from '../../../contract/results/common.js';
import type { CommonTangent } from '../../../contract/results/gibbs_energy_curves.js';
import type { EquilibriumResult } from '../../core/equilibrium.js';
import { axisValueAt, formationEnergy, positionOnLine, type CurveLine } from './line.js';

/** One tangent per run of consecutive points with the same multi-phase set (its middle point's chemical potentials). */
export function commonTangents(
  eq: EquilibriumResult[],
  labels: string[][],
  line: CurveLine,
  gref: Record<string, number>,
): CommonTangent[] {
  const out: CommonTangent[] = [];
  let i = 0;
  while (i < eq.length) {
    const key = labels[i]!.join('+');
    let j = i;
    while (j + 1 < eq.length && labels[j + 1]!.join('+') === key && eq[j + 1]!.converged) j++;
    if (eq[i]!.converged && labels[i]!.length >= 2)
      out.push(tangent(eq[Math.floor((i + j) / 2)]!, labels[i]!, line, gref, [i, j]));
    i = j + 1;
  }
  return out;
}

/** The tangent of the region of points i..j, from the equilibrium `r` inside it. */
function tangent(
  r: EquilibriumResult,
  phases: string[],
  line: CurveLine,
  gref: Record<string, number>,
  [i, j]: [number, number],
): CommonTangent {
  const elements = line.elements;
  const mu = { ...r.mu };
  return {
    phases,
    mu,
    mu_formation: Object.fromEntries(elements.map((el) => [el, (mu[el] ?? 0) - gref[el]!])),
    points: r.phases.map((p) => {
      const on = positionOnLine(line.path, p.x, elements);
      return {
        phase: phaseLabel({ name: p.name, composition_set: p.setNumber }),
        x: { ...p.x },
        s: on,
        axis_value: on === null ? null : axisValueAt(line, on),
        GM: p.GM,
        GM_formation: formationEnergy(elements, gref, p.x, p.GM),
      };
    }),
    s_range: [line.s[i]!, line.s[j]!],
    axis_range: [line.axisValues[i]!, line.axisValues[j]!],
  };
}
