// The alloy and the system of a Scheil task, checked: its elements and solver components, the alloy's
// full composition, the temperatures of the path and the allowed phases with the liquid among them.
import { elementsOf } from '../../../contract/phases.js';
import type { NativeDatabase } from '../../core/native.js';
import type { JobControl } from '../../protocol.js';
import { resolveCompositions } from '../../system/system.js';
import type { ScheilInput } from './run.js';

export interface ScheilSetup {
  database: NativeDatabase;
  elements: string[];
  /** solver components: the elements, plus VA when the database defines it */
  components: string[];
  /** the allowed phases, the liquid among them */
  phases: string[];
  liquid: string;
  /** the alloy's mole fractions, every element */
  x0: Record<string, number>;
  /** start temperature and step of the path, K */
  T0: number;
  step: number;
  /** the path ends when the liquid fraction falls below this */
  stop: number;
  /** lowest temperature of the path, K */
  Tmin: number;
  P: number;
  control?: JobControl;
}

/** The setup of `input`; throws an error naming the condition that is wrong. */
export function scheilSetup(input: ScheilInput): ScheilSetup {
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
  const phases = allowedPhases(db, elements, input);
  const liquid = liquidPhaseOf(db, phases, input.liquidPhase);
  if (phases.length < 2) throw new Error('Scheil needs the liquid and at least one solid phase');
  return {
    database: db,
    elements,
    components,
    phases,
    liquid,
    x0,
    T0,
    step,
    stop: input.stop ?? 1e-8,
    Tmin: input.minimumTemperature ?? 1,
    P: input.P ?? 101325,
    control: input.control,
  };
}

/** The activated phases (every phase the elements allow when none is named) less the suppressed ones. */
function allowedPhases(db: NativeDatabase, elements: string[], input: ScheilInput): string[] {
  // phases the file rejects by default (DEFAULT_COMMAND REJECT_PHASE) are used when activated by name
  const all = db.phasesFor(elements, true);
  const activated = (input.phases ?? []).map((p) => p.toUpperCase());
  for (const p of activated)
    if (!all.includes(p)) throw new Error(`phase ${p} is not a phase of the database for ${elements.join(', ')}`);
  const inhibit = new Set((input.inhibitPhases ?? []).map((p) => p.toUpperCase()));
  return (activated.length ? activated : db.phasesFor(elements)).filter((p) => !inhibit.has(p));
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
