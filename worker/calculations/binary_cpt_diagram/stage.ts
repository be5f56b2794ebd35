// One stage of a binary_cpt_diagram grid spread over the lab server's workers (main/server/cpt-flow.ts):
//  - chunk:  the equilibria of grid nodes [first, end), stored as stages/chunk-<k>.json;
//  - bisect: the boundary bisection of the grid's changing edges [first, end) (the plan, planBisection, is made by
//            the lab worker from the stored chunks), stored as stages/bisect-<k>.json;
//  - merge:  the embedded calculation (binary_cpt_diagram.ts run) with every equilibrium replayed from the stored
//            stages, so that it writes the same result files as the embedded run.
// A stage's file is written once (worker/results/stage-files.ts), so a chunk that runs twice stores its results once;
// a stage whose file exists returns at once.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { phaseLabel } from '../../../contract/results/common.js';
import type { EquilibriumConditions, EquilibriumResult } from '../../core/equilibrium.js';
import {
  BISECTION_STEPS,
  bisectEdges,
  computeWith,
  edgeConditions,
  nodeConditions,
  stableLabels,
} from '../../mapping/cpt-grid.js';

import { changingEdges } from '../../mapping/surface-nets.js';
import {
  CancelledError,
  type CalculationJob,
  type CalculationOutput,
  type JobControl,
  type TaskJob,
} from '../../protocol.js';
import { ChunkedSolver } from '../../scans/chunked-solver.js';
import { STAGES_FOLDER, testStageDelay, writeOnce } from '../../results/stage-files.js';
import { pressureAxis, readInput, run as runDiagram, stepAxis } from '../binary_cpt_diagram.js';

export interface CptStage {
  /** bisect-plan: the lab worker splits the changing edges into bisect jobs (no calculation) */
  kind: 'chunk' | 'bisect-plan' | 'bisect' | 'merge';
  /** number of chunks of the grid */
  chunks: number;
  /** index of a chunk or a bisect job */
  chunk?: number;
  /** nodes (chunk) or changing edges (bisect) [first, end) */
  first?: number;
  end?: number;
  /** the worker running the stage, kept in the stage's file */
  worker?: string;
}

/** What the mapping reads of an equilibrium: converged, and per stable phase name, composition set, NP, x. */
type StoredResult = [converged: 0 | 1, phases: [name: string, set: number, NP: number, x: number | null][]];

interface StageFile {
  kind: string;
  chunk?: number;
  worker?: string;
  results: StoredResult[][];
}

export function stageFileName(stage: Pick<CptStage, 'kind' | 'chunk'>): string {
  return stage.kind === 'chunk' || stage.kind === 'bisect' ? `${stage.kind}-${stage.chunk}.json` : `${stage.kind}.json`;
}

/** Nodes per axis of the task's grid (the axes of binary_cpt_diagram.ts readInput, without opening the database). */
export function cptGridDims(config: Record<string, unknown>): [number, number, number] {
  const c = (config.condition ?? {}) as Record<string, number | string | undefined>;
  const n = (k: string) => Number(c[k]);
  const xs = stepAxis(n('composition_start'), n('composition_end'), n('composition_step'), 'condition.composition');
  const Ts = stepAxis(n('temperature_start'), n('temperature_end'), n('temperature_step'), 'condition.temperature');
  const Ps = pressureAxis(
    n('pressure_start'),
    n('pressure_end'),
    n('pressure_points'),
    String(c.pressure_scale ?? 'linear') === 'log',
  );
  return [xs.length, Ts.length, Ps.length];
}

export function cptGridNodes(config: Record<string, unknown>): number {
  const [a, b, c] = cptGridDims(config);
  return a * b * c;
}

/** The grid's phase-set ids in node order (as the mapping numbers them) from the stored chunks, -1 = not converged. */
function gridLabels(grid: StoredResult[]): Int32Array {
  const ids = new Map<string, number>();
  return Int32Array.from(grid, ([converged, phases]) => {
    if (!converged || phases.length === 0) return -1;
    const set = phases
      .map(([name, sn]) => phaseLabel({ name, composition_set: sn }))
      .sort()
      .join('+');
    let k = ids.get(set);
    if (k === undefined) {
      k = ids.size;
      ids.set(set, k);
    }
    return k;
  });
}

