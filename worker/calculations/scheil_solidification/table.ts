// The result table of a Scheil task (one row per step, with the alloy's temperatures and the liquid's mass
// fractions beside its mole fractions) and the alloy's first-class quantities of result.json.

import { type ResultTable } from '../../../contract/results/common.js';
import type { ScheilDocument } from '../../../contract/results/scheil_solidification.js';
import { massFractionsOrUndefined } from '../../system/units.js';
import type { ScheilRun } from '../../scans/scheil/run.js';

/** The result table: one row per Scheil step. */
export function scheilTable(run: ScheilRun): ResultTable {
  return {
    columns: [
      { name: 'T', unit: 'K' },
      { name: 'fraction_solid', unit: '-' },
      { name: 'fraction_liquid', unit: '-' },
      { name: 'solid_increment', unit: '-' },
      { name: 'phases_forming', unit: '' },
      ...run.elements.map((e) => ({ name: `x(${run.liquid_phase},${e})`, unit: '-' })),
    ],
    rows: run.steps.map((s) => [
      s.T,
      s.fraction_solid,
      s.fraction_liquid,
      s.solid_increment,
      s.phases_forming.join('+'),
      ...run.elements.map((e) => s.liquid_x[e] ?? null),
    ]),
  };
}

/**
 * The table with the alloy's liquidus, Scheil end and equilibrium (lever-rule) solidus on every row (empty where
 * not found), so result.csv carries them as result.json's alloy_temperatures does.
 */
export function withAlloyTemperatures(table: ResultTable, res: ScheilRun): ResultTable {
  const values = [res.liquidus_temperature, res.solidus_temperature, res.lever_rule_solidus_temperature];
  return {
    columns: [
      ...table.columns,
      { name: 'T_liquidus', unit: 'K' },
      { name: 'T_scheil_end', unit: 'K' },
      { name: 'T_equilibrium_solidus', unit: 'K' },
    ],
    rows: table.rows.map((row) => [...row, ...values]),
  };
}

/** The table with the liquid's mass fractions beside its mole fractions (when every element has a molar mass). */
export function withLiquidMassFractions(
  table: ResultTable,
  res: ScheilRun,
  masses: Record<string, number>,
): ResultTable {
  const ws = res.steps.map((st) => massFractionsOrUndefined(st.liquid_x, masses));
  if (ws.some((w) => !w)) return table;
  return {
    columns: [...table.columns, ...res.elements.map((e) => ({ name: `w(${res.liquid_phase},${e})`, unit: '-' }))],
    rows: table.rows.map((row, i) => [...row, ...res.elements.map((e) => ws[i]![e] ?? null)]),
  };
}

/** The alloy's characteristic temperatures side by side, and its composition in mass fractions. */
export function scheilFirstClass(
  res: ScheilRun,
  masses: Record<string, number>,
): Pick<ScheilDocument, 'alloy_temperatures' | 'composition_w'> {
  const w = massFractionsOrUndefined(res.composition, masses);
  return {
    alloy_temperatures: {
      liquidus: res.liquidus_temperature,
      scheil_end: res.solidus_temperature,
      equilibrium_solidus: res.lever_rule_solidus_temperature,
    },
    ...(w ? { composition_w: w } : {}),
  };
}
