// The 6xxx ageing treatment of contract/tasks/aging-examples.ts through the KWN model (worker/calculations/aging/):
// Al-0.72Mg-0.57Si (at. %), 16 h at 175 °C, a 1 h ramp to 250 °C, 8 h there, five metastable precipitates of
// kawin_AlMgSi.tdb competing for Mg and Si. Invariants of the run: every atom accounted for at every output time, no
// phase above the amount it has alone with the matrix at the temperature (its tie line from the engine) while the
// temperature holds, the sequence beta'' (MG5SI6_B_DP) -> beta' (MGSI_B_P) at 175 °C (beta'' reaches its largest
// amount first and dissolves as beta' depletes the matrix below its solubility), the phases that lose changing
// neither beta' nor the number of steps, and a halved time step changing the end state by under a few per cent.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agingExample, AGING_6XXX_PHASES } from '../../contract/tasks/aging-examples.js';
import { agingModelConfig, type AgingCondition } from '../../worker/calculations/aging.js';
import { simulateAging } from '../../worker/calculations/aging/simulate.js';
import { AgingThermo } from '../../worker/calculations/aging/thermo.js';
import type { AgingConfig, AgingResult, AgingSystem } from '../../worker/calculations/aging/types.js';
import { openDatabase } from '../../worker/core/database.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const example = agingExample('6xxx');
const cond = example.config.condition as AgingCondition;
const alloy = {
  AL: 1 - cond.compositions.MG! - cond.compositions.SI!,
  MG: cond.compositions.MG!,
  SI: cond.compositions.SI!,
};
const sys: AgingSystem = {
  db: openDatabase(path.join(SHARED_TDB_DIR, example.tdb)),
  components: ['AL', 'MG', 'SI', 'VA'],
  elements: ['AL', 'MG', 'SI'],
};
const PHASES = Object.keys(AGING_6XXX_PHASES);
const FIRST_STAGE = 16 * 3600;
const config: AgingConfig = { ...agingModelConfig(cond, alloy), outputs: 81 };

function run(c: AgingConfig): AgingResult {
  const r = simulateAging(sys, c);
  if (r instanceof Error) throw r;
  return r;
}

/**
 * |x_alloy - (1 - sum f) x_matrix - sum f_p x_p| over the output times and elements, from the recorded volume
 * fractions (every phase and the matrix V_m = 1e-5 m^3/mol: atom fractions are volume fractions).
 */
function massBalance(r: AgingResult): number {
  let worst = 0;
  r.time.forEach((_, i) => {
    const f = PHASES.map((p) => r.phases[p]![i]!.volume_fraction);
    const F = f.reduce((a, b) => a + b, 0);
    for (const e of Object.keys(alloy)) {
      let back = (1 - F) * r.matrix_composition[i]![e]!;
      PHASES.forEach((p, j) => (back += f[j]! * (r.precipitate_composition[p]?.[e] ?? 0)));
      worst = Math.max(worst, Math.abs(back - alloy[e as keyof typeof alloy]));
    }
  });
  return worst;
}

/** The first output time at which the phase's number density reaches n (Infinity: never). */
const firstReaching = (r: AgingResult, phase: string, n: number) =>
  r.time.find((_, i) => r.phases[phase]![i]!.number_density >= n) ?? Infinity;

