// Convergence on real steels (scripts/steel-sweep.ts): mf-steel.tdb with the phases its author recommends. Every
// point of a T scan of six alloys (600-1800 K every 10 K, warm-started from point to point as line_calculation runs
// it) and of 300 random points of the Fe-Cr-Ni-Mo-Mn-Si-C-N subsystem converges to a certified state or says that no
// equilibrium exists. Two points that failed are checked for the state that OpenCalphad finds: AISI 304 at 1100 K
// (BCC_A2 entering FCC_A1 + M23C6_D84 + SIGMA2_D8B with 426 J/mol left again after one Newton step, in every
// retry) and a point of the Fe-Cr-Ni section at 1073 K (SIGMA2_D8B entering FCC_A1 + BCC_A2, 91 J/mol); both converge
// with the phase changes delayed as OpenCalphad delays them (native-core/src/solver/newton.cpp, removal_delayed). A
// random point inside a spinodal of LIQUID converges with the liquid split (split_set_at_saddle), and two random points
// where Newton went round a cycle of assemblages converge with a phase that enters again entering the assemblage of
// least G over the sets (assemblage_lp.cpp, enter_least_assemblage). The cold scans: npm run audit:steels -- --cold.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../../../worker/core/database.js';
import { equilibrium } from '../../../worker/core/equilibrium.js';
import {
  STEEL_ELEMENTS,
  STEEL_TDB,
  STEELS,
  randomSteelPoints,
  randomSteelTally,
  recommendedPhases,
  scanSteel,
  steelSystem,
} from '../../../scripts/steel-sweep.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';

const db = openDatabase(path.join(SHARED_TDB_DIR, STEEL_TDB));

/** The cold equilibrium of point `index` of randomSteelPoints(count) (Fe-Cr-Ni-Mo-Mn-Si-C-N, recommended phases). */
function randomPointEquilibrium(count: number, index: number) {
  return equilibrium({
    database: db,
    components: [...STEEL_ELEMENTS, 'VA'],
    phases: recommendedPhases(db, STEEL_ELEMENTS),
    conditions: randomSteelPoints(count)[index]!,
  });
}

function stablePhases(r: { phases: { name: string }[] }): string[] {
  return r.phases.map((p) => p.name).sort();
}

describe('the points that failed converge to the lower state', () => {
  test('AISI 304 at 1100 K: FCC_A1 + BCC_A2 + M23C6_D84, 86 J/mol below the state it stopped in', () => {
    const sys = steelSystem(db, 'AISI 304');
    expect(sys.phases).not.toContain('BCC_B2');
    expect(sys.phases).not.toContain('FCC_L12');
    const r = equilibrium({
      database: db,
      components: sys.components,
      phases: sys.phases,
      conditions: { T: 1100, X: sys.X },
    });
    expect(r.converged, r.reason).toBe(true);
    expect(stablePhases(r)).toEqual(['BCC_A2', 'FCC_A1', 'M23C6_D84']);
    const np = Object.fromEntries(r.phases.map((p) => [p.name, p.NP]));
    expect(np.FCC_A1).toBeCloseTo(0.577, 2);
    expect(np.BCC_A2).toBeCloseTo(0.413, 2);
    // the unconverged FCC_A1 + M23C6_D84 + SIGMA2_D8B had GM = -56008.96 J/mol
    expect(r.GM).toBeLessThan(-56008.96 - 80);
    // the same with the three phases of the answer alone
    const three = equilibrium({
      database: db,
      components: sys.components,
      phases: ['FCC_A1', 'BCC_A2', 'M23C6_D84'],
      conditions: { T: 1100, X: sys.X },
    });
    expect(three.converged, three.reason).toBe(true);
    expect(three.GM).toBeCloseTo(r.GM, 4);
  });

  test('Fe-0.2043Cr-0.1711Ni (mole fractions) at 1073 K: FCC_A1 + SIGMA2_D8B', () => {
    const elements = ['FE', 'CR', 'NI'];
    const r = equilibrium({
      database: db,
      components: [...elements, 'VA'],
      phases: recommendedPhases(db, elements),
      conditions: { T: 1073, X: { CR: 0.2043, NI: 0.1711 } },
    });
    expect(r.converged, r.reason).toBe(true);
    expect(stablePhases(r)).toEqual(['FCC_A1', 'SIGMA2_D8B']);
    // the unconverged FCC_A1 + BCC_A2 had GM = -53896.28 J/mol
    expect(r.GM).toBeLessThan(-53896.28 - 4);
  });

  test('a LIQUID inside its spinodal splits: x(C) = 0.34 at 1649 K', () => {
    const r = randomPointEquilibrium(127, 126);
    expect(r.converged, r.reason).toBe(true);
    expect(r.phases.filter((p) => p.name === 'LIQUID')).toHaveLength(2);
    // the unconverged GRAPHITE_A9 + M7C3_D101 + HCP_A3 + LIQUID had GM = -96609.74 J/mol
    expect(r.GM).toBeLessThan(-96609.74 - 300);
  });
});

