// The registry of task types: one entry per open task type gives its configuration schema (what POST /task
// validates, what the renderer's forms are generated from and what the OpenAPI document publishes), its label
// and help text (the renderer), the stage a running task reports, and the type of its result.json. Every list
// of task types elsewhere (the worker's calculation table, the renderer's views, the console's import
// defaults) is keyed by TaskType, so a type added here and missing there does not compile.
import type { z } from 'zod';
import { pointCalculationSchema, type PointCalculationResult } from './point_calculation.js';
import { lineCalculationSchema, type LineCalculationResult } from './line_calculation.js';
import { binaryEquilibriumSchema, type BinaryEquilibriumResult } from './binary_equilibrium.js';
import { thermodynamicPropertiesSchema, type PropertiesDocument } from './thermodynamic_properties_next.js';
import { scheilSchema, type ScheilDocument } from './scheil_solidification.js';
import { binaryCptSchema, type BinaryCptResult } from './binary_cpt_diagram.js';
import { isoplethSchema, type IsoplethResult } from './isopleth.js';
import { ternaryIsothermalSectionSchema, type TernaryIsothermalSectionResult } from './ternary_isothermal_section.js';
import { gibbsEnergyCurvesSchema, type GibbsEnergyCurvesDocument } from './gibbs_energy_curves.js';
import { equilibriumBatchSchema, type EquilibriumBatchResult } from './equilibrium_batch.js';
import { spinodalSchema, type SpinodalDecompositionDocument } from './spinodal_decomposition.js';
import { solutionTreatmentSchema, type SolutionTreatmentDocument } from './solution_treatment.js';
import { solidificationSchema, type SolidificationDocument } from './solidification.js';
import { agingSchema, type AgingDocument } from './aging.js';
import { potentialDiagramSchema, type PotentialDiagramDocument } from './potential_diagram.js';
import { liquidusProjectionSchema, type LiquidusProjectionDocument } from './liquidus_projection.js';

/**
 * A value that exists only to carry the result document's type (`TaskResult<T>` reads it); at run time it is
 * undefined and never read.
 */
export type ResultMarker<R> = { readonly __result?: R };
function resultOf<R>(): ResultMarker<R> {
  return {};
}

export interface TaskTypeEntry<S extends z.ZodType = z.ZodType, R = unknown> {
  /** zod schema of task_config for this type (input as the client sends it, output as the worker receives it) */
  schema: S;
  /** name shown in the renderer */
  label: string;
  /** one sentence under the type selector (the spec's table "Open task types") */
  help: string;
  /** what GET /task/{id} `stage` says while the calculation runs */
  stage: string;
  /** result.json of this type */
  result: ResultMarker<R>;
}

function entry<S extends z.ZodType, R>(e: TaskTypeEntry<S, R>): TaskTypeEntry<S, R> {
  return e;
}

