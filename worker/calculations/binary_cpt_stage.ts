// One stage of a binary_cpt_diagram grid spread over the lab server's workers (main/server/cpt-flow.ts):
//  - chunk:  the equilibria of grid nodes [first, end), stored as stages/chunk-<k>.json;
//  - bisect: the boundary bisection over the whole grid (the stored chunks replayed as the grid), stored as
//            stages/bisect.json;
//  - merge:  the embedded calculation (binary_cpt_diagram.ts run) with every equilibrium replayed from the stored
//            stages, so that it writes the same result files as the embedded run.
// A stage's file is written once: to a private temporary name, then hard-linked to its final name (link fails when
// the name exists), so a chunk that runs twice (its worker died, BullMQ gave it to another) stores its results once
// and a reader never sees half a file. A stage whose file exists returns at once.
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EquilibriumConditions, EquilibriumResult } from '../core/equilibrium.js';
import { computeWith } from '../mapping/cpt-grid.js';
import { CancelledError, type CalculationJob, type CalculationOutput, type JobControl } from '../protocol.js';
import { ChunkedSolver } from './cpt/chunked.js';
import { pressureAxis, readInput, run as runDiagram, stepAxis } from './binary_cpt_diagram.js';

export interface CptStage {
  kind: 'chunk' | 'bisect' | 'merge';
  /** number of chunks of the grid */
  chunks: number;
  chunk?: number;
  first?: number;
  end?: number;
  /** the worker running the stage, kept in the stage's file */
  worker?: string;
}

/** What the mapping reads of an equilibrium: converged, and per stable phase name, composition set, NP, x. */
type StoredResult = [converged: 0 | 1, phases: [name: string, set: number, NP: number, x: number | null][]];

interface StageFile { kind: string; chunk?: number; worker?: string; results: StoredResult[][] }

export const STAGES_FOLDER = 'stages';
export function stageFileName(stage: Pick<CptStage, 'kind' | 'chunk'>): string {
  return stage.kind === 'chunk' ? `chunk-${stage.chunk}.json` : `${stage.kind}.json`;
}

/** Nodes of the task's grid (the same axes as binary_cpt_diagram.ts readInput, without opening the database). */
export function cptGridNodes(config: Record<string, unknown>): number {
  const c = (config.condition ?? {}) as Record<string, number | string | undefined>;
  const n = (k: string) => Number(c[k]);
  const xs = stepAxis(n('composition_start'), n('composition_end'), n('composition_step'), 'condition.composition');
  const Ts = stepAxis(n('temperature_start'), n('temperature_end'), n('temperature_step'), 'condition.temperature');
  const Ps = pressureAxis(n('pressure_start'), n('pressure_end'), n('pressure_points'), String(c.pressure_scale ?? 'linear') === 'log');
  return xs.length * Ts.length * Ps.length;
}

function reduce(r: EquilibriumResult, xComp: string): StoredResult {
  return [r.converged ? 1 : 0, r.phases.map((p) => [p.name, p.setNumber, p.NP, p.x[xComp] ?? null])];
}

function expand([converged, phases]: StoredResult, xComp: string): EquilibriumResult {
  return {
    converged: converged === 1,
    phases: phases.map(([name, setNumber, NP, x]) => ({ name, setNumber, NP, x: x === null ? {} : { [xComp]: x } })),
  } as unknown as EquilibriumResult;
}

/** Writes a stage file once (see the header); false when it existed already. */
function writeOnce(file: string, text: string): boolean {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, text);
  try {
    linkSync(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    unlinkSync(tmp);
  }
}

function readStage(dir: string, stage: Pick<CptStage, 'kind' | 'chunk'>): StageFile {
  const file = join(dir, stageFileName(stage));
  if (!existsSync(file)) throw new Error(`the ${stage.kind}${stage.chunk !== undefined ? ` ${stage.chunk}` : ''} stage of the grid has no stored results`);
  return JSON.parse(readFileSync(file, 'utf8')) as StageFile;
}

/**
 * A solver for computeWith that answers the grid from the stored chunks and each bisection step from `bisection`
 * (one stored list per solve call after the grid) or, when that runs out, from the live solver, recording its answers.
 */
