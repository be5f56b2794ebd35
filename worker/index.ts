// Piscina worker entry: dispatches a job to worker/calculations/<task_type>.ts.
// The shared control block is passed through so native code can poll the cancel flag; this worker is
// never terminated from outside while native code runs (cancellation is cooperative).
import {
  CancelledError,
  BATCH_STAGE_JOB,
  CPT_STAGE_JOB,
  JobControl,
  type CalculationJob,
  type CalculationOutput,
  type CalculationTable,
  type JobOutput,
} from './protocol.js';
import { TASK_REGISTRY, isTaskType } from '../contract/tasks/registry.js';
import { withCancelFlag } from './core/cancel.js';
import { isCoreError } from './core/errors.js';

/** Calculation modules by task type, loaded on demand (also used by `phasedesk calc`). */
export const CALCULATIONS: CalculationTable = {
  point_calculation: () => import('./calculations/point_calculation.js'),
  line_calculation: () => import('./calculations/line_calculation.js'),
  binary_equilibrium: () => import('./calculations/binary_equilibrium.js'),
  thermodynamic_properties_next: () => import('./calculations/thermodynamic_properties_next.js'),
  scheil_solidification: () => import('./calculations/scheil_solidification.js'),
  binary_cpt_diagram: () => import('./calculations/binary_cpt_diagram.js'),
  isopleth: () => import('./calculations/isopleth.js'),
  ternary_isothermal_section: () => import('./calculations/ternary_isothermal_section.js'),
  gibbs_energy_curves: () => import('./calculations/gibbs_energy_curves.js'),
  equilibrium_batch: () => import('./calculations/equilibrium_batch.js'),
  spinodal_decomposition: () => import('./calculations/spinodal_decomposition.js'),
  potential_diagram: () => import('./calculations/potential_diagram.js'),
  liquidus_projection: () => import('./calculations/liquidus_projection.js'),
  solution_treatment: () => import('./calculations/solution_treatment.js'),
  solidification: () => import('./calculations/solidification.js'),
  aging: () => import('./calculations/aging.js'),
};

type UntypedRun = (job: CalculationJob, control: JobControl) => Promise<CalculationOutput> | CalculationOutput;

/**
 * The calculation of a task type. The job's config was parsed by that type's schema when the task was created
 * (POST /task, `phasedesk calc`), so the typed calculation may be called with it.
 */
export async function loadCalculation(taskType: string): Promise<UntypedRun | undefined> {
  if (isTaskType(taskType)) return (await CALCULATIONS[taskType]()).run as unknown as UntypedRun;
  // a stage of a lab server's C-P-T flow (grid chunk, bisection part): an internal job, never a task type
  if (taskType === CPT_STAGE_JOB)
    return (await import('./calculations/binary_cpt_diagram/stage.js')).run as unknown as UntypedRun;
  // a stage of a lab server's equilibrium_batch flow (row chunk, merge)
  if (taskType === BATCH_STAGE_JOB)
    return (await import('./calculations/equilibrium_batch/stage.js')).run as unknown as UntypedRun;
  if (process.env.PHASEDESK_TEST_CALCULATIONS === '1') return testCalculation(taskType);
  return undefined;
}

/**
 * The test calculations (test/support/hooks/calculations.ts): built by the test setup beside dist/worker, never by
 * the production build, so a service without them has none. The path is a variable so that TypeScript does not
 * follow it into the production program.
 */
const TEST_CALCULATIONS = '../test/support/hooks/calculations.js';
async function testCalculation(taskType: string): Promise<UntypedRun | undefined> {
  try {
    const hooks = (await import(TEST_CALCULATIONS)) as { TEST_TASK_TYPES: readonly string[]; run: UntypedRun };
    return hooks.TEST_TASK_TYPES.includes(taskType) ? hooks.run : undefined;
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw e;
  }
}

export default async function runJob(job: CalculationJob): Promise<JobOutput> {
  const control = new JobControl(job.control);
  // the stage a task of each type reports while its calculation runs (GET /task/{id} `stage`)
  if (isTaskType(job.taskType)) control.setStage(TASK_REGISTRY[job.taskType].stage);
  const run = await loadCalculation(job.taskType);
  if (!run) throw new Error(`no calculation for task type ${job.taskType}`);
  try {
    // every native call of the calculation (a single equilibrium, model and grid building) polls the job's flag
    const out = await withCancelFlag(job.control, () => run(job, control));
    control.setProgress(1);
    return out;
  } catch (e) {
    if (e instanceof CancelledError && e.kept)
      return { ...e.kept, logs: [...e.kept.logs, 'calculation stopped by cancel'], cancelled: true, kept: true };
    if (e instanceof CancelledError || isCoreError(e, 'PD_CANCELLED') || control.cancelled)
      return { summary: null, logs: ['calculation stopped by cancel'], cancelled: true };
    throw e;
  }
}
