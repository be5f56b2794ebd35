// Labels of a ternary section's fields (core/skeleton.ts, stage 6): one label per connected single-phase field of
// the seed grid, and the display labels of the regions and triangles, named by the state of their phases
// (core/labels.ts).
import type { EquilibriumResult } from '../../core/equilibrium.js';
import { adjacency, gridComponents } from '../core/grid.js';
import type { StateLabeller } from '../core/labels.js';
import { dist3, type TernaryTieLine, type TernaryTriangle, type TernaryTwoPhaseRegion, type Vec3 } from './geometry.js';

/**
 * One label per connected field of single-phase seed-grid nodes of one phase (`keyOf` a node: its phase, null
 * when it is not single-phase): at the field's node nearest to the centroid of its nodes (inside the field, off the
 * corners), or at the centroid for a field of three nodes or fewer; `stateLabel` names the node's set by its state.
 */
export function singlePhaseFieldLabels(
  grid: readonly { X: Vec3 }[],
  neighbours: readonly [number, number][],
  keyOf: (node: number) => string | null,
  stateLabel: (node: number, phase: string) => string | undefined,
): { phase: string; x: Vec3; label?: string }[] {
  const fields = gridComponents(
    grid.length,
    (k) => !!keyOf(k),
    adjacency(neighbours),
    (a, b) => keyOf(a) === keyOf(b),
  );
  return fields.map((comp) => {
    const phase = keyOf(comp[0]!)!;
    const c: Vec3 = [0, 1, 2].map((q) => comp.reduce((a, u) => a + grid[u]!.X[q]!, 0) / comp.length) as Vec3;
    const best = comp.reduce((b, u) => (dist3(grid[u]!.X, c) < dist3(grid[b]!.X, c) ? u : b), comp[0]!);
    const label = stateLabel(best, phase);
    return { phase, x: comp.length <= 3 ? c : grid[best]!.X, ...(label ? { label } : {}) };
  });
}

/** Display labels of the regions (at their middle tie-line) and triangles whose equilibrium is known. */
export function labelSets(
  regions: TernaryTwoPhaseRegion[],
  triangles: TernaryTriangle[],
  potentials: WeakMap<object, EquilibriumResult>,
  labeller: StateLabeller,
  composition: (X: Vec3) => Record<string, number>,
): void {
  for (const r of regions) {
    const tl: TernaryTieLine = r.tielines[Math.floor(r.tielines.length / 2)]!;
    const raw = potentials.get(tl);
    if (raw)
      r.labels = labeller.labels(
        raw,
        r.phases.map((label, k) => ({ label, x: composition(tl.x[k as 0 | 1]) })),
      ) as [string, string];
  }
  for (const t of triangles) {
    const raw = potentials.get(t);
    if (raw)
      t.labels = labeller.labels(
        raw,
        t.phases.map((label, k) => ({ label, x: composition(t.corners[k as 0 | 1 | 2]) })),
      ) as [string, string, string];
  }
}
