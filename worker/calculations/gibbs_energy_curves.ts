// gibbs_energy_curves (an extension of the spec's task types, README "Calculations"): at a fixed temperature and
// pressure, along a straight composition line (a binary from x = 0 to 1, or any line between two compositions),
// the molar Gibbs energy of every phase alone (one composition set, minimised over its internal degrees of
// freedom: sublattice occupation, ordering) and the global equilibrium, whose GM is the lower convex envelope;
// each multi-phase region of the line gives a stable common tangent GM(x) = sum_i MU_i x_i touching its phases
// (the textbook construction: e.g. Hillert, Phase Equilibria, Phase Diagrams and Phase Transformations, 2nd ed.,
// 2008, ch. 4; Lukas, Fries, Sundman, Computational Thermodynamics, 2007, ch. 2). Energies are per mole of atoms,
// referred to SER, and also to each element's reference state (GM_formation, worker/results/thermo-extra.ts) as
// the preview draws them. A phase of fixed composition is a single point, where that composition lies on the line.
import { basename } from 'node:path';
import { stateAt, type ScanPath } from '../scans/scan-path.js';
import { axisOf, axisValue } from '../scans/line-scan.js';
import { documentBase } from '../results/document.js';
import { inMoleFractions, openSystem, resolveCompositions } from '../system/system.js';
import { phaseLabel, tableToCsv, type ResultTable } from '../../contract/results/common.js';
import type { EquilibriumConditions, EquilibriumResult } from '../core/equilibrium.js';
import { PhaseModel } from '../core/models.js';
import { propertyChart, type Series } from '../plots/charts.js';
import { CancelledError, type CalculationOutput, type JobControl, type TaskJob } from '../protocol.js';
import { writeResultFiles } from '../results/common.js';
import type {
  CommonTangent,
  GibbsEnergyCurvesDocument,
  PhaseCurve,
} from '../../contract/results/gibbs_energy_curves.js';
import { ThermoExtras } from '../results/thermo-extra.js';
import { chunkedBatch } from '../scans/batch.js';

import { GIBBS_CURVES_DEFAULT_POINTS } from '../../contract/tasks/gibbs_energy_curves.js';

export const DEFAULT_POINTS = GIBBS_CURVES_DEFAULT_POINTS;

const KELVIN = 273.15;

