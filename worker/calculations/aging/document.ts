// The result of an aging task: the model's records (simulate.ts) as result.json (columns per phase against time),
// result.csv, notes on what did not precipitate, and the log-time previews.
import type { ResultTable } from '../../../contract/results/common.js';
import type { AgingDocument, AgingPhaseSeries, AgingStrength } from '../../../contract/results/aging.js';
import { kineticsChart, type KineticsPanel } from '../../plots/kinetics.js';
import { KELVIN_OFFSET, previewTemperatureUnit } from '../../plots/svg.js';
import type { TaskJob } from '../../protocol.js';
import { documentBase } from '../../results/document.js';
import type { CalcSystem } from '../../system/system.js';
import type { AgingCondition } from '../aging.js';
import { siteDensity } from './nucleation.js';
import { latticeSpacing, molarVolumeOf } from './setup.js';
import { strengthLaw } from './strength.js';
import type { AgingConfig, AgingResult, PrecipitateInput } from './types.js';

export interface AgingRun {
  cond: AgingCondition;
  config: AgingConfig;
  result: AgingResult;
  sources: Record<string, string>;
}

/** The molar volume of a volume input already checked by the model's run. */
function volume(v: Parameters<typeof molarVolumeOf>[0]): number {
  const m = molarVolumeOf(v, '');
  return m instanceof Error ? NaN : m;
}

function phaseSeries(run: AgingRun, p: PrecipitateInput): AgingPhaseSeries {
  const { config, result } = run;
  const phase = p.phase.toUpperCase();
  const records = result.phases[phase] ?? [];
  const matrixVolume = volume(config.matrix);
  const spacing = latticeSpacing(config.matrix, matrixVolume);
  const site = p.nucleation_site ?? 'bulk';
  const sites =
    p.site_density ??
    siteDensity(site, matrixVolume, spacing, config.matrix.dislocation_density, config.matrix.grain_size);
  return {
    phase,
    interfacial_energy: p.interfacial_energy,
    molar_volume: volume(p),
    nucleation_site: site,
    site_density: sites instanceof Error ? NaN : sites,
    shape: { kind: p.shape?.kind ?? 'sphere', aspect_ratio: p.shape?.aspect_ratio ?? 1 },
    composition: result.precipitate_composition[phase] ?? null,
    number_density: records.map((r) => r.number_density),
    mean_radius: records.map((r) => r.mean_radius),
    critical_radius: records.map((r) => r.critical_radius),
    volume_fraction: records.map((r) => r.volume_fraction),
    nucleation_rate: records.map((r) => r.nucleation_rate),
    driving_force: records.map((r) => r.driving_force),
    ...(config.strength
      ? {
          strength: {
            transition_radius: strengthLaw(config.strength, phase).rc,
            shearing: records.map((r) => r.strength?.shearing ?? 0),
            orowan: records.map((r) => r.strength?.orowan ?? 0),
            total: records.map((r) => r.strength?.total ?? 0),
          },
        }
      : {}),
  };
}

/** The strength law used and the phases' increments together, when the configuration asks for them. */
function strengthOf(run: AgingRun): AgingStrength | undefined {
  const s = run.config.strength;
  if (!s) return undefined;
  return {
    taylor_factor: s.taylor_factor,
    shear_modulus: s.shear_modulus,
    burgers_vector: s.burgers_vector,
    line_tension_factor: s.line_tension_factor,
    combination: s.combination,
    total: run.result.strength_total ?? [],
  };
}

/** The notes of the model and, when no phase formed at all, why the result is empty. */
function notesOf(run: AgingRun, precipitates: AgingPhaseSeries[]): string[] {
  const notes = [...run.result.notes];
  if (precipitates.every((p) => p.composition === null))
    notes.unshift(
      `nothing precipitated: the ${run.config.matrix.phase.toUpperCase()} matrix is not supersaturated for ${precipitates.map((p) => p.phase).join(', ')} (or no nucleus formed) in this treatment`,
    );
  return notes;
}

/** result.csv: per output time T, each phase's series and the matrix's composition. */
function agingTable(doc: Omit<AgingDocument, 'table'>): ResultTable {
  const els = Object.keys(doc.matrix_composition);
  const perPhase: [string, string, (p: AgingPhaseSeries) => (number | null)[]][] = [
    ['N', 'm^-3', (p) => p.number_density],
    ['r_mean', 'm', (p) => p.mean_radius],
    ['r_critical', 'm', (p) => p.critical_radius],
    ['f_volume', '-', (p) => p.volume_fraction],
    ['J_nucleation', 'm^-3 s^-1', (p) => p.nucleation_rate],
    ['driving_force', 'J/mol', (p) => p.driving_force],
  ];
  if (doc.strength)
    perPhase.push(
      ['dsigma_shearing', 'Pa', (p) => p.strength?.shearing ?? []],
      ['dsigma_orowan', 'Pa', (p) => p.strength?.orowan ?? []],
      ['dsigma', 'Pa', (p) => p.strength?.total ?? []],
    );
  const total = doc.strength?.total;
  const columns = [
    { name: 'time', unit: 's' },
    { name: 'T', unit: 'K' },
    ...doc.precipitates.flatMap((p) => perPhase.map(([q, unit]) => ({ name: `${q}(${p.phase})`, unit }))),
    ...(total ? [{ name: 'dsigma_precipitates', unit: 'Pa' }] : []),
    ...els.map((e) => ({ name: `x(${doc.matrix_phase},${e})`, unit: '-' })),
  ];
  const rows = doc.time.map((t, i) => [
    t,
    doc.temperature[i] ?? null,
    ...doc.precipitates.flatMap((p) => perPhase.map(([, , of]) => of(p)[i] ?? null)),
    ...(total ? [total[i] ?? null] : []),
    ...els.map((e) => doc.matrix_composition[e]![i] ?? null),
  ]);
  return { columns, rows };
}

