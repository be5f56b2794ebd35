// From the traced regions of a binary to the diagram's points: invariants (assembled from the region ends
// that meet at one temperature and classified from which phase lies between in composition and on which
// side the outer two-phase field is), critical points of miscibility gaps, congruent points, pure-element
// transitions, and the meeting points of second-order lines with two-phase fields.
import { baseName, isLiquidName } from '../../contract/phases.js';
import type { InvariantKind, InvariantRecord, TieLine } from '../../contract/results/binary_equilibrium.js';
import {
  MERGE_T,
  MIN_STEP,
  SAME_X,
  type BinaryDiagram,
  type BinaryRegion,
  type PhaseState,
  type SecondOrderPoint,
  type TracedRegion,
} from './binary-types.js';
import type { OrderModel } from './order-disorder.js';
import { labelPhases } from './phase-labels.js';

/** A two-phase field seen next to an invariant: its boundaries, its phases and the side it lies on. */
export interface InvariantFact {
  xs: [number, number];
  /** the base names of its phases, when known */
  bases?: [string, string];
  /** -1 = the field lies below the invariant, +1 = above */
  side: 1 | -1;
}

/** A region end that is one side of an invariant: its three phases (by x) and the two-phase fields seen. */
export interface InvariantEnd {
  T: number;
  phases: { base: string; x: number }[];
  /** side: -1 = the two-phase field lies below the invariant, +1 = above */
  facts: InvariantFact[];
  region: number;
  dir: 1 | -1;
}

/** A region end where the tie-line collapses at a congruent point (one of the two sides of the point). */
export interface CongruentEnd {
  region: number;
  dir: 1 | -1;
  T: number;
  x: number;
  pair: string;
}

export interface DiagramPoints {
  regions: BinaryRegion[];
  invariants: InvariantRecord[];
  criticalPoints: BinaryDiagram['criticalPoints'];
  congruentPoints: BinaryDiagram['congruentPoints'];
  tricriticalPoints: BinaryDiagram['tricriticalPoints'];
  pureTransitions: BinaryDiagram['pureTransitions'];
}

/**
 * The three phases of an invariant from a region end: the last tie-line's two and the new one of the
 * state beyond (a phase of the far side is new unless the same phase lies at that composition: the three
 * phases of an invariant can lie closer than SAME_X, e.g. delta and gamma Fe at the C-Fe peritectic).
 */
/** Composition distance from an element below which an invariant's phase lies at the element. */
const DEGENERATE_EDGE_X = 1e-4;

export function invariantPhases(
  labels: readonly [string, string],
  good: readonly [number, number],
  beyond: readonly { base: string; x: number }[],
): { base: string; x: number }[] {
  const ph: { base: string; x: number }[] = [
    { base: baseName(labels[0]), x: good[0] },
    { base: baseName(labels[1]), x: good[1] },
  ];
  for (const p of beyond)
    if (!ph.some((q) => q.base === p.base && Math.abs(q.x - p.x) < SAME_X)) ph.push({ base: p.base, x: p.x });
  return ph;
}

/**
 * The output regions (tie-lines closed where they collapse) and the diagram's points from the traced
 * regions. The meeting points of second-order lines with two-phase fields are appended to `secondOrder`.
 */
