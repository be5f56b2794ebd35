// isopleth (worker/mapping/isopleth/trace.ts, worker/calculations/isopleth.ts): sections of three realistic
// alloys, every traced line checked against independent point equilibria on both of its sides (the phase sets
// there differ by the line's phase), plus the composition path in mass fractions and the result files.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { phaseLabels } from '../../worker/mapping/isopleth/trace.js';
import { JobControl, CONTROL_BYTES } from '../../worker/protocol.js';
import { parsedJob } from '../support/jobs.js';
import { run } from '../../worker/calculations/isopleth.js';
import { compositionPath, moleFractionsAt, solverX } from '../../worker/mapping/isopleth/path.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { checkSides, runIsoplethTask } from '../support/isopleth-sides.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-isopleth-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let count = 0;

function runIsopleth(tdb: string, condition: Record<string, unknown>, threads = 2) {
  return runIsoplethTask(path.join(tmp, `t${count++}`), tdb, condition, threads);
}

describe('isopleth composition path', () => {
  it('is linear in mass fractions in mass mode and converts each point to mole fractions', () => {
    const masses = { AL: 26.98, CU: 63.546, MG: 24.305 };
    const p = compositionPath(
      ['AL', 'CU', 'MG'],
      { CU: 0.044, MG: 0 },
      { CU: 0.044, MG: 0.02 },
      'mass_fraction',
      masses,
    );
    expect(p.dependent).toBe('AL');
    expect(p.axisElement).toBe('MG');
    const x = moleFractionsAt(p, 0.5);
    const w = { AL: 1 - 0.044 - 0.01, CU: 0.044, MG: 0.01 };
    const tot = w.AL / 26.98 + w.CU / 63.546 + w.MG / 24.305;
    expect(x.CU).toBeCloseTo(w.CU / 63.546 / tot, 12);
    expect(x.MG).toBeCloseTo(w.MG / 24.305 / tot, 12);
    expect(Object.keys(solverX(p, 0.5)).sort()).toEqual(['CU', 'MG']);
    expect(() => compositionPath(['AL', 'CU'], { CU: 0.1 }, { CU: 0.1 }, 'mole_fraction', masses)).toThrow(
      /must differ/,
    );
  });
});

