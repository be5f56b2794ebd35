// aging: precipitation during an ageing treatment by the Kampmann-Wagner numerical model of
// worker/calculations/aging/ (simulate.ts). The task's condition becomes the model's configuration (volumes, sites,
// diffusivities, the schedule); the matrix and the precipitates must be phases the task's selection keeps, and every
// element but the matrix's major one needs a diffusivity in the matrix (given as D0 and Q, else from the database's
// or mobility_tdb_code's mobility data) before the run starts. The result: per phase and output time the number
// density, mean and critical radius, volume fraction, nucleation rate and driving force, the matrix's composition,
// size distributions at output_times, and log-time previews.
import { basename } from 'node:path';
import { alloyName } from '../../contract/plots/names.js';
import { tableToCsv } from '../../contract/results/common.js';
import {
  AGING_DEFAULT_DISLOCATION_DENSITY,
  AGING_DEFAULT_GRAIN_SIZE,
  AGING_DEFAULT_LINE_TENSION,
  AGING_DEFAULT_POINTS,
  AGING_DEFAULT_TAYLOR_FACTOR,
  agingEndTime,
} from '../../contract/tasks/aging.js';
import { CancelledError, type CalculationOutput, type JobControl, type TaskJob } from '../protocol.js';
import { writeResultFiles } from '../results/common.js';
import { inMoleFractions, openSystem, resolveCompositions, type CalcSystem } from '../system/system.js';
import { elementMasses, moleToMassFractions } from '../system/units.js';
import { agingDocument, agingPreviews } from './aging/document.js';
import { simulateAging } from './aging/simulate.js';
import { AgingThermo } from './aging/thermo.js';
import type { AgingConfig, SchedulePoint, StrengthInput } from './aging/types.js';

export type AgingCondition = TaskJob<'aging'>['config']['condition'];

/** The treatment's temperature: a constant or the schedule's points. */
function temperatureOf(cond: AgingCondition): number | SchedulePoint[] {
  if (!cond.schedule) return cond.temperature!;
  return cond.schedule.map((p) => ({ t: p.time, T: p.temperature }));
}

/** The strength law with its defaults (the transition radii per phase in upper case), when the condition asks. */
function strengthOf(cond: AgingCondition): StrengthInput | undefined {
  const s = cond.strength;
  if (!s) return undefined;
  return {
    taylor_factor: s.taylor_factor ?? AGING_DEFAULT_TAYLOR_FACTOR,
    shear_modulus: s.shear_modulus,
    burgers_vector: s.burgers_vector,
    line_tension_factor: s.line_tension_factor ?? AGING_DEFAULT_LINE_TENSION,
    transition_radius: s.transition_radius,
    transition_radii: Object.fromEntries(
      Object.entries(s.transition_radii ?? {}).map(([p, r]) => [p.toUpperCase(), r]),
    ),
    combination: s.combination ?? 'quadrature',
  };
}

/** The model's configuration from the task's condition; `alloy` in mole fractions of every element. */
export function agingModelConfig(cond: AgingCondition, alloy: Record<string, number>): AgingConfig {
  const matrixVolume = {
    molar_volume: cond.matrix_molar_volume,
    lattice_parameter: cond.matrix_lattice_parameter,
    atoms_per_cell: cond.matrix_atoms_per_cell,
  };
  return {
    composition: alloy,
    temperature: temperatureOf(cond),
    end_time: agingEndTime(cond),
    pressure: cond.pressure,
    matrix: {
      phase: cond.matrix_phase,
      ...matrixVolume,
      dislocation_density: cond.dislocation_density ?? AGING_DEFAULT_DISLOCATION_DENSITY,
      grain_size: cond.grain_size ?? AGING_DEFAULT_GRAIN_SIZE,
      diffusivities: Object.fromEntries(Object.entries(cond.diffusivities ?? {}).map(([e, d]) => [e.toUpperCase(), d])),
    },
    precipitates: cond.precipitates.map((p) => ({
      phase: p.phase,
      interfacial_energy: p.interfacial_energy,
      // a precipitate without a volume of its own takes the matrix's (a coherent precipitate)
      ...(p.molar_volume === undefined && p.lattice_parameter === undefined
        ? matrixVolume
        : { molar_volume: p.molar_volume, lattice_parameter: p.lattice_parameter, atoms_per_cell: p.atoms_per_cell }),
      nucleation_site: p.nucleation_site ?? 'bulk',
      site_density: p.site_density,
      shape: p.shape,
    })),
    outputs: cond.points ?? AGING_DEFAULT_POINTS,
    psd_times: cond.output_times ?? [agingEndTime(cond)],
    strength: strengthOf(cond),
  };
}

