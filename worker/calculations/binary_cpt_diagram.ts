// binary_cpt_diagram (service spec "task_type = binary_cpt_diagram"): the stable phase set of
// a binary system on a composition x temperature x pressure grid, the boundary surfaces between the
// phase-set regions, tie-lines, result files, isobaric-section previews and a zip of VTK files for
// ParaView (GET /task/{id}/vtk serves every file of <taskDir>/vtk/, main/service/files.ts).
//
// Method: the grid mapping is worker/mapping/cpt-grid.ts (grid, bisected boundary crossings, Surface
// Nets surfaces, tie-lines); the output documents are worker/results/binary_cpt_output.ts.
// Pressure enters the Gibbs energies only through molar-volume terms (V0, VA, ...) of the TDB; most
// databases have none, so P changes the diagram little or not at all (said in the VTK README).
import { elementSymbol } from '../../contract/plots/names.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { RESULT_VERSION, tableToCsv, type ResultTable } from '../../contract/results/common.js';
import { openDatabase } from '../core/database.js';
import type { NativeDatabase } from '../core/native.js';
import type { EquilibriumOptions } from '../core/equilibrium.js';
import { computeCpt, type CptComputation, type CptInput } from '../mapping/cpt-grid.js';
import { isobaricSections } from '../plots/sections.js';
import type { TemperatureUnit } from '../plots/panel.js';
import {
  CancelledError,
  type CalculationConfig,
  type CalculationJob,
  type CalculationOutput,
  type JobControl,
  type TaskJob,
} from '../protocol.js';
import { provenance, writeResultFiles } from '../results/common.js';
import {
  defaultCptAxisConfig,
  type BinaryCptResult,
  type CptAxisConfig,
} from '../../contract/results/binary_cpt_diagram.js';
import { VTK_FOLDER, buildVtk, fractionArrays, regionsPerPressure, resultTable } from '../results/binary_cpt_output.js';
import { binaryMassConverter, elementMasses, type CompositionUnit, type MassConverter } from '../system/units.js';
import { selectPhases } from '../system/phase-selection.js';
import { selectionRequest } from '../system/system.js';
import type { PhaseSelectionRecord } from '../../contract/phase-selection.js';

export {
  BISECTION_STEPS,
  computeCpt,
  pressureCoordinate,
  stableLabels,
  type CptComputation,
  type CptInput,
} from '../mapping/cpt-grid.js';
export { VTK_FOLDER, buildVtk, fractionArrays, resultTable, type VtkBundle } from '../results/binary_cpt_output.js';

/** Largest grid accepted (nodes); beyond this the task fails with a message instead of exhausting memory. */
export const MAX_NODES = 1_000_000;
export const VTK_ZIP_NAME = 'cpt_diagram.zip';

// ------------------------------------------------------------------------------------------------
// Input

/** Axis from start to end by step; the end is always the last node (the last step may be shorter). */
export function stepAxis(start: number, end: number, step: number, what: string): number[] {
  if (![start, end, step].every(Number.isFinite) || !(step > 0))
    throw new Error(`${what}: start, end and step must be finite numbers, step > 0`);
  if (end < start) throw new Error(`${what}: end must not be below start`);
  const n = Math.floor((end - start) / step + 1e-9);
  if (n + 2 > MAX_NODES)
    throw new Error(`${what}: ${n + 1} values from start to end by step; the grid may hold at most ${MAX_NODES} nodes`);
  const out: number[] = [];
  // rounded to 12 decimals so that 0.1 + 2 * 0.05 prints as 0.2 in the files
  for (let i = 0; i <= n; i++) out.push(Number((start + i * step).toFixed(12)));
  const last = out[out.length - 1]!;
  if (end - last > step * 1e-6) out.push(end);
  else out[out.length - 1] = end;
  return out;
}

export function pressureAxis(start: number, end: number, points: number, log: boolean): number[] {
  if (!(start > 0) || !(end >= start) || !Number.isInteger(points) || points < 1) {
    throw new Error('condition.pressure_*: pressures must be > 0, end >= start, pressure_points a positive integer');
  }
  if (points === 1) return [start];
  const out: number[] = [];
  for (let i = 0; i < points; i++) {
    const f = i / (points - 1);
    out.push(log ? 10 ** (Math.log10(start) + f * (Math.log10(end) - Math.log10(start))) : start + f * (end - start));
  }
  out[0] = start;
  out[points - 1] = end;
  return out;
}