describe('isopleth sections of three alloys', () => {
  it('2024-type Al-4.4Cu-xMg in mass percent (COST507): liquidus, solidus, theta and S lines agree with point equilibria', () => {
    const { doc, dir, summary } = runIsopleth('COST507.tdb', {
      components: ['AL', 'CU', 'MG'],
      temperature_start: 650,
      temperature_end: 950,
      composition_unit: 'mass_fraction',
      composition_start: { CU: 0.044, MG: 0 },
      composition_end: { CU: 0.044, MG: 0.02 },
      resolution: 7,
    });
    expect(doc.axis).toEqual({ element: 'MG', range: [0, 0.02], unit: 'mass_fraction' });
    expect(doc.dependent).toBe('AL');
    const phases = new Set(doc.lines.map((l) => l.phase));
    for (const p of ['LIQUID', 'FCC_A1', 'ALCU_THETA', 'SPHASE']) expect(phases, p).toContain(p);
    // liquidus: FCC_A1 forms from the liquid; solidus: the liquid's own line, below the liquidus everywhere
    expect(doc.liquidus.map((l) => l.phase)).toContain('FCC_A1');
    expect(doc.solidus.length).toBeGreaterThan(0);
    const liqMin = Math.min(...doc.liquidus.flatMap((l) => l.points.map((p) => p.T)));
    const solMax = Math.max(...doc.solidus.flatMap((l) => l.points.map((p) => p.T)));
    expect(solMax).toBeLessThan(liqMin);
    expect(doc.regions.map((r) => r.phases.join('+'))).toEqual(
      expect.arrayContaining(['LIQUID', 'FCC_A1', 'FCC_A1+LIQUID', 'ALCU_THETA+FCC_A1']),
    );
    expect(checkSides('COST507.tdb', doc, ['AL', 'CU', 'MG', 'VA'])).toBeGreaterThan(8);
    expect(summary).toMatch(/zero-phase-fraction lines/);
    for (const f of ['result/result.csv', 'preview/isopleth.svg', 'preview/isopleth.png'])
      expect(existsSync(path.join(dir, f)), f).toBe(true);
    const csv = readFileSync(path.join(dir, 'result', 'result.csv'), 'utf8');
    expect(csv.split('\r\n')[0]).toBe('kind,line,phase,T [K],W(MG) [mass fraction],s,phases_with,phases_without');
    expect(doc.provenance.database.file_name).toBe('COST507.tdb');
  }, 120_000);

  it('Ni-8Cr-xAl superalloy base (alcrni): gamma, gamma-prime and B2 lines agree with point equilibria', () => {
    const { doc } = runIsopleth('alcrni.tdb', {
      components: ['NI', 'AL', 'CR'],
      temperature_start: 1100,
      temperature_end: 1800,
      composition_start: { CR: 0.08, AL: 0.05 },
      composition_end: { CR: 0.08, AL: 0.21 },
      resolution: 7,
    });
    expect(doc.axis.element).toBe('AL');
    const phases = new Set(doc.lines.map((l) => l.phase));
    for (const p of ['LIQUID', 'L12_FCC', 'L12_FCC#2', 'B2']) expect(phases, p).toContain(p);
    expect(doc.liquidus.length).toBeGreaterThan(0);
    // the three-phase field B2 + L12_FCC + LIQUID near 1610 K is about 1 K thin: no grid node lies in it, the traced
    // lines find it and label it beside them
    const thin = doc.regions.find((r) => r.phases.join('+') === 'B2+L12_FCC+LIQUID');
    expect(thin?.grid_nodes).toBe(0);
    // gamma + gamma' are two states of one L12 model: the region names them by their ordering, not NAME#2
    const gammas = doc.regions.find((r) => r.phases.join('+') === 'L12_FCC+L12_FCC#2');
    expect([...gammas!.labels].sort()).toEqual(['A1 (L12_FCC)', 'L12 (L12_FCC)']);
    expect(doc.regions.find((r) => r.phases.join('+') === 'LIQUID')!.labels).toEqual(['LIQUID']);
    expect(checkSides('alcrni.tdb', doc, ['AL', 'CR', 'NI', 'VA'])).toBeGreaterThan(8);
  }, 120_000);

  it('Fe-18Cr-xNi (Cr-Fe-Ni_shallow_bcc): the alpha / alpha-prime miscibility gap line agrees with point equilibria', () => {
    const { doc } = runIsopleth('Cr-Fe-Ni_shallow_bcc.tdb', {
      components: ['FE', 'CR', 'NI'],
      temperature_start: 400,
      temperature_end: 1000,
      composition_start: { CR: 0.18, NI: 0 },
      composition_end: { CR: 0.18, NI: 0.12 },
      resolution: 7,
    });
    expect(doc.lines.map((l) => l.phase)).toEqual(['BCC_A2#2']);
    expect(doc.lines[0]!.ends).toEqual(['range_edge', 'range_edge']);
    expect(doc.regions.map((r) => r.phases.join('+')).sort()).toEqual(['BCC_A2', 'BCC_A2+BCC_A2#2']);
    expect(checkSides('Cr-Fe-Ni_shallow_bcc.tdb', doc, ['CR', 'FE', 'NI'])).toBe(3);
  }, 60_000);

  it('stops on a cancel set while the lines are traced', () => {
    const control = new (class extends JobControl {
      override setProgress(p: number): void {
        super.setProgress(p);
        if (p >= 0.35) this.cancel();
      }
    })(new SharedArrayBuffer(CONTROL_BYTES));
    const job = parsedJob('isopleth', {
      taskUuid: 'c',
      ompThreads: 1,
      taskDir: path.join(tmp, 'cancel'),
      control: control.buffer,
      config: {
        tdb_file: path.join(SHARED_TDB_DIR, 'alcrni.tdb'),
        condition: {
          pressure: 101325,
          components: ['NI', 'AL', 'CR'],
          temperature_start: 1100,
          temperature_end: 1800,
          composition_start: { CR: 0.08, AL: 0.05 },
          composition_end: { CR: 0.08, AL: 0.25 },
          resolution: 7,
        },
      },
    });
    expect(() => run(job, control)).toThrow(/cancel/i);
    expect(existsSync(path.join(tmp, 'cancel', 'result', 'result.json'))).toBe(false);
  }, 60_000);
});

describe('isopleth invariant-like lines', () => {
  it('Al-15Cu-xMg (mass %, COST507) crosses the ternary eutectic L -> FCC_A1 + ALCU_THETA + SPHASE as a horizontal line', () => {
    const { doc } = runIsopleth('COST507.tdb', {
      components: ['AL', 'CU', 'MG'],
      temperature_start: 740,
      temperature_end: 900,
      composition_unit: 'mass_fraction',
      composition_start: { CU: 0.15, MG: 0.01 },
      composition_end: { CU: 0.15, MG: 0.07 },
      resolution: 7,
    });
    const inv = doc.invariants.find((v) => v.phases.join('+') === 'ALCU_THETA+FCC_A1+LIQUID+SPHASE');
    expect(inv, JSON.stringify(doc.invariants)).toBeDefined();
    // the Al-Cu-Mg ternary eutectic, 507 degrees C in the assessments (about 780 K)
    expect(Math.abs(inv!.T - 780)).toBeLessThan(10);
    // point equilibria in the middle of the line: liquid just above, the three solids just below
    const db = openDatabase(path.join(SHARED_TDB_DIR, 'COST507.tdb'));
    const masses = Object.fromEntries(db.info().elements.map((e) => [e.name.toUpperCase(), e.mass]));
    const p = compositionPath(doc.components, doc.composition_start, doc.composition_end, doc.composition_unit, masses);
    const sMid = ((inv!.x[0] + inv!.x[1]) / 2 - doc.axis.range[0]) / (doc.axis.range[1] - doc.axis.range[0]);
    const at = (T: number) =>
      phaseLabels(
        equilibrium({
          database: db,
          components: ['AL', 'CU', 'MG', 'VA'],
          conditions: { T, P: 101325, X: solverX(p, sMid) },
        }),
      );
    expect(at(inv!.T + 1)).toContain('LIQUID');
    expect(at(inv!.T - 1)).toEqual(['ALCU_THETA', 'FCC_A1', 'SPHASE']);
  }, 120_000);
});
