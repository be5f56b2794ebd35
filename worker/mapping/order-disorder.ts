// Order/disorder in binary diagrams: the disordered state of an ordered phase gets its own label, and
// the second-order (continuous) transition lines between the two states are followed.
//
// An ordered phase modelled with a disordered part (TDB DIS_PART / the same phase name in both states,
// e.g. BCC_B2 over BCC_A2; Dupin, Ansara and Sundman, Calphad 25 (2001) 279) is one Gibbs-energy
// surface; its state is read from the site fractions: equal fractions on the sublattices that share
// their constituents (the ones the disordered part merges into its quasi-fractions) = disordered. With
// phase_scope 'all', every phase with such equivalent sublattices is checked, not only DIS_PART ones.
import { PhaseModel, type SiteVariable } from '../core/models.js';
import type { NativeDatabase } from '../core/native.js';
import { BudgetExceeded } from './binary-solver.js';
import type { BinaryState, OrderDisorderOptions, SecondOrderLine, SecondOrderPoint } from './binary-types.js';
import { baseName } from './phase-labels.js';
import { orderingModelOf } from '../results/ordering.js';

/** An ordered phase whose largest site-fraction difference between equivalent sublattices is below this is disordered. */
export const ORDER_EPS = 1e-4;

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
  for (const g of groups) for (const idx of g) {
    let lo = Infinity, hi = -Infinity;
    for (const k of idx) { lo = Math.min(lo, y[k]); hi = Math.max(hi, y[k]); }
    m = Math.max(m, hi - lo);
  }
  return m;
}

/** The ordered phases of a diagram with their disordered names and sublattice groups. */
export class OrderModel {
  readonly info = new Map<string, { disordered: string; groups: number[][][] }>();
  readonly disorderedOf = new Map<string, string>();

  static build(db: NativeDatabase, phases: readonly string[], components: string[], od: Required<OrderDisorderOptions>): OrderModel {
    const m = new OrderModel();
    if (!od.enabled) return m;
    for (const ph of db.info().phases) {
      if (!phases.includes(ph.name.toUpperCase())) continue;
      if (od.phase_scope === 'order_disorder' && !ph.disorderedPart) continue;
      let model: PhaseModel | null = null;
      try { model = PhaseModel.build(db, ph.name, components); } catch { model = null; }
      if (!model) continue;
      const groups = orderingGroups(model.variables);
      // ordering sublattices that hold a single constituent in this system (BCC_B2 (AL,FE)(AL,FE)(O,VA) in
      // Fe-O) leave the phase nothing but its disordered state: labelled so, as the results name it
      // (worker/results/ordering.ts); with no groups its order parameter is 0
      if (!groups.length && !(ph.disorderedPart && orderingModelOf(ph))) continue;
      const disordered = ph.disorderedPart ? ph.disorderedPart.toUpperCase() : `${ph.name.toUpperCase()}_DIS`;
      m.add(ph.name.toUpperCase(), disordered, groups);
    }
    return m;
  }

  add(ordered: string, disordered: string, groups: number[][][]): void {
    this.info.set(ordered, { disordered, groups });
    this.disorderedOf.set(ordered, disordered);
  }

  get size(): number { return this.info.size; }

  /** The label of a set of phase `name` with site fractions y: the disordered name when its order parameter vanishes. */
  stateName(name: string, y: ArrayLike<number>): { name: string; eta: number | undefined } {
    const oi = this.info.get(name);
    if (!oi) return { name, eta: undefined };
    const eta = orderParameter(oi.groups, y);
    return { name: eta < ORDER_EPS ? oi.disordered : name, eta };
  }

  /** The two labels are the ordered and the disordered state of one phase (either way round). */
  isOrderPair(a: string, b: string): boolean {
    return this.disorderedOf.get(baseName(a)) === baseName(b) || this.disorderedOf.get(baseName(b)) === baseName(a);
  }

  isOrdered(label: string): boolean { return this.disorderedOf.has(baseName(label)); }

  notes(od: Required<OrderDisorderOptions>): string[] {
    const notes: string[] = [];
    if (od.enabled && this.size) {
      notes.push(`ordered phases: ${[...this.info].map(([k, v]) => `${k} (disordered state labelled ${v.disordered})`).join(', ')}`);
      notes.push('second-order transitions are located (to 0.01 K / 1e-6 in x) where grid neighbours differ only in the ordering ' +
        'state and where the line meets a two-phase field, then followed in x (step 0.01) with T_c from the mean-field ' +
        'law eta^2 ~ (T_c - T) of the ordered states next to the transition');
    }
    if (!od.enabled) notes.push('order/disorder handling disabled: ordered and disordered states carry the phase name');
    if (!od.stability_filter) notes.push('stability_filter=false has no effect: only stable (global-minimum) states are mapped');
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
  const a = located[k], b = located[Math.min(k + 1, located.length - 1)];
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

/**
 * Follows the second-order lines through the located transition points (grouped by ordered/disordered
 * pair). A line T_c(x) is single-valued in x (a dome or a monotonic line), so it is followed in x
 * (branch continuation, step 0.01 from the first to the last located point). At each x: bracket the
 * transition in T around the interpolated T_c (ordered below, disordered above), bisect to 1 K, then
 * take T_c from the ordered side with the mean-field law (landauTc) through two ordered states 1 and
 * 6 K below the bracket: next to T_c the disordered state is a stationary point of G by symmetry and the
 * solver may stop there although the ordered state is lower, so the plain bisection can come out a few
 * K low. Where the line meets a two-phase field, the located meeting points end it.
 */
export function followSecondOrderLines(points: readonly SecondOrderPoint[], solve: (T: number, x: number) => BinaryState,
  range: { Tlo: number; Thi: number }, log: (s: string) => void): SecondOrderLine[] {
  const { Tlo, Thi } = range;
  const lines: SecondOrderLine[] = [];
  const byPair = new Map<string, SecondOrderPoint[]>();
  for (const p of points) {
    const k = `${p.ordered}|${p.disordered}`;
    if (!byPair.has(k)) byPair.set(k, []);
    byPair.get(k)!.push(p);
  }
  for (const list of byPair.values()) {
    const { ordered, disordered } = list[0];
    const located = orderPolyline(list.map((p) => ({ T: p.T, x: p.x })));
    const etaAt = (T: number, x: number): { s: 'o' | 'd'; eta: number } | null => {
      const e = solve(T, x);
      if (!e.ok || e.phases.length !== 1) return null;
      if (e.key === ordered) return { s: 'o', eta: e.phases[0].eta ?? 0 };
      return e.key === disordered ? { s: 'd', eta: 0 } : null;
    };
    const tcAt = (x: number): number | null => {
      const g = Math.min(Thi, Math.max(Tlo, interpolateLine(located, x)));
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
        const tc = landauTc(lo - 1, e1.eta, e2.eta, 5);
        if (tc !== null && tc >= lo - 1 && tc <= hi + 20) return tc;
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
    // located points inside the followed range are superseded: they carry the solver's early jump
    if (pts.length) {
      const a = pts[0].x, b = pts[pts.length - 1].x;
      pts = orderPolyline([...pts, ...located.filter((p) => p.x < a - 1e-9 || p.x > b + 1e-9)]);
    } else pts = located;
    pts = pts.filter((p, k) => k === 0 || Math.abs(p.x - pts[k - 1].x) > 1e-6 || Math.abs(p.T - pts[k - 1].T) > 1e-3);
    lines.push({ ordered, disordered, points: orderPolyline(pts) });
  }
  return lines;
}
