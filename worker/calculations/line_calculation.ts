// line_calculation (service spec "task_type = line_calculation", issue 5): `points` equilibria on the
// straight line from (temperature_start, compositions_start) to (temperature_end, compositions_end),
// path parameter s = 0..1 with T and the mole fractions linear in s. The scan runs as OpenMP batches
// (worker/core/equilibriumBatch, threads = job.ompThreads) in chunks of about 150 ms, so a cancel is
// seen within a fraction of a second and the progress is monotonic (chunkedScan). Then every phase
// transition between neighbouring points (the set of stable phase labels changes, NAME#2 sets of a
// miscibility gap included) is located by bisection on s until the bracket is within 0.01 K and 1e-5
// in every mole fraction, and listed in `transitions`.
import { basename } from 'node:path';
import {
  equilibrium,
  equilibriumBatch,
  type CompositionSet,
  type EquilibriumConditions,
  type EquilibriumResult,
} from '../core/equilibrium.js';
import { phaseFractionChart } from '../plots/charts.js';
import { PointConverter, tableToCsv, writeResultFiles } from '../results/common.js';
import { buildTable, stableLabels } from '../results/outputs.js';
import { alloyTemperatures, invariantsCrossed } from '../results/alloy-temperatures.js';
import { addFurtherQuantities } from '../results/thermo-extra.js';
import {
  transitionText,
  type InvariantCrossing,
  type LineAxis,
  type LineCalculationResult,
  type LinePoint,
  type OrderingChange,
  type Transition,
} from '../results/line_calculation.js';
import { CONTROL_BYTES, CancelledError, type CalculationOutput, type JobControl, type TaskJob } from '../protocol.js';
import {
  CP_DEFINITION,
  documentBase,
  inMoleFractions,
  openSystem,
  outputNames,
  resolveCompositions,
  type CalcSystem,
} from './point_calculation.js';

export { transitionText };

/** A transition as this module makes it: bracket widths, kind and ordering changes always present. */
export type RefinedTransition = Required<Transition>;

/** Target wall time of one scan chunk, ms: the job's cancel flag is checked between chunks. */
const CHUNK_MS = 150;

/**
 * OpenMP threads for a batch of `n` equilibria of about `msPerEq` ms each (single-thread time; undefined
 * = not measured yet). A team of threads costs more than it gains when each thread gets little work
 * (measured: 2 threads on 4 Al-Zn points, 0.4 ms each, were ~15 ms per call on a loaded 2-core
 * machine, 1 thread ~2 ms), so few or cheap equilibria run on one thread.
 */
export function threadsFor(n: number, threads: number, msPerEq?: number): number {
  if (threads <= 1 || n < 2) return 1;
  if (n >= 8 * threads) return threads;
  // slow equilibria (e.g. multicomponent systems, tens of ms each): worth a team even for a few points
  if (msPerEq !== undefined && msPerEq >= 2) return Math.min(threads, Math.floor(n / 2) || 1);
  return 1;
}

/** Measured speed of the equilibria of one calculation (single-thread ms per equilibrium). */
export interface SolveSpeed {
  msPerEq?: number;
}

/**
 * The scan's equilibria in chunks of about CHUNK_MS, each with a private control block. One native
 * batch cannot return before it has converted all its results, even when cancelled (about 25 us per
 * point: 0.5 s for 20,000 points), and it writes its own 0..1 progress at byte 8 of the block it is
 * given, which would make the task's progress jump backwards between chunks. So the job's cancel
 * flag is checked between chunks (a cancel is seen within about CHUNK_MS) and the overall progress is
 * written here. The first chunk is small to measure the speed of this system.
 */
