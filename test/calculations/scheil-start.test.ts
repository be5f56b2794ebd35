// A Scheil path started below the liquidus (worker/calculations/scheil_solidification.ts): the result says so
// (started_below_liquidus, the liquidus located above the start, a warning in result.json and in the logs) and
// suggests the liquidus rounded up as the start temperature; started there, the path is a whole Scheil path.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { scheilSummary } from '../../worker/calculations/scheil_solidification.js';
import { scheilSolidification } from '../../worker/scans/scheil/run.js';

const alzn = openDatabase(path.resolve(__dirname, '../../databases/alzn_mey1993.tdb'));
const run = (T0: number) =>
  scheilSolidification({
    database: alzn,
    components: ['AL', 'ZN'],
    composition: { ZN: 0.1 },
    startTemperature: T0,
    temperatureStep: 5,
    leverRule: false,
  });

describe('Scheil start temperature', () => {
  const full = run(1000);
  const L = full.liquidus_temperature!;

  it('a start above the liquidus gives no warning', () => {
    expect(full.started_below_liquidus).toBe(false);
    expect(full.warnings).toEqual([]);
    expect(full.suggested_start_temperature).toBeNull();
    expect(full.start_temperature).toBe(1000);
    expect(L).toBeGreaterThan(880);
  });

  it('a start between solidus and liquidus says so, with the liquidus and a start temperature to use', () => {
    const r = run(Math.round(L - 15));
    expect(r.started_below_liquidus).toBe(true);
    expect(Math.abs(r.liquidus_temperature! - L)).toBeLessThan(0.02);
    expect(r.suggested_start_temperature).toBe(Math.ceil(L + 0.01));
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^start_temperature \d+ K is below the liquidus of this alloy \(\d+\.\d\d K\)/);
    expect(r.logs.some((l) => l.startsWith('warning: start_temperature'))).toBe(true);
    expect(scheilSummary(r)).toContain(`below the liquidus: start at ${r.suggested_start_temperature} K`);
    // the suggested start gives the whole path from the liquidus
    const again = run(r.suggested_start_temperature!);
    expect(again.started_below_liquidus).toBe(false);
    expect(again.steps[0]!.fraction_solid).toBe(0);
  });

  it('a start where the alloy is solid: no path, but the liquidus and the suggestion', () => {
    const r = run(600);
    expect(r.end_reason).toBe('no_liquid');
    expect(r.started_below_liquidus).toBe(true);
    expect(Math.abs(r.liquidus_temperature! - L)).toBeLessThan(0.02);
    expect(r.suggested_start_temperature).toBe(Math.ceil(L + 0.01));
  });
});