function readGrid(dir: string, chunks: number): StoredResult[] {
  const all: StoredResult[] = [];
  for (let k = 0; k < chunks; k++) all.push(...readStage(dir, { kind: 'chunk', chunk: k }).results[0]!);
  return all;
}

/**
 * The bisection's plan, made by the lab worker once the chunks are stored: the changing edges of the grid in `parts`
 * ranges of about `perPart` equilibria each (BISECTION_STEPS per edge), kept as stages/bisect-plan.json for the merge.
 */
export function planBisection(
  taskDir: string,
  config: Record<string, unknown>,
  chunks: number,
  perPart: number,
): [number, number][] {
  const dir = join(taskDir, STAGES_FOLDER);
  const edges = changingEdges(cptGridDims(config), gridLabels(readGrid(dir, chunks))).length;
  const parts = Math.max(1, Math.min(chunks, Math.ceil((edges * BISECTION_STEPS) / perPart)));
  const ranges = Array.from(
    { length: parts },
    (_, k) => [Math.floor((k * edges) / parts), Math.floor(((k + 1) * edges) / parts)] as [number, number],
  );
  writeOnce(join(dir, 'bisect-plan.json'), JSON.stringify({ parts }));
  return ranges;
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

function readStage(dir: string, stage: Pick<CptStage, 'kind' | 'chunk'>): StageFile {
  const file = join(dir, stageFileName(stage));
  if (!existsSync(file))
    throw new Error(
      `the ${stage.kind}${stage.chunk !== undefined ? ` ${stage.chunk}` : ''} stage of the grid has no stored results`,
    );
  return JSON.parse(readFileSync(file, 'utf8')) as StageFile;
}

/**
 * A solver for computeWith that answers the grid from the stored chunks and each bisection step from `bisection`
 * (one stored batch per solve call after the grid), in the order the mapping asks.
 */
function replaySolver(grid: StoredResult[], bisection: StoredResult[][], xComp: string) {
  let call = 0;
  const solver = {
    count: 0,
    solve(
      n: number,
      _condAt: (i: number) => EquilibriumConditions,
      onResult: (i: number, r: EquilibriumResult) => void,
    ): void {
      const stored = call === 0 ? grid : bisection[call - 1];
      call++;
      solver.count += n;
      if (!stored || stored.length !== n) {
        throw new Error(
          `the stored stages hold ${stored?.length ?? 0} results where the mapping's step ${call - 1} needs ${n}`,
        );
      }
      stored.forEach((r, i) => onResult(i, expand(r, xComp)));
    },
  };
  return solver;
}

/** What a stage runs with: its job's control, its folder and file, the diagram's input and a solver maker. */
interface StageRun {
  stage: CptStage;
  control: JobControl;
  /** the task's stages folder and this stage's file in it */
  dir: string;
  own: string;
  /** the stage as its log names it */
  name: string;
  input: ReturnType<typeof readInput>;
  xComp: string;
  newSolver: () => ChunkedSolver;
}

export function run(job: CalculationJob, control: JobControl): CalculationOutput {
  const { cpt_stage: raw, ...config } = job.config;
  const stage = raw as CptStage;
  const dir = join(job.taskDir, STAGES_FOLDER);
  mkdirSync(dir, { recursive: true });
  const own = join(dir, stageFileName(stage));
  const name =
    stage.kind === 'chunk'
      ? `chunk ${stage.chunk} of ${stage.chunks}`
      : stage.kind === 'bisect'
        ? `bisection part ${stage.chunk}`
        : stage.kind;
  if (stage.kind !== 'merge' && existsSync(own))
    return { summary: 'already stored', logs: [`${name}: results already stored`] };
  // a stage job carries its task's configuration as the schema parsed it when the task was created, plus cpt_stage
  const diagramJob = { ...job, taskType: 'binary_cpt_diagram', config } as unknown as TaskJob<'binary_cpt_diagram'>;
  const input = readInput(diagramJob);
  const newSolver = () =>
    new ChunkedSolver(
      { db: input.db, components: input.components, phases: input.phases, options: input.options },
      Math.max(1, Math.floor(job.ompThreads)),
      control,
    );
  const at: StageRun = { stage, control, dir, own, name, input, xComp: input.elements[0], newSolver };
  if (stage.kind === 'chunk') return runChunk(at);
  if (stage.kind === 'bisect') return runBisect(at);
  return runMerge(at, diagramJob);
}

/** The equilibria of the chunk's grid nodes, stored. */
function runChunk({ stage, control, own, name, input, xComp, newSolver }: StageRun): CalculationOutput {
  const first = stage.first!,
    end = stage.end!;
  // The node numbering and conditions of worker/mapping/cpt-grid.ts (x fastest, then T, then P).
  const nodeCond = nodeConditions(input);
  const results: StoredResult[] = [];
  const solver = newSolver();
  try {
    solver.solve(
      end - first,
      (i) => nodeCond(first + i),
      (_i, r) => {
        results.push(reduce(r, xComp));
      },
      0,
      1,
    );
  } finally {
    solver.close();
  }
  testStageDelay(control);
  if (control.cancelled) throw new CancelledError();
  const fresh = writeOnce(
    own,
    JSON.stringify({
      kind: 'chunk',
      chunk: stage.chunk,
      worker: stage.worker,
      results: [results],
    } satisfies StageFile),
  );
  return {
    summary: fresh ? 'stored' : 'already stored',
    logs: [`${name}: ${end - first} equilibria ${fresh ? 'stored' : 'already stored by another run'}`],
  };
}

/**
 * The bisection of worker/mapping/cpt-grid.ts on edges [first, end): the same midpoints, one batch per step;
 * per edge the stored sequence of its midpoint equilibria (it ends early where a midpoint did not converge).
 */
function runBisect({ stage, control, dir, own, name, input, xComp, newSolver }: StageRun): CalculationOutput {
  const stored = readGrid(dir, stage.chunks);
  const labels = gridLabels(stored);
  const names: string[] = [];
  stored.forEach((r, n) => {
    const l = labels[n]!;
    if (l >= 0 && names[l] === undefined) names[l] = stableLabels(expand(r, xComp))!.join('+');
  });
  const edges = changingEdges([input.xs.length, input.Ts.length, input.Ps.length], labels).slice(
    stage.first!,
    stage.end!,
  );
  const edgeCond = edgeConditions(input, edges);
  const seq: StoredResult[][] = edges.map(() => []);
  const solver = newSolver();
  try {
    bisectEdges(
      edges.length,
      solver,
      edgeCond,
      (e, r) => {
        seq[e]!.push(reduce(r, xComp));
        const labs = stableLabels(r);
        if (!labs) return null;
        return labs.join('+') === names[edges[e]!.a] ? 'lo' : 'hi';
      },
      0,
      1,
    );
  } finally {
    solver.close();
  }
  if (control.cancelled) throw new CancelledError();
  const fresh = writeOnce(
    own,
    JSON.stringify({ kind: 'bisect', chunk: stage.chunk, worker: stage.worker, results: seq } satisfies StageFile),
  );
  return {
    summary: fresh ? 'stored' : 'already stored',
    logs: [`${name}: ${seq.reduce((a, r) => a + r.length, 0)} equilibria on ${edges.length} edges`],
  };
}

/** The embedded calculation's own code, every equilibrium answered from the stored stages. */
function runMerge(
  { stage, control, dir, xComp }: StageRun,
  diagramJob: TaskJob<'binary_cpt_diagram'>,
): CalculationOutput {
  // the bisection's batches as the mapping makes them: step s holds, in edge order, every edge still searched
  const perEdge: StoredResult[][] = [];
  const { parts } = JSON.parse(readFileSync(join(dir, 'bisect-plan.json'), 'utf8')) as { parts: number };
  for (let k = 0; k < parts; k++) perEdge.push(...readStage(dir, { kind: 'bisect', chunk: k }).results);
  const steps: StoredResult[][] = [];
  for (let step = 0; step < BISECTION_STEPS; step++) {
    const batch = perEdge.filter((q) => q.length > step).map((q) => q[step]!);
    if (!batch.length) break;
    steps.push(batch);
  }
  const solver = replaySolver(readGrid(dir, stage.chunks), steps, xComp);
  const out = runDiagram(diagramJob, control, (inp, _threads, ctl) => computeWith(inp, solver, ctl));
  return { ...out, logs: [`grid of ${stage.chunks} chunks merged`, ...out.logs] };
}