export function chunkedScan(
  sys: Pick<CalcSystem, 'db' | 'components' | 'phases'>,
  conds: EquilibriumConditions[],
  threads: number,
  control: JobControl,
  derivatives?: string[],
  progressSpan: [number, number] = [0, 0.9],
  speed: SolveSpeed = {},
): EquilibriumResult[] {
  const out: EquilibriumResult[] = [];
  const ctl = new SharedArrayBuffer(CONTROL_BYTES);
  let size = Math.min(conds.length, 2 * threads);
  while (out.length < conds.length) {
    if (control.cancelled) throw new CancelledError();
    const chunk = conds.slice(out.length, out.length + size);
    const used = threadsFor(chunk.length, threads, speed.msPerEq);
    const t0 = performance.now();
    // Neighbouring scan points: warm start (Newton from the previous point; the solver still certifies
    // every answer against its global grid and redoes a failed warm start cold).
    // The first point of a chunk continues from the last point of the chunk before (a cold start
    // costs a multicomponent system about 2.5 warm ones: the hull over every grid point).
    const last = out.length ? out[out.length - 1] : undefined;
    const rs = equilibriumBatch({
      database: sys.db,
      components: sys.components,
      phases: sys.phases,
      conditions: chunk,
      threads: used,
      control: ctl,
      options: {
        warmStart: true,
        ...(derivatives ? { derivatives } : {}),
        ...(last?.converged ? { start: last } : {}),
      },
    });
    for (const r of rs) out.push(r);
    control.setProgress(progressSpan[0] + ((progressSpan[1] - progressSpan[0]) * out.length) / conds.length);
    // single-thread-equivalent time per equilibrium, and the next chunk sized to about CHUNK_MS on all threads
    speed.msPerEq = Math.max(1e-3, ((performance.now() - t0) * used) / chunk.length);
    size = Math.max(threads, Math.min(4096, Math.floor((CHUNK_MS * threads) / speed.msPerEq)));
  }
  if (control.cancelled) throw new CancelledError();
  return out;
}

function xDistance(a: Record<string, number>, b: Record<string, number>): number {
  let d = 0;
  for (const k of Object.keys(a)) d += Math.abs(a[k] - (b[k] ?? 0));
  return d;
}

/** Injective maps of k items into m slots (k <= m), as arrays slot[i] for item i. */
function injections(k: number, m: number): number[][] {
  if (k === 0) return [[]];
  const out: number[][] = [];
  for (const rest of injections(k - 1, m)) for (let v = 0; v < m; v++) if (!rest.includes(v)) out.push([...rest, v]);
  return out;
}

/** The ordered/disordered structure of a composition set, for continuity and transition keys. */
export type StructureOf = (p: CompositionSet) => string | undefined;

/**
 * Renumbers the composition sets of every phase along a scan so that each set keeps the number of the set it
 * continues (closest composition, same ordered/disordered structure) at the previous converged point. The
 * solver numbers the sets of a miscibility gap independently at each point, which would make NP(FCC_A1) and
 * NP(FCC_A1#2) swap between neighbouring points; and where one set of a gap vanishes the survivor keeps its
 * number (Al-Zn, X(ZN)=0.4, the gap closing near 622 K: the Zn-rich set #2 survives as FCC_A1#2, and the
 * Al-rich set #1 is the one that disappears). New sets take the smallest free numbers. Phase-set changes (the
 * transitions) are keyed by the number of sets per phase and do not depend on the numbering.
 */
