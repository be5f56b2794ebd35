// Task type scheil_solidification (issue 5): Scheil-Gulliver solidification beside the equilibrium
// (lever-rule) solidification of the same alloy.
//
// Model (classic Scheil-Gulliver; E. Scheil, Z. Metallkd. 34 (1942) 70; G.H. Gulliver, J. Inst. Met. 9
// (1913) 120; as implemented step-wise by pycalphad/scheil, and by S.-L. Chen et al., J. Phase Equilib.
// Diffus. 30 (2009) 429): complete mixing in the liquid, local equilibrium at the liquid/solid
// interface, no diffusion in the solids. The formula sheet (shared/design/calphad-formulas.md) has no
// Scheil section, so the classic rules are used:
//   at each temperature T_k the remaining liquid (composition x_L) is brought to equilibrium with the
//   allowed phases; the solids formed are removed:  f_s <- f_s + (1 - f_s) * (1 - NP(liquid)), each
//   solid phase j gains (1 - f_s) * NP(j); x_L <- the liquid's composition.
// Temperatures go down from start_temperature in steps of temperature_step. The first solid (liquidus)
// is refined by bisection to 0.01 K. When the remaining liquid would vanish completely within a step:
//  * if it vanishes into as many solid phases as there are components, the liquid has reached an
//    invariant (binary eutectic: liquid + 2 solids; ternary eutectic: liquid + 3 solids): the last
//    liquid solidifies at that temperature (located to 0.01 K) -> end_reason 'eutectic';
//  * otherwise the step overshot the solidus of the current liquid: a shorter step (half way to where the
//    liquid vanishes) is taken, so no liquid is solidified "in equilibrium" behind the model's back; if
//    the liquid freezes within 0.01 K (congruent freezing of a pure component or a congruent minimum)
//    the path ends -> end_reason 'liquid_exhausted'.
// It also ends when the liquid fraction falls below `stop` (1e-8) -> 'liquid_exhausted', at the minimum
// temperature -> 'minimum_temperature', on a non-converged equilibrium -> 'not_converged', or when the
// alloy has no liquid at the start -> 'no_liquid'.
import { elementsOf } from '../../contract/phases.js';
import { documentBase } from '../results/document.js';
import { inMoleFractions, openSystem, resolveCompositions } from '../system/system.js';
import { tableToCsv } from '../../contract/results/common.js';
import { equilibrium, type EquilibriumResult, type PhaseState } from '../core/equilibrium.js';
import { PhaseModel } from '../core/models.js';
import type { NativeDatabase } from '../core/native.js';
import { CancelledError, type CalculationOutput, type JobControl, type TaskJob } from '../protocol.js';
import { writeResultFiles } from '../results/common.js';
import type {
  ScheilDocument,
  ScheilEndReason,
  ScheilPath,
  ScheilStep,
} from '../../contract/results/scheil_solidification.js';
import { scheilChart } from '../plots/charts.js';
import type { TemperatureUnit } from '../plots/panel.js';
import { chunkedBatch } from '../scans/batch.js';
import { elementMasses } from '../system/units.js';

import {
  scheilFirstClass,
  scheilTable,
  withAlloyTemperatures,
  withLiquidMassFractions,
} from './scheil_solidification/table.js';

interface SolveSetup {
  database: NativeDatabase;
  /** solver components: the elements, plus VA when the database defines it */
  components: string[];
  phases: string[];
}

function throwIfCancelled(control: Pick<JobControl, 'cancelled'> | undefined): void {
  if (control?.cancelled) throw new CancelledError();
}

/**
 * X conditions (all components but one) from a full mole-fraction map. The dependent component is the
 * one with the largest fraction, so the conditions stay well inside (0, 1) as the liquid enriches.
 */
export function xConditions(x: Record<string, number>): Record<string, number> {
  const els = Object.keys(x);
  let dep = els[0];
  for (const e of els) if (x[e] > x[dep]) dep = e;
  const out: Record<string, number> = {};
  for (const e of els) if (e !== dep) out[e] = x[e];
  return out;
}

