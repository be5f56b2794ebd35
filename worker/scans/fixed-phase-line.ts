// A line over composition with one phase held at an amount and the temperature free (line_calculation
// condition.fixed_phases, an extension): at each composition of the line the temperature at which the phase's amount
// crosses the given one (worker/scans/fixed-phase.ts), e.g. LIQUID at 1 along X(ZN) gives the liquidus curve. Each
// point's search starts at the temperature found at the point before (the curve is continuous where the phase set
// along it does not change), the first at temperature_start.
import { equilibrium, type EquilibriumResult } from '../core/equilibrium.js';
import { CancelledError, type JobControl } from '../protocol.js';
import { fixedPhaseEntry, fixedPhaseTemperature } from './fixed-phase.js';
import { scanSetup, type LineScan, type ScanJob } from './line-scan.js';
import { stateAt } from './scan-path.js';

export interface FixedPhaseLine {
  phase: string;
  amount: number;
  start_temperature: number;
  /** K, for each point of the line: the middle of the final bracket (at most 0.01 K wide) */
  temperatures: number[];
  /** path parameters of the compositions at which no such temperature was found, with the reason */
  not_found: { s: number; reason: string }[];
}

/**
 * The fixed-phase line: its points (the equilibria at the end of each bracket on the phase's side, as a fixed-phase
 * point is computed) and the temperatures found. No transitions are located along it (the temperature is not a
 * parameter of the path).
 */
export function fixedPhaseLine(
  job: ScanJob & { config: { condition: { fixed_phases?: Record<string, number> } } },
  control: JobControl,
  derivatives?: string[],
): (LineScan & { fixed: FixedPhaseLine }) | undefined {
  if (Object.keys(job.config.condition.fixed_phases ?? {}).length === 0) return undefined;
  const { sys, path, n, dependent } = scanSetup(job);
  const entry = fixedPhaseEntry(sys, job.config.condition.fixed_phases);
  if (!entry) return undefined;
  const { key, phase, amount } = entry;
  const cancelled = () => control.cancelled;
  const fixed: FixedPhaseLine = { phase, amount, start_temperature: path.T0, temperatures: [], not_found: [] };
  const s: number[] = [];
  const results: EquilibriumResult[] = [];
  let from = path.T0;
  for (let i = 0; i < n; i++) {
    if (cancelled()) throw new CancelledError();
    const si = n === 1 ? 0 : i / (n - 1);
    const X = stateAt(path, si).X;
    const found = fixedPhaseTemperature(sys, X, path.P, { phase, amount, from }, cancelled);
    if (found instanceof Error) {
      fixed.not_found.push({ s: si, reason: found.message });
      continue;
    }
    const r = equilibrium({
      database: sys.db,
      components: sys.components,
      phases: sys.phases,
      conditions: { T: found.stateT, P: path.P, X },
      options: derivatives ? { derivatives } : undefined,
    });
    s.push(si);
    results.push(r);
    fixed.temperatures.push(found.T);
    from = found.T;
    control.setProgress((i + 1) / n);
  }
  if (results.length === 0)
    throw new Error(`condition.fixed_phases.${key}: at no composition of the line: ${fixed.not_found[0]!.reason}`);
  return { sys, path, dependent, s, results, transitions: [], edges: [], fixed };
}