describe("KWN: a 6xxx alloy aged at 175 °C then 250 °C, beta'', beta', B', U1 and U2 competing", () => {
  const thermo = new AgingThermo(sys, 'FCC_A1', 101325);
  let base: AgingResult;

  it('keeps every atom, and no phase exceeds its amount alone with the matrix while the temperature holds', () => {
    base = run(config);
    console.log(`6xxx: ${base.steps} steps, mass balance ${base.mass_balance_error}; ${base.notes.join('; ')}`);
    expect(base.mass_balance_error).toBeLessThan(1e-6);
    expect(massBalance(base)).toBeLessThan(1e-6);
    const holds = base.time.map((t, i) => i).filter((i) => base.time[i]! <= FIRST_STAGE || base.time[i]! >= 17 * 3600);
    for (const p of PHASES)
      for (const i of holds) {
        const line = thermo.tieLine(p, base.temperature[i]!, alloy);
        const f = base.phases[p]![i]!.volume_fraction;
        // equal molar volumes: the equilibrium volume fraction is the tie line's atom fraction
        expect(f, `${p} at ${base.time[i]} s`).toBeLessThanOrEqual((line?.amount ?? 0) * (1 + 1e-6));
      }
  }, 120_000);

  it("beta'' precipitates and dissolves again at 175 °C, giving way to beta'; B', U1 and U2 stay negligible", () => {
    const atFirstStage = base.time.map((t, i) => i).filter((i) => base.time[i]! <= FIRST_STAGE);
    const peakTime = (p: string) => {
      const f = base.phases[p]!.map((r) => r.volume_fraction);
      return base.time[f.indexOf(Math.max(...f))]!;
    };
    const first = Object.fromEntries(PHASES.map((p) => [p, firstReaching(base, p, 1e22)]));
    console.log(`6xxx: first at 1e22 m^-3 ${JSON.stringify(first)}; largest f at ${PHASES.map(peakTime)} s`);
    expect(peakTime('MG5SI6_B_DP')).toBeLessThan(peakTime('MGSI_B_P'));
    const end16 = atFirstStage.at(-1)!;
    expect(base.phases.MG5SI6_B_DP![end16]!.driving_force).toBeLessThan(0);
    expect(base.phases.MG5SI6_B_DP![end16]!.volume_fraction).toBe(0);
    const total = (i: number) => PHASES.reduce((a, p) => a + base.phases[p]![i]!.volume_fraction, 0);
    expect(base.phases.MGSI_B_P!.at(-1)!.volume_fraction / total(base.time.length - 1)).toBeGreaterThan(0.99);
    for (const p of ['B_PRIME_L', 'U1_PHASE', 'U2_PHASE'])
      base.time.forEach((t, i) => expect(base.phases[p]![i]!.volume_fraction).toBeLessThan(1e-6 * (total(i) + 1e-30)));
  });

  it("the phases that lose (B', U1, U2) change neither beta' nor the cost: beta'' and beta' alone end alike in as many steps", () => {
    const pair = run({ ...config, precipitates: config.precipitates.slice(0, 2) });
    const [a, b] = [base.phases.MGSI_B_P!.at(-1)!, pair.phases.MGSI_B_P!.at(-1)!];
    console.log(`6xxx: ${base.steps} steps with five phases, ${pair.steps} with two`);
    expect(Math.abs(a.number_density / b.number_density - 1)).toBeLessThan(0.01);
    expect(Math.abs(a.mean_radius / b.mean_radius - 1)).toBeLessThan(0.01);
    expect(Math.abs(a.volume_fraction / b.volume_fraction - 1)).toBeLessThan(0.01);
    expect(base.steps / pair.steps).toBeLessThan(1.1);
  }, 120_000);

  it('halving the time-step control changes the end state by under 3 %', () => {
    const half = run({ ...config, step_control: { courant: 0.2, supersaturation: 0.01 } });
    const a = base.phases.MGSI_B_P!.at(-1)!,
      b = half.phases.MGSI_B_P!.at(-1)!;
    const rel = (x: number, y: number) => Math.abs(x - y) / Math.abs(y);
    const change = Math.max(
      rel(a.number_density, b.number_density),
      rel(a.mean_radius, b.mean_radius),
      rel(a.volume_fraction, b.volume_fraction),
    );
    console.log(`6xxx: steps ${base.steps} and ${half.steps}, beta' end state change ${change}`);
    expect(change).toBeLessThan(0.03);
    expect(half.mass_balance_error).toBeLessThan(1e-6);
  }, 240_000);
});