/** Resolution of the bisections (liquidus, vanishing liquid, lever-rule solidus), K. */
export const T_RESOLUTION = 0.01;
/** A solid phase "forms" when its amount in the step's equilibrium exceeds this (moles of atoms per mole). */
const AMOUNT_EPS = 1e-12;

export interface ScheilInput {
  database: NativeDatabase;
  /** elements (VA is added when the database has it) */
  components: string[];
  /** activated phases; [] = every phase the components allow */
  phases?: string[];
  /** phases suppressed (removed from the activated set) */
  inhibitPhases?: string[];
  P?: number;
  /** alloy composition: all components, or all but one (the dependent one) */
  composition: Record<string, number>;
  startTemperature: number;
  temperatureStep: number;
  /** name of the liquid phase; default LIQUID, else the phase with the TDB liquid option L */
  liquidPhase?: string;
  /** stop when the liquid fraction falls below this (default 1e-8) */
  stop?: number;
  /** lowest temperature of the path (default 1 K) */
  minimumTemperature?: number;
  /** also compute the lever rule (default true) */
  leverRule?: boolean;
  threads?: number;
  control?: JobControl;
}

/** The path (as in result.json) plus what the calculation needs to write its files. */
export interface ScheilRun extends ScheilPath {
  elements: string[];
  logs: string[];
}

/**
 * Names phases as a user reads them: an ordered phase (TDB DIS_PART pairing, formula sheet §5.1-§5.2)
 * whose substitutional sublattices hold equal site fractions is in its disordered state and is named by
 * its disordered part (pycalphad/scheil's order_disorder_eq_phases does the same, so ORD_BETA without
 * ordering is reported as BETA).
 */
export class PhaseNamer {
  private readonly info: Map<string, { dis: string; subs: number[] } | null> = new Map();
  private readonly models = new Map<string, PhaseModel | null>();
  constructor(
    private readonly db: NativeDatabase,
    private readonly components: string[],
    private readonly tol = 1e-4,
  ) {}

  private ordered(name: string): { dis: string; subs: number[] } | null {
    let v = this.info.get(name);
    if (v !== undefined) return v;
    v = null;
    const phases = this.db.info().phases;
    const ph = phases.find((p) => p.name === name);
    const dis = ph?.disorderedPart ? phases.find((p) => p.name === ph.disorderedPart) : undefined;
    if (ph && dis) {
      // substitutional sublattices: declared constituents equal to those of the DIS phase's first sublattice (§5.2)
      const d0 = [...(dis.constituents[0] ?? [])]
        .map((s) => s.toUpperCase())
        .sort()
        .join(',');
      const subs = ph.constituents
        .map((c, s) =>
          [...c]
            .map((x) => x.toUpperCase())
            .sort()
            .join(',') === d0
            ? s
            : -1,
        )
        .filter((s) => s >= 0);
      if (subs.length > 1) v = { dis: dis.name, subs };
    }
    this.info.set(name, v);
    return v;
  }

  name(p: PhaseState): string {
    const o = this.ordered(p.name);
    if (!o) return p.name;
    let model = this.models.get(p.name);
    if (model === undefined) {
      model = PhaseModel.build(this.db, p.name, this.components);
      this.models.set(p.name, model);
    }
    if (!model) return p.name;
    const bySub = new Map<number, Map<string, number>>();
    model.variables.forEach((v, k) => {
      if (!o.subs.includes(v.sublattice)) return;
      let m = bySub.get(v.sublattice);
      if (!m) bySub.set(v.sublattice, (m = new Map()));
      m.set(v.species, p.y[k] ?? 0);
    });
    const first = bySub.get(o.subs[0]);
    if (!first) return p.name;
    for (const s of o.subs.slice(1)) {
      const m = bySub.get(s);
      if (!m) return p.name;
      for (const [sp, y] of first) if (Math.abs((m.get(sp) ?? 0) - y) > this.tol) return p.name;
    }
    return o.dis;
  }
}

/**
 * Stable labels for the composition sets of one phase along a path: the first set of a phase that forms
 * is NAME, a set of distinctly different composition met later is NAME#2, and so on. The solver numbers
 * the sets of each equilibrium afresh, so in Ag-Cu the primary Ag-rich FCC could be set 1 in one step
 * and set 2 in the next; matching each set to the nearest known composition (largest mole-fraction
 * difference, minimised over the assignments) keeps "FCC_A1" the same solid from the liquidus to the
 * eutectic. Known compositions follow the sets as they drift.
 */
