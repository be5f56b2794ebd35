// How a traced two-phase region of a binary ends, from its last tie-line and the state just beyond it
// (located by bisection on T to MIN_STEP): an invariant (the state beyond has a neighbouring two-phase
// set -> three phases), the critical point of a miscibility gap or a congruent point (the tie-line
// collapses inside the diagram), a transition of a pure component (it collapses onto x = 0 or 1).
import { baseName } from '../../contract/phases.js';
import { solveRequest } from './binary-solver.js';
import { SAME_X, SHORT_TIELINE, type BinaryState, type RegionEnd, type StateRequest } from './binary-types.js';
import type { TieLine } from '../../contract/results/binary_equilibrium.js';

import { edgePhase } from './pure_edges.js';

/** A collapsed tie-line whose midpoint lies this close to x = 0 or 1 ends at the pure element. */
const PURE_EDGE_X = 0.005;
const PURE_EDGE_X_HIGH = 0.995;

/**
 * Critical temperature of a miscibility gap from its last two tie-lines on the traced side: mean-field
 * critical behaviour, the tie-line length L obeys L^2 ~ (Tc - T) (Landau expansion of G near the
 * critical point). Taken only when it lies within 5 K beyond the last tie-line; else the last one's T.
 */
export function criticalTemperature(tl: readonly TieLine[], good: TieLine, dir: 1 | -1): number {
  const side = tl
    .filter((t) => (dir === 1 ? t.T <= good.T + 1e-9 : t.T >= good.T - 1e-9))
    .sort((a, b) => Math.abs(b.T - good.T) - Math.abs(a.T - good.T))
    .slice(-2);
  let Tc = good.T;
  if (side.length === 2) {
    const [a, b] = side;
    const La = (a.x[1] - a.x[0]) ** 2,
      Lb = (b.x[1] - b.x[0]) ** 2;
    const slope = (Lb - La) / (b.T - a.T);
    const est = b.T - Lb / slope;
    if (Number.isFinite(est) && Math.abs(est - good.T) < 5 && (est - good.T) * dir >= 0) Tc = est;
  }
  return Tc;
}

/**
 * 'pure_element' when a collapsed tie-line lies at an edge of the composition axis and ends there, else
 * 'congruent': a lens that opens at an element's transition can close, within PURE_EDGE_X of the element, in a
 * liquidus maximum (Ni-V of COST507: the maximum 0.02 K above the melting point of Ni, at x(NI) 0.992). A trace
 * with no tie-line before its last one (the lens search starts it next to its end) is told by the element itself:
 * its phase EDGE_DT inside and beyond the end is the same at such a maximum.
 */
function* collapsedKind(
  good: TieLine,
  beyondT: number,
  tl: readonly TieLine[],
  dir: 1 | -1,
): Generator<StateRequest, 'pure_element' | 'congruent', BinaryState> {
  const m = (good.x[0] + good.x[1]) / 2;
  if (!(m < PURE_EDGE_X || m > PURE_EDGE_X_HIGH)) return 'congruent';
  const edge = m < 0.5 ? 0 : 1;
  let prev: TieLine | null = null;
  for (const t of tl) if ((good.T - t.T) * dir > 1e-9 && (!prev || (t.T - prev.T) * dir > 0)) prev = t;
  if (prev) return 'pure_element';
  const inside = edgePhase(yield* solveRequest(good.T - dir * EDGE_DT, edge));
  const beyond = edgePhase(yield* solveRequest(beyondT + dir * EDGE_DT, edge));
  return inside !== null && beyond !== null && inside === beyond ? 'congruent' : 'pure_element';
}
const EDGE_DT = 0.005;

/**
 * The two-phase state beyond a collapsing tie-line when the field goes on there under another label of one of its
 * phases, else null: probed at T just outside the last tie-line (half its length, then twice it, on either side),
 * one phase beyond is the region's own within SAME_X of its end, the other another label within SAME_X of the other
 * end. A congruent point is where the two phases' compositions meet and nothing of the field lies beyond; a lens
 * narrower than its shift in x over the last step, whose solid changes its ordering state there (a second-order
 * line meeting it), otherwise looks the same at the midpoint of its last tie-line. The caller hands the state on as
 * an invariant's, and assembleDiagram makes an ordered/disordered pair of one phase a second-order end.
 */