/** The viewer's axes of the task (the schema checked their variables and components); upper-case components. */
function parseAxisConfig(cfg: CalculationConfig<'binary_cpt_diagram'>): CptAxisConfig | null {
  const ac = cfg.ui_metadata?.axis_config;
  if (!ac) return null;
  const axis = (a: typeof ac.x) =>
    a.variable === 'composition'
      ? { variable: 'composition' as const, component: a.component!.toUpperCase() }
      : { variable: a.variable };
  return { x: axis(ac.x), y: axis(ac.y), z: axis(ac.z) };
}

/** The database-dependent part of the task's input: elements and phases checked against the TDB (the schema
 * checked the numbers when the task was created). */
export function readInput(job: {
  config: CalculationConfig<'binary_cpt_diagram'>;
  database?: CalculationJob['database'];
}): CptInput & {
  db: ReturnType<typeof openDatabase>;
  logs: string[];
  /** the phase selection applied (result.json phase_selection) */
  selection: PhaseSelectionRecord;
  /** the unit of composition_start/end/step; `mass` converts (absent when an element has no molar mass) */
  unit: CompositionUnit;
  mass: MassConverter | undefined;
} {
  const cfg = job.config;
  const tdbFile = cfg.tdb_file;
  const c = cfg.condition;
  // the schema gives two components and x_component among them; VA is not an element of the diagram
  const elements = [...new Set(c.components.map((s) => s.toUpperCase()).filter((s) => s !== 'VA'))];
  if (elements.length !== 2) throw new Error('condition.components must hold exactly 2 elements');
  const xComp = c.x_component.toUpperCase();
  const other = elements.find((e) => e !== xComp)!;

  const db = openDatabase(tdbFile);
  const info = db.info();
  const dbElements = new Set(info.elements.map((e) => e.name.toUpperCase()));
  for (const e of elements)
    if (!dbElements.has(e)) throw new Error(`condition.components: ${e} is not an element of ${basename(tdbFile)}`);
  const components = dbElements.has('VA') ? [xComp, other, 'VA'] : [xComp, other];
  const sel = selectPhases(db, [xComp, other], selectionRequest(job, c), basename(tdbFile));
  const { phases, logs } = sel;

  // with mass fractions the grid is equally spaced in w; the equilibria run at the nodes' mole fractions
  const unit = c.composition_unit ?? 'mole_fraction';
  const masses = elementMasses(info.elements);
  const mass =
    unit === 'mass_fraction'
      ? binaryMassConverter(xComp, other, masses, 'condition.composition_unit mass_fraction')
      : binaryMassConverter(xComp, other, masses);
  const steps = stepAxis(c.composition_start, c.composition_end, c.composition_step, 'condition.composition');
  const xs = unit === 'mass_fraction' ? steps.map((w) => mass!.toX(w)) : steps;
  const Ts = stepAxis(c.temperature_start, c.temperature_end, c.temperature_step, 'condition.temperature');
  const Ps = pressureAxis(c.pressure_start, c.pressure_end, c.pressure_points, c.pressure_scale === 'log');
  const total = xs.length * Ts.length * Ps.length;
  if (total > MAX_NODES)
    throw new Error(
      `the grid has ${xs.length} x ${Ts.length} x ${Ps.length} = ${total} nodes; at most ${MAX_NODES} are allowed (use larger steps)`,
    );

  const options: EquilibriumOptions = {};
  const pdens = c.map_options?.GLOBAL_MIN_PDENS;
  if (pdens !== undefined) options.pdens = Math.max(1, Math.round(pdens));
  const stride = c.tieline_stride ?? 1;
  const axisConfig = parseAxisConfig(cfg);
  if (axisConfig) {
    // The task schema accepts these; they are stored as given, with a log line for the viewer's sake.
    for (const k of ['x', 'y', 'z'] as const) {
      const a = axisConfig[k];
      if (a.variable === 'composition' && !elements.includes(a.component!))
        logs.push(`ui_metadata.axis_config.${k}.component ${a.component} is not one of ${elements.join(', ')}`);
    }
    const vars = new Set([axisConfig.x.variable, axisConfig.y.variable, axisConfig.z.variable]);
    if (vars.size < 3) logs.push('ui_metadata.axis_config maps two viewer axes to the same variable');
  }
  return {
    db,
    logs,
    selection: sel.record,
    tdbFile,
    components,
    elements: [xComp, other],
    phases,
    xs,
    Ts,
    Ps,
    logP: c.pressure_scale === 'log',
    options,
    unit,
    mass,
    includeTielines: c.include_tielines === true,
    tielineStride: Math.max(1, Math.round(stride)),
    axisConfig,
  };
}