export function relabelCompositionSets(
  results: EquilibriumResult[],
  structureOf?: StructureOf,
  jumps?: ReadonlySet<EquilibriumResult>,
): void {
  const prev = new Map<string, { num: number; x: Record<string, number>; structure?: string }[]>();
  for (const r of results) {
    if (!r.converged) continue;
    const byName = new Map<string, CompositionSet[]>();
    for (const p of r.phases) {
      const l = byName.get(p.name) ?? [];
      l.push(p);
      byName.set(p.name, l);
    }
    for (const [name, sets] of byName) {
      const before = prev.get(name) ?? [];
      const structures = sets.map((p) => structureOf?.(p));
      const nums: number[] = new Array(sets.length).fill(0);
      if (before.length === 0 || sets.length > 5 || before.length > 5) {
        // no history: a deterministic order (richest in the first component first)
        const el = Object.keys(sets[0].x).sort()[0];
        sets
          .map((_, i) => i)
          .sort((a, b) => (sets[b].x[el] ?? 0) - (sets[a].x[el] ?? 0))
          .forEach((i, j) => {
            nums[i] = j + 1;
          });
      } else {
        // continue the closest previous sets; a change of structure (ordered <-> disordered) costs more than any
        // composition difference of a continued set
        const cost = (i: number, j: number) =>
          xDistance(sets[i].x, before[j].x) + (structures[i] !== before[j].structure ? 1 : 0);
        const k = Math.min(sets.length, before.length);
        let best = Infinity;
        let pick: { items: number[]; slots: number[] } = { items: [], slots: [] };
        // which k of the current sets continue previous ones (all of them when the count did not grow)
        const itemChoices =
          sets.length <= before.length
            ? [sets.map((_, i) => i)]
            : injections(k, sets.length)
                .map((a) => [...a].sort())
                .filter((a, i, all) => all.findIndex((b) => b.join() === a.join()) === i);
        for (const items of itemChoices) {
          for (const slots of injections(k, before.length)) {
            let c = 0;
            for (let q = 0; q < k; q++) c += cost(items[q], slots[q]);
            if (c < best - 1e-15) {
              best = c;
              pick = { items, slots };
            }
          }
        }
        // past a jump of composition sets (setJump) a set far from every previous one is a new set: it takes a
        // number none of the previous sets had, so the transition names the set that appears and the one that goes
        const jumped = jumps?.has(r) === true;
        pick.items.forEach((i, q) => {
          const prevSet = before[pick.slots[q]];
          if (!(jumped && xDistance(sets[i].x, prevSet.x) > SET_JUMP)) nums[i] = prevSet.num;
        });
        const taken = jumped ? before.map((b) => b.num) : [];
        let free = 1;
        for (let i = 0; i < sets.length; i++) {
          if (nums[i] !== 0) continue;
          while (nums.includes(free) || taken.includes(free)) free++;
          nums[i] = free;
        }
      }
      sets.forEach((p, i) => {
        p.setNumber = nums[i];
      });
      prev.set(
        name,
        sets.map((p, i) => ({ num: nums[i], x: p.x, structure: structures[i] })),
      );
    }
  }
}

/** Refinement tolerances of the issue: 0.01 K and 1e-5 in mole fraction. */
export const T_TOL = 0.01;
export const X_TOL = 1e-5;

/** The straight line of a scan: state at s in [0, 1]. */
export interface ScanPath {
  T0: number;
  T1: number;
  P: number;
  /** independent mole fractions at both ends (solver conditions) */
  X0: Record<string, number>;
  X1: Record<string, number>;
  /** all mole fractions at both ends (for reports) */
  full0: Record<string, number>;
  full1: Record<string, number>;
}

export function stateAt(
  path: ScanPath,
  s: number,
): { T: number; X: Record<string, number>; x: Record<string, number> } {
  const lerp = (a: number, b: number) => a + (b - a) * s;
  const X: Record<string, number> = {};
  for (const k of Object.keys(path.X0)) X[k] = lerp(path.X0[k], path.X1[k]);
  const x: Record<string, number> = {};
  for (const k of Object.keys(path.full0)) x[k] = lerp(path.full0[k], path.full1[k]);
  return { T: lerp(path.T0, path.T1), X, x };
}

export function conditionsAt(path: ScanPath, s: number): EquilibriumConditions {
  const st = stateAt(path, s);
  return { T: st.T, P: path.P, X: st.X };
}

/** Bracket widths of [a, b] on the path: |dT| and the largest |dx|. */
function widths(path: ScanPath, a: number, b: number): { dT: number; dx: number } {
  const d = Math.abs(b - a);
  let dx = 0;
  for (const k of Object.keys(path.full0)) dx = Math.max(dx, Math.abs(path.full1[k] - path.full0[k]) * d);
  return { dT: Math.abs(path.T1 - path.T0) * d, dx };
}

/**
 * What a transition changes, independent of how the composition sets are numbered: the number of sets of each
 * phase, and with a structure function the ordered/disordered structure of each set (second-order transitions).
 */
export function phaseSetKey(r: EquilibriumResult, structureOf?: StructureOf): string {
  const by = new Map<string, string[]>();
  for (const p of r.phases) by.set(p.name, [...(by.get(p.name) ?? []), structureOf?.(p) ?? '']);
  return [...by.keys()]
    .sort()
    .map((n) => `${n}:${by.get(n)!.sort().join(',')}`)
    .join('+');
}