export class SetLabeler {
  private readonly known = new Map<string, Record<string, number>[]>();
  constructor(private readonly elements: string[]) {}

  private dist(a: Record<string, number>, b: Record<string, number>): number {
    let d = 0;
    for (const e of this.elements) d = Math.max(d, Math.abs((a[e] ?? 0) - (b[e] ?? 0)));
    return d;
  }

  /** Labels of `sets` (all of one displayed phase name in one equilibrium), in their order. */
  assign(base: string, sets: ReadonlyArray<{ x: Record<string, number> }>): string[] {
    const known = this.known.get(base) ?? [];
    this.known.set(base, known);
    const n = sets.length;
    // every injective map of the sets onto the known variants (or "new"): n and the variants are small
    let best: number[] | null = null,
      bestCost = Infinity;
    const cur: number[] = [];
    const used = new Set<number>();
    const search = (i: number, cost: number): void => {
      if (cost >= bestCost) return;
      if (i === n) {
        best = [...cur];
        bestCost = cost;
        return;
      }
      for (let k = 0; k < known.length; k++) {
        if (used.has(k)) continue;
        used.add(k);
        cur.push(k);
        search(i + 1, cost + this.dist(sets[i].x, known[k]));
        used.delete(k);
        cur.pop();
      }
      // a new variant costs more than any match within 0.25 in mole fraction
      cur.push(-1);
      search(i + 1, cost + (known.length - used.size > 0 ? 0.25 : 0));
      cur.pop();
    };
    if (n <= 4 && known.length <= 6) search(0, 0);
    // (more sets or variants than the exhaustive search takes: in the solver's order)
    const map: number[] = best ?? sets.map((_, i) => (i < known.length ? i : -1));
    return map.map((k, i) => {
      let idx = k;
      if (idx < 0) {
        known.push({ ...sets[i].x });
        idx = known.length - 1;
      } else known[idx] = { ...sets[i].x };
      return idx === 0 ? base : `${base}#${idx + 1}`;
    });
  }
}

/** Chooses the liquid phase: the given name, else LIQUID, else the phase with the TDB liquid option L. */
export function liquidPhaseOf(db: NativeDatabase, phases: string[], given?: string): string {
  if (given) {
    const g = given.toUpperCase();
    if (!phases.includes(g))
      throw new Error(`liquid phase ${g} is not among the allowed phases (${phases.join(', ')})`);
    return g;
  }
  if (phases.includes('LIQUID')) return 'LIQUID';
  const info = db.info().phases;
  const liq = phases.filter((p) => /L/i.test(info.find((q) => q.name === p)?.options ?? ''));
  if (liq.length === 1) return liq[0];
  throw new Error(`no liquid phase among the allowed phases (${phases.join(', ')}); name it or activate LIQUID`);
}

interface Split {
  /** liquid amount (sum over liquid composition sets) */
  fL: number;
  /** liquid composition (amount-weighted over liquid sets) */
  xL: Record<string, number> | null;
  /** solid labels with their amounts, labels NAME / NAME#2 after PhaseNamer */
  solids: { label: string; NP: number }[];
}

