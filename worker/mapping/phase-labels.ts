// Phase labels of a binary diagram: NAME, NAME#2 for a second composition set (numbered in order of
// composition), and the anchors of the single-phase field labels on the seed grid.
import type { PhaseState } from './binary-types.js';
import { gridComponents, rectangularNeighbours } from './core/grid.js';

/** Sorts the phases by x and labels them: the second set of one phase NAME#2, the third NAME#3, ... */
export function labelPhases<P extends { base: string; x: number; NP: number }>(list: P[]): (P & PhaseState)[] {
  const labelled = [...list].sort((a, b) => a.x - b.x).map((p) => ({ ...p, label: p.base }));
  numberSets(labelled);
  return labelled;
}

/** Labels phases already in order of x in place: the second set of one phase NAME#2, the third NAME#3, ... */
export function numberSets(sorted: { base: string; label: string }[]): void {
  for (let i = 0; i < sorted.length; i++) {
    let n = 1;
    for (let j = 0; j < i; j++) if (sorted[j].base === sorted[i].base) n++;
    sorted[i].label = n > 1 ? `${sorted[i].base}#${n}` : sorted[i].base;
  }
}

/** What the label anchors need of a grid node. */
export interface GridNodeState {
  ok: boolean;
  T: number;
  X: number;
  key: string;
  phases: readonly { label: string }[];
}

/** The order the anchors' search visits a node's neighbours in: along T (up, down), then along x. */
const NEIGHBOUR_STEPS = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
] as const;

/**
 * One label anchor per connected single-phase component of the seed grid (row-major, nT rows of nX
 * nodes, 4-neighbourhood; core/grid.ts gridComponents): the member node nearest to the component's centroid in
 * grid units.
 */
export function singlePhaseAnchors(
  grid: readonly GridNodeState[],
  nT: number,
  nX: number,
): { label: string; T: number; x: number }[] {
  const fields = gridComponents(
    grid.length,
    (k) => grid[k].ok && grid[k].phases.length === 1,
    rectangularNeighbours(nT, nX, NEIGHBOUR_STEPS),
    (a, b) => grid[a].key === grid[b].key,
  );
  return fields.map((comp) => {
    const ci = comp.reduce((a, k) => a + Math.floor(k / nX), 0) / comp.length;
    const cj = comp.reduce((a, k) => a + (k % nX), 0) / comp.length;
    let best = comp[0],
      bd = Infinity;
    for (const k of comp) {
      const d = (Math.floor(k / nX) - ci) ** 2 + ((k % nX) - cj) ** 2;
      if (d < bd) {
        bd = d;
        best = k;
      }
    }
    return { label: grid[comp[0]].phases[0].label, T: grid[best].T, x: grid[best].X };
  });
}

/**
 * The label anchors with the phase the full-sampling equilibrium finds there: the seed grid's coarser
 * sampling can pick the other of two phases whose Gibbs energies (nearly) coincide (the disordered state of
 * a two-sublattice L1_2 phase without a disordered part is fcc: GAMMA_PRIME and FCC_A1 of Al-Cr in
 * issue43.tdb), and a label must say what a point calculation there says. An anchor whose equilibrium is
 * not single-phase (or does not converge, or null: the budget is used up) keeps the grid's label.
 */
export function confirmAnchors(
  anchors: { label: string; T: number; x: number }[],
  solve: (T: number, x: number) => { ok: boolean; phases: readonly { label: string }[] } | null,
): { label: string; T: number; x: number }[] {
  return anchors.map((a) => {
    const s = solve(a.T, a.x);
    return s && s.ok && s.phases.length === 1 ? { ...a, label: s.phases[0].label } : a;
  });
}
