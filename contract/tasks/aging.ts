// aging (announced by the specification, opened here): precipitation during an ageing treatment by the
// Kampmann-Wagner numerical method (Kampmann and Wagner, in "Decomposition of Alloys: the Early Stages", Pergamon
// 1984, p. 91): classical nucleation, diffusion-controlled growth and coarsening of one or more precipitate phases
// competing for the solute of one matrix, at a constant temperature or along a schedule of ramps and holds
// (worker/calculations/aging.ts on the model of worker/calculations/aging/).
import { z } from 'zod';
import {
  arrheniusDiffusivity,
  common,
  components,
  composition,
  compositionRule,
  furtherFields,
  phaseFields,
  pressure,
} from './common.js';
export type { AgingDocument } from '../results/aging.js';

/** Dislocations per m^2 when nucleation on dislocations is asked for and none is given (an annealed alloy). */
export const AGING_DEFAULT_DISLOCATION_DENSITY = 1e12;
/** Mean grain diameter, m, when nucleation on grain boundaries is asked for and none is given. */
export const AGING_DEFAULT_GRAIN_SIZE = 50e-6;
/** Output times (log-spaced over eight decades up to end_time) when the configuration names none. */
export const AGING_DEFAULT_POINTS = 100;
/** Taylor factor of a textureless fcc polycrystal (Stoller and Zinkle, J. Nucl. Mater. 283-287 (2000) 349). */
export const AGING_DEFAULT_TAYLOR_FACTOR = 3.06;
/** Line tension over G b^2 (Deschamps and Brechet, Acta Mater. 47 (1999) 293). */
export const AGING_DEFAULT_LINE_TENSION = 0.5;

const positive = z.number().gt(0, 'must be greater than 0');
const seconds = positive.max(1e10, 'must be at most 1e10 s (about 300 years)');
const kelvin = positive.max(6000, 'must be at most 6000 K');

/** A molar volume given directly or from a cubic cell (a^3 N_A / atoms per cell). */
const volumeFields = {
  molar_volume: positive.max(1e-3, 'must be at most 1e-3 m^3/mol').optional(),
  lattice_parameter: positive.max(1e-8, 'must be at most 1e-8 m').optional(),
  atoms_per_cell: z.number().int('must be an integer').min(1, 'must be at least 1').max(64).optional(),
};

const precipitate = z.strictObject({
  phase: z.string().min(1, 'must name a phase').describe('the precipitate phase as the database names it (AL3ZR)'),
  interfacial_energy: positive
    .max(5, 'must be at most 5 J/m^2')
    .describe('J/m^2: the matrix/precipitate interface (coherent 0.01-0.2, incoherent 0.5-1)'),
  molar_volume: volumeFields.molar_volume.describe(
    "m^3 per mole of atoms (Al3Zr 1.0e-5); default from lattice_parameter, else the matrix's",
  ),
  lattice_parameter: volumeFields.lattice_parameter.describe('m, of a cubic cell (Al3Zr L1_2 4.05e-10)'),
  atoms_per_cell: volumeFields.atoms_per_cell.describe('atoms per cubic cell (4 for fcc and L1_2); default 4'),
  nucleation_site: z
    .enum(['bulk', 'dislocations', 'grain_boundaries'], 'must be one of: bulk, dislocations, grain_boundaries')
    .describe('where nuclei form: every lattice site (bulk), dislocation lines, grain boundaries; default bulk')
    .optional(),
  site_density: positive
    .describe('nucleation sites per m^3, instead of the estimate from the site type (bulk: N_A / V_m)')
    .optional(),
  shape: z
    .strictObject({
      kind: z.enum(['sphere', 'needle', 'plate'], 'must be one of: sphere, needle, plate'),
      aspect_ratio: z
        .number()
        .min(1, 'must be at least 1 (the long axis over the short one)')
        .max(1000, 'must be at most 1000')
        .describe('long axis over short one (beta" needles in 6xxx 10-30, theta\' plates 20-50); a sphere 1')
        .optional(),
    })
    .describe(
      'sphere (default), needle or plate (spheroids) of a constant aspect_ratio; radii are equivalent-sphere radii',
    )
    .optional(),
});

