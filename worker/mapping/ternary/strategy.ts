// The ternary isothermal section as a strategy of the mapping skeleton (core/skeleton.ts): a triangular seed grid
// over the window, tie-line families traced along their normals (ternary/trace.ts), tie-triangles met by the traces,
// twins and overlapping fields resolved (ternary/overlaps.ts), labels, and the self-check (ternary/self-check.ts).
import type { NativeDatabase } from '../../core/native.js';
import type { JobControl } from '../../protocol.js';
import { triangularGrid, type TriangularGrid } from '../core/grid.js';
import { StateLabeller } from '../core/labels.js';
import { gridFailures, type GridFailures } from '../nothing-converged.js';
import { MapLedger } from '../core/ledger.js';
import type { MapStrategy } from '../core/skeleton.js';
import { SectionFields } from './fields.js';
import type { SelfCheckResult, TernaryTriangle, TernaryTwoPhaseRegion, Vec3 } from './geometry.js';
import { labelSets, singlePhaseFieldLabels } from './labels.js';
import { dropTwinRegions, resolveOverlaps } from './overlaps.js';
import { seedBetweenNeighbours, seedGridNodes, seedTriangleEdges, singleKey, type SeedContext } from './seeds.js';
import { checkSection } from './self-check.js';
import { SectionSolver, type SectionState } from './solver.js';
import { TieLineTracer } from './trace.js';
import { SectionWindow } from './window.js';

/** Rounds of the self-check that refine the map from its disagreements (each a check of its own). */
const MAX_REFINEMENTS = 3;

export interface TernaryMapRequest {
  database: NativeDatabase;
  /** the three elements; the solver gets VA too when the database defines it */
  components: [string, string, string];
  phases?: string[];
  T: number;
  P?: number;
  /** per component [min, max] mole fraction (default [0, 1]) */
  window?: [number, number][];
  threads?: number;
  control?: Pick<JobControl, 'cancelled' | 'setProgress'> & { setStage?(text: string): void };
  /** divisions of each side of the seed grid (default 12: 91 nodes; 16 found no further region or triangle in the
   * tested sections, narrow fields between nodes are found by bisection and from the triangles) */
  gridDivisions?: number;
  /** sampling density of the global minimisation (default: the solver's 60) */
  pdens?: number;
  /** largest continuation step, mole fraction (default 0.02) */
  maxStep?: number;
  /** point equilibria budget of the tracing (default 6000) */
  maxEquilibria?: number;
  /** warm-start the grid's equilibria from their row neighbours (default false) */
  warmGrid?: boolean;
  /** run the completeness self-check (default true) */
  selfCheck?: boolean;
}

export interface TernarySection {
  components: [string, string, string];
  T: number;
  P: number;
  window: [number, number][];
  regions: TernaryTwoPhaseRegion[];
  triangles: TernaryTriangle[];
  /** `label`: the display label (the ordering state where the phase has one) */
  singlePhaseLabels: { phase: string; x: Vec3; label?: string }[];
  criticalPoints: { phases: [string, string]; x: Vec3 }[];
  selfCheck: SelfCheckResult | null;
  stats: { equilibria: number; notConverged: number; seconds: number; gridSeconds: number; grid: GridFailures };
  logs: string[];
}

/** The seed grid of a section: the triangular grid and the equilibrium of each node. */
export interface SectionGrid {
  shape: TriangularGrid;
  states: SectionState[];
  seconds: number;
}

export class TernarySectionStrategy implements MapStrategy<SectionGrid, TernarySection> {
  private readonly ledger: MapLedger;
  private readonly P: number;
  private readonly window: SectionWindow;
  private readonly solver: SectionSolver;
  private readonly fields: SectionFields;
  private readonly seeds: SeedContext;
  private readonly control: TernaryMapRequest['control'];
  private singlePhaseLabels: TernarySection['singlePhaseLabels'] = [];
  private check: SelfCheckResult | null = null;

  constructor(private readonly req: TernaryMapRequest) {
    this.control = req.control;
    this.ledger = new MapLedger(req.control);
    this.P = req.P ?? 101325;
    this.window = new SectionWindow(
      req.window ?? [
        [0, 1],
        [0, 1],
        [0, 1],
      ],
    );
    const elements = new Set(req.database.info().elements.map((e) => e.name.toUpperCase()));
    const solverComponents = elements.has('VA') ? [...req.components, 'VA'] : [...req.components];
    this.solver = new SectionSolver(
      {
        database: req.database,
        components: req.components,
        solverComponents,
        phases: req.phases,
        T: req.T,
        P: this.P,
        pdens: req.pdens,
        threads: Math.max(1, req.threads ?? 1),
        control: req.control,
        warmGrid: req.warmGrid ?? false,
      },
      this.ledger,
    );
    this.fields = new SectionFields(req.components, this.solver, this.ledger);
    const tracer = new TieLineTracer(
      this.solver,
      this.fields,
      this.window,
      this.ledger,
      req.maxStep ?? 0.02,
      req.maxEquilibria ?? 6000,
    );
    this.seeds = { solver: this.solver, fields: this.fields, tracer, window: this.window };
  }