export function run(job: TaskJob<'gibbs_energy_curves'>, control: JobControl): CalculationOutput {
  if (control.cancelled) throw new CancelledError();
  const cond = inMoleFractions(job, job.config.condition);
  const sys = openSystem(job, cond);
  const T = cond.temperature,
    P = cond.pressure;
  const n = cond.points ?? DEFAULT_POINTS;
  const comp = resolveCompositions(sys.elements, [
    { field: 'condition.compositions_start', value: cond.compositions_start },
    { field: 'condition.compositions_end', value: cond.compositions_end },
  ]);
  const path: ScanPath = {
    T0: T,
    T1: T,
    P,
    X0: comp.X[0]!,
    X1: comp.X[1]!,
    full0: comp.full[0]!,
    full1: comp.full[1]!,
  };
  const axis = axisOf(path, sys.elements, comp.dependent);
  const s = Array.from({ length: n }, (_, i) => i / (n - 1));
  const states = s.map((v) => ({ s: v, ...stateAt(path, v) }));
  const conditions: EquilibriumConditions[] = states.map((st) => ({ T, P, X: st.X }));
  const axisValues = states.map((st) => axisValue(axis, st));
  const phases = sys.phases ?? sys.db.phasesFor(sys.elements);
  const extras = new ThermoExtras(sys.db, sys.components, sys.elements, cond.reference_states, T, P);
  const gref = extras.referenceEnergies(T, P);
  const formation = (x: Record<string, number>, gm: number) =>
    gm - sys.elements.reduce((a, el) => a + (x[el] ?? 0) * gref[el]!, 0);
  const threads = Math.max(1, Math.floor(job.ompThreads || 1));
  const notes: string[] = [];

  // every phase alone, one composition set
  const curves: PhaseCurve[] = [];
  phases.forEach((ph, k) => {
    if (control.cancelled) throw new CancelledError();
    const fixed = fixedComposition(sys, ph, T, P);
    if (fixed) {
      const on = positionOnLine(path, fixed.x, sys.elements);
      const curve: PhaseCurve = { name: ph, GM: s.map(() => null), GM_formation: s.map(() => null) };
      if (on !== null) {
        const st = stateAt(path, on);
        curve.compound = {
          s: on,
          axis_value: axisValue(axis, { s: on, ...st }),
          x: fixed.x,
          GM: fixed.GM,
          GM_formation: formation(fixed.x, fixed.GM),
        };
      } else notes.push(`${ph}: a phase of fixed composition off the line (${fmtX(fixed.x)})`);
      curves.push(curve);
      return;
    }
    let rs: EquilibriumResult[];
    try {
      rs = chunkedBatch(
        { database: sys.db, components: sys.components, phases: [ph], options: { singleSet: true } },
        conditions,
        threads,
        control,
        (0.8 * k) / phases.length,
        (0.8 * (k + 1)) / phases.length,
      );
    } catch (e) {
      if (e instanceof CancelledError) throw e;
      notes.push(`${ph}: no curve (${(e as Error).message})`);
      curves.push({ name: ph, GM: s.map(() => null), GM_formation: s.map(() => null) });
      return;
    }
    const GM = rs.map((r) => (r.converged && r.phases.length === 1 ? r.GM : null));
    if (GM.every((g) => g === null)) notes.push(`${ph}: no converged state on the line`);
    curves.push({ name: ph, GM, GM_formation: GM.map((g, i) => (g === null ? null : formation(states[i]!.x, g))) });
  });

  // the global equilibrium: lower convex envelope and the stable common tangents
  const eq = chunkedBatch(
    { database: sys.db, components: sys.components, phases: sys.phases },
    conditions,
    threads,
    control,
    0.8,
    0.95,
  );
  const eqPhases = eq.map((r) =>
    r.converged ? r.phases.map((p) => phaseLabel({ name: p.name, composition_set: p.setNumber })).sort() : [],
  );
  const tangents = commonTangents(eq, eqPhases, s, axisValues, path, sys.elements, axis, gref);
  const doc: GibbsEnergyCurvesDocument = {
    ...documentBase(job, 'gibbs_energy_curves', sys),
    temperature: T,
    pressure: P,
    axis,
    s,
    axis_values: axisValues,
    compositions: states.map((st) => st.x),
    curves,
    equilibrium: {
      GM: eq.map((r) => (r.converged ? r.GM : null)),
      GM_formation: eq.map((r, i) => (r.converged ? formation(states[i]!.x, r.GM) : null)),
      phases: eqPhases,
      converged: eq.map((r) => r.converged),
    },
    tangents,
    reference_states: { ...extras.references },
    reference_energies: gref,
    table: curvesTable(
      axisValues,
      states.map((st) => st.x),
      sys.elements,
      curves,
      eq,
      eqPhases,
    ),
    notes: [...extras.notes, ...notes],
  };
  const title = `Gibbs energy, ${sys.elements.join('-')} at ${fmt(T)} K (${fmt(T - KELVIN)} °C), ${basename(sys.tdbFile)}`;
  const files = writeResultFiles(job.taskDir, {
    json: doc,
    csv: tableToCsv(doc.table),
    previews: { gibbs_energy_curves: curvesPreview(doc, title) },
  });
  const notConverged = eq.filter((r) => !r.converged).length;
  const summary =
    `${curves.length} phases, ${n} points at ${fmt(T)} K, ${tangents.length} common tangent${tangents.length === 1 ? '' : 's'}` +
    (tangents.length ? `: ${tangents.map((t) => t.phases.join(' + ')).join(', ')}` : '') +
    (notConverged ? ` (${notConverged} equilibria not converged)` : '');
  return {
    summary,
    logs: [
      ...sys.logs,
      `database ${basename(sys.tdbFile)}, components ${sys.components.join(', ')}, phases ${phases.join(', ')}`,
      ...doc.notes.map((m) => `note: ${m}`),
      `written ${files.join(', ')}`,
    ],
  };
}

