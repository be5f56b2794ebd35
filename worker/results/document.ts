// The fields every result document shares (contract/results/common.ts ResultDocument), the outputs a task asks
// for, and texts used in several result documents.
import { basename } from 'node:path';
import {
  RESULT_VERSION,
  type EquilibriumPoint,
  type PhaseSelectionRecord,
  type ResultDocument,
} from '../../contract/results/common.js';
import { provenance } from '../results/common.js';
import { phaseSetName } from '../../contract/results/outputs/columns.js';
import { selectOutputs, withStateOutputs, type OutputTaskType } from '../../contract/results/outputs/selection.js';
import { type CalculationJob } from '../protocol.js';

/** ResultDocument fields; config keeps the file name of the database, not the server's path. */
export function documentBase<T extends string>(
  job: CalculationJob,
  taskType: T,
  sys: { tdbFile: string; selection: PhaseSelectionRecord },
): ResultDocument & { task_type: T } {
  const config = { ...job.config, tdb_file: basename(sys.tdbFile) };
  return {
    version: RESULT_VERSION,
    task_type: taskType,
    provenance: provenance(sys.tdbFile, job.database?.code ?? null, job.database?.sha256),
    config,
    phase_selection: sys.selection,
  };
}

/** The task's output names (selectOutputs), after the temperature, pressure and composition it omits. */
export function outputNames(
  taskType: OutputTaskType,
  cond: { thermo_outputs?: string[]; outputs_list_template?: string[]; composition_unit?: string },
): string[] {
  return withStateOutputs(
    selectOutputs(taskType, cond.outputs_list_template, cond.thermo_outputs),
    cond.composition_unit,
  );
}

/** "FCC_A1 + LIQUID" (labels sorted) or "no stable phase". */
export function phaseSetText(p: EquilibriumPoint): string {
  const s = phaseSetName(p);
  return s ? s.split('+').join(' + ') : 'no stable phase';
}
