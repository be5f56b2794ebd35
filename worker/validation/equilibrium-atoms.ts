// The quantities of an equilibrium at a validation point (kinds equilibrium, derivative, metastable): of the
// whole system, or of a stable phase's composition sets (PHASE, PHASE#2, PHASE#* for a list of all).
import type { CompositionSet, EquilibriumResult } from '../core/equilibrium.js';
import { netCharge, siteFractionSpec } from '../system/phase-properties.js';
import type { PointConditions } from './conditions.js';
import { equilibriumAt } from './equilibrium-at.js';
import type { Atom } from './expression.js';
import { formationReference } from './references.js';
import {
  atomPhase,
  degreeOfOrdering,
  elementMasses,
  massFractions,
  NoResult,
  phaseModel,
  phaseRef,
  stateTP,
  Unsupported,
  type Scope,
} from './scope.js';

function setsOf(r: EquilibriumResult, arg: string): { sets: CompositionSet[]; list: boolean; phase: string } {
  const ref = phaseRef(arg);
  const all = r.phases.filter((p) => p.name === ref.phase);
  if (ref.set === '*') return { sets: all, list: true, phase: ref.phase };
  if (typeof ref.set === 'number')
    return { sets: all.filter((p) => p.setNumber === ref.set), list: false, phase: ref.phase };
  return { sets: all, list: false, phase: ref.phase };
}

/** One value per selected set (a list for PHASE#*), NoResult when the phase is not stable. */
function perSet(r: EquilibriumResult, arg: string, f: (set: CompositionSet, phase: string) => unknown): unknown {
  const { sets, list, phase } = setsOf(r, arg);
  if (list) return sets.map((x) => f(x, phase));
  if (!sets.length) throw new NoResult(`${arg} is not stable here`);
  return f(sets[0], phase);
}

/** The phase the atom names (its first argument or the entry's phase); Unsupported when it names none. */
function phaseArg(a: Atom, s: Scope): string {
  const p = atomPhase(a, s);
  if (!p) throw new Unsupported(`${a.text} needs a phase`);
  return p;
}

/** A quantity of the equilibrium at `point` (T0 aside: a root, quantities.ts). */
export function equilibriumAtom(a: Atom, point: PointConditions, s: Scope): unknown {
  const name = a.name;
  const { T, P } = stateTP(point);
  // GM(PHASE) of a root phrase: the phase alone, one composition set, at the overall composition
  const alone = a.args[0] ?? (s.isolated ? undefined : s.entry?.phase?.toUpperCase());
  if (s.phaseAlone && ['GM', 'HM', 'SM', 'CPM'].includes(name) && a.args.length <= 1 && alone) {
    const r = equilibriumAt({ ...s, isolated: phaseRef(alone).phase }, point);
    return (r as unknown as Record<string, number>)[name];
  }
  const r = equilibriumAt(s, point);
  switch (name) {
    case 'GM':
    case 'HM':
    case 'SM':
    case 'CPM':
      if (!a.args.length && !s.entry?.phase) return (r as unknown as Record<string, number>)[name];
      return perSet(r, phaseArg(a, s), (set) => (set as unknown as Record<string, number>)[name]);
    case 'MU': {
      const el = a.args[0];
      if (!el || !(el in r.mu)) throw new Unsupported(`${a.text}: unknown element`);
      return r.mu[el];
    }
    case 'X':
    case 'W':
      return compositionAtom(a, r, s);
    case 'NP': {
      const { sets, list } = setsOf(r, phaseArg(a, s));
      return list ? sets.map((x) => x.NP) : sets.reduce((acc, x) => acc + x.NP, 0);
    }
    case 'Y':
      return siteFractionAtom(a, r, s);
    case 'DF':
      return drivingForce(r, phaseRef(phaseArg(a, s)).phase);
    case 'NET_CHARGE':
      return perSet(r, phaseArg(a, s), (set, phase) => netCharge(phaseModel(s.db, phase, s.c.components), set.y));
    case 'VM':
    case 'GM_NO_IDMIX':
    case 'TC':
    case 'BMAGN':
      return modelPropertyAtom(a, r, s, T, P);
    case 'DEGREE_OF_ORDERING':
    case 'DOO':
      return perSet(r, phaseArg(a, s), (set, phase) =>
        degreeOfOrdering(s.db, phaseModel(s.db, phase, s.c.components), set.y),
      );
    case 'GM_FORMATION': {
      const ph = atomPhase(a, s);
      if (!ph) return r.GM - formationReference(s, r.x, T, P);
      return perSet(r, ph, (set) => set.GM - formationReference(s, set.x, T, P));
    }
    default:
      return systemAtom(a, r, s);
  }
}

