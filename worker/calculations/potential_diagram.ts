// potential_diagram (an extension): the stable phases over the potential of one element against the temperature, or
// against the potential of a second element at one temperature (contract/tasks/potential_diagram.ts). An activity a
// against the element's reference state holds mu = G_ref(T, P) + RT ln a, so along the temperature axis the potential
// follows the reference while log10 a stays (as a point's activity condition does). With the reference state of
// oxygen the gas at 1 atm, log10 a(O) is half of log10 p(O2)/atm (mu_O2 = 2 mu_O for an ideal gas of O2 molecules).
// The map: worker/mapping/potential/grid.ts.
import { basename } from 'node:path';
import { elementSymbol, systemName } from '../../contract/plots/names.js';
import { GAS_CONSTANT, tableToCsv, type ResultTable } from '../../contract/results/common.js';
import type { PotentialAxis, PotentialDiagramDocument } from '../../contract/results/potential_diagram.js';
import { heldAxisElements, POTENTIAL_DEFAULT_GRID_POINTS } from '../../contract/tasks/potential_diagram.js';
import type { EquilibriumConditions } from '../core/equilibrium.js';
import { resultStateLabels, StateLabeller } from '../mapping/core/labels.js';
import { convergenceWarning } from '../mapping/nothing-converged.js';
import { linspace, mapPotentials, type PotentialMap } from '../mapping/potential/grid.js';
import { binaryPhaseDiagram } from '../plots/charts.js';
import { previewTemperatureUnit } from '../plots/panel.js';
import { CancelledError, type CalculationOutput, type JobControl, type TaskJob } from '../protocol.js';
import { writeResultFiles } from '../results/common.js';
import { documentBase } from '../results/document.js';
import { namerOf } from '../results/display-names.js';
import { displayFieldLabel } from '../../contract/plots/phase-names.js';
import { ThermoExtras } from '../results/thermo-extra.js';
import { ChunkedSolver } from '../scans/chunked-solver.js';
import { openSystem, resolveCompositions, type CalcSystem } from '../system/system.js';

type Condition = TaskJob<'potential_diagram'>['config']['condition'];
type AxisConfig = Condition['x_axis'];

const LN10 = Math.log(10);

function axisLabel(a: AxisConfig, reference: string | null): string {
  if (a.quantity === 'temperature') return 'Temperature (K)';
  const el = elementSymbol(a.element!);
  return a.quantity === 'chemical_potential'
    ? `μ(${el}) (J/mol)`
    : `log10 a(${el})${reference && reference !== 'SER' ? `, reference ${reference}` : ''}`;
}

function axisRecord(a: AxisConfig, extras: ThermoExtras): PotentialAxis {
  const element = a.quantity === 'temperature' ? null : a.element!.toUpperCase();
  const reference = element && a.quantity === 'log10_activity' ? (extras.references[element] ?? null) : null;
  return {
    quantity: a.quantity,
    element,
    reference_state: reference,
    range: [a.start, a.end],
    label: axisLabel(a, reference),
  };
}

/** The solver's conditions at a node: T from the x axis or the condition, each held element's mu from its axis. */
function conditionsOf(cond: Condition, sys: CalcSystem, extras: ThermoExtras) {
  const held = heldAxisElements(cond).map((e) => e.toUpperCase());
  const free = sys.elements.filter((e) => !held.includes(e));
  const X = resolveCompositions(free, [{ field: 'condition.compositions', value: cond.compositions ?? {} }]).X[0]!;
  const P = cond.pressure;
  const mu = (a: AxisConfig, v: number, T: number): Record<string, number> => {
    if (a.quantity === 'temperature') return {};
    const el = a.element!.toUpperCase();
    const ref = a.quantity === 'log10_activity' ? extras.referenceEnergies(T, P)[el]! : 0;
    return { [el]: a.quantity === 'chemical_potential' ? v : ref + GAS_CONSTANT * T * LN10 * v };
  };
  return (x: number, y: number): EquilibriumConditions => {
    const T = cond.x_axis.quantity === 'temperature' ? x : cond.temperature!;
    return { T, P, X, MU: { ...mu(cond.x_axis, x, T), ...mu(cond.y_axis, y, T) } };
  };
}

