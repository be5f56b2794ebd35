// The composition line of a Gibbs energy task at fixed T and P: its path, axis and points, and the energies of
// formation referred to the elements' reference states.
import type { EquilibriumConditions } from '../../core/equilibrium.js';
import { axisOf, axisValue } from '../../scans/line-scan.js';
import { stateAt, type ScanPath } from '../../scans/scan-path.js';
import { resolveCompositions } from '../../system/system.js';
import type { TaskJob } from '../../protocol.js';

export interface CurveLine {
  T: number;
  P: number;
  elements: string[];
  path: ScanPath;
  axis: ReturnType<typeof axisOf>;
  /** the path parameter of each point, 0..1 */
  s: number[];
  states: { s: number; T: number; x: Record<string, number>; X: Record<string, number> }[];
  conditions: EquilibriumConditions[];
  axisValues: number[];
}

type GibbsCondition = TaskJob<'gibbs_energy_curves'>['config']['condition'];

/** The line of `n` points from the start to the end composition of `cond`, in mole fractions. */
export function curveLine(elements: string[], cond: GibbsCondition, n: number): CurveLine {
  const T = cond.temperature,
    P = cond.pressure;
  const comp = resolveCompositions(elements, [
    { field: 'condition.compositions_start', value: cond.compositions_start },
    { field: 'condition.compositions_end', value: cond.compositions_end },
  ]);
  const path: ScanPath = {
    T0: T,
    T1: T,
    P,
    X0: comp.X[0]!,
    X1: comp.X[1]!,
    full0: comp.full[0]!,
    full1: comp.full[1]!,
  };
  const axis = axisOf(path, elements, comp.dependent);
  const s = Array.from({ length: n }, (_, i) => i / (n - 1));
  const states = s.map((v) => ({ s: v, ...stateAt(path, v) }));
  const conditions: EquilibriumConditions[] = states.map((st) => ({ T, P, X: st.X }));
  const axisValues = states.map((st) => axisValue(axis, st));
  return { T, P, elements, path, axis, s, states, conditions, axisValues };
}

/** GM of composition x less the elements' reference energies `gref` in proportion: the energy of formation. */
export function formationEnergy(
  elements: string[],
  gref: Record<string, number>,
  x: Record<string, number>,
  gm: number,
): number {
  return gm - elements.reduce((a, el) => a + (x[el] ?? 0) * gref[el]!, 0);
}

/** Path parameter at which the line passes through composition x (within 1e-6), or null. */
export function positionOnLine(path: ScanPath, x: Record<string, number>, elements: string[]): number | null {
  let s: number | null = null;
  for (const e of elements) {
    const d = path.full1[e]! - path.full0[e]!;
    if (Math.abs(d) > 1e-12) {
      s = ((x[e] ?? 0) - path.full0[e]!) / d;
      break;
    }
  }
  if (s === null || s < -1e-9 || s > 1 + 1e-9) return null;
  const st = stateAt(path, s);
  return elements.every((e) => Math.abs((st.x[e] ?? 0) - (x[e] ?? 0)) < 1e-6) ? Math.min(1, Math.max(0, s)) : null;
}

/** The axis value of the line's point at path parameter s. */
export function axisValueAt(line: CurveLine, s: number): number {
  return axisValue(line.axis, { s, ...stateAt(line.path, s) });
}
