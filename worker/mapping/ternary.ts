// Ternary isothermal-section mapping over the global point solver (worker/core/equilibrium.ts).
//
// Method (formula sheet shared/design/calphad-formulas.md §8-§9 for the point equilibria): at fixed T and P a
// ternary two-phase field has one degree of freedom (Gibbs phase rule F = C - P = 1), so its tie-lines form a
// one-parameter family, and one global equilibrium at any overall composition inside the field returns one whole
// tie-line, i.e. both boundary points exactly. A three-phase field has none (F = 0): any composition inside gives
// the exact corners of its tie-triangle.
//  (a) seeds: a triangular grid of global equilibria over the window (equilibriumBatch over threads, in chunks
//      so a cancel is honoured within a second); a two-phase node seeds its region, a three-phase node its
//      triangle; between neighbouring single-phase nodes of different phases a bisection looks for a narrow
//      two-phase field the grid stepped over;
//  (b) continuation: from a tie-line, the overall composition moves from the tie-line's midpoint along its
//      normal (in the Gibbs triangle's Cartesian plane, so steps are isotropic), is re-solved warm-started from the
//      previous answer, and the new tie-line is accepted when it holds the same two phases at compositions close to
//      the previous ones (phase identity by continuity: a miscibility gap's two sets are told apart by which
//      boundary they continue). A probe outside the field halves the step; the trace ends at a three-phase
//      triangle (the probe lands in it: its edge is the region's exact last tie-line), at a binary edge or the
//      window (the midpoint reaches it), at a critical point (the tie-line shrinks to nothing, Griffiths & Wheeler
//      1970 as in a binary gap), or where the step falls below its minimum;
//  (c) every triangle edge that no traced region ends on seeds a trace away from the triangle; triangle corners
//      are refined by re-solving at the triangle's centroid until no corner moves by more than 1e-5.
// Completeness self-check (as for binary diagrams, worker/mapping/audit.ts): point equilibria at the centroids of
// the seed grid's cells (no node shared with the seed grid) must each lie in a mapped region of the same phases
// (worker/mapping/ternary_geometry.ts).
import { baseName } from '../../contract/phases.js';
import { equilibrium, type EquilibriumResult } from '../core/equilibrium.js';
import type { NativeDatabase } from '../core/native.js';
import { chunkedBatch } from '../scans/batch.js';
import { CancelledError, type JobControl } from '../protocol.js';
import { StateLabeller, labelSets, singlePhaseFieldLabels } from './ternary_labels.js';
import {
  INSIDE_TOL,
  dist3,
  upwardCellCentroids,
  fromPlane,
  mid,
  overlapsBetween,
  polygonDepth,
  regionPolygon,
  selfCheck,
  sortedBases,
  tielineInside,
  toPlane,
  type SelfCheckResult,
  type TernaryEndKind,
  type TernaryTieLine,
  type TernaryTriangle,
  type TernaryTwoPhaseRegion,
  type Vec3,
} from './ternary_geometry.js';

export * from './ternary_geometry.js';
const dist = dist3;

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
  stats: { equilibria: number; notConverged: number; seconds: number; gridSeconds: number };
  logs: string[];
}

interface PS {
  label: string;
  base: string;
  x: Vec3;
}
interface Eq {
  ok: boolean;
  X: Vec3;
  phases: PS[];
  raw: EquilibriumResult | null;
}

const NP_MIN = 1e-9;
/** the solver clamps given fractions to [1e-10, 1 - 1e-10]; a dependent fraction of exactly 0 does not converge */
const EDGE_EPS = 1e-9;
const MIN_STEP = 2e-4;
/** a tie-line this short where its region ends is a critical point */
const SHORT_TIELINE = 0.02;
const TRIANGLE_TOL = 1e-5;
const MAX_TRACE_STEPS = 600;
/** J/mol: of a warm and a cold answer at one composition, the cold one replaces the warm one when lower by more */
const GM_TOL = 1e-4;