export const TASK_REGISTRY = {
  point_calculation: entry({
    schema: pointCalculationSchema,
    label: 'Point calculation',
    help: 'Equilibrium phase composition at one temperature, pressure and composition.',
    stage: 'computing the equilibrium',
    result: resultOf<PointCalculationResult>(),
  }),
  line_calculation: entry({
    schema: lineCalculationSchema,
    label: 'Line calculation',
    help: 'Scan along temperature or composition; phase changes and phase fractions.',
    stage: 'scanning the line',
    result: resultOf<LineCalculationResult>(),
  }),
  binary_equilibrium: entry({
    schema: binaryEquilibriumSchema,
    label: 'Binary phase diagram',
    help: 'Binary phase diagram in temperature–composition space.',
    stage: 'mapping two-phase regions',
    result: resultOf<BinaryEquilibriumResult>(),
  }),
  thermodynamic_properties_next: entry({
    schema: thermodynamicPropertiesSchema,
    label: 'Thermodynamic properties',
    help: 'Thermodynamic functions (heat capacity, enthalpy, entropy, chemical potentials).',
    stage: 'computing properties',
    result: resultOf<PropertiesDocument>(),
  }),
  scheil_solidification: entry({
    schema: scheilSchema,
    label: 'Scheil solidification',
    help: 'Non-equilibrium solidification path by the Scheil–Gulliver model.',
    stage: 'solidifying step by step',
    result: resultOf<ScheilDocument>(),
  }),
  binary_cpt_diagram: entry({
    schema: binaryCptSchema,
    label: 'Binary C–P–T diagram',
    help: 'Three-dimensional phase diagram over composition, temperature and pressure.',
    stage: 'computing the composition-temperature-pressure grid',
    result: resultOf<BinaryCptResult>(),
  }),
  isopleth: entry({
    schema: isoplethSchema,
    label: 'Isopleth (vertical section)',
    help: 'Phase boundaries of a multicomponent alloy in temperature against one composition axis (mole or mass fractions).',
    stage: 'tracing the zero-phase-fraction lines',
    result: resultOf<IsoplethResult>(),
  }),
  ternary_isothermal_section: entry({
    schema: ternaryIsothermalSectionSchema,
    label: 'Ternary isothermal section',
    help: 'Phase diagram of a three-element system at one temperature: a Gibbs triangle with tie-lines and tie-triangles.',
    stage: 'mapping the isothermal section',
    result: resultOf<TernaryIsothermalSectionResult>(),
  }),
  gibbs_energy_curves: entry({
    schema: gibbsEnergyCurvesSchema,
    label: 'Gibbs energy curves',
    help: 'Extension: molar Gibbs energy of every phase against composition at one temperature, with the stable common tangents.',
    stage: 'computing the Gibbs energy curves',
    result: resultOf<GibbsEnergyCurvesDocument>(),
  }),
  equilibrium_batch: entry({
    schema: equilibriumBatchSchema,
    label: 'Batch of equilibria',
    help: 'Extension: one equilibrium per row of a list, a product of compositions and temperatures or a CSV table, merged into one result table.',
    stage: 'computing the rows',
    result: resultOf<EquilibriumBatchResult>(),
  }),
  spinodal_decomposition: entry({
    schema: spinodalSchema,
    label: 'Spinodal decomposition',
    help: 'Chemical (and coherent) spinodal of one phase of a binary over a temperature range, with its miscibility gap and critical point.',
    stage: 'tracing the spinodal',
    result: resultOf<SpinodalDecompositionDocument>(),
  }),
  solution_treatment: entry({
    schema: solutionTreatmentSchema,
    label: 'Solution treatment',
    help: 'Solvus of every precipitate, incipient melting and the solution window of an alloy, with a recommended temperature and the time to dissolve a particle.',
    stage: 'finding the solution window',
    result: resultOf<SolutionTreatmentDocument>(),
  }),
  solidification: entry({
    schema: solidificationSchema,
    label: 'Solidification (back diffusion)',
    help: 'Scheil-Gulliver with back diffusion in the solid from the cooling rate and the dendrite arm spacing, beside the classic Scheil and the lever rule.',
    stage: 'solidifying with back diffusion',
    result: resultOf<SolidificationDocument>(),
  }),
  aging: entry({
    schema: agingSchema,
    label: 'Aging (precipitation)',
    help: 'Nucleation, growth and coarsening of precipitates during an ageing treatment (Kampmann-Wagner): number density, radius and volume fraction against time.',
    stage: 'simulating the precipitation',
    result: resultOf<AgingDocument>(),
  }),
  potential_diagram: entry({
    schema: potentialDiagramSchema,
    label: 'Potential diagram',
    help: 'Extension: the stable phases over the activity or chemical potential of an element against temperature, or against a second potential at one temperature (log p(O2) against T, predominance diagrams).',
    stage: 'mapping the potential diagram',
    result: resultOf<PotentialDiagramDocument>(),
  }),
  liquidus_projection: entry({
    schema: liquidusProjectionSchema,
    label: 'Liquidus projection',
    help: 'Extension: the liquidus surface of a ternary (or of a section of a multicomponent alloy): primary fields, valleys, invariant reactions (E, U, P) and isotherms.',
    stage: 'mapping the liquidus surface',
    result: resultOf<LiquidusProjectionDocument>(),
  }),
} as const;

export type TaskType = keyof typeof TASK_REGISTRY;
/** The open task types in the registry's order (the order of the renderer's type selector). */
export const TASK_TYPES = Object.keys(TASK_REGISTRY) as TaskType[];
/** A validated task_config of type T, as the zod schema outputs it (what a calculation receives). */
export type TaskConfig<T extends TaskType> = z.output<(typeof TASK_REGISTRY)[T]['schema']>;
/** A task_config of type T as a client writes it. */
export type TaskConfigInput<T extends TaskType> = z.input<(typeof TASK_REGISTRY)[T]['schema']>;
/** The result.json document of a task of type T. */
export type TaskResult<T extends TaskType> = NonNullable<(typeof TASK_REGISTRY)[T]['result']['__result']>;

export function isTaskType(t: string): t is TaskType {
  return Object.hasOwn(TASK_REGISTRY, t);
}

/** Task types the spec announces but that are not open yet (POST /task names them as such). */
export const ANNOUNCED_TASK_TYPES = [
  'physical_vapor_deposition',
  'cutting_process',
  'directional_solidification',
] as const;
