// line_calculation (service spec "task_type = line_calculation"): `points` equilibria on the
// straight line from (temperature_start, compositions_start) to (temperature_end, compositions_end),
// path parameter s = 0..1 with T and the mole fractions linear in s. The scan runs as OpenMP batches
// (worker/core/equilibriumBatch, threads = job.ompThreads) in chunks of about 150 ms, so a cancel is
// seen within a fraction of a second and the progress is monotonic (chunkedScan). Then every phase
// transition between neighbouring points (the set of stable phase labels changes, NAME#2 sets of a
// miscibility gap included) is located by bisection on s until the bracket is within 0.01 K and 1e-5
// in every mole fraction, and listed in `transitions`.
import { systemName } from '../../contract/plots/names.js';
import { axisOf, axisValue, scanLine, type LineScan } from '../scans/line-scan.js';
import { fixedPhaseLine } from '../scans/fixed-phase-line.js';
import { fixedPhaseLineLogs, heldElementsOf } from './line_calculation/conditions.js';
import { type RefinedTransition } from '../scans/transitions.js';
import { basename } from 'node:path';
import { CP_DEFINITION } from '../../contract/results/common.js';
import { documentBase, outputNames } from '../results/document.js';
import { PointConverter } from '../system/point-converter.js';
import { tableToCsv } from '../../contract/results/common.js';
import { phaseFractionChart } from '../plots/charts.js';
import { writeResultFiles } from '../results/common.js';
import { namerOf } from '../results/display-names.js';
import { displayFieldLabel, displayReaction } from '../../contract/plots/phase-names.js';
import { buildTable, stableLabels } from '../../contract/results/outputs/columns.js';
import { alloyTemperatures, invariantsCrossed } from '../scans/alloy-temperatures.js';
import { addFurtherQuantities, potentialText } from '../results/thermo-extra.js';
import {
  transitionText,
  type InvariantCrossing,
  type LineAxis,
  type LineCalculationResult,
  type LinePoint,
} from '../../contract/results/line_calculation.js';
import { type CalculationOutput, type JobControl, type TaskJob } from '../protocol.js';

const fmt = (v: number, d = 2) => String(Number(v.toFixed(d)));

/** "T K: PHASE (EL x, ...) + ...; ..." of the invariants a line crosses (the invariants_crossed output). */
export function invariantsText(invariants: readonly InvariantCrossing[]): string {
  return invariants
    .map(
      (v) =>
        `${fmt(v.T)} K: ${v.phases
          .map((ph) => {
            const x = v.compositions[ph]?.x ?? {};
            return `${ph} (${Object.entries(x)
              .map(([el, f]) => `${el} ${fmt(f, 4)}`)
              .join(', ')})`;
          })
          .join(' + ')}`,
    )
    .join('; ');
}

