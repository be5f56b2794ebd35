// Compiled by test/contract/registry.types.test.ts (never run): the worker's calculation table is a Record over
// the registry's task types, so a type whose calculation is missing, or a calculation of another type's
// configuration in a slot, does not compile. Each `@ts-expect-error` must meet its error; the test also
// compiles this file without the directives and reads the errors TypeScript gives.
import type { CalculationTable, Calculation } from '../../../worker/protocol.js';
import type { TaskConfig } from '../../../contract/tasks/registry.js';

declare function calculation<T extends keyof CalculationTable>(): () => Promise<{ run: Calculation<T> }>;

export const complete: CalculationTable = {
  point_calculation: calculation<'point_calculation'>(),
  line_calculation: calculation<'line_calculation'>(),
  binary_equilibrium: calculation<'binary_equilibrium'>(),
  thermodynamic_properties_next: calculation<'thermodynamic_properties_next'>(),
  scheil_solidification: calculation<'scheil_solidification'>(),
  binary_cpt_diagram: calculation<'binary_cpt_diagram'>(),
  isopleth: calculation<'isopleth'>(),
  ternary_isothermal_section: calculation<'ternary_isothermal_section'>(),
  gibbs_energy_curves: calculation<'gibbs_energy_curves'>(),
  equilibrium_batch: calculation<'equilibrium_batch'>(),
  spinodal_decomposition: calculation<'spinodal_decomposition'>(),
  solution_treatment: calculation<'solution_treatment'>(),
  solidification: calculation<'solidification'>(),
  aging: calculation<'aging'>(),
  potential_diagram: calculation<'potential_diagram'>(),
  liquidus_projection: calculation<'liquidus_projection'>(),
};

// @ts-expect-error MISSING: binary_cpt_diagram has a registry entry but no calculation
export const missing: CalculationTable = {
  point_calculation: calculation<'point_calculation'>(),
  line_calculation: calculation<'line_calculation'>(),
  binary_equilibrium: calculation<'binary_equilibrium'>(),
  thermodynamic_properties_next: calculation<'thermodynamic_properties_next'>(),
  scheil_solidification: calculation<'scheil_solidification'>(),
  isopleth: calculation<'isopleth'>(),
  ternary_isothermal_section: calculation<'ternary_isothermal_section'>(),
  gibbs_energy_curves: calculation<'gibbs_energy_curves'>(),
  equilibrium_batch: calculation<'equilibrium_batch'>(),
  spinodal_decomposition: calculation<'spinodal_decomposition'>(),
  solution_treatment: calculation<'solution_treatment'>(),
  solidification: calculation<'solidification'>(),
  aging: calculation<'aging'>(),
  potential_diagram: calculation<'potential_diagram'>(),
  liquidus_projection: calculation<'liquidus_projection'>(),
};

export const mismatched: CalculationTable = {
  ...complete,
  // @ts-expect-error MISMATCHED: a Scheil calculation reads a condition that a point configuration does not have
  point_calculation: calculation<'scheil_solidification'>(),
};

// A calculation reads its configuration with the types the schema infers.
declare const point: TaskConfig<'point_calculation'>;
export const temperature: number = point.condition.temperature;
// @ts-expect-error NOT_IN_SCHEMA: a point configuration has no temperature_start (the schema is strict: the key does not exist)
export const start: number = point.condition.temperature_start;
