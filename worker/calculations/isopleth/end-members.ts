// Pseudo-binary sections: the isopleth between two end members (condition.end_members), each a compound formula or
// an alloy. The path stays the straight line in composition space from the start end member to the end one (in
// composition_unit), so the mapping is the isopleth's unchanged; only the x axis shown is the end member's
// fraction y instead of the axis element's.
//
// A mixture of a formula units of A and b of B lies on the straight line between A and B in mole fractions and in
// mass fractions alike, so the line is the same set of compositions in either unit; only its parameter s differs.
// With one unit of the path being one mole of atoms (mole_fraction) or one gram (mass_fraction), the point s is
// (1 - s) units of A and s units of B, that is k0 (1 - s) formula units (or grams) of A and k1 s of B, and
//   y(s) = s k1 / ((1 - s) k0 + s k1),
//   k = 1/N (mole path, formula units), M/N (mole path, grams), 1/M (mass path, formula units), 1 (mass path, grams)
// with N the atoms and M the grams of one formula unit (an alloy's unit: one mole of atoms, N = 1). y is monotonic
// in s and linear only when k0 = k1 (Al2O3 has 5 atoms, ZrO2 3: y = 0.5 at s = 0.375 on the mole path).
import { elementSymbol } from '../../../contract/plots/names.js';
import { formulaMoleFractions, parseFormula, type EndMember } from '../../../contract/tasks/end-members.js';
import { massToMoleFractions, moleToMassFractions, type CompositionUnit } from '../../system/units.js';
import type { IsoplethEndMember, IsoplethEndMembers, IsoplethResult } from '../../../contract/results/isopleth.js';
import type { IsoplethMap } from '../../mapping/isopleth/types.js';

export interface ResolvedEndMembers {
  /** the two compositions in composition_unit, every component given */
  compositionStart: Record<string, number>;
  compositionEnd: Record<string, number>;
  info: IsoplethEndMembers;
}

/** The fraction of the end member `end` at path parameter s. */
export function endMemberFraction(weights: [number, number], s: number): number {
  const [k0, k1] = weights;
  const b = s * k1;
  return b === 0 ? 0 : b / ((1 - s) * k0 + b);
}

/** An alloy map with keys upper case and the one element left out filled in as the balance. */
function completeAlloy(m: Record<string, number>, elements: readonly string[]): Record<string, number> {
  const up = Object.fromEntries(Object.entries(m).map(([k, v]) => [k.toUpperCase(), v]));
  const missing = elements.filter((el) => !(el in up));
  const sum = Object.values(up).reduce((a, b) => a + b, 0);
  return Object.fromEntries(elements.map((el) => [el, el in up ? up[el]! : missing.length === 1 ? 1 - sum : 0]));
}

/** "Fe-0.4C-1.5Cr mass%": the largest element as the base, the others in percent. */
function alloyLabel(f: Record<string, number>, unit: CompositionUnit): string {
  const entries = Object.entries(f).filter(([, v]) => v > 0);
  const base = entries.reduce((best, e) => (e[1] > best[1] ? e : best), entries[0]!);
  const rest = entries
    .filter((e) => e !== base)
    .map(([el, v]) => `${Number((100 * v).toPrecision(3))}${elementSymbol(el)}`);
  return `${[elementSymbol(base[0]), ...rest].join('-')} ${unit === 'mass_fraction' ? 'mass%' : 'mol%'}`;
}

function molarMass(x: Record<string, number>, atoms: number, masses: Record<string, number>): number {
  const perAtom = Object.entries(x).reduce((a, [el, v]) => a + (v > 0 ? v * (masses[el] ?? NaN) : 0), 0);
  return Number.isFinite(perAtom) ? perAtom * atoms : 0;
}

