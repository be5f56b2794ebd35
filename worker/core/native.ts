// Loader of the PhaseDesk calculation core (the C++ Node-API addon built from native-core/).
//
// Where the addon is looked for:
//  1. the file named by the environment variable PHASEDESK_CORE_ADDON (private developer builds,
//     `make -C native-core BUILD_DIR=build-x`, see notes/common.md);
//  2. <repo>/native-core/build/Release/phasedesk_core.node, where <repo> is found by walking up from
//     this module's own folder, so it works from the sources (worker/core/native.ts under vitest)
//     and from the compiled layout (dist/worker/core/native.js) alike.
// A failure is reported as ONE actionable Error that tells the user how to build the core.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import type { EquilibriumConditions, EquilibriumOptions, EquilibriumResult } from './equilibrium.js';
import type { EnergyEvaluation, MolesEvaluation, PhaseModelInfo, PhasePropertyValues } from './models.js';

/** Value with first and second derivatives in T and P (pd::TPJet). */
export interface TPJet {
  v: number;
  t: number;
  p: number;
  tt: number;
  tp: number;
  pp: number;
}

export interface NativeElementInfo {
  name: string;
  referencePhase: string;
  mass: number;
}

export interface NativeSpeciesInfo {
  name: string;
  /** element -> moles of that element in one species (empty for VA) */
  composition: Record<string, number>;
  charge: number;
}

export interface NativePhaseInfo {
  name: string;
  /** option letters after ':' on the PHASE line (L, G, A, Y, I, B, F) */
  options: string;
  siteRatios: number[];
  /** per sublattice, as declared by CONSTITUENT */
  constituents: string[][];
  /** MAGNETIC type definition, if any: antiferromagnetic factor and structure factor p */
  magnetic: { afm: number; p: number } | null;
  /** name of the DIS_PART phase of an ordered phase, '' otherwise */
  disorderedPart: string;
  /** non-empty when the phase cannot be used: names the model, the phase and the file */
  refusal: string;
  /** named by DEFAULT_COMMAND REJECT_PHASE in the file: left out unless activated by name */
  rejectedByDefault: boolean;
}

export interface NativeDatabaseInfo {
  file: string;
  elements: NativeElementInfo[];
  species: NativeSpeciesInfo[];
  phases: NativePhaseInfo[];
  parameterCount: number;
  /** "FILE:LINE: text" for everything that was ignored or questionable but did not stop the load */
  warnings: string[];
  /** the same warnings as records, in the same order */
  loadWarnings: NativeLoadWarning[];
}

/**
 * A problem of a TDB file that did not stop the load: a command ignored, or dropped with what depends on it (a phase
 * with its CONSTITUENT and PARAMETERs, a FUNCTION with the PARAMETERs using it).
 */
export interface NativeLoadWarning {
  /** the file name without its folders */
  file: string;
  /** the line of the command; 0 for the file as a whole */
  line: number;
  /** what is wrong and what was ignored or dropped */
  message: string;
  /** the phase the command belongs to, or the phase dropped; '' when none */
  phase: string;
}

/** A loaded thermodynamic database living in the native core (immutable). */
export interface NativeDatabase {
  info(): NativeDatabaseInfo;
  /**
   * Phases that can exist with these elements (VA implied), in database order; without `includeRejected`, the phases the file rejects
   * by default (DEFAULT_COMMAND REJECT_PHASE) are left out, as Thermo-Calc does.
   */
  phasesFor(elements: string[], includeRejected?: boolean): string[];
  /** a copy in which the named FUNCTIONs are replaced by constants */
  withOverrides(overrides: Record<string, number>): NativeDatabase;
  /** value and T/P derivatives of a FUNCTION (mainly for tests) */
  evaluateFunction(name: string, T: number, P?: number): TPJet;
  /** parameters as stored (constituents sorted per sublattice, L stored as type G), optionally of one phase */
  parameters(phase?: string): NativeParameterInfo[];
  /** FUNCTION names in file order */
  functionNames(): string[];
}