export function scheilSolidification(input: ScheilInput): ScheilRun {
  const db = input.database;
  const elements = [...new Set(elementsOf(input.components))];
  const dbElements = new Set(db.info().elements.map((e) => e.name.toUpperCase()));
  for (const e of elements)
    if (!dbElements.has(e)) throw new Error(`condition.components: ${e} is not an element of the database`);
  if (elements.length < 2) throw new Error('Scheil solidification needs at least 2 components');
  // VA is a component of sublattice models whenever the database defines it
  const components = dbElements.has('VA') ? [...elements, 'VA'] : elements;
  const x0 = resolveCompositions(elements, [{ field: 'condition.compositions', value: input.composition }]).full[0];
  const step = input.temperatureStep;
  const T0 = input.startTemperature;
  if (!(step > 0) || !Number.isFinite(step)) throw new Error('condition.temperature_step must be greater than 0');
  if (!(T0 > 0) || !Number.isFinite(T0)) throw new Error('condition.start_temperature must be greater than 0');
  const stop = input.stop ?? 1e-8;
  const Tmin = input.minimumTemperature ?? 1;
  const P = input.P ?? 101325;
  // phases the file rejects by default (DEFAULT_COMMAND REJECT_PHASE) are used when activated by name
  const all = db.phasesFor(elements, true);
  const activated = (input.phases ?? []).map((p) => p.toUpperCase());
  for (const p of activated)
    if (!all.includes(p)) throw new Error(`phase ${p} is not a phase of the database for ${elements.join(', ')}`);
  const inhibit = new Set((input.inhibitPhases ?? []).map((p) => p.toUpperCase()));
  const phases = (activated.length ? activated : db.phasesFor(elements)).filter((p) => !inhibit.has(p));
  const liquid = liquidPhaseOf(db, phases, input.liquidPhase);
  if (phases.length < 2) throw new Error('Scheil needs the liquid and at least one solid phase');
  const setup: SolveSetup = { database: db, components, phases };
  const namer = new PhaseNamer(db, components);
  const control = input.control;
  const logs: string[] = [];

  // Each step starts from the previous equilibrium of the liquid (options.start; a start that does not
  // fit falls back to the cold start, and every answer is still certified by the solver's grid re-scan).
  let previous: EquilibriumResult | undefined;
  const solve = (T: number, x: Record<string, number>): EquilibriumResult => {
    throwIfCancelled(control);
    const r = equilibrium({
      database: db,
      components,
      phases,
      conditions: { T, P, X: xConditions(x) },
      options: previous?.converged ? { start: previous } : undefined,
    });
    if (r.converged) previous = r;
    return r;
  };
  const labeler = new SetLabeler(elements);
  const split = (r: EquilibriumResult): Split => {
    let fL = 0;
    const xs: Record<string, number> = Object.fromEntries(elements.map((e) => [e, 0]));
    const byBase = new Map<string, PhaseState[]>();
    const amounts = new Map<PhaseState, number>();
    for (const p of r.phases) {
      if (p.name === liquid) {
        fL += p.NP;
        for (const e of elements) xs[e] += p.NP * (p.x[e] ?? 0);
        continue;
      }
      const base = namer.name(p);
      byBase.set(base, [...(byBase.get(base) ?? []), p]);
      amounts.set(p, p.NP);
    }
    const solids: { label: string; NP: number }[] = [];
    for (const [base, sets] of byBase) {
      labeler.assign(base, sets).forEach((label, i) => solids.push({ label, NP: amounts.get(sets[i]) ?? 0 }));
    }
    const xL = fL > 0 ? Object.fromEntries(elements.map((e) => [e, xs[e] / fL])) : null;
    // all liquid up to round-off (NP = 1 - 2e-16): no solid forms, fraction solid must stay exactly 0
    if (fL > 0 && !solids.some((q) => q.NP > AMOUNT_EPS)) fL = 1;
    return { fL, xL, solids };
  };
  const hasSolid = (s: Split) => s.fL < 1 - 1e-9;
  // solid composition sets count separately (Ag-Cu: the eutectic solids are FCC_A1 and FCC_A1#2)
  const distinctSolids = (s: Split) => s.solids.filter((q) => q.NP > AMOUNT_EPS).length;

  /** Bisection on [lo, hi] (pred(lo) true, pred(hi) false) to T_RESOLUTION; returns both ends with their results. */
  const bisect = (
    x: Record<string, number>,
    lo: { T: number; r: EquilibriumResult },
    hi: { T: number; r: EquilibriumResult },
    pred: (s: Split) => boolean,
  ) => {
    while (hi.T - lo.T > T_RESOLUTION) {
      const T = 0.5 * (lo.T + hi.T);
      const r = solve(T, x);
      if (!r.converged) {
        logs.push(`bisection at T=${T.toFixed(3)} K did not converge (${r.reason}); bracket kept`);
        break;
      }
      if (pred(split(r))) lo = { T, r };
      else hi = { T, r };
    }
    return { lo, hi };
  };

  const steps: ScheilStep[] = [];
  const totals: Record<string, number> = {};
  let fs = 0;
  let xL = { ...x0 };
  let liquidus: number | null = null;
  let solidus: number | null = null;
  let endReason: ScheilEndReason | null = null;
  let eutecticPhases: string[] = [];

  const record = (T: number, s: Split, fsBefore: number): void => {
    const remaining = 1 - fsBefore;
    const inc: Record<string, number> = {};
    for (const q of s.solids) if (q.NP > AMOUNT_EPS) inc[q.label] = (inc[q.label] ?? 0) + remaining * q.NP;
    for (const [k, v] of Object.entries(inc)) totals[k] = (totals[k] ?? 0) + v;
    const dfs = remaining * Math.max(0, 1 - s.fL);
    fs = Math.min(1, fsBefore + dfs);
    if (s.xL) xL = s.xL;
    steps.push({
      T,
      fraction_solid: fs,
      fraction_liquid: 1 - fs,
      phases_forming: Object.keys(inc).sort(),
      liquid_x: { ...xL },
      solid_increment: dfs,
      phase_increments: inc,
    });
  };

  const first = solve(T0, x0);
  const s0 = split(first);
  const warnings: string[] = [];
  let startedBelow = false;
  let suggested: number | null = null;
  // A start below the liquidus: the path above T0 is not followed, but the alloy's liquidus is still located,
  // searching upwards at the alloy composition and then bisecting, so the result can say where to start.
  const liquidusAbove = (): number | null => {
    let up: { T: number; r: EquilibriumResult } | null = null;
    for (let d = step; d <= 5000 && !up; d *= 2) {
      const r = solve(T0 + d, x0);
      if (r.converged && !hasSolid(split(r))) up = { T: T0 + d, r };
    }
    if (!up) return null;
    const b = bisect(x0, { T: T0, r: first }, up, hasSolid);
    return 0.5 * (b.lo.T + b.hi.T);
  };
  const warnBelow = (what: string): void => {
    startedBelow = true;
    if (liquidus !== null) {
      suggested = Math.ceil(liquidus + T_RESOLUTION);
      warnings.push(
        `start_temperature ${T0} K is below the liquidus of this alloy (${liquidus.toFixed(2)} K): ${what}; ` +
          `start at ${suggested} K (the liquidus rounded up) to follow the whole solidification`,
      );
    } else {
      warnings.push(
        `start_temperature ${T0} K is below the liquidus of this alloy (no liquidus found up to ${T0 + 5000} K): ${what}`,
      );
    }
    logs.push(`warning: ${warnings[warnings.length - 1]}`);
  };
  if (!first.converged) {
    endReason = 'not_converged';
    logs.push(`equilibrium at the start temperature ${T0} K did not converge: ${first.reason}`);
  } else if (s0.fL <= 0) {
    endReason = 'no_liquid';
    logs.push(`no ${liquid} at the start temperature ${T0} K: raise start_temperature`);
    liquidus = liquidusAbove();
    warnBelow(`the alloy is solid there and no path was computed`);
  } else if (hasSolid(s0)) {
    // the first step takes the equilibrium solid at T0, as pycalphad/scheil does
    liquidus = liquidusAbove();
    warnBelow(
      `the path starts with the equilibrium solid at ${T0} K (fraction solid ${(1 - s0.fL).toFixed(4)}), not with a Scheil path from the liquidus`,
    );
    record(T0, s0, 0);
  } else {
    steps.push({
      T: T0,
      fraction_solid: 0,
      fraction_liquid: 1,
      phases_forming: [],
      liquid_x: { ...x0 },
      solid_increment: 0,
      phase_increments: {},
    });
  }

  let Tprev = T0;
  let rPrev = first;
  let guard = 0;
  const maxIterations = Math.ceil((T0 - Tmin) / step) * 4 + 10000;
  while (endReason === null) {
    if (guard++ > maxIterations) {
      endReason = 'not_converged';
      logs.push('too many steps');
      break;
    }
    control?.setProgress(0.8 * fs);
    if (1 - fs < stop) {
      endReason = 'liquid_exhausted';
      solidus = Tprev;
      break;
    }
    let T = Tprev - step;
    if (T < Tmin) {
      endReason = 'minimum_temperature';
      logs.push(`minimum temperature ${Tmin} K reached with liquid fraction ${(1 - fs).toExponential(3)}`);
      break;
    }
    let r = solve(T, xL);
    if (!r.converged) {
      // one retry slightly lower (a start point at a degenerate temperature); then report it
      r = solve(T - 1e-3 * step, xL);
      if (!r.converged) {
        endReason = 'not_converged';
        logs.push(`equilibrium at T=${T.toFixed(3)} K did not converge: ${r.reason}`);
        break;
      }
      T -= 1e-3 * step;
    }
    let s = split(r);
    if (liquidus === null && fs === 0 && hasSolid(s)) {
      // first solid between Tprev (all liquid, composition x0 still) and T: refine the liquidus
      const b = bisect(xL, { T, r }, { T: Tprev, r: rPrev }, hasSolid);
      liquidus = 0.5 * (b.lo.T + b.hi.T);
      const sl = split(b.lo.r);
      steps.push({
        T: liquidus,
        fraction_solid: 0,
        fraction_liquid: 1,
        phases_forming: sl.solids
          .filter((q) => q.NP > AMOUNT_EPS)
          .map((q) => q.label)
          .sort(),
        liquid_x: { ...xL },
        solid_increment: 0,
        phase_increments: {},
      });
      Tprev = b.hi.T;
      rPrev = b.hi.r;
    }
    if (s.fL <= 0) {
      // The remaining liquid solidifies completely between Tprev and T: where, and into what?
      const b = bisect(xL, { T, r }, { T: Tprev, r: rPrev }, (q) => q.fL <= 0);
      const below = split(b.lo.r),
        above = split(b.hi.r);
      if (distinctSolids(below) >= elements.length) {
        // invariant: liquid + as many solids as components. Solidify what forms above it, then the last
        // liquid at the invariant temperature into the solids of the equilibrium just below.
        // (b.hi is the previous step itself when the liquid vanishes within 0.01 K below it: already applied)
        if (b.hi.T < Tprev && above.fL > 0 && hasSolid(above)) record(b.hi.T, above, fs);
        const rEnd = solve(b.lo.T, xL);
        const sEnd = split(rEnd);
        if (rEnd.converged && sEnd.fL <= 0) {
          const Tend = 0.5 * (b.lo.T + b.hi.T);
          const remaining = 1 - fs;
          const sum = sEnd.solids.reduce((a, q) => a + q.NP, 0) || 1;
          const inc: Record<string, number> = {};
          for (const q of sEnd.solids)
            if (q.NP > AMOUNT_EPS) inc[q.label] = (inc[q.label] ?? 0) + (remaining * q.NP) / sum;
          for (const [k, v] of Object.entries(inc)) totals[k] = (totals[k] ?? 0) + v;
          eutecticPhases = Object.keys(inc).sort();
          fs = 1;
          steps.push({
            T: Tend,
            fraction_solid: 1,
            fraction_liquid: 0,
            phases_forming: eutecticPhases,
            liquid_x: { ...xL },
            solid_increment: remaining,
            phase_increments: inc,
          });
          solidus = Tend;
          endReason = 'eutectic';
          break;
        }
        // the new liquid still has liquid below: continue from just above
        Tprev = b.hi.T;
        rPrev = b.hi.r;
        continue;
      }
      if (Tprev - b.hi.T <= T_RESOLUTION) {
        // the current liquid freezes within 0.01 K (pure component or congruent point)
        const Tend = 0.5 * (b.lo.T + b.hi.T);
        const remaining = 1 - fs;
        const sum = below.solids.reduce((a, q) => a + q.NP, 0) || 1;
        const inc: Record<string, number> = {};
        for (const q of below.solids)
          if (q.NP > AMOUNT_EPS) inc[q.label] = (inc[q.label] ?? 0) + (remaining * q.NP) / sum;
        for (const [k, v] of Object.entries(inc)) totals[k] = (totals[k] ?? 0) + v;
        fs = 1;
        steps.push({
          T: Tend,
          fraction_solid: 1,
          fraction_liquid: 0,
          phases_forming: Object.keys(inc).sort(),
          liquid_x: { ...xL },
          solid_increment: remaining,
          phase_increments: inc,
        });
        solidus = Tend;
        endReason = 'liquid_exhausted';
        break;
      }
      // the step overshot the solidus of the current liquid: a shorter step, half way to where it vanishes
      T = 0.5 * (Tprev + b.hi.T);
      r = solve(T, xL);
      s = split(r);
      if (!r.converged || s.fL <= 0) {
        r = b.hi.r;
        T = b.hi.T;
        s = above;
      }
    }
    record(T, s, fs);
    Tprev = T;
    rPrev = r;
  }
  if (endReason === 'liquid_exhausted' && solidus === null) solidus = Tprev;

  // Lever rule: equilibrium at the alloy composition stepping down from the start temperature.
  const lever: { T: number; fraction_solid: number }[] = [];
  let leverSolidus: number | null = null;
  if (input.leverRule !== false && endReason !== 'no_liquid') {
    const threads = Math.max(1, input.threads ?? 1);
    const bottom = Math.max(Tmin, (solidus ?? Tprev) - 50 * step);
    let Ttop = T0;
    let lastLiquid: { T: number; r: EquilibriumResult } | null = null;
    let done = false;
    if (liquidus !== null && liquidus > T0) lever.push({ T: liquidus, fraction_solid: 0 });
    // Batches of 16 temperatures per thread: the points of a batch beyond the lever solidus are wasted
    // (tens of ms each in a multicomponent alloy); each batch continues from the last point before it.
    const perBatch = 16 * threads;
    let lastResult: EquilibriumResult | undefined;
    while (!done && Ttop >= bottom) {
      const Ts: number[] = [];
      for (let k = 0; k < perBatch && Ttop - k * step >= bottom; k++) Ts.push(Ttop - k * step);
      const prog = control?.getProgress() ?? 0;
      const rs = chunkedBatch(
        setup,
        Ts.map((T) => ({ T, P, X: xConditions(x0) })),
        threads,
        control,
        prog,
        prog,
        lastResult,
      );
      lastResult = rs[rs.length - 1];
      throwIfCancelled(control);
      for (let k = 0; k < rs.length; k++) {
        const r = rs[k];
        if (!r.converged) {
          logs.push(`lever rule: T=${Ts[k].toFixed(2)} K did not converge (${r.reason}); point left out`);
          continue;
        }
        const q = split(r);
        if (q.fL <= 0 && lastLiquid) {
          const b = bisect(x0, { T: Ts[k], r }, lastLiquid, (z) => z.fL <= 0);
          leverSolidus = 0.5 * (b.lo.T + b.hi.T);
          // the state just above the solidus: at an invariant the last liquid goes at one temperature
          if (b.hi.T < lastLiquid.T) lever.push({ T: b.hi.T, fraction_solid: 1 - split(b.hi.r).fL });
          lever.push({ T: leverSolidus, fraction_solid: 1 });
          done = true;
          break;
        }
        if (q.fL <= 0) {
          logs.push(`lever rule: no liquid at the start temperature`);
          done = true;
          break;
        }
        if (liquidus !== null && lever.length && lever[lever.length - 1].T > liquidus && Ts[k] < liquidus)
          lever.push({ T: liquidus, fraction_solid: 0 });
        lever.push({ T: Ts[k], fraction_solid: 1 - q.fL });
        lastLiquid = { T: Ts[k], r };
      }
      Ttop -= perBatch * step;
      control?.setProgress(0.8 + 0.2 * Math.min(1, (T0 - Ttop) / Math.max(step, T0 - bottom)));
    }
    if (leverSolidus === null) logs.push(`lever rule: liquid remains down to ${bottom.toFixed(2)} K`);
  }

  return {
    liquid_phase: liquid,
    liquidus_temperature: liquidus,
    solidus_temperature: solidus,
    end_reason: endReason,
    steps,
    lever_rule: lever,
    lever_rule_solidus_temperature: leverSolidus,
    eutectic_phases: eutecticPhases,
    phase_totals: totals,
    composition: x0,
    elements,
    logs,
    start_temperature: T0,
    started_below_liquidus: startedBelow,
    suggested_start_temperature: suggested,
    warnings,
  };
}

