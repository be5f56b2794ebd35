// binary_equilibrium (service spec "task_type = binary_equilibrium"): the T-x phase diagram of
// a binary over the condition's temperature and composition ranges, mapped by worker/mapping/binary.ts
// (seed grid + continuation of every two-phase region in T; see the method comment there). Writes
// result/result.json (BinaryEquilibriumResult, contract/results/binary_equilibrium.ts), result/result.csv
// (the tie-lines) and preview/phase_diagram.svg/.png.
import { elementSymbol, pressureText, systemName } from '../../contract/plots/names.js';
import { basename } from 'node:path';
import { RESULT_VERSION, tableToCsv, type ResultTable } from '../../contract/results/common.js';
import { openDatabase } from '../core/database.js';
import { mapBinary, type BinaryDiagram, type OrderDisorderOptions } from '../mapping/binary.js';
import { convergenceWarning, failIfNothingConverged, type GridFailures } from '../mapping/nothing-converged.js';
import { spinodalsInGaps } from '../mapping/spinodal/in-gaps.js';
import { harmonizeSetNames } from '../plots/set-names.js';
import { binaryPhaseDiagram, type BoundaryInput, type RegionLabelInput } from '../plots/charts.js';
import type { TemperatureUnit } from '../plots/panel.js';
import { provenance, writeResultFiles } from '../results/common.js';
import { namerOf, withBinaryDisplay } from '../results/display-names.js';
import type { DisplayNamer } from '../../contract/plots/phase-names.js';
import {
  compositionAxis,
  regionBoundaries,
  type BinaryEquilibriumResult,
  type GapSpinodal,
  type MassPoint,
  type NotConvergedNode,
} from '../../contract/results/binary_equilibrium.js';
import { binaryMassConverter, elementMasses, type CompositionUnit, type MassConverter } from '../system/units.js';
import { selectPhases } from '../system/phase-selection.js';
import { selectionRequest } from '../system/system.js';

export { compositionAxis };
import type { CalculationConfig, CalculationOutput, JobControl, TaskJob } from '../protocol.js';

interface BinaryInput {
  tdbFile: string;
  components: [string, string];
  xComponent: string;
  T: [number, number];
  X: [number, number];
  P: number;
  orderDisorder: OrderDisorderOptions | undefined;
  unit: CompositionUnit;
}

/**
 * The mapping input of a task; the axis as compositionAxis says (the schema guarantees the shapes and bounds). With
 * composition_unit mass_fraction the maps are mass fractions: the axis range is converted to the mole fractions the
 * mapping runs in with `masses` (g/mol by element, the database's ELEMENT lines).
 */
export function binaryInput(
  config: CalculationConfig<'binary_equilibrium'>,
  masses?: Record<string, number>,
): BinaryInput {
  const c = config.condition;
  const comps = c.components.map((s) => s.toUpperCase());
  if (comps[0] === comps[1]) throw new Error('condition.components must hold exactly 2 different components');
  const up = (o: Record<string, number>): Record<string, number> =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k.toUpperCase(), v]));
  const s = up(c.compositions_start),
    e = up(c.compositions_end);
  const unit = c.composition_unit ?? 'mole_fraction';
  const axis = compositionAxis([comps[0]!, comps[1]!], s, e);
  const xc = axis.xComponent;
  let X = axis.X;
  if (unit === 'mass_fraction') {
    const toMole = binaryMassConverter(
      xc,
      comps.find((k) => k !== xc) ?? xc,
      masses,
      'condition.composition_unit mass_fraction',
    );
    X = [toMole.toX(X[0]), toMole.toX(X[1])];
  }
  const T0 = c.temperature_start,
    T1 = c.temperature_end;
  return {
    tdbFile: config.tdb_file,
    components: [comps[0]!, comps[1]!],
    xComponent: xc,
    T: [Math.min(T0, T1), Math.max(T0, T1)],
    X,
    P: c.pressure,
    orderDisorder: config.order_disorder,
    unit,
  };
}

/** The mass converter of a mapped diagram (undefined when an element has no positive molar mass). */
export function diagramMassConverter(
  d: Pick<BinaryDiagram, 'components' | 'xComponent'>,
  masses: Record<string, number>,
): MassConverter | undefined {
  return binaryMassConverter(d.xComponent, d.components.find((k) => k !== d.xComponent) ?? d.xComponent, masses);
}