export interface NativeParameterInfo {
  /** canonical type: G (also for L), BMAGN (also for BM), TC, NT, THETA, GD, V0, VA, MQ, ... */
  type: string;
  writtenAsL: boolean;
  phase: string;
  /** text after '&' in MQ(PHASE&EL,...) */
  qualifier: string;
  constituents: string[][];
  order: number;
  line: number;
  /** the file it was read from, without its folders: the mobility file's for the parameters read from it */
  file: string;
}

export interface NativeDatabaseClass {
  /**
   * Throws Error "FILE:LINE: message" for a malformed file. With `mobilityPath`, a file of mobility data (MQ, MF, DQ,
   * DF parameters) is read beside the thermodynamic one: it adds its FUNCTIONs and mobility PARAMETERs only (anything
   * else in it is ignored with a warning); warnings and errors about it name it and its lines.
   */
  fromFile(path: string, mobilityPath?: string): NativeDatabase;
  fromString(text: string, name: string, mobilityText?: string, mobilityName?: string): NativeDatabase;
  /**
   * What a file of mobility data alone names (from a file without ELEMENT or PHASE, which fromFile refuses with
   * PD_TDB_MOBILITY_ONLY): the phases and diffusing elements of its mobility parameters; throws when it has none.
   */
  mobilitySummary(
    text: string,
    name: string,
  ): {
    phases: string[];
    elements: string[];
    parameterCount: number;
    warnings: string[];
    loadWarnings: NativeLoadWarning[];
  };
}

/** A phase model living in the native core (models/phase_model.hpp), wrapped by models.ts. */
export interface NativePhaseModel {
  info(): PhaseModelInfo;
  evaluate(T: number, P: number, y: Float64Array | number[], order: number): EnergyEvaluation;
  properties(T: number, P: number, y: Float64Array | number[]): Omit<PhasePropertyValues, 'GM' | 'SM' | 'HM' | 'CPM'>;
  moles(y: Float64Array | number[], order: number): MolesEvaluation;
  energies(T: number, P: number, Y: Float64Array | number[]): Float64Array;
  energiesTabulated(T: number, P: number, Y: Float64Array | number[]): Float64Array | null;
  tabulatedRoundingBound(T: number, P: number, Y: Float64Array | number[]): number | null;
  orderingTemperatures(T: number, P: number, Y: Float64Array | number[]): Float64Array;
  orderingTemperatureMaxTabulated(T: number, P: number, Y: Float64Array | number[]): number | null;
  evaluateBatch(T: number, P: number, Y: Float64Array | number[], order: number, threads: number): Float64Array;
}

/** The kinetic parameters of one phase at a point (native-core/src/models/mobility_model.hpp), per element. */
export interface NativeMobilityValues {
  /** parameter sums per element of elements(), J/mol (0 where absent) */
  MQ: Float64Array;
  MF: Float64Array;
  DQ: Float64Array;
  DF: Float64Array;
  /** 1: mobility data (MQ/MF), 2: diffusivity data (DQ/DF), 3: both, 0: none */
  present: Float64Array;
  /** M_k, m^2 mol/(J s); NaN without mobility data */
  mobility: Float64Array;
  /** D_k = exp((DF + DQ)/RT), m^2/s; NaN without diffusivity data */
  diffusivity: Float64Array;
  /** Jonsson's degree of magnetic order xi, and the alpha of the phase's ferromagnetic factor */
  magneticOrder: number;
  alpha: number;
}

export interface NativeMobilityModel {
  elements(): string[];
  evaluate(T: number, P: number, y: Float64Array | number[], curie: number, hasMoment: boolean): NativeMobilityValues;
}

/**
 * The production addon's exports (native-core/src/napi): the one declaration of its interface. Errors it
 * throws carry a `code` (errors.ts).
 */
