// binary_equilibrium (service spec "task_type = binary_equilibrium", issue 6): the T-x phase diagram of
// a binary over the condition's temperature and composition ranges, mapped by worker/mapping/binary.ts
// (seed grid + continuation of every two-phase region in T; see the method comment there). Writes
// result/result.json (BinaryEquilibriumResult, worker/results/binary_equilibrium.ts), result/result.csv
// (the tie-lines) and preview/phase_diagram.svg/.png.
import { basename } from 'node:path';
import { openDatabase } from '../core/database.js';
import { mapBinary, type BinaryDiagram, type OrderDisorderOptions } from '../mapping/binary.js';
import { harmonizeSetNames } from '../plots/set-names.js';
import { binaryPhaseDiagram, type BoundaryInput, type RegionLabelInput } from '../plots/charts.js';
import {
  RESULT_VERSION, provenance, tableToCsv, writeResultFiles, type ResultTable,
} from '../results/common.js';
import { compositionAxis, regionBoundaries, type BinaryEquilibriumResult } from '../results/binary_equilibrium.js';

export { compositionAxis };
import type { CalculationJob, CalculationOutput, JobControl } from '../protocol.js';

interface BinaryInput {
  tdbFile: string;
  components: [string, string];
  xComponent: string;
  T: [number, number];
  X: [number, number];
  P: number;
  phases: string[] | undefined;
  orderDisorder: OrderDisorderOptions | undefined;
}

