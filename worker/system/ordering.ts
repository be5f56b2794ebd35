// Whether a composition set of a phase with an order-disorder description is ordered, and the name a
// metallurgist gives it (Strukturbericht symbol: A2 / B2 / D03 / L21 / B32 on the BCC lattice, A1 / L12 / L10
// on FCC, A3 / D019 on HCP).
//
// The partitioned order-disorder model (Ansara, Dupin, Lukas, Sundman, J. Alloys Compd. 247 (1997) 20; Dupin,
// Ansara, Sundman, CALPHAD 25 (2001) 279) describes the ordered and the disordered states of a lattice by one
// phase whose sublattices are crystallographically equivalent when the phase is disordered: the state is
// disordered exactly when the equivalent sublattices carry the same site fractions. Which sublattices are
// equivalent is read from the phase itself: the mixing sublattices with the same constituents and the same
// site ratio. On the four-sublattice BCC model (Sundman et al., Acta Mater. 57 (2009) 2896, the Al-Fe
// assessment) sublattices 1-2 and 3-4 are pairs of next-nearest neighbours: B2 keeps each pair equal, D03
// leaves three sublattices equal, L21 splits one pair. On the FCC tetrahedron all four are equivalent
// (Kusoffsky, Dupin, Sundman, CALPHAD 25 (2001) 549): L12 = three equal, L10 = two and two.
import type { NativePhaseInfo } from '../core/native.js';

/**
 * Two sublattices count as equal when no constituent's long-range order parameter (Bragg-Williams: its site-fraction
 * difference as a share of the largest difference its mean fraction allows, see differenceTolerance) exceeds this.
 * The solver converges site fractions to ~1e-10, and near a second-order transition the order parameter grows like
 * sqrt(Tc - T), so a state ordered by 1e-4 lies within ~1e-8 Tc of the transition: the threshold moves a
 * reported transition temperature by far less than the 0.01 K to which transitions are refined.
 */
export const ORDER_TOLERANCE = 1e-4;
/**
 * Site-fraction differences below this never count: the rounding of a majority constituent's 1 - x (1e-16) and the
 * solver's residual on a symmetric model's disordered set next to an element (< 1e-20) lie far below it.
 */
export const ORDER_FLOOR = 1e-12;

/**
 * The largest difference of one constituent's site fractions on two equivalent sublattices that still counts as
 * equal, for its mean fraction `mean` over them: `tol` times the largest difference that mean allows
 * (2 min(mean, 1 - mean), all of it on one sublattice), so the order parameter is judged relative to the
 * composition. An absolute tolerance calls the same state disordered within ~tol of an element and ordered beyond:
 * where the sublattices are not equivalent in a system (COST507's BCC_B2 in Nb-Ti: G(TI:NB) = 11000 J/mol with no
 * NB:TI counterpart), the order is induced at every composition, in proportion to the dilute constituent next to
 * either element, with no transition anywhere, and a label switching 1e-4 from the element drew second-order lines
 * along both edges. A symmetric model has no order at all next to an element (there the disordered set, a stationary
 * point by symmetry, is the minimum).
 */
export function differenceTolerance(mean: number, tol = ORDER_TOLERANCE): number {
  return Math.max(ORDER_FLOOR, tol * Math.min(1, 2 * Math.min(mean, 1 - mean)));
}
/** Relative part of the tolerance for an ordered set (see equalClasses). */
export const ORDER_RELATIVE_TOLERANCE = 0.02;

export type Lattice = 'BCC' | 'FCC' | 'HCP';

export interface OrderingModel {
  phase: string;
  lattice: Lattice | null;
  /** indices of the equivalent (ordering) sublattices, in TDB order */
  sublattices: number[];
  /** site ratio of each of those sublattices */
  ratios: number[];
}

export type { OrderingState } from '../../contract/results/common.js';
import type { OrderingState } from '../../contract/results/common.js';

function latticeOf(names: string[]): Lattice | null {
  for (const raw of names) {
    const n = raw.toUpperCase();
    if (/BCC|(^|_)(A2|B2|D03|L21)($|_)/.test(n)) return 'BCC';
    if (/FCC|(^|_)(A1|L12|L10)($|_)/.test(n)) return 'FCC';
    if (/HCP|(^|_)(A3|D019)($|_)/.test(n)) return 'HCP';
  }
  return null;
}

/**
 * The ordering sublattices of a phase, or null when the phase has no order-disorder description: it needs a
 * DIS_PART, a symmetry option (B or F, four-sublattice models) or a lattice name (BCC, FCC, HCP, B2, L12, ...),
 * and at least two mixing sublattices with the same constituents and site ratio.
 */
export function orderingModelOf(
  phase: Pick<NativePhaseInfo, 'name' | 'options' | 'siteRatios' | 'constituents' | 'disorderedPart'>,
): OrderingModel | null {
  const lattice = latticeOf([phase.disorderedPart, phase.name].filter((s) => s.length > 0));
  const described = phase.disorderedPart.length > 0 || /[BF]/.test(phase.options) || lattice !== null;
  if (!described) return null;
  const key = (s: number) => `${phase.siteRatios[s]}|${[...phase.constituents[s]].sort().join(',')}`;
  const groups = new Map<string, number[]>();
  phase.constituents.forEach((c, s) => {
    if (c.length < 2) return;
    const g = groups.get(key(s)) ?? [];
    g.push(s);
    groups.set(key(s), g);
  });
  let best: number[] = [];
  for (const g of groups.values()) if (g.length > best.length) best = g;
  // a 3:1 ordered phase on two sublattices (L12 as 0.75 + 0.25) has different ratios but one set of constituents
  if (best.length < 2) {
    const byConstituents = new Map<string, number[]>();
    phase.constituents.forEach((c, s) => {
      if (c.length < 2) return;
      const k = [...c].sort().join(',');
      byConstituents.set(k, [...(byConstituents.get(k) ?? []), s]);
    });
    for (const g of byConstituents.values()) if (g.length > best.length) best = g;
  }
  if (best.length < 2) return null;
  return {
    phase: phase.name,
    lattice: lattice ?? (/F/.test(phase.options) ? 'FCC' : /B/.test(phase.options) ? 'BCC' : null),
    sublattices: best,
    ratios: best.map((s) => phase.siteRatios[s]),
  };
}