/** One end member read: its composition in the path's unit and what the result says of it. */
function readEndMember(
  given: EndMember,
  elements: readonly string[],
  unit: CompositionUnit,
  masses: Record<string, number>,
): { fractions: Record<string, number>; member: IsoplethEndMember } {
  if (typeof given === 'string') {
    const r = parseFormula(given.trim(), elements);
    if ('error' in r) throw new Error(`condition.end_members: ${r.error}`);
    const atoms = Object.values(r.amounts).reduce((a, b) => a + b, 0);
    const x = formulaMoleFractions(r.amounts, elements);
    const fractions = unit === 'mass_fraction' ? moleToMassFractions(x, masses) : x;
    const member = {
      label: given.trim(),
      kind: 'formula' as const,
      mole_fractions: x,
      atoms,
      molar_mass: molarMass(x, atoms, masses),
    };
    return { fractions, member };
  }
  const fractions = completeAlloy(given, elements);
  const x = unit === 'mass_fraction' ? massToMoleFractions(fractions, masses) : fractions;
  const member = {
    label: alloyLabel(fractions, unit),
    kind: 'alloy' as const,
    mole_fractions: x,
    atoms: 1,
    molar_mass: molarMass(x, 1, masses),
  };
  return { fractions, member };
}

/** The weight k of one end member per unit of the path (see the header). */
function weight(m: IsoplethEndMember, unit: CompositionUnit, axis: CompositionUnit): number {
  if (axis === 'mass_fraction' || unit === 'mass_fraction') {
    if (!(m.molar_mass > 0))
      throw new Error(
        `the database gives no molar mass for an element of ${m.label} (ELEMENT line): no mass fractions`,
      );
  }
  if (unit === 'mole_fraction') return axis === 'mole_fraction' ? 1 / m.atoms : m.molar_mass / m.atoms;
  return axis === 'mole_fraction' ? 1 / m.molar_mass : 1;
}

/**
 * Reads condition.end_members into the two compositions of the path (in composition_unit) and the pseudo-binary
 * axis. The axis is end_member_axis, else the mole fraction in formula units when an end member is a formula,
 * else composition_unit (two alloys).
 */
export function resolveEndMembers(
  endMembers: { start: EndMember; end: EndMember },
  elements: readonly string[],
  unit: CompositionUnit,
  masses: Record<string, number>,
  axisChoice?: CompositionUnit,
): ResolvedEndMembers {
  const a = readEndMember(endMembers.start, elements, unit, masses);
  const b = readEndMember(endMembers.end, elements, unit, masses);
  const anyFormula = a.member.kind === 'formula' || b.member.kind === 'formula';
  const axis = axisChoice ?? (anyFormula ? 'mole_fraction' : unit);
  const weights: [number, number] = [weight(a.member, unit, axis), weight(b.member, unit, axis)];
  const axisLabel = `${axis === 'mass_fraction' ? 'Mass' : 'Mole'} fraction ${b.member.label}`;
  return {
    compositionStart: a.fractions,
    compositionEnd: b.fractions,
    info: { start: a.member, end: b.member, axis, axis_label: axisLabel, weights },
  };
}

type Located = { s: number };

/**
 * The map's lines, regions, invariant-like lines, liquidus and solidus with the end member's fraction y added to
 * every point (from s; an invariant's ends from their axis fractions, s linear in them).
 */
export function withEndMemberFractions(
  m: IsoplethMap,
  axisRange: [number, number],
  weights: [number, number],
): Pick<IsoplethResult, 'lines' | 'regions' | 'invariants' | 'liquidus' | 'solidus'> {
  const y = <P extends Located>(p: P): P & { y: number } => ({ ...p, y: endMemberFraction(weights, p.s) });
  const [a, b] = axisRange;
  const yOfX = (x: number) => endMemberFraction(weights, Math.min(1, Math.max(0, (x - a) / (b - a))));
  const named = (l: IsoplethMap['liquidus'][number]) => ({ ...l, points: l.points.map(y) });
  return {
    lines: m.lines.map((l) => ({ ...l, points: l.points.map(y) })),
    regions: m.regions.map(y),
    invariants: m.invariants.map((v) => ({ ...v, y: [yOfX(v.x[0]), yOfX(v.x[1])] as [number, number] })),
    liquidus: m.liquidus.map(named),
    solidus: m.solidus.map(named),
  };
}
