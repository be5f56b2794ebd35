// Display labels of the phase sets of a mapped field (ternary sections and isopleths): a set of a phase with an
// order-disorder description is named by its state, as point results name it (worker/system/ordering.ts:
// "L12 (L12_FCC)", "A1 (L12_FCC)", "B2 (BCC_B2)"), so gamma + gamma' reads as two states of one model rather than
// NAME + NAME#2; other phases keep their set labels (NAME, NAME#2 for a second set of a miscibility gap). Two sets
// in the same state are numbered as sets are: "B2 (B2)", "B2 (B2)#2".
import { PointConverter } from '../system/point-converter.js';
import type { EquilibriumResult, PhaseState } from '../core/equilibrium.js';
import type { NativeDatabase } from '../core/native.js';

import {
  dist3,
  type TernaryTieLine,
  type TernaryTriangle,
  type TernaryTwoPhaseRegion,
  type Vec3,
} from './ternary_geometry.js';

export class StateLabeller {
  private readonly converter: PointConverter;
  constructor(db: NativeDatabase, components: string[]) {
    this.converter = new PointConverter(db, components);
  }

  /** The state label of one set of a solver result. */
  stateOf(p: PhaseState): string {
    return this.converter.ordering(p)?.label ?? p.name;
  }

  /**
   * Labels of the given sets of result r, in the order given: `sets` are the sets' set labels (NAME or NAME#k) with
   * their compositions; each is matched to r's stable set of that name nearest in composition.
   */
  labels(r: EquilibriumResult, sets: { label: string; x: Record<string, number> }[]): string[] {
    const used = new Set<PhaseState>();
    const raw = sets.map((s) => {
      const name = s.label.replace(/#\d+$/, '');
      const cands = r.phases.filter((p) => p.name === name && p.NP > 1e-12 && !used.has(p));
      if (!cands.length) return s.label;
      const dist = (p: PhaseState) => Object.keys(s.x).reduce((a, k) => a + Math.abs((p.x[k] ?? 0) - (s.x[k] ?? 0)), 0);
      const best = cands.reduce((b, p) => (dist(p) < dist(b) ? p : b));
      used.add(best);
      const state = this.stateOf(best);
      // a phase without an ordering description keeps its set label (NAME#2 of a miscibility gap)
      return state === best.name ? s.label : state;
    });
    return numberRepeats(raw);
  }
}

/**
 * Display labels of every stable set of r, in the order of the set labels NAME, NAME#2, ... sorted (the isopleth's
 * phaseLabels): the ordering state where the phase has one, else the set label.
 */
export function resultStateLabels(labeller: StateLabeller, r: EquilibriumResult): string[] {
  const count = new Map<string, number>();
  const sets = r.phases.map((p) => {
    const k = (count.get(p.name) ?? 0) + 1;
    count.set(p.name, k);
    const label = k === 1 ? p.name : `${p.name}#${k}`;
    const state = labeller.stateOf(p);
    return { label, display: state === p.name ? label : state };
  });
  sets.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return numberRepeats(sets.map((s) => s.display));
}

/** The second and later occurrences of one label get #2, #3, ... (set labels that already carry #k are left as they are). */
export function numberRepeats(labels: string[]): string[] {
  const count = new Map<string, number>();
  return labels.map((l) => {
    const n = (count.get(l) ?? 0) + 1;
    count.set(l, n);
    return n > 1 && !/#\d+$/.test(l) ? `${l}#${n}` : l;
  });
}

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
  const out: { phase: string; x: Vec3; label?: string }[] = [];
  const seen = new Set<number>();
  const adj = new Map<number, number[]>();
  for (const [a, b] of neighbours) {
    (adj.get(a) ?? adj.set(a, []).get(a)!).push(b);
    (adj.get(b) ?? adj.set(b, []).get(b)!).push(a);
  }
  for (let k = 0; k < grid.length; k++) {
    const phase = keyOf(k);
    if (!phase || seen.has(k)) continue;
    const comp: number[] = [];
    const stack = [k];
    seen.add(k);
    while (stack.length) {
      const u = stack.pop()!;
      comp.push(u);
      for (const v of adj.get(u) ?? [])
        if (!seen.has(v) && keyOf(v) === phase) {
          seen.add(v);
          stack.push(v);
        }
    }
    const c: Vec3 = [0, 1, 2].map((q) => comp.reduce((a, u) => a + grid[u]!.X[q]!, 0) / comp.length) as Vec3;
    const best = comp.reduce((b, u) => (dist3(grid[u]!.X, c) < dist3(grid[b]!.X, c) ? u : b), comp[0]!);
    const label = stateLabel(best, phase);
    out.push({ phase, x: comp.length <= 3 ? c : grid[best]!.X, ...(label ? { label } : {}) });
  }
  return out;
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
