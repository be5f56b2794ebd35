// solidification (announced by the specification, opened here): Scheil-Gulliver with back diffusion in the solid,
// from the cooling rate and the secondary dendrite arm spacing (given, or derived from the cooling rate), fast
// diffusers (C, N, ...) kept in equilibrium with the solid; beside the classic Scheil and the lever-rule paths
// (Clyne and Kurz, Metall. Trans. A 12 (1981) 965; worker/calculations/solidification.ts).
import { z } from 'zod';
import {
  arrheniusDiffusivity,
  common,
  components,
  composition,
  compositionRule,
  furtherFields,
  kelvin,
  phaseFields,
  pressure,
} from './common.js';
export type { SolidificationDocument } from '../results/solidification.js';

/** lambda_2 = A (cooling rate)^(-1/3) when not given: A in m (K/s)^(1/3), the value of aluminium alloys (Flemings). */
export const ARM_SPACING_COEFFICIENT = 50e-6;
/** Elements kept in equilibrium with the solid when the configuration names none (interstitial diffusers). */
export const DEFAULT_FAST_DIFFUSERS = ['C', 'N', 'H', 'B', 'O'];

const positive = z.number().gt(0, 'must be greater than 0');

/**
 * Aziz's diffusive speed V_D = D_i / lambda when not given, m/s: a diffusivity across the interface of a liquid's,
 * 1e-9 m^2/s, over an interatomic distance of 0.5 nm (Aziz, J. Appl. Phys. 53 (1982) 1158); values fitted to metals lie
 * between about 1 and 20 m/s.
 */
export const DEFAULT_DIFFUSIVE_SPEED = 2;

/** Solute trapping at the solidification front (worker/scans/scheil/solute-trapping.ts). */
const soluteTrapping = z
  .strictObject({
    interface_velocity: z
      .number()
      .min(0, 'must be at least 0 m/s')
      .max(1e3, 'must be at most 1000 m/s')
      .describe('m/s: the speed of the solidification front (laser or electron-beam melting 0.01-1)')
      .optional(),
    thermal_gradient: positive
      .max(1e9, 'must be at most 1e9 K/m')
      .describe('K/m: with the cooling rate gives the front velocity V = cooling_rate / G (laser melting 1e5-1e7)')
      .optional(),
    diffusive_speed: positive
      .max(1e3, 'must be at most 1000 m/s')
      .describe("m/s: Aziz's V_D = D_i / lambda; default 2 (1e-9 m^2/s over 0.5 nm); metals 1-20")
      .optional(),
  })
  .superRefine((t, ctx) => {
    if ((t.interface_velocity === undefined) === (t.thermal_gradient === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['interface_velocity'],
        message: 'give either interface_velocity or thermal_gradient (V = cooling_rate / thermal_gradient)',
      });
  });

export const solidificationSchema = z.strictObject({
  task_type: z.literal('solidification'),
  ...common,
  condition: z
    .strictObject({
      components,
      compositions: composition,
      pressure,
      /** above the liquidus, K */
      start_temperature: kelvin,
      temperature_step: positive
        .max(50, 'must be at most 50 K')
        .describe('K between the steps of the path (1 K is usual)'),
      /** K/s (a sand casting: 1; a die casting: 100) */
      cooling_rate: positive
        .max(1e6, 'must be at most 1e6 K/s')
        .describe('K/s: a sand casting about 1, a permanent mould 10, a die casting about 100'),
      /** secondary dendrite arm spacing, m (default 50e-6 (K/s)^(1/3) / cooling_rate^(1/3)) */
      secondary_arm_spacing: positive
        .max(0.01, 'must be at most 0.01 m')
        .describe(
          'm: the secondary dendrite arm spacing (aluminium castings 20-100 µm); default 50 µm·(K/s)^(1/3) / cooling_rate^(1/3) (Flemings)',
        )
        .optional(),
      /** elements in equilibrium with the solid (default: C, N, H, B, O among the components) */
      fast_diffusers: z
        .array(z.string().min(1, 'must not be empty'))
        .describe('elements in equilibrium with the solid; default C, N, H, B, O among the components')
        .optional(),
      /** diffusivity of an element in the primary solid as D0 exp(-Q/RT); default: the database's mobility data */
      solid_diffusivities: z.record(z.string(), arrheniusDiffusivity).optional(),
      /** extension: Aziz's solute trapping in the path with back diffusion */
      solute_trapping: soluteTrapping.optional(),
      /** default: the first solid of the path */
      primary_phase: z.string().min(1, 'must name a phase').optional(),
      ...phaseFields,
      composition_unit: furtherFields.composition_unit,
    })
    .superRefine(compositionRule(['compositions']))
    .superRefine((c, ctx) => {
      const els = new Set(c.components.map((e) => e.toUpperCase()));
      for (const [i, e] of (c.fast_diffusers ?? []).entries())
        if (!els.has(e.toUpperCase()))
          ctx.addIssue({ code: 'custom', path: ['fast_diffusers', i], message: `${e} is not one of the components` });
      for (const e of Object.keys(c.solid_diffusivities ?? {}))
        if (!els.has(e.toUpperCase()))
          ctx.addIssue({
            code: 'custom',
            path: ['solid_diffusivities', e],
            message: `${e} is not one of the components`,
          });
    }),
});
