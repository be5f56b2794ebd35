// Point equilibria of a ternary isothermal section (worker/mapping/ternary.ts): the condition set of a composition
// (T and P fixed, two mole fractions), the stable sets of a result with their compositions, and the three ways the
// mapper asks: one point (warm-started from a neighbour's answer or cold), the stable one of a warm and a cold
// answer, and many points in chunks over the threads. Every equilibrium is counted in the map's ledger.
import { equilibrium, type EquilibriumOptions, type EquilibriumResult } from '../../core/equilibrium.js';
import type { NativeDatabase } from '../../core/native.js';
import { CancelledError, type JobControl } from '../../protocol.js';
import { solveChunked } from '../core/grid.js';
import type { MapLedger } from '../core/ledger.js';
import type { Vec3 } from './geometry.js';

/** A stable set of a section's equilibrium: its set label (NAME, NAME#2), phase name and composition. */
export interface SetState {
  label: string;
  base: string;
  x: Vec3;
}
/** An equilibrium of the section at overall composition X (raw: the solver's result, for warm starts). */
export interface SectionState {
  ok: boolean;
  X: Vec3;
  phases: SetState[];
  raw: EquilibriumResult | null;
}

export interface SectionSetup {
  database: NativeDatabase;
  /** the three elements, in the order of the compositions */
  components: [string, string, string];
  /** the solver's components: the elements, and VA where the database defines it */
  solverComponents: string[];
  phases?: string[];
  T: number;
  P: number;
  /** sampling density of the global minimisation (none: the solver's default) */
  pdens?: number;
  threads: number;
  control?: Pick<JobControl, 'cancelled' | 'setProgress'>;
  /** warm-start the grid's equilibria from their row neighbours */
  warmGrid: boolean;
}

const NP_MIN = 1e-9;
/** the solver clamps given fractions to [1e-10, 1 - 1e-10]; a dependent fraction of exactly 0 does not converge */
const EDGE_EPS = 1e-9;
/** J/mol: of a warm and a cold answer at one composition, the cold one replaces the warm one when lower by more */
export const GM_TOL = 1e-4;

export class SectionSolver {
  private readonly options: EquilibriumOptions;

  constructor(
    private readonly s: SectionSetup,
    private readonly ledger: MapLedger,
  ) {
    this.options = s.pdens ? { pdens: s.pdens } : {};
  }

  /** The solver's components (the labels' point conversion takes the same). */
  get solverComponents(): string[] {
    return this.s.solverComponents;
  }

  /** The condition set of composition X: every fraction kept off exact zero (the dependent one included). */
  conditionOf(X: Vec3) {
    const s = X.map((v) => Math.max(EDGE_EPS, v));
    const tot = s[0]! + s[1]! + s[2]!;
    const c = this.s.components;
    return { T: this.s.T, P: this.s.P, X: { [c[1]]: s[1]! / tot, [c[2]]: s[2]! / tot } };
  }

  /** The mole fractions of the three components as a record (for the state labels). */
  composition(X: Vec3): Record<string, number> {
    return Object.fromEntries(this.s.components.map((c, k) => [c, X[k]!]));
  }

  private toState(X: Vec3, r: EquilibriumResult | null): SectionState {
    if (!r || !r.converged) return { ok: false, X, phases: [], raw: r };
    const phases = r.phases
      .filter((p) => p.NP > NP_MIN)
      .map((p) => ({
        label: p.setNumber > 1 ? `${p.name}#${p.setNumber}` : p.name,
        base: p.name,
        x: this.s.components.map((c) => p.x[c] ?? 0) as Vec3,
      }));
    return { ok: true, X, phases, raw: r };
  }

  /** The equilibrium at X, Newton started from `start` when given (the solver still certifies it globally). */
  solve(X: Vec3, start?: EquilibriumResult | null): SectionState {
    this.ledger.checkCancel();
    let r: EquilibriumResult | null = null;
    try {
      r = equilibrium({
        database: this.s.database,
        components: this.s.solverComponents,
        phases: this.s.phases,
        conditions: this.conditionOf(X),
        options: { ...this.options, ...(start ? { start } : {}) },
      });
    } catch (e) {
      if ((e as { code?: string }).code === 'PD_CANCELLED') throw new CancelledError();
      r = null;
    }
    const eq = this.toState(X, r);
    this.ledger.count(eq.ok);
    return eq;
  }

  /**
   * The stable answer at X when a warm start is at hand: a warm start keeps the basin of the answer it starts
   * from, and where the sampling grid has no point near the stable state's (B2 of alcrni near NiAl at 1273 K and
   * the default density) the solver's re-scan cannot tell a metastable branch from the stable one. The cold
   * answer is solved too, and of two converged answers at one composition the lower Gibbs energy is the stable.
   */
  solveStable(X: Vec3, start: EquilibriumResult | null): SectionState {
    const warm = start ? this.solve(X, start) : null;
    const cold = this.solve(X);
    if (!warm || !warm.ok) return cold;
    // a cold solve that fails beside a converged warm one is no failure of the map
    if (!cold.ok) {
      this.ledger.notConverged--;
      return warm;
    }
    return cold.raw!.GM < warm.raw!.GM - GM_TOL ? cold : warm;
  }

  /** Many points in chunks over the threads (progress p0..p1). */
  batch(points: Vec3[], p0: number, p1: number): SectionState[] {
    const s = this.s;
    const rs = solveChunked(
      this.ledger,
      {
        database: s.database,
        components: s.solverComponents,
        phases: s.phases,
        options: { ...this.options, warmStart: s.warmGrid },
      },
      points.map((X) => this.conditionOf(X)),
      s.threads,
      s.control as JobControl | undefined,
      p0,
      p1,
    );
    return rs.map((r, i) => this.toState(points[i]!, r));
  }
}
