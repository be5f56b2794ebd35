// Compiled by test/contract/registry.types.test.ts (never run): the renderer's result views are a table over the
// registry's task types (renderer/src/components/results/views.ts, filled in ResultView.svelte), so a type whose view
// is missing, or a view of another type's document in a slot, does not compile. Each `@ts-expect-error` must meet
// its error; the test also compiles this file without the directives and reads the errors TypeScript gives.
import type { Component } from 'svelte';
import type { ResultViewTable } from '../../../renderer/src/components/results/views.js';
import type { TaskResult, TaskType } from '../../../contract/tasks/registry.js';
import type { LineCalculationResult } from '../../../contract/results/line_calculation.js';
import type { PropertiesDocument } from '../../../contract/results/thermodynamic_properties_next.js';

/** A view component of the documents of type T, as svelte-check types a view whose props are `{ doc: ... }`. */
declare function view<T extends TaskType>(): Component<{ doc: TaskResult<T> }>;
/** One view for the two scan documents (ScanView.svelte). */
declare const scanView: Component<{ doc: LineCalculationResult | PropertiesDocument }>;

export const complete: ResultViewTable = {
  point_calculation: view<'point_calculation'>(),
  line_calculation: scanView,
  thermodynamic_properties_next: scanView,
  scheil_solidification: view<'scheil_solidification'>(),
  binary_equilibrium: view<'binary_equilibrium'>(),
  binary_cpt_diagram: view<'binary_cpt_diagram'>(),
  isopleth: view<'isopleth'>(),
  ternary_isothermal_section: view<'ternary_isothermal_section'>(),
  gibbs_energy_curves: view<'gibbs_energy_curves'>(),
  equilibrium_batch: view<'equilibrium_batch'>(),
  spinodal_decomposition: view<'spinodal_decomposition'>(),
  solution_treatment: view<'solution_treatment'>(),
  solidification: view<'solidification'>(),
  aging: view<'aging'>(),
  potential_diagram: view<'potential_diagram'>(),
  liquidus_projection: view<'liquidus_projection'>(),
};

// @ts-expect-error MISSING: isopleth has a registry entry but no view
export const missing: ResultViewTable = {
  point_calculation: view<'point_calculation'>(),
  line_calculation: scanView,
  thermodynamic_properties_next: scanView,
  scheil_solidification: view<'scheil_solidification'>(),
  binary_equilibrium: view<'binary_equilibrium'>(),
  binary_cpt_diagram: view<'binary_cpt_diagram'>(),
  ternary_isothermal_section: view<'ternary_isothermal_section'>(),
  gibbs_energy_curves: view<'gibbs_energy_curves'>(),
  equilibrium_batch: view<'equilibrium_batch'>(),
  spinodal_decomposition: view<'spinodal_decomposition'>(),
  solution_treatment: view<'solution_treatment'>(),
  solidification: view<'solidification'>(),
  aging: view<'aging'>(),
  potential_diagram: view<'potential_diagram'>(),
  liquidus_projection: view<'liquidus_projection'>(),
};

export const mismatched: ResultViewTable = {
  ...complete,
  // @ts-expect-error MISMATCHED: the Scheil view reads steps that a point result does not have
  point_calculation: view<'scheil_solidification'>(),
};