/** The diagram with every composition mapped by f (the preview in mass fractions draws this copy). */
function mapCompositions(d: BinaryDiagram, f: (x: number) => number): BinaryDiagram {
  const pt = <P extends { x: number }>(p: P): P => ({ ...p, x: f(p.x) });
  return {
    ...d,
    X: [f(d.X[0]), f(d.X[1])],
    regions: d.regions.map((r) => ({
      ...r,
      tielines: r.tielines.map((t) => ({ ...t, x: [f(t.x[0]), f(t.x[1])] as [number, number] })),
    })),
    invariants: d.invariants.map((v) => ({ ...v, phases: v.phases.map(pt) })),
    criticalPoints: d.criticalPoints.map(pt),
    congruentPoints: d.congruentPoints.map(pt),
    tricriticalPoints: d.tricriticalPoints.map(pt),
    pureTransitions: d.pureTransitions.map(pt),
    singlePhaseLabels: d.singlePhaseLabels.map(pt),
    magneticLines: d.magneticLines.map((l) => ({ ...l, points: l.points.map(pt) })),
    orderDisorder: {
      ...d.orderDisorder,
      secondOrderLines: d.orderDisorder.secondOrderLines.map((l) => ({ ...l, points: l.points.map(pt) })),
    },
  };
}

/** The tie-lines, with their ends as mass fractions too when `mass` is given. */
export function tielineTable(d: BinaryDiagram, mass?: MassConverter): ResultTable {
  const xc = d.xComponent;
  const rows: ResultTable['rows'] = [];
  d.regions.forEach((r, i) => {
    for (const t of r.tielines) {
      rows.push([
        i + 1,
        r.phases.join('+'),
        t.T,
        r.phases[0],
        t.x[0],
        r.phases[1],
        t.x[1],
        ...(mass ? [mass.toW(t.x[0]), mass.toW(t.x[1])] : []),
      ]);
    }
  });
  return {
    columns: [
      { name: 'region', unit: '' },
      { name: 'phases', unit: '' },
      { name: 'T', unit: 'K' },
      { name: 'phase_left', unit: '' },
      { name: `X_left(${xc})`, unit: 'mole fraction' },
      { name: 'phase_right', unit: '' },
      { name: `X_right(${xc})`, unit: 'mole fraction' },
      ...(mass
        ? [
            { name: `W_left(${xc})`, unit: 'mass fraction' },
            { name: `W_right(${xc})`, unit: 'mass fraction' },
          ]
        : []),
    ],
    rows,
  };
}

/** The seed grid's nodes whose equilibrium did not converge (label ''), as (T, x), marked where none exists. */
export function notConvergedNodes(d: Pick<BinaryDiagram, 'grid'>): NotConvergedNode[] {
  const { T, X, labels } = d.grid;
  const none = new Set(d.grid.noEquilibrium);
  return labels.flatMap((l, k) =>
    l === ''
      ? [
          {
            T: T[Math.floor(k / X.length)]!,
            x: X[k % X.length]!,
            ...(none.has(k) ? { no_equilibrium: true as const } : {}),
          },
        ]
      : [],
  );
}