describe('a cold start that fails at its temperature converges from a kelvin away', () => {
  test('840.99 K, x(SI) = 0.36, x(MO) = 0.14, x(N) = 0.10: BCC_A2 enters five silicides, carbides and nitrides', () => {
    const r = randomPointEquilibrium(300, 40);
    expect(r.converged, r.reason).toBe(true);
    expect(stablePhases(r)).toEqual(['BCC_A2', 'LAVES_C14', 'M5SI3_D88', 'M5SI3_D8M', 'SI3N4', 'SIC_B3']);
    // the cold start and its other retries stopped at the iteration limit in M5SI3_D8M + SIC_B3 + SI3N4 + LAVES_C14
    // at GM = -71561.74 J/mol
    expect(r.GM).toBeLessThan(-71561.74 - 2000);
  });
});

describe('random points where Newton went round a cycle of assemblages converge to the lower state', () => {
  // Each point: its index among randomSteelPoints(300), the assemblage found and the GM of the unconverged answer
  // before (the cycle's last state, reached at the iteration limit).
  const cases = [
    {
      index: 224,
      label: '749.6 K, x(CR) = 0.31, x(MO) = 0.21, x(MN) = 0.20',
      phases: ['ALM3_A15', 'CHI_A12', 'CUB_A13', 'HCP_A3', 'LAVES_C14', 'M23C6_D84', 'SIGMA_D8B'],
      unconvergedGM: -49126.47,
    },
    {
      index: 283,
      label: '1249.0 K, x(MN) = 0.25, x(NI) = 0.22, x(MO) = 0.16',
      phases: ['ALM3_A15', 'BCC_A2', 'HCP_A3', 'HCP_A3', 'LAVES_C15', 'M5SI3_D8M'],
      unconvergedGM: -102073.6,
    },
  ];
  test.each(cases)('$label', ({ index, phases, unconvergedGM }) => {
    const r = randomPointEquilibrium(300, index);
    expect(r.converged, r.reason).toBe(true);
    expect(stablePhases(r)).toEqual(phases);
    expect(r.GM).toBeLessThan(unconvergedGM - 60);
    // the same state with the phases of the answer alone
    const alone = equilibrium({
      database: db,
      components: [...STEEL_ELEMENTS, 'VA'],
      phases: [...new Set(phases)],
      conditions: randomSteelPoints(300)[index]!,
    });
    expect(alone.converged, alone.reason).toBe(true);
    expect(alone.GM).toBeCloseTo(r.GM, 4);
  });
});

describe('every point converges or says that no equilibrium exists', () => {
  test.each(Object.keys(STEELS))('%s, warm T scan 600-1800 K', (alloy) => {
    const t = scanSteel(db, alloy, true);
    expect(t.failed).toEqual([]);
    expect(t.converged + Object.values(t.noEquilibrium).reduce((a, b) => a + b, 0)).toBe(t.points);
  });

  test('300 random points of Fe-Cr-Ni-Mo-Mn-Si-C-N', () => {
    const t = randomSteelTally(db, 300);
    expect(t.failed).toEqual([]);
  }, 300_000);
});