/** The yield-strength increment of the precipitates (worker/calculations/aging/strength.ts). */
const strength = z
  .strictObject({
    shear_modulus: positive
      .max(1e12, 'must be at most 1e12 Pa')
      .describe("Pa, the matrix's shear modulus G (aluminium 26.9e9, nickel 76e9, iron 81.6e9)"),
    burgers_vector: positive
      .max(1e-8, 'must be at most 1e-8 m')
      .describe("m, the matrix's Burgers vector b (aluminium 2.86e-10, nickel 2.49e-10, iron 2.48e-10)"),
    transition_radius: positive
      .max(1e-6, 'must be at most 1e-6 m')
      .describe('m, the radius r_c from shearing to Orowan bypass (Al alloys 2e-9 to 5e-9)'),
    transition_radii: z
      .record(z.string(), positive.max(1e-6, 'must be at most 1e-6 m'))
      .describe('m, per precipitate phase: its own r_c instead of transition_radius')
      .optional(),
    taylor_factor: positive
      .max(10, 'must be at most 10')
      .describe('M, yield stress over resolved shear stress (fcc 3.06, bcc 2.75); default 3.06')
      .optional(),
    line_tension_factor: positive
      .max(2, 'must be at most 2')
      .describe('beta in the line tension beta G b^2 (0.5 usual); default 0.5')
      .optional(),
    combination: z
      .enum(['quadrature', 'linear'], 'must be one of: quadrature, linear')
      .describe('the phases together: quadrature, root of the sum of squares (default), or linear, their sum')
      .optional(),
  })
  .describe(
    'the yield-strength increment against time: shear_modulus (Pa), burgers_vector (m), transition_radius (m); taylor_factor, line_tension_factor, combination',
  );

const schedulePoint = z.strictObject({
  time: z.number().min(0, 'must be at least 0').max(1e10, 'must be at most 1e10 s'),
  temperature: kelvin,
});

export const agingSchema = z.strictObject({
  task_type: z.literal('aging'),
  ...common,
  condition: z
    .strictObject({
      components,
      compositions: composition,
      pressure,
      matrix_phase: z.string().min(1, 'must name a phase').describe('the supersaturated solid solution (FCC_A1)'),
      matrix_molar_volume: volumeFields.molar_volume.describe(
        'm^3 per mole of atoms (aluminium 1.0e-5, iron 7.1e-6, nickel 6.6e-6); or matrix_lattice_parameter',
      ),
      matrix_lattice_parameter: volumeFields.lattice_parameter.describe(
        'm, of a cubic cell (aluminium 4.05e-10, nickel 3.52e-10); also the attachment distance',
      ),
      matrix_atoms_per_cell: volumeFields.atoms_per_cell.describe('atoms per cubic cell (fcc 4, bcc 2); default 4'),
      temperature: kelvin.describe('K: an isothermal hold (with end_time); or give schedule').optional(),
      end_time: seconds.describe('s: the length of the treatment (100 h = 3.6e5 s)').optional(),
      schedule: z
        .array(schedulePoint)
        .min(2, 'must have at least 2 points')
        .describe('{time s, temperature K} points from time 0: ramps and holds, instead of temperature')
        .optional(),
      precipitates: z
        .array(precipitate)
        .min(1, 'must name at least one precipitate')
        .describe(
          'each: phase, interfacial_energy (J/m^2), molar_volume (m^3/mol) or lattice_parameter (m), nucleation_site (bulk, dislocations, grain_boundaries), shape {kind: sphere, needle or plate, aspect_ratio}',
        ),
      dislocation_density: positive
        .max(1e18, 'must be at most 1e18 m^-2')
        .describe('m^-2, sites of nucleation on dislocations (annealed 1e12, cold worked 1e14-1e15); default 1e12')
        .optional(),
      grain_size: positive
        .max(0.01, 'must be at most 0.01 m')
        .describe('m, mean grain diameter, sites of nucleation on grain boundaries; default 50e-6')
        .optional(),
      diffusivities: z
        .record(z.string(), arrheniusDiffusivity)
        .describe("per element: D0 (m^2/s) and Q (J/mol) in the matrix; default the database's mobility data")
        .optional(),
      output_times: z
        .array(seconds)
        .max(20, 'must have at most 20 times')
        .describe('s: times at which to record the size distributions (default: the end)')
        .optional(),
      points: z
        .number()
        .int('must be an integer')
        .min(11, 'must be at least 11')
        .max(1001, 'must be at most 1001')
        .describe('output times, log-spaced over eight decades up to end_time; default 100')
        .optional(),
      strength: strength.optional(),
      ...phaseFields,
      composition_unit: furtherFields.composition_unit,
    })
    .superRefine(compositionRule(['compositions']))
    .superRefine(agingRules),
});