/**
 * Smallest composition change (sum over elements of |dx|) that is a jump of a composition set, not its continuous
 * change: a set replaced by another of the same phase at an invariant whose two sides hold the same phase names
 * (Al-Zn at X(ZN) = 0.8: FCC_A1 + HCP_A3 on both sides of the 550.4 K monotectoid, the FCC set at X(ZN) = 0.14 below
 * and 0.62 above). Neighbouring scan points further apart than this are bisected like a change of phase set; a
 * continuous change falls below it as the bracket shrinks and drops out, a jump keeps its size down to 0.01 K.
 */
export const SET_JUMP = 0.05;

/**
 * Largest composition change of a composition set between two states with the same phase-set key: the sets of
 * each phase are paired so that the total change is least.
 */
export function setJump(a: EquilibriumResult, b: EquilibriumResult): number {
  let jump = 0;
  const setsOf = (r: EquilibriumResult, name: string) => r.phases.filter((p) => p.name === name);
  for (const name of new Set(a.phases.map((p) => p.name))) {
    const sa = setsOf(a, name),
      sb = setsOf(b, name);
    if (sa.length !== sb.length || sa.length === 0 || sa.length > 5) continue;
    let best = Infinity,
      worst = 0;
    for (const slots of injections(sa.length, sb.length)) {
      const d = sa.map((p, i) => xDistance(p.x, sb[slots[i]].x));
      const total = d.reduce((u, v) => u + v, 0);
      if (total < best) {
        best = total;
        worst = Math.max(...d);
      }
    }
    jump = Math.max(jump, worst);
  }
  return jump;
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
  // a change of the phase set, or of the composition sets of the same phases (a set jumps: setJump)
  const differ = (ra: EquilibriumResult, rb: EquilibriumResult) => key(ra) !== key(rb) || setJump(ra, rb) > SET_JUMP;
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
    const used = threadsFor(conds.length, o.threads, o.speed?.msPerEq);
    const derivatives = o.derivatives ? { derivatives: o.derivatives } : {};
    // On one thread each midpoint starts from its bracket's lower end (a warm start; a batch would start
    // every midpoint from the hull, which costs a multicomponent system several warm solves); the
    // solver still certifies each answer against its grid. Not across an ordering change of one phase: near
    // a second-order transition Newton from the ordered state stays ordered past where the cold solve
    // (and a point calculation) finds the disordered state.
    const warmFrom = (br: Bracket) => br.ra.converged && phaseSetKey(br.ra) !== phaseSetKey(br.rb);
    const rs =
      used === 1 && k === 1
        ? where.map(({ br }, j) =>
            equilibrium({
              database: o.sys.db,
              components: o.sys.components,
              phases: o.sys.phases,
              conditions: conds[j],
              options: { ...derivatives, ...(warmFrom(br) ? { start: br.ra } : {}) },
            }),
          )
        : equilibriumBatch({
            database: o.sys.db,
            components: o.sys.components,
            phases: o.sys.phases,
            conditions: conds,
            threads: used,
            control: ctl,
            options: o.derivatives ? { derivatives: o.derivatives } : undefined,
          });
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
        unrefined.add(br);
        done.push(br);
        continue;
      }
      for (let j = 0; j + 1 < chain.length; j++) {
        if (differ(chain[j].r, chain[j + 1].r)) {
          after.push({ a: chain[j].s, b: chain[j + 1].s, ra: chain[j].r, rb: chain[j + 1].r, rounds: br.rounds + 1 });
        }
      }
    }
    active = after;
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
  return done.map((br) => {
    const before = labelsOf(br.ra),
      afterL = labelsOf(br.rb);
    const sm = (br.a + br.b) / 2;
    const st = stateAt(path, sm);
    const w = widths(path, br.a, br.b);
    const ordering: OrderingChange[] = [];
    if (o.structureOf) {
      for (const pa of br.ra.phases) {
        const pb = br.rb.phases.find((q) => q.name === pa.name && q.setNumber === pa.setNumber);
        const sa = o.structureOf(pa),
          sb = pb ? o.structureOf(pb) : undefined;
        if (pb && sa !== undefined && sb !== undefined && sa !== sb)
          ordering.push({ phase: labelsOf({ ...br.ra, phases: [pa] })[0], before: sa, after: sb });
      }
    }
    const appearing = afterL.filter((l) => !before.includes(l));
    const disappearing = before.filter((l) => !afterL.includes(l));
    const structures: Record<string, string> = {};
    if (o.structureOf) {
      for (const [r, labels] of [
        [br.ra, disappearing],
        [br.rb, appearing],
      ] as const) {
        for (const p of r.phases) {
          const l = labelsOf({ ...r, phases: [p] })[0];
          const st = o.structureOf(p);
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
      refined: !unrefined.has(br),
      kind:
        appearing.length === 0 && disappearing.length === 0 && ordering.length > 0 ? 'order_disorder' : 'phase_change',
      ordering_changes: ordering,
      structures,
    };
  });
}

/** What the scan varies: T alone, one mole fraction (T fixed), or both (path parameter). */
export function axisOf(path: ScanPath, elements: string[], dependent: string): LineAxis {
  const tVaries = path.T0 !== path.T1;
  const varying = elements.filter((e) => path.full1[e] !== path.full0[e]);
  if (varying.length === 0) return { variable: 'T', label: 'Temperature', unit: 'K' };
  if (!tVaries) {
    const el = varying.find((e) => e !== dependent) ?? varying[0];
    return { variable: `X(${el})`, label: `Mole fraction ${el}`, unit: '-' };
  }
  return { variable: 'path', label: 'Path parameter s (T and composition linear in s)', unit: '-' };
}

export function axisValue(axis: LineAxis, p: { s: number; T: number; x: Record<string, number> }): number {
  if (axis.variable === 'T') return p.T;
  if (axis.variable === 'path') return p.s;
  return p.x[axis.variable.slice(2, -1)] ?? NaN;
}

export interface LineScan {
  sys: CalcSystem;
  path: ScanPath;
  dependent: string;
  s: number[];
  results: EquilibriumResult[];
  transitions: RefinedTransition[];
  /** converged states at both ends of every final transition bracket, by s */
  edges: { s: number; r: EquilibriumResult }[];
}

/** A line or properties task: both scan the same condition (contract/tasks/common.ts scanCondition). */
export type ScanJob = TaskJob<'line_calculation'> | TaskJob<'thermodynamic_properties_next'>;

/**
 * The scan of a line or properties task: the opened system, the straight path in (T, x)
 * from the start to the end state, and the number of points.
 */
export function scanSetup(job: ScanJob) {
  const cond = inMoleFractions(job, job.config.condition);
  const sys = openSystem(job, cond);
  const { pressure: P, temperature_start: T0, temperature_end: T1, points: n } = cond;
  const comp = resolveCompositions(sys.elements, [
    { field: 'condition.compositions_start', value: cond.compositions_start },
    { field: 'condition.compositions_end', value: cond.compositions_end },
  ]);
  const path: ScanPath = { T0, T1, P, X0: comp.X[0], X1: comp.X[1], full0: comp.full[0], full1: comp.full[1] };
  return { cond, sys, P, path, n, dependent: comp.dependent };
}

/** The numerical part of a line calculation (scan + transition refinement), without files. */
export function scanLine(job: ScanJob, control: JobControl, derivatives?: string[]): LineScan {
  if (control.cancelled) throw new CancelledError();
  const { sys, path, n, dependent } = scanSetup(job);
  const s = Array.from({ length: n }, (_, i) => (n === 1 ? 0 : i / (n - 1)));
  const threads = Math.max(1, Math.floor(job.ompThreads || 1));
  const speed: SolveSpeed = {};
  const results = chunkedScan(
    { db: sys.db, components: sys.components, phases: sys.phases },
    s.map((v) => conditionsAt(path, v)),
    threads,
    control,
    derivatives,
    [0, 0.9],
    speed,
  );
  if (control.cancelled) throw new CancelledError();
  const conv = new PointConverter(sys.db, sys.components);
  const structureOf: StructureOf = (p) => conv.ordering(p)?.structure;
  // numbers the sets along the line (scan points and transition states: chart and table agree)
  const edges: { s: number; r: EquilibriumResult }[] = [];
  const transitions = refineTransitions(
    path,
    s,
    results,
    { sys, threads, control, derivatives, speed, structureOf },
    edges,
  );
  return { sys, path, dependent, s, results, transitions, edges };
}

const fmt = (v: number, d = 2) => String(Number(v.toFixed(d)));

/** "T K: PHASE (EL x, ...) + ...; ..." of the invariants a line crosses (the invariants_crossed output). */
export function invariantsText(invariants: readonly InvariantCrossing[]): string {
  return invariants
    .map(
      (v) =>
        `${fmt(v.T)} K: ${v.phases
          .map((ph) => {
            const x = v.compositions[ph]?.x ?? {};
            return `${ph} (${Object.entries(x)
              .map(([el, f]) => `${el} ${fmt(f, 4)}`)
              .join(', ')})`;
          })
          .join(' + ')}`,
    )
    .join('; ');
}

export function run(job: TaskJob<'line_calculation'>, control: JobControl): CalculationOutput {
  const names = outputNames('line_calculation', job.config.condition);
  const wantsCp = names.some((n) => /^\s*cpm?\s*$/i.test(n));
  const scan = scanLine(job, control, wantsCp ? ['HM.T'] : undefined);
  const { sys, path, s, results, transitions } = scan;
  const conv = new PointConverter(sys.db, sys.components);
  const points = results.map((r, i) => {
    const p: LinePoint = { ...conv.point(r), s: s[i] };
    if (wantsCp) {
      const v = r.derivatives['HM.T'];
      p.Cp_equilibrium = typeof v === 'number' && Number.isFinite(v) ? v : null;
    }
    return p;
  });
  const further = lineFurtherQuantities(scan, job.config.condition, points, conv, control);
  // a line at fixed composition has the alloy's liquidus and solidus: the T_liquidus/T_solidus outputs on every row,
  // and in the default columns
  const alloy = further.fields.alloy_temperatures;
  const defaults =
    job.config.condition.thermo_outputs === undefined && job.config.condition.outputs_list_template === undefined;
  if (alloy && defaults) names.push('T_liquidus', 'T_solidus');
  // and the invariants it crosses, with their phases' compositions, as one text on every row (the table has a row per
  // scan point; the invariants lie between them)
  const invariants = further.fields.invariants ?? [];
  if (invariants.length && defaults) names.push('invariants_crossed');
  const crossed = invariants.length ? invariantsText(invariants) : null;
  const tablePoints = points.map((p) => ({
    ...p,
    ...(alloy ? { T_liquidus: alloy.liquidus, T_solidus: alloy.solidus } : {}),
    invariants_crossed: crossed,
  }));
  const table = buildTable(tablePoints, names, { components: sys.elements, phases: sys.formable });
  const axis = axisOf(path, sys.elements, scan.dependent);
  const notConverged = points.filter((p) => !p.converged).length;
  const doc: LineCalculationResult = {
    ...documentBase(job, 'line_calculation', sys.tdbFile),
    axis,
    points,
    transitions,
    table,
    outputs: names,
    cp_definition: CP_DEFINITION,
    not_converged: notConverged,
    ...further.fields,
  };
  // Preview: phase fractions (NP of every label met) versus the scanned variable, transitions marked.
  // The states at both ends of each refined transition are drawn too, so the curves bend at the
  // transition rather than being joined straight across from the neighbouring scan points.
  const merged = [...s.map((v, i) => ({ s: v, r: results[i] })), ...scan.edges].sort((a, b) => a.s - b.s);
  const plotted = merged.map((m) => ({ ...conv.point(m.r), s: m.s }));
  const labels = [...new Set(plotted.flatMap((p) => stableLabels(p)))].sort();
  const xs = plotted.map((p) => axisValue(axis, p));
  const series = labels.map((l) => ({
    name: l,
    values: plotted.map((p) =>
      p.converged
        ? (p.phases.find((q) => (q.composition_set > 1 ? `${q.name}#${q.composition_set}` : q.name) === l)?.amount ?? 0)
        : null,
    ),
  }));
  const chart = phaseFractionChart({
    title: `Phase fractions, ${sys.elements.join('-')} (${basename(sys.tdbFile)})`,
    x: xs,
    xLabel: axis.unit && axis.unit !== '-' ? `${axis.label} (${axis.unit})` : axis.label,
    series,
    transitions: transitions.map((t) => ({ x: axisValue(axis, t), label: transitionText(t) })),
    yLabel: 'Phase fraction (mol/mol)',
    celsiusAxis: axis.variable === 'T',
    temperatureUnit: job.config.preview_temperature_unit,
  });
  const files = writeResultFiles(job.taskDir, {
    json: doc,
    csv: tableToCsv(table),
    previews: { phase_fractions: chart },
  });
  const where = (t: RefinedTransition) =>
    axis.variable === 'T' || axis.variable === 'path'
      ? `${fmt(t.T)} K`
      : `${axis.variable}=${fmt(axisValue(axis, t), 6)}`;
  const summary =
    `${points.length} points, ${transitions.length} transition${transitions.length === 1 ? '' : 's'}` +
    (transitions.length ? `: ${transitions.map((t) => `${transitionText(t)} at ${where(t)}`).join(', ')}` : '') +
    (notConverged ? ` (${notConverged} points not converged)` : '');
  const logs = [
    ...sys.logs,
    `database ${basename(sys.tdbFile)}, components ${sys.components.join(', ')}, ${points.length} points on ${job.ompThreads} thread(s)`,
    ...transitions.map(
      (t) =>
        `transition at s=${t.s.toFixed(6)}, T=${t.T.toFixed(3)} K: ${t.phases_before.join('+') || '-'} -> ${t.phases_after.join('+') || '-'}` +
        ` (bracket dT=${t.dT.toExponential(2)} K, dx=${t.dx.toExponential(2)}${t.refined ? '' : ', NOT refined to tolerance'})`,
    ),
    ...(notConverged
      ? [`warning: ${notConverged} of ${points.length} points did not converge (converged:false in result.json)`]
      : []),
    ...further.logs,
    `written ${files.join(', ')}`,
  ];
  return { summary, logs };
}

/**
 * Further quantities of a line (worker/results/thermo-extra.ts) on its points, the invariants it crosses with the
 * phase compositions there, and, for a line at fixed composition, the alloy's liquidus and equilibrium solidus
 * (worker/results/alloy-temperatures.ts; over 200-4000 K, whatever the line's own range).
 */
function lineFurtherQuantities(
  scan: LineScan,
  cond: { reference_states?: Record<string, string> },
  points: LinePoint[],
  conv: PointConverter,
  control: JobControl,
) {
  const { sys, path } = scan;
  const fields: Pick<
    LineCalculationResult,
    'reference_states' | 'quantity_notes' | 'invariants' | 'alloy_temperatures'
  > = {
    ...addFurtherQuantities(
      sys,
      cond,
      points.map((point, i) => ({ point, r: scan.results[i]! })),
    ),
    invariants: invariantsCrossed(scan.transitions, scan.edges, conv, sys.elements.length),
  };
  const fixedComposition = sys.elements.every((e) => path.full0[e] === path.full1[e]);
  if (fixedComposition) {
    const low = path.T0 <= path.T1 ? scan.results[0] : scan.results[scan.results.length - 1];
    fields.alloy_temperatures = alloyTemperatures(
      sys,
      path.X0,
      path.P,
      () => control.cancelled,
      undefined,
      undefined,
      Math.min(path.T0, path.T1),
      low,
    );
  }
  const fmt = (v: number | null | undefined) => (typeof v === 'number' ? `${v.toFixed(2)} K` : 'none');
  const logs = [
    ...(fields.alloy_temperatures
      ? [
          `alloy: liquidus ${fmt(fields.alloy_temperatures.liquidus)}, solidus ${fmt(fields.alloy_temperatures.solidus)}` +
            `${fields.alloy_temperatures.note ? ` (${fields.alloy_temperatures.note})` : ''}`,
        ]
      : []),
    ...fields.invariants!.map((v) => `invariant crossed at ${v.T.toFixed(2)} K: ${v.phases.join(' + ')}`),
    ...fields.quantity_notes!.map((n) => `note: ${n}`),
  ];
  return { fields, logs };
}
