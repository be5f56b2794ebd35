// The test-only core addon phasedesk_core_testing.node (native-core/src/solver/testing, its own node-gyp target):
// the solver's self tests on toy models, a C++ exception through the production error translation and a real native
// crash. Loaded by tests and by the test calculations (calculations.ts); the service never loads it, and the
// production build does not contain this loader (test/support/hooks is built by the test setup alone).
import { createRequire } from 'node:module';
import path from 'node:path';
import { findRepoAddon, preferSleepingOpenMpThreads } from '../../../worker/core/native.js';

export interface TestingAddon {
  solverSelfTest(verbose?: boolean): { passed: number; failed: number; messages: string[] };
  /** throws a C++ library exception through the production error translation (PD_INTERNAL) */
  internalErrorProbe(): never;
  /** PhaseModel::energy_change_bound on the sampled grid of a phase of a real database, with the real change */
  energyChangeBound(
    tdbPath: string,
    phase: string,
    components: string[],
    T0: number,
    T1: number,
  ): { points: number; magnetic: boolean; largestChange: number; bound: number };
  /** a line of warm-started equilibria at fixed mole fractions, with the grids kept at earlier energies */
  warmSequence(
    tdbPath: string,
    phases: string[],
    components: string[],
    xElements: string[],
    xValues: number[],
    temperatures: number[],
  ): {
    points: { converged: boolean; phases: string[]; amounts: number[]; mu: number[]; GM: number }[];
    staleGrids: number;
    /** phase re-scans left out or kept to the points near the hyperplane (grid_scan.cpp) */
    sparedScans: number;
    /** points those re-scans left out within reach of the hyperplane, counted under PHASEDESK_SOLVER_CHECK_SCANS */
    sparedScanViolations: number;
    /** composition sets linearised (newton_system.cpp linearize) */
    linearizations: number;
  };
  /** aborts the process (std::abort): a real native crash for the service's crash-isolation test */
  crashForTest(): never;
}

let cachedTesting: TestingAddon | undefined;

/**
 * Loads the test-only addon (PHASEDESK_CORE_TESTING_ADDON, or next to the production addon's default place).
 */
export function loadTestingCore(): TestingAddon {
  if (cachedTesting) return cachedTesting;
  preferSleepingOpenMpThreads();
  const env = process.env.PHASEDESK_CORE_TESTING_ADDON;
  const file = env && env.length > 0 ? path.resolve(env) : findRepoAddon('phasedesk_core_testing.node');
  try {
    cachedTesting = createRequire(import.meta.url)(file) as TestingAddon;
  } catch (err) {
    throw new Error(
      `test-only core addon not built (npm install builds it; or set PHASEDESK_CORE_TESTING_ADDON). ` +
        `Tried ${file}: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  return cachedTesting;
}