function replaySolver(grid: StoredResult[], bisection: StoredResult[][], xComp: string, live?: ChunkedSolver) {
  let call = 0;
  const recorded: StoredResult[][] = [];
  const solver = {
    count: 0,
    recorded,
    solve(n: number, condAt: (i: number) => EquilibriumConditions, onResult: (i: number, r: EquilibriumResult) => void, from: number, to: number): void {
      const stored = call === 0 ? grid : bisection[call - 1];
      call++;
      solver.count += n;
      if (stored) {
        if (stored.length !== n) throw new Error(`stored grid stage holds ${stored.length} results where ${n} are needed`);
        stored.forEach((r, i) => onResult(i, expand(r, xComp)));
        return;
      }
      if (!live) throw new Error('the stored bisection ends before the mapping does');
      const rec: StoredResult[] = [];
      live.solve(n, condAt, (i, r) => { rec.push(reduce(r, xComp)); onResult(i, r); }, from, to);
      recorded.push(rec);
    },
  };
  return solver;
}

function testDelay(control: JobControl): void {
  const ms = process.env.PHASEDESK_TEST_CALCULATIONS === '1' ? Number(process.env.PHASEDESK_TEST_CHUNK_MS ?? 0) : 0;
  const until = Date.now() + ms;
  while (Date.now() < until && !control.cancelled) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
}

export function run(job: CalculationJob, control: JobControl): CalculationOutput {
  const { cpt_stage: raw, ...config } = job.config;
  const stage = raw as CptStage;
  const dir = join(job.taskDir, STAGES_FOLDER);
  mkdirSync(dir, { recursive: true });
  const own = join(dir, stageFileName(stage));
  const name = stage.kind === 'chunk' ? `chunk ${stage.chunk} of ${stage.chunks}` : stage.kind;
  if (stage.kind !== 'merge' && existsSync(own)) return { summary: 'already stored', logs: [`${name}: results already stored`] };
  const diagramJob: CalculationJob = { ...job, taskType: 'binary_cpt_diagram', config };
  const input = readInput(diagramJob);
  const xComp = input.elements[0];
  const grid = (): StoredResult[] => {
    const all: StoredResult[] = [];
    for (let k = 0; k < stage.chunks; k++) all.push(...readStage(dir, { kind: 'chunk', chunk: k }).results[0]!);
    return all;
  };
  const newSolver = () => new ChunkedSolver({ db: input.db, components: input.components, phases: input.phases, options: input.options },
    Math.max(1, Math.floor(job.ompThreads)), control);

  if (stage.kind === 'chunk') {
    const { xs, Ts, Ps } = input;
    const nX = xs.length, nT = Ts.length, first = stage.first!, end = stage.end!;
    // The node numbering and conditions of worker/mapping/cpt-grid.ts (x fastest, then T, then P).
    const nodeCond = (n: number): EquilibriumConditions => {
      const iX = n % nX, iT = Math.floor(n / nX) % nT, iP = Math.floor(n / (nX * nT));
      return { T: Ts[iT]!, P: Ps[iP]!, X: { [xComp]: xs[iX]! } };
    };
    const results: StoredResult[] = [];
    const solver = newSolver();
    try {
      solver.solve(end - first, (i) => nodeCond(first + i), (_i, r) => { results.push(reduce(r, xComp)); }, 0, 1);
    } finally { solver.close(); }
    testDelay(control);
    if (control.cancelled) throw new CancelledError();
    const fresh = writeOnce(own, JSON.stringify({ kind: 'chunk', chunk: stage.chunk, worker: stage.worker, results: [results] } satisfies StageFile));
    return { summary: fresh ? 'stored' : 'already stored', logs: [`${name}: ${end - first} equilibria ${fresh ? 'stored' : 'already stored by another run'}`] };
  }

  if (stage.kind === 'bisect') {
    const live = newSolver();
    const solver = replaySolver(grid(), [], xComp, live);
    try { computeWith(input, solver, control); } finally { live.close(); }
    if (control.cancelled) throw new CancelledError();
    const fresh = writeOnce(own, JSON.stringify({ kind: 'bisect', worker: stage.worker, results: solver.recorded } satisfies StageFile));
    return { summary: fresh ? 'stored' : 'already stored', logs: [`bisection: ${solver.recorded.reduce((a, r) => a + r.length, 0)} equilibria in ${solver.recorded.length} steps`] };
  }

  // merge: the embedded calculation's own code, every equilibrium answered from the stored stages
  const solver = replaySolver(grid(), readStage(dir, { kind: 'bisect' }).results, xComp);
  const out = runDiagram(diagramJob, control, (inp, _threads, ctl) => computeWith(inp, solver, ctl));
  return { ...out, logs: [`grid of ${stage.chunks} chunks merged`, ...out.logs] };
}
