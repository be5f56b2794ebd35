// The isopleth as a strategy of the mapping skeleton (core/skeleton.ts): a map of zero-phase-fraction lines
// (core/zpf-map.ts) in the plane (s, T), s the parameter of the composition line (0..1 from composition_start to
// composition_end, isopleth/path.ts), both scaled to the unit square. What is the isopleth's own: the condition set
// of a point of the path, the line points with their axis fraction, the invariant lines and the liquidus and
// solidus, and the result.
import { StateLabeller } from '../core/labels.js';
import { gridFailures } from '../nothing-converged.js';
import { MapLedger } from '../core/ledger.js';
import type { MapStrategy } from '../core/skeleton.js';
import type { Located, UV } from '../core/zpf-line.js';
import { ZpfMap, type PlaneGrid } from '../core/zpf-map.js';
import { invariantLines, namedLines } from './invariants.js';
import { axisValue, solverX } from './path.js';
import { gridRegions, labelStates, lineSideRegions } from './regions.js';
import type { InvariantLine, IsoplethMap, IsoplethSetup, LinePoint, NamedLine, RegionLabel } from './types.js';

export class IsoplethStrategy implements MapStrategy<PlaneGrid, IsoplethMap> {
  private readonly ledger: MapLedger;
  private readonly T0: number;
  private readonly T1: number;
  private readonly map: ZpfMap<LinePoint>;
  private regions: RegionLabel[] = [];
  private invariants: InvariantLine[] = [];
  private named: { liquidus: NamedLine[]; solidus: NamedLine[] } = { liquidus: [], solidus: [] };

  constructor(private readonly setup: IsoplethSetup) {
    this.ledger = new MapLedger(setup.control);
    const [T0, T1] = setup.T;
    [this.T0, this.T1] = [T0, T1];
    const path = setup.path;
    this.map = new ZpfMap(
      setup,
      {
        conditions: (p) => ({ T: T0 + p.v * (T1 - T0), P: setup.P, X: solverX(path, p.u) }),
        spanU: Math.abs(path.axisRange[1] - path.axisRange[0]),
        spanV: T1 - T0,
        tolU: setup.tolX ?? 1e-4,
        tolV: setup.tolT ?? 0.1,
        temperature: (p) => T0 + p.v * (T1 - T0),
      },
      this.ledger,
    );
  }

  seedGrid(): PlaneGrid {
    this.setup.control?.setProgress(0);
    return this.map.seedGrid(this.setup.resolution, 0, 0.35);
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

  private uvOf(q: { s: number; T: number }): UV {
    return { u: q.s, v: (q.T - this.T0) / (this.T1 - this.T0) };
  }

  traceBoundaries(grid: PlaneGrid): void {
    this.map.traceLines(
      grid,
      (l) => this.point(l),
      (q) => this.uvOf(q),
      (k, count) => this.setup.control?.setProgress(0.35 + (0.6 * k) / Math.max(1, count)),
    );
  }

  closeRegions(): void {
    this.map.closeLines();
  }

  findInvariants(): void {
    this.invariants = invariantLines(this.map.lines);
    this.named = namedLines(this.map.lines, this.setup.liquids);
  }

  labelFields(grid: PlaneGrid): void {
    this.regions = gridRegions(this.map.fields(grid), grid.samples, this.T0, this.T1, this.setup.path);
    lineSideRegions(this.regions, this.map.lines);
    const labeller = new StateLabeller(this.setup.database, this.setup.components);
    labelStates(
      this.regions,
      (p) => this.map.solve(p),
      labeller,
      (r) => this.uvOf(r),
    );
  }

  assemble(grid: PlaneGrid): IsoplethMap {
    const { T0, T1, ledger } = this;
    this.setup.control?.setProgress(0.97);
    return {
      lines: this.map.lines,
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
        grid: gridFailures(grid.samples.map((g) => g.result)),
      },
      logs: ledger.logs,
    };
  }
}
