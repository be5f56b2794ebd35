// potential_diagram (an extension of the specification): the stable phases of a system with one or two elements held
// at a chemical potential or an activity, mapped over two axes: the potential of one element against the temperature
// (log10 p(O2) against T for Cu-O or Fe-O, log10 a(C) against T for Fe-Cr-C) or against the potential of a second
// element at a fixed temperature (a predominance diagram). In a binary every two-phase equilibrium is a line of such a
// diagram, every three-phase equilibrium a point (Hillert, Phase Equilibria, Phase Diagrams and Phase Transformations,
// 2nd ed., Cambridge 2008, ch. 6). The free elements keep the mole fractions the condition gives
// (worker/calculations/potential_diagram.ts).
import { z } from 'zod';
import {
  common,
  components,
  composition,
  compositionRule,
  conditionElements,
  kelvin,
  phaseFields,
  pressure,
} from './common.js';
export type { PotentialDiagramDocument } from '../results/potential_diagram.js';

/** Grid nodes per axis when the configuration names none. */
export const POTENTIAL_DEFAULT_GRID_POINTS = 61;

const POTENTIALS = ['log10_activity', 'chemical_potential'] as const;

/**
 * An axis: the temperature (K), or the potential of one element, log10 of its activity against its reference state
 * (`reference_state`: a phase or SER; default the ELEMENT line's phase) or mu in J/mol.
 */
function axisSchema<Q extends readonly [string, ...string[]]>(quantities: Q) {
  return z.strictObject({
    quantity: z.enum(quantities, `must be one of: ${quantities.join(', ')}`),
    element: z.string().min(1, 'must name an element of condition.components').optional(),
    reference_state: z
      .string()
      .min(1, 'must name a phase or SER')
      .optional()
      .describe('the reference of a log10_activity axis: a phase (GAS for oxygen: log10 a(O) = log10 p(O2)/2) or SER'),
    start: z.number().describe('the lower end of the axis (K, log10 a or J/mol)'),
    end: z.number().describe('the upper end of the axis'),
  });
}
export const xAxisSchema = axisSchema(['temperature', ...POTENTIALS] as const);
export const yAxisSchema = axisSchema(POTENTIALS);

const gridPoints = z.number().int('must be an integer').min(5, 'must be at least 5').max(301, 'must be at most 301');

export const potentialDiagramSchema = z.strictObject({
  task_type: z.literal('potential_diagram'),
  ...common,
  condition: z
    .strictObject({
      components,
      ...phaseFields,
      pressure,
      /** the x axis: the temperature, or the potential of a second held element (at condition.temperature) */
      x_axis: xAxisSchema,
      /** the y axis: the potential of a held element */
      y_axis: yAxisSchema,
      /** K: the temperature of a diagram with two potential axes */
      temperature: kelvin.optional(),
      /** mole fractions of the elements no axis holds, as a point calculation's (all but one may be given) */
      compositions: composition.optional(),
      grid_points: gridPoints.optional().describe('nodes per axis (default 61)'),
    })
    .superRefine(axesRule)
    .superRefine((c, ctx) => {
      const held = heldAxisElements(c).map((e) => e.toUpperCase());
      const free = conditionElements(c.components).filter((e) => !held.includes(e));
      if (free.length === 0)
        ctx.addIssue({
          code: 'custom',
          path: ['components'],
          message: 'must hold at least one element that no axis holds (the amount of matter)',
        });
      else {
        // a held element's fraction is reported by axesRule; the rest must fit the free elements
        const given = Object.entries(c.compositions ?? {}).filter(([k]) => !held.includes(k.toUpperCase()));
        compositionRule(['compositions'])({ components: free, compositions: Object.fromEntries(given) }, ctx);
      }
    }),
});

type Axis = { quantity: string; start: number; end: number; element?: string; reference_state?: string };
type AxisCondition = {
  components: string[];
  x_axis: Axis;
  y_axis: Axis;
  temperature?: number;
  compositions?: Record<string, number>;
};

/** The elements the axes hold at a potential (one or two, as written). */
export function heldAxisElements(c: Pick<AxisCondition, 'x_axis' | 'y_axis'>): string[] {
  return [c.x_axis, c.y_axis].filter((a) => a.quantity !== 'temperature' && a.element).map((a) => a.element!);
}

/** What is wrong with one axis, if anything: [field below the axis, message]. */
function axisProblem(a: Axis, elements: string[]): [string, string] | undefined {
  if (a.end <= a.start) return ['end', 'must be greater than start'];
  if (a.quantity === 'temperature') {
    if (a.start <= 0) return ['start', 'must be greater than 0 K'];
    if (a.element !== undefined) return ['element', 'must be absent on a temperature axis'];
    if (a.reference_state !== undefined) return ['reference_state', 'must be absent on a temperature axis'];
    return undefined;
  }
  if (a.element === undefined)
    return ['element', `must name the element held at the potential (${elements.join(', ')})`];
  if (!elements.includes(a.element.toUpperCase()))
    return ['element', `must be one of condition.components (${elements.join(', ')})`];
  if (a.reference_state !== undefined && a.quantity !== 'log10_activity')
    return ['reference_state', 'must be absent on a chemical_potential axis (mu is against SER)'];
  return undefined;
}

/** Each axis increasing, each held element a component named once and without a mole fraction, T where needed. */
function axesRule(c: AxisCondition, ctx: z.RefinementCtx): void {
  const elements = conditionElements(c.components);
  for (const key of ['x_axis', 'y_axis'] as const) {
    const a = c[key];
    const problem = axisProblem(a, elements);
    if (problem) ctx.addIssue({ code: 'custom', path: [key, problem[0]], message: problem[1] });
    const inComp = Object.keys(c.compositions ?? {}).some((k) => k.toUpperCase() === a.element?.toUpperCase());
    if (a.quantity !== 'temperature' && inComp)
      ctx.addIssue({
        code: 'custom',
        path: ['compositions', a.element!],
        message: `${a.element!.toUpperCase()} is held by ${key}: give it no mole fraction`,
      });
  }
  const [x, y] = [c.x_axis.element?.toUpperCase(), c.y_axis.element?.toUpperCase()];
  if (c.x_axis.quantity !== 'temperature' && x !== undefined && x === y)
    ctx.addIssue({ code: 'custom', path: ['x_axis', 'element'], message: 'must differ from y_axis.element' });
  const twoPotentials = c.x_axis.quantity !== 'temperature';
  if (twoPotentials && c.temperature === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['temperature'],
      message: 'is required when x_axis is a potential (the diagram is isothermal)',
    });
  if (!twoPotentials && c.temperature !== undefined)
    ctx.addIssue({ code: 'custom', path: ['temperature'], message: 'must be absent when x_axis is the temperature' });
}
