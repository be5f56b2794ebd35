// solidification: Scheil-Gulliver with back diffusion in the solid (worker/scans/scheil/back-diffusion.ts). The
// classic path (and its lever rule) first gives the liquidus, the Scheil solidus and the primary phase; the local
// solidification time t_f = (liquidus - Scheil solidus) / cooling rate and the secondary arm spacing lambda_2 (given,
// or A (cooling rate)^(-1/3), A = 50 um (K/s)^(1/3), Flemings' value for aluminium alloys) give each element's Fourier
// number alpha = 4 D_s t_f / lambda_2^2 with its diffusivity in the primary solid at the middle of the freezing range
// (given as D0 and Q, else the tracer diffusivity from the database's mobility data), and Clyne and Kurz's Omega(alpha)
// (Metall. Trans. A 12 (1981) 965); fast diffusers are in equilibrium with the solid (Omega = 1/2), an element without
// data does not diffuse back (Omega = 0, a note says so). The path with back diffusion is then followed.
import { basename } from 'node:path';
import { alloyName } from '../../contract/plots/names.js';
import { tableToCsv, type ResultTable } from '../../contract/results/common.js';
import type { ScheilStep } from '../../contract/results/scheil_solidification.js';
import type { BackDiffusion, SolidificationDocument, SolidPathPoint } from '../../contract/results/solidification.js';
import {
  ARM_SPACING_COEFFICIENT,
  DEFAULT_DIFFUSIVE_SPEED,
  DEFAULT_FAST_DIFFUSERS,
} from '../../contract/tasks/solidification.js';
import { scheilChart } from '../plots/charts.js';
import { CancelledError, type CalculationOutput, type JobControl, type TaskJob } from '../protocol.js';
import { documentBase } from '../results/document.js';
import { writeResultFiles } from '../results/common.js';
import { backDiffusionUpdate, clyneKurzOmega } from '../scans/scheil/back-diffusion.js';
import { finalProfile, type SolidSlice } from '../scans/scheil/final-profile.js';
import { pathHeat } from '../scans/scheil/path-heat.js';
import { scheilSolidification, type ScheilRun } from '../scans/scheil/run.js';
import { phaseDiffusionAt } from '../system/diffusion.js';
import { inMoleFractions, openSystem, type CalcSystem } from '../system/system.js';
import { elementMasses, moleToMassFractions } from '../system/units.js';

type Condition = TaskJob<'solidification'>['config']['condition'];
const R = 8.3145;

const pathOf = (steps: readonly { T: number; fraction_solid: number }[]): SolidPathPoint[] =>
  steps.map((s) => ({ T: s.T, fraction_solid: s.fraction_solid }));

/** The element that takes what the others leave: the alloy's largest fraction (as in back-diffusion.ts). */
const balanceElement = (x: Record<string, number>): string =>
  Object.keys(x).reduce((a, b) => ((x[b] ?? 0) > (x[a] ?? 0) ? b : a));

/** Each element's back diffusion: fast diffusers in equilibrium, the others from D_s, t_f and lambda_2. */
function backDiffusionOf(
  cond: Condition,
  sys: CalcSystem,
  c: { primary: string | null; Tmid: number; tf: number | null; spacing: number; x: Record<string, number> },
): BackDiffusion[] {
  const fast = new Set((cond.fast_diffusers ?? DEFAULT_FAST_DIFFUSERS).map((e) => e.toUpperCase()));
  const given = Object.fromEntries(
    Object.entries(cond.solid_diffusivities ?? {}).map(([e, d]) => [e.toUpperCase(), d]),
  );
  // the tracer diffusivities in the primary phase at the middle of the freezing range
  const fromDb: Record<string, number> =
    (c.primary ? phaseDiffusionAt(sys, c.primary, c.Tmid, cond.pressure, c.x)?.tracer : undefined) ?? {};
  const balance = balanceElement(c.x);
  return sys.elements.map((element): BackDiffusion => {
    if (element === balance)
      return {
        element,
        diffusivity: null,
        source: 'the balance element: what the others leave',
        alpha: null,
        omega: 0,
      };
    if (fast.has(element))
      return {
        element,
        diffusivity: null,
        source: 'fast diffuser: in equilibrium with the solid',
        alpha: null,
        omega: 0.5,
      };
    const g = given[element];
    const D = g ? g.D0 * Math.exp(-g.Q / (R * c.Tmid)) : (fromDb[element] ?? null);
    const source = g
      ? `D0 exp(-Q/RT) as given at ${c.Tmid.toFixed(1)} K`
      : D !== null
        ? `tracer diffusivity in ${c.primary} at ${c.Tmid.toFixed(1)} K, database mobilities`
        : 'no diffusivity: no back diffusion';
    const alpha = D !== null && c.tf !== null ? (4 * D * c.tf) / (c.spacing * c.spacing) : null;
    return { element, diffusivity: D, source, alpha, omega: alpha === null ? 0 : clyneKurzOmega(alpha) };
  });
}

