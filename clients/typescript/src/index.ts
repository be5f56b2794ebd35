// Typed client for the PhaseDesk local HTTP API (/api/v2). No runtime dependency: it uses the global fetch
// (Node.js 18+, browsers, Deno, Bun).
//
// Every interface that mirrors a schema of GET /api/v2/openapi.json names it with an `@schema` tag (a component
// schema, optionally followed by a property path such as `KeyInfo.user`), and every query type names its operation
// with `@query METHOD PATH`. test/clients/typescript-client.test.ts reads these tags with the TypeScript compiler
// and checks, against the document fetched from a real service, that every field named here exists there (with
// the same optionality) and that every path and method of the document has a client method (ENDPOINTS) and vice
// versa. Fields tagged `@extension` are PhaseDesk additions to the specification that a spec-only server omits.

// ---------------------------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------------------------

/** @schema Error */
export interface ErrorBody {
  error: string;
  details?: string;
  current_pending_tasks?: number;
  max_pending_tasks?: number;
}

/** @schema KeyInfo.user */
export interface KeyOwner {
  /** usable as user_id in userDatabaseStatus */
  id: string;
  username: string;
  email: string | null;
  subscription_level: string;
  subscription_expires_at?: string | null;
}

/** @schema KeyInfo */
export interface KeyInfo {
  id: number;
  api_key: string;
  key_name: string;
  is_active: boolean;
  created_at: string;
  last_used_at?: string | null;
  expires_at?: string | null;
  user: KeyOwner;
}

/** @schema DbItemResponse */
export interface Database {
  id: string;
  /** the value for task_config.tdb_code */
  code: string;
  name: string;
  description: string;
  type: string;
  version: string;
  level: string;
  element_list: string[];
  phase_list: string[];
  support_task_list: string[];
  sp_id?: string | null;
  price: number;
  user_status: string;
  created_at: string;
  updated_at: string;
  /** extension: where the file comes from, its licence and the attribution the licence requires */
  source: string | null;
  license: string | null;
  attribution: string | null;
  /** extension: the recommended phase selection calculations on this database start from */
  phase_selection: PhaseSelection | null;
}

/** A database's recommended phase selection (entries: phase names, patterns with * and ?, @groups). */
export interface PhaseSelection {
  /** suppressed in every system */
  inhibit_phases: string[];
  /** suppressed only in systems holding all of `elements` */
  for_systems?: { elements: string[]; inhibit_phases: string[] }[];
  /** the database's own groups: @name -> phase names and patterns */
  groups?: Record<string, string[]>;
  note?: string;
}

/** @schema ListDbResponse */
export interface DatabaseList {
  items: Database[];
  total: number;
  page: number;
  size: number;
}

/** @schema UserDbStatus */
export interface UserDatabaseStatus {
  /** trail, active, inactive, expired, pending (not a closed set) */
  status: string;
}

/** @schema PhasesRequest */
export interface PhasesRequest {
  element_list: string[];
}

/** @schema PhasesResponse */
export interface PhasesResponse {
  phase_list: string[];
  /** extension: the members of every phase group among phase_list (key without @) */
  phase_groups: Record<string, string[]>;
  /** extension: what a task without condition.inhibit_phases suppresses in this system */
  recommended_inhibit_phases: string[];
  /** extension: the temperature range (K) a new diagram of these elements opens with, from the pure elements' melting points */
  temperature_range: TemperatureRange | null;
  /** extension: the composition range a binary diagram of these elements opens with; null: the whole range */
  composition_range?: CompositionRange | null;
}

/** @schema PhasesResponse.composition_range */
export interface CompositionRange {
  /** the element whose fraction grows (the interstitial of a metal-interstitial binary) */
  element: string;
  mole_fraction: [number, number];
  mass_fraction: [number, number];
}

/** @schema PhasesResponse.temperature_range */
export interface TemperatureRange {
  start: number;
  end: number;
  /** K per element; null when the database gives it none */
  melting_points: Record<string, number | null>;
}

/** @schema PhaseNamesRequest */
export interface PhaseNamesRequest {
  /** phase or PHASE:STRUCTURE -> display name (1 to 40 characters); replaces the stored names, {} = the defaults */
  names: Record<string, string>;
}

/** @schema PhaseNamesResponse */
export interface PhaseNames {
  db_id: string;
  code: string;
  /** whose defaults apply */
  family: 'steel' | 'aluminium' | 'general';
  /** the names stored for this database */
  names: Record<string, string>;
  phases: PhaseNameRow[];
}

/** @schema PhaseNamesResponse.phases */
export interface PhaseNameRow {
  /** the key a name is stored under: PHASE, or PHASE:STRUCTURE for a state of an ordered phase */
  key: string;
  phase: string;
  structure: string | null;
  default_name: string;
  /** the name in use: the stored one, else the default */
  name: string;
}

export type TaskStatus =
  'created' | 'pending' | 'queued' | 'running' | 'uploading' | 'completed' | 'failed' | 'aborted';
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'aborted'];

/** @schema TaskStatusResponse */
export interface Task {
  id: number;
  title: string;
  /** the stored task_config as JSON text */
  description: string;
  /** one of TaskStatus (typed as string: the specification does not close the set for clients) */
  status: string;
  task_type: string;
  result?: string | null;
  logs?: string | null;
  user_id: string;
  tdb_code?: string | null;
  created_at: string;
  updated_at: string;
  /** @extension Fraction done, 0..1. */
  progress?: number;
  /** @extension Short text of what runs now ("mapping two-phase regions"), or null. */
  stage?: string | null;
  /** @extension The calculation's run time in milliseconds (so far, while it runs); null when no calculation ran. */
  duration_ms?: number | null;
}

