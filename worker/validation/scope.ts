// What the evaluation of a validation quantity works with: its scope (case, database, mode, conditions), the
// errors that say why a quantity has no value, the database's cached info, phase models and equilibria, and
// the small readers of phase references and numbers.
//
// Errors: Unsupported = the runner cannot compute this name (reported with the name, never skipped);
// NoResult = this point has no value (phase not stable, no root, not converged): a grid extremum ignores
// such points ("ignoring points without a result"); everything else is an error of the case.
import { elementsOf } from '../../contract/phases.js';
import { equilibrium as solve, type EquilibriumConditions, type EquilibriumResult } from '../core/equilibrium.js';
import { PhaseModel } from '../core/models.js';
import type { NativeDatabase, NativeDatabaseInfo } from '../core/native.js';
import { degreeOfOrdering as doo } from '../system/phase-properties.js';
import type { PointConditions } from './conditions.js';
import type { Atom } from './expression.js';
import type { ExpectedEntry, ValidationCase } from './types.js';

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
  /** "Q isolated": each atom of Q alone in the phase it names (quantities.ts isolatedPhase) */
  isolateEach?: boolean;
  /** inside "VAR at which A=B" and T0: GM(PHASE) is PHASE alone (one composition set) at the overall composition */
  phaseAlone?: boolean;
}

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

/** The case's elements (VA and electrons dropped), upper case. */
export function caseElements(c: ValidationCase): string[] {
  return elementsOf(c.components);
}

/** Solver components of a case: its elements plus VA when the database has it. */
export function solverComponents(c: ValidationCase, db: NativeDatabase): string[] {
  const els = caseElements(c);
  return db.info().elements.some((e) => e.name.toUpperCase() === 'VA') ? [...els, 'VA'] : els;
}

export function elementMasses(db: NativeDatabase): Record<string, number> {
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
export function phaseRef(arg: string): { phase: string; set: number | '*' | null } {
  const m = /^([A-Z0-9_]+)(?:#(\d+|\*))?$/.exec(arg);
  if (!m) throw new Unsupported(`'${arg}' is not a phase name`);
  return { phase: m[1], set: m[2] === undefined ? null : m[2] === '*' ? '*' : Number(m[2]) };
}

export function num(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new NoResult(`${what} has no finite value`);
  return v;
}

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

export function stateTP(point: PointConditions): { T: number; P: number } {
  const T = point.T;
  if (typeof T !== 'number') throw new Unsupported('no temperature condition');
  return { T, P: point.P ?? 101325 };
}

/** The phase an atom refers to: its first argument, else the entry's `phase` (a relation's "y" is no phase). */
export function atomPhase(a: Atom, s: Scope, argIndex = 0): string | null {
  const arg = a.args.filter((x) => x !== 'y')[argIndex];
  if (arg) return arg;
  return s.entry?.phase ? s.entry.phase.toUpperCase() : null;
}

/** pycalphad's degree of ordering (worker/system/phase-properties.ts); the ionic liquid is not supported. */
export function degreeOfOrdering(db: NativeDatabase, model: PhaseModel, y: ArrayLike<number>): number {
  if (model.info.ionicLiquid) throw new Unsupported('DEGREE_OF_ORDERING of the ionic liquid (variable site ratios)');
  return doo(dbInfo(db), model, y);
}
