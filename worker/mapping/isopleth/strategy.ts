// The isopleth as a strategy of the mapping skeleton (core/skeleton.ts): its plane is (s, T), s the parameter of the
// composition line (0..1 from composition_start to composition_end, isopleth/path.ts), both scaled to the unit
// square; each phase's zero-phase-fraction line is followed on its own (core/zpf-line.ts, core/zpf-lines.ts).
import { equilibrium, type EquilibriumResult } from '../../core/equilibrium.js';
import { rectangularEdges, solveChunked } from '../core/grid.js';
import { StateLabeller } from '../core/labels.js';
import { MapLedger } from '../core/ledger.js';
import type { MapStrategy } from '../core/skeleton.js';
import { ZpfFollower, type Located, type Sample, type UV, type ZpfPlane } from '../core/zpf-line.js';
import { ZpfLineSet } from '../core/zpf-lines.js';
import { invariantLines, namedLines } from './invariants.js';
import { axisValue, solverX } from './path.js';
import { gridRegions, labelStates, lineSideRegions } from './regions.js';
import type { InvariantLine, IsoplethMap, IsoplethSetup, LinePoint, NamedLine, RegionLabel } from './types.js';

/** Stable phase labels of a result: NAME, NAME#2, ... per composition set, sorted. */
export function phaseLabels(r: EquilibriumResult): string[] {
  const count = new Map<string, number>();
  for (const p of r.phases) count.set(p.name, (count.get(p.name) ?? 0) + 1);
  const out: string[] = [];
  for (const [name, c] of count) for (let k = 1; k <= c; k++) out.push(k === 1 ? name : `${name}#${k}`);
  return out.sort();
}

/** The seed grid of a section: n x n samples, row-major in T (node (i, j) at s = us[i], T at us[j]). */
export interface IsoplethGrid {
  n: number;
  us: number[];
  samples: Sample[];
  seconds: number;
}

export class IsoplethStrategy implements MapStrategy<IsoplethGrid, IsoplethMap> {
  private readonly ledger: MapLedger;
  private readonly T0: number;
  private readonly T1: number;
  private readonly plane: ZpfPlane;
  private lineSet: ZpfLineSet<LinePoint> | null = null;
  private regions: RegionLabel[] = [];
  private invariants: InvariantLine[] = [];
  private named: { liquidus: NamedLine[]; solidus: NamedLine[] } = { liquidus: [], solidus: [] };

  constructor(private readonly setup: IsoplethSetup) {
    this.ledger = new MapLedger(setup.control);
    [this.T0, this.T1] = setup.T;
    const path = setup.path;
    this.plane = {
      solve: (p, start) => this.one(p, start),
      spanU: Math.abs(path.axisRange[1] - path.axisRange[0]),
      spanV: this.T1 - this.T0,
      tolU: setup.tolX ?? 1e-4,
      tolV: setup.tolT ?? 0.1,
      temperature: (p) => this.T0 + p.v * (this.T1 - this.T0),
    };
  }

  private conditionAt(p: UV) {
    return { T: this.T0 + p.v * (this.T1 - this.T0), P: this.setup.P, X: solverX(this.setup.path, p.u) };
  }

  private sampleOf(p: UV, r: EquilibriumResult): Sample {
    return { u: p.u, v: p.v, labels: phaseLabels(r), result: r };
  }

  /** one equilibrium, Newton started from a neighbour's result (the solver still certifies it globally) */
  private one(p: UV, start?: EquilibriumResult): Sample {
    this.ledger.checkCancel();
    const r = equilibrium({
      database: this.setup.database,
      components: this.setup.components,
      phases: this.setup.phases,
      conditions: this.conditionAt(p),
      options: start ? { start } : undefined,
    });
    this.ledger.count(r.converged);
    return this.sampleOf(p, r);
  }

  /** The grid, solved column by column (T runs fastest) so that warm starts follow a T scan at fixed composition. */
  seedGrid(): IsoplethGrid {
    const { setup } = this;
    const t = performance.now();
    setup.control?.setProgress(0);
    const n = Math.max(3, Math.floor(setup.resolution));
    const us = Array.from({ length: n }, (_, i) => i / (n - 1));
    const nodes: UV[] = [];
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) nodes.push({ u: us[i]!, v: us[j]! });
    const order: number[] = [];
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) order.push(j * n + i);
    const results = solveChunked(
      this.ledger,
      { database: setup.database, components: setup.components, phases: setup.phases },
      order.map((k) => this.conditionAt(nodes[k]!)),
      setup.threads,
      setup.control,
      0,
      0.35,
    );
    const samples: Sample[] = new Array(nodes.length);
    order.forEach((k, m) => {
      samples[k] = this.sampleOf(nodes[k]!, results[m]!);
    });
    return { n, us, samples, seconds: (performance.now() - t) / 1000 };
  }

  /** The line point of a located point: s, T, the axis fraction and the phase sets on its two sides. */
  private point(l: Located): LinePoint {
    return {
      s: l.p.u,
      T: this.T0 + l.p.v * (this.T1 - this.T0),
      x: axisValue(this.setup.path, l.p.u),
      with: l.inside.labels,
      without: l.outside.labels,
    };
  }

  traceBoundaries(grid: IsoplethGrid): void {
    const { n, samples } = grid;
    const follower = new ZpfFollower(this.plane, n - 1);
    const uvOf = (q: LinePoint): UV => ({ u: q.s, v: (q.T - this.T0) / (this.T1 - this.T0) });
    this.lineSet = new ZpfLineSet(follower, (l) => this.point(l), uvOf);
    const edges = rectangularEdges(n, n).map(([a, b]) => [samples[a]!, samples[b]!] as const);
    this.lineSet.traceGridEdges(edges, (k, count) =>
      this.setup.control?.setProgress(0.35 + (0.6 * k) / Math.max(1, count)),
    );
  }

  closeRegions(): void {
    const lineSet = this.lineSet!;
    lineSet.dropTwins();
    if (lineSet.lost)
      this.ledger.log(
        `${lineSet.lost} line(s) could not be followed to the border of the section (ends marked "lost")`,
      );
  }

  findInvariants(): void {
    const lines = this.lineSet!.lines;
    this.invariants = invariantLines(lines);
    this.named = namedLines(lines, this.setup.liquids);
  }

  labelFields(grid: IsoplethGrid): void {
    const { T0, T1 } = this;
    this.regions = gridRegions(grid.samples, grid.n, T0, T1, this.setup.path);
    lineSideRegions(this.regions, this.lineSet!.lines);
    const labeller = new StateLabeller(this.setup.database, this.setup.components);
    labelStates(
      this.regions,
      (p) => this.one(p),
      labeller,
      (r) => ({ u: r.s, v: (r.T - T0) / (T1 - T0) }),
    );
  }

  assemble(grid: IsoplethGrid): IsoplethMap {
    const { T0, T1, ledger } = this;
    this.setup.control?.setProgress(0.97);
    return {
      lines: this.lineSet!.lines,
      regions: this.regions,
      invariants: this.invariants,
      liquidus: this.named.liquidus,
      solidus: this.named.solidus,
      grid: { s: grid.us, T: grid.us.map((v) => T0 + v * (T1 - T0)), labels: grid.samples.map((g) => g.labels) },
      stats: {
        equilibria: ledger.equilibria,
        notConverged: ledger.notConverged,
        seconds: ledger.seconds(),
        gridSeconds: grid.seconds,
      },
      logs: ledger.logs,
    };
  }
}
