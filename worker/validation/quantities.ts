// The quantity vocabulary of shared/validation/README.md for the point-type kinds (equilibrium,
// derivative, metastable, property) and for any kind that asks for a point quantity: a quantity name is
// read by worker/validation/expression.ts and evaluated here. docs/validation.md lists every quantity,
// how it is computed and its unit.
//
// Errors: Unsupported = the runner cannot compute this name (reported with the name, never skipped);
// NoResult = this point has no value (phase not stable, no root, not converged): a grid extremum ignores
// such points ("ignoring points without a result"); everything else is an error of the case.
import { elementsOf } from '../../contract/phases.js';
import {
  equilibrium as solve,
  type CompositionSet,
  type EquilibriumConditions,
  type EquilibriumResult,
} from '../core/equilibrium.js';
import { PhaseModel } from '../core/models.js';
import type { NativeDatabase, NativeDatabaseInfo } from '../core/native.js';
import {
  compositionKey,
  conditionValues,
  expandPoints,
  gridKeys,
  normKey,
  siteFractionConditions,
  type PointConditions,
} from './conditions.js';
import { parseExpression, parsePhrase, ParseError, type Atom, type Expr } from './expression.js';
import { uniqueFeasiblePoint } from './feasible.js';
import type { ExpectedEntry, ValidationCase } from './types.js';
import { degreeOfOrdering as doo, netCharge, phaseX, siteFractionSpec } from '../system/phase-properties.js';
import { formationReference } from './references.js';

export { referencePhases } from './references.js';

export class Unsupported extends Error {}
export class NoResult extends Error {}

export interface Scope {
  c: ValidationCase;
  db: NativeDatabase;
  /** 'property': one phase at the case's site fractions; 'equilibrium': global (or isolated) equilibria */
  mode: 'equilibrium' | 'property';
  /** the case's conditions with the overrides of the enclosing phrases applied */
  cond: Record<string, unknown>;
  entry?: ExpectedEntry;
  /** "of isolated PHASE": only this phase, one composition set */
  isolated?: string;
  /** inside "VAR at which A=B" and T0: GM(PHASE) is PHASE alone (one composition set) at the overall composition */
  phaseAlone?: boolean;
}

// ---------------------------------------------------------------------------------------------- caches

const infos = new WeakMap<NativeDatabase, NativeDatabaseInfo>();
export function dbInfo(db: NativeDatabase): NativeDatabaseInfo {
  let i = infos.get(db);
  if (!i) infos.set(db, (i = db.info()));
  return i;
}

const models = new WeakMap<NativeDatabase, Map<string, PhaseModel | null>>();
export function phaseModel(db: NativeDatabase, phase: string, components: string[]): PhaseModel {
  let m = models.get(db);
  if (!m) models.set(db, (m = new Map()));
  const key = `${phase}|${components.join(',')}`;
  if (!m.has(key)) m.set(key, PhaseModel.build(db, phase, components));
  const model = m.get(key);
  if (!model) throw new Unsupported(`phase ${phase} cannot form from ${components.join(',')}`);
  return model;
}

const results = new WeakMap<NativeDatabase, Map<string, EquilibriumResult>>();

// ------------------------------------------------------------------------------------------- helpers

export function caseElements(c: ValidationCase): string[] {
  return elementsOf(c.components);
}

function elementMasses(db: NativeDatabase): Record<string, number> {
  return Object.fromEntries(dbInfo(db).elements.map((e) => [e.name.toUpperCase(), e.mass]));
}

export function massFractions(x: Record<string, number>, masses: Record<string, number>): Record<string, number> {
  let tot = 0;
  for (const [e, v] of Object.entries(x)) {
    if (!(e in masses)) throw new Unsupported(`no mass for element ${e}`);
    tot += v * masses[e];
  }
  return Object.fromEntries(Object.entries(x).map(([e, v]) => [e, (v * masses[e]) / tot]));
}

