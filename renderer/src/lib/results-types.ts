// Task types that have a result view (renderer/src/components/results). Its own tiny module so the task
// detail screen can ask without pulling the result views' code into the main bundle.
export const RESULT_TYPES = ['point_calculation', 'line_calculation', 'thermodynamic_properties_next',
  'scheil_solidification', 'binary_equilibrium', 'binary_cpt_diagram', 'gibbs_energy_curves'] as const;
