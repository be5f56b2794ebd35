// binary_cpt_diagram with composition_unit mass_fraction: the grid is equally spaced in mass fraction and solved at
// the nodes' mole fractions; result.json keeps x and adds w (axes, boundary points, tie-lines), result.csv has both,
// the preview's composition axis is in mass percent. Checked against a hand conversion with the TDB's molar masses.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../worker/calculations/binary_cpt_diagram.js';
import { CONTROL_BYTES, JobControl } from '../../worker/protocol.js';
import type { BinaryCptResult } from '../../contract/results/binary_cpt_diagram.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const TDB = join(SHARED_TDB_DIR, 'alzn_mey.tdb');
const dir = mkdtempSync(join(tmpdir(), 'cpt-mass-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('C-P-T diagram in mass fractions', () => {
  it('grid in w, equilibria at x, both in result.json and result.csv, mass percent in the preview', () => {
    const text = readFileSync(TDB, 'utf8');
    const mass = (el: string) => Number(new RegExp(`ELEMENT\\s+${el}\\s+\\S+\\s+(\\S+)`).exec(text)![1]);
    const [mAl, mZn] = [mass('AL'), mass('ZN')];
    const wOf = (x: number) => (x * mZn) / (x * mZn + (1 - x) * mAl);
    const xOf = (w: number) => w / mZn / (w / mZn + (1 - w) / mAl);
    const job = parsedJob('binary_cpt_diagram', {
      taskUuid: 't',
      ompThreads: 1,
      taskDir: dir,
      control: new SharedArrayBuffer(CONTROL_BYTES),
      config: {
        tdb_code: 'X',
        tdb_file: TDB,
        condition: {
          components: ['AL', 'ZN'],
          x_component: 'ZN',
          composition_unit: 'mass_fraction',
          composition_start: 0.2,
          composition_end: 1,
          composition_step: 0.2,
          temperature_start: 600,
          temperature_end: 800,
          temperature_step: 100,
          pressure_start: 1e5,
          pressure_end: 2e5,
          pressure_points: 2,
          pressure_scale: 'linear',
          include_tielines: true,
        },
      },
    });
    run(job, new JobControl(new SharedArrayBuffer(CONTROL_BYTES)));
    const doc = JSON.parse(readFileSync(join(dir, 'result', 'result.json'), 'utf8')) as BinaryCptResult;
    expect(doc.composition_unit).toBe('mass_fraction');
    expect(doc.molar_masses).toEqual({ ZN: mZn, AL: mAl });
    const ws = [0.2, 0.4, 0.6, 0.8, 1];
    doc.axes.w!.forEach((w, i) => expect(w).toBeCloseTo(ws[i]!, 12));
    doc.axes.x.forEach((x, i) => expect(x).toBeCloseTo(xOf(ws[i]!), 12));
    expect(doc.boundary_points.length).toBeGreaterThan(0);
    for (const b of doc.boundary_points) expect(b.w).toBeCloseTo(wOf(b.x), 12);
    expect(doc.tielines.length).toBeGreaterThan(0);
    for (const t of doc.tielines) for (const k of [0, 1]) expect(t.w![k]).toBeCloseTo(wOf(t.x[k]), 12);
    // 40 mass % Zn: (0.4 / 65.39) / (0.4 / 65.39 + 0.6 / 26.982) = 0.21574 mole fraction
    expect(doc.axes.x[1]).toBeCloseTo(0.21574, 5);
    const [head, ...rows] = readFileSync(join(dir, 'result', 'result.csv'), 'utf8')
      .trim()
      .split('\r\n');
    expect(head!.split(',').slice(0, 3)).toEqual(['x(ZN) [-]', 'w(ZN) [-]', 'T [K]']);
    for (const r of rows) {
      const c = r.split(',');
      expect(Number(c[1])).toBeCloseTo(wOf(Number(c[0])), 12);
    }
    const svg = readFileSync(join(dir, 'preview', 'isobaric_sections.svg'), 'utf8');
    expect(svg).toContain('Mass percent Zn');
    expect(svg).not.toContain('Mole fraction Zn');
  });
});