/** Equal sublattices: every constituent within differenceTolerance of its mean, or within `spreadTol`. */
function sameFractions(a: Record<string, number>, b: Record<string, number>, tol: number, spreadTol: number): boolean {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const ya = a[k] ?? 0,
      yb = b[k] ?? 0;
    if (Math.abs(ya - yb) > Math.max(spreadTol, differenceTolerance((ya + yb) / 2, tol))) return false;
  }
  return true;
}

export function maxDifference(a: Record<string, number>, b: Record<string, number>): number {
  let d = 0;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) d = Math.max(d, Math.abs((a[k] ?? 0) - (b[k] ?? 0)));
  return d;
}

/**
 * Classes of equal sublattices (positions within model.sublattices), each class sorted. Once a set is ordered,
 * sublattices that differ by less than ORDER_RELATIVE_TOLERANCE of the largest difference count as equal: the
 * energy is flat in the directions that keep the ordering pattern, so symmetry-equivalent sublattices of an
 * ordered state converge less tightly (alnifcc4sl, 1223.5 K: L10 pairs 0.0418 / 0.0416 beside 0.0103 / 0.0104).
 */
export function equalClasses(y: Record<string, number>[], tol: number): number[][] {
  let spread = 0;
  for (let i = 0; i < y.length; i++)
    for (let j = i + 1; j < y.length; j++) spread = Math.max(spread, maxDifference(y[i], y[j]));
  const spreadTol = ORDER_RELATIVE_TOLERANCE * spread;
  const classes: number[][] = [];
  y.forEach((fr, i) => {
    const c = classes.find((cl) => sameFractions(y[cl[0]], fr, tol, spreadTol));
    if (c) c.push(i);
    else classes.push([i]);
  });
  return classes;
}

const DISORDERED: Record<Lattice, string> = { BCC: 'A2', FCC: 'A1', HCP: 'A3' };

function majority(fr: Record<string, number>): string {
  let best = '',
    v = -1;
  for (const [k, f] of Object.entries(fr))
    if (f > v) {
      v = f;
      best = k;
    }
  return best;
}

function orderedStructure(m: OrderingModel, classes: number[][], y: Record<string, number>[]): string {
  const n = m.sublattices.length;
  const sizes = classes
    .map((c) => c.length)
    .sort((a, b) => b - a)
    .join(',');
  if (n === 2) {
    const [r0, r1] = m.ratios;
    const third = Math.abs(Math.max(r0, r1) / Math.min(r0, r1) - 3) < 1e-9;
    const equal = Math.abs(r0 - r1) < 1e-12;
    if (m.lattice === 'BCC' && equal) return 'B2';
    if (m.lattice === 'FCC' && third) return 'L12';
    if (m.lattice === 'FCC' && equal) return 'L10';
    if (m.lattice === 'HCP' && third) return 'D019';
    return 'ordered';
  }
  if (n === 4 && m.ratios.every((r) => Math.abs(r - m.ratios[0]) < 1e-12)) {
    if (m.lattice === 'FCC') return sizes === '3,1' ? 'L12' : sizes === '2,2' ? 'L10' : 'ordered';
    if (m.lattice === 'BCC') {
      const pairKept = (a: number, b: number) => classes.some((c) => c.includes(a) && c.includes(b));
      if (sizes === '2,2') return pairKept(0, 1) && pairKept(2, 3) ? 'B2' : 'B32';
      if (sizes === '3,1') return 'D03';
      if (sizes === '2,1,1' && (pairKept(0, 1) || pairKept(2, 3))) {
        // Fe3Al (D03) and Cu2MnAl (L21) share this pattern: one pair equal, the other split. In D03 one of the
        // split sublattices holds the pair's majority element (Fe on 4b beside Fe on 8c); L21 has three.
        const pair = classes.find((c) => c.length === 2)!;
        const majors = new Set([
          majority(y[pair[0]]),
          ...classes.filter((c) => c.length === 1).map((c) => majority(y[c[0]])),
        ]);
        return majors.size === 3 ? 'L21' : 'D03';
      }
    }
  }
  return 'ordered';
}

/** Ordered or not, and the structure's name, from the site fractions (one map per sublattice, TDB order). */
export function classifyOrdering(
  m: OrderingModel,
  siteFractions: Record<string, number>[],
  tol = ORDER_TOLERANCE,
): OrderingState {
  const y = m.sublattices.map((s) => siteFractions[s] ?? {});
  const classes = equalClasses(y, tol);
  const ordered = classes.length > 1;
  const structure = ordered ? orderedStructure(m, classes, y) : m.lattice ? DISORDERED[m.lattice] : 'disordered';
  const label =
    structure === 'ordered' || structure === 'disordered' ? `${m.phase} (${structure})` : `${structure} (${m.phase})`;
  return { ordered, structure, label };
}
