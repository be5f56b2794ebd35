// The open-system and fixed-phase conditions of a line calculation (extensions, contract/tasks/line_calculation.ts):
// the potentials of the elements held along the line, and the logs of a fixed-phase line.
import { heldPotentials, ThermoExtras } from '../../results/thermo-extra.js';
import type { HeldOf } from '../../scans/line-scan.js';
import type { FixedPhaseLine } from '../../scans/fixed-phase-line.js';

interface HeldConditions {
  chemical_potentials?: Record<string, number>;
  activities?: Record<string, number>;
  reference_states?: Record<string, string>;
  temperature_start: number;
}

/**
 * The elements a line holds at a chemical potential or activity, and their potentials at a state: an activity a
 * relative to the element's reference state (reference_states, SER by default) is mu = G_ref(T, P) + RT ln a, so the
 * potential follows the temperature along the line while the activity stays (as a point's activity condition does,
 * worker/results/thermo-extra.ts heldPotentials). Undefined when the line holds none.
 */
export function heldElementsOf(cond: HeldConditions): HeldOf | undefined {
  const held = { chemical_potentials: cond.chemical_potentials, activities: cond.activities };
  const elements = [...Object.keys(held.chemical_potentials ?? {}), ...Object.keys(held.activities ?? {})].map((k) =>
    k.toUpperCase(),
  );
  if (elements.length === 0) return undefined;
  return (sys) => {
    let extras: ThermoExtras | undefined;
    const extrasOf = () =>
      (extras ??= new ThermoExtras(
        sys.db,
        sys.components,
        sys.elements,
        cond.reference_states,
        cond.temperature_start,
      ));
    return { elements, mu: (T, P) => heldPotentials(held, extrasOf, T, P) };
  };
}

export function fixedPhaseLineLogs(f: FixedPhaseLine): string[] {
  return [
    `${f.phase} held at amount ${f.amount}, the temperature free (searched from ${f.start_temperature} K, then from each point's temperature): ` +
      `${f.temperatures.length} points, ${f.temperatures.map((T) => T.toFixed(2)).join(', ')} K; no transitions are located along a fixed-phase line`,
    ...f.not_found.map((m) => `warning: no point at s=${m.s.toFixed(6)}: ${m.reason}`),
  ];
}
