// spinodal_decomposition: the chemical spinodal of one phase of a binary over a temperature range, the limit of
// stability of a homogeneous solution against infinitesimal composition fluctuations, d2G_m/dx2 = 0 (Cahn and
// Hilliard, J. Chem. Phys. 28 (1958) 258); the coherent spinodal where the fluctuation keeps the lattice coherent and
// pays the strain energy 2 eta^2 Y V_m, Y = (c11 + 2 c12)(c11 - c12)/c11 in the soft <100> directions of a cubic
// crystal (Cahn, Acta Metall. 9 (1961) 795); the phase's miscibility gap (the phase alone with two composition sets)
// and the critical points where the branches meet. A regular solution gives T_c = Omega / 2R and x(1 - x) = RT /
// 2 Omega on the spinodal (test/calculations/spinodal.test.ts).
import { basename } from 'node:path';
import { elementSymbol, systemName } from '../../contract/plots/names.js';
import { tableToCsv, type ResultTable } from '../../contract/results/common.js';
import type {
  CriticalPoint,
  GapPoint,
  SpinodalDecompositionDocument,
} from '../../contract/results/spinodal_decomposition.js';
import {
  SPINODAL_DEFAULT_COMPOSITION_POINTS,
  SPINODAL_DEFAULT_TEMPERATURE_POINTS,
} from '../../contract/tasks/spinodal_decomposition.js';
import { equilibrium } from '../core/equilibrium.js';
import { PhaseModel } from '../core/models.js';
import { binaryPhaseDiagram, type BoundaryInput } from '../plots/charts.js';
import { CancelledError, type CalculationOutput, type JobControl, type TaskJob } from '../protocol.js';
import { documentBase } from '../results/document.js';
import { writeResultFiles } from '../results/common.js';
import { openSystem } from '../system/system.js';
import { Curvature } from '../mapping/spinodal/curvature.js';
import { modulus100 } from '../mapping/spinodal/determinant.js';
import { compositionGrid, criticalPoint, negativeIntervals, type CurveFn } from '../mapping/spinodal/gaps.js';

type Condition = TaskJob<'spinodal_decomposition'>['config']['condition'];

/** Y of the <100> directions and the strain energy of a coherent composition wave (Cahn 1961), or null. */
function elasticTerm(c: Condition['coherent']) {
  if (!c) return null;
  const modulus = modulus100(c);
  return { modulus_100: modulus, strain_energy: 2 * c.lattice_mismatch ** 2 * modulus * c.molar_volume };
}

/** The gaps of each temperature and the critical points where a gap closes between two temperatures. */
function traceGaps(
  at: (T: number) => CurveFn,
  temperatures: number[],
  n: number,
  control: JobControl,
  progress: [number, number],
) {
  const grid = compositionGrid(n);
  const perT: [number, number][][] = [];
  temperatures.forEach((T, i) => {
    if (control.cancelled) throw new CancelledError();
    const f = at(T);
    perT.push(negativeIntervals(f, grid, grid.map(f)));
    control.setProgress(progress[0] + ((progress[1] - progress[0]) * (i + 1)) / temperatures.length);
  });
  const critical: { T: number; x: number }[] = [];
  const points: GapPoint[] = perT.flatMap((gaps, i) => gaps.map((x) => ({ T: temperatures[i]!, x })));
  for (let i = 0; i + 1 < temperatures.length; i++)
    for (const gap of perT[i]!) {
      const continues = perT[i + 1]!.some(([a, b]) => a < gap[1] && b > gap[0]);
      if (continues) continue;
      const top = criticalPoint(at, temperatures[i]!, temperatures[i + 1]!, gap);
      critical.push(top);
      points.push(...nearTop(at, temperatures[i]!, top, gap));
    }
  points.sort((a, b) => a.T - b.T || a.x[0] - b.x[0]);
  return { points, critical };
}

/**
 * The gap at temperatures between the last grid temperature below a critical point and the critical point, closer
 * and closer to it: the branches meet there with a vertical tangent, which a uniform grid would cut off.
 */
