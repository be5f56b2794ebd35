// Binary (T-x) phase-diagram mapping over the global point solver (worker/core/equilibrium.ts).
//
// Method: at fixed T and P, a two-phase tie-line of a binary does not depend on the overall composition
// inside the two-phase field (Gibbs phase rule, F = C - P + 1 = 1 at fixed P: fixing T fixes both phase
// compositions). So one global equilibrium at any X inside the field returns both boundary compositions
// exactly, and a boundary is traced by continuation in T with X = the midpoint of the previous tie-line
// (the approach of Thermo-Calc's and pycalphad's mappers; Lukas, Fries and Sundman, Computational
// Thermodynamics, Cambridge 2007, ch. 8). The steps, each a module:
//  (a) seed-grid.ts: a coarse grid of global equilibria over the threads; every two-phase node seeds its
//      region; between neighbouring single-phase nodes of different phases a bisection finds the
//      (narrow) two-phase field in between, or, for the two states of one ordered phase, a point of a
//      second-order transition;
//  (b) tracing.ts / region-ends.ts: continuation in T with adaptive step; the end of a region is located
//      by bisection on T to 0.01 K and classified; scheduler.ts decides which seeds are traced (with the
//      phases beyond every end, probes around invariants and the lenses next to pure elements) and
//      solves the requests of several traces together;
//  (c) invariants.ts: invariants assembled from the region ends that meet at one temperature, critical
//      and congruent points, pure-element transitions;
//  (d) order-disorder.ts: the disordered state of an ordered phase labelled by its own name and the
//      second-order lines followed in x; phase-labels.ts: labels and the single-phase label anchors.
import { BinarySolver, BudgetExceeded } from './binary-solver.js';
import type { BinaryDiagram, BinaryMapRequest, BinaryState, MapContext } from './binary-types.js';
import { assembleDiagram } from './invariants.js';
import { magneticLines } from './magnetic.js';
import { followSecondOrderLines, OrderModel, resolveOrderDisorderOptions } from './order-disorder.js';
import { confirmAnchors, singlePhaseAnchors } from './phase-labels.js';
import { lensTasks, TraceScheduler } from './scheduler.js';
import { gridAxes, seedsFromGrid } from './seed-grid.js';
import { mergeOverlappingTraces, RegionTracer } from './tracing.js';

export type {
  BinaryDiagram,
  BinaryMapRequest,
  BinaryRegion,
  MapControl,
  OrderDisorderOptions,
} from './binary-types.js';
export { classifyInvariant, cutAt } from './invariants.js';

