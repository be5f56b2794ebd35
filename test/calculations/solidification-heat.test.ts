// The heat of a solidification path (worker/scans/scheil/path-heat.ts) against the closed form of an ideal binary:
// with ideal liquid and fcc of A and Z, constant heat capacities (liquid 30 and 35, solid 25 and 30 J/(mol K)), A
// melting at 1000 K with 15 kJ/mol and Z at 800 K with 12 kJ/mol, the enthalpy of any state is linear in the amounts
// of each element in each phase, H = sum_e (N_L,e H_L,e(T) + N_S,e H_S,e(T)) with H_L,A = 10000 + 30 T,
// H_S,A = 25 T, H_L,Z = 8000 + 35 T, H_S,Z = 30 T, however the solid segregated. So the integral of the apparent heat
// capacity from the start (all liquid) to the end (all solid) is the closed-form difference, the sensible heat
// capacity is the closed form of the liquid and solid amounts before each interval, and nothing is released above the
// liquidus; on the Scheil path, with Z in equilibrium with the solid (back diffusion) and with solute trapping.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobControl } from '../../worker/protocol.js';
import { run } from '../../worker/calculations/solidification.js';
import type { SolidificationDocument } from '../../contract/results/solidification.js';
import { parsedJob } from '../support/jobs.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-solid-heat-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// G = a + b T - c T ln T: H = a + c T, Cp = c; b puts each melting point where the liquid's G meets the solid's
const bA = 5 * Math.log(1000) - 10,
  bZ = 5 * Math.log(800) - 10;
const IDEAL = path.join(tmp, 'ideal.tdb');
writeFileSync(
  IDEAL,
  `ELEMENT VA VACUUM 0 0 0 !
ELEMENT A FCC_A1 10 0 0 !
ELEMENT Z FCC_A1 20 0 0 !
PHASE LIQUID % 1 1 !
CONSTITUENT LIQUID :A,Z: !
PARAMETER G(LIQUID,A;0) 1 10000+${bA}*T-30*T*LN(T); 6000 N !
PARAMETER G(LIQUID,Z;0) 1 8000+${bZ}*T-35*T*LN(T); 6000 N !
PHASE FCC_A1 % 2 1 1 !
CONSTITUENT FCC_A1 :A,Z:VA: !
PARAMETER G(FCC_A1,A:VA;0) 1 -25*T*LN(T); 6000 N !
PARAMETER G(FCC_A1,Z:VA;0) 1 -30*T*LN(T); 6000 N !
`,
);
const X_Z = 0.3;
const T0 = 1050;
const H = {
  liquid: (T: number, xZ: number) => (1 - xZ) * (10000 + 30 * T) + xZ * (8000 + 35 * T),
  solid: (T: number, xZ: number) => (1 - xZ) * 25 * T + xZ * 30 * T,
};
const cp = { liquid: (xZ: number) => 30 + 5 * xZ, solid: (xZ: number) => 25 + 5 * xZ };

function calc(extra: Record<string, unknown>): SolidificationDocument {
  const job = parsedJob('solidification', {
    taskUuid: 'h',
    ompThreads: 1,
    taskDir: path.join(tmp, `t${Math.random().toString(36).slice(2)}`),
    control: new SharedArrayBuffer(16),
    config: {
      tdb_file: IDEAL,
      condition: {
        components: ['A', 'Z'],
        compositions: { Z: X_Z },
        pressure: 101325,
        start_temperature: T0,
        temperature_step: 1,
        cooling_rate: 1,
        ...extra,
      },
    },
  });
  run(job, new JobControl(job.control));
  return JSON.parse(readFileSync(path.join(job.taskDir, 'result', 'result.json'), 'utf8')) as SolidificationDocument;
}

describe('the heat of a solidification path (ideal A-Z)', () => {
  it.each([
    ['Scheil (no diffusivity of Z)', {}],
    ['Z in equilibrium with the solid', { fast_diffusers: ['Z'] }],
    ['solute trapping at V/V_D = 0.5', { solute_trapping: { interface_velocity: 1, diffusive_speed: 2 } }],
  ])(
    '%s: the integral of the apparent Cp is the closed-form H(start) - H(end)',
    (_, extra) => {
      const d = calc(extra);
      const rows = d.latent_heat;
      expect(rows.length).toBeGreaterThan(100);
      expect(d.path[d.path.length - 1]!.fraction_solid).toBeGreaterThan(1 - 1e-7);
      const end = rows[rows.length - 1]!.T;
      let integral = 0;
      for (let i = 1; i < rows.length; i++) integral += rows[i]!.apparent_cp * (rows[i - 1]!.T - rows[i]!.T);
      const closed = H.liquid(T0, X_Z) - H.solid(end, X_Z);
      expect(Math.abs(integral - closed)).toBeLessThan(1e-6 * closed);
      // (the Scheil path ends with at most 1e-8 of liquid left: its latent heat, about 1e-4 J, is not released)
      expect(Math.abs(rows[rows.length - 1]!.enthalpy + closed)).toBeLessThan(1e-6 * closed);
      // apparent = sensible + latent in every interval, the latent heat the same as released
      for (const r of rows.slice(1)) {
        expect(r.apparent_cp).toBeCloseTo(r.sensible_cp + r.latent_cp, 9);
        expect(r.latent_cp * (rows[rows.indexOf(r) - 1]!.T - r.T)).toBeCloseTo(r.released, 9);
      }
      // above the liquidus the liquid's heat capacity and nothing released
      const above = rows.filter((r, i) => i > 0 && r.T > d.liquidus!);
      expect(above.length).toBeGreaterThan(50);
      for (const r of above) {
        expect(r.sensible_cp).toBeCloseTo(cp.liquid(X_Z), 5);
        expect(Math.abs(r.released)).toBeLessThan(1e-6);
      }
    },
    60_000,
  );

  it('the sensible heat capacity is that of the liquid and solid amounts before each interval', () => {
    const d = calc({});
    // per temperature the last step of the path: the liquid left (result.csv's x(LIQUID,Z)) and the fraction solid
    const last = new Map<number, { fs: number; xL: number }>();
    const zCol = d.table.columns.findIndex((c) => c.name === 'x(LIQUID,Z)');
    for (const row of d.table.rows) last.set(row[0] as number, { fs: row[1] as number, xL: row[zCol] as number });
    const rows = d.latent_heat;
    let checked = 0;
    for (let i = 2; i < rows.length; i++) {
      const before = last.get(rows[i - 1]!.T)!;
      // Z in the solid: what the liquid does not hold
      const zLiquid = (1 - before.fs) * before.xL;
      const expected = (1 - before.fs) * 30 + 5 * zLiquid + before.fs * 25 + 5 * (X_Z - zLiquid);
      expect(rows[i]!.sensible_cp).toBeCloseTo(expected, 5);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
    // the latent heat: about the alloy's enthalpy of fusion, 15 kJ of A and 12 kJ of Z at their melting points, less
    // the heat capacities' difference (5 J/(mol K)) below them
    const total = rows[rows.length - 1]!.cumulative;
    expect(total).toBeGreaterThan(0.8 * (0.7 * 15000 + 0.3 * 12000));
    expect(total).toBeLessThan(0.7 * 15000 + 0.3 * 12000);
  }, 60_000);
});
