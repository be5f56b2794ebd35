// Messages between the service (main/service/scheduler.ts) and the piscina worker (worker/index.ts).

/** Byte layout of the per-job SharedArrayBuffer control block. */
export const CONTROL_BYTES = 16;
/** Int32 index 0: cancel flag, set to 1 by main with Atomics.store; polled by the calculation / native code. */
export const CANCEL_INDEX = 0;
/** Float64 at byte offset 8: progress 0..1 written by the calculation. */
export const PROGRESS_BYTE_OFFSET = 8;

export interface CalculationJob {
  taskUuid: string;
  taskType: string;
  /** task_config with tdb_code replaced by the server-managed tdb_file. */
  config: Record<string, unknown>;
  /** OpenMP threads granted to this job (already bounded by threadBudget / poolSize). */
  ompThreads: number;
  /** Absolute task directory; the calculation writes into <taskDir>/{result,preview,vtk}/. */
  taskDir: string;
  control: SharedArrayBuffer;
  /** catalog code and sha256 of the database file, recorded in result.json (absent in `phasedesk calc`) */
  database?: { code: string; sha256: string };
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
  constructor(public readonly buffer: SharedArrayBuffer) {
    this.flags = new Int32Array(buffer, 0, 1);
    this.progress = new Float64Array(buffer, PROGRESS_BYTE_OFFSET, 1);
  }
  get cancelled(): boolean { return Atomics.load(this.flags, CANCEL_INDEX) !== 0; }
  cancel(): void { Atomics.store(this.flags, CANCEL_INDEX, 1); }
  setProgress(p: number): void { this.progress[0] = Math.min(1, Math.max(0, p)); }
  getProgress(): number { return this.progress[0] ?? 0; }
}

export class CancelledError extends Error {
  constructor() { super('calculation cancelled'); this.name = 'CancelledError'; }
}

export type Calculation = (job: CalculationJob, control: JobControl) => Promise<CalculationOutput> | CalculationOutput;
