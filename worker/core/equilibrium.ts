// TypeScript wrapper of the global equilibrium solver of the calculation core
// (native-core/src/solver, binding native-core/src/napi/solver_napi.cpp; formula sheet
// shared/design/calphad-formulas.md §8-§9). Units: K, Pa, J/mol of atoms, J/(mol K); NP in moles of
// atoms per mole of atoms of the system.
import { CANCEL_INDEX, NATIVE_CONTROL_BYTES, PROGRESS_BYTE_OFFSET } from '../../contract/control-block.js';
import { withCancelFlag } from './cancel.js';
import type { CoreErrorCode } from './errors.js';
import { loadCore, type CoreAddon, type NativeDatabase } from './native.js';

export interface EquilibriumConditions {
  /** temperature, K */
  T: number;
  /** pressure, Pa (default 101325) */
  P?: number;
  /** total moles of atoms; only 1 is supported */
  N?: number;
  /** overall mole fractions of all components but one (clamped to [1e-10, 1-1e-10]) */
  X?: Record<string, number>;
  /** overall mass fractions (masses from the ELEMENT lines of the TDB) */
  W?: Record<string, number>;
  /** fixed chemical potentials, J/mol */
  MU?: Record<string, number>;
}

export interface EquilibriumOptions {
  /** sampling density per phase for the global minimisation (default 60, §8.7) */
  pdens?: number;
  maxIterations?: number;
  /** at most one composition set per phase (no miscibility-gap split; "isolated" phase quantities) */
  singleSet?: boolean;
  /** dot derivatives (§9.4), e.g. 'HM.T', 'MU(AL).X(ZN)', 'NP(FCC_A1).T', 'X(LIQUID,AL).T', 'GM.X(TI)' */
  derivatives?: string[];
  /**
   * equilibriumBatch only: warm start along a line of neighbouring conditions (T scans, composition
   * scans, ...). Each thread takes a contiguous chunk of `conditions`; every condition after the first of
   * a chunk starts Newton from the previous converged result instead of the convex hull. The grid re-scan
   * with the final chemical potentials still certifies every answer globally, and a warm start that does
   * not converge is redone cold, so results equal cold starts within solver tolerance. Default false.
   */
  warmStart?: boolean;
  /**
   * A previous converged result of the same system (same components and phases) to start from instead
   * of the convex hull (e.g. the previous step of a Scheil simulation). Falls back to the cold start if it
   * does not fit or does not converge. equilibriumBatch uses it with warmStart only, for the first
   * condition (a scan cut into batches: each batch continues from the last result of the one before).
   */
  start?: EquilibriumResult;
  /**
   * equilibriumBatch without warmStart only: one start per condition (a previous converged result of the same
   * system, or undefined for the cold start), for independent searches solved side by side, each continuing from
   * its own last state (worker/scans/liquidus-batch.ts). Each falls back to the cold start as `start` does.
   */
  starts?: (EquilibriumResult | undefined)[];
  /**
   * With `starts`: condition i gets a local equilibrium when local[i] and it has a start (native-core/src/solver/
   * equilibrium.hpp, WarmStart::local): Newton among the start's phases, without the grid energies at the new
   * temperature, the grid re-scan or the basin check, for a search that only steers by that state and certifies the
   * ones it keeps. Such an answer says `local: true`.
   */
  local?: boolean[];
}

/** The state of one phase at the equilibrium's T, P and chemical potentials. */
export interface PhaseState {
  name: string;
  x: Record<string, number>;
  /** site fractions in the order of the phase model's variables */
  y: Float64Array;
  GM: number;
  HM: number;
  SM: number;
  /** frozen heat capacity -T d2GM/dT2 (§9.3) */
  CPM: number;
}

export interface CompositionSet extends PhaseState {
  /** 1, 2, ... for the composition sets of one phase (miscibility gap) */
  setNumber: number;
  /** amount in moles of atoms */
  NP: number;
}

export interface MetastablePhase extends PhaseState {
  /** driving force sum_A mu_A x_A - GM at the relaxed composition (§9.2), J/mol of atoms; < 0 = not stable */
  DF: number;
}