/** "PHASE", "PHASE#2", "PHASE#*" -> phase and set selector. */
function phaseRef(arg: string): { phase: string; set: number | '*' | null } {
  const m = /^([A-Z0-9_]+)(?:#(\d+|\*))?$/.exec(arg);
  if (!m) throw new Unsupported(`'${arg}' is not a phase name`);
  return { phase: m[1], set: m[2] === undefined ? null : m[2] === '*' ? '*' : Number(m[2]) };
}

function num(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new NoResult(`${what} has no finite value`);
  return v;
}

// ------------------------------------------------------------------------------------- equilibria

export function solveCached(
  db: NativeDatabase,
  components: string[],
  phases: string[],
  cond: EquilibriumConditions,
  singleSet: boolean,
  derivatives: string[],
): EquilibriumResult {
  let m = results.get(db);
  if (!m) results.set(db, (m = new Map()));
  const key = JSON.stringify([components, phases, cond, singleSet, derivatives]);
  let r = m.get(key);
  if (!r) {
    r = solve({ database: db, components, phases, conditions: cond, options: { singleSet, derivatives } });
    if (m.size > 5000) m.clear();
    m.set(key, r);
  }
  return r;
}

/** Solver conditions of a point (T, P, X, W, MU; N must be 1; Y conditions are handled by the caller). */
export function solverConditions(point: PointConditions): EquilibriumConditions {
  const out: EquilibriumConditions = { T: NaN, P: 101325 };
  for (const [k0, v] of Object.entries(point)) {
    const k = normKey(k0);
    if (k === 'T') out.T = v;
    else if (k === 'P') out.P = v;
    else if (k === 'N') {
      if (v !== 1) throw new Unsupported('only N = 1 is supported');
    } else if (/^Y\(/.test(k)) continue;
    else {
      const ck = compositionKey(k);
      if (!ck) throw new Unsupported(`condition ${k0}`);
      (out[ck.kind] ??= {})[ck.element] = v;
    }
  }
  if (!Number.isFinite(out.T)) throw new Unsupported('no temperature condition');
  return out;
}

const clampFraction = (v: number) => Math.min(1 - 1e-10, Math.max(1e-10, v));

function siteFractionOf(
  s: Scope,
  r: EquilibriumResult,
  phase: string,
  sublattice: number,
  species: string,
): number | null {
  const set = r.phases.find((p) => p.name === phase);
  if (!set) return null;
  const model = phaseModel(s.db, phase, s.c.components);
  const k = model.variables.findIndex((v) => v.sublattice === sublattice && v.species === species);
  return k < 0 ? 0 : set.y[k];
}

/**
 * The equilibrium at a point. Y(PHASE,s,SPECIES) conditions: when the other conditions already fix the
 * system (C-1 composition conditions), the Y condition must agree with the result (checked to 1e-6 after
 * the 1e-10 clamp); when it replaces one composition condition, the free mole fraction (of the species'
 * element if that is free) is solved so that the stable PHASE has that site fraction (scan + bisection).
 */
export function equilibriumAt(s: Scope, point: PointConditions, derivatives: string[] = []): EquilibriumResult {
  const phases = s.isolated ? [s.isolated] : s.c.phases;
  const base = solverConditions(point);
  const run = (cond: EquilibriumConditions) =>
    solveCached(s.db, s.c.components, phases, cond, !!s.isolated, derivatives);
  const ys = siteFractionConditions(point);
  const els = caseElements(s.c);
  const fixed = Object.keys(base.X ?? {}).length + Object.keys(base.W ?? {}).length + Object.keys(base.MU ?? {}).length;
  if (ys.length === 0 || fixed >= els.length - 1) {
    const r = run(base);
    if (!r.converged) throw new NoResult(`equilibrium did not converge: ${r.reason}`);
    for (const yc of ys) {
      const got = siteFractionOf(s, r, yc.phase, yc.sublattice, yc.species);
      if (got === null) throw new NoResult(`condition ${yc.key}: ${yc.phase} is not stable at the other conditions`);
      if (Math.abs(got - clampFraction(yc.value)) > 1e-6) {
        throw new Error(
          `condition ${yc.key} = ${yc.value} contradicts the other conditions (the equilibrium has ${got})`,
        );
      }
    }
    return r;
  }
  if (ys.length !== 1 || fixed !== els.length - 2 || base.MU || base.W) {
    throw new Unsupported(
      'Y conditions: one Y condition may replace one X condition; other combinations are not supported',
    );
  }
  const yc = ys[0];
  const freeEls = els.filter((e) => !(base.X && e in base.X));
  const vary = freeEls.includes(yc.species) ? yc.species : freeEls[0];
  const others = Object.values(base.X ?? {}).reduce((a, b) => a + b, 0);
  const target = clampFraction(yc.value);
  const f = (x: number): { d: number; r: EquilibriumResult } | null => {
    const r = run({ ...base, X: { ...(base.X ?? {}), [vary]: x } });
    if (!r.converged) return null;
    const got = siteFractionOf(s, r, yc.phase, yc.sublattice, yc.species);
    return got === null ? null : { d: got - target, r };
  };
  const lo = 1e-10,
    hi = 1 - others - 1e-10;
  const n = 50;
  let prev: { x: number; v: { d: number; r: EquilibriumResult } } | null = null;
  for (let i = 0; i <= n; i++) {
    const x = lo + ((hi - lo) * i) / n;
    const v = f(x);
    if (!v) {
      prev = null;
      continue;
    }
    if (v.d === 0) return v.r;
    if (prev && prev.v.d * v.d < 0) {
      let a = prev.x,
        b = x,
        fa = prev.v.d,
        best = v;
      for (let k = 0; k < 80 && b - a > 1e-15; k++) {
        const mid = 0.5 * (a + b);
        const fm = f(mid);
        if (!fm) break;
        best = fm;
        if (fa * fm.d <= 0) b = mid;
        else {
          a = mid;
          fa = fm.d;
        }
      }
      return best.r;
    }
    prev = { x, v };
  }
  throw new NoResult(`no X(${vary}) gives ${yc.key} = ${yc.value}`);
}

// ------------------------------------------------------------------------------------- evaluation

/** Evaluates a quantity name in a scope; throws Unsupported / NoResult / Error. */
export function evaluateQuantity(q: string, s: Scope): unknown {
  const ph = parsePhrase(q);
  switch (ph.type) {
    case 'over_grid': {
      const keys = gridKeys(s.cond);
      if (!keys.length) throw new Unsupported(`${q}: no grid in the conditions`);
      const grid = Object.fromEntries(keys.map((k) => [k, s.cond[k]]));
      const vals: number[] = [];
      let first: unknown = null;
      for (const p of expandPoints(grid)) {
        try {
          const v = evaluateQuantity(ph.inner, { ...s, cond: { ...s.cond, ...p } });
          if (typeof v === 'number' && Number.isFinite(v)) vals.push(v);
          else first ??= new NoResult(`${ph.inner} is not a number`);
        } catch (err) {
          if (err instanceof Unsupported) throw err;
          first ??= err;
        }
      }
      if (!vals.length) throw first instanceof Error ? first : new NoResult(`${q}: no grid point has a value`);
      return ph.which === 'max' ? Math.max(...vals) : Math.min(...vals);
    }
    case 'isolated':
      return evaluateQuantity(ph.inner, { ...s, isolated: ph.phase });
    case 'root':
      return rootOf(ph.variable, `(${ph.left}) - (${ph.right})`, s);
    case 'at': {
      const lists = Object.entries(ph.at).filter(([, v]) => Array.isArray(v));
      const cond = { ...s.cond, ...ph.at };
      if (!lists.length) return evaluateQuantity(ph.inner, { ...s, cond });
      return expandPoints(Object.fromEntries(lists)).map((p) =>
        evaluateQuantity(ph.inner, { ...s, cond: { ...cond, ...p } }),
      );
    }
    case 'expr': {
      let e: Expr;
      try {
        e = parseExpression(ph.text);
      } catch (err) {
        if (err instanceof ParseError) throw new Unsupported(`quantity '${q}' (${err.message})`);
        throw err;
      }
      return evalExpr(e, s);
    }
  }
}

function arith(op: string, a: unknown, b: unknown): unknown {
  if (Array.isArray(a) || Array.isArray(b)) {
    const n = Array.isArray(a) ? a.length : (b as unknown[]).length;
    if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length)
      throw new Error('lists of different lengths in an expression');
    return Array.from({ length: n }, (_, i) => arith(op, Array.isArray(a) ? a[i] : a, Array.isArray(b) ? b[i] : b));
  }
  const x = num(a, 'an operand'),
    y = num(b, 'an operand');
  return op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : x / y;
}

function reshape(flat: unknown[], dims: number[]): unknown[] {
  if (dims.length <= 1) return flat;
  const inner = dims.slice(1).reduce((a, b) => a * b, 1);
  return Array.from({ length: dims[0] }, (_, i) => reshape(flat.slice(i * inner, (i + 1) * inner), dims.slice(1)));
}

function evalExpr(e: Expr, s: Scope): unknown {
  switch (e.type) {
    case 'num':
      return e.value;
    case 'neg':
      return arith('-', 0, evalExpr(e.arg, s));
    case 'bin':
      return arith(e.op, evalExpr(e.left, s), evalExpr(e.right, s));
    case 'atom': {
      const cond = { ...s.cond, ...e.atom.at };
      const keys = gridKeys(cond);
      if (!keys.length) return atomAt(e.atom, cond as PointConditions, s);
      const flat = expandPoints(cond).map((p) => atomAt(e.atom, p, s));
      // several grid conditions: a flat list (first key outermost), or nested lists when the expected value is nested
      const ev = s.entry?.value;
      if (keys.length > 1 && Array.isArray(ev) && Array.isArray(ev[0]))
        return reshape(
          flat,
          keys.map((k) => conditionValues(k, cond[k]).length),
        );
      return flat;
    }
  }
}

function atomAt(a: Atom, point: PointConditions, s: Scope): unknown {
  if (a.wrt) return derivative(a, point, s);
  return s.mode === 'property' ? propertyAtom(a, point, s) : equilibriumAtom(a, point, s);
}

function stateTP(point: PointConditions): { T: number; P: number } {
  const T = point.T;
  if (typeof T !== 'number') throw new Unsupported('no temperature condition');
  return { T, P: point.P ?? 101325 };
}

/** The phase an atom refers to: its first argument, else the entry's `phase` (a relation's "y" is no phase). */
function atomPhase(a: Atom, s: Scope, argIndex = 0): string | null {
  const arg = a.args.filter((x) => x !== 'y')[argIndex];
  if (arg) return arg;
  return s.entry?.phase ? s.entry.phase.toUpperCase() : null;
}

// ----------------------------------------------------------------------------- property mode atoms

function propertyAtom(a: Atom, point: PointConditions, s: Scope): unknown {
  const { T, P } = stateTP(point);
  const sf = s.c.site_fractions ?? {};
  const phase =
    (a.name === 'X' || a.name === 'W') && a.args.length === 1
      ? (s.entry?.phase?.toUpperCase() ?? (Object.keys(sf).length === 1 ? Object.keys(sf)[0].toUpperCase() : null))
      : (atomPhase(a, s) ?? (Object.keys(sf).length === 1 ? Object.keys(sf)[0].toUpperCase() : null));
  if (!phase) throw new Unsupported(`no phase named for ${a.text}`);
  const model = phaseModel(s.db, phase, s.c.components);
  const specKey = Object.keys(sf).find((k) => k.toUpperCase() === phase);
  if (a.name === 'Y' && a.args.length <= 1) {
    if (specKey) return sf[specKey];
    const y = uniqueFeasiblePoint(model.variables.length, model.constraints);
    if (!y)
      throw new Unsupported(
        `Y(${phase}): no site fractions given and the constraint set of ${phase} is not a single point`,
      );
    return siteFractionSpec(model, y);
  }
  // without site fractions: the phase's only configuration, when its constraints allow one (e.g. a charged phase)
  let y: Float64Array;
  if (specKey) y = model.siteFractions(sf[specKey]);
  else {
    const only = uniqueFeasiblePoint(model.variables.length, model.constraints);
    if (!only) throw new Unsupported(`no site fractions given for ${phase}`);
    y = Float64Array.from(only);
  }
  const props = () => model.properties(T, P, y);
  switch (a.name) {
    case 'GM':
    case 'SM':
    case 'HM':
    case 'CPM':
    case 'TC':
    case 'VM':
    case 'GM_NO_IDMIX':
      return (props() as unknown as Record<string, number>)[a.name];
    case 'BMAGN':
      return props().BMAGN_per_atom;
    case 'GM_FORMATION':
      return props().GM - formationReference(s, phaseX(model, y), T, P);
    case 'DEGREE_OF_ORDERING':
    case 'DOO':
      return degreeOfOrdering(s.db, model, y);
    case 'NET_CHARGE':
      return netCharge(model, y);
    case 'X':
    case 'W': {
      const el = a.args[a.args.length - 1];
      let x = phaseX(model, y);
      if (a.name === 'W') x = massFractions(x, elementMasses(s.db));
      if (!(el in x)) throw new Unsupported(`${el} is not an element of ${phase}`);
      return x[el];
    }
    case 'Y': {
      const [, sub, sp] = a.args;
      const k = model.variables.findIndex((v) => v.sublattice === Number(sub) && v.species === sp);
      return k < 0 ? 0 : y[k];
    }
    default:
      throw new Unsupported(`property ${a.text}`);
  }
}

// -------------------------------------------------------------------------- equilibrium mode atoms

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

function equilibriumAtom(a: Atom, point: PointConditions, s: Scope): unknown {
  const name = a.name;
  if (name === 'T0') {
    if (a.args.length !== 2) throw new Unsupported(`${a.text}: T0 takes two phases`);
    return rootOf('T', `GM(${a.args[0]}) - GM(${a.args[1]})`, { ...s, cond: { ...s.cond, ...point } });
  }
  const { T, P } = stateTP(point);
  // GM(PHASE) of a root phrase: the phase alone, one composition set, at the overall composition
  const alone = a.args[0] ?? (s.isolated ? undefined : s.entry?.phase?.toUpperCase());
  if (s.phaseAlone && ['GM', 'HM', 'SM', 'CPM'].includes(name) && a.args.length <= 1 && alone) {
    const r = equilibriumAt({ ...s, isolated: phaseRef(alone).phase }, point);
    return (r as unknown as Record<string, number>)[name];
  }
  const r = equilibriumAt(s, point);
  const model = (phase: string) => phaseModel(s.db, phase, s.c.components);
  const phaseProps = (phase: string, set: CompositionSet) => model(phase).properties(T, P, set.y);
  const phaseArg = () => {
    const p = atomPhase(a, s);
    if (!p) throw new Unsupported(`${a.text} needs a phase`);
    return p;
  };
  switch (name) {
    case 'GM':
    case 'HM':
    case 'SM':
    case 'CPM':
      if (!a.args.length && !s.entry?.phase) return (r as unknown as Record<string, number>)[name];
      return perSet(r, phaseArg(), (set) => (set as unknown as Record<string, number>)[name]);
    case 'MU': {
      const el = a.args[0];
      if (!el || !(el in r.mu)) throw new Unsupported(`${a.text}: unknown element`);
      return r.mu[el];
    }
    case 'X':
    case 'W': {
      // X(EL) of an entry that names a phase: that phase's composition (as in the property kind)
      if (a.args.length === 1 && s.entry?.phase && !s.isolated) {
        const el = a.args[0];
        return perSet(r, s.entry.phase.toUpperCase(), (set) => {
          const x = name === 'W' ? massFractions(set.x, elementMasses(s.db)) : set.x;
          if (!(el in x)) throw new Unsupported(`${a.text}: unknown element`);
          return x[el];
        });
      }
      if (a.args.length === 1) {
        const el = a.args[0];
        const x = name === 'W' ? massFractions(r.x, elementMasses(s.db)) : r.x;
        if (!(el in x)) throw new Unsupported(`${a.text}: unknown element`);
        return x[el];
      }
      if (a.args.length !== 2) throw new Unsupported(`${a.text}: X(EL) or X(PHASE,EL)`);
      const el = a.args[1];
      return perSet(r, a.args[0], (set) => {
        const x = name === 'W' ? massFractions(set.x, elementMasses(s.db)) : set.x;
        if (!(el in x)) throw new Unsupported(`${a.text}: unknown element`);
        return x[el];
      });
    }
    case 'NP': {
      const { sets, list } = setsOf(r, phaseArg());
      return list ? sets.map((x) => x.NP) : sets.reduce((acc, x) => acc + x.NP, 0);
    }
    case 'Y': {
      if (a.args.length === 3) {
        const [ph, sub, sp] = a.args;
        return perSet(r, ph, (set, phase) => {
          const k = model(phase).variables.findIndex((v) => v.sublattice === Number(sub) && v.species === sp);
          return k < 0 ? 0 : set.y[k];
        });
      }
      return perSet(r, phaseArg(), (set, phase) => siteFractionSpec(model(phase), set.y));
    }
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
    case 'DF': {
      const phase = phaseRef(phaseArg()).phase;
      if (r.phases.some((p) => p.name === phase)) return 0;
      const m = r.metastable.find((p) => p.name === phase);
      if (!m) throw new NoResult(`${phase} has no driving force here (not a candidate phase)`);
      return m.DF;
    }
    case 'NET_CHARGE':
      return perSet(r, phaseArg(), (set, phase) => netCharge(model(phase), set.y));
    case 'VM':
    case 'GM_NO_IDMIX':
    case 'TC':
    case 'BMAGN': {
      const key = name === 'BMAGN' ? 'BMAGN_per_atom' : name;
      const ph = atomPhase(a, s);
      if (!ph) {
        if (name === 'TC' || name === 'BMAGN') throw new Unsupported(`${a.text} needs a phase`);
        return r.phases.reduce(
          (acc, p) => acc + p.NP * (phaseProps(p.name, p) as unknown as Record<string, number>)[key],
          0,
        );
      }
      return perSet(r, ph, (set, phase) => (phaseProps(phase, set) as unknown as Record<string, number>)[key]);
    }
    case 'DEGREE_OF_ORDERING':
    case 'DOO':
      return perSet(r, phaseArg(), (set, phase) => degreeOfOrdering(s.db, model(phase), set.y));
    case 'GM_FORMATION': {
      const ph = atomPhase(a, s);
      if (!ph) return r.GM - formationReference(s, r.x, T, P);
      return perSet(r, ph, (set) => set.GM - formationReference(s, set.x, T, P));
    }
    default:
      throw new Unsupported(`quantity ${a.text}`);
  }
}

// ------------------------------------------------------------------------------------ derivatives

/** Finite-difference steps of the condition variables (central differences; accuracy ~1e-6 relative). */
function stepOf(key: string, v: number): number {
  if (key === 'T') return 1e-2;
  if (key === 'P') return Math.max(1, 1e-4 * Math.abs(v));
  if (key.startsWith('MU(')) return 1e-1;
  return 1e-6;
}

/**
 * "A.B" (README): the total derivative dA/dB along the equilibrium with the other conditions fixed. The
 * solver's analytic derivatives (§9.4) serve GM/HM/SM, MU(EL), NP(PHASE), X(PHASE,EL) with respect to T and
 * X(EL); every other pair (any quantity of this file with respect to T, P, X(EL), W(EL), MU(EL)) is a
 * central finite difference of A at B +- h, one-sided when the stable phase set changes on one side.
 */
function derivative(a: Atom, point: PointConditions, s: Scope): unknown {
  const B = a.wrt!;
  const base: Atom = { ...a, wrt: undefined, text: a.text.slice(0, a.text.lastIndexOf('.')) };
  if (s.mode === 'equilibrium' && !s.phaseAlone) {
    const req = `${base.text}.${B}`;
    try {
      const r = equilibriumAt(s, point, [req]);
      const v = r.derivatives[req];
      if (typeof v === 'number' && Number.isFinite(v)) return v;
    } catch (err) {
      if (err instanceof NoResult) throw err;
      // not an analytic pair of the solver: finite differences below
    }
  }
  const key = Object.keys(point).find((k) => normKey(k) === B) ?? (B === 'P' ? 'P' : null);
  if (!key) throw new Unsupported(`${a.text}: ${B} is not a condition of the case`);
  const v0 = point[key] ?? 101325;
  const h = stepOf(B, v0);
  const at = (v: number) => {
    const p = { ...point, [key]: v };
    const val = num(atomAt(base, p, s), base.text);
    const phases =
      s.mode === 'equilibrium'
        ? equilibriumAt(s, p)
            .phases.map((x) => x.name)
            .sort()
            .join('+')
        : '';
    return { val, phases };
  };
  const mid =
    s.mode === 'equilibrium'
      ? equilibriumAt(s, point)
          .phases.map((x) => x.name)
          .sort()
          .join('+')
      : '';
  let plus: { val: number; phases: string } | null = null,
    minus: { val: number; phases: string } | null = null;
  try {
    plus = at(v0 + h);
  } catch (err) {
    if (!(err instanceof NoResult)) throw err;
  }
  try {
    minus = at(v0 - h);
  } catch (err) {
    if (!(err instanceof NoResult)) throw err;
  }
  const okP = plus && plus.phases === mid,
    okM = minus && minus.phases === mid;
  if (okP && okM) return (plus!.val - minus!.val) / (2 * h);
  const c = num(atomAt(base, point, s), base.text);
  if (okP) return (plus!.val - c) / h;
  if (okM) return (c - minus!.val) / h;
  throw new NoResult(`${a.text}: the stable phase set changes within ${h} of ${B} = ${v0}`);
}

// ---------------------------------------------------------------------------------------- roots

/**
 * "VAR at which A=B" and T0(P1,P2): the value of the condition VAR (T, P, X(EL), W(EL)) at which A - B
 * changes sign, GM(PHASE) meaning the phase alone as one composition set (README T0). Sign changes are
 * bracketed on a scan of [t0_minimum_value, t0_maximum_value] (default 200-4000 K, 0-1 for fractions,
 * 1 Pa-1e11 Pa) and refined by bisection; the root nearest the start value (t0_start_T / t0_start, else the
 * case's own value of VAR) is returned, as the sources iterate from that start.
 */
function rootOf(variable: string, expr: string, s0: Scope): number {
  const s: Scope = { ...s0, phaseAlone: true };
  const calc = (s.c.calculation ?? {}) as Record<string, unknown>;
  const n = (k: string) => (typeof calc[k] === 'number' ? (calc[k] as number) : undefined);
  const isT = variable === 'T',
    isP = variable === 'P';
  const ck = compositionKey(variable);
  if (!isT && !isP && !(ck && ck.kind !== 'MU'))
    throw new Unsupported(`a root in ${variable} (T, P, X(EL) or W(EL) only)`);
  const lo = n('t0_minimum_value') ?? (isT ? 200 : isP ? 1 : 0);
  const hi = n('t0_maximum_value') ?? (isT ? 4000 : isP ? 1e11 : 1);
  const key = Object.keys(s.cond).find((k) => normKey(k) === variable) ?? variable;
  const own = typeof s.cond[key] === 'number' ? (s.cond[key] as number) : undefined;
  const start = (isT ? n('t0_start_T') : n('t0_start')) ?? own ?? (lo + hi) / 2;
  const e = parseExpression(expr);
  const f = (v: number): number => {
    try {
      const val = evalExpr(e, { ...s, cond: { ...s.cond, [key]: v } });
      return typeof val === 'number' ? val : NaN;
    } catch (err) {
      if (err instanceof NoResult) return NaN;
      throw err;
    }
  };
  const steps = isT ? 200 : 100;
  const xs: number[] = [],
    fs: number[] = [];
  for (let i = 0; i <= steps; i++) {
    xs.push(isP ? lo * Math.pow(hi / lo, i / steps) : lo + ((hi - lo) * i) / steps);
    fs.push(f(xs[i]));
  }
  let best: number | null = null;
  for (let i = 0; i < steps; i++) {
    if (!Number.isFinite(fs[i]) || !Number.isFinite(fs[i + 1]) || fs[i] * fs[i + 1] > 0) continue;
    let a = xs[i],
      b = xs[i + 1],
      fa = fs[i];
    for (let k = 0; k < 60; k++) {
      const mid = 0.5 * (a + b);
      const fm = f(mid);
      if (!Number.isFinite(fm)) break;
      if (fa * fm <= 0) b = mid;
      else {
        a = mid;
        fa = fm;
      }
    }
    const root = 0.5 * (a + b);
    if (best === null || Math.abs(root - start) < Math.abs(best - start)) best = root;
  }
  if (best === null) throw new NoResult(`${expr} has no root in ${variable} = [${lo}, ${hi}]`);
  return best;
}

/** pycalphad's degree of ordering (worker/system/phase-properties.ts); the ionic liquid is not supported. */
export function degreeOfOrdering(db: NativeDatabase, model: PhaseModel, y: ArrayLike<number>): number {
  if (model.info.ionicLiquid) throw new Unsupported('DEGREE_OF_ORDERING of the ionic liquid (variable site ratios)');
  return doo(dbInfo(db), model, y);
}
