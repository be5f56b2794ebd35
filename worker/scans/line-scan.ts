// The straight scan path of line_calculation and thermodynamic_properties_next: T and the mole fractions linear in
// s = 0..1 from (temperature_start, compositions_start) to (temperature_end, compositions_end), and its axis.
import { type ScanPath, conditionsAt } from './scan-path.js';
import { type SolveSpeed, chunkedScan } from './chunked-scan.js';
import { type StructureOf } from './composition-sets.js';
import { type RefinedTransition, refineTransitions } from './transitions.js';
import { inMoleFractions, openSystem, resolveCompositions, type CalcSystem } from '../system/system.js';
import { PointConverter } from '../system/point-converter.js';
import { type EquilibriumResult } from '../core/equilibrium.js';
import { type LineAxis } from '../../contract/results/line_calculation.js';
import { CancelledError, type JobControl, type TaskJob } from '../protocol.js';

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
/**
 * Elements held along a line at a chemical potential (an open system): their names (upper case) and their potentials
 * (J/mol) at a state's T and P. Built by the calculation from the opened system.
 */
export interface HeldElements {
  elements: string[];
  mu: (T: number, P: number) => Record<string, number>;
}
export type HeldOf = (sys: CalcSystem) => HeldElements | undefined;

export function scanSetup(job: ScanJob, heldOf?: HeldOf) {
  const cond = inMoleFractions(job, job.config.condition);
  const sys = openSystem(job, cond);
  const { pressure: P, temperature_start: T0, temperature_end: T1, points: n } = cond;
  const held = heldOf?.(sys);
  const free = sys.elements.filter((e) => !held?.elements.includes(e));
  const comp = resolveCompositions(free, [
    { field: 'condition.compositions_start', value: cond.compositions_start },
    { field: 'condition.compositions_end', value: cond.compositions_end },
  ]);
  const path: ScanPath = {
    T0,
    T1,
    P,
    X0: comp.X[0],
    X1: comp.X[1],
    full0: comp.full[0],
    full1: comp.full[1],
    ...(held ? { mu: held.mu } : {}),
  };
  return { cond, sys, P, path, n, dependent: comp.dependent };
}

/** The numerical part of a line calculation (scan + transition refinement), without files. */
export function scanLine(job: ScanJob, control: JobControl, derivatives?: string[], heldOf?: HeldOf): LineScan {
  if (control.cancelled) throw new CancelledError();
  const { sys, path, n, dependent } = scanSetup(job, heldOf);
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
