// Phase transitions along a scan path: where the set of stable phases changes between two neighbouring points,
// the path parameter is bisected until the bracket is within T_TOL in temperature and X_TOL in every mole fraction.
import { type ScanPath, stateAt, conditionsAt } from './scan-path.js';
import { threadsFor, type SolveSpeed } from './chunked-scan.js';
import { type StructureOf, relabelCompositionSets, phaseSetKey, SET_JUMP, setJump } from './composition-sets.js';
import { type CalcSystem } from '../system/system.js';
import {
  equilibrium,
  equilibriumBatch,
  type EquilibriumConditions,
  type EquilibriumResult,
} from '../core/equilibrium.js';
import { type OrderingChange, type Transition } from '../../contract/results/line_calculation.js';
import { CONTROL_BYTES, CancelledError, type JobControl } from '../protocol.js';
import { DisorderedSetNames } from '../system/disordered-sets.js';
/** A transition as this module makes it: bracket widths, kind and ordering changes always present. */
export type RefinedTransition = Required<Transition>;

/** Refinement tolerances of a transition: 0.01 K and 1e-5 in mole fraction. */
export const T_TOL = 0.01;
export const X_TOL = 1e-5;

/** Bracket widths of [a, b] on the path: |dT| and the largest |dx|. */
function widths(path: ScanPath, a: number, b: number): { dT: number; dx: number } {
  const d = Math.abs(b - a);
  let dx = 0;
  for (const k of Object.keys(path.full0)) dx = Math.max(dx, Math.abs(path.full1[k] - path.full0[k]) * d);
  return { dT: Math.abs(path.T1 - path.T0) * d, dx };
}

function labelsOf(r: EquilibriumResult): string[] {
  return r.phases.map((p) => (p.setNumber > 1 ? `${p.name}#${p.setNumber}` : p.name)).sort();
}

export interface RefineOptions {
  sys: Pick<CalcSystem, 'db' | 'components' | 'phases'>;
  /** speed measured by the scan (threads for the small refinement batches) */
  speed?: SolveSpeed;
  threads: number;
  control: JobControl;
  derivatives?: string[];
  /**
   * Ordered/disordered structure of a set (PointConverter.ordering): order-disorder transitions are located
   * too, and composition sets keep their identity by structure as well as composition.
   */
  structureOf?: StructureOf;
}

/** An active bracket: converged results at s = a and s = b with different phase sets. */
interface Bracket {
  a: number;
  b: number;
  ra: EquilibriumResult;
  rb: EquilibriumResult;
  rounds: number;
}

const MAX_ROUNDS = 60;

/** A change of the phase set, or of the composition sets of the same phases (a set jumps: setJump). */
type Differ = (ra: EquilibriumResult, rb: EquilibriumResult) => boolean;

/**
 * Locates every phase-set change between neighbouring scan results by bisection on s, all brackets of
 * a round in one batch. A third phase set met inside a bracket splits it, so two transitions closer
 * than the scan spacing are both found (a region entered and left again between two scan points with
 * the same phase set is not seen: the scan spacing bounds what a line can resolve). Non-converged
 * interior points are not used as bracket ends.
 */