/**
 * Whether pressure enters a Gibbs energy of the calculation: a V0 (molar volume) parameter of one of its phases,
 * the core's only volume term (formula sheet §6.2; VA and VK act through V0), or a FUNCTION whose value changes
 * between the lowest and the highest pressure of the grid. Without either, every isobaric section is the same.
 */
export function pressureDependent(
  input: Pick<CptInput, 'phases' | 'elements' | 'Ts' | 'Ps'> & { db: NativeDatabase },
): boolean {
  const { db } = input;
  const phases = input.phases ?? db.phasesFor(input.elements);
  for (const ph of phases) if (db.parameters(ph).some((p) => p.type === 'V0')) return true;
  const T = input.Ts[Math.floor(input.Ts.length / 2)] ?? 298.15;
  const P0 = Math.min(...input.Ps),
    P1 = Math.max(...input.Ps);
  if (!(P1 > P0)) return false;
  for (const f of db.functionNames()) {
    try {
      const a = db.evaluateFunction(f, T, P0).v,
        b = db.evaluateFunction(f, T, P1).v;
      if (Math.abs(a - b) > 1e-9 * Math.max(1, Math.abs(a))) return true;
    } catch {
      /* a function undefined at T says nothing about P */
    }
  }
  return false;
}

/** The note shown with a grid whose database has no pressure dependence (result view and preview). */
export const NO_VOLUME_NOTE =
  'This database has no molar-volume (V0) parameters: pressure changes no Gibbs energy, so every isobaric section is the same diagram.';

/** The isobaric sections; composition axis in mass percent when `mass` is given. */
function sectionPreview(
  comp: CptComputation,
  pressureMatters: boolean,
  mass?: MassConverter,
  temperatureUnit?: TemperatureUnit,
): string {
  const [nX, nT, nP] = comp.dims;
  const picks = [...new Set([0, Math.floor((nP - 1) / 2), nP - 1])];
  const { Ts, Ps, elements } = comp.input;
  const f = mass ? (x: number) => 100 * mass.toW(x) : (x: number) => x;
  return isobaricSections({
    title: `${elements[0]}-${elements[1]}: isobaric sections`,
    note: pressureMatters ? undefined : NO_VOLUME_NOTE,
    xLabel: `${mass ? 'Mass percent' : 'Mole fraction'} ${elementSymbol(elements[0]!)}`,
    xs: Array.from(comp.input.xs, f),
    Ts,
    phaseSets: comp.phaseSets,
    temperatureUnit,
    sections: picks.map((iP) => ({
      P: Ps[iP]!,
      labels: comp.labels.subarray(iP * nX * nT, (iP + 1) * nX * nT),
      boundary: comp.boundary.filter((b) => b.axis !== 'P' && b.P === Ps[iP]).map((b) => ({ x: f(b.x), T: b.T })),
      tielines: comp.tielines
        .filter((t) => t.P === Ps[iP])
        .map((t) => ({ T: t.T, x: [f(t.x[0]), f(t.x[1])] as const })),
    })),
  });
}

/** The grid table with the mass fraction of the x component after its mole fraction (when `w` converts). */
function withMassColumn(table: ResultTable, xComponent: string, w: ((x: number) => number) | undefined): ResultTable {
  if (!w) return table;
  return {
    columns: [table.columns[0]!, { name: `w(${xComponent})`, unit: '-' }, ...table.columns.slice(1)],
    rows: table.rows.map((r) => [r[0]!, w(r[0] as number), ...r.slice(1)]),
  };
}

