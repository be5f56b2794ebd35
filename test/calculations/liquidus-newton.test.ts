// Liquidus and solidus from a neighbouring alloy's (worker/scans/liquidus-newton.ts) against the scan of the point
// calculation (worker/scans/alloy-temperatures.ts): every answer the Newton search certifies agrees with the scan's
// within ALLOY_T_TOLERANCE (both are the middles of brackets of at most 0.01 K holding the change), on chains of
// alloys where each guess is the previous alloy's answer: a solid solution (Cu-Ni), a eutectic system (Al-Zn), a
// liquidus with a maximum (Cu-Mg through Cu2Mg, which melts congruently), peritectic compounds (Al-Ni, Al3Ni and
// Al3Ni2) and the 7-component Al alloy of the batch benchmark (COST507).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSystem } from '../../worker/system/system.js';
import { alloyTemperatures } from '../../worker/scans/alloy-temperatures.js';
import { ALLOY_T_TOLERANCE } from '../../worker/scans/highest-flip.js';
import { alloyTemperaturesFromGuess, type AlloyGuess } from '../../worker/scans/liquidus-newton.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const P = 101325;
const never = () => false;

interface Chain {
  name: string;
  tdb: string;
  components: string[];
  alloys: Record<string, number>[];
  /** the scan's start (below the solidus of every alloy), K */
  from: number;
  /** alloys (after the first) whose Newton answer must be certified, at least (a far guess may fall back to the scan) */
  certified: number;
}

const binary = (el: string, xs: number[]) => xs.map((x) => ({ [el]: x }));
const X7 = { ZN: 0.025, MG: 0.029, CU: 0.007, SI: 0.002, FE: 0.002, MN: 0.001 };
const alloy7 = (i: number) =>
  Object.fromEntries(Object.entries(X7).map(([el, x], k) => [el, x * (0.7 + 0.6 * ((i * Math.sqrt(k + 2)) % 1))]));

const CHAINS: Chain[] = [
  {
    name: 'Cu-Ni (solid solution)',
    tdb: 'COST507.tdb',
    components: ['CU', 'NI'],
    alloys: binary('NI', [0.2, 0.22, 0.3, 0.5]),
    from: 900,
    certified: 2,
  },
  {
    name: 'Al-Zn (eutectic)',
    tdb: 'alzn_mey.tdb',
    components: ['AL', 'ZN'],
    alloys: binary('ZN', [0.05, 0.06, 0.1, 0.2, 0.3]),
    from: 400,
    certified: 3,
  },
  {
    name: 'Cu-Mg through the maximum of Cu2Mg',
    tdb: 'cumg.tdb',
    components: ['CU', 'MG'],
    alloys: binary('MG', [0.31, 0.32, 0.33, 0.34, 0.35]),
    from: 700,
    certified: 1,
  },
  {
    name: 'Al-Ni (peritectic compounds)',
    tdb: 'COST507.tdb',
    components: ['AL', 'NI'],
    alloys: binary('NI', [0.1, 0.12, 0.2, 0.3]),
    from: 700,
    certified: 1,
  },
  {
    name: 'AL-ZN-MG-CU-SI-FE-MN (COST507)',
    tdb: 'COST507.tdb',
    components: ['ZN', 'MG', 'CU', 'SI', 'FE', 'MN', 'AL'],
    alloys: [1, 2, 3, 4, 5, 6].map(alloy7),
    from: 700,
    certified: 4,
  },
];

describe('liquidus and solidus by Newton from a neighbouring alloy agree with the scan', () => {
  for (const chain of CHAINS) {
    it(chain.name, { timeout: 120_000 }, () => {
      const sys = openSystem(
        { config: { tdb_file: path.join(SHARED_TDB_DIR, chain.tdb) } } as never,
        {
          components: chain.components,
        } as never,
      );
      let guess: AlloyGuess | undefined;
      let certified = 0;
      for (const X of chain.alloys) {
        const scan = alloyTemperatures(sys, X, P, never, undefined, undefined, chain.from);
        expect(scan.liquidus, JSON.stringify(X)).not.toBeNull();
        expect(scan.solidus, JSON.stringify(X)).not.toBeNull();
        const found = guess && alloyTemperaturesFromGuess(sys, X, P, guess, never);
        if (found) {
          certified++;
          expect(Math.abs(found.value.liquidus! - scan.liquidus!), JSON.stringify(X)).toBeLessThanOrEqual(
            ALLOY_T_TOLERANCE,
          );
          expect(Math.abs(found.value.solidus! - scan.solidus!), JSON.stringify(X)).toBeLessThanOrEqual(
            ALLOY_T_TOLERANCE,
          );
        }
        guess = found?.next ?? { liquidus: { T: scan.liquidus! }, solidus: { T: scan.solidus! } };
      }
      expect(certified).toBeGreaterThanOrEqual(chain.certified);
    });
  }
});
