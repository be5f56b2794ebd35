// The composition line of an isopleth (vertical section): every composition varies linearly between the start and
// the end map, in mole fractions or in mass fractions (composition_unit). In mass mode the line is straight in mass
// fractions (an Al-4.4Cu-xMg alloy in mass percent) and every point is converted to mole fractions for the solver
// with the molar masses of the database's ELEMENT lines: x_i = (w_i / M_i) / sum_j (w_j / M_j).

import { massToMoleFractions, type CompositionUnit } from '../../system/units.js';

export type { CompositionUnit };

export interface CompositionPath {
  /** mass-carrying elements, upper case, in the order of condition.components */
  elements: string[];
  /** the element not given in the maps (1 - the sum of the others) */
  dependent: string;
  unit: CompositionUnit;
  /** fractions (in `unit`) of every element at the two ends */
  start: Record<string, number>;
  end: Record<string, number>;
  /** the given (not dependent) element whose fraction changes most: the section's horizontal axis */
  axisElement: string;
  /** axis fraction (in `unit`) at s = 0 and s = 1 */
  axisRange: [number, number];
  /** molar masses, g/mol (mass mode) */
  masses: Record<string, number>;
}

const SUM_TOLERANCE = 1e-6;

/**
 * Builds the path from the two maps. Each gives all elements (summing to 1) or all but the same one; the dependent
 * element is the one left out, else the largest on average.
 */
export function compositionPath(
  elements: string[],
  startMap: Record<string, number>,
  endMap: Record<string, number>,
  unit: CompositionUnit,
  masses: Record<string, number>,
): CompositionPath {
  const norm = (field: string, m: Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(m)) {
      const el = k.toUpperCase();
      if (el === 'VA') continue;
      if (!elements.includes(el))
        throw new Error(`condition.${field}.${k}: ${el} is not one of the components ${elements.join(', ')}`);
      if (typeof v !== 'number' || !(v >= 0 && v <= 1))
        throw new Error(`condition.${field}.${k}: must be a fraction between 0 and 1`);
      out[el] = v;
    }
    return out;
  };
  const s = norm('composition_start', startMap),
    e = norm('composition_end', endMap);
  if (elements.length < 2) throw new Error('condition.components: an isopleth needs at least 2 elements');
  const missing = new Set<string>();
  for (const [field, m] of [
    ['composition_start', s],
    ['composition_end', e],
  ] as const) {
    const miss = elements.filter((el) => !(el in m));
    const sum = Object.values(m).reduce((a, b) => a + b, 0);
    if (miss.length > 1)
      throw new Error(
        `condition.${field}: give the fractions of all components or of all but one (missing ${miss.join(', ')})`,
      );
    if (miss.length === 0 && Math.abs(sum - 1) > SUM_TOLERANCE)
      throw new Error(`condition.${field}: the fractions of all components sum to ${sum}, not 1`);
    if (miss.length === 1 && sum > 1 + SUM_TOLERANCE)
      throw new Error(`condition.${field}: the fractions sum to ${sum} > 1`);
    for (const m2 of miss) missing.add(m2);
  }
  if (missing.size > 1)
    throw new Error(
      `condition.composition_start and composition_end leave out different components (${[...missing].join(', ')}): leave out the same one`,
    );
  const dependent =
    missing.size === 1
      ? [...missing][0]!
      : elements.reduce((best, el) => (s[el]! + e[el]! > s[best]! + e[best]! ? el : best), elements[0]!);
  const full = (m: Record<string, number>) => {
    const o = Object.fromEntries(elements.filter((el) => el !== dependent).map((el) => [el, m[el]!]));
    o[dependent] = Math.max(0, 1 - Object.values(o).reduce((a, b) => a + b, 0));
    return o;
  };
  const start = full(s),
    end = full(e);
  // the axis: the given element that changes most (the dependent one only changes as their balance)
  const given = elements.filter((el) => el !== dependent);
  const axisElement = given.reduce(
    (best, el) => (Math.abs(end[el]! - start[el]!) > Math.abs(end[best]! - start[best]!) ? el : best),
    given[0]!,
  );
  if (Math.abs(end[axisElement]! - start[axisElement]!) < 1e-9)
    throw new Error(
      'condition.composition_end: must differ from composition_start (the section needs a composition range)',
    );
  if (unit === 'mass_fraction') {
    for (const el of elements)
      if (!(masses[el]! > 0))
        throw new Error(
          `the database gives no molar mass for ${el} (ELEMENT line): mass fractions cannot be converted`,
        );
  }
  return {
    elements,
    dependent,
    unit,
    start,
    end,
    axisElement,
    axisRange: [start[axisElement]!, end[axisElement]!],
    masses,
  };
}

/** Fractions (in the path's unit) of every element at s in [0, 1]. */
export function fractionsAt(path: CompositionPath, s: number): Record<string, number> {
  return Object.fromEntries(path.elements.map((el) => [el, path.start[el]! + s * (path.end[el]! - path.start[el]!)]));
}

/** Mole fractions of every element at s. */
export function moleFractionsAt(path: CompositionPath, s: number): Record<string, number> {
  const f = fractionsAt(path, s);
  return path.unit === 'mass_fraction' ? massToMoleFractions(f, path.masses) : f;
}

/** Below this mole fraction the path's dependent element is not the one the solver leaves out. */
const DEPENDENT_FLOOR = 1e-9;

/**
 * Solver condition X: the mole fractions of all elements but one, the path's dependent element; where that one
 * vanishes (an end of a section whose every element is absent somewhere, the pseudo-binary NiAl-Cr at NiAl) the
 * largest instead, since the core refuses given fractions that sum to 1.
 */
export function solverX(path: CompositionPath, s: number): Record<string, number> {
  const x = moleFractionsAt(path, s);
  const left =
    x[path.dependent]! > DEPENDENT_FLOOR
      ? path.dependent
      : path.elements.reduce((best, el) => (x[el]! > x[best]! ? el : best), path.elements[0]!);
  delete x[left];
  return x;
}

/** The axis value (fraction of the axis element in the path's unit) at s. */
export function axisValue(path: CompositionPath, s: number): number {
  return path.axisRange[0] + s * (path.axisRange[1] - path.axisRange[0]);
}
