// Bisection of a phase-set change along a segment (worker/mapping/segment-search.ts) on a hand-made line:
// A below t = 0.3, A+B up to 0.6, B beyond.
import { expect, test } from 'vitest';
import { runSync } from '../../worker/mapping/field_search.js';
import { bisectSetChange } from '../../worker/mapping/segment-search.js';

const at = (t: number) => ({ ok: true, key: t < 0.3 ? 'A' : t < 0.6 ? 'A+B' : 'B' });
const request = (t: number) =>
  (function* () {
    return (yield t) as ReturnType<typeof at>;
  })();

test('the change nearest the start is bracketed to the tolerance', () => {
  const r = runSync(bisectSetChange(request, at(0), at(1), 1e-6), (t: number) => at(t))!;
  expect(r.lo.state.key).toBe('A');
  expect(r.hi.state.key).toBe('A+B');
  expect(r.hi.t - r.lo.t).toBeLessThanOrEqual(1e-6);
  expect(r.lo.t).toBeCloseTo(0.3, 5);
});

test('no change, or a state that does not converge, gives null', () => {
  expect(runSync(bisectSetChange(request, at(0), at(0.1)), (t: number) => at(t))).toBeNull();
  expect(runSync(bisectSetChange(request, at(0), at(1)), () => ({ ok: false, key: '' }))).toBeNull();
});