export function scheilPreview(
  run: ScheilRun,
  title = 'Solidification: Scheil-Gulliver and lever rule',
  temperatureUnit?: TemperatureUnit,
): string {
  return scheilChart({
    title,
    scheil: { T: run.steps.map((s) => s.T), fs: run.steps.map((s) => s.fraction_solid) },
    lever: run.lever_rule.length
      ? { T: run.lever_rule.map((p) => p.T), fs: run.lever_rule.map((p) => p.fraction_solid) }
      : undefined,
    liquidusT: run.liquidus_temperature ?? undefined,
    eutecticT: run.end_reason === 'eutectic' && run.solidus_temperature !== null ? run.solidus_temperature : undefined,
    celsiusAxis: true,
    temperatureUnit,
  });
}

const f1 = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(1)} K`);

export function scheilSummary(run: ScheilRun): string {
  const reason = run.end_reason === 'eutectic' ? 'eutectic' : run.end_reason.replace(/_/g, ' ');
  const below = run.started_below_liquidus
    ? `; started at ${run.start_temperature} K, below the liquidus${run.suggested_start_temperature !== null ? `: start at ${run.suggested_start_temperature} K` : ''}`
    : '';
  return (
    `liquidus ${f1(run.liquidus_temperature)}, Scheil solidus ${f1(run.solidus_temperature)} (${reason}), ` +
    `lever-rule solidus ${f1(run.lever_rule_solidus_temperature)}${below}`
  );
}

export function run(job: TaskJob<'scheil_solidification'>, control: JobControl): CalculationOutput {
  throwIfCancelled(control);
  const cond = inMoleFractions(job, job.config.condition);
  const sys = openSystem(job, cond);
  const t0 = performance.now();
  const res = scheilSolidification({
    database: sys.db,
    components: sys.elements,
    // the task's inhibit_phases (or the database's recommended selection) are applied in sys.phases
    phases: sys.phases ?? [],
    P: cond.pressure,
    composition: cond.compositions,
    startTemperature: cond.start_temperature,
    temperatureStep: cond.temperature_step,
    threads: job.ompThreads,
    control,
  });
  const ms = performance.now() - t0;
  const masses = elementMasses(sys.db.info().elements);
  const table = withAlloyTemperatures(withLiquidMassFractions(scheilTable(res), res, masses), res);
  const doc: ScheilDocument = {
    ...documentBase(job, 'scheil_solidification', sys),
    liquid_phase: res.liquid_phase,
    liquidus_temperature: res.liquidus_temperature,
    solidus_temperature: res.solidus_temperature,
    end_reason: res.end_reason,
    steps: res.steps,
    lever_rule: res.lever_rule,
    lever_rule_solidus_temperature: res.lever_rule_solidus_temperature,
    table,
    eutectic_phases: res.eutectic_phases,
    phase_totals: res.phase_totals,
    composition: res.composition,
    start_temperature: res.start_temperature,
    started_below_liquidus: res.started_below_liquidus,
    suggested_start_temperature: res.suggested_start_temperature,
    warnings: res.warnings,
    ...scheilFirstClass(res, masses),
  };
  throwIfCancelled(control);
  const alloy = Object.entries(res.composition)
    .filter(([, v]) => v > 0)
    .map(([e, v]) => `${e} ${Number(v.toFixed(4))}`)
    .join(', ');
  const title = `Scheil and lever-rule solidification, x: ${alloy} (${sys.tdbFile.split(/[\\/]/).pop()})`;
  writeResultFiles(job.taskDir, {
    json: doc,
    csv: tableToCsv(table),
    previews: { scheil: scheilPreview(res, title, job.config.preview_temperature_unit) },
  });
  return {
    summary: scheilSummary(res),
    logs: [
      ...sys.logs,
      ...res.logs,
      `Scheil: ${res.steps.length} steps, end ${res.end_reason}, in ${ms.toFixed(0)} ms`,
      `solid formed: ${Object.entries(res.phase_totals)
        .map(([k, v]) => `${k} ${v.toFixed(4)}`)
        .join(', ')}`,
    ],
  };
}
