// Task states and the state machine: exactly the spec's "Permitted moves between states" table
// (service spec, "States and transitions"). Everything else throws. Shared by the service and the renderer.

export const TASK_STATES = [
  'created',
  'pending',
  'queued',
  'running',
  'uploading',
  'completed',
  'failed',
  'aborted',
] as const;
export type TaskState = (typeof TASK_STATES)[number];

export const PERMITTED: Readonly<Record<TaskState, readonly TaskState[]>> = {
  created: ['queued', 'aborted', 'failed'],
  pending: ['queued', 'running', 'aborted', 'failed'],
  queued: ['running', 'uploading', 'aborted', 'failed'],
  running: ['uploading', 'aborted', 'failed'],
  uploading: ['completed', 'aborted', 'failed'],
  completed: [],
  failed: [],
  aborted: [],
};

/** States from which PATCH /task/{id}/cancel and DELETE stop a task. */
export const CANCELLABLE: readonly TaskState[] = ['pending', 'queued', 'running'];
export const TERMINAL: readonly TaskState[] = ['completed', 'failed', 'aborted'];

export class IllegalTransitionError extends Error {
  constructor(
    public readonly from: string,
    public readonly to: string,
  ) {
    super(`illegal task state transition ${from} -> ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

export function isTaskState(s: string): s is TaskState {
  return (TASK_STATES as readonly string[]).includes(s);
}

export function canTransition(from: string, to: string): boolean {
  return isTaskState(from) && isTaskState(to) && PERMITTED[from].includes(to);
}

export function assertTransition(from: string, to: string): void {
  if (!canTransition(from, to)) throw new IllegalTransitionError(from, to);
}
