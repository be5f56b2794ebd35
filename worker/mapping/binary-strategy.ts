// The binary T-x diagram as a strategy of the mapping skeleton (core/skeleton.ts): a rectangular seed grid in (T, x)
// (seed-grid.ts), two-phase regions traced in T by the scheduler's coroutines (scheduler.ts, tracing.ts), traces
// found twice merged, invariants from the region ends that meet at one temperature (invariants.ts), single-phase
// labels confirmed by full-sampling equilibria (phase-labels.ts), second-order and Curie lines inside the fields
// (order-lines.ts, magnetic.ts).
import { BinarySolver } from './binary-solver.js';
import type { MapContext } from './binary-context.js';
import type {
  BinaryDiagram,
  BinaryMapRequest,
  BinaryState,
  OrderDisorderOptions,
  SecondOrderLine,
  SecondOrderPoint,
  TracedRegion,
} from './binary-types.js';
import { BudgetExceeded, MapLedger } from './core/ledger.js';
import type { MapStrategy } from './core/skeleton.js';
import { assembleDiagram, type DiagramPoints } from './invariants.js';
import { magneticLines, type MagneticLine } from './magnetic.js';
import { OrderModel, resolveOrderDisorderOptions } from './order-disorder.js';
import { followSecondOrderLines } from './order-lines.js';
import { confirmAnchors, singlePhaseAnchors } from './phase-labels.js';
import { lensTasks, TraceScheduler } from './scheduler.js';
import { edgePoints, gridAxes, seedsFromGrid, seedsOnEdges } from './seed-grid.js';
import { mergeOverlappingTraces, RegionTracer } from './tracing.js';
import { withoutDuplicates } from '../system/duplicate-phases.js';

/** The seed grid of a binary: its axes, the states of its nodes (row-major in T), and the seeds found on it. */
export interface BinaryGrid {
  axes: { T: number[]; X: number[] };
  nT: number;
  nX: number;
  states: BinaryState[];
  /** the states of the diagram's edges between the grid's nodes on them (seed-grid.ts edgePoints) */
  edge: BinaryState[];
  /** the grid's own states (coarser sampling: re-solved before they are traced) */
  fromGrid: WeakSet<BinaryState>;
  seconds: number;
}

/**
 * The system of a request: the two components (upper case), the axis component, the solver's components, phases (the
 * requested ones, by default every phase the components allow, but one that duplicates another's state over
 * [Tlo, Thi]: duplicate-phases.ts; a selection keeping both, e.g. MF Steel's ALCRFE_O1 beside FCC_A1 in Al-B, where
 * ALCRFE_O1 holds pure Al alone, would otherwise draw a field the point equilibrium names FCC_A1).
 */
function binarySystem(req: BinaryMapRequest, [Tlo, Thi]: [number, number], P: number) {
  const db = req.database;
  const [c1, c2] = req.components.map((c) => c.toUpperCase()) as [string, string];
  const xc = (req.xComponent ?? c2).toUpperCase();
  if (xc !== c1 && xc !== c2) throw new Error(`x component ${xc} is not one of ${c1}, ${c2}`);
  if (c1 === c2) throw new Error('the two components must differ');
  const elementNames = db.info().elements.map((e) => e.name.toUpperCase());
  for (const c of [c1, c2]) if (!elementNames.includes(c)) throw new Error(`element ${c} is not in the database`);
  const components = elementNames.includes('VA') ? [c1, c2, 'VA'] : [c1, c2];
  const requested = req.phases && req.phases.length ? req.phases.map((p) => p.toUpperCase()) : db.phasesFor([c1, c2]);
  const phases = withoutDuplicates(db, components, requested, [Tlo, Thi], P);
  return { c1, c2, xc, components, phases };
}

/** The window of a request: the T range and the x range (default the whole axis). */
function binaryWindow(req: BinaryMapRequest): { Tlo: number; Thi: number; Xr: [number, number] } {
  const [Tlo, Thi] = [Math.min(req.T[0], req.T[1]), Math.max(req.T[0], req.T[1])];
  if (!(Tlo > 0) || !Number.isFinite(Thi)) throw new Error('temperature range must be positive and finite');
  const Xr: [number, number] = req.X
    ? [Math.max(0, Math.min(req.X[0], req.X[1])), Math.min(1, Math.max(req.X[0], req.X[1]))]
    : [0, 1];
  return { Tlo, Thi, Xr };
}

