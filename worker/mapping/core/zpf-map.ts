// A map whose boundaries are the zero-phase-fraction lines of its phases in a plane of two axes, both scaled to the
// unit square (the isopleth; potential diagrams and liquidus projections are maps of this shape): the seed grid
// over the square, the lines seeded on its edges and followed (core/zpf-lines.ts), their twins dropped, and the
// connected fields of grid nodes of one phase set with the node that anchors each field's label. What a kind adds is
// its axes (the condition set of a point, the spans and tolerances), its line points and its result.
import { equilibrium, type EquilibriumConditions, type EquilibriumResult } from '../../core/equilibrium.js';
import type { NativeDatabase } from '../../core/native.js';
import type { JobControl } from '../../protocol.js';
import { gridComponents, rectangularEdges, rectangularNeighbours, solveChunked } from './grid.js';
import type { MapLedger } from './ledger.js';
import { ZpfFollower, type Located, type Sample, type UV, type ZpfPlane } from './zpf-line.js';
import { ZpfLineSet } from './zpf-lines.js';

/** Stable phase labels of a result: NAME, NAME#2, ... per composition set, sorted. */
export function phaseLabels(r: EquilibriumResult): string[] {
  const count = new Map<string, number>();
  for (const p of r.phases) count.set(p.name, (count.get(p.name) ?? 0) + 1);
  const out: string[] = [];
  for (const [name, c] of count) for (let k = 1; k <= c; k++) out.push(k === 1 ? name : `${name}#${k}`);
  return out.sort();
}

/** The system a plane is mapped in. */
export interface PlaneSystem {
  database: NativeDatabase;
  /** solver components (elements plus VA where the database defines it) */
  components: string[];
  phases?: string[];
  threads: number;
  control?: JobControl;
}

/** The axes of a plane: the condition set at a point of the unit square, and what ZpfPlane needs of them. */
export interface PlaneAxes extends Omit<ZpfPlane, 'solve'> {
  conditions(p: UV): EquilibriumConditions;
}

/** The seed grid: n x n samples, row-major in v (node (i, j) at u = us[i], v = us[j]). */
export interface PlaneGrid {
  n: number;
  us: number[];
  samples: Sample[];
  seconds: number;
}

/** A connected field of grid nodes of one phase set and the node of its label. */
export interface PlaneField {
  members: number[];
  anchor: number;
}

/** The order a field's search visits a node's neighbours in: along u (up, down), then along v. */
const NEIGHBOUR_STEPS = [
  [0, 1],
  [0, -1],
  [1, 0],
  [-1, 0],
] as const;

export class ZpfMap<P> {
  private readonly plane: ZpfPlane;
  private lineSet: ZpfLineSet<P> | null = null;

  constructor(
    private readonly sys: PlaneSystem,
    private readonly axes: PlaneAxes,
    private readonly ledger: MapLedger,
  ) {
    this.plane = { ...axes, solve: (p, start) => this.solve(p, start) };
  }

  /** One equilibrium, Newton started from a neighbour's result (the solver still certifies it globally). */
  solve(p: UV, start?: EquilibriumResult): Sample {
    this.ledger.checkCancel();
    const r = equilibrium({
      database: this.sys.database,
      components: this.sys.components,
      phases: this.sys.phases,
      conditions: this.axes.conditions(p),
      options: start ? { start } : undefined,
    });
    this.ledger.count(r.converged);
    return { u: p.u, v: p.v, labels: phaseLabels(r), result: r };
  }

  /**
   * The n x n grid (n = resolution, at least 3), solved column by column (v runs fastest) so that warm starts follow
   * a scan along v at fixed u (progress p0..p1).
   */
  seedGrid(resolution: number, p0: number, p1: number): PlaneGrid {
    const { sys } = this;
    const t = performance.now();
    const n = Math.max(3, Math.floor(resolution));
    const us = Array.from({ length: n }, (_, i) => i / (n - 1));
    const nodes: UV[] = [];
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) nodes.push({ u: us[i]!, v: us[j]! });
    const order: number[] = [];
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) order.push(j * n + i);
    const results = solveChunked(
      this.ledger,
      { database: sys.database, components: sys.components, phases: sys.phases },
      order.map((k) => this.axes.conditions(nodes[k]!)),
      sys.threads,
      sys.control,
      p0,
      p1,
    );
    const samples: Sample[] = new Array(nodes.length);
    order.forEach((k, m) => {
      const r = results[m]!;
      samples[k] = { u: nodes[k]!.u, v: nodes[k]!.v, labels: phaseLabels(r), result: r };
    });
    return { n, us, samples, seconds: (performance.now() - t) / 1000 };
  }

  /**
   * The lines of every phase that changes along a grid edge, their points in the kind's coordinates (`pointOf` a
   * located point, `uvOf` back in the plane); progress(k, count) per edge.
   */
  traceLines(
    grid: PlaneGrid,
    pointOf: (l: Located) => P,
    uvOf: (p: P) => UV,
    progress: (k: number, count: number) => void,
  ): void {
    const { n, samples } = grid;
    this.lineSet = new ZpfLineSet(new ZpfFollower(this.plane, n - 1), pointOf, uvOf);
    const edges = rectangularEdges(n, n).map(([a, b]) => [samples[a]!, samples[b]!] as const);
    this.lineSet.traceGridEdges(edges, progress);
  }

  get lines() {
    return this.lineSet!.lines;
  }

  /** The twins dropped; a line that could not be followed to the border is logged. */
  closeLines(): void {
    const lineSet = this.lineSet!;
    lineSet.dropTwins();
    if (lineSet.lost)
      this.ledger.log(
        `${lineSet.lost} line(s) could not be followed to the border of the section (ends marked "lost")`,
      );
  }

  /**
   * One field per connected group of grid nodes with the same phase set, anchored at its most interior node: the one
   * with most same-set neighbours (8-neighbourhood), nearest the group's centroid among those.
   */
  fields(grid: PlaneGrid): PlaneField[] {
    const { n, samples } = grid;
    const key = samples.map((g) => g.labels.join('+'));
    const groups = gridComponents(
      samples.length,
      () => true,
      rectangularNeighbours(n, n, NEIGHBOUR_STEPS),
      (a, b) => key[a] === key[b],
    );
    const comp = new Array<number>(samples.length).fill(-1);
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
      return { members, anchor: members.reduce((a, m) => (score(m) > score(a) ? m : a), members[0]!) };
    });
  }
}