export interface CoreAddon {
  coreVersion: string;
  Database: NativeDatabaseClass;
  PhaseModel: { build(db: NativeDatabase, phase: string, components: string[]): NativePhaseModel | null };
  /** null: the phase has no kinetic parameter for these components */
  MobilityModel: { build(db: NativeDatabase, phase: string, components: string[]): NativeMobilityModel | null };
  /** Jonsson's degree of magnetic order at tau = T/T* for structure factor p */
  magneticOrderDegree(tau: number, p: number): number;
  expandedParameterCount(db: NativeDatabase): number;
  maxThreads(): number;
  equilibrium(
    db: NativeDatabase,
    components: string[],
    phases: string[] | null,
    conditions: EquilibriumConditions,
    options?: EquilibriumOptions,
  ): EquilibriumResult;
  /** control: view of the control block (cancel Int32 at byte 0, progress Float64 at byte 8) */
  equilibriumBatch(
    db: NativeDatabase,
    components: string[],
    phases: string[] | null,
    conditions: EquilibriumConditions[],
    options: EquilibriumOptions | undefined,
    threads: number,
    control?: Int32Array,
  ): EquilibriumResult[];
  /** the cancel flag polled by every later native call on this thread (cancel.ts); null clears it */
  setCancelFlag(control: Int32Array | SharedArrayBuffer | null): void;
}

const REQUIRED_MEMBERS = [
  'Database',
  'PhaseModel',
  'MobilityModel',
  'magneticOrderDegree',
  'expandedParameterCount',
  'maxThreads',
  'equilibrium',
  'equilibriumBatch',
  'setCancelFlag',
] as const;

let cached: CoreAddon | undefined;

/** Where an addon of native-core/build/Release is (the production one unless named; tests load the testing one). */
export function findRepoAddon(file = 'phasedesk_core.node'): string {
  // Walk up from this module's folder to the first ancestor holding native-core/.
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'native-core', 'build', 'Release', file);
    if (existsSync(path.join(dir, 'native-core'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // Fall back to the source layout (worker/core -> repo), so the error message names a real place.
  return path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '..',
    '..',
    'native-core',
    'build',
    'Release',
    file,
  );
}

/** Path the addon is (or would be) loaded from. */
export function coreAddonPath(): string {
  const env = process.env.PHASEDESK_CORE_ADDON;
  return env && env.length > 0 ? path.resolve(env) : findRepoAddon();
}

/** The OpenMP wait policy the calculation threads run with unless the user set OMP_WAIT_POLICY (see below). */
export const SERVICE_OMP_WAIT_POLICY = 'PASSIVE';

/**
 * OpenMP threads waiting for work sleep instead of spinning (libgomp reads OMP_WAIT_POLICY once, when the core
 * loads it; a value the user set is kept). The mappers solve many short batches over the threads; on a busy
 * machine (other calculations, a test run) a spinning waiter takes a core from the threads still working, and the
 * batch's closing barrier then waits a time slice for a thread the system has not scheduled: binary diagrams
 * mapped 5-10 times slower under load (pbsn 1.6 s instead of 0.15 s). Asleep, a waiter costs a wake-up of a few
 * microseconds per batch. Set only where process.env is the process's environment (the main thread: a worker
 * thread's is a copy), so the calculation host calls this before it starts its calculation thread.
 */
export function preferSleepingOpenMpThreads(): void {
  if (isMainThread && process.env.OMP_WAIT_POLICY === undefined) process.env.OMP_WAIT_POLICY = SERVICE_OMP_WAIT_POLICY;
}

/** Loads (once) and returns the calculation core. Throws one actionable Error if it is not built. */
export function loadCore(): CoreAddon {
  if (cached) return cached;
  preferSleepingOpenMpThreads();
  const file = coreAddonPath();
  let addon: CoreAddon;
  try {
    const require = createRequire(import.meta.url);
    addon = require(file) as CoreAddon;
  } catch (err) {
    const original = err instanceof Error ? err.message : String(err);
    throw new Error(
      'PhaseDesk calculation core not built: run `npm install` (needs g++ and make) in the PhaseDesk folder, ' +
        `or set PHASEDESK_CORE_ADDON to a built phasedesk_core.node. Tried ${file}; original error: ${original}`,
      { cause: err },
    );
  }
  const missing = REQUIRED_MEMBERS.filter((m) => !addon || typeof addon[m] !== 'function');
  if (missing.length > 0) {
    throw new Error(
      `PhaseDesk calculation core at ${file} is incomplete (no ${missing.join(', ')}): rebuild it with \`npm run build:core\`.`,
    );
  }
  cached = addon;
  return addon;
}