const fmt = (v: number, d = 2) => String(Number(v.toFixed(d)));
const fmtX = (x: Record<string, number>) =>
  Object.entries(x)
    .map(([e, v]) => `${e} ${fmt(v, 4)}`)
    .join(', ');

/** A phase whose every sublattice holds one constituent: its composition and GM, else null. */
function fixedComposition(
  sys: { db: GibbsSystem['db']; components: string[] },
  phase: string,
  T: number,
  P: number,
): { x: Record<string, number>; GM: number } | null {
  const model = PhaseModel.build(sys.db, phase, sys.components);
  if (!model) return null;
  const perSublattice = new Map<number, number>();
  for (const v of model.variables) perSublattice.set(v.sublattice, (perSublattice.get(v.sublattice) ?? 0) + 1);
  if ([...perSublattice.values()].some((c) => c > 1)) return null;
  const y = new Float64Array(model.variables.length).fill(1);
  const mo = model.moles(y, 0);
  const x = Object.fromEntries(model.info.elements.map((e, i) => [e, mo.M[i]! / mo.Nf]));
  return { x, GM: model.evaluate(T, P, y, 0).GM };
}
type GibbsSystem = ReturnType<typeof openSystem>;

/** Path parameter at which the line passes through composition x (within 1e-6), or null. */
function positionOnLine(path: ScanPath, x: Record<string, number>, elements: string[]): number | null {
  let s: number | null = null;
  for (const e of elements) {
    const d = path.full1[e]! - path.full0[e]!;
    if (Math.abs(d) > 1e-12) {
      s = ((x[e] ?? 0) - path.full0[e]!) / d;
      break;
    }
  }
  if (s === null || s < -1e-9 || s > 1 + 1e-9) return null;
  const st = stateAt(path, s);
  return elements.every((e) => Math.abs((st.x[e] ?? 0) - (x[e] ?? 0)) < 1e-6) ? Math.min(1, Math.max(0, s)) : null;
}

/** One tangent per run of consecutive points with the same multi-phase set (its middle point's chemical potentials). */
function commonTangents(
  eq: EquilibriumResult[],
  labels: string[][],
  s: number[],
  axisValues: number[],
  path: ScanPath,
  elements: string[],
  axis: ReturnType<typeof axisOf>,
  gref: Record<string, number>,
): CommonTangent[] {
  const out: CommonTangent[] = [];
  let i = 0;
  while (i < eq.length) {
    const key = labels[i]!.join('+');
    let j = i;
    while (j + 1 < eq.length && labels[j + 1]!.join('+') === key && eq[j + 1]!.converged) j++;
    if (eq[i]!.converged && labels[i]!.length >= 2) {
      const r = eq[Math.floor((i + j) / 2)]!;
      const mu = { ...r.mu };
      const gf = (x: Record<string, number>, gm: number) =>
        gm - elements.reduce((a, el) => a + (x[el] ?? 0) * gref[el]!, 0);
      out.push({
        phases: labels[i]!,
        mu,
        mu_formation: Object.fromEntries(elements.map((el) => [el, (mu[el] ?? 0) - gref[el]!])),
        points: r.phases.map((p) => {
          const on = positionOnLine(path, p.x, elements);
          return {
            phase: phaseLabel({ name: p.name, composition_set: p.setNumber }),
            x: { ...p.x },
            s: on,
            axis_value: on === null ? null : axisValue(axis, { s: on, ...stateAt(path, on) }),
            GM: p.GM,
            GM_formation: gf(p.x, p.GM),
          };
        }),
        s_range: [s[i]!, s[j]!],
        axis_range: [axisValues[i]!, axisValues[j]!],
      });
    }
    i = j + 1;
  }
  return out;
}

function curvesTable(
  axisValues: number[],
  xs: Record<string, number>[],
  elements: string[],
  curves: PhaseCurve[],
  eq: EquilibriumResult[],
  labels: string[][],
): ResultTable {
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