function gridSize(cond: Condition): [number, number] {
  const g = cond.grid_points ?? POTENTIAL_DEFAULT_GRID_POINTS;
  return [g, g];
}

export function run(job: TaskJob<'potential_diagram'>, control: JobControl): CalculationOutput {
  if (control.cancelled) throw new CancelledError();
  const cond = job.config.condition;
  const sys = openSystem(job, cond);
  const T0 = cond.temperature ?? cond.x_axis.start;
  const references = Object.fromEntries(
    [cond.x_axis, cond.y_axis]
      .filter((a) => a.element && a.reference_state)
      .map((a) => [a.element!.toUpperCase(), a.reference_state!]),
  );
  const extras = new ThermoExtras(sys.db, sys.components, sys.elements, references, T0, cond.pressure);
  const [nx, ny] = gridSize(cond);
  const xs = linspace(cond.x_axis.start, cond.x_axis.end, nx);
  const ys = linspace(cond.y_axis.start, cond.y_axis.end, ny);
  const conditionsAt = conditionsOf(cond, sys, extras);
  const solver = new ChunkedSolver(
    { db: sys.db, components: sys.components, phases: sys.phases },
    Math.max(1, job.ompThreads),
    control,
  );
  let map: PotentialMap;
  try {
    const labeller = new StateLabeller(sys.db, sys.components);
    map = mapPotentials({ xs, ys, conditionsAt, stateLabels: (r) => resultStateLabels(labeller, r).sort() }, solver);
  } finally {
    solver.close();
  }
  if (map.notConverged === nx * ny)
    throw new Error(
      `no equilibrium converged at any of the ${nx * ny} grid nodes: no diagram (check the axis ranges, the phases and the reference states)`,
    );
  const doc = documentOf(job, cond, sys, extras, map, { xs, ys });
  const files = writeResultFiles(job.taskDir, {
    json: doc,
    csv: tableToCsv(doc.table),
    previews: { potential_diagram: potentialPreview(doc, basename(sys.tdbFile)) },
  });
  return {
    summary: `${doc.convergence_warning ? `${doc.convergence_warning.message}; ` : ''}${doc.fields.length} fields, ${doc.boundaries.length} boundaries, ${doc.junctions.length} junctions over ${nx} x ${ny} nodes`,
    logs: [
      ...sys.logs,
      `equilibria: ${map.equilibria} (grid ${nx} x ${ny}, ${job.ompThreads} thread(s)), not converged ${map.notConverged}`,
      ...doc.notes.map((m) => `note: ${m}`),
      `written ${files.join(', ')}`,
    ],
  };
}

