// Output documents of a binary C-P-T grid (worker/mapping/cpt-grid.ts): the per-node phase amounts,
// the result table, the VTK files for ParaView with their README, and the region counts per pressure.
import { type ResultTable } from '../../contract/results/common.js';
import type { BinaryCptResult } from '../../contract/results/binary_cpt_diagram.js';

import { BISECTION_STEPS, pressureCoordinate, type CptComputation } from '../mapping/cpt-grid.js';
import type { BoundarySurface } from '../mapping/surface-nets.js';
import { multiBlock, polyData, rectilinearGrid, type VtkArray } from './vtk.js';

/** Folder inside the zip, so unpacking gives one directory. */
export const VTK_FOLDER = 'cpt_diagram';

/** Phase label names sorted as in result tables (by name, then composition set). */
function sortedPhaseLabels(labels: string[]): string[] {
  const split = (l: string) => {
    const i = l.indexOf('#');
    return i < 0 ? { n: l, s: 1 } : { n: l.slice(0, i), s: Number(l.slice(i + 1)) };
  };
  return [...labels].sort((a, b) => {
    const A = split(a),
      B = split(b);
    return A.n === B.n ? A.s - B.s : A.n < B.n ? -1 : 1;
  });
}

/** Per phase label: NP at every node (0 where absent or not converged). */
export function fractionArrays(comp: CptComputation): Map<string, Float64Array> {
  const N = comp.labels.length;
  const out = new Map<string, Float64Array>();
  for (const l of sortedPhaseLabels(comp.phaseLabels)) out.set(l, new Float64Array(N));
  for (let n = 0; n < N; n++) {
    if (comp.labels[n]! < 0) continue;
    for (const [k, np] of comp.nodePhases[n] ?? []) out.get(comp.phaseLabels[k]!)![n] += np;
  }
  return out;
}

export function resultTable(comp: CptComputation, fractions: Map<string, Float64Array>): ResultTable {
  const { xs, Ts, Ps, elements } = comp.input;
  const [nX, nT] = comp.dims;
  const names = [...fractions.keys()];
  const columns = [
    { name: `x(${elements[0]})`, unit: '-' },
    { name: 'T', unit: 'K' },
    { name: 'P', unit: 'Pa' },
    { name: 'phase_set', unit: '' },
    { name: 'label', unit: '' },
    { name: 'converged', unit: '' },
    ...names.map((n) => ({ name: `NP(${n})`, unit: 'mol/mol' })),
  ];
  const rows: (number | string | null)[][] = [];
  for (let n = 0; n < comp.labels.length; n++) {
    const l = comp.labels[n]!;
    const ok = l >= 0;
    rows.push([
      xs[n % nX]!,
      Ts[Math.floor(n / nX) % nT]!,
      Ps[Math.floor(n / (nX * nT))]!,
      ok ? comp.phaseSets[l]! : '',
      l,
      ok ? 1 : 0,
      ...names.map((k) => (ok ? fractions.get(k)![n]! : null)),
    ]);
  }
  return { columns, rows };
}

/** Pairs of phase sets met on the surfaces: index = the 'between' cell value in boundaries.vtp. */
function pairTable(surface: BoundarySurface): { pairs: [number, number][]; indexOf: (a: number, b: number) => number } {
  const keys = new Map<string, number>();
  const pairs: [number, number][] = [];
  const all = [...surface.lineLabels, ...surface.polyLabels].map(
    ([a, b]) => (a < b ? [a, b] : [b, a]) as [number, number],
  );
  for (const p of [...all].sort((u, v) => u[0] - v[0] || u[1] - v[1])) {
    const k = `${p[0]},${p[1]}`;
    if (!keys.has(k)) {
      keys.set(k, pairs.length);
      pairs.push(p);
    }
  }
  return { pairs, indexOf: (a, b) => keys.get(a < b ? `${a},${b}` : `${b},${a}`)! };
}

export interface VtkBundle {
  files: Record<string, string>;
  entries: string[];
}