function* fieldGoesOn(
  good: TieLine,
  T: number,
  labels: [string, string],
): Generator<StateRequest, BinaryState | null, BinaryState> {
  const w = Math.max(good.x[1] - good.x[0], 1e-9);
  const own = labels.map(baseName);
  return yield* firstTwoPhaseState(
    T,
    [good.x[0] - w / 2, good.x[1] + w / 2, good.x[0] - 2 * w, good.x[1] + 2 * w],
    (e) => {
      if (e.key === labels.join('+')) return false;
      const [p, q] = e.phases;
      if (!(q.x - p.x > 1e-9 && Math.abs(p.x - good.x[0]) < SAME_X && Math.abs(q.x - good.x[1]) < SAME_X)) return false;
      return (p.base === own[0]) !== (q.base === own[1]);
    },
  );
}

/** The first converged two-phase state at T, over the compositions in (0, 1) in their order, that `accept` takes. */
function* firstTwoPhaseState(
  T: number,
  xs: number[],
  accept: (e: BinaryState) => boolean,
): Generator<StateRequest, BinaryState | null, BinaryState> {
  for (const x of xs) {
    if (x <= 0 || x >= 1) continue;
    const e = yield* solveRequest(T, x);
    if (e.ok && e.phases.length === 2 && accept(e)) return e;
  }
  return null;
}

/**
 * The two-phase state of a neighbouring field beyond a short tie-line, when its end is an invariant and not the
 * congruent point it looks like: probed at T beyond the end at the two boundary compositions of the last tie-line
 * and just outside them, a state that holds a third phase (of neither of the region's) beside one of the region's
 * phases at its boundary (within SAME_X). At a congruent point both boundaries meet at one composition and the one
 * phase of the point lies beyond both; a narrow field that ends on an invariant next to its phases' metastable
 * congruent point does not (Al-Fe of Sundman et al., Calphad 33 (2009): liquid + Al13Fe4, 0.001 wide at the
 * peritectic liquid + Al5Fe2 -> Al13Fe4 of 1423.96 K; beyond its midpoint is liquid alone, beyond its Al13Fe4
 * boundary liquid + Al5Fe2).
 */
function* neighbourFieldBeyond(
  good: TieLine,
  T: number,
  labels: [string, string],
): Generator<StateRequest, BinaryState | null, BinaryState> {
  const w = Math.max(good.x[1] - good.x[0], 1e-9);
  const own = labels.map(baseName);
  return yield* firstTwoPhaseState(T, [good.x[0], good.x[1], good.x[0] - w / 2, good.x[1] + w / 2], (e) => {
    const third = e.phases.some((p) => !own.includes(p.base));
    const atBoundary = e.phases.some((p) => own.some((b, k) => p.base === b && Math.abs(p.x - good.x[k]) < SAME_X));
    return third && atBoundary;
  });
}

/**
 * The end of a region whose last tie-line `good` (shorter than SHORT_TIELINE) collapses: at the pure element, at a
 * congruent point (verified beyond both boundaries: neighbourFieldBeyond), on an invariant where a neighbouring
 * field lies beyond, or where one of its phases goes on under another label (fieldGoesOn). `beyond`: the converged
 * state beyond the end, null when it did not converge (at bad.T, where the end is located).
 */
