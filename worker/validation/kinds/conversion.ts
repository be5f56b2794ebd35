// Kind "conversion": mass fractions W(C) of components to mole fractions X(C). Components may be
// formulas (AL2O3, TIO2); their molar masses come from `element_masses` (or the TDB ELEMENT lines).
// The component without a W condition is dependent: w = 1 - sum of the others. X is the mole fraction
// of formula units: x_C = (w_C / M_C) / sum_D (w_D / M_D).
import { caseDatabase } from '../databases.js';
import type { ComputedValue, KindHandler } from '../types.js';

/** Parses a formula such as AL2O3 into element -> count, using the known element symbols (longest first). */
export function parseFormula(formula: string, elements: string[]): Record<string, number> {
  const syms = [...elements].map((e) => e.toUpperCase()).sort((a, b) => b.length - a.length);
  const out: Record<string, number> = {};
  let rest = formula.toUpperCase();
  while (rest.length > 0) {
    const sym = syms.find((s) => rest.startsWith(s));
    if (!sym) throw new Error(`cannot read formula ${formula}: unknown element at '${rest}'`);
    rest = rest.slice(sym.length);
    const num = /^[0-9]*\.?[0-9]*/.exec(rest)![0];
    rest = rest.slice(num.length);
    out[sym] = (out[sym] ?? 0) + (num ? Number(num) : 1);
  }
  return out;
}

export const conversion: KindHandler = (c, ctx) => {
  let masses: Record<string, number> = {};
  if (c.element_masses) masses = Object.fromEntries(Object.entries(c.element_masses).map(([k, v]) => [k.toUpperCase(), v]));
  else if (c.tdb) {
    for (const el of caseDatabase(c, ctx).info().elements) masses[el.name.toUpperCase()] = el.mass;
  }
  const comps = c.components.map((x) => x.toUpperCase()).filter((x) => x !== 'VA');
  const molar = new Map<string, number>();
  for (const comp of comps) {
    const f = parseFormula(comp, Object.keys(masses));
    molar.set(comp, Object.entries(f).reduce((s, [el, n]) => s + n * masses[el], 0));
  }
  const w = new Map<string, number>();
  for (const [k, v] of Object.entries(c.conditions)) {
    const m = /^W\((.+)\)$/.exec(k);
    if (m && typeof v === 'number') w.set(m[1].toUpperCase(), v);
  }
  const dependent = comps.filter((x) => !w.has(x));
  if (dependent.length !== 1) throw new Error(`expected exactly one dependent component, got ${dependent.join(',') || 'none'}`);
  w.set(dependent[0], 1 - [...w.values()].reduce((s, v) => s + v, 0));
  const total = comps.reduce((s, x) => s + w.get(x)! / molar.get(x)!, 0);
  return c.expected.map((e): ComputedValue => {
    const m = /^X\((.+)\)$/.exec(e.quantity);
    if (!m || !molar.has(m[1].toUpperCase())) return { value: null, unsupported: `conversion quantity ${e.quantity}` };
    const comp = m[1].toUpperCase();
    return { value: w.get(comp)! / molar.get(comp)! / total };
  });
};