/** The counts of the seed grid's nodes without an equilibrium (`failed`: notConvergedNodes of the diagram). */
function gridFailures(failed: readonly NotConvergedNode[], d: Pick<BinaryDiagram, 'grid'>): GridFailures {
  const none = failed.filter((n) => n.no_equilibrium).length;
  return { nodes: d.grid.labels.length, notConverged: failed.length - none, noEquilibrium: none };
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

/**
 * The preview: composition axis in mole fraction, or in mass percent for composition_unit mass_fraction (`mass`
 * then converts every composition of the diagram).
 */
export function diagramChart(
  diagram: BinaryDiagram,
  unit: CompositionUnit = 'mole_fraction',
  mass?: MassConverter,
  temperatureUnit?: TemperatureUnit,
  spinodals: readonly GapSpinodal[] = [],
  phaseNames?: DisplayNamer,
): string {
  const inMass = unit === 'mass_fraction' && mass !== undefined;
  const failed = notConvergedNodes(diagram);
  const d = inMass ? mapCompositions(diagram, (x) => 100 * mass.toW(x)) : diagram;
  const onAxis = (x: number) => (inMass ? 100 * mass.toW(x) : x);
  const boundaries: BoundaryInput[] = d.regions.flatMap((r) =>
    regionBoundaries(r).map((b) => ({ phases: [...r.phases], points: b.points })),
  );
  if (d.orderDisorder.options.plot_boundaries) {
    for (const l of d.orderDisorder.secondOrderLines)
      boundaries.push({ phases: [l.ordered, l.disordered], points: l.points, kind: 'second_order' });
  }
  for (const l of d.magneticLines) boundaries.push({ phases: [l.phase, l.phase], points: l.points, kind: 'magnetic' });
  // each spinodal as one dome: the low branch up the gap's tie-line temperatures, the high branch back down
  for (const s of spinodals) {
    const low = s.points.map((p) => ({ T: p.T, x: onAxis(p.x[0]) }));
    const high = [...s.points].reverse().map((p) => ({ T: p.T, x: onAxis(p.x[1]) }));
    boundaries.push({ phases: [s.phase, s.phase], points: [...low, ...high], kind: 'spinodal' });
  }
  // single-phase fields at the mapping's anchors; two-phase regions at their middle tie-line, with the middles of
  // the others as further positions (label placement: contract/plots/labels.ts)
  const labels: RegionLabelInput[] = d.singlePhaseLabels.map((l) => ({ ...l }));
  for (const r of d.regions) {
    const t = r.tielines[Math.floor(r.tielines.length / 2)];
    if (!t) continue;
    const byWidth = [...r.tielines].sort((a, b) => b.x[1] - b.x[0] - (a.x[1] - a.x[0]));
    labels.push({
      x: (t.x[0] + t.x[1]) / 2,
      T: t.T,
      label: `${r.phases[0]} + ${r.phases[1]}`,
      inside: byWidth.filter((_, k) => k % 3 === 0).map((q) => ({ x: (q.x[0] + q.x[1]) / 2, T: q.T })),
    });
  }
  return binaryPhaseDiagram({
    // the x-axis component last: an A-B diagram is drawn against x(B)
    title: `${systemName([d.components.find((c) => c !== d.xComponent) ?? d.components[0]!, d.xComponent])} phase diagram, P = ${pressureText(d.P)}`,
    boundaries,
    tieLines: d.regions.flatMap((r) =>
      r.tielines.filter((_, k) => k % 4 === 2).map((t) => ({ T: t.T, x: t.x, phases: r.phases })),
    ),
    invariants: d.invariants.map((v) => ({
      T: v.T,
      phases: v.phases.map((p) => p.name),
      x: v.phases.map((p) => p.x),
      kind: v.kind,
    })),
    regionLabels: labels,
    xLabel: inMass ? `Mass percent ${elementSymbol(d.xComponent)}` : `Mole fraction ${elementSymbol(d.xComponent)}`,
    yLabel: 'Temperature (K)',
    xRange: d.X,
    TRange: d.T,
    celsiusAxis: true,
    temperatureUnit,
    notConverged: failed.map((n) => ({ T: n.T, x: onAxis(n.x), none: n.no_equilibrium })),
    warning: convergenceWarning(gridFailures(failed, diagram))?.message,
    phaseNames,
  });
}

export function diagramDocument(
  d: BinaryDiagram,
  config: Record<string, unknown>,
  base: Pick<BinaryEquilibriumResult, 'provenance' | 'phase_selection'>,
  unit: CompositionUnit = 'mole_fraction',
  mass?: MassConverter,
): BinaryEquilibriumResult {
  const failed = notConvergedNodes(d);
  const warning = convergenceWarning(gridFailures(failed, d));
  const doc: BinaryEquilibriumResult = {
    version: RESULT_VERSION,
    task_type: 'binary_equilibrium',
    provenance: base.provenance,
    config,
    phase_selection: base.phase_selection,
    components: d.components,
    x_component: d.xComponent,
    temperature_range: d.T,
    composition_range: d.X,
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
      options: d.orderDisorder.options,
      phases: d.orderDisorder.phases,
      second_order_lines: d.orderDisorder.secondOrderLines,
      notes: d.orderDisorder.notes,
    },
    statistics: { equilibria: d.stats.equilibria, not_converged: d.stats.notConverged, wall_time_s: d.stats.seconds },
    ...(failed.length ? { not_converged_nodes: failed } : {}),
    ...(warning ? { convergence_warning: warning } : {}),
    // the W columns for a diagram asked in mass fractions (a mole-fraction diagram keeps the spec's columns)
    table: tielineTable(d, unit === 'mass_fraction' ? mass : undefined),
    composition_unit: unit,
  };
  return mass ? withMassFractions(doc, mass) : doc;
}

/** Every composition of the document with its mass fraction w beside x. */
function withMassFractions(doc: BinaryEquilibriumResult, mass: MassConverter): BinaryEquilibriumResult {
  const w = <P extends { x: number }>(p: P): P & MassPoint => ({ ...p, w: mass.toW(p.x) }) as P & MassPoint;
  const line = <L extends { points: { T: number; x: number }[] }>(l: L): L => ({ ...l, points: l.points.map(w) });
  return {
    ...doc,
    molar_masses: mass.masses,
    composition_range_w: [mass.toW(doc.composition_range[0]), mass.toW(doc.composition_range[1])],
    two_phase_regions: doc.two_phase_regions.map((r) => ({
      ...r,
      tielines: r.tielines.map((t) => ({ ...t, w: [mass.toW(t.x[0]), mass.toW(t.x[1])] as [number, number] })),
    })),
    invariants: doc.invariants.map((v) => ({ ...v, phases: v.phases.map(w) })),
    critical_points: doc.critical_points.map(w),
    congruent_points: doc.congruent_points.map(w),
    tricritical_points: doc.tricritical_points?.map(w),
    single_phase_regions: doc.single_phase_regions.map(w),
    pure_element_transitions: doc.pure_element_transitions.map(w),
    not_converged_nodes: doc.not_converged_nodes?.map(w),
    magnetic_lines: doc.magnetic_lines?.map(line),
    boundaries: doc.boundaries.map(line),
    order_disorder: { ...doc.order_disorder, second_order_lines: doc.order_disorder.second_order_lines.map(line) },
  };
}