export function buildVtk(
  comp: CptComputation,
  fractions: Map<string, Float64Array>,
  meta: { database: string },
): VtkBundle {
  const { xs, Ts, Ps, logP, elements } = comp.input;
  const zc = Ps.map((p) => pressureCoordinate(p, logP));
  const N = comp.labels.length;
  const converged = new Uint8Array(N);
  for (let n = 0; n < N; n++) converged[n] = comp.labels[n]! >= 0 ? 1 : 0;
  const [nX, nT] = comp.dims;
  const pPa = new Float64Array(N);
  for (let n = 0; n < N; n++) pPa[n] = Ps[Math.floor(n / (nX * nT))]!;
  const pointData: VtkArray[] = [
    { name: 'phase_set', type: 'Int32', values: comp.labels },
    { name: 'converged', type: 'UInt8', values: converged },
    ...[...fractions.entries()].map(([l, v]) => ({ name: `NP(${l})`, type: 'Float32' as const, values: v })),
    { name: 'P_Pa', type: 'Float64', values: pPa },
  ];
  const grid = rectilinearGrid([xs, Ts, zc], pointData, 'phase_set');

  const s = comp.surface;
  const { pairs, indexOf } = pairTable(s);
  const cellLabels = [...s.lineLabels, ...s.polyLabels];
  const cellAxis = [...s.lineAxis, ...s.polyAxis];
  const vertexP = new Float64Array(s.points.length / 3);
  for (let i = 0; i < vertexP.length; i++) vertexP[i] = logP ? 10 ** s.points[i * 3 + 2]! : s.points[i * 3 + 2]!;
  const boundaries = polyData({
    points: s.points,
    lines: s.lines,
    polys: s.polys,
    pointData: [{ name: 'P_Pa', type: 'Float64', values: vertexP }],
    cellData: [
      { name: 'between', type: 'Int32', values: cellLabels.map(([a, b]) => indexOf(a, b)) },
      { name: 'phase_set_a', type: 'Int32', values: cellLabels.map(([a]) => a) },
      { name: 'phase_set_b', type: 'Int32', values: cellLabels.map(([, b]) => b) },
      { name: 'edge_axis', type: 'Int32', values: cellAxis },
    ],
  });

  const phaseIndex = new Map([...fractions.keys()].map((l, i) => [l, i]));
  const tPts: number[] = [],
    tLines: number[][] = [],
    tPhase: number[] = [],
    tT: number[] = [],
    tP: number[] = [],
    tSet: number[] = [];
  comp.tielines.forEach((t, i) => {
    const z = pressureCoordinate(t.P, logP);
    tPts.push(t.x[0], t.T, z, t.x[1], t.T, z);
    tLines.push([2 * i, 2 * i + 1]);
    tPhase.push(phaseIndex.get(t.phases[0]) ?? -1, phaseIndex.get(t.phases[1]) ?? -1);
    tT.push(t.T);
    tP.push(t.P);
    tSet.push(comp.labels[t.node]!);
  });
  const tielines = polyData({
    points: tPts,
    lines: tLines,
    pointData: [{ name: 'phase', type: 'Int32', values: tPhase }],
    cellData: [
      { name: 'phase_set', type: 'Int32', values: tSet },
      { name: 'T_K', type: 'Float64', values: tT },
      { name: 'P_Pa', type: 'Float64', values: tP },
    ],
  });
  const vtm = multiBlock([
    { name: 'grid', file: 'grid.vtr' },
    { name: 'boundaries', file: 'boundaries.vtp' },
    { name: 'tielines', file: 'tielines.vtp' },
  ]);
  const readme = vtkReadme(comp, [...fractions.keys()], pairs, meta.database, elements);
  const files: Record<string, string> = {
    'README.txt': readme,
    'cpt_diagram.vtm': vtm,
    'grid.vtr': grid,
    'boundaries.vtp': boundaries,
    'tielines.vtp': tielines,
  };
  return { files, entries: Object.keys(files).map((f) => `${VTK_FOLDER}/${f}`) };
}

