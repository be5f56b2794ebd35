// Order/disorder in binary diagrams: the disordered state of an ordered phase gets its own label, and
// the second-order (continuous) transition lines between the two states are followed.
//
// An ordered phase modelled with a disordered part (TDB DIS_PART / the same phase name in both states,
// e.g. BCC_B2 over BCC_A2; Dupin, Ansara and Sundman, Calphad 25 (2001) 279) is one Gibbs-energy
// surface; its state is read from the site fractions: equal fractions on the sublattices that share
// their constituents (the ones the disordered part merges into its quasi-fractions) = disordered. With
// phase_scope 'all', every phase with such equivalent sublattices is checked, not only DIS_PART ones.
import { baseName } from '../../contract/phases.js';
import { PhaseModel, type SiteVariable } from '../core/models.js';
import type { NativeDatabase } from '../core/native.js';
import { BudgetExceeded } from './core/ledger.js';
import type { BinaryState, OrderDisorderOptions, SecondOrderLine, SecondOrderPoint } from './binary-types.js';

import {
  classifyOrdering,
  differenceTolerance,
  equalClasses,
  maxDifference,
  ORDER_TOLERANCE,
  orderingModelOf,
  type OrderingModel,
  type OrderingState,
} from '../system/ordering.js';

const DISORDERED_STRUCTURE = { BCC: 'A2', FCC: 'A1', HCP: 'A3' } as const;

/**
 * An ordered phase is disordered when no species' site fractions on equivalent sublattices differ by more than
 * this share of the largest difference its mean fraction allows (differenceTolerance, as the results judge it).
 */
export const ORDER_EPS = ORDER_TOLERANCE;

export function resolveOrderDisorderOptions(o: OrderDisorderOptions | undefined): Required<OrderDisorderOptions> {
  return {
    enabled: o?.enabled ?? true,
    trace_boundaries: o?.trace_boundaries ?? true,
    stability_filter: o?.stability_filter ?? true,
    plot_boundaries: o?.plot_boundaries ?? true,
    phase_scope: o?.phase_scope ?? 'order_disorder',
    trace_method: o?.trace_method ?? 'branch_continuation',
  };
}

/**
 * The groups of equivalent sublattices of a phase model: sublattices with the same set of (at least two)
 * constituents form a group when there are two or more of them; each group lists, per species, the
 * variable index of that species on each sublattice of the group. Empty: the phase cannot order.
 */
