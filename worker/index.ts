// Piscina worker entry: dispatches a job to worker/calculations/<task_type>.ts.
// The shared control block is passed through so native code can poll the cancel flag; this worker is
// never terminated from outside while native code runs (cancellation is cooperative).
import { CancelledError, JobControl, type Calculation, type CalculationJob, type CalculationOutput } from './protocol.js';
import { withCancelFlag } from './core/cancel.js';
import { isCoreError } from './core/errors.js';

/** Calculation modules by task type, loaded on demand (also used by `phasedesk calc`). */
export const CALCULATIONS: Record<string, () => Promise<{ run: Calculation }>> = {
  point_calculation: () => import('./calculations/point_calculation.js'),
  line_calculation: () => import('./calculations/line_calculation.js'),
  binary_equilibrium: () => import('./calculations/binary_equilibrium.js'),
  thermodynamic_properties_next: () => import('./calculations/thermodynamic_properties_next.js'),
  scheil_solidification: () => import('./calculations/scheil_solidification.js'),
  binary_cpt_diagram: () => import('./calculations/binary_cpt_diagram.js'),
  gibbs_energy_curves: () => import('./calculations/gibbs_energy_curves.js'),
};

/** The stage a task of each type reports while its calculation runs (GET /task/{id} `stage`). */
export const CALCULATION_STAGES: Record<string, string> = {
  point_calculation: 'computing the equilibrium',
  line_calculation: 'scanning the line',
  binary_equilibrium: 'mapping two-phase regions',
  thermodynamic_properties_next: 'computing properties',
  scheil_solidification: 'solidifying step by step',
  binary_cpt_diagram: 'computing the composition-temperature-pressure grid',
};

export default async function runJob(job: CalculationJob): Promise<CalculationOutput & { cancelled?: boolean }> {
  const control = new JobControl(job.control);
  const stage = CALCULATION_STAGES[job.taskType];
  if (stage) control.setStage(stage);
  let loader = CALCULATIONS[job.taskType];
  if (!loader && job.taskType.startsWith('__test_') && process.env.PHASEDESK_TEST_CALCULATIONS === '1') {
    loader = () => import('./calculations/test-only.js');
  }
  if (!loader) throw new Error(`no calculation for task type ${job.taskType}`);
  const mod = await loader();
  try {
    // every native call of the calculation (a single equilibrium, model and grid building) polls the job's flag
    const out = await withCancelFlag(job.control, () => mod.run(job, control));
    control.setProgress(1);
    return out;
  } catch (e) {
    if (e instanceof CancelledError || isCoreError(e, 'PD_CANCELLED') || control.cancelled) return { summary: null, logs: ['calculation stopped by cancel'], cancelled: true };
    throw e;
  }
}
