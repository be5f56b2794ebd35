// The aging task the tests share: Al-0.4Zr (at.), Al3Zr precipitating on dislocations in fcc aluminium
// (kawin_AlScZr.tdb) after a ramp from `from` K to `hold` K, held to `end` s.
export function alZrAgingCondition(o: {
  from: number;
  ramp: number;
  end: number;
  hold?: number;
  output_times: number[];
  points?: number;
  pressure?: number;
}) {
  const hold = o.hold ?? 723.15;
  return {
    components: ['AL', 'ZR'],
    compositions: { ZR: 0.004 },
    pressure: o.pressure ?? 101325,
    matrix_phase: 'FCC_A1',
    matrix_lattice_parameter: 4.05e-10,
    schedule: [
      { time: 0, temperature: o.from },
      { time: o.ramp, temperature: hold },
      { time: o.end, temperature: hold },
    ],
    precipitates: [{ phase: 'AL3ZR', interfacial_energy: 0.1, nucleation_site: 'dislocations' }],
    dislocation_density: 1e15,
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