export function orderingGroups(variables: readonly SiteVariable[]): number[][][] {
  const bySub = new Map<number, Map<string, number>>();
  variables.forEach((v, k) => {
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
  return groups;
}

/** Order parameter: the largest difference of one species' site fraction between equivalent sublattices. */
export function orderParameter(groups: readonly number[][][], y: ArrayLike<number>): number {
  let m = 0;
  for (const g of groups)
    for (const idx of g) {
      let lo = Infinity,
        hi = -Infinity;
      for (const k of idx) {
        lo = Math.min(lo, y[k]);
        hi = Math.max(hi, y[k]);
      }
      m = Math.max(m, hi - lo);
    }
  return m;
}

/** Whether some species' site fractions on equivalent sublattices differ beyond differenceTolerance of their mean. */
export function exceedsOrderTolerance(groups: readonly number[][][], y: ArrayLike<number>): boolean {
  for (const g of groups)
    for (const idx of g) {
      let lo = Infinity,
        hi = -Infinity,
        sum = 0;
      for (const k of idx) {
        lo = Math.min(lo, y[k]);
        hi = Math.max(hi, y[k]);
        sum += y[k];
      }
      if (hi - lo > differenceTolerance(sum / idx.length, ORDER_EPS)) return true;
    }
  return false;
}

/** Name of the disordered state of an ordered phase: its DIS_PART, else the structure (A1 (FCC_L12)), else NAME_DIS. */
export function disorderedLabel(phase: string, disorderedPart: string, ordering: OrderingModel | null): string {
  if (disorderedPart) return disorderedPart.toUpperCase();
  const lattice = ordering?.lattice;
  return lattice ? `${DISORDERED_STRUCTURE[lattice]} (${phase.toUpperCase()})` : `${phase.toUpperCase()}_DIS`;
}

/**
 * The diagram's label of one state of an ordered phase: the disordered name, the phase name for a phase with a
 * single ordered variant, and the structure for a phase with several (a four-sublattice BCC is B2, D03 or L21,
 * a four-sublattice FCC L12 or L10): "D03 (BCC_4SL)", so the B2 + D03 field is not BCC_4SL + BCC_4SL#2.
 */
export function orderedStateLabel(phase: string, disordered: string, variants: boolean, state: OrderingState): string {
  if (!state.ordered) return disordered;
  return variants && state.structure !== 'ordered'
    ? `${state.structure} (${phase.toUpperCase()})`
    : phase.toUpperCase();
}

/** A phase has several ordered variants when it has three or more equivalent sublattices (the 4SL models). */
export function hasOrderedVariants(m: OrderingModel | null): boolean {
  return !!m && m.sublattices.length >= 3;
}

interface OrderedPhase {
  disordered: string;
  groups: number[][][];
  /** the sublattice model of the results' classification (worker/system/ordering.ts) */
  ordering: OrderingModel | null;
  variants: boolean;
  variables: readonly SiteVariable[];
}

/** The ordered phases of a diagram with their disordered names and sublattice groups. */
export class OrderModel {
  readonly info = new Map<string, OrderedPhase>();
  readonly disorderedOf = new Map<string, string>();
  /** every label of an ordered state seen so far: its phase and ordering rank */
  private readonly states = new Map<string, { phase: string; rank: number }>();

  static build(
    db: NativeDatabase,
    phases: readonly string[],
    components: string[],
    od: Required<OrderDisorderOptions>,
  ): OrderModel {
    const m = new OrderModel();
    if (!od.enabled) return m;
    for (const ph of db.info().phases) {
      if (!phases.includes(ph.name.toUpperCase())) continue;
      // an order-disorder description: a DIS_PART, a B/F symmetry option or a lattice name (self-ordering
      // phases such as a 4SL FCC_L12 without a disordered part), as the results classify it
      const ordering = orderingModelOf(ph);
      if (od.phase_scope === 'order_disorder' && !ph.disorderedPart && !ordering) continue;
      let model: PhaseModel | null = null;
      try {
        model = PhaseModel.build(db, ph.name, components);
      } catch {
        model = null;
      }
      if (!model) continue;
      const groups = orderingGroups(model.variables);
      // ordering sublattices that hold a single constituent in this system (BCC_B2 (AL,FE)(AL,FE)(O,VA) in
      // Fe-O) leave the phase nothing but its disordered state: labelled so, as the results name it
      // (worker/system/ordering.ts); with no groups its order parameter is 0
      if (!groups.length && !(ph.disorderedPart && ordering)) continue;
      m.add(ph.name.toUpperCase(), disorderedLabel(ph.name, ph.disorderedPart, ordering), groups, {
        ordering,
        variables: model.variables,
      });
    }
    return m;
  }

  add(
    ordered: string,
    disordered: string,
    groups: number[][][],
    extra: { ordering?: OrderingModel | null; variables?: readonly SiteVariable[] } = {},
  ): void {
    const ordering = extra.ordering ?? null;
    this.info.set(ordered, {
      disordered,
      groups,
      ordering,
      variants: hasOrderedVariants(ordering),
      variables: extra.variables ?? [],
    });
    this.disorderedOf.set(ordered, disordered);
    // a phase with one ordered variant has one ordered state; the variants of a 4SL phase are ranked as met
    if (!hasOrderedVariants(ordering)) this.states.set(ordered, { phase: ordered, rank: 1 });
  }

  get size(): number {
    return this.info.size;
  }

  /**
   * The label of a set of phase `name` with site fractions y: the disordered name when its order parameter
   * vanishes, the structure for a phase with several ordered variants. eta is the order parameter against
   * the next less ordered state (for D03: the split of the pairs that B2 keeps equal).
   */
  stateName(name: string, y: ArrayLike<number>): { name: string; eta: number | undefined } {
    const oi = this.info.get(name);
    if (!oi) return { name, eta: undefined };
    const eta = orderParameter(oi.groups, y);
    if (!exceedsOrderTolerance(oi.groups, y)) return { name: oi.disordered, eta };
    if (!oi.variants || !oi.ordering) return { name, eta };
    const fractions: Record<string, number>[] = [];
    oi.variables.forEach((v, k) => {
      (fractions[v.sublattice] ??= {})[v.species] = y[k];
    });
    const state = classifyOrdering(oi.ordering, fractions);
    const label = orderedStateLabel(name, oi.disordered, true, state);
    if (!state.ordered) return { name: label, eta };
    // rank: the number of classes of equal sublattices less one (A2 0, B2 1, D03 2 on the 4SL BCC); the
    // order parameter against the next less ordered state is the smallest difference between two classes
    // (merging those two gives that state: for D03 the split of the pair that B2 keeps equal)
    const ys = oi.ordering.sublattices.map((s) => fractions[s] ?? {});
    const classes = equalClasses(ys, ORDER_TOLERANCE);
    let split = Infinity;
    for (let i = 0; i < classes.length; i++)
      for (let j = i + 1; j < classes.length; j++)
        split = Math.min(split, maxDifference(ys[classes[i][0]], ys[classes[j][0]]));
    if (!this.states.has(label)) this.states.set(label, { phase: name, rank: classes.length - 1 });
    return { name: label, eta: Number.isFinite(split) ? split : eta };
  }

  /** The two labels are two ordering states of one phase of different rank (either way round). */
  isOrderPair(a: string, b: string): boolean {
    const A = baseName(a),
      B = baseName(b);
    const sa = this.states.get(A),
      sb = this.states.get(B);
    if (sa && sb) return sa.phase === sb.phase && sa.rank !== sb.rank;
    if (sa) return this.disorderedOf.get(sa.phase) === B;
    if (sb) return this.disorderedOf.get(sb.phase) === A;
    return false;
  }

  isOrdered(label: string): boolean {
    return this.states.has(baseName(label));
  }

  /** Ordering rank of a label (0: disordered or not an ordered phase's state). */
  rank(label: string): number {
    return this.states.get(baseName(label))?.rank ?? 0;
  }

  /** The pair with the more ordered state first. */
  orient<P extends { ordered: string; disordered: string }>(p: P): P {
    return this.rank(p.ordered) >= this.rank(p.disordered) ? p : { ...p, ordered: p.disordered, disordered: p.ordered };
  }

  notes(od: Required<OrderDisorderOptions>): string[] {
    const notes: string[] = [];
    if (od.enabled && this.size) {
      notes.push(
        `ordered phases: ${[...this.info].map(([k, v]) => `${k} (disordered state labelled ${v.disordered}${v.variants ? '; ordered variants labelled by structure, e.g. B2 / D03 / L12 (' + k + ')' : ''})`).join(', ')}`,
      );
      notes.push(
        'second-order transitions are located where grid neighbours differ only in the ordering state and where ' +
          'the line meets a two-phase field, then followed: at fixed x bisected in T to 1 K with T_c from the mean-field law ' +
          'eta^2 ~ (T_c - T) of the ordered states next to the transition (to 0.05 K where that law gives none), or where ' +
          'the line is steep bisected in x to 2e-4 at fixed T',
      );
    }
    if (!od.enabled) notes.push('order/disorder handling disabled: ordered and disordered states carry the phase name');
    if (!od.stability_filter)
      notes.push('stability_filter=false has no effect: only stable (global-minimum) states are mapped');
    return notes;
  }
}

/** Orders the points of a second-order line T_c(x) by x (by T when they all share one x). */
export function orderPolyline(pts: { T: number; x: number }[]): { T: number; x: number }[] {
  return [...pts].sort((a, b) => a.x - b.x || a.T - b.T);
}

/** T on the polyline through the located points (sorted by x), linear in x, extrapolated at the ends. */
export function interpolateLine(located: readonly { T: number; x: number }[], x: number): number {
  let k = 0;
  while (k < located.length - 2 && located[k + 1].x < x) k++;
  const a = located[k],
    b = located[Math.min(k + 1, located.length - 1)];
  const w = b.x > a.x ? (x - a.x) / (b.x - a.x) : 0;
  return a.T + w * (b.T - a.T);
}

/**
 * T_c from two ordered states below the transition by the mean-field (Landau) law of the order
 * parameter, eta^2 ~ (T_c - T): the line through (T1, eta1^2) and (T1 - dT, eta2^2) meets eta^2 = 0 at
 * T_c. Null when the two states do not give a falling eta^2.
 */
export function landauTc(T1: number, eta1: number, eta2: number, dT: number): number | null {
  const slope = (eta1 ** 2 - eta2 ** 2) / dT;
  if (!(slope < 0)) return null;
  return T1 - eta1 ** 2 / slope;
}

/** A point equilibrium asked for by a line follower. */
export interface PointRequest {
  T: number;
  x: number;
}

/** Runs the generators round by round: each round's requests are solved together. */
export function lockstep<R>(
  gens: Generator<PointRequest, R, BinaryState>[],
  solveMany: (reqs: PointRequest[]) => BinaryState[],
): R[] {
  const rounds = together(gens);
  let r = rounds.next();
  while (!r.done) r = rounds.next(solveMany(r.value));
  return r.value;
}

/** The rounds of lockstep as a generator: each round's requests are yielded together and their states received. */
export function* together<R>(
  gens: Generator<PointRequest, R, BinaryState>[],
): Generator<PointRequest[], R[], BinaryState[]> {
  const out = new Array<R>(gens.length);
  let pending = gens.map((g, i) => ({ i, r: g.next() }));
  while (pending.length) {
    const active: { i: number; r: IteratorYieldResult<PointRequest> }[] = [];
    for (const p of pending)
      if (p.r.done) out[p.i] = p.r.value;
      else active.push({ i: p.i, r: p.r });
    if (!active.length) break;
    const states = yield active.map((p) => p.r.value);
    pending = active.map((p, k) => ({ i: p.i, r: gens[p.i].next(states[k]) }));
  }
  return out;
}

/**
 * Runs generators of rounds (together) side by side: the requests of a round of each go to the solver as one
 * batch. A used-up budget is thrown into each of them, so that each ends its own way.
 */
function driveRounds<R>(
  gens: Generator<PointRequest[], R, BinaryState[]>[],
  solveMany: (reqs: PointRequest[]) => BinaryState[],
): R[] {
  const out = new Array<R>(gens.length);
  let pending = gens.map((g, i) => ({ i, r: g.next() }));
  while (pending.length) {
    const active: { i: number; r: IteratorYieldResult<PointRequest[]> }[] = [];
    for (const p of pending)
      if (p.r.done) out[p.i] = p.r.value;
      else active.push({ i: p.i, r: p.r });
    if (!active.length) break;
    let states: BinaryState[];
    try {
      states = solveMany(active.flatMap((p) => p.r.value));
    } catch (e) {
      if (!(e instanceof BudgetExceeded)) throw e;
      pending = active.map((p) => ({ i: p.i, r: gens[p.i].throw(e) }));
      continue;
    }
    let at = 0;
    pending = active.map((p) => {
      const mine = states.slice(at, at + p.r.value.length);
      at += p.r.value.length;
      return { i: p.i, r: gens[p.i].next(mine) };
    });
  }
  return out;
}

/** K: a second-order transition temperature is bisected to this at fixed x. */
export const TC_TOL = 0.05;
/** Mole fraction: the transition is bisected to this (0.2 K on a line of slope 1000 K per unit x; the audit compares x to 0.004) at fixed T where the line is steep. */
const XC_TOL = 2e-4;
/** x step of the line's continuation. */
const X_STEP = 0.01;
/** K: a gap in T between neighbouring points of a line larger than this is filled by fixed-T bisections in x. */
const STEEP_DT = 80;
/**
 * A line followed in x is solved at every other x first; a point in between is solved only where the line is not
 * straight enough there to be drawn without it: where a neighbour failed, where the neighbours differ by more
 * than STEEP_DT (the line is followed in T there), or where the second differences of the points around it put
 * the point more than REFINE_ERR_T off the chord, or more than REFINE_ERR_X in x at the line's slope (a quarter of
 * what the audit allows). A point solved is the one the full step solves (its guess depends on x only), so the
 * line is the full-step line less points that lie that close to its chords.
 */
const REFINE_ERR_T = 2;
const REFINE_ERR_X = 1e-3;

/** The request sequence of BinarySolver.solve: the point, and once more 1e-4 further inside when it fails. */
function* solvePoint(T: number, x: number): Generator<PointRequest, BinaryState, BinaryState> {
  const e = yield { T, x };
  if (e.ok) return e;
  const e2 = yield { T, x: x + (x < 0.5 ? 1e-4 : -1e-4) };
  return e2.ok ? e2 : e;
}

/**
 * Follows the second-order lines through the located transition points (grouped by ordered/disordered
 * pair: the A2/B2 and the B2/D03 line of a four-sublattice BCC are two lines). A line T_c(x) is followed in
 * x (step 0.01 from the first to the last located point, every other x first: REFINE_ERR_T): at each x the transition is bracketed around the
 * value interpolated from the located points (or, one x at a time, predicted from the last two points;
 * ordered below, disordered above) and bisected in T to 1 K, then T_c is taken from the ordered side with
 * the mean-field law (landauTc) through two ordered states 1 and 6 K below the bracket: next to T_c the
 * less ordered state is a stationary point of G by symmetry and the solver may stop there although the
 * ordered state is lower, so the plain bisection can come out a few K low. Where that law gives no T_c in
 * the bracket, the bisection goes on to 0.05 K. Where the line is steep (more than 80 K between neighbouring points, or an x where no bracket was
 * found, as next to the field where it meets a two-phase region) it is followed in T instead: at fixed T
 * the transition is bisected in x between its neighbours. Where the line meets a two-phase field, the
 * located meeting points end it.
 */
export function followSecondOrderLines(
  points: readonly SecondOrderPoint[],
  solve: (T: number, x: number) => BinaryState,
  range: { Tlo: number; Thi: number },
  log: (s: string) => void,
  solveMany?: (reqs: PointRequest[]) => BinaryState[],
): SecondOrderLine[] {
  const { Tlo, Thi } = range;
  const byPair = new Map<string, SecondOrderPoint[]>();
  for (const p of points) {
    const k = `${p.ordered}|${p.disordered}`;
    if (!byPair.has(k)) byPair.set(k, []);
    byPair.get(k)!.push(p);
  }
  // the lines are followed side by side, and the point requests of their bisections go to the solver together
  // (over the threads); without solveMany one at a time
  return driveRounds(
    [...byPair.values()].map((list) => followLine(list)),
    solveMany ?? ((reqs) => reqs.map((q) => solve(q.T, q.x))),
  );

  function* followLine(list: SecondOrderPoint[]): Generator<PointRequest[], SecondOrderLine, BinaryState[]> {
    const { ordered, disordered } = list[0];
    const located = orderPolyline(list.map((p) => ({ T: p.T, x: p.x })));
    // a two-phase state counts on the side of the one state of the pair it holds: along an isotherm the line lies
    // between the fields of its two states, and next to a two-phase field the single-phase range of one state
    // can be narrower than any bracket (the L10 band of Ni-rich fcc between L12 + L10 and A1, alnifcc4sl
    // below 500 K, 0.001-0.003 wide)
    const classify = (e: BinaryState): { s: 'o' | 'd'; eta: number } | null => {
      if (!e.ok) return null;
      if (e.phases.length === 2) {
        const labels = e.phases.map((p) => p.label);
        const o = labels.includes(ordered),
          d = labels.includes(disordered);
        return o === d ? null : { s: o ? 'o' : 'd', eta: 0 };
      }
      if (e.phases.length !== 1) return null;
      if (e.key === ordered) return { s: 'o', eta: e.phases[0].eta ?? 0 };
      return e.key === disordered ? { s: 'd', eta: 0 } : null;
    };
    // T_c at x: bracketed around the guess (half width w, widened while both ends agree), bisected, then
    // the Landau estimate; a generator of its point requests so that many x can be solved together
    function* tcGen(x: number, guess: number, w0: number): Generator<PointRequest, number | null, BinaryState> {
      const g = Math.min(Thi, Math.max(Tlo, guess));
      let lo = Math.max(Tlo, g - w0),
        hi = Math.min(Thi, g + w0);
      let sl = classify(yield { T: lo, x }),
        sh = classify(yield { T: hi, x });
      for (let k = 0, w = 8; k < 5 && sl?.s === 'd'; k++, w *= 2) {
        hi = lo;
        sh = sl;
        lo = Math.max(Tlo, lo - w);
        sl = classify(yield { T: lo, x });
      }
      for (let k = 0, w = 8; k < 5 && sh?.s === 'o'; k++, w *= 2) {
        lo = hi;
        sl = sh;
        hi = Math.min(Thi, hi + w);
        sh = classify(yield { T: hi, x });
      }
      if (!sl || !sh || sl.s !== 'o' || sh.s !== 'd') return null;
      // to 1 K, then the Landau estimate from the ordered side; where it does not apply, on to 0.05 K (right
      // next to T_c the solver is slow and its answer is the one the estimate corrects, so it is not asked there
      // when the estimate holds)
      const bisect = function* (tol: number): Generator<PointRequest, boolean, BinaryState> {
        while (hi - lo > tol) {
          const m = (lo + hi) / 2,
            sm = classify(yield { T: m, x });
          if (!sm) return false;
          if (sm.s === 'o') lo = m;
          else hi = m;
        }
        return true;
      };
      if (!(yield* bisect(1))) return null;
      const e1 = classify(yield { T: lo - 1, x }),
        e2 = classify(yield { T: lo - 6, x });
      if (e1?.s === 'o' && e2?.s === 'o') {
        const tc = landauTc(lo - 1, e1.eta, e2.eta, 5);
        if (tc !== null && tc >= lo && tc <= hi + 20) return tc;
      }
      if (!(yield* bisect(TC_TOL))) return null;
      return (lo + hi) / 2;
    }
    /** x of the transition at T near the guess: the first of the brackets [guess - l, guess + r] whose ends differ, bisected. */
    function* xcGen(
      T: number,
      guess: number,
      brackets: number[][],
    ): Generator<PointRequest, number | null, BinaryState> {
      for (const [l, r] of brackets) {
        let a = Math.max(0, guess - l),
          b = Math.min(1, guess + r);
        let sa = classify(yield { T, x: a });
        if (!sa) continue;
        const sb = classify(yield { T, x: b });
        if (!sb || sa.s === sb.s) continue;
        let failed = false;
        while (Math.abs(b - a) > XC_TOL) {
          const m = (a + b) / 2,
            sm = classify(yield { T, x: m });
          if (!sm) {
            failed = true;
            break;
          }
          if (sm.s === sa.s) {
            a = m;
            sa = sm;
          } else b = m;
        }
        return failed ? null : (a + b) / 2;
      }
      return null;
    }
    /** x of the transition at T between xa and xb (states of the two kinds there), or null. */
    function* xcAt(T: number, xa: number, xb: number): Generator<PointRequest, number | null, BinaryState> {
      let sa = classify(yield* solvePoint(T, xa));
      if (!sa) return null; // (the other end cannot make a bracket of it)
      const sb = classify(yield* solvePoint(T, xb));
      if (!sb || sa.s === sb.s) return null;
      let a = xa,
        b = xb;
      while (Math.abs(b - a) > XC_TOL) {
        const m = (a + b) / 2,
          sm = classify(yield* solvePoint(T, m));
        if (!sm) return null;
        if (sm.s === sa.s) {
          a = m;
          sa = sm;
        } else b = m;
      }
      return (a + b) / 2;
    }
    let pts: { T: number; x: number }[] = [];
    try {
      const x0 = located[0].x,
        x1 = located[located.length - 1].x;
      const byT = [...located].sort((a, b) => a.T - b.T);
      const T0 = byT[0].T,
        T1 = byT[byT.length - 1].T;
      // a line located at one point only (where it meets a two-phase field, in a window of the diagram whose
      // grid misses a narrow band of the ordered state) is followed in T from there like a steep one
      const single = T1 - T0 < 1 && x1 - x0 < 1e-3;
      if (single || (T1 - T0 > STEEP_DT && (T1 - T0) / Math.max(x1 - x0, 1e-9) > STEEP_DT / X_STEP)) {
        // a steep line (an ordering at a nearly fixed composition): followed in T, bisected in x at each T
        const n = single ? 0 : Math.min(20, Math.ceil((T1 - T0) / (STEEP_DT * 1.25)));
        const Ts = single ? [] : Array.from({ length: n + 1 }, (_, k) => T0 + ((T1 - T0) * k) / n);
        const guesses = Ts.map((T) => {
          let j = 0;
          while (j < byT.length - 2 && byT[j + 1].T < T) j++;
          const a = byT[j],
            b = byT[Math.min(j + 1, byT.length - 1)];
          return b.T > a.T ? a.x + ((T - a.T) / (b.T - a.T)) * (b.x - a.x) : a.x;
        });
        const brackets = [
          [3e-3, 3e-3],
          [1e-2, 1e-2],
          [3e-2, 3e-2],
        ];
        const xs = yield* together(Ts.map((T, k) => xcGen(T, guesses[k], brackets)));
        Ts.forEach((T, k) => {
          const x = xs[k];
          if (x !== null) pts.push({ T, x });
        });
        // beyond the located range the line goes on until it meets a field or the diagram's edge (the grid
        // bisections locate a nearly vertical line only at some of its rows)
        const dT = single ? STEEP_DT / 4 : (T1 - T0) / n;
        const ends = [pts[0] ?? byT[0], pts[pts.length - 1] ?? byT[byT.length - 1]];
        // the two directions side by side
        function* extend(dir: -1 | 1): Generator<PointRequest, { T: number; x: number }[], BinaryState> {
          const found: { T: number; x: number }[] = [];
          let last = ends[dir < 0 ? 0 : 1];
          // the step is halved (down to 1/8) where the line stops: it ends on a field between two steps
          for (let k = 0, step = dT; k < 40; k++) {
            // a step beyond the diagram's edge ends at the edge: a line that reaches it is drawn to it
            const edge = dir < 0 ? Tlo : Thi;
            if (Math.abs(last.T - edge) < 1e-9) break;
            const T = dir < 0 ? Math.max(Tlo, last.T - step) : Math.min(Thi, last.T + step);
            // a bracket on one side as well: next to a two-phase field (or a narrow pocket of the ordered
            // state) one end of the symmetric bracket falls outside the single-phase range
            let x: number | null = null;
            for (const [l, r] of [
              [3e-3, 3e-3],
              [1e-2, 1e-2],
              [0, 5e-3],
              [5e-3, 0],
            ])
              if ((x = yield* xcAt(T, Math.max(0, last.x - l), Math.min(1, last.x + r))) !== null) break;
            if (x === null) {
              if (step < dT / 6) break;
              step /= 2;
              continue;
            }
            last = { T, x };
            found.push(last);
          }
          return found;
        }
        for (const found of yield* together([extend(-1), extend(1)])) pts.push(...found);
        // ordered by T: along a nearly vertical line the bisected x scatter by up to the tolerance
        pts = [...pts, ...located.filter((p) => p.T < T0 + 1e-9 || p.T > T1 - 1e-9)].sort((a, b) => a.T - b.T);
        return { ordered, disordered, points: dedupeLine(pts) };
      }
      const n = Math.max(1, Math.ceil((x1 - x0) / X_STEP));
      const xs = Array.from({ length: n + 1 }, (_, k) => x0 + ((x1 - x0) * k) / n);
      // x between two solved points that is left out (the line is straight enough there: REFINE_DT)
      const skipped: number[] = [];
      if (solveMany) {
        // every other x first, then the ones between where needed; all x of a pass together (the batch runs
        // over the threads), each bracketed around the located line
        const tcs = new Array<number | null>(n + 1).fill(null);
        const pass = function* (ks: number[]): Generator<PointRequest[], void, BinaryState[]> {
          const got = yield* together(ks.map((k) => tcGen(xs[k], interpolateLine(located, xs[k]), 10)));
          ks.forEach((k, i) => {
            tcs[k] = got[i];
          });
        };
        yield* pass(xs.map((_, k) => k).filter((k) => k % 2 === 0 || k === n));
        const tAt = (k: number) => (k >= 0 && k <= n ? tcs[k] : null);
        const needed = (k: number): boolean => {
          const a = tAt(k - 1),
            b = tAt(k + 1);
          if (a === null || b === null || Math.abs(b - a) > STEEP_DT) return true;
          // the second differences on either side (h = 2 steps): the chord is off the line by about |d| / 8
          const aa = tAt(k - 3),
            bb = tAt(k + 3);
          const d = [aa === null ? null : aa - 2 * a + b, bb === null ? null : a - 2 * b + bb].filter(
            (v): v is number => v !== null,
          );
          if (!d.length) return true;
          const err = Math.max(...d.map(Math.abs)) / 8;
          const slope = Math.abs(b - a) / Math.max(1e-12, xs[k + 1] - xs[k - 1]);
          return err > REFINE_ERR_T || err > REFINE_ERR_X * slope;
        };
        const odd = xs.map((_, k) => k).filter((k) => k % 2 === 1 && k < n);
        const refine = odd.filter(needed);
        yield* pass(refine);
        for (const k of odd) if (!refine.includes(k)) skipped.push(xs[k]);
        xs.forEach((x, k) => {
          const tc = tcs[k];
          if (tc !== null) pts.push({ T: tc, x });
        });
      } else {
        for (const x of xs) {
          const [p1, p2] = [pts[pts.length - 1], pts[pts.length - 2]];
          const guess =
            p1 && p2 && Math.abs(p1.x - x) < 2.5 * X_STEP
              ? p1.T + ((p1.T - p2.T) / (p1.x - p2.x)) * (x - p1.x)
              : interpolateLine(located, x);
          const tc = (yield* together([tcGen(x, guess, 3)]))[0];
          if (tc !== null) pts.push({ T: tc, x });
        }
      }
      // located points outside the followed range are kept (the meeting points with two-phase fields); inside
      // it they are superseded: they carry the solver's early jump
      if (pts.length) {
        const a = pts[0].x,
          b = pts[pts.length - 1].x;
        pts = orderPolyline([...pts, ...located.filter((p) => p.x < a - 1e-9 || p.x > b + 1e-9)]);
      } else pts = [...located];
      // steep parts and gaps: followed in T
      // (a gap: more than one step between two points, not counting the x left out as straight)
      const fills: { T: number; xl: number; xr: number }[] = [];
      for (let i = 0; i + 1 < pts.length; i++) {
        const a = pts[i],
          b = pts[i + 1];
        const between = skipped.filter((x) => x > a.x + 1e-12 && x < b.x - 1e-12).length;
        const gap = Math.abs(b.x - a.x) > (1.5 + between) * X_STEP;
        if (!(Math.abs(b.T - a.T) > STEEP_DT || (gap && Math.abs(b.T - a.T) > 2))) continue;
        const m = Math.min(40, Math.ceil(Math.abs(b.T - a.T) / (STEEP_DT / 4)));
        const xl = Math.min(a.x, b.x) - 2e-3,
          xr = Math.max(a.x, b.x) + 2e-3;
        for (let k = 1; k < m; k++) fills.push({ T: a.T + ((b.T - a.T) * k) / m, xl, xr });
      }
      const xf = yield* together(fills.map((f) => xcAt(f.T, f.xl, f.xr)));
      const filled = fills.flatMap((f, k) => (xf[k] === null ? [] : [{ T: f.T, x: xf[k]! }]));
      pts = orderPolyline([...pts, ...filled]);
    } catch (e) {
      if (!(e instanceof BudgetExceeded)) throw e;
      log('equilibrium budget used up while following a second-order line');
      if (!pts.length) pts = [...located];
    }
    return { ordered, disordered, points: dedupeLine(orderPolyline(pts)) };
  }
}

function dedupeLine(pts: { T: number; x: number }[]): { T: number; x: number }[] {
  return pts.filter((p, k) => k === 0 || Math.abs(p.x - pts[k - 1].x) > 1e-6 || Math.abs(p.T - pts[k - 1].T) > 1e-3);
}
