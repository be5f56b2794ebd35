// gibbs_energy_curves (an extension of the spec's task types, README "Calculations"): at a fixed temperature and
// pressure, along a straight composition line (a binary from x = 0 to 1, or any line between two compositions),
// the molar Gibbs energy of every phase alone (one composition set, minimised over its internal degrees of
// freedom: sublattice occupation, ordering) and the global equilibrium, whose GM is the lower convex envelope;
// each multi-phase region of the line gives a stable common tangent GM(x) = sum_i MU_i x_i touching its phases
// (the textbook construction: e.g. Hillert, Phase Equilibria, Phase Diagrams and Phase Transformations, 2nd ed.,
// 2008, ch. 4; Lukas, Fries, Sundman, Computational Thermodynamics, 2007, ch. 2). Energies are per mole of atoms,
// referred to SER, and also to each element's reference state (GM_formation, worker/results/thermo-extra.ts) as
// the preview draws them. A phase of fixed composition is a single point, where that composition lies on the line.
import { systemName } from '../../contract/plots/names.js';
import { basename } from 'node:path';
import { documentBase } from '../results/document.js';
import { inMoleFractions, openSystem } from '../system/system.js';
import { phaseLabel, tableToCsv, type ResultTable } from '../../contract/results/common.js';
import type { EquilibriumResult } from '../core/equilibrium.js';
import { propertyChart, type Series } from '../plots/charts.js';
import { CancelledError, type CalculationOutput, type JobControl, type TaskJob } from '../protocol.js';
import { writeResultFiles } from '../results/common.js';
import type { GibbsEnergyCurvesDocument, PhaseCurve } from '../../contract/results/gibbs_energy_curves.js';
import { ThermoExtras } from '../results/thermo-extra.js';
import { chunkedBatch } from '../scans/batch.js';

import { GIBBS_CURVES_DEFAULT_POINTS } from '../../contract/tasks/gibbs_energy_curves.js';
import { curveLine, formationEnergy, type CurveLine } from './gibbs_energy_curves/line.js';
import { phaseCurves } from './gibbs_energy_curves/phase-curves.js';
import { commonTangents } from './gibbs_energy_curves/tangents.js';

export const DEFAULT_POINTS = GIBBS_CURVES_DEFAULT_POINTS;

const KELVIN = 273.15;

export function run(job: TaskJob<'gibbs_energy_curves'>, control: JobControl): CalculationOutput {
  if (control.cancelled) throw new CancelledError();
  const cond = inMoleFractions(job, job.config.condition);
  const sys = openSystem(job, cond);
  const n = cond.points ?? DEFAULT_POINTS;
  const line = curveLine(sys.elements, cond, n);
  const { T, P } = line;
  const phases = sys.phases ?? sys.db.phasesFor(sys.elements);
  const extras = new ThermoExtras(sys.db, sys.components, sys.elements, cond.reference_states, T, P);
  const gref = extras.referenceEnergies(T, P);
  const threads = Math.max(1, Math.floor(job.ompThreads || 1));
  const notes: string[] = [];
  // every phase alone, one composition set
  const curves = phaseCurves(sys, line, phases, { threads, control, gref, notes });
  // the global equilibrium: lower convex envelope and the stable common tangents
  const eq = chunkedBatch(
    { database: sys.db, components: sys.components, phases: sys.phases },
    line.conditions,
    threads,
    control,
    0.8,
    0.95,
  );
  const result = curvesResult(line, curves, eq, gref);
  const doc: GibbsEnergyCurvesDocument = {
    ...documentBase(job, 'gibbs_energy_curves', sys),
    ...result,
    reference_states: { ...extras.references },
    reference_energies: gref,
    table: curvesTable(line, curves, eq, result.equilibrium.phases),
    notes: [...extras.notes, ...notes],
  };
  const title = `Gibbs energy, ${systemName(sys.elements)} at ${fmt(T)} K (${fmt(T - KELVIN)} °C), ${basename(sys.tdbFile)}`;
  const files = writeResultFiles(job.taskDir, {
    json: doc,
    csv: tableToCsv(doc.table),
    previews: { gibbs_energy_curves: curvesPreview(doc, title) },
  });
  return {
    summary: curvesSummary(doc, eq, n),
    logs: [
      ...sys.logs,
      `database ${basename(sys.tdbFile)}, components ${sys.components.join(', ')}, phases ${phases.join(', ')}`,
      ...doc.notes.map((m) => `note: ${m}`),
      `written ${files.join(', ')}`,
    ],
  };
}