function nearTop(at: (T: number) => CurveFn, below: number, top: { T: number; x: number }, gap: [number, number]) {
  const out: GapPoint[] = [];
  const grid = compositionGrid(81).map((u) => gap[0] + (gap[1] - gap[0]) * (u * 1.5 - 0.25));
  for (const f of [0.6, 0.3, 0.12, 0.04, 0.01]) {
    const T = top.T - (top.T - below) * f;
    const fn = at(T);
    const inside = grid.filter((x) => x > 0 && x < 1);
    const found = negativeIntervals(fn, inside, inside.map(fn)).filter(([a, b]) => a <= top.x && b >= top.x);
    for (const x of found) out.push({ T, x });
  }
  return out;
}

/** The miscibility gap of the phase alone at each temperature of the chemical spinodal (two composition sets). */
function binodal(
  sys: ReturnType<typeof openSystem>,
  phase: string,
  axis: [string, string],
  P: number,
  spinodal: GapPoint[],
): GapPoint[] {
  const out: GapPoint[] = [];
  for (const s of spinodal) {
    const r = equilibrium({
      database: sys.db,
      components: sys.components,
      phases: [phase],
      conditions: { T: s.T, P, X: { [axis[1]]: 0.5 * (s.x[0] + s.x[1]) } },
    });
    const sets = r.converged ? r.phases.filter((p) => p.name === phase) : [];
    if (sets.length !== 2) continue;
    const xs = sets.map((p) => p.x[axis[1]] ?? 0).sort((a, b) => a - b) as [number, number];
    if (xs[1] - xs[0] > 1e-6) out.push({ T: s.T, x: xs });
  }
  return out;
}

export function run(job: TaskJob<'spinodal_decomposition'>, control: JobControl): CalculationOutput {
  if (control.cancelled) throw new CancelledError();
  const cond = job.config.condition;
  const sys = openSystem(job, cond);
  const phase = cond.phase.toUpperCase();
  const els = sys.elements;
  const B = (cond.x_component ?? els[1]!).toUpperCase();
  const axis: [string, string] = [els.find((e) => e !== B)!, B];
  if (sys.phases && !sys.phases.includes(phase))
    throw new Error(
      `condition.phase: ${phase} is not among the phases of the calculation (activated_phases, inhibit_phases)`,
    );
  const model = PhaseModel.build(sys.db, phase, sys.components);
  if (!model) throw new Error(`condition.phase: ${phase} cannot form from ${els.join(', ')}`);
  const P = cond.pressure;
  const nT = cond.temperature_points ?? SPINODAL_DEFAULT_TEMPERATURE_POINTS;
  const temperatures = Array.from(
    { length: nT },
    (_, i) => cond.temperature_start + ((cond.temperature_end - cond.temperature_start) * i) / (nT - 1),
  );
  const nX = cond.composition_points ?? SPINODAL_DEFAULT_COMPOSITION_POINTS;
  const curvature = new Curvature({ db: sys.db, components: sys.components, model, axis, P });
  const elastic = elasticTerm(cond.coherent);
  const chemical = traceGaps((T) => (x) => curvature.at(T, x), temperatures, nX, control, [0, 0.6]);
  const coherent = elastic
    ? traceGaps((T) => (x) => curvature.at(T, x) + elastic.strain_energy, temperatures, nX, control, [0.6, 0.85])
    : null;
  const gap = binodal(sys, phase, axis, P, chemical.points);
  const critical_points: CriticalPoint[] = [
    ...chemical.critical.map((c) => ({ ...c, kind: 'chemical' as const })),
    ...(coherent?.critical ?? []).map((c) => ({ ...c, kind: 'coherent' as const })),
  ];
  const notes = gapNotes(chemical.points, temperatures, critical_points);
  const doc: SpinodalDecompositionDocument = {
    ...documentBase(job, 'spinodal_decomposition', sys),
    phase,
    components: [...axis],
    x_component: B,
    pressure: P,
    temperatures,
    chemical_spinodal: chemical.points,
    coherent_spinodal: coherent?.points ?? null,
    binodal: gap,
    critical_points,
    elastic,
    table: spinodalTable(chemical.points, gap, coherent?.points ?? null),
    notes,
  };
  const title = `Spinodal of ${phase}, ${systemName(axis)}, ${basename(sys.tdbFile)}`;
  const files = writeResultFiles(job.taskDir, {
    json: doc,
    csv: tableToCsv(doc.table),
    previews: { spinodal: spinodalPreview(doc, title, job.config.preview_temperature_unit) },
  });
  const top = critical_points.filter((c) => c.kind === 'chemical');
  return {
    summary:
      `${phase}: chemical spinodal at ${new Set(chemical.points.map((p) => p.T)).size} temperatures in ${cond.temperature_start}-${cond.temperature_end} K` +
      (top.length
        ? `, critical point${top.length > 1 ? 's' : ''} ${top.map((c) => `${c.T.toFixed(2)} K at x(${B}) = ${c.x.toFixed(4)}`).join(', ')}`
        : ''),
    logs: [
      ...sys.logs,
      `curvature evaluations: ${curvature.evaluations}`,
      ...notes.map((m) => `note: ${m}`),
      `written ${files.join(', ')}`,
    ],
  };
}

