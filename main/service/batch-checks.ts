// The checks of an equilibrium_batch configuration that need the service's work bounds or the database (the
// schema, contract/tasks/equilibrium_batch.ts, has checked every row's numbers and compositions): the number of
// rows (setting max_batch_rows), every row's temperature (setting max_temperature) and the phases the outputs name.
// Counting and reading the rows walks the configuration once; nothing is computed.
import { batchRowCount, batchRows, type BatchSourceCondition } from '../../contract/tasks/batch-rows.js';
import { parseOutputName } from '../../contract/results/outputs/names.js';
import { nearestName } from '../../contract/phase-selection.js';
import type { WorkBounds } from '../config.js';

const at = (field: string) => `task_config.condition.${field}`;

/** The first refusal as "<field>: <message>", or null. */
export function batchRefusal(
  c: Record<string, unknown>,
  db: { code: string; phases: string[] },
  bounds: WorkBounds,
): string | null {
  const cond = c as unknown as BatchSourceCondition;
  const source = cond.rows ? 'rows' : cond.product ? 'product' : 'table.csv';
  // a table with a T column is read once for both its count and its temperatures
  const tableT = cond.table && !cond.table.temperatures ? tableTemperatures(cond, bounds.max_temperature) : undefined;
  const count = tableT?.count ?? batchRowCount(cond);
  if (count > bounds.max_batch_rows)
    return `${at(source)}: gives ${count} rows; must give at most ${bounds.max_batch_rows} rows (setting max_batch_rows)`;
  return tableT?.refusal ?? temperatureRefusal(cond, bounds.max_temperature) ?? outputPhaseRefusal(c, db);
}

/** The rows of a table with a T column, and the first row whose temperature is above the bound. */
function tableTemperatures(c: BatchSourceCondition, max: number): { count: number; refusal: string | null } {
  let count = 0;
  let refusal: string | null = null;
  for (const r of batchRows(c)) {
    count++;
    if (refusal === null && r.T > max)
      refusal = `${at('table.csv')}: row ${r.row}, column T: must be at most ${max} K (setting max_temperature)`;
  }
  return { count, refusal };
}

/** The first listed temperature above the bound, named by its field. */
function temperatureRefusal(c: BatchSourceCondition, max: number): string | null {
  const bound = `must be at most ${max} K (setting max_temperature)`;
  const listed: [string, number[] | undefined][] = [
    ['product.temperatures', c.product?.temperatures],
    ['table.temperatures', c.table?.temperatures],
  ];
  for (const [field, Ts] of listed) {
    const i = Ts?.findIndex((T) => T > max) ?? -1;
    if (i >= 0) return `${at(`${field}.${i}`)}: ${bound}`;
  }
  const i = c.rows?.findIndex((r) => r.temperature > max) ?? -1;
  return i >= 0 ? `${at(`rows.${i}.temperature`)}: ${bound}` : null;
}

/** An output naming a phase the database does not define, with the nearest name it does. */
function outputPhaseRefusal(c: Record<string, unknown>, db: { code: string; phases: string[] }): string | null {
  const known = new Set(db.phases.map((p) => p.toUpperCase()));
  for (const field of ['outputs_list_template', 'thermo_outputs']) {
    const names = c[field];
    if (!Array.isArray(names)) continue;
    for (const n of names as string[]) {
      const o = parseOutputName(n);
      if (typeof o === 'string') continue;
      // the phase arguments (T0 has two)
      for (const arg of [o.phase, o.phase2]) {
        if (arg === undefined || arg === '*') continue;
        const phase = arg.split('#')[0]!;
        if (known.has(phase)) continue;
        const nearest = nearestName(phase, db.phases);
        return `${at(field)}: output '${n}': ${phase} is not a phase of database '${db.code}'${nearest ? ` (nearest: ${nearest})` : ''}`;
      }
    }
  }
  return null;
}
