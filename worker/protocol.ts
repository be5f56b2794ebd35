// Messages between the service (main/service/scheduler.ts), the calculation hosts (worker/host.ts) and the
// piscina worker inside each host (worker/index.ts).
import type { TaskConfig, TaskType } from '../contract/tasks/registry.js';
import type { DatabasePhaseSelection } from '../contract/phase-selection.js';
import type { PhaseDisplayNames } from '../contract/plots/phase-names.js';

import {
  CANCEL_INDEX,
  CONTROL_BYTES,
  PROGRESS_BYTE_OFFSET,
  STAGE_BYTE_OFFSET,
  STAGE_LENGTH_INDEX,
  STAGE_MAX_BYTES,
} from '../contract/control-block.js';

/** Byte layout of the per-job SharedArrayBuffer control block: contract/control-block.ts. */
export * from '../contract/control-block.js';

/**
 * The task_config a calculation of type T receives: the output of the type's zod schema (validated by POST /task
 * or `phasedesk calc` before the task is stored), with tdb_code replaced by the server-managed tdb_file.
 */
export type CalculationConfig<T extends TaskType> = {
  [K in keyof TaskConfig<T> as K extends 'tdb_code' ? never : K]: TaskConfig<T>[K];
} & { tdb_file: string };

export interface CalculationJob<C extends object = Record<string, unknown>> {
  taskUuid: string;
  taskType: string;
  /** task_config with tdb_code replaced by the server-managed tdb_file. */
  config: C;
  /** OpenMP threads granted to this job (already bounded by threadBudget / poolSize). */
  ompThreads: number;
  /** Absolute task directory; the calculation writes into <taskDir>/{result,preview,vtk}/. */
  taskDir: string;
  control: SharedArrayBuffer;
  /**
   * catalog code and sha256 of the database file, recorded in result.json, and the record's recommended phase
   * selection as it was when the task was created (absent in `phasedesk calc`)
   */
  database?: {
    code: string;
    sha256: string;
    phase_selection?: DatabasePhaseSelection | null;
    /** the database's phase display names (contract/plots/phase-names.ts) that its previews print */
    phase_names?: PhaseDisplayNames;
  };
}

export interface CalculationOutput {
  /** Result summary stored in the task record's result field. */
  summary: string | null;
  /** Log lines appended to the task's logs. */
  logs: string[];
}

/** Handle that calculations receive: cancel check and progress report over the shared control block. */
export class JobControl {
  private readonly flags: Int32Array;
  private readonly progress: Float64Array;
  /** Absent in a block of the old 16-byte size (tests, `phasedesk calc`): the stage is then not kept. */
  private readonly stage?: Uint8Array;
  constructor(public readonly buffer: SharedArrayBuffer) {
    this.flags = new Int32Array(buffer, 0, 2);
    this.progress = new Float64Array(buffer, PROGRESS_BYTE_OFFSET, 1);
    if (buffer.byteLength >= CONTROL_BYTES) this.stage = new Uint8Array(buffer, STAGE_BYTE_OFFSET, STAGE_MAX_BYTES);
  }
  get cancelled(): boolean {
    return Atomics.load(this.flags, CANCEL_INDEX) !== 0;
  }
  cancel(): void {
    Atomics.store(this.flags, CANCEL_INDEX, 1);
  }
  setProgress(p: number): void {
    this.progress[0] = Math.min(1, Math.max(0, p));
  }
  getProgress(): number {
    return this.progress[0] ?? 0;
  }
  /** Short text of what the calculation is doing; cut to STAGE_MAX_BYTES at a character boundary. */
  setStage(text: string): void {
    if (!this.stage) return;
    const bytes = new Uint8Array(STAGE_MAX_BYTES);
    const { written } = new TextEncoder().encodeInto(text, bytes);
    // The length is cleared while the text changes, so a reader sees the old text, nothing, or the new text.
    Atomics.store(this.flags, STAGE_LENGTH_INDEX, 0);
    this.stage.set(bytes.subarray(0, written));
    Atomics.store(this.flags, STAGE_LENGTH_INDEX, written);
  }
  getStage(): string | null {
    const n = Atomics.load(this.flags, STAGE_LENGTH_INDEX);
    if (!this.stage || n <= 0) return null;
    return new TextDecoder().decode(this.stage.slice(0, Math.min(n, STAGE_MAX_BYTES)));
  }
}

// ---- Messages between the scheduler (main/service/calc-host.ts) and a calculation host (worker/host.ts) ----
/** A job as sent to a host: the host makes the control block, which cannot cross processes. */
export type HostJob = Omit<CalculationJob, 'control'>;
export type HostRequest = { type: 'run'; job: HostJob } | { type: 'cancel' } | { type: 'stop' };
export type HostReport =
  | { type: 'ready' }
  | { type: 'progress'; progress: number; stage: string | null }
  | { type: 'done'; output: JobOutput; rssMb: number }
  | { type: 'failed'; message: string; rssMb: number };
/** Settings a host reads from PHASEDESK_HOST_SETTINGS (JSON) at start. */
export interface HostSettings {
  heapMb: number;
  previewTimeoutSeconds: number;
}

export class CancelledError extends Error {
  /**
   * `kept`: what a calculation that stops between parts keeps (an equilibrium_batch's rows done): its files are
   * complete for those parts, and the service records them on the stopped task.
   */
  constructor(readonly kept?: CalculationOutput) {
    super('calculation cancelled');
    this.name = 'CancelledError';
  }
}

/** What a calculation returns to its host: its output, or that it stopped (with the files it kept, if any). */
export type JobOutput = CalculationOutput & { cancelled?: boolean; kept?: boolean };

/** The job of a task of type T: its configuration typed by the type's schema. */
export type TaskJob<T extends TaskType> = CalculationJob<CalculationConfig<T>>;

/** A calculation of task type T (worker/calculations/<T>.ts exports it as `run`). */
export type Calculation<T extends TaskType = TaskType> = (
  job: TaskJob<T>,
  control: JobControl,
) => Promise<CalculationOutput> | CalculationOutput;

/** One loader per task type of the registry: a type without its calculation module does not compile. */
export type CalculationTable = { [T in TaskType]: () => Promise<{ run: Calculation<T> }> };

/** Job type of one stage of a lab server's C-P-T flow (a grid chunk or bisection part): internal, never a task type. */
export const CPT_STAGE_JOB = 'binary_cpt_diagram_stage';

/** Job type of one stage of a lab server's equilibrium_batch flow (a row chunk or the merge): internal, never a task type. */
export const BATCH_STAGE_JOB = 'equilibrium_batch_stage';
