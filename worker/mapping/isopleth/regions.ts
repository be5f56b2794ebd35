// The labelled regions of an isopleth (core/skeleton.ts, stage 6): each connected field of grid nodes of one phase
// set (core/zpf-map.ts) gets a label point; a phase set met only beside a line (narrower than the grid) is labelled there; each label names the sets by
// their ordering state, from an equilibrium at its point (core/labels.ts).
import { resultStateLabels, type StateLabeller } from '../core/labels.js';
import type { Sample, UV } from '../core/zpf-line.js';
import type { PlaneField } from '../core/zpf-map.js';
import { axisValue, type CompositionPath } from './path.js';
import type { LinePoint, RegionLabel, ZpfLine } from './types.js';

/** One label per field of the seed grid (core/zpf-map.ts), at the field's anchor. */
export function gridRegions(
  fields: PlaneField[],
  samples: Sample[],
  T0: number,
  T1: number,
  path: CompositionPath,
): RegionLabel[] {
  return fields.map(({ members, anchor }) => {
    const g = samples[anchor]!;
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
