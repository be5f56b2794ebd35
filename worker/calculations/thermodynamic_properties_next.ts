// Task type thermodynamic_properties_next: a scan from the start to the end state (T and
// composition interpolated linearly over `points` points, the path of line_calculation, with its
// transition refinement to 0.01 K / 1e-5, refineTransitions) giving
// G, H, S, Cp and the chemical potentials of the system and of every stable phase, exact from the
// model's derivatives.
//
// Two heat capacities are reported (formula sheet shared/design/calphad-formulas.md §9.3-§9.4):
//  * Cp_equilibrium = dH/dT along the equilibrium at fixed overall composition and P: the solver's dot
//    derivative HM.T (§9.4, Eq. 9.4). In a two-phase field it contains dNP^a H^a and the change of the
//    phase compositions, i.e. the latent heat of the moving phase boundary that a calorimeter measures;
//    it jumps at every transition.
//  * Cp_frozen = sum_a NP^a CPM^a with CPM = -T d2GM/dT2 at fixed constitution (§9.3), the solver's CPM.
// In a single-phase region both are the same quantity (nothing to redistribute), which the tests check.
// Phase properties (GM, HM, SM, CPM of each stable phase) are in points[].phases; the chemical
// potentials (MU) are those of the system, equal in every stable phase at equilibrium.
import { elementSymbol, systemName } from '../../contract/plots/names.js';
import { conditionsAt, type ScanPath } from '../scans/scan-path.js';
import { axisOf, scanSetup, type ScanJob } from '../scans/line-scan.js';
import { refineTransitions } from '../scans/transitions.js';
import { documentBase, outputNames } from '../results/document.js';
import { type CalcSystem } from '../system/system.js';
import { PointConverter } from '../system/point-converter.js';
import { CP_DEFINITION, tableToCsv } from '../../contract/results/common.js';
import type { CalculationOutput, JobControl, TaskJob } from '../protocol.js';
import { writeResultFiles } from '../results/common.js';
import { buildTable } from '../../contract/results/outputs/columns.js';
import { addFurtherQuantities } from '../results/thermo-extra.js';
import type { EquilibriumResult } from '../core/equilibrium.js';
import {
  type PropertiesDocument,
  type PropertiesPoint,
  type Transition,
} from '../../contract/results/thermodynamic_properties_next.js';
import { propertyChart, type Series } from '../plots/charts.js';
import { formatTemperature, type TemperatureUnit } from '../plots/panel.js';
import { CancelledError } from '../protocol.js';
import { chunkedBatch } from '../scans/batch.js';

export interface PropertiesScan {
  sys: CalcSystem;
  path: ScanPath;
  /** the dependent component of the solver conditions */
  dependent: string;
  points: PropertiesPoint[];
  transitions: Transition[];
  /** the solver results of the points, in order */
  results: EquilibriumResult[];
}

/**
 * The scan and the points with both heat capacities (no files): used by run(), the tests and the
 * benchmark. The path and its checks are those of line_calculation (ScanPath, resolveCompositions,
 * refineTransitions); the points run in chunked batches (batch.ts) so a cancel is seen within about
 * 0.1 s however long the scan.
 */
export function propertiesScan(job: ScanJob, control: JobControl): PropertiesScan {
  if (control.cancelled) throw new CancelledError();
  const { sys, path, n, dependent } = scanSetup(job);
  const sOf = (i: number) => (n === 1 ? 0 : i / (n - 1));
  const threads = Math.max(1, Math.floor(job.ompThreads || 1));
  // HM.T is the equilibrium heat capacity (§9.4): the only extra the solver has to compute
  const derivatives = ['HM.T'];
  const results = chunkedBatch(
    { database: sys.db, components: sys.components, phases: sys.phases, options: { derivatives } },
    { length: n, at: (i) => conditionsAt(path, sOf(i)) },
    threads,
    control,
    0,
    0.95,
  );
  const s = results.map((_, i) => sOf(i));
  const conv = new PointConverter(sys.db, sys.components);
  const transitions = refineTransitions(path, s, results, {
    sys,
    threads,
    control,
    derivatives,
    structureOf: (p) => conv.ordering(p)?.structure,
  });
  const points: PropertiesPoint[] = results.map((r, i) => {
    const hmT = r.derivatives?.['HM.T'];
    return {
      ...conv.point(r),
      s: s[i],
      Cp_equilibrium: r.converged && typeof hmT === 'number' && Number.isFinite(hmT) ? hmT : null,
      Cp_frozen: r.CPM,
    };
  });
  return { sys, path, dependent, points, transitions, results };
}

function fmt(v: number, d = 1): string {
  return Number.isFinite(v) ? v.toFixed(d) : 'n/a';
}