export function mapBinary(req: BinaryMapRequest): BinaryDiagram {
  const t0 = performance.now();
  const db = req.database;
  const [c1, c2] = req.components.map((c) => c.toUpperCase()) as [string, string];
  const xc = (req.xComponent ?? c2).toUpperCase();
  if (xc !== c1 && xc !== c2) throw new Error(`x component ${xc} is not one of ${c1}, ${c2}`);
  if (c1 === c2) throw new Error('the two components must differ');
  const info = db.info();
  const elementNames = info.elements.map((e) => e.name.toUpperCase());
  for (const c of [c1, c2]) if (!elementNames.includes(c)) throw new Error(`element ${c} is not in the database`);
  const components = elementNames.includes('VA') ? [c1, c2, 'VA'] : [c1, c2];
  const phases = req.phases && req.phases.length ? req.phases.map((p) => p.toUpperCase()) : db.phasesFor([c1, c2]);
  const [Tlo, Thi] = [Math.min(req.T[0], req.T[1]), Math.max(req.T[0], req.T[1])];
  if (!(Tlo > 0) || !Number.isFinite(Thi)) throw new Error('temperature range must be positive and finite');
  const Xr: [number, number] = req.X
    ? [Math.max(0, Math.min(req.X[0], req.X[1])), Math.min(1, Math.max(req.X[0], req.X[1]))]
    : [0, 1];
  const P = req.P ?? 101325;
  const control = req.control;
  const logs: string[] = [];
  const log = (s: string) => {
    logs.push(s);
    req.log?.(s);
  };
  const progress = (p: number) => control?.setProgress?.(p);
  const od = resolveOrderDisorderOptions(req.orderDisorder);
  const order = OrderModel.build(db, phases, components, od);
  // The seed grid only locates regions: a coarser sampling of the global minimisation (30 points per
  // phase instead of the solver's 60) is enough there; every seed is re-solved with the full sampling
  // before it is traced, so a coarse-grid misjudgement cannot enter the diagram.
  const solver = new BinarySolver({
    database: db,
    components,
    phases,
    xComponent: xc,
    P,
    threads: Math.max(1, Math.floor(req.threads ?? 1)),
    pdens: req.pdens,
    gridPdens: req.gridPdens ?? Math.min(30, req.pdens ?? 60),
    budget: req.maxEquilibria ?? 20000,
    order,
    cancelled: () => control?.cancelled === true,
  });
  const ctx: MapContext = { solver, order, Tlo, Thi, Xr, maxStep: req.maxStep ?? 15, log };

  // (a) seed grid
  const axes = gridAxes([Tlo, Thi], Xr, req.grid);
  const nT = axes.T.length,
    nX = axes.X.length;
  const grid = solver.solveGrid(axes.T.flatMap((T) => axes.X.map((X) => ({ T, X }))));
  const fromGrid = new WeakSet<BinaryState>(grid);
  progress(0.2);
  const tGrid = performance.now();
  for (const g of grid)
    if (!g.ok) log(`seed grid: equilibrium not converged at T=${g.T.toFixed(2)} K, X(${xc})=${g.X.toFixed(4)}`);
  const found = seedsFromGrid(ctx, grid, nT, nX);
  progress(0.3);
  const tSeed = performance.now();

  // (b) tracing
  const tracer = new RegionTracer(ctx);
  new TraceScheduler(ctx, tracer, found.twoPhase, fromGrid, lensTasks(grid, nT, nX, Xr)).run(
    Math.max(1, Math.floor(req.traceConcurrency ?? req.threads ?? 1)),
    progress,
  );
  // an incomplete trace (budget) is dropped
  const regions = tracer.regions.filter((r) => r.done);
  mergeOverlappingTraces(regions);

  // (c) invariants, critical and congruent points
  const secondOrder = found.secondOrder;
  const points = assembleDiagram(regions, order, secondOrder, log);
  // two ordered states of one phase (B2 and D03): the more ordered one is the line's ordered side
  for (const c of points.tricriticalPoints) if (order.rank(c.phases[0]) < order.rank(c.phases[1])) c.phases.reverse();
  // a tricritical point ends its second-order line (the line goes on from where the two-phase field closes)
  for (const c of points.tricriticalPoints)
    secondOrder.push({ ordered: c.phases[0], disordered: c.phases[1], T: c.T, x: c.x });

  // (d) labels and second-order lines
  const singlePhaseLabels = confirmAnchors(singlePhaseAnchors(grid, nT, nX), (T, x) =>
    solver.exhausted ? null : solver.solve(T, x),
  );
  // the points of a line are solved together over the threads
  const solveMany = (reqs: { T: number; x: number }[]): BinaryState[] => {
    solver.checkCancel();
    if (solver.count + reqs.length > solver.budget) throw new BudgetExceeded();
    return solver.solveCold(
      reqs.map((q) => ({ T: q.T, X: q.x })),
      Math.max(1, Math.floor(req.threads ?? 1)),
    );
  };
  const secondOrderLines =
    od.enabled && od.trace_boundaries
      ? followSecondOrderLines(
          secondOrder.map((p) => order.orient(p)),
          (T, x) => solver.solve(T, x),
          { Tlo, Thi },
          log,
          solveMany,
        )
      : [];

  const gridLabelAt = (T: number, x: number): string | null => {
    let best: BinaryState | null = null,
      bd = Infinity;
    for (const g of grid) {
      const d = ((g.T - T) / Math.max(1e-9, Thi - Tlo)) ** 2 + ((g.X - x) / Math.max(1e-9, Xr[1] - Xr[0])) ** 2;
      if (d < bd) {
        bd = d;
        best = g;
      }
    }
    return best && best.ok && best.phases.length === 1 ? best.phases[0].label : null;
  };
  const magnetic = magneticLines(db, {
    phases,
    components,
    xComponent: xc,
    other: xc === c1 ? c2 : c1,
    P,
    T: [Tlo, Thi],
    X: Xr,
    regions: points.regions,
    order,
    fallback: gridLabelAt,
  });

  progress(1);
  return {
    components: [c1, c2],
    xComponent: xc,
    T: [Tlo, Thi],
    X: Xr,
    P,
    ...points,
    singlePhaseLabels,
    magneticLines: magnetic,
    orderDisorder: {
      options: od,
      phases: [...order.info].map(([k, v]) => ({ ordered: k, disordered: v.disordered })),
      secondOrderLines,
      notes: order.notes(od),
    },
    grid: { T: axes.T, X: axes.X, labels: grid.map((g) => g.key) },
    stats: {
      equilibria: solver.count,
      notConverged: solver.notConverged,
      seconds: (performance.now() - t0) / 1000,
      gridSeconds: (tGrid - t0) / 1000,
      seedSeconds: (tSeed - tGrid) / 1000,
    },
    logs,
  };
}
