// solution_treatment: where an alloy can be solution treated. The equilibrium amount of every phase from the scan's
// lowest temperature to above the liquidus; the solvus of each precipitate (the highest temperature it is stable at,
// refined to 0.01 K by the fixed-phase search of worker/scans/fixed-phase.ts); incipient melting, the lower of the
// equilibrium solidus and the end of the alloy's Scheil-Gulliver path (a cast, unhomogenised alloy holds
// interdendritic liquid down to the latter: Scheil without back diffusion is the conservative bound); the window
// between the highest solvus and incipient melting, each with the safety margin; the recommended temperature at the
// window's top (dissolution is fastest there); and optionally Whelan's dissolution time of one particle.
import { basename } from 'node:path';
import { alloyName } from '../../contract/plots/names.js';
import { baseName, isLiquidName } from '../../contract/phases.js';
import { tableToCsv, type ResultTable } from '../../contract/results/common.js';
import type { SolutionTreatmentDocument } from '../../contract/results/solution_treatment.js';
import { SOLUTION_DEFAULT_MARGIN, SOLUTION_DEFAULT_POINTS } from '../../contract/tasks/solution_treatment.js';
import type { EquilibriumResult } from '../core/equilibrium.js';
import { phaseFractionChart } from '../plots/charts.js';
import { CancelledError, type CalculationOutput, type JobControl, type TaskJob } from '../protocol.js';
import { documentBase } from '../results/document.js';
import { writeResultFiles } from '../results/common.js';
import { alloyTemperatures } from '../scans/alloy-temperatures.js';
import { chunkedBatch } from '../scans/batch.js';
import { fixedPhaseTemperature } from '../scans/fixed-phase.js';
import { scheilEndTemperature } from '../scans/scheil/run.js';
import { inMoleFractions, openSystem, resolveCompositions, type CalcSystem } from '../system/system.js';
import { elementMasses, moleToMassFractions } from '../system/units.js';
import { dissolutionOf } from './solution_treatment/dissolution.js';

type Condition = TaskJob<'solution_treatment'>['config']['condition'];

/** Each phase's amount (all its composition sets) at each temperature of the scan; 0 where absent. */
function amountsOf(scan: EquilibriumResult[]): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  scan.forEach((r, i) => {
    if (!r.converged) return;
    for (const p of r.phases) (out[baseName(p.name)] ??= new Array<number>(scan.length).fill(0))[i]! += p.NP;
  });
  return out;
}

/**
 * The named matrix, else the solid with the most atoms summed over the scanned temperatures below the solidus: the
 * phase a solution treatment dissolves the others into (austenite of a stainless steel, not the delta ferrite it may
 * solidify as).
 */
function matrixPhase(
  cond: Condition,
  temperatures: number[],
  amounts: Record<string, number[]>,
  solidus: number | null,
) {
  if (cond.matrix_phase) return cond.matrix_phase.toUpperCase();
  const below = temperatures.map((T, i) => ({ T, i })).filter((t) => solidus === null || t.T < solidus);
  const total = (v: number[]) => below.reduce((a, t) => a + (v[t.i] ?? 0), 0);
  const solids = Object.entries(amounts)
    .filter(([p]) => !isLiquidName(p))
    .map(([p, v]) => ({ p, sum: total(v) }))
    .sort((a, b) => b.sum - a.sum);
  return solids[0] && solids[0].sum > 0 ? solids[0].p : null;
}

/** The precipitates: the named ones, or every solid but the matrix that is stable somewhere in the scan. */
function precipitatesOf(cond: Condition, amounts: Record<string, number[]>, matrix: string | null): string[] {
  if (cond.precipitates) return cond.precipitates.map((p) => p.toUpperCase());
  return Object.entries(amounts)
    .filter(([p, v]) => p !== matrix && !isLiquidName(p) && v.some((a) => a > 1e-9))
    .map(([p]) => p)
    .sort();
}

/** The solvus of each precipitate: from the highest scanned temperature it is stable at, the boundary above it. */
function solvusOf(
  sys: CalcSystem,
  X: Record<string, number>,
  P: number,
  temperatures: number[],
  amounts: Record<string, number[]>,
  precipitates: string[],
  control: JobControl,
): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const phase of precipitates) {
    const v = amounts[phase] ?? [];
    let top = -1;
    v.forEach((a, i) => {
      if (a > 1e-9) top = i;
    });
    if (top < 0) {
      out[phase] = null;
      continue;
    }
    const found = fixedPhaseTemperature(
      sys,
      X,
      P,
      { phase, amount: 0, from: temperatures[top]! },
      () => control.cancelled,
    );
    out[phase] = found instanceof Error || found.T < temperatures[top]! - 1e-6 ? temperatures[top]! : found.T;
  }
  return out;
}