export interface EquilibriumResult {
  /** false whenever the solver could not certify the answer; `reason` says why */
  converged: boolean;
  reason: string;
  /**
   * Why not, for code to read (undefined when converged): PD_NO_EQUILIBRIUM when no equilibrium exists at these
   * conditions, PD_NOT_CONVERGED when the solver did not find it, PD_CANCELLED for a batch's condition not reached,
   * the error's code for a batch's condition that threw (errors.ts).
   */
  reasonCode?: CoreErrorCode;
  iterations: number;
  T: number;
  P: number;
  elements: string[];
  GM: number;
  HM: number;
  SM: number;
  CPM: number;
  massBalanceError: number;
  /** chemical potentials, J/mol of element */
  mu: Record<string, number>;
  /** overall mole fractions */
  x: Record<string, number>;
  phases: CompositionSet[];
  metastable: MetastablePhase[];
  derivatives: Record<string, number>;
  /** a local equilibrium, not certified global (options.local); absent otherwise */
  local?: true;
}

/**
 * What a converged answer says beside "converged": '' or the phases left out of it because their Gibbs energy per mole
 * of atoms has no lower bound towards their pure-vacancy configuration (native-core/src/solver/equilibrium.cpp,
 * without_vacant_phases). An unconverged answer's reason is its own.
 */
export function convergedNote(r: Pick<EquilibriumResult, 'converged' | 'reason'>): string {
  return r.converged ? r.reason.replace(/^converged(; )?/, '') : r.reason;
}

/** An unconverged answer that says no equilibrium exists at these conditions (a phase whose Gibbs energy per mole of
 *  atoms has no lower bound, a composition no allowed phase can take), as opposed to a solver that did not find one
 *  (native-core/src/solver: cold_start.cpp, newton.cpp). */
export function saysNoEquilibrium(r: Pick<EquilibriumResult, 'converged' | 'reasonCode'>): boolean {
  return !r.converged && r.reasonCode === 'PD_NO_EQUILIBRIUM';
}

export interface EquilibriumRequest {
  database: NativeDatabase;
  /** elements (and VA where the database uses it) */
  components: string[];
  /** activated phases; empty/absent = every phase the components allow */
  phases?: string[];
  conditions: EquilibriumConditions;
  options?: EquilibriumOptions;
  /**
   * Control block (>= 16 bytes, Int32 cancel flag at byte 0): a set flag stops the call, also while it
   * builds the models and sampling grids of a new system, with an Error of code PD_CANCELLED.
   */
  control?: SharedArrayBuffer;
}

export interface EquilibriumBatchRequest {
  database: NativeDatabase;
  components: string[];
  phases?: string[];
  conditions: EquilibriumConditions[];
  options?: EquilibriumOptions;
  /** OpenMP threads (default 1) */
  threads?: number;
  /**
   * Control block (>= 16 bytes): Int32 index 0 = cancel flag (set non-zero to stop between
   * equilibria; the remaining results have reason 'cancelled'; while the models and sampling grids of a
   * new system are built, the call throws an Error of code PD_CANCELLED), Float64 at byte offset 8 =
   * progress 0..1.
   */
  control?: SharedArrayBuffer;
}

function addon(): CoreAddon {
  return loadCore();
}

/** Global equilibrium at one set of conditions (one dependent component, N = 1). */
export function equilibrium(req: EquilibriumRequest): EquilibriumResult {
  return withCancelFlag(req.control, () =>
    addon().equilibrium(
      req.database,
      req.components,
      req.phases && req.phases.length ? req.phases : null,
      req.conditions,
      req.options,
    ),
  );
}

/** Many independent equilibria across OpenMP threads; results in the order of `conditions`. */
export function equilibriumBatch(req: EquilibriumBatchRequest): EquilibriumResult[] {
  const control = req.control ? new Int32Array(req.control) : undefined;
  if (control && control.byteLength < NATIVE_CONTROL_BYTES)
    throw new Error(`control SharedArrayBuffer must hold at least ${NATIVE_CONTROL_BYTES} bytes`);
  return addon().equilibriumBatch(
    req.database,
    req.components,
    req.phases && req.phases.length ? req.phases : null,
    req.conditions,
    req.options,
    Math.max(1, Math.floor(req.threads ?? 1)),
    control,
  );
}

/** Creates a control block for equilibriumBatch: [cancel Int32 @0, progress Float64 @8]. */
export function createBatchControl(): { buffer: SharedArrayBuffer; cancel(): void; progress(): number } {
  const buffer = new SharedArrayBuffer(NATIVE_CONTROL_BYTES);
  const flags = new Int32Array(buffer);
  const prog = new Float64Array(buffer, PROGRESS_BYTE_OFFSET, 1);
  return {
    buffer,
    cancel: () => {
      Atomics.store(flags, CANCEL_INDEX, 1);
    },
    progress: () => prog[0]!,
  };
}