/** @schema TaskList */
export interface TaskList {
  data: Task[];
  total: number;
  total_pages: number;
  page: number;
  items_per_page: number;
}

/** @schema TaskCreateResponse */
export interface TaskCreated {
  id: number;
  /** pending, or completed on a cache hit */
  status: string;
  task_type: string;
  tdb_code: string | null;
}

/** @schema FileListResponse */
export interface FileList {
  /** the task's UUID */
  task_id: string;
  /** pre-signed download URLs (no key needed; they expire) */
  files: string[];
  total_count: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Task configurations (units: K, Pa, mole fractions)
// ---------------------------------------------------------------------------------------------------------------

export type Compositions = Record<string, number>;

/** @schema TaskConfig_point_calculation.condition */
export interface PointCondition {
  components: string[];
  activated_phases?: string[];
  /** phase names, patterns (* ?) and @groups to suppress; absent: the database's recommended selection */
  inhibit_phases?: string[];
  temperature: number;
  pressure: number;
  compositions: Compositions;
  thermo_outputs?: string[];
  outputs_list_template?: string[];
  /** mole_fraction (default) or mass_fraction: the unit of the composition maps */
  composition_unit?: CompositionUnit;
  /** reference state of each element ({EL: PHASE or 'SER'}) for acr/mur/GM_formation */
  reference_states?: Record<string, string>;
  /** {EL: J/mol}: EL held at this chemical potential in place of a mole fraction (an open system) */
  chemical_potentials?: Record<string, number>;
  /** {EL: activity against reference_states[EL]}: EL held at this activity in place of a mole fraction */
  activities?: Record<string, number>;
  /** {PHASE: amount 0..1}: the temperature left free (LIQUID 1: the liquidus); `temperature` starts the search */
  fixed_phases?: Record<string, number>;
}

/** mole_fraction (default) or mass_fraction */
export type CompositionUnit = 'mole_fraction' | 'mass_fraction';

/** @schema TaskConfig_line_calculation.condition */
export interface LineCondition {
  components: string[];
  compositions_start: Compositions;
  compositions_end: Compositions;
  temperature_start: number;
  temperature_end: number;
  pressure: number;
  points: number;
  activated_phases?: string[];
  /** phase names, patterns (* ?) and @groups to suppress; absent: the database's recommended selection */
  inhibit_phases?: string[];
  thermo_outputs?: string[];
  outputs_list_template?: string[];
  /** mole_fraction (default) or mass_fraction: the unit of the composition maps */
  composition_unit?: CompositionUnit;
  /** reference state of each element ({EL: PHASE or 'SER'}) for acr/mur/GM_formation */
  reference_states?: Record<string, string>;
  /** {EL: J/mol}: EL held at this chemical potential along the line (the compositions leave EL out) */
  chemical_potentials?: Record<string, number>;
  /** {EL: activity against reference_states[EL]}: EL held at this activity along the line */
  activities?: Record<string, number>;
  /** {PHASE: amount 0..1}: T free at each composition (LIQUID 1: the liquidus curve); temperature_start = _end */
  fixed_phases?: Record<string, number>;
}

/** @schema TaskConfig_binary_equilibrium.condition */
export interface BinaryEquilibriumCondition {
  components: string[];
  compositions_start: Compositions;
  compositions_end: Compositions;
  temperature_start: number;
  temperature_end: number;
  pressure: number;
  activated_phases?: string[];
  /** phase names, patterns (* ?) and @groups to suppress; absent: the database's recommended selection */
  inhibit_phases?: string[];
  composition_unit?: CompositionUnit;
}

/** @schema TaskConfig_thermodynamic_properties_next.condition */
export interface PropertiesCondition {
  components: string[];
  compositions_start: Compositions;
  compositions_end: Compositions;
  temperature_start: number;
  temperature_end: number;
  pressure: number;
  points: number;
  activated_phases?: string[];
  /** phase names, patterns (* ?) and @groups to suppress; absent: the database's recommended selection */
  inhibit_phases?: string[];
  thermo_outputs?: string[];
  outputs_list_template?: string[];
  /** mole_fraction (default) or mass_fraction: the unit of the composition maps */
  composition_unit?: CompositionUnit;
  /** reference state of each element ({EL: PHASE or 'SER'}) for acr/mur/GM_formation */
  reference_states?: Record<string, string>;
}

/** @schema TaskConfig_scheil_solidification.condition */
export interface ScheilCondition {
  components: string[];
  compositions: Compositions;
  start_temperature: number;
  temperature_step: number;
  pressure: number;
  activated_phases?: string[];
  inhibit_phases?: string[];
  composition_unit?: CompositionUnit;
}

/** @schema TaskConfig_gibbs_energy_curves.condition */
export interface GibbsEnergyCurvesCondition {
  components: string[];
  temperature: number;
  pressure: number;
  compositions_start: Compositions;
  compositions_end: Compositions;
  /** default 101 */
  points?: number;
  activated_phases?: string[];
  /** phase names, patterns (* ?) and @groups to suppress; absent: the database's recommended selection */
  inhibit_phases?: string[];
  /** mole_fraction (default) or mass_fraction: the unit of the composition maps */
  composition_unit?: CompositionUnit;
  /** reference state of each element ({EL: PHASE or 'SER'}) for acr/mur/GM_formation */
  reference_states?: Record<string, string>;
}

/** @schema TaskConfig_spinodal_decomposition.condition.coherent */
export interface SpinodalCoherent {
  /** elastic constants, Pa */
  c11: number;
  c12: number;
  /** (1/a) da/dx of the axis element */
  lattice_mismatch: number;
  /** m^3/mol */
  molar_volume: number;
}

/** @schema TaskConfig_ternary_isothermal_section.coherent */
export interface SectionCoherent {
  /** elastic constants, Pa */
  c11: number;
  c12: number;
  /** {EL: (1/a) da/dx_EL}; an element not named has 0 */
  lattice_mismatch: Record<string, number>;
  /** m^3/mol */
  molar_volume: number;
}

/** @schema TaskConfig_solidification.condition.solute_trapping */
export interface SoluteTrapping {
  /** m/s: the speed of the solidification front; or give thermal_gradient */
  interface_velocity?: number;
  /** K/m: V = cooling_rate / thermal_gradient */
  thermal_gradient?: number;
  /** m/s: Aziz's V_D; default 2 */
  diffusive_speed?: number;
}

/** @schema TaskConfig_spinodal_decomposition.condition */
export interface SpinodalCondition {
  components: string[];
  /** the phase whose spinodal is traced */
  phase: string;
  /** the element on the composition axis; default the second component */
  x_component?: string;
  temperature_start: number;
  temperature_end: number;
  pressure: number;
  /** default 61 */
  temperature_points?: number;
  /** default 201 */
  composition_points?: number;
  activated_phases?: string[];
  inhibit_phases?: string[];
  /** the coherent spinodal (Cahn 1961) */
  coherent?: SpinodalCoherent;
}

/** @schema TaskConfig_potential_diagram.condition.x_axis */
export interface PotentialDiagramAxis {
  /** the temperature (K; x axis only), log10 of an element's activity, or its chemical potential (J/mol) */
  quantity: 'temperature' | 'log10_activity' | 'chemical_potential';
  /** the element held at the potential (potential axes) */
  element?: string;
  /** the activity's reference: a phase (GAS for oxygen: log10 a(O) = log10 p(O2)/2) or SER */
  reference_state?: string;
  start: number;
  end: number;
}

/** @schema TaskConfig_potential_diagram.condition.y_axis */
export interface PotentialDiagramYAxis {
  /** log10 of the element's activity, or its chemical potential (J/mol) */
  quantity: 'log10_activity' | 'chemical_potential';
  element?: string;
  reference_state?: string;
  start: number;
  end: number;
}

/** @schema TaskConfig_potential_diagram.condition */
export interface PotentialDiagramCondition {
  components: string[];
  activated_phases?: string[];
  inhibit_phases?: string[];
  pressure: number;
  x_axis: PotentialDiagramAxis;
  y_axis: PotentialDiagramYAxis;
  /** K: the temperature of a diagram with two potential axes */
  temperature?: number;
  /** mole fractions of the elements no axis holds */
  compositions?: Record<string, number>;
  /** nodes per axis; default 61 */
  grid_points?: number;
}

/** @schema TaskConfig_liquidus_projection.condition */
export interface LiquidusProjectionCondition {
  /** the triangle's corners first, then any components held at fixed_compositions */
  components: string[];
  activated_phases?: string[];
  inhibit_phases?: string[];
  pressure: number;
  /** mole fractions of the components after the first three (a section of a multicomponent alloy) */
  fixed_compositions?: Record<string, number>;
  /** divisions of each side of the triangle's grid; default 20 */
  grid_divisions?: number;
  /** K between liquidus isotherms; default 50 */
  isotherm_step?: number;
}

/** @schema TaskConfig_solution_treatment.condition.dissolution.diffusivity */
export interface SolutionDiffusivity {
  /** m^2/s */
  D0: number;
  /** J/mol */
  Q: number;
}

/** @schema TaskConfig_solution_treatment.condition.dissolution */
export interface SolutionDissolution {
  phase: string;
  /** m */
  radius: number;
  /** default: the recommended temperature */
  temperature?: number;
  /** default: from the database's mobility data */
  diffusivity?: SolutionDiffusivity;
}

/** @schema TaskConfig_solution_treatment.condition */
export interface SolutionCondition {
  components: string[];
  compositions: Compositions;
  pressure: number;
  temperature_start: number;
  /** default: 20 K above the liquidus */
  temperature_end?: number;
  /** default 121 */
  points?: number;
  matrix_phase?: string;
  precipitates?: string[];
  /** K, default 10 */
  safety_margin?: number;
  dissolution?: SolutionDissolution;
  activated_phases?: string[];
  inhibit_phases?: string[];
  composition_unit?: CompositionUnit;
}

/** @schema TaskConfig_solidification.condition */
export interface SolidificationCondition {
  components: string[];
  compositions: Compositions;
  pressure: number;
  start_temperature: number;
  temperature_step: number;
  /** K/s */
  cooling_rate: number;
  /** m; default derived from the cooling rate */
  secondary_arm_spacing?: number;
  /** default: C, N, H, B, O among the components */
  fast_diffusers?: string[];
  /** D0 (m^2/s) and Q (J/mol) per element; default the database's mobility data */
  solid_diffusivities?: Record<string, { D0: number; Q: number }>;
  /** extension: Aziz's solute trapping in the path with back diffusion */
  solute_trapping?: SoluteTrapping;
  primary_phase?: string;
  activated_phases?: string[];
  inhibit_phases?: string[];
  composition_unit?: CompositionUnit;
}

/** @schema TaskConfig_aging.condition.precipitates */
export interface AgingPrecipitate {
  phase: string;
  /** J/m^2, > 0 and at most 5 (coherent 0.01-0.2, incoherent 0.5-1) */
  interfacial_energy: number;
  /** m^3 per mole of atoms; default from lattice_parameter, else the matrix's */
  molar_volume?: number;
  /** m, of a cubic cell */
  lattice_parameter?: number;
  /** default 4 */
  atoms_per_cell?: number;
  /** default bulk */
  nucleation_site?: 'bulk' | 'dislocations' | 'grain_boundaries';
  /** sites per m^3, instead of the estimate from the site type */
  site_density?: number;
  /** default a sphere; the radii of the result are equivalent-sphere radii */
  shape?: AgingShape;
}

/** @schema TaskConfig_aging.condition.precipitates.shape */
export interface AgingShape {
  kind: 'sphere' | 'needle' | 'plate';
  /** long axis over short one, 1 to 1000 (required for a needle or plate) */
  aspect_ratio?: number;
}

/** @schema TaskConfig_aging.condition.strength */
export interface AgingStrengthParameters {
  /** Pa (aluminium 26.9e9) */
  shear_modulus: number;
  /** m (aluminium 2.86e-10) */
  burgers_vector: number;
  /** m: shearing below, Orowan bypass above (Al alloys 2e-9 to 5e-9) */
  transition_radius: number;
  /** m, per precipitate phase */
  transition_radii?: Record<string, number>;
  /** default 3.06 */
  taylor_factor?: number;
  /** default 0.5 */
  line_tension_factor?: number;
  /** the phases together (default quadrature) */
  combination?: 'quadrature' | 'linear';
}

/** @schema TaskConfig_aging.condition.schedule */
export interface AgingSchedulePoint {
  /** s, from 0, increasing */
  time: number;
  /** K */
  temperature: number;
}

/** @schema TaskConfig_aging.condition */
export interface AgingCondition {
  components: string[];
  compositions: Compositions;
  pressure: number;
  matrix_phase: string;
  /** m^3 per mole of atoms; this or matrix_lattice_parameter */
  matrix_molar_volume?: number;
  /** m, of a cubic cell */
  matrix_lattice_parameter?: number;
  /** default 4 */
  matrix_atoms_per_cell?: number;
  /** K: an isothermal hold, with end_time; or give schedule */
  temperature?: number;
  /** s (default with a schedule: its last time) */
  end_time?: number;
  /** ramps and holds from time 0, instead of temperature */
  schedule?: AgingSchedulePoint[];
  precipitates: AgingPrecipitate[];
  /** m^-2 (default 1e12) */
  dislocation_density?: number;
  /** m (default 50e-6) */
  grain_size?: number;
  /** D0 (m^2/s) and Q (J/mol) per element in the matrix; default the database's mobility data */
  diffusivities?: Record<string, { D0: number; Q: number }>;
  /** s: times of the size distributions (default: the end) */
  output_times?: number[];
  /** output times, log-spaced (default 100) */
  points?: number;
  /** the yield-strength increment against time */
  strength?: AgingStrengthParameters;
  activated_phases?: string[];
  inhibit_phases?: string[];
  composition_unit?: CompositionUnit;
}

/** One row of an equilibrium_batch given as a list: its own composition, temperature and pressure. */
export interface BatchRow {
  compositions: Compositions;
  temperature: number;
  /** default condition.pressure */
  pressure?: number;
  label?: string;
}

/** @schema TaskConfig_equilibrium_batch.condition.product */
export interface BatchProduct {
  compositions: Compositions[];
  temperatures: number[];
  /** one per composition */
  labels?: string[];
}

/** @schema TaskConfig_equilibrium_batch.condition.table */
export interface BatchTable {
  /** CSV text: a header line with one column per element, optional T, pressure and label columns */
  csv: string;
  /** default mole_fraction */
  unit?: 'mole_fraction' | 'mass_fraction' | 'mole_percent' | 'mass_percent';
  /** every record at each of these temperatures (when the table has no T column) */
  temperatures?: number[];
}

/** @schema TaskConfig_equilibrium_batch.condition */
export interface EquilibriumBatchCondition {
  components: string[];
  /** Pa, of the rows that give none */
  pressure: number;
  /** exactly one of rows, product and table */
  rows?: BatchRow[];
  product?: BatchProduct;
  table?: BatchTable;
  activated_phases?: string[];
  inhibit_phases?: string[];
  thermo_outputs?: string[];
  outputs_list_template?: string[];
  composition_unit?: CompositionUnit;
  reference_states?: Record<string, string>;
  /** {EL: J/mol}: EL held at this chemical potential in every row (the rows leave EL out) */
  chemical_potentials?: Record<string, number>;
  /** {EL: activity against reference_states[EL]}: EL held at this activity in every row */
  activities?: Record<string, number>;
  /** {PHASE: amount 0..1}: each row's T left free (the row's T where the search starts) */
  fixed_phases?: Record<string, number>;
}

/** @schema TaskConfig_binary_cpt_diagram.condition.map_options */
export interface CptMapOptions {
  GLOBAL_MIN_PDENS?: number;
}

/** @schema TaskConfig_binary_cpt_diagram.condition */
export interface CptCondition {
  components: string[];
  activated_phases?: string[];
  /** phase names, patterns (* ?) and @groups to suppress; absent: the database's recommended selection */
  inhibit_phases?: string[];
  x_component: string;
  composition_start: number;
  composition_end: number;
  composition_step: number;
  temperature_start: number;
  temperature_end: number;
  temperature_step: number;
  pressure_start: number;
  pressure_end: number;
  pressure_points: number;
  pressure_scale: 'linear' | 'log';
  /** unit of composition_start/end/step (the grid is equally spaced in it) */
  composition_unit?: CompositionUnit;
  include_tielines?: boolean;
  tieline_stride?: number;
  map_options?: CptMapOptions;
}

/** @schema TaskConfig_point_calculation */
export interface PointCalculationConfig {
  task_type: 'point_calculation';
  tdb_code: string;
  task_path?: string;
  /** legacy: the code is derived from the file name; the path itself is never used */
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  condition: PointCondition;
}

/** @schema TaskConfig_line_calculation */
export interface LineCalculationConfig {
  task_type: 'line_calculation';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  condition: LineCondition;
}

/** @schema TaskConfig_binary_equilibrium */
export interface BinaryEquilibriumConfig {
  task_type: 'binary_equilibrium';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  /** must equal condition.components */
  activated_elements?: string[];
  order_disorder?: Record<string, unknown>;
  /** the chemical spinodal inside every miscibility gap, drawn dashed */
  spinodal?: boolean;
  condition: BinaryEquilibriumCondition;
}

/** @schema TaskConfig_thermodynamic_properties_next */
export interface PropertiesConfig {
  task_type: 'thermodynamic_properties_next';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  condition: PropertiesCondition;
}

/** @schema TaskConfig_scheil_solidification */
export interface ScheilConfig {
  task_type: 'scheil_solidification';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  condition: ScheilCondition;
}

/** @schema TaskConfig_binary_cpt_diagram */
export interface CptDiagramConfig {
  task_type: 'binary_cpt_diagram';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  condition: CptCondition;
  ui_metadata?: Record<string, unknown>;
}

/** @schema TaskConfig_isopleth.condition.end_members */
export interface IsoplethEndMembers {
  /** a compound formula ("Fe3C", "Al2O3", "NiAl") or an alloy's fractions in composition_unit */
  start: string | Record<string, number>;
  end: string | Record<string, number>;
}

/** @schema TaskConfig_isopleth.condition */
export interface IsoplethCondition {
  components: string[];
  activated_phases?: string[];
  /** phase names, patterns (* ?) and @groups to suppress; absent: the database's recommended selection */
  inhibit_phases?: string[];
  temperature_start: number;
  temperature_end: number;
  pressure: number;
  /** fractions at both ends; every fraction varies linearly between them (required unless end_members is given) */
  composition_start?: Record<string, number>;
  composition_end?: Record<string, number>;
  /** a pseudo-binary section: the two end members instead, each a formula ("Fe3C", "Al2O3") or an alloy's fractions */
  end_members?: IsoplethEndMembers;
  /** x axis of a pseudo-binary section: the end member's mole fraction in formula units (default) or mass fraction */
  end_member_axis?: 'mole_fraction' | 'mass_fraction';
  composition_unit?: 'mole_fraction' | 'mass_fraction';
  /** coarse-grid nodes per axis (5..101) */
  resolution?: number;
}

/** @schema TaskConfig_isopleth */
export interface IsoplethConfig {
  task_type: 'isopleth';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  condition: IsoplethCondition;
}

/** @schema TaskConfig_ternary_isothermal_section.condition */
export interface TernarySectionCondition {
  /** exactly 3 elements: bottom left, bottom right and top corner of the Gibbs triangle */
  components: string[];
  temperature: number;
  pressure: number;
  activated_phases?: string[];
  /** phase names, patterns (* ?) and @groups to suppress; absent: the database's recommended selection */
  inhibit_phases?: string[];
  /** [min, max] mole fraction of some components (default the whole triangle) */
  composition_window?: { component: string; min: number; max: number }[];
  composition_unit?: 'mole_fraction' | 'mass_fraction';
  map_options?: { GLOBAL_MIN_PDENS?: number; grid_divisions?: number };
}

/** @schema TaskConfig_ternary_isothermal_section */
export interface TernarySectionConfig {
  task_type: 'ternary_isothermal_section';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  /** the spinodal line inside every miscibility gap, drawn dashed */
  spinodal?: boolean;
  /** with spinodal: the coherent spinodal too (Cahn 1961) */
  coherent?: SectionCoherent;
  condition: TernarySectionCondition;
}

/** @schema TaskConfig_gibbs_energy_curves */
export interface GibbsEnergyCurvesConfig {
  task_type: 'gibbs_energy_curves';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  condition: GibbsEnergyCurvesCondition;
}

/** @schema TaskConfig_equilibrium_batch */
export interface EquilibriumBatchConfig {
  task_type: 'equilibrium_batch';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  condition: EquilibriumBatchCondition;
}

/** @schema TaskConfig_spinodal_decomposition */
export interface SpinodalConfig {
  task_type: 'spinodal_decomposition';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  condition: SpinodalCondition;
}

/** @schema TaskConfig_potential_diagram */
export interface PotentialDiagramConfig {
  task_type: 'potential_diagram';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  condition: PotentialDiagramCondition;
}

/** @schema TaskConfig_liquidus_projection */
export interface LiquidusProjectionConfig {
  task_type: 'liquidus_projection';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  condition: LiquidusProjectionCondition;
}

/** @schema TaskConfig_solution_treatment */
export interface SolutionConfig {
  task_type: 'solution_treatment';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  condition: SolutionCondition;
}

/** @schema TaskConfig_solidification */
export interface SolidificationConfig {
  task_type: 'solidification';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  condition: SolidificationCondition;
}

/** @schema TaskConfig_aging */
export interface AgingConfig {
  task_type: 'aging';
  tdb_code: string;
  task_path?: string;
  tdb_file?: string;
  /** a database of mobility data read beside tdb_code (MOB, DT, DC, DI outputs) */
  mobility_tdb_code?: string;
  /** set by the server from mobility_tdb_code; a client's path is never used */
  mobility_tdb_file?: string;
  /** unit of the previews' temperature axes (default kelvin) */
  preview_temperature_unit?: 'kelvin' | 'celsius';
  condition: AgingCondition;
}

export type TaskConfig =
  | PointCalculationConfig
  | LineCalculationConfig
  | BinaryEquilibriumConfig
  | PropertiesConfig
  | ScheilConfig
  | CptDiagramConfig
  | IsoplethConfig
  | TernarySectionConfig
  | GibbsEnergyCurvesConfig
  | EquilibriumBatchConfig
  | SpinodalConfig
  | SolutionConfig
  | SolidificationConfig
  | AgingConfig
  | PotentialDiagramConfig
  | LiquidusProjectionConfig;

/** @schema TaskCreateRequest */
export interface TaskCreateRequest {
  title: string;
  /** thermo_next (the default) */
  engine?: string;
  task_config?: TaskConfig;
  /** read as task_config (JSON text of an object) when task_config is absent */
  description?: string;
  omp_threads?: number;
  no_cache?: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// Query parameters
// ---------------------------------------------------------------------------------------------------------------

/** @query GET /task/list */
export interface TaskListQuery {
  page?: number;
  /** 1..100 */
  items_per_page?: number;
  /** by task id */
  sort_order?: 'asc' | 'desc';
  /** @extension Comma-separated task statuses. */
  status?: string;
  /** @extension Comma-separated task types. */
  task_type?: string;
  /** @extension Database code. */
  tdb_code?: string;
  /** @extension Case-insensitive substring of the title, or a task id. */
  search?: string;
}

/**
 * @query GET /database
 * @query GET /database/users
 */
export interface DatabaseListQuery {
  type?: string;
  level?: string;
  /** code, name or element */
  search?: string;
  page?: number;
  /** 1..100 */
  size?: number;
}

/** @query GET /database/by-task */
export interface DatabaseByTaskQuery {
  task_type: string;
  page?: number;
  size?: number;
}

/** @query GET /database/user/status */
export interface UserDatabaseStatusQuery {
  /** the key owner's id (KeyInfo.user.id) */
  user_id: string;
  /** the database id */
  topdb_id: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Endpoints and errors
// ---------------------------------------------------------------------------------------------------------------

/** Every operation of /api/v2, by client method name: the client builds each request from this table. */
export const ENDPOINTS = {
  keyInfo: { method: 'GET', path: '/key/info' },
  listDatabases: { method: 'GET', path: '/database' },
  listUserDatabases: { method: 'GET', path: '/database/users' },
  listDatabasesByTask: { method: 'GET', path: '/database/by-task' },
  userDatabaseStatus: { method: 'GET', path: '/database/user/status' },
  getDatabase: { method: 'GET', path: '/database/{db_id}' },
  queryPhases: { method: 'POST', path: '/database/{db_id}/phases' },
  getPhaseNames: { method: 'GET', path: '/database/{db_id}/phase-names' },
  setPhaseNames: { method: 'PUT', path: '/database/{db_id}/phase-names' },
  createTask: { method: 'POST', path: '/task' },
  listTasks: { method: 'GET', path: '/task/list' },
  getTask: { method: 'GET', path: '/task/{id}' },
  cancelTask: { method: 'PATCH', path: '/task/{id}/cancel' },
  deleteTask: { method: 'DELETE', path: '/task/{id}' },
  resultFiles: { method: 'GET', path: '/task/{id}/result' },
  previewFiles: { method: 'GET', path: '/task/{id}/preview' },
  vtkFiles: { method: 'GET', path: '/task/{id}/vtk' },
} as const;
export type EndpointName = keyof typeof ENDPOINTS;

/** An HTTP answer other than 2xx: `status` is the HTTP status, `message` the service's `error` text. */
export class PhaseDeskApiError extends Error {
  override readonly name = 'PhaseDeskApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly method: string,
    readonly url: string,
    /** the JSON error body, when the answer had one */
    readonly body?: ErrorBody,
  ) {
    super(message);
  }
  get details(): string | undefined {
    return this.body?.details;
  }
}

export interface ClientOptions {
  /** Base URL ending in /api/v2 (default http://127.0.0.1:7431/api/v2). */
  baseUrl?: string;
  /** tk_ + 32 alphanumerics. */
  apiKey: string;
  /** A fetch implementation (default: the global fetch). */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface WaitOptions extends RequestOptions {
  /** Time between two GET /task/{id}, ms (default 500). */
  intervalMs?: number;
  /** Called with every task record read while waiting (status, and progress/stage where the service sends them). */
  onUpdate?: (task: Task) => void;
}

/** One row of an equilibrium_batch result (a line of result/rows.jsonl; a PhaseDesk extension). */
export interface BatchRowRecord {
  /** 1-based number of the row in the batch */
  row: number;
  label?: string;
  /** ok: converged; not_converged: the solver's answer, flagged; failed: no answer (`reason` says why) */
  status: 'ok' | 'not_converged' | 'failed';
  /** why the row is not ok ('' when it is) */
  reason: string;
  /** the row's conditions: K, Pa, overall mole fractions of every element */
  input: { T: number; P: number; x: Record<string, number> };
  /** the row's outputs by column name (as in result.csv); absent for a failed row */
  values?: Record<string, number | string | null>;
}

export interface BatchOptions extends WaitOptions {
  /** default 'batch' */
  title?: string;
  /** OpenMP threads of the task (the service's default when absent) */
  ompThreads?: number;
}

/** A task that ended failed or aborted where its result was wanted: `task` is its record, its `logs` say why. */
export class PhaseDeskTaskError extends Error {
  override readonly name = 'PhaseDeskTaskError';
  constructor(readonly task: Task) {
    super(`task ${task.id} ${task.status}`);
  }
}

type Query = Record<string, string | number | boolean | undefined>;

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function errorFrom(res: Response, method: string, url: string): Promise<PhaseDeskApiError> {
  const text = await res.text().catch(() => '');
  let body: ErrorBody | undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && typeof (parsed as ErrorBody).error === 'string')
      body = parsed as ErrorBody;
  } catch {
    /* not JSON: the text is the message */
  }
  const message = body?.error ?? (text.trim() || `HTTP ${res.status} ${res.statusText}`.trim());
  return new PhaseDeskApiError(res.status, message, method, url, body);
}

/** The file name at the end of a signed download URL (`result.json`, `point.png`, ...). */
export function fileName(url: string): string {
  const path = new URL(url).pathname;
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
}

export class PhaseDeskClient {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly fetchImpl: typeof fetch;

