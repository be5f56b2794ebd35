// Binary (T-x) phase-diagram mapping over the global point solver (worker/core/equilibrium.ts).
//
// Method (issue 6; formula sheet shared/design/calphad-formulas.md §8-§9 for the point equilibria,
// §8.7 for the sampling density pdens of the global minimisation, §5 for ordered phases):
// at fixed T and P, a two-phase tie-line of a binary does not depend on the overall composition
// inside the two-phase field (Gibbs phase rule, F = C - P + 1 = 1 at fixed P: fixing T fixes both
// phase compositions). So one global equilibrium at any X inside the field returns both boundary
// compositions exactly, and a boundary is traced by continuation in T with X = the midpoint of the
// previous tie-line.
//  (a) seeds: a coarse grid of global equilibria (equilibriumBatch over threads); every two-phase node
//      seeds its region; between neighbouring single-phase nodes of different phases a bisection finds
//      the (narrow) two-phase field in between (or, for the two states of one ordered phase, a
//      second-order transition point);
//  (b) continuation in T with adaptive step; the end of a region is located by bisection on T to
//      0.01 K and classified: invariant (the equilibrium beyond gives a neighbouring two-phase set ->
//      three phases), critical point of a miscibility gap / congruent point (tie-line length -> 0),
//      transition of a pure component (tie-line collapses onto x = 0 or 1), edge of the T range;
//  (c) invariants are assembled from the region ends that meet at one temperature and classified
//      from which phase lies between in composition and on which side the outer two-phase field is.
import { equilibrium, equilibriumBatch, type EquilibriumResult } from '../core/equilibrium.js';
import { PhaseModel } from '../core/models.js';
import type { NativeDatabase } from '../core/native.js';
import { CancelledError } from '../protocol.js';
import { marchToField } from './field_search.js';
import { edgeBrackets, edgePhase, narrowEdgeBracket } from './pure_edges.js';
import type {
  InvariantKind, InvariantRecord, RegionEndKind, TieLine, TwoPhaseRegion,
} from '../results/binary_equilibrium.js';


export interface MapControl {
  readonly cancelled: boolean;
  setProgress?(p: number): void;
}

export interface OrderDisorderOptions {
  enabled?: boolean;
  trace_boundaries?: boolean;
  stability_filter?: boolean;
  plot_boundaries?: boolean;
  phase_scope?: 'order_disorder' | 'all';
  trace_method?: 'branch_continuation';
}

export interface BinaryMapRequest {
  database: NativeDatabase;
  /** the two elements */
  components: [string, string];
  /** component on the composition axis (default components[1]) */
  xComponent?: string;
  /** allowed phases (default: all the components allow) */
  phases?: string[];
  T: [number, number];
  /** range of X(xComponent) (default [0, 1]) */
  X?: [number, number];
  P?: number;
  threads?: number;
  control?: MapControl;
  /** seed grid (default: about one row per 125 K, at least 8, and 21 columns) */
  grid?: { nT?: number; nX?: number };
  orderDisorder?: OrderDisorderOptions;
  /** largest continuation step in T (K, default 15) */
  maxStep?: number;
  /** sampling density of the global minimisation (solver default 60) for tracing / for the seed grid */
  pdens?: number;
  gridPdens?: number;
  /** traces run at once, their requests solved together (default 1; see the scheduler) */
  traceConcurrency?: number;
  /** safety budget of point equilibria for the whole diagram (default 20000); when it is used up the
   * remaining regions are not traced and the logs say so */
  maxEquilibria?: number;
  /** called with log lines (non-converged points, unresolved ends, ...) */
  log?: (line: string) => void;
}

export interface BinaryRegion extends TwoPhaseRegion {
  ends: { low: RegionEndKind; high: RegionEndKind };
}

export interface BinaryDiagram {
  components: [string, string];
  xComponent: string;
  T: [number, number];
  X: [number, number];
  P: number;
  regions: BinaryRegion[];
  invariants: InvariantRecord[];
  criticalPoints: { phase: string; T: number; x: number }[];
  congruentPoints: { phases: [string, string]; T: number; x: number }[];
  pureTransitions: { phases: [string, string]; T: number; x: number }[];
  singlePhaseLabels: { label: string; T: number; x: number }[];
  orderDisorder: {
    options: Required<OrderDisorderOptions>;
    phases: { ordered: string; disordered: string }[];
    secondOrderLines: { ordered: string; disordered: string; points: { T: number; x: number }[] }[];
    notes: string[];
  };
  /** the seed grid: label per node (phase labels joined by '+', '' = not converged) */
  grid: { T: number[]; X: number[]; labels: string[] };
  /** seconds: total; gridSeconds: seed grid (batch); seedSeconds: bisections between grid nodes */
  stats: { equilibria: number; notConverged: number; seconds: number; gridSeconds: number; seedSeconds: number };
  logs: string[];
}

/** One stable phase of an equilibrium, labelled. */
interface PS { base: string; label: string; x: number; NP: number; /** order parameter (ordered phases) */ eta?: number }
interface Eq { ok: boolean; T: number; X: number; phases: PS[]; key: string }

interface End {
  kind: RegionEndKind;
  T: number;
  good: TieLine;
  bad: Eq | null;
  /** +1: the region lies below T (traced upwards), -1: above */
  dir: 1 | -1;
}

const MIN_STEP = 0.01;         // K, resolution of the region ends (issue: 0.1 K)
const NP_MIN = 1e-10;
const XCLAMP = 1e-10;           // the solver clamps fractions to [1e-10, 1-1e-10] as well
const SHORT_TIELINE = 0.02;     // a tie-line this short at the located end collapses (critical/congruent/pure)
const SAME_X = 0.01;            // two phase records closer than this in x are the same phase
/** K: region ends with the same three phases at the same compositions this close are one invariant */
const MERGE_T = 3;
/** a boundary off its predicted composition by more than this while the other one is not has jumped */
const JUMP_X = 0.01;
/** a region whose tie-line is shorter than this is searched for across compositions when the predicted
 * midpoint misses it (see attemptG); wider ones are found by the probes across the tie-line */
const SEARCH_LEN = 0.05;
/** K: pure-element transitions are bracketed to this, and their lenses looked for this far on each side */
const EDGE_TOL = 0.02;
const LENS_DT = 0.2;

export function isLiquidName(name: string): boolean {
  return /^LIQ|LIQUID|^IONIC_LIQ/i.test(name);
}

/** Splits "NAME#2" into NAME. */
export function baseName(label: string): string {
  const i = label.indexOf('#');
  return i < 0 ? label : label.slice(0, i);
}