type AgingCondition = {
  components: string[];
  temperature?: number;
  end_time?: number;
  schedule?: { time: number; temperature: number }[];
  matrix_molar_volume?: number;
  matrix_lattice_parameter?: number;
  precipitates: {
    phase: string;
    lattice_parameter?: number;
    atoms_per_cell?: number;
    molar_volume?: number;
    shape?: { kind: string; aspect_ratio?: number };
  }[];
  diffusivities?: Record<string, unknown>;
  strength?: { transition_radii?: Record<string, number> };
  output_times?: number[];
};

/** The treatment's end: end_time, else the schedule's last time. */
export function agingEndTime(c: { end_time?: number; schedule?: { time: number }[] }): number {
  return c.end_time ?? c.schedule?.at(-1)?.time ?? 0;
}

/** Either an isothermal hold or a schedule; a schedule from time 0 forward; the volumes; the elements named. */
function agingRules(c: AgingCondition, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  if (c.schedule === undefined) {
    if (c.temperature === undefined) issue(['temperature'], 'give temperature and end_time, or a schedule');
    if (c.end_time === undefined) issue(['end_time'], 'give the length of the isothermal hold (s)');
  } else {
    if (c.temperature !== undefined) issue(['temperature'], 'give temperature or schedule, not both');
    if (c.schedule[0]!.time !== 0) issue(['schedule', 0, 'time'], 'the schedule starts at time 0');
    for (let i = 1; i < c.schedule.length; i++)
      if (!(c.schedule[i]!.time > c.schedule[i - 1]!.time))
        issue(
          ['schedule', i, 'time'],
          `goes back in time: ${c.schedule[i]!.time} s after ${c.schedule[i - 1]!.time} s (the times must increase)`,
        );
  }
  if (c.matrix_molar_volume === undefined && c.matrix_lattice_parameter === undefined)
    issue(['matrix_molar_volume'], 'give matrix_molar_volume (m^3/mol) or matrix_lattice_parameter (m)');
  c.precipitates.forEach((p, i) => {
    if (p.molar_volume !== undefined && p.lattice_parameter !== undefined)
      issue(['precipitates', i, 'molar_volume'], 'give molar_volume or lattice_parameter, not both');
    if (p.shape?.kind === 'sphere' && (p.shape.aspect_ratio ?? 1) !== 1)
      issue(['precipitates', i, 'shape', 'aspect_ratio'], 'a sphere has aspect_ratio 1 (give needle or plate)');
    if (p.shape && p.shape.kind !== 'sphere' && p.shape.aspect_ratio === undefined)
      issue(
        ['precipitates', i, 'shape', 'aspect_ratio'],
        `give the ${p.shape.kind}'s aspect ratio (long over short axis)`,
      );
  });
  const phases = new Set(c.precipitates.map((p) => p.phase.toUpperCase()));
  for (const name of Object.keys(c.strength?.transition_radii ?? {}))
    if (!phases.has(name.toUpperCase()))
      issue(['strength', 'transition_radii', name], `${name} is not one of the precipitates`);
  const end = agingEndTime(c);
  (c.output_times ?? []).forEach((t, i) => {
    if (end > 0 && t > end) issue(['output_times', i], `must be at most the end of the treatment (${end} s)`);
  });
  const els = new Set(c.components.map((e) => e.toUpperCase()));
  for (const e of Object.keys(c.diffusivities ?? {}))
    if (!els.has(e.toUpperCase())) issue(['diffusivities', e], `${e} is not one of the components`);
}