export function run(job: TaskJob<'line_calculation'>, control: JobControl): CalculationOutput {
  const names = outputNames('line_calculation', job.config.condition);
  const wantsCp = names.some((n) => /^\s*cpm?\s*$/i.test(n));
  const derivatives = wantsCp ? ['HM.T'] : undefined;
  const fixedLine = fixedPhaseLine(job, control, derivatives);
  const held = heldElementsOf(job.config.condition);
  const scan = fixedLine ?? scanLine(job, control, derivatives, held);
  const { sys, path, s, results, transitions } = scan;
  const conv = new PointConverter(sys.db, sys.components);
  const points = results.map((r, i) => {
    const p: LinePoint = { ...conv.point(r), s: s[i] };
    if (wantsCp) {
      const v = r.derivatives['HM.T'];
      p.Cp_equilibrium = typeof v === 'number' && Number.isFinite(v) ? v : null;
    }
    return p;
  });
  const further = lineFurtherQuantities(scan, job.config.condition, points, conv, control);
  // a line at fixed composition has the alloy's liquidus and solidus: the T_liquidus/T_solidus outputs on every row,
  // and in the default columns
  const alloy = further.fields.alloy_temperatures;
  const defaults =
    job.config.condition.thermo_outputs === undefined && job.config.condition.outputs_list_template === undefined;
  if (alloy && defaults) names.push('T_liquidus', 'T_solidus');
  // and the invariants it crosses, with their phases' compositions, as one text on every row (the table has a row per
  // scan point; the invariants lie between them)
  const invariants = further.fields.invariants ?? [];
  if (invariants.length && defaults) names.push('invariants_crossed');
  const crossed = invariants.length ? invariantsText(invariants) : null;
  const tablePoints = points.map((p) => ({
    ...p,
    ...(alloy ? { T_liquidus: alloy.liquidus, T_solidus: alloy.solidus } : {}),
    invariants_crossed: crossed,
  }));
  const table = buildTable(tablePoints, names, { components: sys.elements, phases: sys.formable });
  const axis = axisOf(path, sys.elements, scan.dependent);
  const notConverged = points.filter((p) => !p.converged).length;
  const doc: LineCalculationResult = {
    ...documentBase(job, 'line_calculation', sys),
    axis,
    points,
    transitions,
    table,
    outputs: names,
    cp_definition: CP_DEFINITION,
    not_converged: notConverged,
    ...further.fields,
    ...(fixedLine ? { fixed_phase: fixedLine.fixed } : {}),
    ...(path.mu ? { held_elements: Object.keys(path.mu(path.T0, path.P)) } : {}),
  };
  const chart = phaseFractionPreview(job, scan, points, axis, conv);
  const files = writeResultFiles(job.taskDir, {
    json: doc,
    csv: tableToCsv(table),
    previews: { phase_fractions: chart },
  });
  const where = (t: RefinedTransition) =>
    axis.variable === 'T' || axis.variable === 'path'
      ? `${fmt(t.T)} K`
      : `${axis.variable}=${fmt(axisValue(axis, t), 6)}`;
  const summary =
    `${points.length} points, ${transitions.length} transition${transitions.length === 1 ? '' : 's'}` +
    (transitions.length ? `: ${transitions.map((t) => `${transitionText(t)} at ${where(t)}`).join(', ')}` : '') +
    (notConverged ? ` (${notConverged} points not converged)` : '');
  const logs = [
    ...sys.logs,
    `database ${basename(sys.tdbFile)}, components ${sys.components.join(', ')}, ${points.length} points on ${job.ompThreads} thread(s)`,
    ...transitions.map(
      (t) =>
        `transition at s=${t.s.toFixed(6)}, T=${t.T.toFixed(3)} K: ${t.phases_before.join('+') || '-'} -> ${t.phases_after.join('+') || '-'}` +
        ` (bracket dT=${t.dT.toExponential(2)} K, dx=${t.dx.toExponential(2)}${t.refined ? '' : ', NOT refined to tolerance'})`,
    ),
    ...(notConverged
      ? [`warning: ${notConverged} of ${points.length} points did not converge (converged:false in result.json)`]
      : []),
    ...further.logs,
    ...(fixedLine ? fixedPhaseLineLogs(fixedLine.fixed) : []),
    ...(path.mu ? [`held along the line: ${potentialText(job.config.condition).join(', ')}`] : []),
    `written ${files.join(', ')}`,
  ];
  return { summary, logs };
}

/**
 * Preview: phase fractions (NP of every label met) versus the scanned variable, transitions marked. The states at both
 * ends of each refined transition are drawn too, so the curves bend at the transition rather than being joined
 * straight across from the neighbouring scan points. The scan points are the result's `points` (converted once: a
 * second conversion of every equilibrium, metastable phases and all, was held beside them while the result was
 * written), the transitions' ends are converted here.
 */