function* collapsedEnd(
  good: TieLine,
  beyond: BinaryState | null,
  badT: number,
  dir: 1 | -1,
  labels: [string, string],
  tl: readonly TieLine[],
  log: (s: string) => void,
): Generator<StateRequest, RegionEnd, BinaryState> {
  const T = (good.T + badT) / 2;
  const kind = yield* collapsedKind(good, badT, tl, dir);
  if (kind !== 'congruent') return { kind, T, good, bad: beyond, dir };
  const onward = yield* fieldGoesOn(good, badT, labels);
  if (onward) {
    log(
      `region ${labels.join('+')} near T=${T.toFixed(2)} K goes on beyond as ${onward.key}: one phase changes its label, no congruent point`,
    );
    return { kind: 'invariant', T, good, bad: onward, dir };
  }
  const neighbour = yield* neighbourFieldBeyond(good, badT, labels);
  if (neighbour) {
    log(
      `region ${labels.join('+')} near T=${T.toFixed(2)} K: ${neighbour.key} lies beyond its boundary, so its boundaries do not meet; it ends on an invariant, no congruent point`,
    );
    return { kind: 'invariant', T, good, bad: neighbour, dir };
  }
  return { kind, T, good, bad: beyond, dir };
}

/**
 * The end of region `labels` between its last tie-line `good` and the state `bad` beyond (dir +1: the
 * region lies below). A state beyond that did not converge is replaced by one at another composition
 * across the last tie-line when one converges.
 */
export function* classifyRegionEnd(
  good: TieLine,
  bad: BinaryState,
  dir: 1 | -1,
  labels: [string, string],
  tl: readonly TieLine[],
  log: (s: string) => void,
): Generator<StateRequest, RegionEnd, BinaryState> {
  const len = good.x[1] - good.x[0];
  const gap = baseName(labels[0]) === baseName(labels[1]);
  const collapsing = (b: BinaryState) => !b.ok || b.phases.length === 1 || b.key === labels.join('+');
  if (!bad.ok) {
    // the solver could not certify the point beyond (e.g. next to a critical point, where the two
    // sets merge): other compositions across the last tie-line tell what lies beyond
    for (const f of [0.1, 0.9, 0.3, 0.7]) {
      const e = yield* solveRequest(bad.T, good.x[0] + f * len);
      if (e.ok) {
        bad = e;
        break;
      }
    }
  }
  const T = (good.T + bad.T) / 2;
  if (gap && len < 0.1 && collapsing(bad)) {
    // close to the critical point of a miscibility gap the solver may fail where the two sets merge
    const Tc = criticalTemperature(tl, good, dir);
    if (!bad.ok || bad.key === labels.join('+')) {
      log(
        `miscibility gap ${labels.join('+')}: the solver stops converging near T=${good.T.toFixed(2)} K (tie-line length ${len.toFixed(4)}); critical point extrapolated to ${Tc.toFixed(2)} K from L^2 ~ (Tc - T)`,
      );
    }
    return { kind: 'congruent', T: Tc, good, bad: bad.ok ? bad : null, dir };
  }
  if (!bad.ok) {
    if (len < SHORT_TIELINE) {
      // the tie-line has (almost) collapsed; the solver failed just beyond, where the two sets merge
      log(
        `region end near T=${T.toFixed(2)} K: equilibrium beyond did not converge; classified from the collapsing tie-line (length ${len.toExponential(2)})`,
      );
      return yield* collapsedEnd(good, null, bad.T, dir, labels, tl, log);
    }
    log(`region end near T=${T.toFixed(2)} K: equilibrium beyond did not converge; end left unresolved`);
    return { kind: 'unresolved', T: good.T, good, bad: null, dir };
  }
  // two sets of one phase at (nearly) one composition beyond are a spurious split of a single phase; at
  // different compositions they are a miscibility gap (e.g. gamma' + gamma below an L -> gamma' + gamma
  // eutectic) and the end is an invariant
  const spuriousSplit =
    bad.phases.length === 2 &&
    bad.phases[0].base === bad.phases[1].base &&
    Math.abs(bad.phases[1].x - bad.phases[0].x) < SAME_X;
  if (len < SHORT_TIELINE && (bad.phases.length === 1 || spuriousSplit))
    return yield* collapsedEnd(good, bad, bad.T, dir, labels, tl, log);
  return { kind: 'invariant', T, good, bad, dir };
}
