// The labelled regions of an isopleth (core/skeleton.ts, stage 6): connected grid nodes of one phase set get a label
// point; a phase set met only beside a line (narrower than the grid) is labelled there; each label names the sets by
// their ordering state, from an equilibrium at its point (core/labels.ts).
import { gridComponents, rectangularNeighbours } from '../core/grid.js';
import { resultStateLabels, type StateLabeller } from '../core/labels.js';
import type { Sample, UV } from '../core/zpf-line.js';
import { axisValue, type CompositionPath } from './path.js';
import type { LinePoint, RegionLabel, ZpfLine } from './types.js';

/** The order a region's search visits a node's neighbours in: along s (up, down), then along T. */
const NEIGHBOUR_STEPS = [
  [0, 1],
  [0, -1],
  [1, 0],
  [-1, 0],
] as const;

/**
 * One label per connected group of grid nodes (n x n, row-major in T) with the same phase set, at its most interior
 * node: the one with most same-set neighbours (8-neighbourhood), nearest the group's centroid among those.
 */
export function gridRegions(grid: Sample[], n: number, T0: number, T1: number, path: CompositionPath): RegionLabel[] {
  const key = grid.map((g) => g.labels.join('+'));
  const groups = gridComponents(
    grid.length,
    () => true,
    rectangularNeighbours(n, n, NEIGHBOUR_STEPS),
    (a, b) => key[a] === key[b],
  );
  const comp = new Array<number>(grid.length).fill(-1);
  groups.forEach((members, c) => members.forEach((m) => (comp[m] = c)));
  return groups.map((members, c) => {
    const cu = members.reduce((a, m) => a + (m % n), 0) / members.length,
      cv = members.reduce((a, m) => a + Math.floor(m / n), 0) / members.length;
    const score = (m: number) => {
      const i = m % n,
        j = Math.floor(m / n);
      let s = 0;
      for (let di = -1; di <= 1; di++)
        for (let dj = -1; dj <= 1; dj++) {
          const i2 = i + di,
            j2 = j + dj;
          if ((di || dj) && i2 >= 0 && j2 >= 0 && i2 < n && j2 < n && comp[j2 * n + i2] === c) s++;
        }
      return s * 1000 - Math.hypot(i - cu, j - cv);
    };
    const best = members.reduce((a, m) => (score(m) > score(a) ? m : a), members[0]!);
    const g = grid[best]!;
    return {
      phases: g.labels,
      labels: g.labels,
      s: g.u,
      T: T0 + g.v * (T1 - T0),
      x: axisValue(path, g.u),
      grid_nodes: members.length,
    };
  });
}

/** The phase sets met only beside a line (on its `with` or `without` side), labelled at their middle point there. */
export function lineSideRegions(regions: RegionLabel[], lines: readonly ZpfLine[]): void {
  const gridSets = new Set(regions.map((r) => r.phases.join('+')));
  for (const l of lines) {
    for (const side of ['with', 'without'] as const) {
      const seen = new Map<string, LinePoint[]>();
      for (const p of l.points) {
        const key = p[side].join('+');
        if (gridSets.has(key)) continue;
        seen.set(key, [...(seen.get(key) ?? []), p]);
      }
      for (const [key, ps] of seen) {
        const m = ps[Math.floor(ps.length / 2)]!;
        regions.push({
          phases: key ? key.split('+') : [],
          labels: key ? key.split('+') : [],
          s: m.s,
          T: m.T,
          x: m.x,
          grid_nodes: 0,
        });
        gridSets.add(key);
      }
    }
  }
}

/** Display labels: the ordering state of each set, from an equilibrium at the region's label point. */
export function labelStates(
  regions: RegionLabel[],
  solve: (p: UV) => Sample,
  labeller: StateLabeller,
  uvOf: (r: RegionLabel) => UV,
): void {
  for (const r of regions) {
    if (!r.phases.length) continue;
    const smp = solve(uvOf(r));
    if (smp.result.converged && smp.labels.join('+') === r.phases.join('+'))
      r.labels = resultStateLabels(labeller, smp.result);
  }
}
