// Preview temperatures in degrees Celsius (task_config.preview_temperature_unit, docs/calculations.md "Preview
// temperatures"): the data stay in kelvin, the primary axis is labelled in °C at round Celsius values with kelvin on
// the secondary axis; kelvin stays the default. The tick labels are read back from the SVG and interpolated to where
// a known temperature is drawn.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binaryPhaseDiagram, phaseFractionChart, scheilChart } from '../../worker/plots/charts.js';
import { isobaricSections } from '../../worker/plots/sections.js';
import { run as runLine } from '../../worker/calculations/line_calculation.js';
import { JobControl } from '../../worker/protocol.js';
import { exampleBinary, examplePhaseFraction, exampleScheil } from './fixtures.js';
import { allText, findAll, parseXml, type XmlElement } from './xml.js';
import { parsedConfig, parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-tunit-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const num = (t: XmlElement) => (/^-?\d+(\.\d+)?$/.test(t.text) ? Number(t.text) : null);
/** The numeric tick labels of the vertical axis whose labels sit at x = X (left: anchor end, right: anchor start). */
function yTicks(root: XmlElement, X: number): { v: number; Y: number }[] {
  return findAll(root, 'text')
    .filter((t) => Math.abs(Number(t.attrs.x) - X) < 1e-6 && num(t) !== null)
    .map((t) => ({ v: num(t)!, Y: Number(t.attrs.y) }));
}
function xTicks(root: XmlElement, Y: number): { v: number; X: number }[] {
  return findAll(root, 'text')
    .filter((t) => Math.abs(Number(t.attrs.y) - Y) < 1e-6 && num(t) !== null)
    .map((t) => ({ v: num(t)!, X: Number(t.attrs.x) }));
}
/** The axis value at screen coordinate c, from the first and last tick label (the axis is linear). */
function valueAt(ticks: { v: number; c: number }[], c: number): number {
  const a = ticks[0]!,
    b = ticks[ticks.length - 1]!;
  return a.v + ((c - a.c) * (b.v - a.v)) / (b.c - a.c);
}
const area = (root: XmlElement) => {
  const r = findAll(root, 'clipPath')[0]!.children[0]!.attrs;
  return { x: Number(r.x), y: Number(r.y), width: Number(r.width), height: Number(r.height) };
};

describe('preview temperatures in degrees Celsius', () => {
  it('Scheil chart: the liquidus line sits at TL - 273.15 on the °C axis and at TL on the kelvin axis beside it', () => {
    const input = exampleScheil();
    const TL = input.liquidusT!;
    for (const unit of ['kelvin', 'celsius'] as const) {
      const root = parseXml(scheilChart({ ...input, temperatureUnit: unit }));
      const a = area(root);
      const liq = findAll(root, 'line').find(
        (l) =>
          l.attrs['stroke-dasharray'] &&
          l.attrs.y1 === l.attrs.y2 &&
          Number(l.attrs.x2) - Number(l.attrs.x1) > a.width / 2,
      )!;
      const Y = Number(liq.attrs.y1);
      const left = yTicks(root, a.x - 12).map((t) => ({ v: t.v, c: t.Y }));
      const right = yTicks(root, a.x + a.width + 12).map((t) => ({ v: t.v, c: t.Y }));
      const texts = allText(root);
      if (unit === 'celsius') {
        expect(valueAt(left, Y)).toBeCloseTo(TL - 273.15, 2);
        expect(valueAt(right, Y)).toBeCloseTo(TL, 2);
        // round Celsius ticks on the primary axis
        for (const t of left) expect(Number.isInteger(t.v)).toBe(true);
        expect(texts[texts.indexOf('Temperature (°C)')]).toBeDefined();
        expect(texts.some((t) => /^Liquidus .* °C$/.test(t))).toBe(true);
      } else {
        expect(valueAt(left, Y)).toBeCloseTo(TL, 2);
        expect(valueAt(right, Y)).toBeCloseTo(TL - 273.15, 2);
        expect(texts.some((t) => /^Liquidus .* K$/.test(t))).toBe(true);
      }
    }
  });

  it('binary diagram, phase fractions and isobaric sections follow the unit; kelvin is the default', () => {
    const bin = parseXml(binaryPhaseDiagram({ ...exampleBinary(), temperatureUnit: 'celsius' }));
    const texts = allText(bin);
    expect(texts.some((t) => /eutectic.*°C$/.test(t))).toBe(true);
    expect(texts).toContain('Temperature (°C)');
    expect(texts).toContain('Temperature (K)');
    const pf = examplePhaseFraction();
    const root = parseXml(phaseFractionChart({ ...pf, temperatureUnit: 'celsius' }));
    const a = area(root);
    // bottom tick labels in °C: the data's first temperature at its x position
    const bottom = xTicks(root, a.y + a.height + 12).map((t) => ({ v: t.v, c: t.X }));
    const T0 = pf.x[0]!,
      T1 = pf.x[pf.x.length - 1]!;
    expect(valueAt(bottom, a.x)).toBeLessThanOrEqual(T0 - 273.15 + 1e-9);
    expect(valueAt(bottom, a.x + a.width)).toBeGreaterThanOrEqual(T1 - 273.15 - 1e-9);
    const sections = (unit?: 'celsius') =>
      allText(
        parseXml(
          isobaricSections({
            xLabel: 'Mole fraction B',
            xs: [0, 0.5, 1],
            Ts: [373.15, 473.15, 573.15],
            phaseSets: ['A'],
            sections: [{ P: 1e5, labels: new Array(9).fill(0) }],
            temperatureUnit: unit,
          }),
        ),
      );
    expect(sections('celsius')).toEqual(expect.arrayContaining(['Temperature (°C)', '100', '300']));
    expect(sections()).toEqual(expect.arrayContaining(['Temperature (K)', '400', '500']));
    expect(sections()).not.toContain('Temperature (°C)');
  });

  it('line_calculation: preview_temperature_unit celsius reaches the preview; an unknown unit is refused naming the field', () => {
    const cond = {
      components: ['AL', 'ZN'],
      temperature_start: 500,
      temperature_end: 900,
      points: 21,
      pressure: 101325,
      compositions_start: { ZN: 0.4 },
      compositions_end: { ZN: 0.4 },
    };
    const tdb = path.join(SHARED_TDB_DIR, 'alzn_mey.tdb');
    const j = parsedJob('line_calculation', {
      taskUuid: 'l',
      ompThreads: 1,
      taskDir: path.join(tmp, 'line'),
      control: new SharedArrayBuffer(16),
      config: { tdb_file: tdb, preview_temperature_unit: 'celsius', condition: cond },
    });
    runLine(j, new JobControl(j.control));
    const root = parseXml(readFileSync(path.join(tmp, 'line', 'preview', 'phase_fractions.svg'), 'utf8'));
    const texts = allText(root);
    const a = area(root);
    // bottom axis: 500..900 K is 226.85..626.85 °C; top axis in kelvin
    const bottom = xTicks(root, a.y + a.height + 12).map((t) => ({ v: t.v, c: t.X }));
    expect(valueAt(bottom, a.x)).toBeLessThanOrEqual(226.85 + 1e-6);
    expect(bottom.every((t) => Number.isInteger(t.v))).toBe(true);
    expect(texts).toContain('Temperature (°C)');
    expect(texts).toContain('Temperature (K)');
    // the result data stay in kelvin
    const doc = JSON.parse(readFileSync(path.join(tmp, 'line', 'result', 'result.json'), 'utf8'));
    expect(doc.points[0].T).toBe(500);
    expect(() =>
      parsedConfig('line_calculation', { tdb_file: tdb, preview_temperature_unit: 'fahrenheit', condition: cond }),
    ).toThrow(/preview_temperature_unit[\s\S]*must be one of: kelvin, celsius/);
  });
});
