// The task state machine is part of the contract (shared with the renderer).
export * from '../../contract/task-states.js';
