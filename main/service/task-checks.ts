// Checks of a schema-valid task_config that need the database record or the service's settings: what the
// worker would refuse (components that are not elements of the database, phases it does not define:
// main/requests/database-checks.ts, which `phasedesk calc` runs too) and the work bounds (main/config.ts WORK_BOUND_SETTINGS). Every check is arithmetic on the configuration: nothing is
// built from it (no axis, no grid), so a configuration asking for 1e9 points costs as little as one asking for 10.
import { isMassless } from '../../contract/phases.js';
import { batchRefusal } from './batch-checks.js';
import {
  SPINODAL_DEFAULT_COMPOSITION_POINTS,
  SPINODAL_DEFAULT_TEMPERATURE_POINTS,
} from '../../contract/tasks/spinodal_decomposition.js';
import { POTENTIAL_DEFAULT_GRID_POINTS } from '../../contract/tasks/potential_diagram.js';
import type { WorkBounds } from '../config.js';
import { databaseRefusal, type DatabaseLists } from '../requests/database-checks.js';

export type { DatabaseLists };

type Condition = Record<string, unknown>;
const isElement = (c: string) => !isMassless(c);
const TEMPERATURE_FIELDS = ['temperature', 'temperature_start', 'temperature_end', 'start_temperature'] as const;
/** Lowest temperature of a Scheil path (worker/calculations/scheil_solidification.ts, minimumTemperature). */
export const SCHEIL_MINIMUM_TEMPERATURE = 1;

const at = (field: string) => `task_config.condition.${field}`;
const fmt = (n: number) =>
  Number.isInteger(n) && Math.abs(n) < 1e15 ? String(n) : n.toPrecision(6).replace(/\.?0+(e|$)/, '$1');

/** Nodes of an axis from start to end by step, counted as worker/calculations/binary_cpt_diagram.ts stepAxis builds it. */
export function stepAxisCount(start: number, end: number, step: number): number {
  const n = Math.floor((end - start) / step + 1e-9);
  const last = start + n * step;
  return n + 1 + (end - last > step * 1e-6 ? 1 : 0);
}

/** The first refusal as "<field>: <message>", or null when the configuration is within the database and the bounds. */
export function checkTaskConfig(
  taskType: string,
  config: Record<string, unknown>,
  db: DatabaseLists,
  bounds: WorkBounds,
): string | null {
  const c = config.condition as Condition | undefined;
  if (!c || typeof c !== 'object') return null; // test-only calculations carry no condition

  for (const f of TEMPERATURE_FIELDS) {
    const T = c[f];
    if (typeof T === 'number' && T > bounds.max_temperature)
      return `${at(f)}: must be at most ${bounds.max_temperature} K (setting max_temperature)`;
  }

  if (Array.isArray(c.components)) {
    const elements = [...new Set((c.components as string[]).map((e) => String(e).toUpperCase()).filter(isElement))];
    if (elements.length > bounds.max_components) {
      return `${at('components')}: must hold at most ${bounds.max_components} elements (setting max_components)`;
    }
  }
  const refusal = databaseRefusal(c, db);
  if (refusal) return refusal;

  if (
    (taskType === 'line_calculation' ||
      taskType === 'thermodynamic_properties_next' ||
      taskType === 'gibbs_energy_curves') &&
    typeof c.points === 'number' &&
    c.points > bounds.max_scan_points
  ) {
    return `${at('points')}: must be at most ${bounds.max_scan_points} (setting max_scan_points)`;
  }

  if (
    taskType === 'scheil_solidification' &&
    typeof c.start_temperature === 'number' &&
    typeof c.temperature_step === 'number'
  ) {
    const steps = Math.ceil((c.start_temperature - SCHEIL_MINIMUM_TEMPERATURE) / c.temperature_step);
    if (steps > bounds.max_scheil_steps) {
      return (
        `${at('temperature_step')}: gives ${fmt(steps)} steps from start_temperature down to ${SCHEIL_MINIMUM_TEMPERATURE} K; ` +
        `must give at most ${bounds.max_scheil_steps} steps (setting max_scheil_steps)`
      );
    }
  }

  if (taskType === 'spinodal_decomposition') {
    const nodes =
      (typeof c.temperature_points === 'number' ? c.temperature_points : SPINODAL_DEFAULT_TEMPERATURE_POINTS) *
      (typeof c.composition_points === 'number' ? c.composition_points : SPINODAL_DEFAULT_COMPOSITION_POINTS);
    if (nodes > bounds.max_grid_nodes)
      return `${at('composition_points')}: temperature_points x composition_points is ${fmt(nodes)}; must be at most ${bounds.max_grid_nodes} (setting max_grid_nodes)`;
  }

  if (taskType === 'potential_diagram') {
    const refusal = potentialRefusal(c, bounds);
    if (refusal) return refusal;
  }

  if (taskType === 'binary_cpt_diagram') {
    const n = (k: string) => c[k] as number;
    if (n('pressure_points') > bounds.max_grid_nodes) {
      return `${at('pressure_points')}: must be at most ${bounds.max_grid_nodes} (setting max_grid_nodes)`;
    }
    const axes: [string, number][] = [
      ['composition_step', stepAxisCount(n('composition_start'), n('composition_end'), n('composition_step'))],
      ['temperature_step', stepAxisCount(n('temperature_start'), n('temperature_end'), n('temperature_step'))],
      ['pressure_points', n('pressure_points')],
    ];
    const total = axes.reduce((a, [, k]) => a * k, 1);
    if (!(total <= bounds.max_grid_nodes)) {
      const widest = axes.reduce((a, b) => (b[1] > a[1] ? b : a));
      return (
        `${at(widest[0])}: the grid of ${axes.map(([, k]) => fmt(k)).join(' x ')} = ${fmt(total)} composition x temperature x pressure nodes ` +
        `must have at most ${bounds.max_grid_nodes} nodes (setting max_grid_nodes)`
      );
    }
  }

  if (
    taskType === 'isopleth' &&
    typeof c.resolution === 'number' &&
    c.resolution * c.resolution > bounds.max_grid_nodes
  ) {
    return `${at('resolution')}: a ${c.resolution} x ${c.resolution} grid must have at most ${bounds.max_grid_nodes} nodes (setting max_grid_nodes)`;
  }

  if (taskType === 'equilibrium_batch') {
    const batch = batchRefusal(c, db, bounds);
    if (batch) return batch;
  }

  const pdens = (c.map_options as Condition | undefined)?.GLOBAL_MIN_PDENS;
  if (typeof pdens === 'number' && pdens > bounds.max_sampling_density) {
    return `${at('map_options.GLOBAL_MIN_PDENS')}: must be at most ${bounds.max_sampling_density} (setting max_sampling_density)`;
  }
  return null;
}

/** A potential diagram's temperature axis within max_temperature, its grid within max_grid_nodes. */
function potentialRefusal(c: Condition, bounds: WorkBounds): string | null {
  const x = c.x_axis as { quantity?: string; end?: number } | undefined;
  if (x?.quantity === 'temperature' && typeof x.end === 'number' && x.end > bounds.max_temperature)
    return `${at('x_axis.end')}: must be at most ${bounds.max_temperature} K (setting max_temperature)`;
  const n = typeof c.grid_points === 'number' ? c.grid_points : POTENTIAL_DEFAULT_GRID_POINTS;
  if (n * n > bounds.max_grid_nodes)
    return `${at('grid_points')}: a ${n} x ${n} grid must have at most ${bounds.max_grid_nodes} nodes (setting max_grid_nodes)`;
  return null;
}