export function run(
  job: TaskJob<'binary_cpt_diagram'>,
  control: JobControl,
  compute: typeof computeCpt = computeCpt,
): CalculationOutput {
  const t0 = performance.now();
  const input = readInput(job);
  const logs = [...input.logs];
  const [nX, nT, nP] = [input.xs.length, input.Ts.length, input.Ps.length];
  logs.push(
    `grid ${nX} compositions x ${nT} temperatures x ${nP} pressures (${input.logP ? 'log' : 'linear'} scale) = ${nX * nT * nP} nodes, ${job.ompThreads} thread(s)`,
  );
  const comp = compute(input, job.ompThreads, control);
  const tCalc = performance.now() - t0;
  logs.push(
    `${comp.equilibria} equilibria in ${(tCalc / 1000).toFixed(2)} s (${Math.round(comp.equilibria / Math.max(tCalc / 1000, 1e-6))} per s); ` +
      `${comp.boundary.length} boundary crossings bisected, ${comp.surface.polys.length} surface polygons`,
  );
  if (comp.notConverged)
    logs.push(
      `${comp.notConverged} grid node(s) did not converge: label -1 in result.json, converged = 0 in the CSV and VTK`,
    );

  const fractions = fractionArrays(comp);
  const dbName = job.database?.code ?? basename(input.tdbFile);
  const vtk = buildVtk(comp, fractions, { database: dbName });
  const zip = zipSync(
    Object.fromEntries(Object.entries(vtk.files).map(([n, s]) => [`${VTK_FOLDER}/${n}`, strToU8(s)])),
    { level: 6 },
  );
  const vtkDir = join(job.taskDir, 'vtk');
  mkdirSync(vtkDir, { recursive: true });
  writeFileSync(join(vtkDir, VTK_ZIP_NAME), zip);
  if (control.cancelled) throw new CancelledError();

  const pressureMatters = pressureDependent(input);
  const w = input.mass?.toW;
  if (!pressureMatters) logs.push(`pressure: ${NO_VOLUME_NOTE}`);
  const doc: BinaryCptResult = {
    version: RESULT_VERSION,
    task_type: 'binary_cpt_diagram',
    provenance: provenance(input.tdbFile, job.database?.code ?? null, job.database?.sha256),
    config: job.config,
    phase_selection: input.selection,
    x_component: input.elements[0],
    components: input.elements,
    axes: { x: input.xs, T: input.Ts, P: input.Ps, ...(w ? { w: input.xs.map(w) } : {}) },
    pressure_scale: input.logP ? 'log' : 'linear',
    phase_sets: comp.phaseSets,
    labels: Array.from(comp.labels),
    regions_per_pressure: regionsPerPressure(comp),
    boundary_points: w ? comp.boundary.map((b) => ({ ...b, w: w(b.x) })) : comp.boundary,
    tielines: comp.tielines.map(({ node: _node, ...t }) =>
      w
        ? {
            ...t,
            w: [w(t.x[0]), w(t.x[1])] as [number, number],
            ...(t.x_overall !== undefined ? { w_overall: w(t.x_overall) } : {}),
          }
        : t,
    ),
    composition_unit: input.unit,
    ...(input.mass ? { molar_masses: input.mass.masses } : {}),
    axis_config: input.axisConfig ?? defaultCptAxisConfig(input.elements[0]),
    vtk_files: [VTK_ZIP_NAME],
    vtk_archive_entries: vtk.entries,
    not_converged: comp.notConverged,
    surface: {
      vertices: comp.surface.points.length / 3,
      polygons: comp.surface.polys.length,
      lines: comp.surface.lines.length,
    },
    pressure_dependent: pressureMatters,
  };
  writeResultFiles(job.taskDir, {
    json: doc,
    csv: tableToCsv(
      withMassColumn(resultTable(comp, fractions), input.elements[0], input.unit === 'mass_fraction' ? w : undefined),
    ),
    previews: {
      isobaric_sections: sectionPreview(
        comp,
        pressureMatters,
        input.unit === 'mass_fraction' ? input.mass : undefined,
        job.config.preview_temperature_unit,
      ),
    },
  });
  logs.push(
    `result files, VTK archive and preview written in ${((performance.now() - t0 - tCalc) / 1000).toFixed(2)} s`,
  );
  control.setProgress(1);
  const gridSets = new Set(Array.from(comp.labels).filter((l) => l >= 0)).size;
  return {
    summary:
      `${nX}x${nT}x${nP} grid: ${gridSets} phase set(s), ${comp.boundary.length} boundary points, ` +
      `${comp.surface.polys.length} surface polygons, ${comp.tielines.length} tie-lines` +
      (comp.notConverged ? `, ${comp.notConverged} node(s) not converged` : ''),
    logs,
  };
}