function phaseFractionPreview(
  job: TaskJob<'line_calculation'>,
  scan: LineScan,
  points: LinePoint[],
  axis: LineAxis,
  conv: PointConverter,
): string {
  const { sys, transitions } = scan;
  const merged = [
    ...points.map((p) => ({ s: p.s, p })),
    ...scan.edges.map((e) => ({ s: e.s, p: { ...conv.point(e.r), s: e.s } })),
  ].sort((a, b) => a.s - b.s);
  const plotted = merged.map((m) => m.p);
  const labels = [...new Set(plotted.flatMap((p) => stableLabels(p)))].sort();
  const xs = plotted.map((p) => axisValue(axis, p));
  // legends and transition marks in the database's display names (worker/results/display-names.ts)
  const namer = namerOf(job);
  const shown = displayFieldLabel(labels.join(' + '), namer).split(' + ');
  const series = labels.map((l, i) => ({
    name: shown[i]!,
    values: plotted.map((p) =>
      p.converged
        ? (p.phases.find((q) => (q.composition_set > 1 ? `${q.name}#${q.composition_set}` : q.name) === l)?.amount ?? 0)
        : null,
    ),
  }));
  return phaseFractionChart({
    title: `Phase fractions, ${systemName(sys.elements)} (${basename(sys.tdbFile)})`,
    x: xs,
    xLabel: axis.unit && axis.unit !== '-' ? `${axis.label} (${axis.unit})` : axis.label,
    series,
    transitions: transitions.map((t) => ({ x: axisValue(axis, t), label: displayReaction(transitionText(t), namer) })),
    yLabel: 'Phase fraction (mol/mol)',
    celsiusAxis: axis.variable === 'T',
    temperatureUnit: job.config.preview_temperature_unit,
  });
}

/**
 * Further quantities of a line (worker/results/thermo-extra.ts) on its points, the invariants it crosses with the
 * phase compositions there, and, for a line at fixed composition, the alloy's liquidus and equilibrium solidus
 * (worker/scans/alloy-temperatures.ts; over 200-4000 K, whatever the line's own range).
 */
function lineFurtherQuantities(
  scan: LineScan,
  cond: { reference_states?: Record<string, string> },
  points: LinePoint[],
  conv: PointConverter,
  control: JobControl,
) {
  const { sys, path } = scan;
  const fields: Pick<
    LineCalculationResult,
    'reference_states' | 'quantity_notes' | 'invariants' | 'alloy_temperatures'
  > = {
    ...addFurtherQuantities(
      sys,
      cond,
      points.map((point, i) => ({ point, r: scan.results[i]! })),
    ),
    invariants: invariantsCrossed(scan.transitions, scan.edges, conv, sys.elements.length),
  };
  // an open system's composition follows T: no alloy temperatures
  const fixedComposition = !path.mu && sys.elements.every((e) => path.full0[e] === path.full1[e]);
  if (fixedComposition) {
    const low = path.T0 <= path.T1 ? scan.results[0] : scan.results[scan.results.length - 1];
    fields.alloy_temperatures = alloyTemperatures(
      sys,
      path.X0,
      path.P,
      () => control.cancelled,
      undefined,
      undefined,
      Math.min(path.T0, path.T1),
      low,
    );
  }
  const fmt = (v: number | null | undefined) => (typeof v === 'number' ? `${v.toFixed(2)} K` : 'none');
  const logs = [
    ...(fields.alloy_temperatures
      ? [
          `alloy: liquidus ${fmt(fields.alloy_temperatures.liquidus)}, solidus ${fmt(fields.alloy_temperatures.solidus)}` +
            `${fields.alloy_temperatures.note ? ` (${fields.alloy_temperatures.note})` : ''}`,
        ]
      : []),
    ...fields.invariants!.map((v) => `invariant crossed at ${v.T.toFixed(2)} K: ${v.phases.join(' + ')}`),
    ...fields.quantity_notes!.map((n) => `note: ${n}`),
  ];
  return { fields, logs };
}