function labelPhases(list: { base: string; x: number; NP: number }[]): PS[] {
  const sorted = [...list].sort((a, b) => a.x - b.x);
  const count = new Map<string, number>();
  return sorted.map((p) => {
    const n = (count.get(p.base) ?? 0) + 1;
    count.set(p.base, n);
    return { ...p, label: n > 1 ? `${p.base}#${n}` : p.base };
  });
}

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
  const Xr: [number, number] = req.X ? [Math.max(0, Math.min(req.X[0], req.X[1])), Math.min(1, Math.max(req.X[0], req.X[1]))] : [0, 1];
  const P = req.P ?? 101325;
  const threads = Math.max(1, Math.floor(req.threads ?? 1));
  const control = req.control;
  const maxStep = req.maxStep ?? 15;
  const logs: string[] = [];
  const log = (s: string) => { logs.push(s); req.log?.(s); };
  const od: Required<OrderDisorderOptions> = {
    enabled: req.orderDisorder?.enabled ?? true,
    trace_boundaries: req.orderDisorder?.trace_boundaries ?? true,
    stability_filter: req.orderDisorder?.stability_filter ?? true,
    plot_boundaries: req.orderDisorder?.plot_boundaries ?? true,
    phase_scope: req.orderDisorder?.phase_scope ?? 'order_disorder',
    trace_method: req.orderDisorder?.trace_method ?? 'branch_continuation',
  };
  const checkCancel = () => { if (control?.cancelled) throw new CancelledError(); };
  const progress = (p: number) => control?.setProgress?.(p);

  // ---- order/disorder: the disordered state of an ordered phase gets its own label --------------
  // An ordered phase modelled with a disordered part (TDB DIS_PART / same phase name in both states,
  // e.g. BCC_B2 over BCC_A2; formula sheet §5) is one Gibbs-energy surface; the state is read from the
  // site fractions: equal fractions on the sublattices that share their constituents (the ones §5.2
  // merges into the disordered quasi-fractions) = disordered. With
  // phase_scope 'all', every phase with such equivalent sublattices is checked, not only DIS_PART ones.
  const orderInfo = new Map<string, { disordered: string; groups: number[][][] }>();
  const odNotes: string[] = [];
  if (od.enabled) {
    for (const ph of info.phases) {
      if (!phases.includes(ph.name.toUpperCase())) continue;
      if (od.phase_scope === 'order_disorder' && !ph.disorderedPart) continue;
      let model: PhaseModel | null = null;
      try { model = PhaseModel.build(db, ph.name, components); } catch { model = null; }
      if (!model) continue;
      // group sublattices by their constituent set; each group of >= 2 can order
      const bySub = new Map<number, Map<string, number>>();
      model.variables.forEach((v, k) => {
        if (!bySub.has(v.sublattice)) bySub.set(v.sublattice, new Map());
        bySub.get(v.sublattice)!.set(v.species, k);
      });
      const keyed = new Map<string, number[]>();
      for (const [s, m] of bySub) {
        const key = [...m.keys()].sort().join(',');
        if (m.size < 2) continue;
        if (!keyed.has(key)) keyed.set(key, []);
        keyed.get(key)!.push(s);
      }
      const groups: number[][][] = [];
      for (const subs of keyed.values()) {
        if (subs.length < 2) continue;
        const species = [...bySub.get(subs[0])!.keys()];
        groups.push(species.map((sp) => subs.map((s) => bySub.get(s)!.get(sp)!)));
      }
      if (!groups.length) continue;
      const disordered = ph.disorderedPart ? ph.disorderedPart.toUpperCase() : `${ph.name.toUpperCase()}_DIS`;
      orderInfo.set(ph.name.toUpperCase(), { disordered, groups });
    }
  }
  const orderParameter = (name: string, y: Float64Array): number => {
    const oi = orderInfo.get(name);
    if (!oi) return 0;
    let m = 0;
    for (const g of oi.groups) for (const idx of g) {
      let lo = Infinity, hi = -Infinity;
      for (const k of idx) { lo = Math.min(lo, y[k]); hi = Math.max(hi, y[k]); }
      m = Math.max(m, hi - lo);
    }
    return m;
  };
  const ORDER_EPS = 1e-4;

  // ---- equilibria ------------------------------------------------------------------------------
  let nEq = 0, nBad = 0;
  const clampX = (x: number) => Math.min(1 - XCLAMP, Math.max(XCLAMP, x));
  const cond = (T: number, X: number) => ({ T, P, X: { [xc]: clampX(X) } });
  const toEq = (r: EquilibriumResult, T: number, X: number): Eq => {
    nEq++;
    if (!r.converged) {
      nBad++;
      return { ok: false, T, X, phases: [], key: '' };
    }
    const list = r.phases.filter((p) => p.NP > NP_MIN).map((p) => {
      let base = p.name.toUpperCase();
      const oi = orderInfo.get(base);
      const eta = oi ? orderParameter(base, p.y) : undefined;
      if (oi && eta! < ORDER_EPS) base = oi.disordered;
      return { base, x: p.x[xc] ?? 0, NP: p.NP, eta };
    });
    // two composition sets of one phase at the same composition are one phase
    const merged: typeof list = [];
    for (const p of list.sort((a, b) => a.x - b.x)) {
      const prev = merged[merged.length - 1];
      if (prev && prev.base === p.base && Math.abs(prev.x - p.x) < 1e-6) prev.NP += p.NP;
      else merged.push({ ...p });
    }
    const ps = labelPhases(merged);
    return { ok: true, T, X, phases: ps, key: ps.map((p) => p.label).join('+') };
  };
  const budget = req.maxEquilibria ?? 20000;
  // The seed grid only locates regions: a coarser sampling of the global minimisation (30 points per
  // phase instead of the solver's 60) is enough there; every seed is re-solved with the full sampling
  // before it is traced, so a coarse-grid misjudgement cannot enter the diagram.
  const gridPdens = req.gridPdens ?? Math.min(30, req.pdens ?? 60);
  const fromGrid = new WeakSet<Eq>();
  class BudgetExceeded extends Error {}
  const solve = (T: number, X: number): Eq => {
    checkCancel();
    if (nEq >= budget) throw new BudgetExceeded();
    let r = equilibrium({ database: db, components, phases, conditions: cond(T, X), options: { pdens: req.pdens } });
    if (!r.converged) {
      // one retry at a slightly shifted composition (the tie-line does not depend on X inside a field)
      const X2 = X + (X < 0.5 ? 1e-4 : -1e-4);
      const r2 = equilibrium({ database: db, components, phases, conditions: cond(T, X2), options: { pdens: req.pdens } });
      if (r2.converged) { nEq++; return toEq(r2, T, X2); }
    }
    return toEq(r, T, X);
  };
  // Generator form of solve() for the tracing coroutines (yield a request, receive its Eq), so that
  // several regions are traced at once and their next equilibria go to the solver as one batch over
  // the threads (see the scheduler below).
  type Req = { T: number; X: number };
  function* solveG(T: number, X: number): Generator<Req, Eq, Eq> {
    const e = yield { T, X };
    if (e.ok) return e;
    const X2 = X + (X < 0.5 ? 1e-4 : -1e-4); // one retry, as in solve()
    const e2 = yield { T, X: X2 };
    return e2.ok ? e2 : e;
  }
  const solveMany = (pts: { T: number; X: number }[]): Eq[] => {
    // Chunks sized to ~0.3 s from the measured cost per equilibrium, so a cancel (checked between
    // chunks) is honoured within a second even for slow databases; a batch call has a fixed cost of
    // 10-20 ms for starting the threads, so chunks are not made smaller than 32.
    const out: Eq[] = [];
    let chunk = 64;
    for (let i = 0; i < pts.length;) {
      checkCancel();
      const part = pts.slice(i, i + chunk);
      i += part.length;
      const t = performance.now();
      const rs = equilibriumBatch({ database: db, components, phases, conditions: part.map((p) => cond(p.T, p.X)), threads,
        options: { pdens: gridPdens } });
      rs.forEach((r, k) => out.push(toEq(r, part[k].T, part[k].X)));
      const perEq = (performance.now() - t) / part.length;
      chunk = Math.max(32, Math.min(1024, Math.floor(300 / Math.max(perEq, 1e-3))));
    }
    return out;
  };

  // ---- (a) seed grid ---------------------------------------------------------------------------
  const nT = Math.max(3, req.grid?.nT ?? Math.min(40, Math.max(8, Math.ceil((Thi - Tlo) / 125) + 1)));
  const nX = Math.max(3, req.grid?.nX ?? 21);
  const gT = Array.from({ length: nT }, (_, i) => Tlo + ((Thi - Tlo) * i) / (nT - 1));
  const gX = Array.from({ length: nX }, (_, j) => Xr[0] + ((Xr[1] - Xr[0]) * j) / (nX - 1));
  const pts: { T: number; X: number }[] = [];
  for (const T of gT) for (const X of gX) pts.push({ T, X });
  // the composition edges that are pure elements: the grid's edge columns locate their transitions,
  // which seed the lenses next to the elements (pure_edges.ts)
  const edges = ([[0, Xr[0] === 0], [1, Xr[1] === 1]] as const).filter(([, pure]) => pure).map(([side]) => side);
  const grid = solveMany(pts);
  for (const g of grid) fromGrid.add(g);
  const node = (i: number, j: number) => grid[i * nX + j];
  progress(0.2);
  const tGrid = performance.now();
  for (const g of grid) if (!g.ok) log(`seed grid: equilibrium not converged at T=${g.T.toFixed(2)} K, X(${xc})=${g.X.toFixed(4)}`);

  // seeds: two-phase nodes, plus two-phase fields found between unlike single-phase neighbours
  const seeds: Eq[] = grid.filter((g) => g.ok && g.phases.length === 2);
  const secondOrder: { ordered: string; disordered: string; T: number; x: number }[] = [];
  const disorderedOf = new Map<string, string>([...orderInfo].map(([k, v]) => [k, v.disordered]));
  const isOrderPair = (a: string, b: string) => disorderedOf.get(baseName(a)) === baseName(b) || disorderedOf.get(baseName(b)) === baseName(a);
  const between = (a: Eq, b: Eq) => {
    // bisection along the segment a-b (same T or same X) for a two-phase equilibrium
    let lo = a, hi = b;
    for (let k = 0; k < 30; k++) {
      const T = (lo.T + hi.T) / 2, X = (lo.X + hi.X) / 2;
      if (Math.abs(hi.T - lo.T) < MIN_STEP && Math.abs(hi.X - lo.X) < 1e-7) break;
      const m = solve(T, X);
      if (!m.ok) return;
      if (m.phases.length >= 2) { if (m.phases.length === 2) seeds.push(m); return; }
      if (m.key === lo.key) lo = m; else if (m.key === hi.key) hi = m; else { between(lo, m); between(m, hi); return; }
    }
    // no two-phase field between two single-phase states: a continuous (second-order) transition
    if (isOrderPair(lo.key, hi.key)) {
      const ord = disorderedOf.has(baseName(lo.key)) ? lo.key : hi.key;
      secondOrder.push({ ordered: ord, disordered: ord === lo.key ? hi.key : lo.key, T: (lo.T + hi.T) / 2, x: (lo.X + hi.X) / 2 });
    }
  };
  try {
    for (let i = 0; i < nT; i++) for (let j = 0; j < nX; j++) {
      const a = node(i, j);
      if (!a.ok || a.phases.length !== 1) continue;
      for (const b of [j + 1 < nX ? node(i, j + 1) : null, i + 1 < nT ? node(i + 1, j) : null]) {
        if (!(b && b.ok && b.phases.length === 1 && b.key !== a.key)) continue;
        // the grid used the coarser sampling: re-solve both ends before bisecting between them
        const a2 = solve(a.T, a.X), b2 = solve(b.T, b.X);
        if (!a2.ok || !b2.ok) continue;
        if (a2.phases.length === 2) seeds.push(a2);
        if (b2.phases.length === 2) seeds.push(b2);
        if (a2.phases.length === 1 && b2.phases.length === 1 && a2.key !== b2.key) between(a2, b2);
      }
    }
  } catch (e) {
    if (!(e instanceof BudgetExceeded)) throw e;
    log(`equilibrium budget of ${budget} used up while seeding; the diagram is incomplete`);
  }
  progress(0.3);
  const tSeed = performance.now();

  // ---- (b) continuation of each two-phase region in T -------------------------------------------
  interface Region { labels: [string, string]; tl: TieLine[]; ends: End[]; done: boolean }
  const regions: Region[] = [];
  const covered = (s: Eq): boolean => {
    for (const r of regions) {
      if (r.labels.join('+') !== s.key || !r.tl.length) continue;
      const tl = r.done ? r.tl : [...r.tl].sort((a, b) => a.T - b.T);
      // a margin of 0.1 K: the phases met just beyond a region end (seeds too) belong to it
      if (s.T < tl[0].T - 0.1 || s.T > tl[tl.length - 1].T + 0.1) continue;
      let k = 0;
      while (k < tl.length - 1 && tl[k + 1].T < s.T) k++;
      const a = tl[k], b = tl[Math.min(k + 1, tl.length - 1)];
      const w = b.T > a.T ? Math.min(1, Math.max(0, (s.T - a.T) / (b.T - a.T))) : 0;
      const xl = a.x[0] + w * (b.x[0] - a.x[0]), xr = a.x[1] + w * (b.x[1] - a.x[1]);
      if (Math.abs(xl - s.phases[0].x) < SAME_X && Math.abs(xr - s.phases[1].x) < SAME_X) return true;
    }
    return false;
  };
  const tieOf = (e: Eq): TieLine => ({ T: e.T, x: [e.phases[0].x, e.phases[1].x] });

  /** Equilibrium at T continuing tie-line `cur` (slope = dx/dT estimate), or the failing result. */
  function* attemptG(cur: TieLine, slope: [number, number], T: number, key: string, probes = 3, search = true): Generator<Req, { ok: true; e: Eq; searched?: boolean } | { ok: false; e: Eq }, Eq> {
    const dT = T - cur.T;
    const pred: [number, number] = [cur.x[0] + slope[0] * dT, cur.x[1] + slope[1] * dT];
    const tol = (k: 0 | 1) => 0.03 + Math.abs(slope[k] * dT);
    // One boundary jumping off its prediction while the other follows its own is a discontinuity of the
    // field, not curvature: the same pair on the far side of an invariant where one phase splits (the
    // solvus meeting a magnetic miscibility gap of fcc in Al-Co near 1090 K jumps by 0.04 in x).
    // (Only once the slope is known: a seed's first step has none.)
    const jumped = (d: [number, number]) => (slope[0] !== 0 || slope[1] !== 0)
      && [0, 1].some((k) => d[k] > JUMP_X + 0.5 * Math.abs(slope[k] * dT) && d[1 - k] < 0.25 * d[k]);
    const matches = (e: Eq) => {
      if (!e.ok || e.key !== key) return false;
      const d: [number, number] = [Math.abs(e.phases[0].x - pred[0]), Math.abs(e.phases[1].x - pred[1])];
      return d[0] <= tol(0) && d[1] <= tol(1) && !jumped(d);
    };
    // the midpoint of the predicted tie-line first; then points across the old one (a region that
    // moves sideways fast can leave the plain midpoint)
    const fracs = [0.5, 0.2, 0.8].slice(0, probes);
    let first: Eq | null = null;
    for (const f of fracs) {
      const lo = Math.max(0, Math.min(pred[0], pred[1])), hi = Math.min(1, Math.max(pred[0], pred[1]));
      const X = f === 0.5 ? (lo + hi) / 2 : cur.x[0] + f * (cur.x[1] - cur.x[0]);
      const e = yield* solveG(T, X);
      if (matches(e)) return { ok: true, e };
      first ??= e;
      if (e.ok && e.phases.length === 1 && cur.x[1] - cur.x[0] < SHORT_TIELINE) break; // collapsing: no use probing
    }
    // A narrow field can move off the predicted tie-line faster than the slope says (a boundary that runs
    // almost level in T, a lens next to a pure element): when the miss is one of the field's own phases
    // alone, the field lies on the side of its other phase; search there before calling this the end.
    const len = cur.x[1] - cur.x[0];
    const [left, right] = key.split('+');
    if (search && first!.ok && first!.phases.length === 1 && len < SEARCH_LEN && baseName(left) !== baseName(right)) {
      const at = first!.phases[0].label;
      const dir = at === left ? 1 : at === right ? -1 : 0;
      if (dir) {
        const reach = Math.max(SEARCH_LEN, 4 * len);
        const limit = Math.min(Xr[1], Math.max(Xr[0], first!.X + dir * reach));
        const found = yield* marchToField((X) => solveG(T, X), first!, { limit, firstStep: Math.max(len / 2, 1e-3), growth: 3, xTol: 1e-6 });
        if (found && found.key === key) return { ok: true, e: found, searched: true };
      }
    }
    return { ok: false, e: first! };
  }

  function* traceRegionG(seed: Eq): Generator<Req, Region, Eq> {
    const labels = [seed.phases[0].label, seed.phases[1].label] as [string, string];
    const key = seed.key;
    const tl: TieLine[] = [tieOf(seed)];
    const ends: End[] = [];
    // registered while in progress so that seeds inside it are recognised (covered())
    const region: Region = { labels, tl, ends, done: false };
    regions.push(region);
    for (const dir of [1, -1] as const) {
      let cur = tieOf(seed);
      let slope: [number, number] = [0, 0];
      let dT = Math.min(5, maxStep);
      let end: End | null = null;
      let hard = false;
      for (let guard = 0; !end; guard++) {
        if (guard > 4000) {
          log(`region ${key}: more than 4000 continuation steps from T=${seed.T.toFixed(2)} K; stopped at T=${cur.T.toFixed(2)} K`);
          end = { kind: 'unresolved', T: cur.T, good: cur, bad: null, dir };
          break;
        }
        const edge = dir > 0 ? Thi : Tlo;
        if (Math.abs(edge - cur.T) < 1e-9) { end = { kind: 'range_edge', T: cur.T, good: cur, bad: null, dir }; break; }
        const T = dir > 0 ? Math.min(edge, cur.T + dT) : Math.max(edge, cur.T - dT);
        const a = yield* attemptG(cur, slope, T, key);
        if (a.ok) {
          const next = tieOf(a.e);
          const dx = Math.max(Math.abs(next.x[0] - cur.x[0]), Math.abs(next.x[1] - cur.x[1]));
          if (dx > 0.05 && dT > 4 * MIN_STEP) { dT /= 2; continue; } // too coarse: redo with a smaller step
          const h = next.T - cur.T;
          if (Math.abs(h) > 1e-12) slope = [(next.x[0] - cur.x[0]) / h, (next.x[1] - cur.x[1]) / h];
          tl.push(next);
          cur = next;
          // aim at ~0.015 in x per step: smaller where the boundaries move fast, bigger where smooth
          dT = Math.min(maxStep, Math.max(MIN_STEP, dT * Math.min(2, Math.max(0.3, 0.015 / Math.max(dx, 1e-9)))));
          continue;
        }
        // the region ends between cur.T and T: bisection on T
        let good = cur, badT = T, bad = a.e;
        let gslope = slope;
        let searchFails = 0;
        const searchCap = hard ? Infinity : 2;
        while (Math.abs(badT - good.T) > MIN_STEP) {
          const Tm = (good.T + badT) / 2;
          // cheap inside the bracket: one probe, and the composition search only until it has failed
          // twice (beyond a true end it fails every time; the final re-check probes and searches again)
          const m = yield* attemptG(good, gslope, Tm, key, 1, searchFails < searchCap);
          if (!m.ok) searchFails++;
          if (m.ok) {
            const n = tieOf(m.e);
            const h = n.T - good.T;
            if (Math.abs(h) > 1e-12 && Math.abs(h) > 0.5) gslope = [(n.x[0] - good.x[0]) / h, (n.x[1] - good.x[1]) / h];
            tl.push(n);
            good = n;
          } else { badT = Tm; bad = m.e; }
        }
        // the first failure may come from a poor X guess (e.g. the seed's zero slope), not from the
        // end of the region: re-check the bad side from the last good tie-line and resume if it holds
        // (all three probes only when no tie-line was found inside the bracket, else the fresh
        // prediction's midpoint suffices)
        const again = yield* attemptG(good, gslope, badT, key, good === cur ? 3 : 1);
        if (again.ok) {
          const n = tieOf(again.e);
          tl.push(n);
          cur = n;
          slope = gslope;
          dT = Math.max(10 * MIN_STEP, Math.min(maxStep, 0.5));
          // the search found the field going on past a point the bisection took for its end: the prediction is poor here
          // (a boundary running almost level in T, a congruent point ahead), so from now on the
          // bisection searches at every point instead of stopping short again and again
          if (again.searched) hard = true;
          continue;
        }
        if (good !== cur) cur = good;
        end = yield* classifyEndG(good, again.e, dir, labels, tl);
      }
      ends.push(end!);
    }
    tl.sort((a, b) => a.T - b.T);
    region.done = true;
    return region;
  }

  function* classifyEndG(good: TieLine, bad: Eq, dir: 1 | -1, labels: [string, string], tl: TieLine[]): Generator<Req, End, Eq> {
    const len = good.x[1] - good.x[0];
    const gap = baseName(labels[0]) === baseName(labels[1]);
    const collapsing = (b: Eq) => !b.ok || b.phases.length === 1 || b.key === labels.join('+');
    if (!bad.ok) {
      // the solver could not certify the point beyond (e.g. next to a critical point, where the two
      // sets merge): other compositions across the last tie-line tell what lies beyond
      for (const f of [0.1, 0.9, 0.3, 0.7]) {
        const e = yield* solveG(bad.T, good.x[0] + f * len);
        if (e.ok) { bad = e; break; }
      }
    }
    const T = (good.T + bad.T) / 2;
    if (gap && len < 0.1 && collapsing(bad)) {
      // Close to the critical point of a miscibility gap the solver may fail where the two sets merge.
      // Mean-field critical behaviour: the tie-line length L obeys L^2 ~ (Tc - T) (Landau expansion of
      // G near the critical point), so Tc follows from the last two tie-lines.
      const side = tl.filter((t) => (dir === 1 ? t.T <= good.T + 1e-9 : t.T >= good.T - 1e-9))
        .sort((a, b) => Math.abs(b.T - good.T) - Math.abs(a.T - good.T)).slice(-2);
      let Tc = good.T;
      if (side.length === 2) {
        const [a, b] = side;
        const La = (a.x[1] - a.x[0]) ** 2, Lb = (b.x[1] - b.x[0]) ** 2;
        const slope = (Lb - La) / (b.T - a.T);
        const est = b.T - Lb / slope;
        if (Number.isFinite(est) && Math.abs(est - good.T) < 5 && (est - good.T) * dir >= 0) Tc = est;
      }
      if (!bad.ok || bad.key === labels.join('+')) {
        log(`miscibility gap ${labels.join('+')}: the solver stops converging near T=${good.T.toFixed(2)} K (tie-line length ${len.toFixed(4)}); critical point extrapolated to ${Tc.toFixed(2)} K from L^2 ~ (Tc - T)`);
      }
      return { kind: 'congruent', T: Tc, good, bad: bad.ok ? bad : null, dir };
    }
    if (!bad.ok) {
      if (len < SHORT_TIELINE) {
        // the tie-line has (almost) collapsed; the solver failed just beyond, where the two sets merge
        log(`region end near T=${T.toFixed(2)} K: equilibrium beyond did not converge; classified from the collapsing tie-line (length ${len.toExponential(2)})`);
        const mid = (good.x[0] + good.x[1]) / 2;
        return { kind: mid < 0.005 || mid > 0.995 ? 'pure_element' : 'congruent', T, good, bad: null, dir };
      }
      log(`region end near T=${T.toFixed(2)} K: equilibrium beyond did not converge; end left unresolved`);
      return { kind: 'unresolved', T: good.T, good, bad: null, dir };
    }
    // two sets of one phase at (nearly) one composition beyond are a spurious split of a single phase; at
    // different compositions they are a miscibility gap (e.g. gamma' + gamma below an L -> gamma' + gamma
    // eutectic) and the end is an invariant
    const spuriousSplit = bad.phases.length === 2 && bad.phases[0].base === bad.phases[1].base
      && Math.abs(bad.phases[1].x - bad.phases[0].x) < SAME_X;
    if (len < SHORT_TIELINE && (bad.phases.length === 1 || spuriousSplit)) {
      // a collapsing tie-line; beyond it one phase (or a spurious split of the same phase)
      const mid = (good.x[0] + good.x[1]) / 2;
      return { kind: mid < 0.005 || mid > 0.995 ? 'pure_element' : 'congruent', T, good, bad, dir };
    }
    return { kind: 'invariant', T, good, bad, dir };
  }

  // seeds in order of T, then x, so that neighbouring seeds are found covered
  // (the phases met beyond each region end are seeds as well: regions connect through invariants, so
  // a field the grid rows step over is still reached)
  seeds.sort((a, b) => a.T - b.T || a.X - b.X);
  /** One seed: re-solve (grid seeds), trace its region, then queue the phases met beyond its ends. */
  const probedInvariants: number[] = [];
  function* seedG(s0: Eq): Generator<Req, void, Eq> {
    let s = s0;
    if (fromGrid.has(s)) {
      s = yield* solveG(s.T, s.X);
      if (!s.ok || s.phases.length !== 2 || covered(s)) return;
    }
    const region = yield* traceRegionG(s);
    for (const e of region.ends) {
      if (!e.bad || !e.bad.ok) continue;
      if (e.bad.phases.length === 2) seeds.push(e.bad);
      if (e.kind !== 'invariant') continue;
      if (probedInvariants.some((T) => Math.abs(T - e.T) < 0.1)) continue; // once per invariant
      probedInvariants.push(e.T);
      // All three two-phase fields of the three phases of an invariant touch it (two on one side,
      // one on the other): probe each pair's midpoint 0.05 K above and below, so a field too small
      // for the grid (e.g. between a eutectic and a congruent point) is not missed.
      // (a phase of the far side is new unless the same phase lies at that composition: the three
      // phases of an invariant can lie closer than SAME_X, e.g. delta and gamma Fe at the C-Fe peritectic)
      const ph: { base: string; x: number }[] = [
        { base: baseName(region.labels[0]), x: e.good.x[0] }, { base: baseName(region.labels[1]), x: e.good.x[1] }];
      for (const p of e.bad.phases) if (!ph.some((q) => q.base === p.base && Math.abs(q.x - p.x) < SAME_X)) ph.push({ base: p.base, x: p.x });
      if (ph.length !== 3) continue;
      ph.sort((a, b) => a.x - b.x);
      for (const [a, b] of [[0, 1], [1, 2], [0, 2]]) for (const dT of [0.05, -0.05]) {
        const T = e.T + dT;
        if (T < Tlo || T > Thi) continue;
        const q = yield* solveG(T, (ph[a].x + ph[b].x) / 2);
        if (q.ok && q.phases.length === 2 && !covered(q)) seeds.push(q);
      }
    }
  }
  // Lenses next to the pure elements: each transition found along a pure edge (pure_edges.ts) that no
  // traced region reaches yet is bracketed to EDGE_TOL, and LENS_DT on each side of it the field next to
  // the element is searched for by marching inwards from the edge (field_search.ts); what is found is
  // traced as a seed. These run after the grid seeds, so the lenses the grid already reached cost nothing.
  const lensTasks: { side: 0 | 1; lo: Eq; hi: Eq }[] = [];
  for (const side of edges) {
    const column = side === 0 ? 0 : nX - 1;
    const states = gT.map((_, i) => node(i, column)).map((e) => ({ e, T: e.T, ok: e.ok, phases: e.phases }));
    for (const [lo, hi] of edgeBrackets(states)) lensTasks.push({ side, lo: lo.e, hi: hi.e });
  }
  const edgePhaseOf = (e: Eq) => { const p = edgePhase(e); return p === null ? null : baseName(p); };
  /** a region (finished or running) already ends on this edge between T0 and T1 with these two phases */
  const reachesEdge = (side: 0 | 1, T0: number, T1: number, pair: (string | null)[]): boolean => regions.some((r) =>
    r.ends.some((e) => e.kind === 'pure_element' && e.T >= T0 && e.T <= T1 && ((e.good.x[0] + e.good.x[1]) / 2 < 0.5 ? 0 : 1) === side)
    && r.labels.every((l) => pair.includes(baseName(l))));
  function* lensG(task: { side: 0 | 1; lo: Eq; hi: Eq }): Generator<Req, void, Eq> {
    const { side } = task;
    if (reachesEdge(side, task.lo.T, task.hi.T, [edgePhaseOf(task.lo), edgePhaseOf(task.hi)])) return;
    const brackets = yield* narrowEdgeBracket((T) => solveG(T, side), task.lo, task.hi, EDGE_TOL);
    const inward = side === 0 ? 1 : -1;
    const limit = side === 0 ? Math.min(Xr[1], 0.1) : Math.max(Xr[0], 0.9);
    for (const [a, b] of brackets) {
      if (b.T - a.T > 10 * EDGE_TOL) continue; // the solver failed inside: nothing located
      if (reachesEdge(side, a.T - 0.1, b.T + 0.1, [edgePhaseOf(a), edgePhaseOf(b)])) continue;
      for (const T of [b.T + LENS_DT, a.T - LENS_DT]) {
        if (T < Tlo || T > Thi) continue;
        const start = yield* solveG(T, side);
        if (!start.ok || start.phases.length !== 1) continue;
        const f = yield* marchToField((X) => solveG(T, X), start, { limit, firstStep: 1e-6, growth: 4 });
        if (f && f.phases.length === 2 && (f.X - side) * inward > 0 && !covered(f)) seeds.push(f);
        // the lens of a transition opens on one side of it only (its limiting slopes: van 't Hoff)
        const pair = [edgePhaseOf(a), edgePhaseOf(b)];
        if (f && f.phases.length === 2 && f.phases.every((p) => pair.includes(p.base))) break;
      }
    }
  }

  // Scheduler: up to `traceConcurrency` seeds are traced at once; each round, the pending requests of
  // the active traces go to the solver together. Measured: equilibriumBatch on 2 OpenMP threads costs
  // 10-20 ms per call on top of the equilibria (thread start-up per call), so the few requests of one
  // round are solved on one thread; the threads are used for the seed grid only. Seeds are taken in
  // order and skipped when a finished or running trace already covers them.
  const traceConcurrency = Math.max(1, Math.floor(req.traceConcurrency ?? 1));
  const active: { gen: Generator<Req, void, Eq>; req: Req }[] = [];
  let next = 0;
  const startNext = (): boolean => {
    while (next < seeds.length) {
      const s = seeds[next++];
      if (s.X < Xr[0] - 1e-9 || s.X > Xr[1] + 1e-9 || covered(s)) continue;
      const gen = seedG(s);
      const r = gen.next(undefined as unknown as Eq);
      if (!r.done) { active.push({ gen, req: r.value }); return true; }
    }
    // the lens searches when every seed so far is taken (they queue seeds of their own)
    while (lensTasks.length && !active.length) {
      const gen = lensG(lensTasks.shift()!);
      const r = gen.next(undefined as unknown as Eq);
      if (!r.done) { active.push({ gen, req: r.value }); return true; }
    }
    return false;
  };
  for (;;) {
    while (active.length < traceConcurrency && startNext()) { /* fill */ }
    if (!active.length) break;
    checkCancel();
    if (nEq >= budget) {
      log(`equilibrium budget of ${budget} used up: tracing stopped with ${seeds.length - next + active.length} seeds and ${lensTasks.length} pure-element lens searches left; the diagram is incomplete`);
      break;
    }
    const reqs = active.map((a) => a.req);
    const results = reqs.length === 1
      ? [toEq(equilibrium({ database: db, components, phases, conditions: cond(reqs[0].T, reqs[0].X), options: { pdens: req.pdens } }), reqs[0].T, reqs[0].X)]
      : equilibriumBatch({ database: db, components, phases, conditions: reqs.map((q) => cond(q.T, q.X)), threads: 1,
        options: { pdens: req.pdens } }).map((r, k) => toEq(r, reqs[k].T, reqs[k].X));
    for (let k = active.length - 1; k >= 0; k--) {
      const r = active[k].gen.next(results[k]);
      if (r.done) active.splice(k, 1); else active[k].req = r.value;
    }
    progress(0.3 + (0.65 * next) / Math.max(1, seeds.length));
  }
  // an incomplete trace (budget) is dropped
  for (let k = regions.length - 1; k >= 0; k--) if (!regions[k].done) regions.splice(k, 1);
  // Two seeds of one region traced at the same time give the region twice: merge traces of the same
  // phase pair that overlap in T and agree there (same tie-line within SAME_X).
  const interp = (tl: TieLine[], T: number): [number, number] => {
    let k = 0;
    while (k < tl.length - 1 && tl[k + 1].T < T) k++;
    const a = tl[k], b = tl[Math.min(k + 1, tl.length - 1)];
    const w = b.T > a.T ? Math.min(1, Math.max(0, (T - a.T) / (b.T - a.T))) : 0;
    return [a.x[0] + w * (b.x[0] - a.x[0]), a.x[1] + w * (b.x[1] - a.x[1])];
  };
  for (let i = 0; i < regions.length; i++) {
    for (let j = regions.length - 1; j > i; j--) {
      const A = regions[i], B = regions[j];
      if (A.labels.join('+') !== B.labels.join('+')) continue;
      const lo = Math.max(A.tl[0].T, B.tl[0].T), hi = Math.min(A.tl[A.tl.length - 1].T, B.tl[B.tl.length - 1].T);
      if (hi < lo - 0.1) continue;
      const Tm = (lo + hi) / 2, xa = interp(A.tl, Tm), xb = interp(B.tl, Tm);
      if (Math.abs(xa[0] - xb[0]) > SAME_X || Math.abs(xa[1] - xb[1]) > SAME_X) continue;
      const tl = [...A.tl, ...B.tl].sort((a, b) => a.T - b.T);
      A.tl = tl.filter((t, k) => k === 0 || t.T - tl[k - 1].T > 1e-6);
      const lowA = A.ends.find((e) => e.dir === -1)!, lowB = B.ends.find((e) => e.dir === -1)!;
      const highA = A.ends.find((e) => e.dir === 1)!, highB = B.ends.find((e) => e.dir === 1)!;
      A.ends = [lowA.T <= lowB.T ? lowA : lowB, highA.T >= highB.T ? highA : highB];
      regions.splice(j, 1);
    }
  }

  // ---- (c) region ends -> invariants, critical and congruent points ---------------------------
  const criticalPoints: BinaryDiagram['criticalPoints'] = [];
  const congruentPoints: BinaryDiagram['congruentPoints'] = [];
  const pureTransitions: BinaryDiagram['pureTransitions'] = [];
  interface Cand { T: number; phases: { base: string; x: number }[]; facts: { xs: [number, number]; side: 1 | -1 }[]; region: number; dir: 1 | -1 }
  const congruentEnds: { region: number; dir: 1 | -1; T: number; x: number; pair: string }[] = [];
  const cands: Cand[] = [];
  const outRegions: BinaryRegion[] = [];
  for (const r of regions) {
    const lowEnd = r.ends.find((e) => e.dir === -1)!, highEnd = r.ends.find((e) => e.dir === 1)!;
    const leftBase = baseName(r.labels[0]), rightBase = baseName(r.labels[1]);
    const endKinds = { low: lowEnd.kind, high: highEnd.kind };
    for (const e of r.ends) {
      const mid = (e.good.x[0] + e.good.x[1]) / 2;
      if (e.kind === 'congruent') {
        if (leftBase === rightBase) {
          endKinds[e.dir === 1 ? 'high' : 'low'] = 'critical';
          criticalPoints.push({ phase: leftBase, T: e.T, x: mid });
        } else {
          congruentEnds.push({ region: outRegions.length, dir: e.dir, T: e.T, x: mid, pair: [leftBase, rightBase].sort().join('+') });
        }
      } else if (e.kind === 'pure_element') {
        pureTransitions.push({ phases: [leftBase, rightBase], T: e.T, x: mid < 0.5 ? 0 : 1 });
      } else if (e.kind === 'invariant' && e.bad) {
        // union of the last tie-line and the phases beyond (within 0.01 K)
        const ph: { base: string; x: number }[] = [
          { base: leftBase, x: e.good.x[0] }, { base: rightBase, x: e.good.x[1] }];
        for (const p of e.bad.phases) {
          if (!ph.some((q) => q.base === p.base && Math.abs(q.x - p.x) < SAME_X)) ph.push({ base: p.base, x: p.x });
        }
        const facts: Cand['facts'] = [{ xs: e.good.x, side: e.dir === 1 ? -1 : 1 }];
        // side: -1 = the two-phase field lies below the invariant, +1 = above
        if (e.bad.phases.length === 2) facts.push({ xs: [e.bad.phases[0].x, e.bad.phases[1].x], side: e.dir === 1 ? 1 : -1 });
        // two of the three being the ordered and disordered state of one phase at (nearly) one
        // composition: a second-order ordering line meets this two-phase field, not an invariant
        const ordPair = ph.length === 3 ? ph.flatMap((a, i) => ph.slice(i + 1).map((b) => [a, b] as const))
          .find(([a, b]) => isOrderPair(a.base, b.base) && Math.abs(a.x - b.x) < 2 * SAME_X) : undefined;
        if (ordPair) {
          const [a, b] = ordPair;
          const ord = disorderedOf.has(a.base) ? a : b, dis = ord === a ? b : a;
          secondOrder.push({ ordered: ord.base, disordered: dis.base, T: e.T, x: (a.x + b.x) / 2 });
          if (e.dir === 1) endKinds.high = 'order_disorder'; else endKinds.low = 'order_disorder';
        } else if (ph.length === 3) cands.push({ T: e.T, phases: ph.sort((a, b) => a.x - b.x), facts, region: outRegions.length, dir: e.dir });
        else {
          log(`region ${r.labels.join('+')} ends at T=${e.T.toFixed(2)} K next to ${e.bad.key}: not a three-phase invariant`);
          if (e.dir === 1) endKinds.high = 'unresolved'; else endKinds.low = 'unresolved';
        }
      }
    }
    // close the boundaries where the tie-line collapses: a zero-length tie-line at the critical /
    // congruent point or at the pure component
    const tls = dedupeT(r.tl);
    for (const e of r.ends) {
      if (e.kind !== 'congruent' && e.kind !== 'pure_element') continue;
      if (e.kind === 'congruent' && leftBase !== rightBase) continue; // closed below at the merged congruent point
      const mid = (e.good.x[0] + e.good.x[1]) / 2;
      const x = e.kind === 'pure_element' ? (mid < 0.5 ? 0 : 1) : mid;
      if (e.dir === 1) tls.push({ T: e.T, x: [x, x] }); else tls.unshift({ T: e.T, x: [x, x] });
    }
    outRegions.push({ phases: r.labels, tielines: tls, ends: endKinds });
  }
  // A congruent point ends two regions, one on each side of it in x (traced separately, each end located
  // to MIN_STEP): both close at the one point, at the mean of the ends' temperatures and compositions
  // (on each side the last tie-line lies wholly on that side of the point, so the mean is the closer estimate;
  // near the point both boundaries go as sqrt(|T - Tc|), so 0.01 K from it the two sides can still be
  // 0.02 apart in x: ends of one pair within 0.1 K and 0.05 in x are one point).
  const congUsed = new Array<boolean>(congruentEnds.length).fill(false);
  for (let i = 0; i < congruentEnds.length; i++) {
    if (congUsed[i]) continue;
    const group = [congruentEnds[i]];
    congUsed[i] = true;
    for (let j = i + 1; j < congruentEnds.length; j++) {
      const a = congruentEnds[i], b = congruentEnds[j];
      if (!congUsed[j] && a.pair === b.pair && Math.abs(a.T - b.T) < 0.1 && Math.abs(a.x - b.x) < 5 * SAME_X) { group.push(b); congUsed[j] = true; }
    }
    const T = group.reduce((a, c) => a + c.T, 0) / group.length;
    const x = group.reduce((a, c) => a + c.x, 0) / group.length;
    const r0 = outRegions[group[0].region];
    congruentPoints.push({ phases: [baseName(r0.phases[0]), baseName(r0.phases[1])], T, x });
    for (const c of group) {
      const tls = outRegions[c.region].tielines;
      if (c.dir === 1) tls.push({ T, x: [x, x] }); else tls.unshift({ T, x: [x, x] });
    }
  }
  const invariants: InvariantRecord[] = [];
  const used = new Array<boolean>(cands.length).fill(false);
  for (let i = 0; i < cands.length; i++) {
    if (used[i]) continue;
    const group = [cands[i]];
    used[i] = true;
    for (let j = i + 1; j < cands.length; j++) {
      if (used[j] || Math.abs(cands[j].T - cands[i].T) > MERGE_T) continue;
      const same = cands[j].phases.every((p, k) => p.base === cands[i].phases[k].base && Math.abs(p.x - cands[i].phases[k].x) < 2 * SAME_X);
      if (same) { group.push(cands[j]); used[j] = true; }
    }
    // Three phases coexist at one temperature only (F = 0), so ends of the same three phases at the same
    // compositions are one invariant even when they disagree in T: that happens where the solver returns
    // a state just beyond the invariant as stable at some compositions (a global-minimum miss of
    // ~0.1 J/mol, e.g. L + gamma 1 K under the gamma' + gamma eutectic of alnifcc4sl). The invariant takes
    // the median of the ends' temperatures (the ends that agree), and a field traced beyond it is cut
    // there, so no two two-phase fields overlap.
    const Ts = group.map((c) => c.T).sort((a, b) => a - b);
    const T = Ts.length % 2 ? Ts[(Ts.length - 1) / 2] : (Ts[Ts.length / 2 - 1] + Ts[Ts.length / 2]) / 2;
    if (Ts[Ts.length - 1] - Ts[0] > 0.1) {
      log(`invariant ${group[0].phases.map((p) => p.base).join(' + ')}: its region ends lie at ${Ts.map((v) => v.toFixed(2)).join(', ')} K; taken as one at ${T.toFixed(2)} K`);
      for (const c of group) {
        const beyond = c.dir === -1 ? c.T < T - MIN_STEP : c.T > T + MIN_STEP;
        if (beyond) outRegions[c.region].tielines = cutAt(outRegions[c.region].tielines, T, c.dir);
      }
    }
    const ph = [0, 1, 2].map((k) => ({ base: group[0].phases[k].base, x: group.reduce((a, c) => a + c.phases[k].x, 0) / group.length }));
    const facts = group.flatMap((c) => c.facts);
    invariants.push(classifyInvariant(T, ph, facts));
  }
  invariants.sort((a, b) => b.T - a.T);
  dedupePoints(criticalPoints, (a, b) => a.phase === b.phase);
  dedupePoints(congruentPoints, (a, b) => a.phases.join() === b.phases.join() || a.phases.join() === [...b.phases].reverse().join());
  dedupePoints(pureTransitions, (a, b) => a.x === b.x && new Set([...a.phases, ...b.phases]).size === 2);

  // ---- single-phase label anchors: connected single-phase grid components -----------------------
  const singlePhaseLabels: BinaryDiagram['singlePhaseLabels'] = [];
  const seen = new Array<boolean>(grid.length).fill(false);
  for (let s = 0; s < grid.length; s++) {
    if (seen[s] || !grid[s].ok || grid[s].phases.length !== 1) continue;
    const comp: number[] = [];
    const stack = [s];
    seen[s] = true;
    while (stack.length) {
      const k = stack.pop()!;
      comp.push(k);
      const i = Math.floor(k / nX), j = k % nX;
      for (const [di, dj] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const ii = i + di, jj = j + dj;
        if (ii < 0 || jj < 0 || ii >= nT || jj >= nX) continue;
        const q = ii * nX + jj;
        if (!seen[q] && grid[q].ok && grid[q].key === grid[s].key) { seen[q] = true; stack.push(q); }
      }
    }
    // anchor: the member node nearest to the component's centroid (in grid units)
    const ci = comp.reduce((a, k) => a + Math.floor(k / nX), 0) / comp.length;
    const cj = comp.reduce((a, k) => a + (k % nX), 0) / comp.length;
    let best = comp[0], bd = Infinity;
    for (const k of comp) {
      const d = (Math.floor(k / nX) - ci) ** 2 + ((k % nX) - cj) ** 2;
      if (d < bd) { bd = d; best = k; }
    }
    singlePhaseLabels.push({ label: grid[s].phases[0].label, T: grid[best].T, x: grid[best].X });
  }

  // ---- order/disorder: second-order lines from the located points ------------------------------
  const secondOrderLines: BinaryDiagram['orderDisorder']['secondOrderLines'] = [];
  if (od.enabled && od.trace_boundaries) {
    const byPair = new Map<string, typeof secondOrder>();
    for (const p of secondOrder) {
      const k = `${p.ordered}|${p.disordered}`;
      if (!byPair.has(k)) byPair.set(k, []);
      byPair.get(k)!.push(p);
    }
    for (const list of byPair.values()) {
      const { ordered, disordered } = list[0];
      // A second-order line T_c(x) is single-valued in x (a dome or a monotonic line), so it is followed
      // in x (branch continuation, step 0.01 from the first to the last located point). At each x:
      // bracket the transition in T around the interpolated T_c (ordered below, disordered above),
      // bisect to 1 K, then take T_c from the ordered side with the mean-field (Landau) law of the
      // order parameter, eta^2 ~ (T_c - T), through two ordered states 1 and 6 K below the bracket:
      // next to T_c the disordered state is a stationary point of G by symmetry and the solver may
      // stop there although the ordered state is lower, so the plain bisection can come out a few K low.
      const located = orderPolyline(list.map((p) => ({ T: p.T, x: p.x })));
      const etaAt = (T: number, x: number): { s: 'o' | 'd'; eta: number } | null => {
        const e = solve(T, x);
        if (!e.ok || e.phases.length !== 1) return null;
        if (e.key === ordered) return { s: 'o', eta: e.phases[0].eta ?? 0 };
        return e.key === disordered ? { s: 'd', eta: 0 } : null;
      };
      const guessT = (x: number) => {
        let k = 0;
        while (k < located.length - 2 && located[k + 1].x < x) k++;
        const a = located[k], b = located[Math.min(k + 1, located.length - 1)];
        const w = b.x > a.x ? (x - a.x) / (b.x - a.x) : 0;
        return a.T + w * (b.T - a.T);
      };
      const tcAt = (x: number): number | null => {
        const g = Math.min(Thi, Math.max(Tlo, guessT(x)));
        let lo = Math.max(Tlo, g - 15), hi = Math.min(Thi, g + 15);
        let sl = etaAt(lo, x), sh = etaAt(hi, x);
        for (let k = 0; k < 4 && sl?.s === 'd'; k++) { hi = lo; sh = sl; lo = Math.max(Tlo, lo - 40); sl = etaAt(lo, x); }
        for (let k = 0; k < 4 && sh?.s === 'o'; k++) { lo = hi; sl = sh; hi = Math.min(Thi, hi + 40); sh = etaAt(hi, x); }
        if (!sl || !sh || sl.s !== 'o' || sh.s !== 'd') return null;
        while (hi - lo > 1) {
          const m = (lo + hi) / 2, sm = etaAt(m, x);
          if (!sm) return null;
          if (sm.s === 'o') lo = m; else hi = m;
        }
        const e1 = etaAt(lo - 1, x), e2 = etaAt(lo - 6, x);
        if (e1?.s === 'o' && e2?.s === 'o') {
          const slope = (e1.eta ** 2 - e2.eta ** 2) / 5;
          const tc = lo - 1 - e1.eta ** 2 / slope;
          if (slope < 0 && tc >= lo - 1 && tc <= hi + 20) return tc;
        }
        return (lo + hi) / 2;
      };
      let pts: { T: number; x: number }[] = [];
      try {
        const x0 = located[0].x, x1 = located[located.length - 1].x;
        const n = Math.max(1, Math.ceil((x1 - x0) / 0.01));
        for (let k = 0; k <= n; k++) {
          const x = x0 + ((x1 - x0) * k) / n;
          const tc = tcAt(x);
          if (tc !== null) pts.push({ T: tc, x });
        }
      } catch (e) {
        if (!(e instanceof BudgetExceeded)) throw e;
        log('equilibrium budget used up while following a second-order line');
      }
      // where the line meets a two-phase field, the located meeting points end it
      // (located points inside the followed range are superseded: they carry the solver's early jump)
      if (pts.length) {
        const a = pts[0].x, b = pts[pts.length - 1].x;
        pts = orderPolyline([...pts, ...located.filter((p) => p.x < a - 1e-9 || p.x > b + 1e-9)]);
      } else pts = located;
      pts = pts.filter((p, k) => k === 0 || Math.abs(p.x - pts[k - 1].x) > 1e-6 || Math.abs(p.T - pts[k - 1].T) > 1e-3);
      secondOrderLines.push({ ordered, disordered, points: orderPolyline(pts) });
    }
  }
  if (od.enabled && orderInfo.size) {
    odNotes.push(`ordered phases: ${[...orderInfo].map(([k, v]) => `${k} (disordered state labelled ${v.disordered})`).join(', ')}`);
    odNotes.push('second-order transitions are located (to 0.01 K / 1e-6 in x) where grid neighbours differ only in the ordering ' +
      'state and where the line meets a two-phase field, then followed in x (step 0.01) with T_c from the mean-field ' +
      'law eta^2 ~ (T_c - T) of the ordered states next to the transition');
  }
  if (!od.enabled) odNotes.push('order/disorder handling disabled: ordered and disordered states carry the phase name');
  if (!od.stability_filter) odNotes.push('stability_filter=false has no effect: only stable (global-minimum) states are mapped');

  progress(1);
  return {
    components: [c1, c2], xComponent: xc, T: [Tlo, Thi], X: Xr, P,
    regions: outRegions, invariants, criticalPoints, congruentPoints, pureTransitions, singlePhaseLabels,
    orderDisorder: {
      options: od,
      phases: [...orderInfo].map(([k, v]) => ({ ordered: k, disordered: v.disordered })),
      secondOrderLines, notes: odNotes,
    },
    grid: { T: gT, X: gX, labels: grid.map((g) => g.key) },
    stats: { equilibria: nEq, notConverged: nBad, seconds: (performance.now() - t0) / 1000,
      gridSeconds: (tGrid - t0) / 1000, seedSeconds: (tSeed - tGrid) / 1000 },
    logs,
  };
}

