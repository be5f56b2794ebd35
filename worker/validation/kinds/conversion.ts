// Kind "conversion": mass fractions W(C) to mole fractions X(C), or mole to mass fractions. Components may
// be formulas (AL2O3, TIO2); their molar masses come from `element_masses` (else the TDB ELEMENT lines).
// The components are the case's `components` list, or, when it is empty, every component a condition or an
// expected quantity names. The one component without a condition is dependent: w = 1 - sum of the others
// (x likewise). X is the mole fraction of formula units: x_C = (w_C / M_C) / sum_D (w_D / M_D), and
// w_C = x_C M_C / sum_D x_D M_D.
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

const FRACTION = /^\s*(X|W)\(\s*([A-Za-z0-9]+)\s*\)\s*$/;

export const conversion: KindHandler = (c, ctx) => {
  let masses: Record<string, number> = {};
  if (c.element_masses)
    masses = Object.fromEntries(Object.entries(c.element_masses).map(([k, v]) => [k.toUpperCase(), v]));
  else if (c.tdb) {
    for (const el of caseDatabase(c, ctx).info().elements) masses[el.name.toUpperCase()] = el.mass;
  } else throw new Error('a conversion needs element_masses or a tdb');
  const given = new Map<string, number>();
  const kinds = new Set<string>();
  for (const [k, v] of Object.entries(c.conditions)) {
    const m = FRACTION.exec(k);
    if (!m) throw new Error(`condition ${k} is not X(C) or W(C)`);
    if (typeof v !== 'number') throw new Error(`condition ${k} is not a number`);
    kinds.add(m[1].toUpperCase());
    given.set(m[2].toUpperCase(), v);
  }
  if (kinds.size !== 1) throw new Error('a conversion needs conditions of one kind (all W or all X)');
  const from = [...kinds][0];
  const named = c.expected.map((e) => FRACTION.exec(e.quantity)?.[2]?.toUpperCase()).filter((x): x is string => !!x);
  const listed = c.components.map((x) => x.toUpperCase()).filter((x) => x !== 'VA');
  const comps = listed.length ? listed : [...new Set([...given.keys(), ...named])];
  const molar = new Map<string, number>();
  for (const comp of comps) {
    const f = parseFormula(comp, Object.keys(masses));
    molar.set(
      comp,
      Object.entries(f).reduce((s, [el, n]) => s + n * masses[el], 0),
    );
  }
  const dependent = comps.filter((x) => !given.has(x));
  if (dependent.length !== 1)
    throw new Error(
      `expected exactly one dependent component (one without a condition), got ${dependent.join(',') || 'none'}`,
    );
  const frac = new Map(given);
  frac.set(dependent[0], 1 - [...given.values()].reduce((s, v) => s + v, 0));
  // amounts proportional to moles (from W) or to masses (from X)
  const amount = (x: string) => (from === 'W' ? frac.get(x)! / molar.get(x)! : frac.get(x)! * molar.get(x)!);
  const total = comps.reduce((s, x) => s + amount(x), 0);
  return c.expected.map((e): ComputedValue => {
    const m = FRACTION.exec(e.quantity);
    if (!m || !molar.has(m[2].toUpperCase())) return { value: null, unsupported: `conversion quantity ${e.quantity}` };
    const comp = m[2].toUpperCase();
    if (m[1].toUpperCase() === from) return { value: frac.get(comp)! };
    return { value: amount(comp) / total };
  });
};