export function mapTernary(req: TernaryMapRequest): TernarySection {
  const t0 = performance.now();
  const comps = req.components;
  const P = req.P ?? 101325,
    T = req.T;
  const window = req.window ?? [
    [0, 1],
    [0, 1],
    [0, 1],
  ];
  const elements = new Set(req.database.info().elements.map((e) => e.name.toUpperCase()));
  const solverComponents = elements.has('VA') ? [...comps, 'VA'] : [...comps];
  const threads = Math.max(1, req.threads ?? 1);
  const maxStep = req.maxStep ?? 0.02;
  const budget = req.maxEquilibria ?? 6000;
  const options = req.pdens ? { pdens: req.pdens } : {};
  const logs: string[] = [];
  let equilibria = 0,
    notConverged = 0,
    budgetNoted = false;
  const control = req.control;
  const checkCancel = () => {
    if (control?.cancelled) throw new CancelledError();
  };

  const conditionOf = (X: Vec3) => {
    // keep every fraction off exact zero (the dependent one included)
    const s = X.map((v) => Math.max(EDGE_EPS, v));
    const tot = s[0]! + s[1]! + s[2]!;
    return { T, P, X: { [comps[1]]: s[1]! / tot, [comps[2]]: s[2]! / tot } };
  };
  const toEq = (X: Vec3, r: EquilibriumResult | null): Eq => {
    if (!r || !r.converged) return { ok: false, X, phases: [], raw: r };
    const phases = r.phases
      .filter((p) => p.NP > NP_MIN)
      .map((p) => ({
        label: p.setNumber > 1 ? `${p.name}#${p.setNumber}` : p.name,
        base: p.name,
        x: comps.map((c) => p.x[c] ?? 0) as Vec3,
      }));
    return { ok: true, X, phases, raw: r };
  };
  const solve = (X: Vec3, start?: EquilibriumResult | null): Eq => {
    checkCancel();
    equilibria++;
    let r: EquilibriumResult | null = null;
    try {
      r = equilibrium({
        database: req.database,
        components: solverComponents,
        phases: req.phases,
        conditions: conditionOf(X),
        options: { ...options, ...(start ? { start } : {}) },
      });
    } catch (e) {
      if ((e as { code?: string }).code === 'PD_CANCELLED') throw new CancelledError();
      r = null;
    }
    const eq = toEq(X, r);
    if (!eq.ok) notConverged++;
    return eq;
  };
  /**
   * The stable answer at X when a warm start is at hand: a warm start keeps the basin of the answer it starts
   * from, and where the sampling grid has no point near the stable state's (B2 of alcrni near NiAl at 1273 K and
   * the default density) the solver's re-scan cannot tell a metastable branch from the stable one. The cold
   * answer is solved too, and of two converged answers at one composition the lower Gibbs energy is the stable.
   */
  const solveStable = (X: Vec3, start: EquilibriumResult | null): Eq => {
    const warm = start ? solve(X, start) : null;
    const cold = solve(X);
    if (!warm || !warm.ok) return cold;
    // a cold solve that fails beside a converged warm one is no failure of the map
    if (!cold.ok) {
      notConverged--;
      return warm;
    }
    return cold.raw!.GM < warm.raw!.GM - GM_TOL ? cold : warm;
  };
  const batch = (points: Vec3[], p0: number, p1: number): Eq[] => {
    const rs = chunkedBatch(
      {
        database: req.database,
        components: solverComponents,
        phases: req.phases,
        options: { ...options, warmStart: req.warmGrid ?? false },
      },
      points.map(conditionOf),
      threads,
      control as JobControl | undefined,
      p0,
      p1,
    );
    equilibria += rs.length;
    return rs.map((r, i) => {
      const e = toEq(points[i]!, r);
      if (!e.ok) notConverged++;
      return e;
    });
  };
  const inWindow = (X: Vec3, tol = 1e-12) => X.every((v, i) => v >= window[i]![0] - tol && v <= window[i]![1] + tol);
  /** Middle of the part of tie-line tl inside the window; null when no part of it is inside. */
  const windowMiddle = (tl: TernaryTieLine): Vec3 | null => {
    const [a, b] = tl.x;
    let t0 = 0,
      t1 = 1;
    for (let i = 0; i < 3; i++) {
      const da = b[i]! - a[i]!;
      for (const [bound, upper] of [
        [window[i]![0], false],
        [window[i]![1], true],
      ] as const) {
        if (Math.abs(da) < 1e-15) {
          if (upper ? a[i]! > bound + 1e-12 : a[i]! < bound - 1e-12) return null;
          continue;
        }
        const t = (bound - a[i]!) / da;
        // the part with a_i + t da on the inner side of the bound
        if (da > 0 === upper) t1 = Math.min(t1, t);
        else t0 = Math.max(t0, t);
      }
    }
    if (t1 < t0) return null;
    const t = (t0 + t1) / 2;
    return [0, 1, 2].map((i) => a[i]! + t * (b[i]! - a[i]!)) as Vec3;
  };
  /** Largest s >= 0 with X + s d inside the window (d sums to 0). */
  const windowReach = (X: Vec3, d: Vec3): number => {
    let s = Infinity;
    for (let i = 0; i < 3; i++) {
      if (d[i]! > 1e-15) s = Math.min(s, (window[i]![1] - X[i]!) / d[i]!);
      else if (d[i]! < -1e-15) s = Math.min(s, (window[i]![0] - X[i]!) / d[i]!);
    }
    return Math.max(0, s);
  };

  // ---- (a) seed grid over the window ----
  const n = Math.max(4, Math.round(req.gridDivisions ?? 12));
  const nodeIndex = new Map<string, number>();
  const nodes: Vec3[] = [];
  const lo = window.map((w) => w[0]);
  const span = 1 - lo[0]! - lo[1]! - lo[2]!;
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n - i; j++) {
      // the grid spans the simplex {x_k >= min_k}; nodes beyond a component's max are left out
      const X: Vec3 = [lo[0]! + (span * (n - i - j)) / n, lo[1]! + (span * i) / n, lo[2]! + (span * j) / n];
      if (!inWindow(X)) continue;
      nodeIndex.set(`${i},${j}`, nodes.length);
      nodes.push(X);
    }
  }
  const tg = performance.now();
  control?.setStage?.(`seed grid: ${nodes.length} equilibria`);
  const grid = batch(nodes, 0, 0.25);
  control?.setStage?.('tracing two-phase regions');
  const gridSeconds = (performance.now() - tg) / 1000;

  const regions: TernaryTwoPhaseRegion[] = [];
  const regionPolys: [number, number][][] = [];
  const triangles: TernaryTriangle[] = [];
  const criticalPoints: TernarySection['criticalPoints'] = [];
  const labeller = new StateLabeller(req.database, solverComponents);
  const composition = (X: Vec3): Record<string, number> => Object.fromEntries(comps.map((c, k) => [c, X[k]!]));
  /** the equilibrium behind each triangle and tie-line: its chemical potentials give the field's tangent plane */
  const potentials = new WeakMap<object, EquilibriumResult>();
  /** G (J/mol) at X of the tangent plane of equilibrium r: which of two overlapping fields is stable */
  const planeG = (r: EquilibriumResult | undefined, X: Vec3) =>
    r ? comps.reduce((a, c, k) => a + (r.mu[c] ?? NaN) * X[k]!, 0) : NaN;

  /** e lies in a traced region of its phases (`tol` > 0: or that close to one; < 0: at least that deep inside) */
  const covered = (e: Eq, tol = INSIDE_TOL): boolean => {
    const key = sortedBases(e.phases.map((p) => p.label));
    const p = toPlane(e.X);
    return regions.some(
      (r, k) => sortedBases(r.phases) === key && r.tielines.length > 1 && polygonDepth(p, regionPolys[k]!) > -tol,
    );
  };

  const knownTriangle = (phases: PS[]): TernaryTriangle | undefined => {
    const key = sortedBases(phases.map((p) => p.label));
    return triangles.find(
      (t) => sortedBases(t.phases) === key && t.corners.every((c) => phases.some((p) => dist(p.x, c) < 1e-3)),
    );
  };
  const addTriangle = (e: Eq): TernaryTriangle | null => {
    // a triangle met again (by another trace or seed) needs no second refinement
    const seen = knownTriangle(e.phases);
    if (seen) return seen;
    let cur = e;
    let move = Infinity;
    // F = 0 at fixed T and P: the corners do not depend on where inside the triangle we solve; solving at the
    // centroid keeps the answer away from the edges where a phase amount is near zero
    for (let it = 0; it < 4 && move > TRIANGLE_TOL; it++) {
      const c = cur.phases.map((p) => p.x);
      const centroid: Vec3 = [0, 1, 2].map((k) => (c[0]![k]! + c[1]![k]! + c[2]![k]!) / 3) as Vec3;
      const next = it === 0 ? solveStable(centroid, cur.raw) : solve(centroid, cur.raw);
      if (
        !next.ok ||
        next.phases.length !== 3 ||
        sortedBases(next.phases.map((p) => p.label)) !== sortedBases(cur.phases.map((p) => p.label))
      )
        break;
      // match corners by proximity (set numbers may swap)
      const matched = cur.phases.map((p) => next.phases.reduce((b, q) => (dist(q.x, p.x) < dist(b.x, p.x) ? q : b)));
      if (new Set(matched).size !== 3) break;
      move = Math.max(...matched.map((q, k) => dist(q.x, cur.phases[k]!.x)));
      cur = { ...next, phases: cur.phases.map((p, k) => ({ ...p, x: matched[k]!.x })) };
    }
    const existing = knownTriangle(cur.phases);
    if (existing) return existing;
    const tri: TernaryTriangle = {
      phases: cur.phases.map((p) => p.label) as [string, string, string],
      corners: cur.phases.map((p) => p.x) as [Vec3, Vec3, Vec3],
      refinement: Number.isFinite(move) ? move : 0,
    };
    if (!Number.isFinite(move) || move > TRIANGLE_TOL)
      logs.push(
        `three-phase triangle ${tri.phases.join('+')}: corners refined to ${Number.isFinite(move) ? move.toExponential(1) : 'no second solve'} only`,
      );
    tri.refinement = Number.isFinite(move) ? move : 1;
    if (cur.raw) potentials.set(tri, cur.raw);
    triangles.push(tri);
    return tri;
  };

  interface TraceEnd {
    kind: TernaryEndKind;
    tielines: TernaryTieLine[];
  }
  /** The triangle's edge of the pair `bases`, its ends matched to the tie-line's by proximity (null: no such edge). */
  const triangleEdge = (tri: TernaryTriangle, tl: TernaryTieLine, bases: [string, string]): TernaryTieLine | null => {
    const pick = (target: Vec3, base: string, not?: number) => {
      let best = -1;
      tri.corners.forEach((c, k) => {
        if (k === not || baseName(tri.phases[k]!) !== base) return;
        if (best < 0 || dist(c, target) < dist(tri.corners[best]!, target)) best = k;
      });
      return best;
    };
    const i0 = pick(tl.x[0], bases[0]);
    const i1 = pick(tl.x[1], bases[1], i0);
    return i0 >= 0 && i1 >= 0 ? { x: [tri.corners[i0]!, tri.corners[i1]!] } : null;
  };
  /** A known triangle whose inside the segment from a to b passes through (sampled), if any. */
  const crossedTriangle = (a: Vec3, b: Vec3): TernaryTriangle | null => {
    for (const t of triangles) {
      const poly = t.corners.map(toPlane);
      for (let k = 1; k <= 8; k++) {
        const f = k / 8;
        if (
          polygonDepth(toPlane([a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2])]), poly) >
          1e-6
        )
          return t;
      }
    }
    return null;
  };
  /** Follows a region from tie-line `seed` (phases labels a/b) along +/- its normal. */
  const traceOne = (
    labels: [string, string],
    seed: TernaryTieLine,
    seedRaw: EquilibriumResult | null,
    dir: 1 | -1,
  ): TraceEnd => {
    const out: TernaryTieLine[] = [];
    let tl = seed;
    let raw = seedRaw;
    let h = maxStep / 2;
    const bases = labels.map(baseName);
    for (let step = 0; step < MAX_TRACE_STEPS; step++) {
      if (equilibria > budget) {
        if (!budgetNoted)
          logs.push(`the budget of ${budget} point equilibria was used up: the remaining traces are cut short`);
        budgetNoted = true;
        return { kind: 'step_limit', tielines: out };
      }
      const a = toPlane(tl.x[0]),
        b = toPlane(tl.x[1]);
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
      // the point that moves: the middle of the part of the tie-line inside the window (the whole tie-line without one)
      const m = windowMiddle(tl);
      if (!m) return { kind: 'window', tielines: out };
      const mp = toPlane(m);
      // unit normal of the tie-line in the plane; for a vanishing tie-line keep moving in the last direction
      const nrm: [number, number] = len > 1e-12 ? [(-(b[1] - a[1]) / len) * dir, ((b[0] - a[0]) / len) * dir] : [0, 0];
      if (len <= 1e-12) return { kind: 'critical', tielines: out };
      const d = fromPlane([mp[0] + nrm[0], mp[1] + nrm[1]]).map((v, k) => v - m[k]!) as Vec3;
      const reach = windowReach(m, d);
      if (reach < MIN_STEP) return { kind: inWindowEdgeIsBinary(m) ? 'edge' : 'window', tielines: out };
      let accepted = false;
      let blockedBy: TernaryTriangle | null = null;
      let lastFailed = false;
      while (h >= MIN_STEP / 2) {
        const s = Math.min(h, reach);
        const X = m.map((v, k) => v + s * d[k]!) as Vec3;
        // a step across a known tie-triangle would land in the field beyond it (a thin triangle can be stepped over)
        const crossed = crossedTriangle(m, X);
        if (crossed) {
          blockedBy = crossed;
          h /= 2;
          continue;
        }
        const e = solve(X, raw);
        lastFailed = !e.ok;
        if (e.ok && e.phases.length === 2 && sortedBases(e.phases.map((p) => p.label)) === sortedBases([...labels])) {
          // identity by continuity: the end closer to the previous end of phase 0 continues phase 0
          const [p, q] = e.phases as [PS, PS];
          const direct = dist(p.x, tl.x[0]) + dist(q.x, tl.x[1]);
          const swapped = dist(q.x, tl.x[0]) + dist(p.x, tl.x[1]);
          const [u, v] = direct <= swapped ? [p, q] : [q, p];
          if (baseName(u.label) !== bases[0] || baseName(v.label) !== bases[1]) {
            h /= 2;
            continue;
          }
          const jump = Math.max(dist(u.x, tl.x[0]), dist(v.x, tl.x[1]));
          if (jump > Math.max(0.08, 6 * s)) {
            h /= 2;
            continue;
          }
          tl = { x: [u.x, v.x] };
          raw = e.raw;
          if (e.raw) potentials.set(tl, e.raw);
          out.push(tl);
          accepted = true;
          h = Math.min(maxStep, h * 1.5);
          if (s >= reach - 1e-12) {
            // the midpoint reached the window: this tie-line is the last one
            return { kind: inWindowEdgeIsBinary(X) ? 'edge' : 'window', tielines: out };
          }
          break;
        }
        if (e.ok && e.phases.length === 3) {
          const key = e.phases.map((p) => baseName(p.label));
          const hasPair =
            bases[0] === bases[1]
              ? key.filter((k) => k === bases[0]).length >= 2
              : key.includes(bases[0]!) && key.includes(bases[1]!);
          if (hasPair) {
            const tri = addTriangle(e);
            if (tri) {
              const edge = triangleEdge(tri, tl, bases as [string, string]);
              if (edge) {
                potentials.set(edge, potentials.get(tri)!);
                out.push(edge);
              }
              return { kind: 'three_phase', tielines: out };
            }
          }
        }
        h /= 2;
      }
      if (!accepted) {
        const edge = blockedBy ? triangleEdge(blockedBy, tl, bases as [string, string]) : null;
        if (edge) {
          potentials.set(edge, potentials.get(blockedBy!)!);
          out.push(edge);
          return { kind: 'three_phase', tielines: out };
        }
        const a2 = toPlane(tl.x[0]),
          b2 = toPlane(tl.x[1]);
        if (Math.hypot(b2[0] - a2[0], b2[1] - a2[1]) < SHORT_TIELINE) return { kind: 'critical', tielines: out };
        return { kind: lastFailed ? 'not_converged' : 'step_limit', tielines: out };
      }
    }
    return { kind: 'step_limit', tielines: out };
  };
  /** the point lies on a binary edge of the Gibbs triangle (a component at zero) */
  function inWindowEdgeIsBinary(X: Vec3): boolean {
    return X.some((v) => v < 1e-6);
  }

  const traceRegion = (e: Eq, seed?: { tl: TernaryTieLine; dir: 1 | -1; end: TernaryEndKind }): void => {
    const [p, q] = e.phases as [PS, PS];
    const labels: [string, string] = seed ? [p.label, q.label] : [p.label, q.label];
    const first: TernaryTieLine = seed ? seed.tl : { x: [p.x, q.x] };
    if (e.raw && !potentials.has(first)) potentials.set(first, e.raw);
    let back: TraceEnd, fwd: TraceEnd;
    if (seed) {
      back = { kind: seed.end, tielines: [] };
      fwd = traceOne(labels, first, e.raw, seed.dir);
    } else {
      back = traceOne(labels, first, e.raw, -1);
      fwd = traceOne(labels, first, e.raw, 1);
    }
    const tielines = [...[...back.tielines].reverse(), first, ...fwd.tielines];
    const region: TernaryTwoPhaseRegion = { phases: labels, tielines, ends: [back.kind, fwd.kind] };
    for (const [end, tl] of [
      [back.kind, tielines[0]!],
      [fwd.kind, tielines[tielines.length - 1]!],
    ] as const) {
      if (end === 'step_limit' || end === 'not_converged') {
        logs.push(
          `region ${labels.join('+')}: trace stopped (${end === 'not_converged' ? 'the equilibria beyond did not converge' : 'no further step accepted'}) ` +
            `at the tie-line ${tl.x.map((v) => v.map((q) => q.toFixed(4)).join('/')).join(' - ')} without reaching a triangle, an edge or a critical point`,
        );
      }
    }
    for (const [end, tl] of [
      [back.kind, tielines[0]!],
      [fwd.kind, tielines[tielines.length - 1]!],
    ] as const) {
      if (end === 'critical' && baseName(labels[0]) === baseName(labels[1])) {
        criticalPoints.push({ phases: labels, x: mid(tl.x[0], tl.x[1]) });
      }
    }
    regions.push(region);
    regionPolys.push(regionPolygon(region));
  };

  // two-phase seeds first (largest regions get traced once, the other seeds in them are covered), then triangles
  const nGrid = grid.length;
  let done = 0;
  const progress = () => control?.setProgress?.(0.25 + 0.55 * Math.min(1, done / Math.max(1, nGrid)));
  for (const e of grid) {
    done++;
    if (!e.ok) continue;
    if (e.phases.length === 3) addTriangle(e);
    else if (e.phases.length === 2 && !covered(e)) traceRegion(e);
    progress();
  }

  // narrow fields between neighbouring single-phase nodes of different phases
  const neighbours: [number, number][] = [];
  for (const [key, k] of nodeIndex) {
    const [i, j] = key.split(',').map(Number) as [number, number];
    for (const [di, dj] of [
      [1, 0],
      [0, 1],
      [-1, 1],
    ] as const) {
      const m2 = nodeIndex.get(`${i + di},${j + dj}`);
      if (m2 !== undefined) neighbours.push([k, m2]);
    }
  }
  const singleKey = (e: Eq) => (e.ok && e.phases.length === 1 ? e.phases[0]!.base : null);
  for (const [k, m2] of neighbours) {
    const a = grid[k]!,
      b = grid[m2]!;
    const ka = singleKey(a),
      kb = singleKey(b);
    if (!ka || !kb) continue;
    // the same phase on both sides: a gap of that phase between them is not looked for here (a wide one shows as a
    // two-phase node, a narrow one ends at a critical point or a triangle, where its trace starts)
    if (ka === kb) continue;
    let lo2 = a.X,
      hi2 = b.X,
      loKey = ka;
    for (let depth = 0; depth < 8; depth++) {
      const X = mid(lo2, hi2);
      const e = solve(X, a.raw);
      if (!e.ok) break;
      if (e.phases.length >= 2) {
        if (e.phases.length === 3) addTriangle(e);
        else if (!covered(e)) traceRegion(e);
        break;
      }
      if (e.phases[0]!.base === loKey) lo2 = X;
      else hi2 = X;
      if (e.phases[0]!.base !== ka && e.phases[0]!.base !== kb) {
        loKey = e.phases[0]!.base;
        lo2 = X;
      }
    }
  }
  control?.setProgress?.(0.85);

  // (c) triangle edges no region ends on: trace away from the triangle
  for (let t = 0; t < triangles.length; t++) {
    const tri = triangles[t]!;
    for (const [i, j, k] of [
      [0, 1, 2],
      [1, 2, 0],
      [0, 2, 1],
    ] as const) {
      const ci = tri.corners[i],
        cj = tri.corners[j];
      if (dist(ci, cj) < 1e-4) continue;
      const ends = regions.some((r) =>
        [r.tielines[0]!, r.tielines[r.tielines.length - 1]!].some(
          (tl) =>
            (dist(tl.x[0], ci) < 2e-3 && dist(tl.x[1], cj) < 2e-3) ||
            (dist(tl.x[0], cj) < 2e-3 && dist(tl.x[1], ci) < 2e-3),
        ),
      );
      if (ends) continue;
      // a point just outside the edge, away from the third corner, starts the trace with a real equilibrium
      const m = mid(ci, cj);
      const away = m.map((v, q) => v - tri.corners[k][q]!) as Vec3;
      const norm = dist(m, tri.corners[k]);
      const X = m.map((v, q) => v + (2 * MIN_STEP * away[q]!) / Math.max(norm, 1e-9)) as Vec3;
      if (!inWindow(X)) continue;
      const e = solve(X);
      // a sliver between two triangles lies within INSIDE_TOL of its neighbours: only a point inside one is covered
      if (!e.ok || e.phases.length !== 2 || covered(e, -1e-4)) continue;
      if (sortedBases(e.phases.map((p) => p.label)) !== sortedBases([tri.phases[i], tri.phases[j]])) continue;
      const [p, q] = e.phases as [PS, PS];
      const [u, v] = dist(p.x, ci) + dist(q.x, cj) <= dist(q.x, ci) + dist(p.x, cj) ? [p, q] : [q, p];
      // orient so that +normal of the edge tie-line points away from the triangle
      const a = toPlane(ci),
        b = toPlane(cj),
        c = toPlane(tri.corners[k]);
      const nx = -(b[1] - a[1]),
        ny = b[0] - a[0];
      const side = (c[0] - (a[0] + b[0]) / 2) * nx + (c[1] - (a[1] + b[1]) / 2) * ny;
      const dir: 1 | -1 = side > 0 ? -1 : 1;
      traceRegion({ ...e, phases: [u, v] }, { tl: { x: [ci, cj] }, dir, end: 'three_phase' });
    }
  }
  control?.setProgress?.(0.9);

  // a region traced twice (from seeds on both sides of a thin triangle) is kept once: the longer trace
  for (let i = regions.length - 1; i >= 0; i--) {
    const r = regions[i]!;
    const twin = regions.findIndex(
      (o, k) =>
        k !== i &&
        o.tielines.length >= r.tielines.length &&
        sortedBases(o.phases) === sortedBases(r.phases) &&
        r.tielines.filter((t) => polygonDepth(toPlane(mid(t.x[0], t.x[1])), regionPolys[k]!) > -1e-4).length >=
          0.6 * r.tielines.length,
    );
    if (twin >= 0 && !(regions[twin]!.tielines.length === r.tielines.length && twin > i)) {
      regions.splice(i, 1);
      regionPolys.splice(i, 1);
    }
  }

  // Overlapping fields: the point solver's answer can be metastable (a basin its sampling grid misses, reached by a
  // warm start or not), and two such answers give fields that share area. Of two tangent planes over one
  // composition the lower is the stable one: the field of the higher plane is dropped (a region only for its
  // tie-lines inside the triangle; it then ends on the triangle's edge).
  for (let pass = 0; pass < 8; pass++) {
    const found = overlapsBetween({ regions, triangles }).find((o) => {
      const gt = planeG(potentials.get(triangles[o.triangle]!), o.x);
      const go = planeG(
        potentials.get(o.kind === 'triangles' ? triangles[o.other]! : regions[o.other]!.tielines[o.tieline]!),
        o.x,
      );
      return Number.isFinite(gt) && Number.isFinite(go) && Math.abs(gt - go) > GM_TOL;
    });
    if (!found) break;
    const tri = triangles[found.triangle]!;
    const gt = planeG(potentials.get(tri), found.x);
    if (found.kind === 'triangles') {
      const other = triangles[found.other]!;
      const drop = planeG(potentials.get(other), found.x) > gt ? found.other : found.triangle;
      logs.push(
        `three-phase triangle ${triangles[drop]!.phases.join('+')} dropped: it overlaps ${triangles[drop === found.other ? found.triangle : found.other]!.phases.join('+')}, ` +
          `whose tangent plane lies lower (the point solver's answer there was metastable)`,
      );
      triangles.splice(drop, 1);
      continue;
    }
    const r = regions[found.other]!;
    if (planeG(potentials.get(r.tielines[found.tieline]!), found.x) < gt) {
      logs.push(
        `three-phase triangle ${tri.phases.join('+')} dropped: it overlaps the two-phase region ${r.phases.join('+')}, whose tangent plane lies lower`,
      );
      triangles.splice(found.triangle, 1);
      continue;
    }
    const poly = tri.corners.map(toPlane);
    const keep = r.tielines.map((t) => !tielineInside(t, poly));
    // keep the longest run of tie-lines outside the triangle; the run ends on the triangle's edge
    let best: [number, number] = [0, -1];
    for (let a = 0; a < keep.length; a++) {
      if (!keep[a]) continue;
      let b = a;
      while (b + 1 < keep.length && keep[b + 1]) b++;
      if (b - a > best[1] - best[0]) best = [a, b];
      a = b;
    }
    logs.push(
      `two-phase region ${r.phases.join('+')}: ${keep.filter((k) => !k).length} tie-lines inside the triangle ${tri.phases.join('+')} dropped (their tangent planes lie higher)`,
    );
    if (best[1] - best[0] < 1) {
      regions.splice(found.other, 1);
      regionPolys.splice(found.other, 1);
      continue;
    }
    const bases = r.phases.map(baseName) as [string, string];
    const tielines = r.tielines.slice(best[0], best[1] + 1);
    const ends: [TernaryEndKind, TernaryEndKind] = [...r.ends];
    if (best[0] > 0) {
      const edge = triangleEdge(tri, tielines[0]!, bases);
      if (edge) tielines.unshift(edge);
      ends[0] = 'three_phase';
    }
    if (best[1] < r.tielines.length - 1) {
      const edge = triangleEdge(tri, tielines[tielines.length - 1]!, bases);
      if (edge) tielines.push(edge);
      ends[1] = 'three_phase';
    }
    for (const t of tielines) if (!potentials.has(t)) potentials.set(t, potentials.get(tri)!);
    regions[found.other] = { ...r, tielines, ends };
    regionPolys[found.other] = regionPolygon(regions[found.other]!);
  }

  const singlePhaseLabels = singlePhaseFieldLabels(
    grid,
    neighbours,
    (k) => singleKey(grid[k]!),
    (k, key) => {
      const raw = grid[k]!.raw;
      return raw ? labeller.labels(raw, [{ label: key, x: composition(grid[k]!.X) }])[0] : undefined;
    },
  );
  labelSets(regions, triangles, potentials, labeller, composition);

  const section: TernarySection = {
    components: comps,
    T,
    P,
    window,
    regions,
    triangles,
    singlePhaseLabels,
    criticalPoints,
    selfCheck: null,
    stats: { equilibria, notConverged, seconds: 0, gridSeconds },
    logs,
  };
  if (req.selfCheck !== false) {
    // centroids of the seed grid's upward cells: no node in common with the seed grid
    const checkPoints = upwardCellCentroids(n, lo as Vec3, span).filter((X) => inWindow(X));
    control?.setStage?.(`self-check: ${checkPoints.length} equilibria`);
    const answers = batch(checkPoints, 0.9, 1);
    const check = selfCheck(
      section,
      answers.map((e) => ({ ok: e.ok, X: e.X, labels: e.phases.map((p) => p.label) })),
    );
    // A disagreement inside a mapped two- or three-phase field is re-solved warm-started from that field's
    // equilibrium (the triangle's, or the region's nearest tie-line's): when this gives the map's phases at a
    // lower Gibbs energy than the cold answer, the cold answer was metastable and the map stands.
    const byX = new Map(answers.map((e) => [e.X, e]));
    check.disagreements = check.disagreements.filter((d) => {
      const cold = byX.get(d.x);
      if (!d.mapped.length || !cold?.raw) return true;
      const key = sortedBases(d.mapped);
      const tri = triangles.find(
        (t) => sortedBases(t.phases) === key && polygonDepth(toPlane(d.x), t.corners.map(toPlane)) > -INSIDE_TOL,
      );
      let start = tri ? potentials.get(tri) : undefined;
      if (!start) {
        const near = regions
          .filter((r) => sortedBases(r.phases) === key)
          .flatMap((r) => r.tielines)
          .reduce<{ t: TernaryTieLine | null; d: number }>(
            (b, t) => {
              const dd = dist(mid(t.x[0], t.x[1]), d.x);
              return dd < b.d ? { t, d: dd } : b;
            },
            { t: null, d: Infinity },
          );
        start = near.t ? potentials.get(near.t) : undefined;
      }
      if (!start) return true;
      const warm = solve(d.x, start);
      const undercut =
        warm.ok && sortedBases(warm.phases.map((p) => p.label)) === key && warm.raw!.GM < cold.raw.GM - GM_TOL;
      if (undercut) check.metastable_answers++;
      return !undercut;
    });
    section.selfCheck = check;
  }
  section.stats = { equilibria, notConverged, seconds: (performance.now() - t0) / 1000, gridSeconds };
  if (notConverged) logs.push(`${notConverged} of ${equilibria} point equilibria did not converge`);
  return section;
}
