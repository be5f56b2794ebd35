// Order/disorder in binary diagrams: the disordered state of an ordered phase gets its own label, and
// the second-order (continuous) transition lines between the two states are followed (order-lines.ts).
//
// An ordered phase modelled with a disordered part (TDB DIS_PART / the same phase name in both states,
// e.g. BCC_B2 over BCC_A2; Dupin, Ansara and Sundman, Calphad 25 (2001) 279) is one Gibbs-energy
// surface; its state is read from the site fractions: equal fractions on the sublattices that share
// their constituents (the ones the disordered part merges into its quasi-fractions) = disordered. With
// phase_scope 'all', every phase with such equivalent sublattices is checked, not only DIS_PART ones.
import { baseName } from '../../contract/phases.js';
import { PhaseModel, type SiteVariable } from '../core/models.js';
import type { NativeDatabase } from '../core/native.js';
import type { OrderDisorderOptions } from './binary-types.js';

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