export function agingDocument(job: TaskJob<'aging'>, sys: CalcSystem, run: AgingRun): AgingDocument {
  const { cond, config, result } = run;
  const precipitates = config.precipitates.map((p) => phaseSeries(run, p));
  const matrixComposition = Object.fromEntries(
    sys.elements.map((e) => [e, result.matrix_composition.map((x) => x[e] ?? 0)]),
  );
  const schedule =
    typeof config.temperature === 'number'
      ? [
          { time: 0, temperature: config.temperature },
          { time: config.end_time, temperature: config.temperature },
        ]
      : config.temperature.map((p) => ({ time: p.t, temperature: p.T }));
  const body = {
    ...documentBase(job, 'aging', sys),
    pressure: cond.pressure,
    composition: config.composition,
    matrix_phase: cond.matrix_phase.toUpperCase(),
    matrix_molar_volume: volume(config.matrix),
    schedule,
    end_time: config.end_time,
    time: result.time,
    temperature: result.temperature,
    matrix_composition: matrixComposition,
    precipitates,
    size_distributions: result.size_distributions.map((d) => ({
      time: d.t,
      phase: d.phase,
      radius: d.radius,
      number: d.number,
    })),
    diffusivity_source: run.sources,
    mass_balance_error: result.mass_balance_error,
    steps: result.steps,
    ...(config.strength ? { strength: strengthOf(run) } : {}),
    notes: notesOf(run, precipitates),
  };
  return { ...body, table: agingTable(body) };
}

/** Values above `floor` only (a log axis), else a gap. */
const above = (v: (number | null)[], floor = 0) => v.map((x) => (x !== null && x > floor ? x : null));
const positive = (v: (number | null)[]) => above(v);

/** The yield-strength increments in MPa: each phase's and, with more than one phase, their combination. */
function strengthPanel(doc: AgingDocument, strength: AgingStrength): KineticsPanel {
  const mpa = (v: number[]) => v.map((x) => x * 1e-6);
  return {
    label: 'Strength Δσ (MPa)',
    series: [
      ...doc.precipitates.map((p) => ({ name: p.phase, values: mpa(p.strength?.total ?? []) })),
      ...(doc.precipitates.length > 1
        ? [{ name: `total (${strength.combination})`, color: '#000000', values: mpa(strength.total) }]
        : []),
    ],
  };
}

/**
 * The previews: number density, radii and volume fraction against log time, the matrix's solute against it, the
 * temperature of a schedule and the strength increment when asked.
 */
export function agingPreviews(doc: AgingDocument, title: string): Record<string, string> {
  const solutes = Object.keys(doc.matrix_composition).filter((e) => {
    const x = doc.matrix_composition[e]!;
    return (x[0] ?? 0) < 0.5;
  });
  const panels: KineticsPanel[] = [
    {
      label: 'Number density (m⁻³)',
      log: true,
      // fewer than one particle per m^3 is no particle (the model empties a phase below it)
      series: doc.precipitates.map((p) => ({ name: p.phase, values: above(p.number_density, 1) })),
    },
    {
      label: 'Radius (nm)',
      log: true,
      series: doc.precipitates.flatMap((p) => [
        { name: `${p.phase} mean`, values: positive(p.mean_radius.map((r) => r * 1e9)) },
        {
          name: `${p.phase} critical`,
          values: positive(p.critical_radius.map((r) => (r === null ? null : r * 1e9))),
          dash: '8 5',
        },
      ]),
    },
    {
      label: 'Volume fraction',
      series: doc.precipitates.map((p) => ({ name: p.phase, values: p.volume_fraction })),
    },
    {
      label: `x in ${doc.matrix_phase}`,
      series: solutes.map((e) => ({ name: `x(${e})`, values: doc.matrix_composition[e]! })),
    },
  ];
  if (doc.strength) panels.push(strengthPanel(doc, doc.strength));
  if (doc.temperature.some((T) => T !== doc.temperature[0])) {
    // a schedule: its temperature on top, in the unit the task chose for its previews
    const celsius = previewTemperatureUnit(doc.config) === 'celsius';
    panels.unshift({
      label: celsius ? 'Temperature (°C)' : 'Temperature (K)',
      series: [{ name: 'T', color: '#555555', values: doc.temperature.map((T) => (celsius ? T - KELVIN_OFFSET : T)) }],
    });
  }
  return { aging: kineticsChart({ title, time: doc.time, panels }) };
}