/** The tie-lines of a region cut at T: dir -1 drops those below T (its low end moves up to T), +1 those
 * above; the boundary at T is interpolated between the neighbouring tie-lines. */
export function cutAt(tl: TieLine[], T: number, dir: 1 | -1): TieLine[] {
  const keep = tl.filter((t) => (dir === -1 ? t.T > T : t.T < T));
  const inside = dir === -1 ? keep[0] : keep[keep.length - 1];
  const outside = dir === -1 ? [...tl].reverse().find((t) => t.T <= T) : tl.find((t) => t.T >= T);
  if (!inside || !outside) return tl;
  const w = inside.T !== outside.T ? (T - outside.T) / (inside.T - outside.T) : 0;
  const at: TieLine = { T, x: [outside.x[0] + w * (inside.x[0] - outside.x[0]), outside.x[1] + w * (inside.x[1] - outside.x[1])] };
  return dir === -1 ? [at, ...keep] : [...keep, at];
}

function dedupeT(tl: TieLine[]): TieLine[] {
  const out: TieLine[] = [];
  for (const t of tl) if (!out.length || Math.abs(t.T - out[out.length - 1].T) > 1e-9) out.push(t);
  return out;
}

function dedupePoints<P extends { T: number; x: number }>(list: P[], same: (a: P, b: P) => boolean): void {
  for (let i = list.length - 1; i >= 0; i--) {
    for (let j = 0; j < i; j++) {
      if (Math.abs(list[i].T - list[j].T) < 0.1 && Math.abs(list[i].x - list[j].x) < 0.01 && same(list[i], list[j])) {
        list.splice(i, 1);
        break;
      }
    }
  }
}

