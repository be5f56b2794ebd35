// binary_cpt_diagram on every bundled database: the grid is computed without failure and EVERY
// bisected boundary point has its two phase sets on either side (point equilibria 1/128 of the
// grid step before and after the crossing), on composition, temperature and pressure edges alike.
import { describe, expect, it } from 'vitest';
import { parsedJob } from '../support/jobs.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BISECTION_STEPS, computeCpt, readInput } from '../../worker/calculations/binary_cpt_diagram.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { CONTROL_BYTES, JobControl } from '../../worker/protocol.js';

const CASES = [
  { file: 'agcu_hayes1986.tdb', components: ['AG', 'CU'], x: 'CU' },
  { file: 'alzn_mey1993.tdb', components: ['AL', 'ZN'], x: 'ZN' },
  { file: 'cuni_mey1992.tdb', components: ['CU', 'NI'], x: 'NI' },
];

describe.each(CASES)('boundaries of $file', ({ file, components, x }) => {
  it('every boundary point lies between its two phase sets', () => {
    const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    const tdb = resolve(__dirname, '../../databases', file);
    const input = readInput(
      parsedJob('binary_cpt_diagram', {
        taskUuid: 't',
        ompThreads: 1,
        taskDir: mkdtempSync(join(tmpdir(), 'cpt-b-')),
        control: control.buffer,
        config: {
          tdb_file: tdb,
          condition: {
            components,
            x_component: x,
            composition_start: 0.02,
            composition_end: 0.98,
            composition_step: 0.12,
            temperature_start: 400,
            temperature_end: 1800,
            temperature_step: 100,
            pressure_start: 1e5,
            pressure_end: 1e9,
            pressure_points: 2,
            pressure_scale: 'linear',
          },
        },
      }),
    );
    const comp = computeCpt(input, 2, control);
    expect(comp.notConverged).toBe(0);
    expect(comp.boundary.length).toBeGreaterThan(10);
    const axes = { x: input.xs, T: input.Ts, P: input.Ps };
    const label = (xx: number, T: number, P: number) => {
      const r = equilibrium({
        database: input.db,
        components: input.components,
        phases: input.phases,
        conditions: { T, P, X: { [x]: xx } },
      });
      return r.converged
        ? r.phases
            .map((p) => (p.setNumber > 1 ? `${p.name}#${p.setNumber}` : p.name))
            .sort()
            .join('+')
        : null;
    };
    for (const b of comp.boundary) {
      const ax = b.axis!;
      const v = ax === 'x' ? b.x : ax === 'T' ? b.T : b.P;
      const vals = axes[ax];
      const i = vals.findIndex((_, k) => k + 1 < vals.length && vals[k]! <= v && v <= vals[k + 1]!);
      const half = (vals[i + 1]! - vals[i]!) / 2 ** (BISECTION_STEPS + 1);
      const at = (w: number) => label(ax === 'x' ? w : b.x, ax === 'T' ? w : b.T, ax === 'P' ? w : b.P);
      expect(at(v - half), JSON.stringify(b)).toBe(b.between[0]);
      expect(at(v + half), JSON.stringify(b)).toBe(b.between[1]);
    }
  });
});