/** The document's fields of the line, the curves and the equilibrium, in the document's order. */
function curvesResult(line: CurveLine, curves: PhaseCurve[], eq: EquilibriumResult[], gref: Record<string, number>) {
  const eqPhases = eq.map((r) =>
    r.converged ? r.phases.map((p) => phaseLabel({ name: p.name, composition_set: p.setNumber })).sort() : [],
  );
  const tangents = commonTangents(eq, eqPhases, line, gref);
  const xs = line.states.map((st) => st.x);
  return {
    temperature: line.T,
    pressure: line.P,
    axis: line.axis,
    s: line.s,
    axis_values: line.axisValues,
    compositions: xs,
    curves,
    equilibrium: {
      GM: eq.map((r) => (r.converged ? r.GM : null)),
      GM_formation: eq.map((r, i) => (r.converged ? formationEnergy(line.elements, gref, xs[i]!, r.GM) : null)),
      phases: eqPhases,
      converged: eq.map((r) => r.converged),
    },
    tangents,
  };
}

function curvesSummary(doc: GibbsEnergyCurvesDocument, eq: EquilibriumResult[], n: number): string {
  const { curves, tangents } = doc;
  const notConverged = eq.filter((r) => !r.converged).length;
  return (
    `${curves.length} phases, ${n} points at ${fmt(doc.temperature)} K, ${tangents.length} common tangent${tangents.length === 1 ? '' : 's'}` +
    (tangents.length ? `: ${tangents.map((t) => t.phases.join(' + ')).join(', ')}` : '') +
    (notConverged ? ` (${notConverged} equilibria not converged)` : '')
  );
}

const fmt = (v: number, d = 2) => String(Number(v.toFixed(d)));

function curvesTable(line: CurveLine, curves: PhaseCurve[], eq: EquilibriumResult[], labels: string[][]): ResultTable {
  const { axisValues, elements } = line;
  const xs = line.states.map((st) => st.x);
  return {
    columns: [
      { name: 'axis', unit: '-' },
      ...elements.map((e) => ({ name: `x(${e})`, unit: '-' })),
      ...curves.map((c) => ({ name: `GM(${c.name})`, unit: 'J/mol' })),
      ...curves.map((c) => ({ name: `GM_formation(${c.name})`, unit: 'J/mol' })),
      { name: 'GM_equilibrium', unit: 'J/mol' },
      { name: 'phase_name', unit: '' },
    ],
    rows: axisValues.map((a, i) => [
      a,
      ...elements.map((e) => xs[i]![e] ?? null),
      ...curves.map((c) => c.GM[i] ?? null),
      ...curves.map((c) => c.GM_formation[i] ?? null),
      eq[i]!.converged ? eq[i]!.GM : null,
      labels[i]!.join('+'),
    ]),
  };
}

/**
 * The preview: GM_formation of every phase against the line's variable, the equilibrium envelope (the common
 * tangents are its straight parts) dashed, the tangent regions marked. Curves far above the envelope are cut
 * (the window spans the envelope plus four times its own range, at least 1.5 kJ/mol), as a textbook figure is.
 */
export function curvesPreview(doc: GibbsEnergyCurvesDocument, title: string): string {
  const env = doc.equilibrium.GM_formation.filter((v): v is number => v !== null);
  const lo = Math.min(...env),
    hi = Math.max(...env);
  const top = hi + Math.max(1500, 4 * (hi - lo));
  const cut = (v: number | null) => (v === null || v > top ? null : v);
  const series: Series[] = doc.curves
    .filter((c) => c.GM_formation.some((v) => cut(v) !== null))
    .map((c) => ({ name: c.name, values: c.GM_formation.map(cut) }));
  series.push({ name: 'equilibrium envelope', values: doc.equilibrium.GM_formation, dash: '3 4' });
  // each tangent on the grid between its touching points (a straight line in the line's variable)
  doc.tangents.forEach((t, k) => {
    const on = t.points.filter((p) => p.axis_value !== null).sort((a, b) => a.axis_value! - b.axis_value!);
    if (on.length < 2) return;
    const a = on[0]!,
      b = on[on.length - 1]!;
    const lo = a.axis_value!,
      hi = b.axis_value!;
    const values = doc.axis_values.map((x) =>
      x < lo || x > hi || hi === lo
        ? null
        : a.GM_formation + ((b.GM_formation - a.GM_formation) * (x - lo)) / (hi - lo),
    );
    series.push({ name: `tangent ${k + 1}: ${t.phases.join(' + ')}`, values });
  });
  const refs = Object.entries(doc.reference_states)
    .map(([e, p]) => `${e}: ${p}`)
    .join(', ');
  return propertyChart({
    title: `${title}; reference ${refs}`,
    x: doc.axis_values,
    xLabel: doc.axis.unit && doc.axis.unit !== '-' ? `${doc.axis.label} (${doc.axis.unit})` : doc.axis.label,
    panels: [{ label: 'G − Σ x·G(ref) (J/mol)', series }],
    transitions: doc.tangents.flatMap((t) => [{ x: t.axis_range[0], label: t.phases.join('+') }]),
  });
}