/** Orders the points of a second-order line T_c(x) by x (by T when they all share one x). */
function orderPolyline(pts: { T: number; x: number }[]): { T: number; x: number }[] {
  return [...pts].sort((a, b) => a.x - b.x || a.T - b.T);
}

/**
 * Kind and reaction (on cooling) of a binary invariant from the three phases ordered in x and on which
 * side (below -1 / above +1) the two-phase field of the outer phases lies.
 */
export function classifyInvariant(T: number, ph: { base: string; x: number }[],
  facts: { xs: [number, number]; side: 1 | -1 }[]): InvariantRecord {
  const labelled = labelPhases(ph.map((p) => ({ ...p, NP: 0 })));
  const [p0, p1, p2] = labelled;
  // each fact (a two-phase field seen on one side) is matched to the pair of the three phases it is
  // closest to; the outer pair's side follows by majority (an inner pair lies on the other side)
  const pairs: [PS, PS, boolean][] = [[p0, p2, true], [p0, p1, false], [p1, p2, false]];
  let vote = 0;
  for (const f of facts) {
    let best = pairs[0], err = Infinity;
    for (const pr of pairs) {
      const d = Math.abs(f.xs[0] - pr[0].x) + Math.abs(f.xs[1] - pr[1].x);
      if (d < err) { err = d; best = pr; }
    }
    if (err > 4 * SAME_X) continue;
    vote += best[2] ? f.side : -f.side;
  }
  const outerSide: 1 | -1 | 0 = vote > 0 ? 1 : vote < 0 ? -1 : 0;
  const L = (p: PS) => isLiquidName(p.base);
  let kind: InvariantKind = 'invariant';
  let reaction: string;
  if (outerSide === -1) {
    // the middle phase decomposes on cooling: p1 -> p0 + p2
    if (L(p1)) kind = L(p0) || L(p2) ? 'monotectic' : 'eutectic';
    else if (p1.base === p0.base || p1.base === p2.base) kind = L(p0) || L(p2) ? 'invariant' : 'monotectoid';
    else kind = L(p0) || L(p2) ? 'invariant' : 'eutectoid';
    reaction = `${p1.label} -> ${p0.label} + ${p2.label}`;
  } else if (outerSide === 1) {
    // the outer phases react on cooling: p0 + p2 -> p1
    if (L(p1)) kind = 'invariant';
    else if (L(p0) && L(p2)) kind = 'syntectic';
    else if (L(p0) || L(p2)) kind = 'peritectic';
    else kind = 'peritectoid';
    reaction = `${p0.label} + ${p2.label} -> ${p1.label}`;
  } else {
    reaction = `${p0.label} + ${p1.label} + ${p2.label}`;
  }
  return { kind, T, phases: labelled.map((p) => ({ name: p.label, x: p.x })), reaction };
}