function vtkReadme(
  comp: CptComputation,
  phaseLabels: string[],
  pairs: [number, number][],
  database: string,
  elements: [string, string],
): string {
  const { xs, Ts, Ps, logP } = comp.input;
  const set = (k: number) => comp.phaseSets[k] ?? '?';
  const xr = xs[xs.length - 1]! - xs[0]!,
    tr = Ts[Ts.length - 1]! - Ts[0]!;
  const zr = pressureCoordinate(Ps[Ps.length - 1]!, logP) - pressureCoordinate(Ps[0]!, logP);
  const sx = xr > 0 && tr > 0 ? tr / xr : 1,
    sz = zr > 0 && tr > 0 ? tr / zr : 1;
  const g = (v: number) => Number(v.toPrecision(4));
  return [
    `PhaseDesk binary_cpt_diagram: ${elements[0]}-${elements[1]}, database ${database}`,
    '',
    'Files (VTK XML, ASCII data; open in ParaView with File > Open, no conversion needed):',
    '  cpt_diagram.vtm  all three data sets below as one multiblock source',
    `  grid.vtr         RectilinearGrid ${xs.length} x ${Ts.length} x ${Ps.length} nodes (composition x temperature x pressure)`,
    '  boundaries.vtp   PolyData: boundary surfaces between phase-set regions (polygons; segments only on a flat axis)',
    `  tielines.vtp     PolyData: ${comp.tielines.length} tie-lines (lines between the two phase compositions)`,
    '',
    'Coordinates (all three files share them):',
    `  X = mole fraction of ${elements[0]}   Y = temperature in K`,
    logP
      ? '  Z = log10(P / Pa)  (log pressure axis: the true pressure is in the array P_Pa)'
      : '  Z = pressure in Pa (linear pressure axis; also in the array P_Pa)',
    '  The axes have very different ranges. In ParaView set Properties > Transforming > Scale of the sources',
    `  to about (${g(sx)}, 1, ${g(sz)}) to see a cube-shaped diagram (same factors for all three files).`,
    '',
    'grid.vtr point data:',
    '  phase_set  Int32: index into the phase-set table below; -1 = the equilibrium did not converge',
    '  converged  UInt8: 1 = certified equilibrium, 0 = not converged (fractions are 0 there)',
    ...phaseLabels.map(
      (l) => `  NP(${l})  Float32: amount of phase ${l} (moles of atoms per mole of atoms), 0 when absent`,
    ),
    '  P_Pa       Float64: pressure in Pa',
    '  Colour by phase_set (Categorical colours) for the regions; Threshold on phase_set isolates one region.',
    '',
    'boundaries.vtp:',
    '  One vertex per grid cell that holds a boundary (mean of the bisected crossings on its edges), one polygon per',
    '  grid edge whose end nodes differ in phase set (multi-label Surface Nets, Gibson 1998). Crossings are located',
    `  by bisection between the two nodes to 1/${2 ** BISECTION_STEPS} of the grid step.`,
    '  cell data: between (Int32, index into the pair table below), phase_set_a / phase_set_b (Int32, the phase sets',
    '  at the lower / upper end of the edge), edge_axis (Int32: 0 = composition, 1 = temperature, 2 = pressure edge)',
    '  point data: P_Pa (Float64, pressure of the vertex in Pa)',
    '',
    'tielines.vtp:',
    '  point data: phase (Int32, index into the phase-label list below; the phase at that end)',
    '  cell data: phase_set (Int32, phase-set index of the two-phase region), T_K, P_Pa (Float64)',
    '',
    'Phase-set table (phase_set, phase_set_a, phase_set_b):',
    ...comp.phaseSets.map((s, i) => `  ${i}: ${s}`),
    '',
    'Phase-label list (tie-line point data "phase"):',
    ...phaseLabels.map((l, i) => `  ${i}: ${l}`),
    '',
    'Pair table (boundaries.vtp cell data "between"):',
    ...(pairs.length ? pairs.map(([a, b], i) => `  ${i}: ${set(a)} | ${set(b)}`) : ['  (no boundaries in this grid)']),
    '',
    'Physics note: pressure acts on the Gibbs energies only through molar-volume parameters of the database. Most',
    'TDB files have none; then every isobaric section is the same diagram and the surfaces run parallel to the',
    'pressure axis.',
    '',
  ].join('\n');
}

export function regionsPerPressure(comp: CptComputation): BinaryCptResult['regions_per_pressure'] {
  const [nX, nT, nP] = comp.dims;
  const out: BinaryCptResult['regions_per_pressure'] = [];
  for (let iP = 0; iP < nP; iP++) {
    const counts = new Map<string, number>();
    for (let n = iP * nX * nT; n < (iP + 1) * nX * nT; n++) {
      const l = comp.labels[n]!;
      const name = l >= 0 ? comp.phaseSets[l]! : 'not_converged';
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    out.push({
      P: comp.input.Ps[iP]!,
      regions: [...counts.entries()]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .map(([label, points]) => ({ label, points })),
    });
  }
  return out;
}
