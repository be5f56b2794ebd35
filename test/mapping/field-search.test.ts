// The composition search for narrow two-phase fields (worker/mapping/field_search.ts) and the location of
// pure-element transitions on a diagram's edge (worker/mapping/pure_edges.ts), on a synthetic binary A-B
// whose equilibria are written down exactly: pure A is ALPHA below 700 K, BETA between 700 and 1000 K and
// LIQUID above; B dissolved in A opens a lens above each transition (x_solid = (T - Tt) / 2000,
// x_other = (T - Tt) / 1000: 1e-4 wide 0.2 K above the transition).
import { describe, expect, test } from 'vitest';
import { bisectForTwoPhase, marchToField, runSync, type FieldState } from '../../worker/mapping/field_search.js';
import { edgeBrackets, edgePhase, narrowEdgeBracket, type EdgeState } from '../../worker/mapping/pure_edges.js';

interface State extends FieldState, EdgeState {
  phases: { label: string; x: number; NP: number }[];
}

/** One request of a search: yields the coordinate, returns the state the driver solved there. */
function* probe(at: number): Generator<number, State, State> {
  return yield at;
}

let calls = 0;
function solve(T: number, X: number): State {
  calls++;
  const one = (label: string): State => ({ ok: true, T, X, key: label, phases: [{ label, x: X, NP: 1 }] });
  const lens = (Tt: number, low: string, high: string): State | null => {
    const xs = (T - Tt) / 2000,
      xo = (T - Tt) / 1000;
    if (X < xs) return one(high);
    if (X > xo) return one(low);
    const f = (X - xs) / (xo - xs);
    return {
      ok: true,
      T,
      X,
      key: `${high}+${low}`,
      phases: [
        { label: high, x: xs, NP: 1 - f },
        { label: low, x: xo, NP: f },
      ],
    };
  };
  if (T < 700) return one('ALPHA');
  if (T < 1000) return lens(700, 'ALPHA', 'BETA')!;
  return lens(1000, 'BETA', 'LIQUID')!;
}

describe('field search at fixed T', () => {
  test('marching from the edge finds a lens 1e-4 wide and returns its tie-line', () => {
    calls = 0;
    const T = 1000.2;
    const f = runSync(marchToField(probe, solve(T, 0), { limit: 0.1, firstStep: 1e-6, growth: 4 }), (X: number) =>
      solve(T, X),
    );
    expect(f?.key).toBe('LIQUID+BETA');
    expect(f!.phases[0].x).toBeCloseTo(0.2 / 2000, 12);
    expect(f!.phases[1].x).toBeCloseTo(0.2 / 1000, 12);
    expect(calls).toBeLessThan(40);
  });
  test('no field within reach gives null; bisection between two phases lands inside the field', () => {
    const T = 1000.2;
    const at = probe;
    const drive = (X: number) => solve(T, X);
    expect(runSync(marchToField(at, solve(T, 0.5), { limit: 0.9, firstStep: 0.01 }), drive)).toBeNull();
    const inside = runSync(bisectForTwoPhase(at, solve(T, 0), solve(T, 0.5)), drive);
    expect(inside?.phases.length).toBe(2);
    expect(inside!.X).toBeGreaterThan(1e-4);
    expect(inside!.X).toBeLessThan(2e-4);
  });
  test('a step across the lens and the neighbour beyond it into a third field is taken back to the lens', () => {
    // Cu-V of mc_fe at 1357.80 K: liquid, a liquid + fcc lens 3e-5 wide, fcc 1.4e-4 wide, then fcc + hcp
    const at = (X: number): State => {
      const one = (label: string): State => ({ ok: true, T: 1357.8, X, key: label, phases: [{ label, x: X, NP: 1 }] });
      const two = (a: string, xa: number, b: string, xb: number): State => {
        const f = (X - xa) / (xb - xa);
        return {
          ok: true,
          T: 1357.8,
          X,
          key: `${a}+${b}`,
          phases: [
            { label: a, x: xa, NP: 1 - f },
            { label: b, x: xb, NP: f },
          ],
        };
      };
      if (X < 0.00035) return one('LIQUID');
      if (X < 0.00038) return two('LIQUID', 0.00035, 'FCC_A1', 0.00038);
      if (X < 0.00052) return one('FCC_A1');
      return two('FCC_A1', 0.00052, 'HCP_A3', 0.0748);
    };
    const f = runSync(marchToField(probe, at(0.00025), { limit: 0.05, firstStep: 1e-3, growth: 3, xTol: 1e-6 }), at);
    expect(f?.key).toBe('LIQUID+FCC_A1');
  });
});

describe('pure-element transitions on an edge', () => {
  test('brackets from a 30 K scan, narrowed to 0.02 K at each transition', () => {
    const states = Array.from({ length: 41 }, (_, k) => solve(300 + 30 * k, 0));
    expect(edgePhase(states[0])).toBe('ALPHA');
    const br = edgeBrackets(states);
    expect(br.map(([a, b]) => [edgePhase(a), edgePhase(b)])).toEqual([
      ['ALPHA', 'BETA'],
      ['BETA', 'LIQUID'],
    ]);
    const narrowed = br.flatMap(([a, b]) => runSync(narrowEdgeBracket(probe, a, b, 0.02), (T: number) => solve(T, 0)));
    expect(narrowed).toHaveLength(2);
    for (const [[a, b], Tt] of narrowed.map((p, k) => [p, [700, 1000][k]] as const)) {
      expect(b.T - a.T).toBeLessThanOrEqual(0.02);
      expect(a.T).toBeLessThan(Tt);
      expect(b.T).toBeGreaterThanOrEqual(Tt);
    }
  });
  test('a bracket over two transitions is split at the phase met inside', () => {
    const [lo, hi] = [solve(650, 0), solve(1050, 0)];
    expect(edgeBrackets([lo, hi])).toHaveLength(1);
    const narrowed = runSync(narrowEdgeBracket(probe, lo, hi, 0.02), (T: number) => solve(T, 0));
    expect(narrowed.map(([a, b]) => `${edgePhase(a)}->${edgePhase(b)}`)).toEqual(['ALPHA->BETA', 'BETA->LIQUID']);
  });
  test('the edge phase is the one with the largest amount (a solvus can add a vanishing second phase)', () => {
    expect(
      edgePhase({
        ok: true,
        T: 500,
        phases: [
          { label: 'FCC_A1', NP: 1 - 4e-10 },
          { label: 'AL3NI', NP: 4e-10 },
        ],
      }),
    ).toBe('FCC_A1');
    expect(edgePhase({ ok: false, T: 500, phases: [] })).toBeNull();
  });
});