/** The spinodal inside the diagram's miscibility gaps (config spinodal: true), with its time. */
function gapSpinodals(db: ReturnType<typeof openDatabase>, inp: BinaryInput, d: BinaryDiagram) {
  const t0 = performance.now();
  const components = withVacancy(db, inp.components);
  const spinodals = spinodalsInGaps({ db, components, P: inp.P }, [otherElement(inp), inp.xComponent], d.regions);
  return { spinodals, seconds: (performance.now() - t0) / 1000 };
}

/** The solver's components: the elements, and VA when the database defines it. */
function withVacancy(db: ReturnType<typeof openDatabase>, elements: string[]): string[] {
  return db.info().elements.some((e) => e.name.toUpperCase() === 'VA') ? [...elements, 'VA'] : elements;
}

/** The element of the diagram that is not on its composition axis. */
function otherElement(inp: { components: string[]; xComponent: string }): string {
  return inp.components.find((c) => c !== inp.xComponent && c !== 'VA')!;
}

export function run(job: TaskJob<'binary_equilibrium'>, control: JobControl): CalculationOutput {
  const db = openDatabase(job.config.tdb_file);
  const masses = elementMasses(db.info().elements);
  const inp = binaryInput(job.config, masses);
  const sel = selectPhases(db, inp.components, selectionRequest(job, job.config.condition), basename(inp.tdbFile));
  // one name per composition set in regions, invariants and labels (worker/plots/set-names.ts)
  const d = harmonizeSetNames(
    mapBinary({
      database: db,
      components: inp.components,
      xComponent: inp.xComponent,
      phases: sel.phases,
      T: inp.T,
      X: inp.X,
      P: inp.P,
      threads: job.ompThreads,
      control,
      orderDisorder: inp.orderDisorder,
    }),
  );
  failIfNothingConverged('diagram', d.stats, d.logs);
  // config keeps the file name of the database, not the server's path (as point_calculation does)
  const config = { ...job.config, tdb_file: basename(inp.tdbFile) };
  const mass = diagramMassConverter(d, masses);
  const doc = diagramDocument(
    d,
    config,
    {
      provenance: provenance(inp.tdbFile, job.database?.code ?? null, job.database?.sha256),
      phase_selection: sel.record,
    },
    inp.unit,
    mass,
  );
  const gap = job.config.spinodal ? gapSpinodals(db, inp, d) : undefined;
  const spinodals = gap?.spinodals;
  if (spinodals)
    doc.spinodals = mass
      ? spinodals.map((g) => ({
          ...g,
          points: g.points.map((t) => ({ ...t, w: [mass.toW(t.x[0]), mass.toW(t.x[1])] as [number, number] })),
        }))
      : spinodals;
  const namer = namerOf(job);
  writeResultFiles(job.taskDir, {
    json: withBinaryDisplay(doc, namer),
    csv: tableToCsv(doc.table),
    previews: {
      phase_diagram: diagramChart(d, inp.unit, mass, job.config.preview_temperature_unit, spinodals, namer),
    },
  });
  const logs = [
    ...sel.logs,
    `mapped ${inp.components.join('-')} over T ${inp.T[0]}-${inp.T[1]} K, X(${inp.xComponent}) ${inp.X[0]}-${inp.X[1]}: ` +
      `${d.stats.equilibria} equilibria in ${d.stats.seconds.toFixed(2)} s`,
    ...(spinodals
      ? [
          `spinodal of ${spinodals.map((s) => `${s.phase} (${s.points.length} tie-lines)`).join(', ') || 'no miscibility gap'} in ${gap!.seconds.toFixed(3)} s`,
        ]
      : []),
    ...d.orderDisorder.notes.map((n) => `order/disorder: ${n}`),
    ...d.logs,
  ];
  const warning = doc.convergence_warning?.message;
  return { summary: warning ? `${diagramSummary(d)}; ${warning}` : diagramSummary(d), logs };
}
