// Kind "scheil": Scheil-Gulliver solidification (worker/calculations/scheil_solidification.ts) with the
// case's `calculation` settings (start_temperature, step_temperature, stop, liquid_phase), then the
// expected quantities (shared/validation/README.md "Scheil quantities"):
//   first_solid_phase            the solid(s) forming at the liquidus
//   T_first_solid                the liquidus (first solid), K
//   T_first_<PHASE> (...)        temperature of the first step in which PHASE forms
//   T_last_<PHASE> (...)         temperature of the last step in which PHASE forms
//   X(LIQUID,EL) at T_last_<PHASE>   liquid composition after that step
//   last_solid_phase(s)          the solid(s) forming in the last step
//   T_end                        the end (solidus) of the Scheil path, K
//   final fraction solid / liquid, the sum of the cumulative solid phase amounts, the lever-rule solidus
// Conditions X(EL) or W(EL) (mass fractions converted with the TDB element masses).
// A single phase is returned as its name, several as a list (so a "single phase" expectation fails
// honestly when more than one phase forms).
import { scheilSolidification, type ScheilRun } from '../../scans/scheil/run.js';
import { caseDatabase } from '../databases.js';
import { withoutRemark } from '../expression.js';
import type { ComputedValue, KindHandler } from '../types.js';

function phasesValue(p: string[]): unknown {
  return p.length === 1 ? p[0] : p;
}

function quantity(q: string, run: ScheilRun): ComputedValue {
  const Q = q.trim();
  const K = withoutRemark(q);
  const steps = run.steps;
  const forming = steps.filter((s) => s.phases_forming.length > 0);
  let m: RegExpExecArray | null;
  if (K === 'first_solid_phase' || K === 'first_solid_phases') {
    return forming.length
      ? { value: phasesValue(forming[0].phases_forming) }
      : { value: null, unsupported: 'no solid formed' };
  }
  if (K === 'last_solid_phase' || K === 'last_solid_phases') {
    return forming.length
      ? { value: phasesValue(forming[forming.length - 1].phases_forming) }
      : { value: null, unsupported: 'no solid formed' };
  }
  if (K === 'T_first_solid' || /^T_?liquidus\b/i.test(Q)) return { value: run.liquidus_temperature };
  if (K === 'T_end' || /^T_?solidus\b/i.test(Q))
    return { value: run.solidus_temperature ?? (steps.length ? steps[steps.length - 1].T : null) };
  if ((m = /^T_(first|last)_([A-Z0-9_]+)\b/i.exec(Q))) {
    const ph = m[2].toUpperCase();
    const with_ = steps.filter((s) => s.phases_forming.some((l) => l.replace(/#\d+$/, '') === ph));
    if (!with_.length) return { value: null, unsupported: `${ph} never forms` };
    return { value: (m[1].toLowerCase() === 'first' ? with_[0] : with_[with_.length - 1]).T };
  }
  if ((m = /^X\(([A-Z0-9_]+),([A-Z0-9]+)\) at T_(first|last)_([A-Z0-9_]+)$/i.exec(Q))) {
    const el = m[2].toUpperCase(),
      ph = m[4].toUpperCase();
    if (m[1].toUpperCase() !== run.liquid_phase)
      return { value: null, unsupported: `only the liquid composition is tracked` };
    const with_ = steps.filter((s) => s.phases_forming.some((l) => l.replace(/#\d+$/, '') === ph));
    if (!with_.length) return { value: null, unsupported: `${ph} never forms` };
    const s = m[3].toLowerCase() === 'first' ? with_[0] : with_[with_.length - 1];
    return { value: s.liquid_x[el] ?? null };
  }
  // End-state properties of a solidification result (pycalphad/scheil's result checks): final fraction
  // solid / liquid and the sum of the cumulative solid phase amounts.
  const last = steps[steps.length - 1];
  if (/fraction_solid/i.test(Q) && /final|last|end/i.test(Q)) return { value: last?.fraction_solid ?? null };
  if (/fraction_liquid/i.test(Q) && /final|last|end/i.test(Q)) return { value: last?.fraction_liquid ?? null };
  if (/cum(ulative)?_?phase_amounts|phase_totals/i.test(Q))
    return { value: Object.values(run.phase_totals).reduce((a, b) => a + b, 0) };
  if (/lever|equilibrium solidification/i.test(Q) && /T_end|solidus/i.test(Q))
    return { value: run.lever_rule_solidus_temperature };
  return { value: null, unsupported: `quantity ${q}` };
}

export const scheil: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  const calc = (c.calculation ?? {}) as Record<string, unknown>;
  const num = (k: string) => (typeof calc[k] === 'number' ? (calc[k] as number) : undefined);
  // a T condition serves as the start temperature when the calculation settings give none
  const start = num('start_temperature') ?? (typeof c.conditions.T === 'number' ? c.conditions.T : undefined);
  const step = num('step_temperature') ?? num('temperature_step');
  if (start === undefined || step === undefined)
    throw new Error('calculation.start_temperature (or a T condition) and step_temperature are required');
  let composition: Record<string, number> = {};
  const mass: Record<string, number> = {};
  let P = 101325;
  for (const [k, v] of Object.entries(c.conditions)) {
    const m = /^(X|W)\(([A-Z0-9]+)\)$/i.exec(k);
    if (m && typeof v === 'number') (m[1].toUpperCase() === 'X' ? composition : mass)[m[2].toUpperCase()] = v;
    else if (k === 'P' && typeof v === 'number') P = v;
    else if (k !== 'N' && k !== 'T') throw new Error(`condition ${k} is not supported for a Scheil case`);
  }
  // Phases the database does not define for these components are ignored (README "phases").
  const elements = c.components.filter((x) => x.toUpperCase() !== 'VA');
  if (Object.keys(mass).length) {
    // mass fractions (masses from the ELEMENT lines, README "Conditions") -> mole fractions
    if (Object.keys(composition).length) throw new Error('mixed X and W conditions are not supported');
    const M = Object.fromEntries(db.info().elements.map((e) => [e.name.toUpperCase(), e.mass]));
    const els = elements.map((e) => e.toUpperCase());
    const free = els.filter((e) => !(e in mass));
    if (free.length !== 1) throw new Error('give the mass fractions of all components but one');
    const w = { ...mass, [free[0]]: 1 - Object.values(mass).reduce((a, b) => a + b, 0) };
    const n = Object.fromEntries(els.map((e) => [e, w[e] / M[e]]));
    const tot = Object.values(n).reduce((a, b) => a + b, 0);
    composition = Object.fromEntries(els.map((e) => [e, n[e] / tot]));
  }
  const usable = new Set(
    db.phasesFor(
      elements.map((e) => e.toUpperCase()),
      true,
    ),
  );
  const run = scheilSolidification({
    database: db,
    components: elements,
    phases: c.phases.map((p) => p.toUpperCase()).filter((p) => usable.has(p)),
    P,
    composition,
    startTemperature: start,
    temperatureStep: step,
    liquidPhase: typeof calc.liquid_phase === 'string' ? calc.liquid_phase : undefined,
    stop: num('stop'),
    // the lever rule only when a quantity asks for it (it costs a second scan)
    leverRule: c.expected.some((e) => /lever|equilibrium solidification/i.test(e.quantity)),
  });
  return c.expected.map((e) => quantity(e.quantity, run));
};