/** The front's velocity and Aziz's diffusive speed of condition.solute_trapping (solute-trapping.ts), or null. */
function soluteTrappingOf(cond: Condition): SolidificationDocument['solute_trapping'] {
  const t = cond.solute_trapping;
  if (!t) return null;
  const given = t.interface_velocity !== undefined;
  const V = given ? t.interface_velocity! : cond.cooling_rate / t.thermal_gradient!;
  const VD = t.diffusive_speed ?? DEFAULT_DIFFUSIVE_SPEED;
  return {
    interface_velocity: V,
    velocity_source: given ? 'given' : 'cooling rate / thermal gradient',
    diffusive_speed: VD,
    velocity_ratio: V / VD,
  };
}

/** The solid phases in the order they start to form. */
function phasesInOrder(steps: readonly ScheilStep[]): string[] {
  const out: string[] = [];
  for (const s of steps) for (const p of s.phases_forming) if (!out.includes(p)) out.push(p);
  return out;
}

export function run(job: TaskJob<'solidification'>, control: JobControl): CalculationOutput {
  if (control.cancelled) throw new CancelledError();
  const cond = inMoleFractions(job, job.config.condition);
  const sys = openSystem(job, cond);
  const base = {
    database: sys.db,
    components: sys.elements,
    phases: sys.phases ?? [],
    P: cond.pressure,
    composition: cond.compositions,
    startTemperature: cond.start_temperature,
    temperatureStep: cond.temperature_step,
    threads: Math.max(1, Math.floor(job.ompThreads || 1)),
  };
  const classic = scheilSolidification({ ...base, control });
  control.setProgress(0.5);
  const primary = (cond.primary_phase?.toUpperCase() ?? phasesInOrder(classic.steps)[0]) || null;
  const spacing = cond.secondary_arm_spacing ?? ARM_SPACING_COEFFICIENT * Math.pow(cond.cooling_rate, -1 / 3);
  const liq = classic.liquidus_temperature,
    sol = classic.solidus_temperature;
  const tf = liq !== null && sol !== null ? (liq - sol) / cond.cooling_rate : null;
  const Tmid = liq !== null && sol !== null ? 0.5 * (liq + sol) : cond.start_temperature;
  const back = backDiffusionOf(cond, sys, { primary, Tmid, tf, spacing, x: classic.composition });
  const profile: SolidSlice[] = [];
  const trapping = soluteTrappingOf(cond);
  const twoOmega = Object.fromEntries(back.map((b) => [b.element, 2 * b.omega]));
  const withBack = scheilSolidification({
    ...base,
    leverRule: false,
    liquidUpdate: backDiffusionUpdate(twoOmega, profile, primary ?? undefined),
    soluteTrapping: trapping?.velocity_ratio,
    control: undefined,
  });
  control.setProgress(0.95);
  const doc = solidificationDocument(job, sys, cond, {
    classic,
    withBack,
    primary,
    spacing,
    tf,
    back,
    profile,
    trapping,
  });
  const inMass = job.config.condition.composition_unit === 'mass_fraction';
  const alloy = alloyName(
    inMass ? moleToMassFractions(doc.composition, elementMasses(sys.db.info().elements)) : doc.composition,
    inMass ? 'mass' : 'mole',
  );
  const files = writeResultFiles(job.taskDir, {
    json: doc,
    csv: tableToCsv(doc.table),
    previews: { solidification: solidificationPreview(doc, `Solidification of ${alloy}, ${basename(sys.tdbFile)}`) },
  });
  const f = (t: number | null) => (t === null ? 'none' : `${t.toFixed(1)} K`);
  return {
    summary: `liquidus ${f(doc.liquidus)}; solidus with back diffusion ${f(doc.solidus)}, Scheil ${f(doc.scheil_solidus)}, lever rule ${f(doc.lever_rule_solidus)}`,
    logs: [
      ...sys.logs,
      ...classic.logs,
      ...withBack.logs,
      ...doc.notes.map((n) => `note: ${n}`),
      `written ${files.join(', ')}`,
    ],
  };
}

interface Runs {
  classic: ScheilRun;
  withBack: ScheilRun;
  primary: string | null;
  spacing: number;
  tf: number | null;
  back: BackDiffusion[];
  profile: SolidSlice[];
  trapping: SolidificationDocument['solute_trapping'];
}