export class BinaryStrategy implements MapStrategy<BinaryGrid, BinaryDiagram> {
  private readonly ledger: MapLedger;
  private readonly system: ReturnType<typeof binarySystem>;
  private readonly P: number;
  private readonly od: Required<OrderDisorderOptions>;
  private readonly order: OrderModel;
  private readonly solver: BinarySolver;
  private readonly ctx: MapContext;
  private tracer: RegionTracer | null = null;
  private secondOrder: SecondOrderPoint[] = [];
  private regions: TracedRegion[] = [];
  private points: DiagramPoints | null = null;
  private singlePhaseLabels: BinaryDiagram['singlePhaseLabels'] = [];
  private secondOrderLines: SecondOrderLine[] = [];
  private magnetic: MagneticLine[] = [];
  private seedSeconds = 0;

  constructor(private readonly req: BinaryMapRequest) {
    this.ledger = new MapLedger(req.control, req.log);
    const { Tlo, Thi, Xr } = binaryWindow(req);
    this.P = req.P ?? 101325;
    this.system = binarySystem(req, [Tlo, Thi], this.P);
    this.od = resolveOrderDisorderOptions(req.orderDisorder);
    this.order = OrderModel.build(req.database, this.system.phases, this.system.components, this.od);
    // The seed grid only locates regions: a coarser sampling of the global minimisation (30 points per
    // phase instead of the solver's 60) is enough there; every seed is re-solved with the full sampling
    // before it is traced, so a coarse-grid misjudgement cannot enter the diagram.
    this.solver = new BinarySolver(
      {
        database: req.database,
        components: this.system.components,
        phases: this.system.phases,
        xComponent: this.system.xc,
        P: this.P,
        threads: this.threads,
        pdens: req.pdens,
        gridPdens: req.gridPdens ?? Math.min(30, req.pdens ?? 60),
        budget: req.maxEquilibria ?? 20000,
        order: this.order,
      },
      this.ledger,
    );
    const log = (s: string) => this.ledger.log(s);
    this.ctx = { solver: this.solver, order: this.order, Tlo, Thi, Xr, maxStep: req.maxStep ?? 15, log };
  }

  private get threads(): number {
    return Math.max(1, Math.floor(this.req.threads ?? 1));
  }

  private progress(p: number): void {
    this.req.control?.setProgress?.(p);
  }

  seedGrid(): BinaryGrid {
    const t = performance.now();
    const { Tlo, Thi, Xr } = this.ctx;
    const axes = gridAxes([Tlo, Thi], Xr, this.req.grid);
    const states = this.solver.solveGrid(axes.T.flatMap((T) => axes.X.map((X) => ({ T, X }))));
    const edge = this.solver.solveGrid(edgePoints(axes, Xr));
    this.progress(0.2);
    for (const g of [...states, ...edge])
      if (!g.ok)
        this.ledger.log(
          `seed grid: equilibrium not converged at T=${g.T.toFixed(2)} K, X(${this.system.xc})=${g.X.toFixed(4)}`,
        );
    const seconds = (performance.now() - t) / 1000;
    return {
      axes,
      nT: axes.T.length,
      nX: axes.X.length,
      states,
      edge,
      fromGrid: new WeakSet([...states, ...edge]),
      seconds,
    };
  }

  /** Seeds on and between the grid's nodes, then every region traced (an incomplete trace is dropped later). */
  traceBoundaries(grid: BinaryGrid): void {
    const t = performance.now();
    const found = seedsFromGrid(this.ctx, grid.states, grid.nT, grid.nX);
    const onEdges = seedsOnEdges(this.ctx, grid.states, grid.axes, grid.edge);
    this.secondOrder = found.secondOrder;
    this.progress(0.3);
    this.seedSeconds = (performance.now() - t) / 1000;
    this.tracer = new RegionTracer(this.ctx);
    const lenses = lensTasks(grid.states, grid.nT, grid.nX, this.ctx.Xr);
    new TraceScheduler(this.ctx, this.tracer, found.twoPhase, grid.fromGrid, lenses, onEdges.twoPhase).run(
      Math.max(1, Math.floor(this.req.traceConcurrency ?? this.req.threads ?? 1)),
      (p) => this.progress(p),
    );
  }

  /** An incomplete trace (budget) is dropped; two traces of one region are merged. */
  closeRegions(): void {
    this.regions = this.tracer!.regions.filter((r) => r.done);
    mergeOverlappingTraces(this.regions);
  }

