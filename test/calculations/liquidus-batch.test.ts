// Liquidus and solidus of many alloys searched together (worker/scans/liquidus-batch.ts, as equilibrium_batch runs
// them) against the scan of the point calculation (worker/scans/alloy-temperatures.ts), alloy by alloy: 60 alloys of
// the 7-component Al alloy of the batch benchmark (COST507), each solute's mole fraction drawn at random within +-30 %
// of alloy7's, in two chunks on two threads. Every answer must agree with the scan's within ALLOY_T_TOLERANCE (both
// are middles of brackets of at most 0.01 K holding the change), and the searches must certify nearly every alloy (the
// scan runs for the first and for any search that fails, which would hide a broken search behind right answers). The
// searches' counts (searchCounts, which bench:batch prints) must hold what every certified search solves at least.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSystem } from '../../worker/system/system.js';
import { alloyTemperatures } from '../../worker/scans/alloy-temperatures.js';
import { ALLOY_T_TOLERANCE } from '../../worker/scans/highest-flip.js';
import {
  batchAlloyTemperatures,
  GuessPool,
  resetSearchCounts,
  searchCounts,
  type AlloyJob,
} from '../../worker/scans/liquidus-batch.js';
import { liquidPhases } from '../../worker/scans/liquidus-newton.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const P = 101325;
const never = () => false;
const X7 = { ZN: 0.025, MG: 0.029, CU: 0.007, SI: 0.002, FE: 0.002, MN: 0.001 };

/** mulberry32: a seeded generator, so every run draws the same alloys */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('liquidus and solidus of many alloys searched together agree with the scan', () => {
  it('60 random alloys of the 7-component Al alloy (COST507), two threads', { timeout: 900_000 }, () => {
    const sys = openSystem(
      { config: { tdb_file: path.join(SHARED_TDB_DIR, 'COST507.tdb') } } as never,
      { components: ['ZN', 'MG', 'CU', 'SI', 'FE', 'MN', 'AL'] } as never,
    );
    const draw = random(507);
    let scans = 0;
    const jobs: AlloyJob[] = Array.from({ length: 60 }, (_, i) => {
      const X = Object.fromEntries(Object.entries(X7).map(([el, x]) => [el, x * (0.7 + 0.6 * draw())]));
      const scan = () => (scans++, alloyTemperatures(sys, X, P, never, undefined, undefined, 700));
      return { key: String(i), X, P, scan };
    });
    const pool = new GuessPool(liquidPhases(sys));
    resetSearchCounts();
    const found = new Map([
      ...batchAlloyTemperatures(sys, jobs.slice(0, 30), pool, 2, never),
      ...batchAlloyTemperatures(sys, jobs.slice(30), pool, 2, never),
    ]);
    const searched = scans;
    for (const job of jobs) {
      const got = found.get(job.key);
      if (!got || got instanceof Error) throw new Error(`alloy ${job.key}: ${String(got)}`);
      const scan = alloyTemperatures(sys, job.X, P, never, undefined, undefined, 700);
      const where = JSON.stringify(job.X);
      expect(scan.liquidus, where).not.toBeNull();
      expect(scan.solidus, where).not.toBeNull();
      expect(Math.abs(got.liquidus! - scan.liquidus!), where).toBeLessThanOrEqual(ALLOY_T_TOLERANCE);
      expect(Math.abs(got.solidus! - scan.solidus!), where).toBeLessThanOrEqual(ALLOY_T_TOLERANCE);
    }
    // the first alloy has no guess; at most two more may fall back to the scan
    expect(searched).toBeLessThanOrEqual(3);
    // the counts bench:batch prints: every alloy, the scans run, and for each certified search at least the two ends
    // of each bracket and the liquidus's state 50 K above
    expect(searchCounts.alloys).toBe(60);
    expect(searchCounts.scans).toBe(searched);
    const [liquidus, liquidusCertified, solidus] = searchCounts.equilibria;
    expect(liquidus).toBeGreaterThanOrEqual(2 * (60 - searched));
    expect(liquidusCertified).toBeGreaterThanOrEqual(60 - searched);
    expect(solidus).toBeGreaterThanOrEqual(2 * (60 - searched));
    expect(searchCounts.iterations.every((n, i) => n >= searchCounts.equilibria[i]!)).toBe(true);
    // the solidus searches' first states from a prediction are local equilibria (liquidus-newton.ts LOCAL_FIRST_STATE),
    // behind answers that agree with the scan's above
    expect(searchCounts.local).toBeGreaterThanOrEqual(30);
  });
});