/** The window and the recommended temperature: [highest solvus + margin, incipient melting - margin]. */
function windowOf(solvus: Record<string, number | null>, incipient: number | null, margin: number, low: number) {
  if (incipient === null) return { window: null, recommended: null };
  const highest = Math.max(low, ...Object.values(solvus).filter((t): t is number => t !== null));
  const lo = highest + margin,
    hi = incipient - margin;
  return lo <= hi ? { window: [lo, hi] as [number, number], recommended: hi } : { window: null, recommended: null };
}

export function run(job: TaskJob<'solution_treatment'>, control: JobControl): CalculationOutput {
  if (control.cancelled) throw new CancelledError();
  const cond = inMoleFractions(job, job.config.condition);
  const sys = openSystem(job, cond);
  const P = cond.pressure;
  const X = resolveCompositions(sys.elements, [{ field: 'condition.compositions', value: cond.compositions }]).X[0]!;
  const clock = stageClock();
  const alloy = alloyTemperatures(sys, X, P, () => control.cancelled);
  clock.stage('liquidus and solidus');
  control.setProgress(0.15);
  const scheil = scheilEndTemperature(sys, X, P, alloy.liquidus, control);
  clock.stage('Scheil solidus');
  control.setProgress(0.35);
  const melting = [alloy.solidus, scheil].filter((t): t is number => t !== null);
  const incipient = melting.length ? Math.min(...melting) : null;
  const top = cond.temperature_end ?? (alloy.liquidus ?? cond.temperature_start + 980) + 20;
  const n = cond.points ?? SOLUTION_DEFAULT_POINTS;
  const temperatures = Array.from(
    { length: n },
    (_, i) => cond.temperature_start + ((top - cond.temperature_start) * i) / (n - 1),
  );
  const threads = Math.max(1, Math.floor(job.ompThreads || 1));
  const scan = chunkedBatch(
    { database: sys.db, components: sys.components, phases: sys.phases },
    temperatures.map((T) => ({ T, P, X })),
    threads,
    control,
    0.35,
    0.7,
  );
  clock.stage(`scan of ${n} temperatures`);
  const amounts = amountsOf(scan);
  const matrix = matrixPhase(cond, temperatures, amounts, alloy.solidus);
  const precipitates = precipitatesOf(cond, amounts, matrix);
  const solvus = solvusOf(sys, X, P, temperatures, amounts, precipitates, control);
  clock.stage('solvus searches');
  control.setProgress(0.85);
  const margin = cond.safety_margin ?? SOLUTION_DEFAULT_MARGIN;
  const { window, recommended } = windowOf(solvus, incipient, margin, cond.temperature_start);
  const notes = solutionNotes(matrix, precipitates, solvus, incipient, window, scan);
  const composition = scan.find((r) => r.converged)?.x ?? X;
  const dissolution = dissolutionFor(cond, sys, { matrix, recommended, P, composition, scan, temperatures, notes });
  const doc: SolutionTreatmentDocument = {
    ...documentBase(job, 'solution_treatment', sys),
    pressure: P,
    composition,
    temperatures,
    amounts,
    liquidus: alloy.liquidus,
    solidus: alloy.solidus,
    scheil_solidus: scheil,
    incipient_melting: incipient,
    matrix_phase: matrix,
    solvus,
    window,
    recommended_temperature: recommended,
    safety_margin: margin,
    dissolution,
    table: amountsTable(temperatures, amounts),
    notes,
  };
  // the alloy as the task gave it: in mass percent for a task in mass fractions
  const inMass = job.config.condition.composition_unit === 'mass_fraction';
  const alloyText = alloyName(
    inMass ? moleToMassFractions(composition, elementMasses(sys.db.info().elements)) : composition,
    inMass ? 'mass' : 'mole',
  );
  const files = writeResultFiles(job.taskDir, {
    json: doc,
    csv: tableToCsv(doc.table),
    previews: {
      solution_treatment: solutionPreview(
        doc,
        `Solution treatment of ${alloyText}, ${basename(sys.tdbFile)}`,
        job.config.preview_temperature_unit,
      ),
    },
  });
  return {
    summary: solutionSummary(doc),
    logs: [...sys.logs, `time: ${clock.text()}`, ...notes.map((m) => `note: ${m}`), `written ${files.join(', ')}`],
  };
}

/** Wall time of the stages of a run, for its logs. */
function stageClock() {
  let last = performance.now();
  const parts: string[] = [];
  return {
    stage(name: string) {
      const now = performance.now();
      parts.push(`${name} ${((now - last) / 1000).toFixed(2)} s`);
      last = now;
    },
    text: () => parts.join(', '),
  };
}

interface DissolutionContext {
  matrix: string | null;
  recommended: number | null;
  P: number;
  composition: Record<string, number>;
  scan: EquilibriumResult[];
  temperatures: number[];
  notes: string[];
}