  /** Invariants, critical and congruent points from the region ends; a tricritical point ends a second-order line. */
  findInvariants(): void {
    const { order, secondOrder } = this;
    const points = assembleDiagram(this.regions, order, secondOrder, this.ctx.log);
    // two ordered states of one phase (B2 and D03): the more ordered one is the line's ordered side
    for (const c of points.tricriticalPoints) if (order.rank(c.phases[0]) < order.rank(c.phases[1])) c.phases.reverse();
    // a tricritical point ends its second-order line (the line goes on from where the two-phase field closes)
    for (const c of points.tricriticalPoints)
      secondOrder.push({ ordered: c.phases[0], disordered: c.phases[1], T: c.T, x: c.x });
    this.points = points;
  }

  labelFields(grid: BinaryGrid): void {
    const solver = this.solver;
    this.singlePhaseLabels = confirmAnchors(singlePhaseAnchors(grid.states, grid.nT, grid.nX), (T, x) =>
      solver.exhausted ? null : solver.solve(T, x),
    );
  }

  /** The second-order lines through the located transition points, and the Curie/Neel lines. */
  followFieldLines(grid: BinaryGrid): void {
    const { solver, order, ctx } = this;
    // the points of a line are solved together over the threads
    const solveMany = (reqs: { T: number; x: number }[]): BinaryState[] => {
      solver.checkCancel();
      if (solver.count + reqs.length > solver.budget) throw new BudgetExceeded();
      return solver.solveCold(
        reqs.map((q) => ({ T: q.T, X: q.x })),
        this.threads,
      );
    };
    this.secondOrderLines =
      this.od.enabled && this.od.trace_boundaries
        ? followSecondOrderLines(
            this.secondOrder.map((p) => order.orient(p)),
            (T, x) => solver.solve(T, x),
            { Tlo: ctx.Tlo, Thi: ctx.Thi },
            ctx.log,
            solveMany,
          )
        : [];
    const { c1, c2, xc, components, phases } = this.system;
    this.magnetic = magneticLines(this.req.database, {
      phases,
      components,
      xComponent: xc,
      other: xc === c1 ? c2 : c1,
      P: this.P,
      T: [ctx.Tlo, ctx.Thi],
      X: ctx.Xr,
      regions: this.points!.regions,
      order,
      fallback: (T, x) => this.gridLabelAt(grid, T, x),
    });
  }

  /** The label of the single-phase grid node nearest to (T, x) in the diagram's scaled plane (null: not single-phase). */
  private gridLabelAt(grid: BinaryGrid, T: number, x: number): string | null {
    const { Tlo, Thi, Xr } = this.ctx;
    let best: BinaryState | null = null,
      bd = Infinity;
    for (const g of grid.states) {
      const d = ((g.T - T) / Math.max(1e-9, Thi - Tlo)) ** 2 + ((g.X - x) / Math.max(1e-9, Xr[1] - Xr[0])) ** 2;
      if (d < bd) {
        bd = d;
        best = g;
      }
    }
    return best && best.ok && best.phases.length === 1 ? best.phases[0].label : null;
  }

  assemble(grid: BinaryGrid): BinaryDiagram {
    const { ctx, order, od, ledger } = this;
    this.progress(1);
    return {
      components: [this.system.c1, this.system.c2],
      xComponent: this.system.xc,
      T: [ctx.Tlo, ctx.Thi],
      X: ctx.Xr,
      P: this.P,
      ...this.points!,
      singlePhaseLabels: this.singlePhaseLabels,
      magneticLines: this.magnetic,
      orderDisorder: {
        options: od,
        phases: [...order.info].map(([k, v]) => ({ ordered: k, disordered: v.disordered })),
        secondOrderLines: this.secondOrderLines,
        notes: order.notes(od),
      },
      grid: {
        T: grid.axes.T,
        X: grid.axes.X,
        labels: grid.states.map((g) => g.key),
        noEquilibrium: grid.states.flatMap((g, k) => (g.none ? [k] : [])),
      },
      stats: {
        equilibria: ledger.equilibria,
        notConverged: ledger.notConverged,
        seconds: ledger.seconds(),
        gridSeconds: grid.seconds,
        seedSeconds: this.seedSeconds,
      },
      logs: ledger.logs,
    };
  }
}
