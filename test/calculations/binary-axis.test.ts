// binary_equilibrium: the composition axis is read from the configuration (compositions_start is the left edge,
// compositions_end the right edge), never from the order in which condition.components lists the elements.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { binaryInput, compositionAxis, run } from '../../worker/calculations/binary_equilibrium.js';
import { JobControl } from '../../worker/protocol.js';
import type { BinaryEquilibriumResult } from '../../contract/results/binary_equilibrium.js';
import { parsedConfig, parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const condition = (
  components: string[],
  start: Record<string, number>,
  end: Record<string, number>,
  T: [number, number] = [400, 1000],
) => ({
  components,
  compositions_start: start,
  compositions_end: end,
  temperature_start: T[0],
  temperature_end: T[1],
  pressure: 101325,
});
const config = (cond: Record<string, unknown>) =>
  parsedConfig('binary_equilibrium', { tdb_file: path.join(SHARED_TDB_DIR, 'alzn_mey.tdb'), condition: cond });

describe('binary_equilibrium composition axis', () => {
  test('full compositions: the component that grows from start to end, whatever the order of components', () => {
    for (const comps of [
      ['AL', 'ZN'],
      ['ZN', 'AL'],
    ]) {
      const inp = binaryInput(config(condition(comps, { AL: 1, ZN: 0 }, { AL: 0, ZN: 1 })));
      expect(inp.xComponent).toBe('ZN');
      expect(inp.X).toEqual([0, 1]);
      const rev = binaryInput(config(condition(comps, { ZN: 1, AL: 0 }, { ZN: 0, AL: 1 })));
      expect(rev.xComponent).toBe('AL');
    }
  });

  test('a partial range keeps its bounds on the grown component', () => {
    expect(compositionAxis(['AL', 'ZN'], { AL: 0.9, ZN: 0.1 }, { AL: 0.7, ZN: 0.3 })).toEqual({
      xComponent: 'ZN',
      X: [0.1, 0.3],
    });
    expect(compositionAxis(['ZN', 'AL'], { ZN: 0.9, AL: 0.1 }, { ZN: 0.7, AL: 0.3 })).toEqual({
      xComponent: 'AL',
      X: [0.1, 0.3],
    });
  });

  test('one named component is the axis; a missing side is the edge of the range', () => {
    expect(compositionAxis(['AL', 'ZN'], { AL: 0 }, { AL: 1 })).toEqual({ xComponent: 'AL', X: [0, 1] });
    expect(compositionAxis(['AL', 'ZN'], { ZN: 0.2 }, {})).toEqual({ xComponent: 'ZN', X: [0.2, 1] });
    expect(compositionAxis(['AL', 'ZN'], { ZN: 0.6 }, { ZN: 0.1 })).toEqual({ xComponent: 'ZN', X: [0.1, 0.6] });
  });

  test('start equal to end maps the whole range of the second component', () => {
    expect(compositionAxis(['ZN', 'AL'], { ZN: 0.5, AL: 0.5 }, { ZN: 0.5, AL: 0.5 })).toEqual({
      xComponent: 'AL',
      X: [0, 1],
    });
    expect(compositionAxis(['AL', 'ZN'], { ZN: 0.5, AL: 0.5 }, { ZN: 0.5, AL: 0.5 })).toEqual({
      xComponent: 'ZN',
      X: [0, 1],
    });
  });

  test('the mapped diagram, its table and its preview follow that axis', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'binary-axis-'));
    // components listed AL first, the Zn fraction edited: the diagram is x(ZN), titled Al-Zn
    const job = parsedJob('binary_equilibrium', {
      taskUuid: 't',
      ompThreads: 1,
      taskDir: dir,
      control: new SharedArrayBuffer(16),
      database: { code: 'ALZN', sha256: 'abc' },
      config: config(condition(['AL', 'ZN'], { ZN: 0.7, AL: 0.3 }, { ZN: 1, AL: 0 }, [600, 700])),
    });
    await run(job, new JobControl(job.control));
    const doc = JSON.parse(readFileSync(path.join(dir, 'result', 'result.json'), 'utf8')) as BinaryEquilibriumResult;
    expect(doc.x_component).toBe('ZN');
    expect(doc.composition_range).toEqual([0.7, 1]);
    // Zn-rich side at 600-700 K: the eutectic (~654 K) between the liquid and hcp Zn lies inside the map
    expect(
      doc.invariants.some((v) => v.kind === 'eutectic' && v.phases.some((p) => p.name === 'HCP_A3' && p.x > 0.95)),
    ).toBe(true);
    const csv = readFileSync(path.join(dir, 'result', 'result.csv'), 'utf8');
    expect(csv.split('\r\n')[0]).toContain('X_left(ZN)');
    const svg = readFileSync(path.join(dir, 'preview', 'phase_diagram.svg'), 'utf8');
    expect(svg).toContain('Mole fraction Zn');
    expect(svg).toContain('Al-Zn phase diagram, P = 1 atm');
  });

  test('composition_unit mass_fraction: the range is converted, every x has its w, the CSV both, the preview mass percent', async () => {
    // molar masses read straight from the TDB's ELEMENT lines (not through the database parser)
    const tdb = readFileSync(path.join(SHARED_TDB_DIR, 'alzn_mey.tdb'), 'utf8');
    const mass = (el: string) => Number(new RegExp(`ELEMENT\\s+${el}\\s+\\S+\\s+(\\S+)`).exec(tdb)![1]);
    const [mAl, mZn] = [mass('AL'), mass('ZN')];
    expect([mAl, mZn]).toEqual([26.982, 65.39]);
    const wOf = (x: number) => (x * mZn) / (x * mZn + (1 - x) * mAl);
    const xOf = (w: number) => w / mZn / (w / mZn + (1 - w) / mAl);
    const dir = mkdtempSync(path.join(tmpdir(), 'binary-mass-'));
    const job = parsedJob('binary_equilibrium', {
      taskUuid: 't',
      ompThreads: 1,
      taskDir: dir,
      control: new SharedArrayBuffer(16),
      database: { code: 'ALZN', sha256: 'abc' },
      config: config({
        ...condition(['AL', 'ZN'], { ZN: 0.8 }, { ZN: 1 }, [600, 700]),
        composition_unit: 'mass_fraction',
      }),
    });
    await run(job, new JobControl(job.control));
    const doc = JSON.parse(readFileSync(path.join(dir, 'result', 'result.json'), 'utf8')) as BinaryEquilibriumResult;
    expect(doc.composition_unit).toBe('mass_fraction');
    expect(doc.composition_range[0]).toBeCloseTo(xOf(0.8), 12);
    expect(doc.composition_range[1]).toBe(1);
    expect(doc.composition_range_w![0]).toBeCloseTo(0.8, 12);
    expect(doc.molar_masses).toEqual({ ZN: mZn, AL: mAl });
    // the Al-Zn eutectic near 95 mass % Zn: each phase's w from its x by hand
    const eut = doc.invariants.find((v) => v.kind === 'eutectic')!;
    for (const p of eut.phases) expect(p.w).toBeCloseTo(wOf(p.x), 12);
    expect(eut.phases.find((p) => p.name === 'LIQUID')!.w).toBeGreaterThan(0.94);
    for (const r of doc.two_phase_regions)
      for (const t of r.tielines) for (const k of [0, 1]) expect(t.w![k]).toBeCloseTo(wOf(t.x[k]), 12);
    for (const b of doc.boundaries) for (const q of b.points) expect(q.w).toBeCloseTo(wOf(q.x), 12);
    for (const q of doc.single_phase_regions) expect(q.w).toBeCloseTo(wOf(q.x), 12);
    const lines = readFileSync(path.join(dir, 'result', 'result.csv'), 'utf8')
      .trim()
      .split('\r\n');
    const head = lines[0]!.split(',');
    const iX = head.indexOf('X_left(ZN) [mole fraction]'),
      iW = head.indexOf('W_left(ZN) [mass fraction]');
    expect(iW).toBeGreaterThan(0);
    for (const l of lines.slice(1)) {
      const c = l.split(',');
      expect(Number(c[iW])).toBeCloseTo(wOf(Number(c[iX])), 12);
    }
    const svg = readFileSync(path.join(dir, 'preview', 'phase_diagram.svg'), 'utf8');
    expect(svg).toContain('Mass percent Zn');
    // the axis runs 80..100 mass percent
    expect(svg).toMatch(/>80</);
    expect(svg).toMatch(/>100</);
  });

  test('composition_unit is checked at the schema: an unknown unit is refused naming the field', () => {
    const bad = () => config({ ...condition(['AL', 'ZN'], { ZN: 0 }, { ZN: 1 }), composition_unit: 'atom_percent' });
    expect(bad).toThrow(/"composition_unit"/);
    expect(bad).toThrow(/must be one of: mole_fraction, mass_fraction/);
  });
});
