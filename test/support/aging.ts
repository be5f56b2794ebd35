// The aging task the tests share: the Al-0.4Zr (at.) case of contract/tasks/aging-examples.ts, Al3Zr precipitating on
// dislocations in fcc aluminium (kawin_AlScZr.tdb), after a ramp from `from` K to `hold` K (default the example's
// 723.15 K), held to `end` s.
import { agingExample } from '../../contract/tasks/aging-examples.js';

export function alZrAgingCondition(o: {
  from: number;
  ramp: number;
  end: number;
  hold?: number;
  output_times: number[];
  points?: number;
  pressure?: number;
}) {
  const { temperature, end_time: _end, ...base } = agingExample('alzr').config.condition;
  const hold = o.hold ?? temperature!;
  return {
    ...base,
    pressure: o.pressure ?? 101325,
    schedule: [
      { time: 0, temperature: o.from },
      { time: o.ramp, temperature: hold },
      { time: o.end, temperature: hold },
    ],
    output_times: o.output_times,
    ...(o.points !== undefined ? { points: o.points } : {}),
  };
}

/** A strength block with every field (ferrite: G 81.6 GPa, b 0.248 nm, M 2.75) for the seeds of the contract tests. */
export const FERRITE_STRENGTH = {
  shear_modulus: 81.6e9,
  burgers_vector: 2.48e-10,
  transition_radius: 3e-9,
  transition_radii: { FCC_A1: 2e-9 },
  taylor_factor: 2.75,
  line_tension_factor: 0.5,
  combination: 'linear',
};