export function assembleDiagram(
  traced: readonly TracedRegion[],
  order: Pick<OrderModel, 'isOrderPair' | 'isOrdered'>,
  secondOrder: SecondOrderPoint[],
  log: (s: string) => void,
): DiagramPoints {
  const criticalPoints: BinaryDiagram['criticalPoints'] = [];
  const tricriticalPoints: BinaryDiagram['tricriticalPoints'] = [];
  const pureTransitions: BinaryDiagram['pureTransitions'] = [];
  const congruentEnds: CongruentEnd[] = [];
  const cands: InvariantEnd[] = [];
  const outRegions: BinaryRegion[] = [];
  for (const r of traced) {
    const lowEnd = r.ends.find((e) => e.dir === -1)!,
      highEnd = r.ends.find((e) => e.dir === 1)!;
    const leftBase = baseName(r.labels[0]),
      rightBase = baseName(r.labels[1]);
    const endKinds = { low: lowEnd.kind, high: highEnd.kind };
    for (const e of r.ends) {
      const mid = (e.good.x[0] + e.good.x[1]) / 2;
      if (e.kind === 'congruent') {
        if (leftBase === rightBase && order.isOrdered(leftBase)) {
          // two ordered states of one phase (B2 + D03) meeting: the field closes on an ordering line
          endKinds[e.dir === 1 ? 'high' : 'low'] = 'tricritical';
          tricriticalPoints.push({ phases: [r.labels[0], r.labels[1]], T: e.T, x: mid });
        } else if (leftBase === rightBase) {
          endKinds[e.dir === 1 ? 'high' : 'low'] = 'critical';
          criticalPoints.push({ phase: leftBase, T: e.T, x: mid });
        } else {
          congruentEnds.push({
            region: outRegions.length,
            dir: e.dir,
            T: e.T,
            x: mid,
            pair: [leftBase, rightBase].sort().join('+'),
          });
        }
      } else if (e.kind === 'pure_element') {
        pureTransitions.push({ phases: [leftBase, rightBase], T: e.T, x: mid < 0.5 ? 0 : 1 });
      } else if (e.kind === 'invariant' && e.bad) {
        // union of the last tie-line and the phases beyond (within 0.01 K)
        const ph = invariantPhases(r.labels, e.good.x, e.bad.phases);
        const facts: InvariantFact[] = [{ xs: e.good.x, bases: [leftBase, rightBase], side: e.dir === 1 ? -1 : 1 }];
        if (e.bad.phases.length === 2)
          facts.push({
            xs: [e.bad.phases[0].x, e.bad.phases[1].x],
            bases: [e.bad.phases[0].base, e.bad.phases[1].base],
            side: e.dir === 1 ? 1 : -1,
          });
        // two of the three being the ordered and disordered state of one phase at (nearly) one
        // composition: a second-order ordering line meets this two-phase field, not an invariant
        const ordPair =
          ph.length === 3
            ? ph
                .flatMap((a, i) => ph.slice(i + 1).map((b) => [a, b] as const))
                .find(([a, b]) => order.isOrderPair(a.base, b.base) && Math.abs(a.x - b.x) < 2 * SAME_X)
            : undefined;
        if (ordPair) {
          const [a, b] = ordPair;
          const ord = order.isOrdered(a.base) ? a : b,
            dis = ord === a ? b : a;
          secondOrder.push({ ordered: ord.base, disordered: dis.base, T: e.T, x: (a.x + b.x) / 2 });
          if (e.dir === 1) endKinds.high = 'order_disorder';
          else endKinds.low = 'order_disorder';
        } else if (ph.length === 3)
          cands.push({ T: e.T, phases: ph.sort((a, b) => a.x - b.x), facts, region: outRegions.length, dir: e.dir });
        else {
          log(
            `region ${r.labels.join('+')} ends at T=${e.T.toFixed(2)} K next to ${e.bad.key}: not a three-phase invariant`,
          );
          if (e.dir === 1) endKinds.high = 'unresolved';
          else endKinds.low = 'unresolved';
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
      if (e.dir === 1) tls.push({ T: e.T, x: [x, x] });
      else tls.unshift({ T: e.T, x: [x, x] });
    }
    outRegions.push({ phases: r.labels, tielines: tls, ends: endKinds });
  }
  const congruentPoints: BinaryDiagram['congruentPoints'] = [];
  for (const p of mergeCongruentEnds(congruentEnds, outRegions)) {
    // The field between the ordered and the disordered state of one phase closing from one side only is a
    // tricritical point: the transition goes on as a second-order line beyond it (Allen and Cahn, Acta
    // Metall. 24 (1976) 425). Closed from both sides it is a congruent (first-order) ordering maximum.
    if (p.sides === 1 && order.isOrderPair(p.phases[0], p.phases[1])) {
      for (const c of p.ends) outRegions[c.region].ends[c.dir === 1 ? 'high' : 'low'] = 'tricritical';
      const ordered = order.isOrdered(p.phases[0]) ? 0 : 1;
      tricriticalPoints.push({ phases: [p.phases[ordered], p.phases[1 - ordered]], T: p.T, x: p.x });
    } else congruentPoints.push({ phases: p.phases, T: p.T, x: p.x });
  }
  const invariants = mergeInvariantEnds(cands, outRegions, log);
  // An invariant with two phases at the pure element (the solute dissolves in neither: Si in the eutectic of C-Si,
  // Li in the peritectic of Cu-Li) is the element's own transition too, degenerate with the invariant: the lens
  // between them is narrower in T than the invariant can be told from the element's transition.
  for (const v of invariants) {
    for (const edge of [0, 1] as const) {
      const atEdge = v.phases.filter((p) => Math.abs(p.x - edge) <= DEGENERATE_EDGE_X);
      if (atEdge.length !== 2 || atEdge[0].name === atEdge[1].name) continue;
      if (pureTransitions.some((t) => t.x === edge && Math.abs(t.T - v.T) < 0.5)) continue;
      pureTransitions.push({ phases: [atEdge[0].name, atEdge[1].name], T: v.T, x: edge });
    }
  }
  dedupePoints(criticalPoints, (a, b) => a.phase === b.phase);
  dedupePoints(
    congruentPoints,
    (a, b) => a.phases.join() === b.phases.join() || a.phases.join() === [...b.phases].reverse().join(),
  );
  dedupePoints(tricriticalPoints, (a, b) => new Set([...a.phases, ...b.phases].map(baseName)).size <= 2);
  dedupePoints(pureTransitions, (a, b) => a.x === b.x && new Set([...a.phases, ...b.phases]).size === 2);
  return { regions: outRegions, invariants, criticalPoints, congruentPoints, tricriticalPoints, pureTransitions };
}

/** A congruent point with the region ends it closes and the number of regions (sides) that reach it. */
export interface MergedCongruentPoint {
  phases: [string, string];
  T: number;
  x: number;
  sides: number;
  ends: CongruentEnd[];
}

/**
 * A congruent point ends two regions, one on each side of it in x (traced separately, each end located
 * to MIN_STEP): both close at the one point, at the mean of the ends' temperatures and compositions (on
 * each side the last tie-line lies wholly on that side of the point, so the mean is the closer estimate;
 * near the point both boundaries go as sqrt(|T - Tc|), so 0.01 K from it the two sides can still be 0.02
 * apart in x: ends of one pair within 0.1 K and 0.05 in x are one point). The regions' tie-lines are
 * closed at the point.
 */
export function mergeCongruentEnds(ends: readonly CongruentEnd[], regions: BinaryRegion[]): MergedCongruentPoint[] {
  const points: MergedCongruentPoint[] = [];
  const used = new Array<boolean>(ends.length).fill(false);
  for (let i = 0; i < ends.length; i++) {
    if (used[i]) continue;
    const group = [ends[i]];
    used[i] = true;
    for (let j = i + 1; j < ends.length; j++) {
      const a = ends[i],
        b = ends[j];
      if (!used[j] && a.pair === b.pair && Math.abs(a.T - b.T) < 0.1 && Math.abs(a.x - b.x) < 5 * SAME_X) {
        group.push(b);
        used[j] = true;
      }
    }
    const T = group.reduce((a, c) => a + c.T, 0) / group.length;
    const x = group.reduce((a, c) => a + c.x, 0) / group.length;
    const r0 = regions[group[0].region];
    points.push({
      phases: [baseName(r0.phases[0]), baseName(r0.phases[1])],
      T,
      x,
      sides: new Set(group.map((c) => c.region)).size,
      ends: group,
    });
    for (const c of group) {
      const tls = regions[c.region].tielines;
      if (c.dir === 1) tls.push({ T, x: [x, x] });
      else tls.unshift({ T, x: [x, x] });
    }
  }
  return points;
}

/**
 * Invariants from the region ends that are sides of one: ends of the same three phases at the same
 * compositions (2 SAME_X) within MERGE_T are one invariant. Three phases coexist at one temperature only
 * (F = 0), so they are one even when they disagree in T: that happens where the solver returns a state
 * just beyond the invariant as stable at some compositions (a global-minimum miss of ~0.1 J/mol, e.g.
 * L + gamma 1 K under the gamma' + gamma eutectic of alnifcc4sl). The invariant takes the median of the
 * ends' temperatures, and a field traced beyond it is cut there, so no two two-phase fields overlap; a field
 * traced across it as one region is cut in two (splitAcross). Sorted from the highest temperature down.
 */
export function mergeInvariantEnds(
  cands: readonly InvariantEnd[],
  regions: BinaryRegion[],
  log: (s: string) => void,
): InvariantRecord[] {
  const invariants: InvariantRecord[] = [];
  const across: { T: number; ph: { base: string; x: number }[]; facts: InvariantFact[] }[] = [];
  const used = new Array<boolean>(cands.length).fill(false);
  for (let i = 0; i < cands.length; i++) {
    if (used[i]) continue;
    const group = [cands[i]];
    used[i] = true;
    for (let j = i + 1; j < cands.length; j++) {
      if (used[j] || Math.abs(cands[j].T - cands[i].T) > MERGE_T) continue;
      const aligned = alignPhases(cands[i].phases, cands[j].phases);
      if (aligned) {
        group.push({ ...cands[j], phases: aligned });
        used[j] = true;
      }
    }
    const Ts = group.map((c) => c.T).sort((a, b) => a - b);
    const T = Ts.length % 2 ? Ts[(Ts.length - 1) / 2] : (Ts[Ts.length / 2 - 1] + Ts[Ts.length / 2]) / 2;
    if (Ts[Ts.length - 1] - Ts[0] > 0.1) {
      log(
        `invariant ${group[0].phases.map((p) => p.base).join(' + ')}: its region ends lie at ${Ts.map((v) => v.toFixed(2)).join(', ')} K; taken as one at ${T.toFixed(2)} K`,
      );
      for (const c of group) {
        const beyond = c.dir === -1 ? c.T < T - MIN_STEP : c.T > T + MIN_STEP;
        if (beyond) regions[c.region].tielines = cutAt(regions[c.region].tielines, T, c.dir);
      }
    }
    const ph = [0, 1, 2].map((k) => ({
      base: group[0].phases[k].base,
      x: group.reduce((a, c) => a + c.phases[k].x, 0) / group.length,
    }));
    const facts = group.flatMap((c) => c.facts);
    invariants.push(classifyInvariant(T, ph, facts));
    across.push({ T, ph: [...ph].sort((a, b) => a.x - b.x), facts });
  }
  for (const v of across) splitAcross(regions, v.T, v.ph, outerSideOf(v.ph, v.facts));
  invariants.sort((a, b) => b.T - a.T);
  return invariants;
}

/**
 * Each two-phase field of an invariant ends at it (Gibbs phase rule: three phases coexist at one temperature), but
 * where a phase of the invariant splits in two sets, the field of another phase with the one set above and with the
 * other below joins at the invariant with a jump in x small enough for the trace to step over as one region (Fe-Pd
 * of mc_fe: bcc + fcc, whose fcc boundary is 0.295 above the monotectoid at 1038.65 K and 0.305 below, traced in one
 * 15 K step; fcc + liquid across the peritectic at 1601.41 K, 0.2997 above and 0.3003 below). A region with tie-lines
 * on both sides of the invariant, at its temperature within 2 SAME_X of a pair of its phases on each side (the outer
 * pair on `outerSide`, the inner pairs on the other, outerSideOf), is cut there in two, each part ending on its
 * pair's compositions.
 */
export function splitAcross(
  regions: BinaryRegion[],
  T: number,
  ph: readonly { base: string; x: number }[],
  outerSide: 1 | -1 | 0,
): void {
  if (!outerSide) return;
  const pairs = [
    [0, 2, outerSide],
    [0, 1, -outerSide],
    [1, 2, -outerSide],
  ] as const;
  for (let i = 0; i < regions.length; i++) {
    const r = regions[i];
    const below = r.tielines.filter((t) => t.T < T - MIN_STEP),
      above = r.tielines.filter((t) => t.T > T + MIN_STEP);
    if (!below.length || !above.length) continue;
    const lo = below[below.length - 1],
      hi = above[0];
    const w = (T - lo.T) / (hi.T - lo.T);
    const at = [0, 1].map((k) => lo.x[k] + w * (hi.x[k] - lo.x[k]));
    const bases = r.phases.map(baseName).sort().join('+');
    const pairOn = (side: number) =>
      pairs.find(
        ([a, b, s]) =>
          s === side &&
          [ph[a].base, ph[b].base].sort().join('+') === bases &&
          Math.abs(at[0] - ph[a].x) <= 2 * SAME_X &&
          Math.abs(at[1] - ph[b].x) <= 2 * SAME_X,
      );
    const under = pairOn(-1),
      over = pairOn(1);
    if (!under || !over) continue;
    const end = (pr: readonly [number, number, number]): TieLine => ({ T, x: [ph[pr[0]].x, ph[pr[1]].x] });
    regions.splice(
      i,
      1,
      { phases: r.phases, tielines: [...below, end(under)], ends: { low: r.ends.low, high: 'invariant' } },
      { phases: r.phases, tielines: [end(over), ...above], ends: { low: 'invariant', high: r.ends.high } },
    );
    i++;
  }
}

/**
 * The phases of `other` in the order of `ref` when both are the same three phases at the same compositions
 * (2 SAME_X), else null. Matched by name, not by position: two phases at one composition (the high- and
 * low-temperature forms of a line compound at its transition) come in either order.
 */
export function alignPhases<P extends { base: string; x: number }>(ref: readonly P[], other: readonly P[]): P[] | null {
  if (ref.length !== other.length) return null;
  const left = [...other];
  const out: P[] = [];
  for (const p of ref) {
    let best = -1;
    for (let k = 0; k < left.length; k++) {
      if (left[k].base !== p.base || Math.abs(left[k].x - p.x) >= 2 * SAME_X) continue;
      if (best < 0 || Math.abs(left[k].x - p.x) < Math.abs(left[best].x - p.x)) best = k;
    }
    if (best < 0) return null;
    out.push(left.splice(best, 1)[0]);
  }
  return out;
}

/** The tie-lines of a region cut at T: dir -1 drops those below T (its low end moves up to T), +1 those
 * above; the boundary at T is interpolated between the neighbouring tie-lines. */
export function cutAt(tl: TieLine[], T: number, dir: 1 | -1): TieLine[] {
  const keep = tl.filter((t) => (dir === -1 ? t.T > T : t.T < T));
  const inside = dir === -1 ? keep[0] : keep[keep.length - 1];
  const outside = dir === -1 ? [...tl].reverse().find((t) => t.T <= T) : tl.find((t) => t.T >= T);
  if (!inside || !outside) return tl;
  const w = inside.T !== outside.T ? (T - outside.T) / (inside.T - outside.T) : 0;
  const at: TieLine = {
    T,
    x: [outside.x[0] + w * (inside.x[0] - outside.x[0]), outside.x[1] + w * (inside.x[1] - outside.x[1])],
  };
  return dir === -1 ? [at, ...keep] : [...keep, at];
}

/** Tie-lines (sorted by T) without repeats of one temperature. */
export function dedupeT(tl: readonly TieLine[]): TieLine[] {
  const out: TieLine[] = [];
  for (const t of tl) if (!out.length || Math.abs(t.T - out[out.length - 1].T) > 1e-9) out.push(t);
  return out;
}

/** Drops each point that repeats an earlier one (within 0.1 K and 0.01 in x, and `same`). */
export function dedupePoints<P extends { T: number; x: number }>(list: P[], same: (a: P, b: P) => boolean): void {
  for (let i = list.length - 1; i >= 0; i--) {
    for (let j = 0; j < i; j++) {
      if (Math.abs(list[i].T - list[j].T) < 0.1 && Math.abs(list[i].x - list[j].x) < 0.01 && same(list[i], list[j])) {
        list.splice(i, 1);
        break;
      }
    }
  }
}

/**
 * The side (below -1, above +1, 0 unknown) of the two-phase field of the outer two of an invariant's three phases
 * (ordered in x). Each fact (a field seen on one side) is matched to the pair of the three phases it is closest to,
 * among the pairs of its own phases when it names them (two phases of an invariant can lie 1e-5 apart, where
 * compositions alone do not tell the pairs: hcp and the Co-rich fcc at the monotectoid of Co-Cu in mc_fe, 694.66 K);
 * the outer pair's side follows by majority (an inner pair lies on the other side).
 */
export function outerSideOf(ph: readonly { base: string; x: number }[], facts: readonly InvariantFact[]): 1 | -1 | 0 {
  const [p0, p1, p2] = ph;
  const pairs: [(typeof ph)[number], (typeof ph)[number], boolean][] = [
    [p0, p2, true],
    [p0, p1, false],
    [p1, p2, false],
  ];
  const samePhases = (f: InvariantFact, pr: (typeof pairs)[number]) =>
    !f.bases || [pr[0].base, pr[1].base].sort().join('+') === [...f.bases].sort().join('+');
  let vote = 0;
  for (const f of facts) {
    const own = pairs.filter((pr) => samePhases(f, pr));
    let best = pairs[0],
      err = Infinity;
    for (const pr of own.length ? own : pairs) {
      const d = Math.abs(f.xs[0] - pr[0].x) + Math.abs(f.xs[1] - pr[1].x);
      if (d < err) {
        err = d;
        best = pr;
      }
    }
    if (err > 4 * SAME_X) continue;
    vote += best[2] ? f.side : -f.side;
  }
  return vote > 0 ? 1 : vote < 0 ? -1 : 0;
}

/**
 * Kind and reaction (on cooling) of a binary invariant from the three phases ordered in x and on which
 * side (below -1 / above +1) the two-phase field of the outer phases lies.
 */
export function classifyInvariant(
  T: number,
  ph: { base: string; x: number }[],
  facts: InvariantFact[],
): InvariantRecord {
  const labelled = labelPhases(ph.map((p) => ({ ...p, NP: 0 })));
  const [p0, p1, p2] = labelled;
  const outerSide = outerSideOf(labelled, facts);
  const L = (p: PhaseState) => isLiquidName(p.base);
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