  constructor(options: ClientOptions) {
    this.baseUrl = (options.baseUrl ?? 'http://127.0.0.1:7431/api/v2').replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  private async call<T>(
    name: EndpointName,
    o: { params?: Record<string, string | number>; query?: object; body?: unknown; signal?: AbortSignal } = {},
  ): Promise<T> {
    const { method, path } = ENDPOINTS[name];
    const filled = path.replace(/\{(\w+)\}/g, (_m, p: string) => {
      const v = o.params?.[p];
      if (v === undefined) throw new TypeError(`${name}: path parameter ${p} is required`);
      return encodeURIComponent(String(v));
    });
    const url = new URL(this.baseUrl + filled);
    for (const [k, v] of Object.entries((o.query ?? {}) as Query))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}`, accept: 'application/json' };
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.fetchImpl(url, {
      method,
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
      signal: o.signal,
    });
    if (!res.ok) throw await errorFrom(res, method, url.toString());
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** GET /key/info: the key and its owner. */
  keyInfo(o: RequestOptions = {}): Promise<KeyInfo> {
    return this.call('keyInfo', o);
  }

  /** GET /database: enabled databases, paged. */
  listDatabases(query: DatabaseListQuery = {}, o: RequestOptions = {}): Promise<DatabaseList> {
    return this.call('listDatabases', { query, ...o });
  }

  /** GET /database/users: databases linked to the caller, with user_status. */
  listUserDatabases(query: DatabaseListQuery = {}, o: RequestOptions = {}): Promise<DatabaseList> {
    return this.call('listUserDatabases', { query, ...o });
  }

  /** GET /database/by-task: enabled databases supporting a task type. */
  listDatabasesByTask(query: DatabaseByTaskQuery, o: RequestOptions = {}): Promise<DatabaseList> {
    return this.call('listDatabasesByTask', { query, ...o });
  }

  /** GET /database/user/status: the caller's subscription status for one database. */
  userDatabaseStatus(query: UserDatabaseStatusQuery, o: RequestOptions = {}): Promise<UserDatabaseStatus> {
    return this.call('userDatabaseStatus', { query, ...o });
  }

  /** GET /database/{db_id}. */
  getDatabase(dbId: string, o: RequestOptions = {}): Promise<Database> {
    return this.call('getDatabase', { params: { db_id: dbId }, ...o });
  }

  /** POST /database/{db_id}/phases: the phases available for the elements (usable as condition.activated_phases). */
  queryPhases(dbId: string, body: PhasesRequest, o: RequestOptions = {}): Promise<PhasesResponse> {
    return this.call('queryPhases', { params: { db_id: dbId }, body, ...o });
  }

  /** GET /database/{db_id}/phase-names (extension): the display names figures give the database's phases. */
  getPhaseNames(dbId: string, o: RequestOptions = {}): Promise<PhaseNames> {
    return this.call('getPhaseNames', { params: { db_id: dbId }, ...o });
  }

  /** PUT /database/{db_id}/phase-names (extension): replaces the stored display names ({} = the defaults). */
  setPhaseNames(dbId: string, body: PhaseNamesRequest, o: RequestOptions = {}): Promise<PhaseNames> {
    return this.call('setPhaseNames', { params: { db_id: dbId }, body, ...o });
  }

  /** POST /task. */
  createTask(body: TaskCreateRequest, o: RequestOptions = {}): Promise<TaskCreated> {
    return this.call('createTask', { body, ...o });
  }

  /** GET /task/list: the caller's tasks, paged. */
  listTasks(query: TaskListQuery = {}, o: RequestOptions = {}): Promise<TaskList> {
    return this.call('listTasks', { query, ...o });
  }

  /** GET /task/{id} (integer id). */
  getTask(id: number, o: RequestOptions = {}): Promise<Task> {
    return this.call('getTask', { params: { id }, ...o });
  }

  /** PATCH /task/{id}/cancel: allowed from pending, queued, running (else PhaseDeskApiError 409). */
  cancelTask(id: number, o: RequestOptions = {}): Promise<Task> {
    return this.call('cancelTask', { params: { id }, ...o });
  }

  /** DELETE /task/{id} (integer id or task UUID): stops the task if needed, then deletes it. */
  async deleteTask(id: number | string, o: RequestOptions = {}): Promise<void> {
    await this.call('deleteTask', { params: { id }, ...o });
  }

  /** GET /task/{id}/result: signed URLs of the result files of a completed task (409 otherwise). */
  resultFiles(id: number, o: RequestOptions = {}): Promise<FileList> {
    return this.call('resultFiles', { params: { id }, ...o });
  }

  /** GET /task/{id}/preview: signed URLs of the preview files (SVG, PNG). */
  previewFiles(id: number, o: RequestOptions = {}): Promise<FileList> {
    return this.call('previewFiles', { params: { id }, ...o });
  }

  /** GET /task/{id}/vtk: signed URLs of the VTK archives (binary_cpt_diagram). */
  vtkFiles(id: number, o: RequestOptions = {}): Promise<FileList> {
    return this.call('vtkFiles', { params: { id }, ...o });
  }

  /** GET /openapi.json: the OpenAPI 3.1 document of this service (needs no key). */
  async openApiDocument(o: RequestOptions = {}): Promise<Record<string, unknown>> {
    const url = `${this.baseUrl}/openapi.json`;
    const res = await this.fetchImpl(url, { headers: { accept: 'application/json' }, signal: o.signal });
    if (!res.ok) throw await errorFrom(res, 'GET', url);
    return (await res.json()) as Record<string, unknown>;
  }

  /**
   * Polls GET /task/{id} until the task is completed, failed or aborted and returns that record (a failed task is
   * returned, not thrown: its `logs` say why). Stop waiting with `signal` (for a deadline: AbortSignal.timeout(ms));
   * the promise then rejects with the signal's reason.
   */
  async waitForTask(id: number, o: WaitOptions = {}): Promise<Task> {
    const interval = o.intervalMs ?? 500;
    for (;;) {
      const task = await this.getTask(id, { signal: o.signal });
      o.onUpdate?.(task);
      if ((TERMINAL_STATUSES as readonly string[]).includes(task.status)) return task;
      await sleep(interval, o.signal);
    }
  }

  /**
   * Runs an equilibrium_batch task (a PhaseDesk extension: many alloys and temperatures in one task), waits for it and
   * returns its rows in input order (result/rows.jsonl). A row that did not converge comes back with its status and
   * reason, never as an error; a configuration the service refuses is a PhaseDeskApiError 400 naming the field, a task
   * that fails or is aborted a PhaseDeskTaskError. Aborting `signal` stops the waiting, not the task (cancelTask does).
   */
  async batch(tdbCode: string, condition: EquilibriumBatchCondition, o: BatchOptions = {}): Promise<BatchRowRecord[]> {
    const created = await this.createTask(
      {
        title: o.title ?? 'batch',
        task_config: { task_type: 'equilibrium_batch', tdb_code: tdbCode, condition },
        ...(o.ompThreads !== undefined ? { omp_threads: o.ompThreads } : {}),
      },
      { signal: o.signal },
    );
    const task = await this.waitForTask(created.id, o);
    if (task.status !== 'completed') throw new PhaseDeskTaskError(task);
    const text = new TextDecoder().decode(await this.taskFile(created.id, 'rows.jsonl', { signal: o.signal }));
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as BatchRowRecord)
      .sort((a, b) => a.row - b.row);
  }

  /**
   * Downloads a signed URL from a file list. The URL is the credential: no API key is sent. An expired or altered
   * URL gives PhaseDeskApiError 403.
   */
  async download(url: string, o: RequestOptions = {}): Promise<Uint8Array> {
    const res = await this.fetchImpl(url, { signal: o.signal });
    if (!res.ok) throw await errorFrom(res, 'GET', url);
    return new Uint8Array(await res.arrayBuffer());
  }

  /**
   * One named file of a task in one call: the file list of `kind` (GET /task/{id}/result, /preview or /vtk) and the
   * download of the URL whose file name is `name` (`result.csv`, `point.svg`). A name the list lacks is a
   * PhaseDeskApiError 404 naming the files there are.
   */
  async taskFile(
    id: number,
    name: string,
    o: RequestOptions & { kind?: 'result' | 'preview' | 'vtk' } = {},
  ): Promise<Uint8Array> {
    const kind = o.kind ?? 'result';
    const list = await this.call<FileList>(`${kind}Files`, { params: { id }, signal: o.signal });
    const url = list.files.find((u) => fileName(u) === name);
    if (url === undefined) {
      const names = list.files.map(fileName).join(', ');
      const message = `task ${id} has no ${kind} file ${name} (files: ${names || 'none'})`;
      throw new PhaseDeskApiError(404, message, 'GET', `${this.baseUrl}/task/${id}/${kind}`);
    }
    return this.download(url, o);
  }

  /** Downloads a signed URL and parses it as JSON (result.json). */
  async downloadJson<T = unknown>(url: string, o: RequestOptions = {}): Promise<T> {
    return JSON.parse(new TextDecoder().decode(await this.download(url, o))) as T;
  }

  /** Downloads a signed URL as UTF-8 text (result.csv, *.svg). */
  async downloadText(url: string, o: RequestOptions = {}): Promise<string> {
    return new TextDecoder().decode(await this.download(url, o));
  }
}