  seedGrid(): SectionGrid {
    const n = Math.max(4, Math.round(this.req.gridDivisions ?? 12));
    const shape = triangularGrid(n, this.window.lower, (X) => this.window.contains(X));
    const t = performance.now();
    this.control?.setStage?.(`seed grid: ${shape.nodes.length} equilibria`);
    const states = this.solver.batch(shape.nodes, 0, 0.25);
    this.control?.setStage?.('tracing two-phase regions');
    return { shape, states, seconds: (performance.now() - t) / 1000 };
  }

  traceBoundaries(grid: SectionGrid): void {
    const nGrid = grid.states.length;
    seedGridNodes(this.seeds, grid.states, (done) =>
      this.control?.setProgress?.(0.25 + 0.55 * Math.min(1, done / Math.max(1, nGrid))),
    );
    seedBetweenNeighbours(this.seeds, grid.states, grid.shape.neighbours);
    this.control?.setProgress?.(0.85);
    seedTriangleEdges(this.seeds);
    this.control?.setProgress?.(0.9);
  }

  closeRegions(): void {
    dropTwinRegions(this.fields);
    resolveOverlaps(this.fields, this.ledger);
  }

  labelFields(grid: SectionGrid): void {
    const labeller = new StateLabeller(this.req.database, this.solver.solverComponents);
    const states = grid.states;
    this.singlePhaseLabels = singlePhaseFieldLabels(
      states,
      grid.shape.neighbours,
      (k) => singleKey(states[k]!),
      (k, key) => {
        const raw = states[k]!.raw;
        return raw ? labeller.labels(raw, [{ label: key, x: this.solver.composition(states[k]!.X) }])[0] : undefined;
      },
    );
    labelSets(this.fields.regions, this.fields.triangles, this.fields.potentials, labeller, (X) =>
      this.solver.composition(X),
    );
  }

  /**
   * The self-check, and the map refined from its disagreements: the answer at each point that disagrees seeds the
   * field the map missed there (its region traced, its triangle added, the new triangle's edges traced), the fields
   * are closed and labelled again and the check is repeated, until no disagreement is left, a round adds no field,
   * or after MAX_REFINEMENTS rounds; what is left stays in the result's self_check.
   */
  selfCheck(grid: SectionGrid): void {
    if (this.req.selfCheck === false) return;
    const stage = (text: string) => this.control?.setStage?.(text);
    for (let round = 1; ; round++) {
      const { check, missed } = checkSection(this.fields, this.solver, this.window, grid.shape, stage);
      this.check = check;
      if (!missed.length || round > MAX_REFINEMENTS) return;
      const before = this.fields.regions.length + this.fields.triangles.length;
      stage(`self-check: the map refined from ${missed.length} disagreements`);
      seedGridNodes(this.seeds, missed, () => {});
      seedTriangleEdges(this.seeds);
      const added = this.fields.regions.length + this.fields.triangles.length - before;
      this.ledger.log(`self-check round ${round}: ${missed.length} disagreements seeded ${added} fields`);
      if (added <= 0) return;
      this.closeRegions();
      this.labelFields(grid);
    }
  }

  assemble(grid: SectionGrid): TernarySection {
    const { equilibria, notConverged, logs } = this.ledger;
    const section: TernarySection = {
      components: this.req.components,
      T: this.req.T,
      P: this.P,
      window: this.window.bounds,
      regions: this.fields.regions,
      triangles: this.fields.triangles,
      singlePhaseLabels: this.singlePhaseLabels,
      criticalPoints: this.fields.criticalPoints,
      selfCheck: this.check,
      stats: {
        equilibria,
        notConverged,
        seconds: this.ledger.seconds(),
        gridSeconds: grid.seconds,
        grid: gridFailures(grid.states.map((e) => e.raw)),
      },
      logs,
    };
    if (notConverged) logs.push(`${notConverged} of ${equilibria} point equilibria did not converge`);
    return section;
  }
}