function documentOf(
  job: TaskJob<'potential_diagram'>,
  cond: Condition,
  sys: CalcSystem,
  extras: ThermoExtras,
  map: PotentialMap,
  grid: { xs: number[]; ys: number[] },
): PotentialDiagramDocument {
  const namer = namerOf(job);
  const node = (k: number) => ({ x: grid.xs[k % map.nx]!, y: grid.ys[Math.floor(k / map.nx)]! });
  const failed = [...map.labels.keys()]
    .filter((k) => map.labels[k]! < 0)
    .map((k) => (map.noEquilibrium.has(k) ? { ...node(k), none: true } : node(k)));
  const notes = [...extras.notes];
  const warning = convergenceWarning({
    nodes: map.nx * map.ny,
    notConverged: map.notConverged - map.noEquilibrium.size,
    noEquilibrium: map.noEquilibrium.size,
  });
  if (failed.length > 0 && !warning)
    notes.push(
      `${failed.length} of ${map.nx * map.ny} grid nodes have no equilibrium: fields and lines may be missing there`,
    );
  const x_axis = axisRecord(cond.x_axis, extras);
  const y_axis = axisRecord(cond.y_axis, extras);
  return {
    ...documentBase(job, 'potential_diagram', sys),
    components: sys.elements,
    pressure: cond.pressure,
    temperature: cond.temperature ?? null,
    compositions: Object.fromEntries(Object.entries(cond.compositions ?? {}).map(([k, v]) => [k.toUpperCase(), v])),
    x_axis,
    y_axis,
    grid: { x_points: map.nx, y_points: map.ny, equilibria: map.equilibria, not_converged: map.notConverged },
    fields: map.fields.map((f) => ({
      phases: map.sets[f.label]!,
      display: displayFieldLabel(map.sets[f.label]!.join(' + '), namer),
      x: f.at[0],
      y: f.at[1],
      grid_nodes: f.nodes,
    })),
    boundaries: map.lines.map((l) => ({
      phases: [map.sets[l.pair[0]]!, map.sets[l.pair[1]]!],
      points: l.points.map(([x, y]) => ({ x, y })),
    })),
    junctions: map.junctions.map((j) => ({ x: j.at[0], y: j.at[1], phases: j.labels.map((l) => map.sets[l]!) })),
    not_converged_nodes: failed,
    table: nodeTable(map, grid, sys.elements, [x_axis, y_axis]),
    notes,
    ...(warning ? { convergence_warning: warning } : {}),
  };
}

/** One row per grid node: the axes' values, the stable phases and the overall mole fractions. */
function nodeTable(
  map: PotentialMap,
  grid: { xs: number[]; ys: number[] },
  elements: string[],
  axes: PotentialAxis[],
): ResultTable {
  const columnOf = (a: PotentialAxis) =>
    a.quantity === 'temperature'
      ? { name: 'T', unit: 'K' }
      : a.quantity === 'chemical_potential'
        ? { name: `MU(${a.element})`, unit: 'J/mol' }
        : { name: `log10_ACR(${a.element})`, unit: '-' };
  return {
    columns: [
      ...axes.map(columnOf),
      { name: 'phases', unit: '-' },
      ...elements.map((e) => ({ name: `X(${e})`, unit: '-' })),
    ],
    rows: [...map.labels.keys()].map((k) => {
      const l = map.labels[k]!;
      const x = map.fractions[k];
      return [
        grid.xs[k % map.nx]!,
        grid.ys[Math.floor(k / map.nx)]!,
        l < 0 ? 'not converged' : map.sets[l]!.join(' + '),
        ...elements.map((e) => (x ? (x[e] ?? 0) : null)),
      ];
    }),
  };
}

/** The preview: x as the task gave it (T in degrees Celsius when the task asks), the potential upward. */
export function potentialPreview(doc: PotentialDiagramDocument, tdbName: string): string {
  const celsius = doc.x_axis.quantity === 'temperature' && previewTemperatureUnit(doc.config) === 'celsius';
  const shift = celsius ? 273.15 : 0;
  const xy = (p: { x: number; y: number }) => ({ x: p.x - shift, T: p.y });
  const at = doc.temperature === null ? '' : `, T = ${doc.temperature} K`;
  return binaryPhaseDiagram({
    title: `Potential diagram ${systemName(doc.components)}${at}, ${tdbName}`,
    boundaries: doc.boundaries.map((b) => ({ phases: b.phases.flat(), points: b.points.map(xy) })),
    regionLabels: doc.fields.map((f) => ({ ...xy(f), label: f.display ?? f.phases.join(' + ') })),
    xLabel: celsius ? 'Temperature (°C)' : doc.x_axis.label,
    yLabel: doc.y_axis.label,
    xRange: [doc.x_axis.range[0] - shift, doc.x_axis.range[1] - shift],
    TRange: doc.y_axis.range,
    notConverged: doc.not_converged_nodes.map(xy),
    warning: doc.convergence_warning?.message,
  });
}