/** What the document cannot show: no spinodal in the range, or a gap still open at its top. */
function gapNotes(points: GapPoint[], temperatures: number[], critical: CriticalPoint[]): string[] {
  const notes: string[] = [];
  const top = temperatures[temperatures.length - 1]!;
  if (points.length === 0)
    notes.push('no spinodal in the temperature range: the phase is stable against every composition fluctuation there');
  else if (points.some((p) => p.T === top) && critical.every((c) => c.kind !== 'chemical' || c.T < top))
    notes.push(`a spinodal gap is still open at ${top} K: its critical point lies above the temperature range`);
  return notes;
}

function spinodalTable(spinodal: GapPoint[], gap: GapPoint[], coherent: GapPoint[] | null): ResultTable {
  const cols = [
    { name: 'T', unit: 'K' },
    { name: 'x_spinodal_low', unit: '-' },
    { name: 'x_spinodal_high', unit: '-' },
    { name: 'x_binodal_low', unit: '-' },
    { name: 'x_binodal_high', unit: '-' },
  ];
  if (coherent) cols.push({ name: 'x_coherent_low', unit: '-' }, { name: 'x_coherent_high', unit: '-' });
  const inside = (list: GapPoint[] | null, s: GapPoint) =>
    list?.find((g) => g.T === s.T && g.x[0] <= s.x[1] && g.x[1] >= s.x[0]) ?? null;
  return {
    columns: cols,
    rows: spinodal.map((s) => {
      const b = inside(gap, s),
        c = inside(coherent, s);
      const row: (number | null)[] = [s.T, s.x[0], s.x[1], b?.x[0] ?? null, b?.x[1] ?? null];
      if (coherent) row.push(c?.x[0] ?? null, c?.x[1] ?? null);
      return row;
    }),
  };
}

/** One closed curve per gap: the low branch up to the critical point, the high branch back down. */
function domes(points: GapPoint[], critical: CriticalPoint[]): BoundaryInput['points'][] {
  if (points.length === 0) return [];
  const low = points.map((p) => ({ x: p.x[0], T: p.T }));
  const high = points.map((p) => ({ x: p.x[1], T: p.T })).reverse();
  const tops = critical.map((c) => ({ x: c.x, T: c.T }));
  return [[...low, ...tops, ...high]];
}

export function spinodalPreview(
  doc: SpinodalDecompositionDocument,
  title: string,
  unit?: 'kelvin' | 'celsius',
): string {
  const chemicalTop = doc.critical_points.filter((c) => c.kind === 'chemical');
  const boundaries: BoundaryInput[] = [
    ...domes(doc.binodal, chemicalTop).map((points) => ({ points, phases: [doc.phase, `${doc.phase}#2`] })),
    ...domes(doc.chemical_spinodal, chemicalTop).map((points) => ({ points, kind: 'spinodal' as const })),
    ...domes(
      doc.coherent_spinodal ?? [],
      doc.critical_points.filter((c) => c.kind === 'coherent'),
    ).map((points) => ({ points, kind: 'coherent_spinodal' as const })),
  ];
  return binaryPhaseDiagram({
    title,
    boundaries,
    xLabel: `Mole fraction ${elementSymbol(doc.x_component)}`,
    TRange: [doc.temperatures[0]!, doc.temperatures[doc.temperatures.length - 1]!],
    temperatureUnit: unit,
    regionLabels: chemicalTop.map((c) => ({
      x: c.x,
      T: c.T * 0.9 + doc.temperatures[0]! * 0.1,
      label: `${doc.phase} + ${doc.phase}#2`,
    })),
  });
}