export function refineTransitions(
  path: ScanPath,
  s: number[],
  results: EquilibriumResult[],
  o: RefineOptions,
  edges?: { s: number; r: EquilibriumResult }[],
): RefinedTransition[] {
  const key = (r: EquilibriumResult) => phaseSetKey(r, o.structureOf);
  const differ: Differ = (ra, rb) => key(ra) !== key(rb) || setJump(ra, rb) > SET_JUMP;
  // one name for a disordered state that several ordered phases describe, at the scan points and in the brackets
  const names = new DisorderedSetNames(o.sys.db, o.sys.components, o.sys.phases);
  for (const r of results) names.apply(r);
  const conv = results.map((r, i) => ({ r, s: s[i] })).filter((q) => q.r.converged);
  let active: Bracket[] = [];
  for (let i = 0; i + 1 < conv.length; i++) {
    if (differ(conv[i].r, conv[i + 1].r))
      active.push({ a: conv[i].s, b: conv[i + 1].s, ra: conv[i].r, rb: conv[i + 1].r, rounds: 0 });
  }
  const done: Bracket[] = [];
  const unrefined = new Set<Bracket>();
  // a private control block: the job's cancel flag is checked between rounds (each round is a few
  // equilibria), and the task's progress is not overwritten by the short refinement batches
  o.control.setProgress(0.9);
  const ctl = new SharedArrayBuffer(CONTROL_BYTES);
  while (active.length) {
    if (o.control.cancelled) throw new CancelledError();
    const next: Bracket[] = [];
    for (const br of active) {
      const w = widths(path, br.a, br.b);
      if ((w.dT <= T_TOL && w.dx <= X_TOL) || br.rounds >= MAX_ROUNDS || Math.abs(br.b - br.a) < 1e-13) {
        if (!(w.dT <= T_TOL && w.dx <= X_TOL)) unrefined.add(br);
        done.push(br);
      } else next.push(br);
    }
    active = next;
    if (!active.length) break;
    active = bisectionRound(path, active, { ...o, names }, ctl, differ, { done, unrefined });
  }
  done.sort((x, y) => x.a - y.a);
  // the final bracket ends: the states just before and just after each transition (for the preview)
  if (edges) for (const br of done) edges.push({ s: br.a, r: br.ra }, { s: br.b, r: br.rb });
  // one numbering of the composition sets along the whole line, bracket ends included, so that the labels of
  // a transition are those of the scan points on either side
  const along = [
    ...results.map((r, i) => ({ s: s[i], r })),
    ...done.flatMap((br) => [
      { s: br.a, r: br.ra },
      { s: br.b, r: br.rb },
    ]),
  ];
  const jumps = new Set(done.filter((br) => key(br.ra) === key(br.rb)).map((br) => br.rb));
  relabelCompositionSets(
    along.sort((x, y) => x.s - y.s).map((q) => q.r),
    o.structureOf,
    jumps,
  );
  return done.map((br) => transitionOf(path, br, !unrefined.has(br), o.structureOf));
}

/**
 * One round of the refinement: the brackets' interior points solved together, and the brackets they leave
 * (a bracket whose interior points all fail goes to `ended.done` and `ended.unrefined`).
 */
function bisectionRound(
  path: ScanPath,
  active: Bracket[],
  o: RefineOptions & { names: DisorderedSetNames },
  ctl: SharedArrayBuffer,
  differ: Differ,
  ended: { done: Bracket[]; unrefined: Set<Bracket> },
): Bracket[] {
  // Bisection (the fewest equilibria); the brackets of one round run together. When the equilibria are
  // slow and the brackets fewer than the threads, each bracket gets one point per idle thread instead
  // (k-section in the same wall time as a bisection step).
  const slow = (o.speed?.msPerEq ?? 0) >= 2;
  const k = slow && active.length < o.threads ? Math.ceil(o.threads / active.length) : 1;
  const conds: EquilibriumConditions[] = [];
  const where: { br: Bracket; s: number[] }[] = [];
  for (const br of active) {
    const ss = Array.from({ length: k }, (_, j) => br.a + ((br.b - br.a) * (j + 1)) / (k + 1));
    where.push({ br, s: ss });
    for (const v of ss) conds.push(conditionsAt(path, v));
  }
  const rs = solveInterior(
    where.map((w) => w.br),
    conds,
    k,
    o,
    ctl,
  ).map((r) => o.names.apply(r));
  let idx = 0;
  const after: Bracket[] = [];
  for (const { br, s: ss } of where) {
    const chain = [{ s: br.a, r: br.ra }];
    for (const v of ss) {
      const r = rs[idx++];
      if (r.converged) chain.push({ s: v, r });
    }
    chain.push({ s: br.b, r: br.rb });
    // every interior point failed to converge: the bracket cannot be narrowed (reported refined:false)
    if (chain.length === 2) {
      ended.unrefined.add(br);
      ended.done.push(br);
      continue;
    }
    for (let j = 0; j + 1 < chain.length; j++) {
      if (differ(chain[j].r, chain[j + 1].r)) {
        after.push({ a: chain[j].s, b: chain[j + 1].s, ra: chain[j].r, rb: chain[j + 1].r, rounds: br.rounds + 1 });
      }
    }
  }
  return after;
}

