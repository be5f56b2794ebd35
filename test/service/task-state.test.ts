import { describe, expect, it } from 'vitest';
import { assertTransition, canTransition, IllegalTransitionError, TASK_STATES } from '../../contract/task-states.js';

// The spec's "Permitted moves between states" table, written out independently of the implementation.
const SPEC_MOVES = new Set([
  'created>queued',
  'created>aborted',
  'created>failed',
  'pending>queued',
  'pending>running',
  'pending>aborted',
  'pending>failed',
  'queued>running',
  'queued>uploading',
  'queued>aborted',
  'queued>failed',
  'running>uploading',
  'running>aborted',
  'running>failed',
  'uploading>completed',
  'uploading>aborted',
  'uploading>failed',
]);

const pairs = TASK_STATES.flatMap((from) => TASK_STATES.map((to) => [from, to] as const));

describe('task state machine', () => {
  it('covers all 64 ordered pairs of the 8 states', () => expect(pairs).toHaveLength(64));

  it.each(pairs.filter(([a, b]) => !SPEC_MOVES.has(`${a}>${b}`)))('refuses %s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
    expect(() => assertTransition(from, to)).toThrow(IllegalTransitionError);
  });

  it.each(pairs.filter(([a, b]) => SPEC_MOVES.has(`${a}>${b}`)))('permits %s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
    expect(() => assertTransition(from, to)).not.toThrow();
  });

  it('refuses unknown states', () => {
    expect(() => assertTransition('pending', 'done')).toThrow(IllegalTransitionError);
    expect(() => assertTransition('nope', 'failed')).toThrow(IllegalTransitionError);
  });
});