/** The preview: Cp (equilibrium and frozen), H and S versus T (or the changing mole fraction), transitions marked. */
export function propertiesPreview(
  points: readonly PropertiesPoint[],
  transitions: readonly Transition[],
  elements: string[],
  title: string,
  temperatureUnit?: TemperatureUnit,
): string {
  const varyT = points.length > 1 && points[0].T !== points[points.length - 1].T;
  // A composition-only scan is drawn against the mole fraction of the component that changes most.
  let el = elements[0];
  if (!varyT) {
    let best = -1;
    for (const e of elements) {
      const d = Math.abs((points[points.length - 1]?.x[e] ?? 0) - (points[0]?.x[e] ?? 0));
      if (d > best) {
        best = d;
        el = e;
      }
    }
  }
  const xOf = (p: { T: number; x: Record<string, number> }) => (varyT ? p.T : p.x[el]);
  // Rows in path order with a gap row at every transition: Cp jumps there, and a line drawn across the
  // jump would show values that no state has. H and S are continuous except at invariants, where the
  // steep segment is the latent heat, so they are drawn through.
  type Row = { s: number; x: number; eq: number | null; fr: number | null; H: number | null; S: number | null };
  const rows: Row[] = points.map((p) => ({
    s: p.s,
    x: xOf(p),
    eq: p.Cp_equilibrium,
    fr: p.converged ? p.Cp_frozen : null,
    H: p.converged ? p.HM : null,
    S: p.converged ? p.SM : null,
  }));
  for (const t of transitions) rows.push({ s: t.s, x: xOf(t), eq: null, fr: null, H: NaN, S: NaN });
  rows.sort((a, b) => a.s - b.s);
  // H and S at a gap row: interpolated from the neighbours so their lines are not broken
  rows.forEach((r, i) => {
    if (!Number.isNaN(r.H)) return;
    const a = rows[i - 1],
      b = rows[i + 1];
    const lerp = (u: number | null | undefined, v: number | null | undefined) =>
      typeof u === 'number' && typeof v === 'number' && Number.isFinite(u) && Number.isFinite(v) && b.s !== a.s
        ? u + ((v - u) * (r.s - a.s)) / (b.s - a.s)
        : null;
    r.H = a && b ? lerp(a.H, b.H) : null;
    r.S = a && b ? lerp(a.S, b.S) : null;
  });
  const cp: Series[] = [
    { name: 'Cp equilibrium (dH/dT)', values: rows.map((r) => r.eq) },
    { name: 'Cp frozen (sum NP·CPM)', values: rows.map((r) => r.fr), dash: '6 4' },
  ];
  return propertyChart({
    title,
    x: rows.map((r) => r.x),
    xLabel: varyT ? 'Temperature (K)' : `Mole fraction ${elementSymbol(el)}`,
    panels: [
      { label: 'Cp (J/(mol·K))', series: cp },
      { label: 'H (J/mol)', values: rows.map((r) => r.H) },
      { label: 'S (J/(mol·K))', values: rows.map((r) => r.S) },
    ],
    transitions: transitions.map((t) => ({
      x: xOf(t),
      label: varyT ? formatTemperature(Number(t.T.toFixed(1)), temperatureUnit) : fmt(t.x[el], 4),
    })),
    celsiusAxis: varyT,
    temperatureUnit,
  });
}

export function run(job: TaskJob<'thermodynamic_properties_next'>, control: JobControl): CalculationOutput {
  const names = outputNames('thermodynamic_properties_next', job.config.condition);
  const t0 = performance.now();
  const { sys, path, dependent, points, transitions, results } = propertiesScan(job, control);
  const further = addFurtherQuantities(
    sys,
    job.config.condition,
    points.map((point, i) => ({ point, r: results[i]! })),
  );
  const ms = performance.now() - t0;
  const table = buildTable(points, names, { components: sys.elements, phases: sys.formable });
  const notConverged = points.filter((p) => !p.converged).length;
  const doc: PropertiesDocument = {
    ...documentBase(job, 'thermodynamic_properties_next', sys),
    cp_definition: CP_DEFINITION,
    axis: axisOf(path, sys.elements, dependent),
    points,
    transitions,
    table,
    outputs: names,
    not_converged: notConverged,
    ...further,
  };
  const file = sys.tdbFile.split(/[\\/]/).pop();
  const files = writeResultFiles(job.taskDir, {
    json: doc,
    csv: tableToCsv(table),
    previews: {
      properties: propertiesPreview(
        points,
        transitions,
        sys.elements,
        `Thermodynamic properties, ${systemName(sys.elements)} (${file})`,
        job.config.preview_temperature_unit,
      ),
    },
  });
  const cps = points.map((p) => p.Cp_equilibrium).filter((v): v is number => v !== null);
  const summary =
    `${points.length} points ${fmt(points[0].T)}-${fmt(points[points.length - 1].T)} K` +
    `, ${transitions.length} transition${transitions.length === 1 ? '' : 's'}` +
    (cps.length ? `, Cp_equilibrium ${fmt(Math.min(...cps), 2)} to ${fmt(Math.max(...cps), 2)} J/(mol K)` : '') +
    (notConverged ? ` (${notConverged} points not converged)` : '');
  return {
    summary,
    logs: [
      ...sys.logs,
      `properties scan: ${points.length} points, ${transitions.length} transitions in ${ms.toFixed(0)} ms on ${job.ompThreads} thread(s)`,
      ...transitions.map(
        (t) =>
          `transition at T=${t.T.toFixed(3)} K: ${t.phases_before.join('+') || '-'} -> ${t.phases_after.join('+') || '-'}`,
      ),
      ...(notConverged
        ? [`warning: ${notConverged} of ${points.length} points did not converge (converged:false in result.json)`]
        : []),
      `written ${files.join(', ')}`,
    ],
  };
}
