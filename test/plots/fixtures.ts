// Chart inputs for the plot tests. The data are ILLUSTRATIVE (closed-form textbook curves), used
// only to exercise the layout code; nothing here is an engine result.

import {
  binaryPhaseDiagram,
  phaseFractionChart,
  pointTable,
  propertyChart,
  scheilChart,
} from '../../worker/plots/charts.js';

function range(a: number, b: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => a + ((b - a) * i) / (n - 1));
}
const logistic = (t: number, t0: number, w: number) => 1 / (1 + Math.exp(-(t - t0) / w));

export function examplePhaseFraction(): Parameters<typeof phaseFractionChart>[0] {
  const T = range(300, 1000, 200);
  // Smooth two-step dissolution: FCC -> FCC + LIQUID -> LIQUID, HCP dissolving below 550 K.
  const liq = T.map((t) => logistic(t, 860, 18));
  const hcp = T.map((t) => 0.35 * (1 - logistic(t, 550, 8)));
  const fcc = T.map((_, i) => Math.max(0, 1 - liq[i] - hcp[i]));
  return {
    title: 'Al-0.30Zn: phase fractions (illustrative)',
    x: T,
    xLabel: 'Temperature (K)',
    celsiusAxis: true,
    series: [
      { name: 'FCC_A1', values: fcc },
      { name: 'HCP_A3', values: hcp.map((v) => (v < 1e-4 ? NaN : v)) },
      { name: 'LIQUID', values: liq.map((v) => (v < 1e-4 ? NaN : v)) },
    ],
    transitions: [
      { x: 575, label: 'HCP_A3 dissolves 575 K' },
      { x: 790, label: 'LIQUID appears 790 K' },
      { x: 930, label: 'FCC_A1 melts 930 K' },
    ],
  };
}

export function exampleProperties(): Parameters<typeof propertyChart>[0] {
  const T = range(300, 1200, 200);
  // Cp: Dulong-Petit-like base plus a lambda-shaped anomaly at 700 K (integrated for H and S).
  const cp = T.map((t) => 24 + 0.008 * (t - 300) + 12 * Math.exp(-(((t - 700) / 25) ** 2)));
  const H: number[] = [0],
    S: number[] = [28.3];
  for (let i = 1; i < T.length; i++) {
    const dT = T[i] - T[i - 1],
      c = (cp[i] + cp[i - 1]) / 2;
    H.push(H[i - 1] + c * dT); // dH = Cp dT
    S.push(S[i - 1] + (c / ((T[i] + T[i - 1]) / 2)) * dT); // dS = Cp/T dT
  }
  return {
    title: 'Molar properties (illustrative)',
    x: T,
    Cp: cp,
    H: H.map((h) => h - 5000),
    S,
    celsiusAxis: true,
    transitions: [{ x: 700, label: 'ordering 700 K' }],
  };
}

export function exampleScheil(): Parameters<typeof scheilChart>[0] {
  // Linear liquidus, constant partition coefficient k (Scheil 1942; Gulliver): T = Tm + m*C_L,
  // Scheil C_L = C0 (1 - fs)^(k-1); lever rule fs = (T_L - T) / ((1 - k)(Tm - T)).
  const Tm = 933.5,
    m = -3.4,
    k = 0.14,
    C0 = 5,
    TE = 821;
  const TL = Tm + m * C0;
  const scheilT: number[] = [],
    scheilFs: number[] = [];
  for (let T = TL; T >= TE; T -= 1) {
    scheilT.push(T);
    scheilFs.push(1 - ((T - Tm) / (m * C0)) ** (1 / (k - 1)));
  }
  const fsE = scheilFs[scheilFs.length - 1];
  scheilT.push(TE);
  scheilFs.push(fsE);
  scheilT.push(TE);
  scheilFs.push(1); // eutectic plateau
  const leverT: number[] = [],
    leverFs: number[] = [];
  for (let T = TL; ; T -= 1) {
    const fs = Math.min(1, (TL - T) / ((1 - k) * (Tm - T)));
    leverT.push(T);
    leverFs.push(fs);
    if (fs >= 1) break;
  }
  return {
    title: 'Al-5Cu solidification (illustrative, linear liquidus)',
    scheil: { T: scheilT, fs: scheilFs },
    lever: { T: leverT, fs: leverFs },
    eutecticT: TE,
    liquidusT: TL,
    celsiusAxis: true,
  };
}