/** Whelan's dissolution when asked for; an input that cannot be set up fails the task naming the field. */
function dissolutionFor(cond: Condition, sys: CalcSystem, c: DissolutionContext) {
  const d = cond.dissolution;
  if (!d) return null;
  const phase = d.phase.toUpperCase();
  const T = d.temperature ?? c.recommended;
  if (T === undefined || T === null)
    throw new Error('condition.dissolution.temperature: there is no solution window to take it from; give one');
  if (!c.matrix) throw new Error('condition.matrix_phase: no matrix phase was found below the solidus; name one');
  // the particle's composition where the scan last had it
  let particle: Record<string, number> | undefined;
  c.scan.forEach((r) => {
    const set = r.converged ? r.phases.find((p) => baseName(p.name) === phase) : undefined;
    if (set) particle = set.x;
  });
  if (!particle) throw new Error(`condition.dissolution.phase: ${phase} is not stable anywhere in the scan`);
  const out = dissolutionOf(sys, {
    matrix: c.matrix,
    phase,
    radius: d.radius,
    T,
    P: c.P,
    X: c.composition,
    particle,
    diffusivity: d.diffusivity,
  });
  if (out instanceof Error) throw out;
  if (out.time === null)
    c.notes.push(
      `${phase} does not dissolve at ${T.toFixed(2)} K: the matrix there is not undersaturated in ${out.solute} (k = ${out.k.toPrecision(3)})`,
    );
  return out;
}

function solutionNotes(
  matrix: string | null,
  precipitates: string[],
  solvus: Record<string, number | null>,
  incipient: number | null,
  window: [number, number] | null,
  scan: EquilibriumResult[],
): string[] {
  const notes: string[] = [];
  const failed = scan.filter((r) => !r.converged).length;
  if (failed) notes.push(`${failed} equilibria of the scan did not converge (their amounts are left out)`);
  if (!matrix) notes.push('no solid matrix below the solidus in the scan');
  if (precipitates.length === 0)
    notes.push('no precipitate phase in the scan: any temperature below incipient melting dissolves everything');
  if (incipient === null) notes.push('no liquid phase or no solidus: incipient melting is unknown');
  else if (!window) {
    const blocking = Object.entries(solvus)
      .filter(([, t]) => t !== null && t >= incipient)
      .map(([p]) => p);
    notes.push(
      `no solution window: ${blocking.length ? `${blocking.join(', ')} dissolve${blocking.length === 1 ? 's' : ''} only above incipient melting` : 'the margins leave no temperature'}`,
    );
  }
  return notes;
}

function amountsTable(temperatures: number[], amounts: Record<string, number[]>): ResultTable {
  const phases = Object.keys(amounts).sort();
  return {
    columns: [{ name: 'T', unit: 'K' }, ...phases.map((p) => ({ name: `NP(${p})`, unit: 'mol/mol' }))],
    rows: temperatures.map((T, i) => [T, ...phases.map((p) => amounts[p]![i] ?? 0)]),
  };
}

function solutionSummary(doc: SolutionTreatmentDocument): string {
  const f = (t: number | null) => (t === null ? 'none' : `${t.toFixed(2)} K`);
  const solvus = Object.entries(doc.solvus)
    .map(([p, t]) => `${p} ${f(t)}`)
    .join(', ');
  return (
    `solvus ${solvus || 'none'}; incipient melting ${f(doc.incipient_melting)}; ` +
    (doc.window
      ? `window ${f(doc.window[0])} - ${f(doc.window[1])}, recommended ${f(doc.recommended_temperature)}`
      : 'no solution window') +
    (doc.dissolution?.time != null
      ? `; ${doc.dissolution.phase} of ${doc.dissolution.initial_radius} m dissolves in ${doc.dissolution.time.toPrecision(3)} s`
      : '')
  );
}

/** The preview: each phase's amount against T, with the solvus, incipient-melting and recommended temperatures. */
export function solutionPreview(doc: SolutionTreatmentDocument, title: string, unit?: 'kelvin' | 'celsius'): string {
  const marks = [
    ...Object.entries(doc.solvus).flatMap(([p, t]) => (t === null ? [] : [{ x: t, label: `solvus ${p}` }])),
    ...(doc.incipient_melting !== null ? [{ x: doc.incipient_melting, label: 'incipient melting' }] : []),
    ...(doc.recommended_temperature !== null ? [{ x: doc.recommended_temperature, label: 'recommended' }] : []),
  ];
  return phaseFractionChart({
    title,
    x: doc.temperatures,
    xLabel: 'Temperature (K)',
    series: Object.keys(doc.amounts)
      .sort()
      .map((p) => ({ name: p, values: doc.amounts[p]! })),
    transitions: marks,
    yLabel: 'Amount (mol/mol of atoms)',
    celsiusAxis: unit === 'celsius',
    temperatureUnit: unit,
  });
}