/** The quantities of the whole equilibrium: its phases, amounts, sets and mass balance. */
function systemAtom(a: Atom, r: EquilibriumResult, s: Scope): unknown {
  switch (a.name) {
    case 'STABLE_PHASES':
      return r.phases.map((p) => p.name);
    case 'NUMBER_OF_STABLE_PHASES':
      return r.phases.length;
    case 'NP_SORTED_NONZERO':
      return r.phases
        .map((p) => p.NP)
        .filter((v) => v > 0)
        .sort((x, y) => x - y);
    case 'COMPOSITION_SETS': {
      // X as {EL: x}, or as a list in the (sorted) element order when the expected items write it so
      const asList =
        Array.isArray(s.entry?.value) && (s.entry!.value as Array<{ X?: unknown }>).some((v) => Array.isArray(v?.X));
      return r.phases.map((p) => ({ X: asList ? r.elements.map((el) => p.x[el]) : p.x, NP: p.NP, GM: p.GM }));
    }
    case 'MASS_BALANCE_ERROR':
      return r.massBalanceError;
    case 'X_OVERALL_FROM_PHASES': {
      const x: Record<string, number> = Object.fromEntries(r.elements.map((e) => [e, 0]));
      for (const p of r.phases) for (const e of r.elements) x[e] += p.NP * (p.x[e] ?? 0);
      return Array.isArray(s.entry?.value) ? r.elements.map((e) => x[e]) : x;
    }
    default:
      throw new Unsupported(`quantity ${a.text}`);
  }
}

/** X(EL) / W(EL) of the system or of the entry's phase, X(PHASE,EL) / W(PHASE,EL) of a phase. */
function compositionAtom(a: Atom, r: EquilibriumResult, s: Scope): unknown {
  const fractions = (x: Record<string, number>) => (a.name === 'W' ? massFractions(x, elementMasses(s.db)) : x);
  const of = (x: Record<string, number>, el: string) => {
    const f = fractions(x);
    if (!(el in f)) throw new Unsupported(`${a.text}: unknown element`);
    return f[el];
  };
  // X(EL) of an entry that names a phase: that phase's composition (as in the property kind)
  if (a.args.length === 1 && s.entry?.phase && !s.isolated)
    return perSet(r, s.entry.phase.toUpperCase(), (set) => of(set.x, a.args[0]));
  if (a.args.length === 1) return of(r.x, a.args[0]);
  if (a.args.length !== 2) throw new Unsupported(`${a.text}: X(EL) or X(PHASE,EL)`);
  return perSet(r, a.args[0], (set) => of(set.x, a.args[1]));
}

/** Y(PHASE,s,SPECIES): one site fraction; Y(PHASE): all of them as the README writes site fractions. */
function siteFractionAtom(a: Atom, r: EquilibriumResult, s: Scope): unknown {
  const model = (phase: string) => phaseModel(s.db, phase, s.c.components);
  if (a.args.length === 3) {
    const [ph, sub, sp] = a.args;
    return perSet(r, ph, (set, phase) => {
      const k = model(phase).variables.findIndex((v) => v.sublattice === Number(sub) && v.species === sp);
      return k < 0 ? 0 : set.y[k];
    });
  }
  return perSet(r, phaseArg(a, s), (set, phase) => siteFractionSpec(model(phase), set.y));
}

/** The driving force of a phase: 0 when stable, else the solver's for a metastable candidate. */
function drivingForce(r: EquilibriumResult, phase: string): number {
  if (r.phases.some((p) => p.name === phase)) return 0;
  const m = r.metastable.find((p) => p.name === phase);
  if (!m) throw new NoResult(`${phase} has no driving force here (not a candidate phase)`);
  return m.DF;
}

/** VM, GM_NO_IDMIX, TC, BMAGN of a phase's sets from its model, or (VM, GM_NO_IDMIX) amount-weighted over all. */
function modelPropertyAtom(a: Atom, r: EquilibriumResult, s: Scope, T: number, P: number): unknown {
  const name = a.name;
  const key = name === 'BMAGN' ? 'BMAGN_per_atom' : name;
  const value = (phase: string, set: CompositionSet) =>
    (phaseModel(s.db, phase, s.c.components).properties(T, P, set.y) as unknown as Record<string, number>)[key];
  const ph = atomPhase(a, s);
  if (!ph) {
    if (name === 'TC' || name === 'BMAGN') throw new Unsupported(`${a.text} needs a phase`);
    return r.phases.reduce((acc, p) => acc + p.NP * value(p.name, p), 0);
  }
  return perSet(r, ph, (set, phase) => value(phase, set));
}