function num(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${what} must be a number`);
  return v;
}

/** Reads the (already validated) task_config; the axis as compositionAxis says. */
export function binaryInput(config: Record<string, unknown>): BinaryInput {
  const tdbFile = config.tdb_file;
  if (typeof tdbFile !== 'string' || !tdbFile) throw new Error('task_config.tdb_file is missing (the database file of the task)');
  const c = config.condition as Record<string, unknown> | undefined;
  if (!c || typeof c !== 'object') throw new Error('task_config.condition is required');
  const comps = Array.isArray(c.components) ? (c.components as unknown[]).map((s) => String(s).toUpperCase()) : [];
  if (comps.length !== 2 || comps[0] === comps[1]) throw new Error('condition.components must hold exactly 2 different components');
  const up = (o: unknown): Record<string, number> => Object.fromEntries(
    Object.entries((o ?? {}) as Record<string, unknown>).map(([k, v]) => [k.toUpperCase(), num(v, `composition of ${k}`)]));
  const s = up(c.compositions_start), e = up(c.compositions_end);
  for (const k of [...Object.keys(s), ...Object.keys(e)]) {
    if (!comps.includes(k)) throw new Error(`composition names ${k}, which is not one of condition.components`);
  }
  const { xComponent: xc, X } = compositionAxis([comps[0]!, comps[1]!], s, e);
  const T0 = num(c.temperature_start, 'condition.temperature_start'), T1 = num(c.temperature_end, 'condition.temperature_end');
  if (T0 === T1) throw new Error('condition.temperature_start and temperature_end must differ');
  const P = c.pressure === undefined ? 101325 : num(c.pressure, 'condition.pressure');
  const phases = Array.isArray(c.activated_phases) && c.activated_phases.length
    ? (c.activated_phases as unknown[]).map((p) => String(p).toUpperCase()) : undefined;
  const od = config.order_disorder as OrderDisorderOptions | undefined;
  return {
    tdbFile, components: [comps[0]!, comps[1]!], xComponent: xc,
    T: [Math.min(T0, T1), Math.max(T0, T1)], X, P, phases, orderDisorder: od,
  };
}

export function tielineTable(d: BinaryDiagram): ResultTable {
  const xc = d.xComponent;
  const rows: ResultTable['rows'] = [];
  d.regions.forEach((r, i) => {
    for (const t of r.tielines) rows.push([i + 1, r.phases.join('+'), t.T, r.phases[0], t.x[0], r.phases[1], t.x[1]]);
  });
  return {
    columns: [
      { name: 'region', unit: '' }, { name: 'phases', unit: '' }, { name: 'T', unit: 'K' },
      { name: 'phase_left', unit: '' }, { name: `X_left(${xc})`, unit: 'mole fraction' },
      { name: 'phase_right', unit: '' }, { name: `X_right(${xc})`, unit: 'mole fraction' },
    ],
    rows,
  };
}

/** One-line summary, e.g. "5 two-phase regions, 2 invariants (eutectic 654.0 K, ...), 1 critical point". */
export function diagramSummary(d: BinaryDiagram): string {
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const parts = [plural(d.regions.length, 'two-phase region')];
  const inv = d.invariants.map((v) => `${v.kind} ${v.T.toFixed(1)} K`);
  parts.push(`${plural(d.invariants.length, 'invariant')}${inv.length ? ` (${inv.join(', ')})` : ''}`);
  if (d.criticalPoints.length) parts.push(plural(d.criticalPoints.length, 'critical point'));
  if (d.congruentPoints.length) parts.push(plural(d.congruentPoints.length, 'congruent point'));
  if (d.tricriticalPoints.length) parts.push(plural(d.tricriticalPoints.length, 'tricritical point'));
  const lines = d.orderDisorder.secondOrderLines.length;
  if (lines) parts.push(plural(lines, 'second-order ordering line'));
  if (d.stats.notConverged) parts.push(`${d.stats.notConverged} of ${d.stats.equilibria} equilibria not converged`);
  return parts.join(', ');
}

export function diagramChart(d: BinaryDiagram): string {
  const boundaries: BoundaryInput[] = d.regions.flatMap((r) => regionBoundaries(r).map((b) => ({ phases: [...r.phases], points: b.points })));
  if (d.orderDisorder.options.plot_boundaries) {
    for (const l of d.orderDisorder.secondOrderLines) boundaries.push({ phases: [l.ordered, l.disordered], points: l.points, kind: 'second_order' });
  }
  for (const l of d.magneticLines) boundaries.push({ phases: [l.phase, l.phase], points: l.points, kind: 'magnetic' });
  // single-phase fields at the mapping's anchors; two-phase regions at their middle tie-line, with the middles of
  // the others as further positions (label placement: worker/plots/labels.ts)
  const labels: RegionLabelInput[] = d.singlePhaseLabels.map((l) => ({ ...l }));
  for (const r of d.regions) {
    const t = r.tielines[Math.floor(r.tielines.length / 2)];
    if (!t) continue;
    const byWidth = [...r.tielines].sort((a, b) => (b.x[1] - b.x[0]) - (a.x[1] - a.x[0]));
    labels.push({ x: (t.x[0] + t.x[1]) / 2, T: t.T, label: `${r.phases[0]} + ${r.phases[1]}`,
      inside: byWidth.filter((_, k) => k % 3 === 0).map((q) => ({ x: (q.x[0] + q.x[1]) / 2, T: q.T })) });
  }
  return binaryPhaseDiagram({
    // the x-axis component last: an A-B diagram is drawn against x(B)
    title: `${d.components.find((c) => c !== d.xComponent) ?? d.components[0]}-${d.xComponent} phase diagram, P = ${d.P} Pa`,
    boundaries,
    tieLines: d.regions.flatMap((r) => r.tielines.filter((_, k) => k % 4 === 2).map((t) => ({ T: t.T, x: t.x, phases: r.phases }))),
    invariants: d.invariants.map((v) => ({ T: v.T, phases: v.phases.map((p) => p.name), x: v.phases.map((p) => p.x), kind: v.kind })),
    regionLabels: labels,
    xLabel: `Mole fraction ${d.xComponent}`,
    yLabel: 'Temperature (K)',
    xRange: d.X,
    TRange: d.T,
    celsiusAxis: true,
  });
}

export function diagramDocument(d: BinaryDiagram, config: Record<string, unknown>,
  prov: BinaryEquilibriumResult['provenance']): BinaryEquilibriumResult {
  return {
    version: RESULT_VERSION, task_type: 'binary_equilibrium', provenance: prov, config,
    components: d.components, x_component: d.xComponent, temperature_range: d.T, composition_range: d.X,
    two_phase_regions: d.regions.map((r) => ({ phases: r.phases, tielines: r.tielines, ends: r.ends })),
    invariants: d.invariants,
    critical_points: d.criticalPoints,
    congruent_points: d.congruentPoints,
    tricritical_points: d.tricriticalPoints,
    single_phase_regions: d.singlePhaseLabels,
    pure_element_transitions: d.pureTransitions,
    magnetic_lines: d.magneticLines,
    boundaries: d.regions.flatMap(regionBoundaries),
    order_disorder: {
      options: d.orderDisorder.options, phases: d.orderDisorder.phases,
      second_order_lines: d.orderDisorder.secondOrderLines, notes: d.orderDisorder.notes,
    },
    statistics: { equilibria: d.stats.equilibria, not_converged: d.stats.notConverged, wall_time_s: d.stats.seconds },
    table: tielineTable(d),
  };
}

export function run(job: CalculationJob, control: JobControl): CalculationOutput {
  const inp = binaryInput(job.config);
  const db = openDatabase(inp.tdbFile);
  // one name per composition set in regions, invariants and labels (worker/plots/set-names.ts)
  const d = harmonizeSetNames(mapBinary({
    database: db, components: inp.components, xComponent: inp.xComponent, phases: inp.phases,
    T: inp.T, X: inp.X, P: inp.P, threads: job.ompThreads, control, orderDisorder: inp.orderDisorder,
  }));
  // config keeps the file name of the database, not the server's path (as point_calculation does)
  const config = { ...job.config, tdb_file: basename(inp.tdbFile) };
  const doc = diagramDocument(d, config, provenance(inp.tdbFile, job.database?.code ?? null, job.database?.sha256));
  writeResultFiles(job.taskDir, { json: doc, csv: tableToCsv(doc.table), previews: { phase_diagram: diagramChart(d) } });
  const logs = [
    `mapped ${inp.components.join('-')} over T ${inp.T[0]}-${inp.T[1]} K, X(${inp.xComponent}) ${inp.X[0]}-${inp.X[1]}: ` +
    `${d.stats.equilibria} equilibria in ${d.stats.seconds.toFixed(2)} s`,
    ...d.orderDisorder.notes.map((n) => `order/disorder: ${n}`),
    ...d.logs,
  ];
  return { summary: diagramSummary(d), logs };
}