/** The equilibria of a round's interior points `conds`, `k` per bracket of `brackets`, in order. */
function solveInterior(
  brackets: Bracket[],
  conds: EquilibriumConditions[],
  k: number,
  o: RefineOptions,
  ctl: SharedArrayBuffer,
): EquilibriumResult[] {
  const used = threadsFor(conds.length, o.threads, o.speed?.msPerEq);
  const derivatives = o.derivatives ? { derivatives: o.derivatives } : {};
  // On one thread each midpoint starts from its bracket's lower end (a warm start; a batch would start
  // every midpoint from the hull, which costs a multicomponent system several warm solves); the
  // solver still certifies each answer against its grid. Not across an ordering change of one phase: near
  // a second-order transition Newton from the ordered state stays ordered past where the cold solve
  // (and a point calculation) finds the disordered state.
  const warmFrom = (br: Bracket) => br.ra.converged && phaseSetKey(br.ra) !== phaseSetKey(br.rb);
  if (used === 1 && k === 1)
    return brackets.map((br, j) =>
      equilibrium({
        database: o.sys.db,
        components: o.sys.components,
        phases: o.sys.phases,
        conditions: conds[j],
        options: { ...derivatives, ...(warmFrom(br) ? { start: br.ra } : {}) },
      }),
    );
  return equilibriumBatch({
    database: o.sys.db,
    components: o.sys.components,
    phases: o.sys.phases,
    conditions: conds,
    threads: used,
    control: ctl,
    options: o.derivatives ? { derivatives: o.derivatives } : undefined,
  });
}

/** The transition of a final bracket: its middle, the phases on both sides, its widths and ordering changes. */
function transitionOf(path: ScanPath, br: Bracket, refined: boolean, structureOf?: StructureOf): RefinedTransition {
  const before = labelsOf(br.ra),
    afterL = labelsOf(br.rb);
  const sm = (br.a + br.b) / 2;
  const st = stateAt(path, sm);
  const w = widths(path, br.a, br.b);
  const ordering = structureOf ? orderingChanges(br, structureOf) : [];
  const appearing = afterL.filter((l) => !before.includes(l));
  const disappearing = before.filter((l) => !afterL.includes(l));
  const structures: Record<string, string> = {};
  if (structureOf) {
    for (const [r, labels] of [
      [br.ra, disappearing],
      [br.rb, appearing],
    ] as const) {
      for (const p of r.phases) {
        const l = labelsOf({ ...r, phases: [p] })[0];
        const st = structureOf(p);
        if (st !== undefined && labels.includes(l)) structures[l] = st;
      }
    }
  }
  return {
    s: sm,
    T: st.T,
    x: st.x,
    appearing,
    disappearing,
    phases_before: before,
    phases_after: afterL,
    dT: w.dT,
    dx: w.dx,
    refined,
    kind:
      appearing.length === 0 && disappearing.length === 0 && ordering.length > 0 ? 'order_disorder' : 'phase_change',
    ordering_changes: ordering,
    structures,
  };
}

/** The sets of the bracket's lower end whose structure (ordered or disordered) differs at its upper end. */
function orderingChanges(br: Bracket, structureOf: StructureOf): OrderingChange[] {
  const ordering: OrderingChange[] = [];
  for (const pa of br.ra.phases) {
    const pb = br.rb.phases.find((q) => q.name === pa.name && q.setNumber === pa.setNumber);
    const sa = structureOf(pa),
      sb = pb ? structureOf(pb) : undefined;
    if (pb && sa !== undefined && sb !== undefined && sa !== sb)
      ordering.push({ phase: labelsOf({ ...br.ra, phases: [pa] })[0], before: sa, after: sb });
  }
  return ordering;
}