function solidificationDocument(
  job: TaskJob<'solidification'>,
  sys: CalcSystem,
  cond: Condition,
  r: Runs,
): SolidificationDocument {
  const notes = r.back
    .filter((b) => b.source.startsWith('no diffusivity'))
    .map(
      (b) =>
        `${b.element}: no diffusivity in ${r.primary ?? 'the primary solid'} (no mobility data, none given): no back diffusion of it`,
    );
  if (r.withBack.end_reason !== 'eutectic' && r.withBack.end_reason !== 'liquid_exhausted')
    notes.push(`the path with back diffusion ended: ${r.withBack.end_reason}`);
  const heat = latentHeat(sys, cond.pressure, r, notes);
  return {
    ...documentBase(job, 'solidification', sys),
    pressure: cond.pressure,
    composition: r.classic.composition,
    liquidus: r.classic.liquidus_temperature,
    primary_phase: r.primary,
    cooling_rate: cond.cooling_rate,
    secondary_arm_spacing: r.spacing,
    arm_spacing_source: cond.secondary_arm_spacing !== undefined ? 'given' : 'derived from the cooling rate',
    local_solidification_time: r.tf,
    back_diffusion: r.back,
    solute_trapping: r.trapping,
    path: pathOf(r.withBack.steps),
    scheil_path: pathOf(r.classic.steps),
    lever_rule: pathOf(r.classic.lever_rule),
    solidus: r.withBack.solidus_temperature,
    scheil_solidus: r.classic.solidus_temperature,
    lever_rule_solidus: r.classic.lever_rule_solidus_temperature,
    end_reason: r.withBack.end_reason,
    phases_in_order: phasesInOrder(r.withBack.steps),
    latent_heat: heat,
    microsegregation: r.profile.map((p) => ({ fraction_solid: p.fs, x: p.x })),
    final_profile: finalProfile(
      r.profile,
      Object.fromEntries(r.back.map((b) => [b.element, 2 * b.omega])),
      balanceElement(r.classic.composition),
    ),
    table: pathTable(r.withBack.steps),
    notes,
  };
}

/** The sensible, latent and apparent heat of the path with back diffusion (path-heat.ts) per temperature. */
function latentHeat(sys: CalcSystem, P: number, r: Runs, notes: string[]): SolidificationDocument['latent_heat'] {
  if (r.withBack.end_reason === 'no_liquid') return [];
  let heat: ReturnType<typeof pathHeat>;
  try {
    heat = pathHeat(
      { db: sys.db, components: sys.components, P, liquid: r.withBack.liquid_phase },
      r.withBack.composition,
      r.withBack.heat,
      {
        twoOmega: Object.fromEntries(r.back.map((b) => [b.element, 2 * b.omega])),
        balance: balanceElement(r.withBack.composition),
        primary: r.primary ?? undefined,
      },
    );
  } catch (e) {
    // a phase of the path without a state to evaluate (an ionic liquid the path never had in equilibrium)
    notes.push(`no heat of the path: ${(e as Error).message}`);
    return [];
  }
  let cumulative = 0;
  return heat.map((row) => {
    cumulative += row.latent;
    return {
      T: row.T,
      released: row.latent,
      cumulative,
      apparent_cp: row.apparent_cp,
      sensible_cp: row.sensible_cp,
      latent_cp: row.latent_cp,
      enthalpy: row.enthalpy,
    };
  });
}

function pathTable(steps: readonly ScheilStep[]): ResultTable {
  const els = Object.keys(steps[0]?.liquid_x ?? {});
  return {
    columns: [
      { name: 'T', unit: 'K' },
      { name: 'fraction_solid', unit: '-' },
      { name: 'phases_forming', unit: '' },
      ...els.map((e) => ({ name: `x(LIQUID,${e})`, unit: '-' })),
    ],
    rows: steps.map((s) => [
      s.T,
      s.fraction_solid,
      s.phases_forming.join('+'),
      ...els.map((e) => s.liquid_x[e] ?? null),
    ]),
  };
}

export function solidificationPreview(doc: SolidificationDocument, title: string): string {
  const p = (path: SolidPathPoint[]) => ({ T: path.map((q) => q.T), fs: path.map((q) => q.fraction_solid) });
  return scheilChart({
    title,
    scheil: p(doc.scheil_path),
    lever: doc.lever_rule.length ? p(doc.lever_rule) : undefined,
    backDiffusion: p(doc.path),
    liquidusT: doc.liquidus ?? undefined,
    celsiusAxis: true,
  });
}
