// The output names of a task: its template and custom names in order, or its type's default columns.
import { outputName, parseOutputName } from './names.js';

export type OutputTaskType =
  'point_calculation' | 'line_calculation' | 'thermodynamic_properties_next' | 'equilibrium_batch';

/** Columns when a task names neither thermo_outputs nor outputs_list_template. */
export const DEFAULT_OUTPUTS: Record<OutputTaskType, readonly string[]> = {
  point_calculation: [
    'T',
    'P',
    'phase_name',
    'converged',
    'NP(*)',
    'x(*)',
    'w(*)',
    'x(*,*)',
    'w(*,*)',
    'G',
    'H',
    'S',
    'Cp',
    'mu(*)',
    'ac(*)',
    'acr(*)',
    'GM_formation',
    'T_liquidus',
    'T_solidus',
  ],
  line_calculation: ['T', 'P', 'phase_name', 'converged', 'NP(*)', 'x(*)', 'w(*)', 'G', 'H', 'S', 'mu(*)'],
  thermodynamic_properties_next: ['T', 'phase_name', 'converged', 'G', 'H', 'S', 'Cp', 'Cp_frozen', 'mu(*)'],
  // the alloy designer's table: phases, amounts and phase compositions (T_liquidus, T_solidus when named)
  equilibrium_batch: ['T', 'P', 'phase_name', 'converged', 'NP(*)', 'x(*)', 'x(*,*)', 'G', 'H', 'S', 'Cp'],
};

/**
 * The ordered output names of a task: outputs_list_template in order, then the thermo_outputs
 * entries not already in it ("custom outputs are appended at its end"); duplicates (compared in
 * canonical spelling) are dropped. Neither given (or both empty): the task type's default.
 */
export function selectOutputs(
  taskType: OutputTaskType,
  template?: readonly string[],
  custom?: readonly string[],
): string[] {
  const all = [...(template ?? []), ...(custom ?? [])];
  if (all.length === 0) return [...DEFAULT_OUTPUTS[taskType]];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const n of all) {
    const r = parseOutputName(n);
    const key = typeof r === 'string' ? n : outputName(r);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(n);
  }
  return out;
}

/**
 * The outputs every table carries so that a script can plot any column against the state it was computed at:
 * temperature, pressure and the overall composition (mole fractions, and mass fractions when the task gave its
 * compositions in them).
 */
export function stateOutputs(compositionUnit?: string): string[] {
  return ['T', 'P', 'x(*)', ...(compositionUnit === 'mass_fraction' ? ['w(*)'] : [])];
}

/**
 * The output names behind the state outputs (stateOutputs), so that the first columns of every table are T, P and
 * the composition whatever the task asked for; the names the task gave keep their order after them (a state output
 * among them is not repeated).
 */
export function withStateOutputs(names: readonly string[], compositionUnit?: string): string[] {
  const canonical = (n: string) => {
    const r = parseOutputName(n);
    return typeof r === 'string' ? n : outputName(r);
  };
  const state = stateOutputs(compositionUnit);
  const leading = new Set(state.map(canonical));
  return [...state, ...names.filter((n) => !leading.has(canonical(n)))];
}