/** The matrix and every precipitate must be phases of the system the task's selection keeps. */
function checkPhases(cond: AgingCondition, sys: CalcSystem): void {
  const kept = sys.phases ?? sys.formable;
  const named: [string, string][] = [
    ['matrix_phase', cond.matrix_phase],
    ...cond.precipitates.map((p, i): [string, string] => [`precipitates.${i}.phase`, p.phase]),
  ];
  for (const [field, phase] of named) {
    const name = phase.toUpperCase();
    if (!sys.formable.includes(name))
      throw new Error(`condition.${field}: ${phase} cannot form from ${sys.elements.join(', ')}`);
    if (!kept.includes(name))
      throw new Error(`condition.${field}: ${phase} is left out by the phase selection (${sys.selection.source})`);
  }
  const names = named.map(([, p]) => p.toUpperCase());
  const twice = names.find((p, i) => names.indexOf(p) !== i);
  if (twice) throw new Error(`condition.precipitates: ${twice} is named twice (or is the matrix)`);
}

/**
 * Where each element's diffusivity in the matrix comes from, at the start of the treatment: given (D0, Q) or the
 * mobility data. An element other than the matrix's major one without either is an Error naming the input to give.
 */
function diffusivitySources(
  sys: CalcSystem,
  config: AgingConfig,
  T: number,
  mobilityCode: string | undefined,
): Record<string, string> {
  const given = config.matrix.diffusivities ?? {};
  const matrix = config.matrix.phase.toUpperCase();
  const thermo = new AgingThermo(sys, matrix, config.pressure ?? 101325, given);
  const state = thermo.matrixAt(T, config.composition);
  const out: Record<string, string> = {};
  for (const e of sys.elements) {
    if (e === state.dependent) continue;
    const D = state.tracer[e];
    if (!(D !== undefined && D > 0 && Number.isFinite(D)))
      throw new Error(
        `condition.diffusivities: no diffusivity of ${e} in ${matrix} (the database${mobilityCode ? ` and ${mobilityCode}` : ''} has no mobility data for it): give diffusivities.${e} as {D0, Q} or a mobility_tdb_code`,
      );
    const how = given[e] ? 'given D0 exp(-Q/RT)' : 'mobility data';
    out[e] = `${how}: ${D.toPrecision(3)} m^2/s at ${T.toFixed(1)} K in the alloy's ${matrix}`;
  }
  return out;
}

export function run(job: TaskJob<'aging'>, control: JobControl): CalculationOutput {
  if (control.cancelled) throw new CancelledError();
  const cond = inMoleFractions(job, job.config.condition);
  const sys = openSystem(job, cond);
  checkPhases(cond, sys);
  const alloy = resolveCompositions(sys.elements, [{ field: 'compositions', value: cond.compositions }]).full[0]!;
  const config = agingModelConfig(cond, alloy);
  const T0 = typeof config.temperature === 'number' ? config.temperature : config.temperature[0]!.T;
  const sources = diffusivitySources(sys, config, T0, job.config.mobility_tdb_code);
  const end = config.end_time;
  config.progress = (t) => {
    if (control.cancelled) throw new CancelledError();
    // the outputs are log-spaced over eight decades: progress in log time
    control.setProgress(Math.min(0.95, Math.max(0, (Math.log10(Math.max(t, end * 1e-8) / end) + 8) / 8) * 0.95));
  };
  const result = simulateAging({ db: sys.db, components: sys.components, elements: sys.elements }, config);
  if (result instanceof CancelledError) throw result;
  if (result instanceof Error) throw new Error(`aging: ${result.message}`);
  const doc = agingDocument(job, sys, { cond, config, result, sources });
  const inMass = job.config.condition.composition_unit === 'mass_fraction';
  const name = alloyName(
    inMass ? moleToMassFractions(doc.composition, elementMasses(sys.db.info().elements)) : doc.composition,
    inMass ? 'mass' : 'mole',
  );
  const files = writeResultFiles(job.taskDir, {
    json: doc,
    csv: tableToCsv(doc.table),
    previews: agingPreviews(doc, `${name} in ${doc.matrix_phase}, ${basename(sys.tdbFile)}`),
  });
  const last = doc.precipitates.map((p) => `${p.phase} f = ${(p.volume_fraction.at(-1) ?? 0).toPrecision(3)}`);
  return {
    summary: `${doc.steps} steps to ${end.toPrecision(4)} s: ${last.join(', ')}`,
    logs: [...sys.logs, ...doc.notes.map((n) => `note: ${n}`), `written ${files.join(', ')}`],
  };
}