export function exampleBinary(): Parameters<typeof binaryPhaseDiagram>[0] {
  // Simple eutectic A-B with straight liquidus/solidus lines and parabolic solvus lines.
  const TA = 1000,
    TB = 850,
    TE = 650,
    xE = 0.62,
    xa = 0.12,
    xb = 0.93;
  const line = (x0: number, T0: number, x1: number, T1: number, n = 30) =>
    range(0, 1, n).map((s) => ({ x: x0 + (x1 - x0) * s, T: T0 + (T1 - T0) * s }));
  const solvusA = range(0, 1, 30).map((s) => ({ x: xa * (1 - s) ** 0.5 + 0.01 * s, T: TE - (TE - 300) * s }));
  const solvusB = range(0, 1, 30).map((s) => ({ x: xb + (0.99 - xb) * s ** 2, T: TE - (TE - 300) * s }));
  const liqA = line(0, TA, xE, TE),
    solA = line(0, TA, xa, TE),
    liqB = line(1, TB, xE, TE),
    solB = line(1, TB, xb, TE);
  const tie: Array<{ T: number; x: [number, number] }> = [];
  for (let T = TE + 25; T < TA; T += 25) {
    const s = (TA - T) / (TA - TE);
    tie.push({ T, x: [xa * s, xE * s] });
  }
  for (let T = TE + 25; T < TB; T += 25) {
    const s = (TB - T) / (TB - TE);
    tie.push({ T, x: [1 - (1 - xE) * s, 1 - (1 - xb) * s] });
  }
  return {
    title: 'A-B eutectic system (illustrative)',
    xLabel: 'Mole fraction B',
    celsiusAxis: true,
    boundaries: [
      { phases: ['LIQUID', 'FCC_A1'], points: liqA },
      { phases: ['LIQUID', 'FCC_A1'], points: solA },
      { phases: ['LIQUID', 'HCP_A3'], points: liqB },
      { phases: ['LIQUID', 'HCP_A3'], points: solB },
      { phases: ['FCC_A1', 'HCP_A3'], points: solvusA },
      { phases: ['FCC_A1', 'HCP_A3'], points: solvusB },
    ],
    tieLines: tie,
    invariants: [{ T: TE, phases: ['LIQUID', 'FCC_A1', 'HCP_A3'], x: [xE, xa, xb], kind: 'eutectic' }],
    regionLabels: [
      { x: 0.55, T: 900, label: 'LIQUID' },
      { x: 0.04, T: 500, label: 'FCC_A1' },
      { x: 0.975, T: 420, label: 'HCP' },
      { x: 0.2, T: 780, label: 'LIQUID + FCC_A1' },
      { x: 0.84, T: 720, label: 'LIQUID + HCP_A3' },
      { x: 0.5, T: 470, label: 'FCC_A1 + HCP_A3' },
    ],
    TRange: [300, 1100],
  };
}

export function examplePointTable(): Parameters<typeof pointTable>[0] {
  return {
    title: 'Equilibrium at T = 700 K, P = 1e5 Pa, x(Zn) = 0.30 (illustrative)',
    columns: ['Phase', 'Amount (mol)', 'x(Al)', 'x(Zn)', 'GM (J/mol)', 'Status'],
    rows: [
      ['FCC_A1#1', 0.7312, 0.8123, 0.1877, -31245.8, 'stable'],
      ['FCC_A1#2', 0.2688, 0.3051, 0.6949, -30987.1, 'stable'],
      ['LIQUID', 0, 0.5, 0.5, -29010.4, 'driving force −1203 J/mol'],
      ['HCP_A3', 0, 0.0312, 0.9688, null, 'metastable'],
    ],
  };
}
