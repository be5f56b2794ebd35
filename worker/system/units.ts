// Composition units: mole and mass fractions (configs' optional `composition_unit`, docs/calculations.md
// "Composition units"). Molar masses are those of the database's ELEMENT lines (g/mol), as in the validation
// cases' W(EL) conditions. Pure TypeScript without node: imports (the renderer imports it too).
//
//   w_i = x_i M_i / sum_j x_j M_j          x_i = (w_i / M_i) / sum_j (w_j / M_j)

export const COMPOSITION_UNITS = ['mole_fraction', 'mass_fraction'] as const;
export type CompositionUnit = (typeof COMPOSITION_UNITS)[number];

/** The composition maps of the task configurations that composition_unit applies to. */
export const COMPOSITION_FIELDS = ['compositions', 'compositions_start', 'compositions_end'] as const;

/** Molar masses by element (upper case) from the database's ELEMENT lines. */
export function elementMasses(elements: readonly { name: string; mass: number }[]): Record<string, number> {
  return Object.fromEntries(elements.map((e) => [e.name.toUpperCase(), e.mass]));
}

function checkedMass(el: string, masses: Record<string, number>): number {
  const m = masses[el];
  if (typeof m !== 'number' || !Number.isFinite(m) || !(m > 0)) {
    throw new Error(
      `${el} has ${m === undefined ? 'no ELEMENT line' : `molar mass ${m}`} in the database: mass fractions of ${el} cannot be converted (give mole fractions)`,
    );
  }
  return m;
}

/** Mass fractions of the elements of a mole-fraction map (over the map's own keys). Throws for a zero mass. */
export function moleToMassFractions(x: Record<string, number>, masses: Record<string, number>): Record<string, number> {
  let total = 0;
  for (const [el, v] of Object.entries(x)) total += v * checkedMass(el, masses);
  if (!(total > 0)) throw new Error('mole fractions sum to 0: no mass fractions');
  return Object.fromEntries(Object.entries(x).map(([el, v]) => [el, (v * masses[el]!) / total]));
}

/** Mole fractions of the elements of a mass-fraction map (over the map's own keys). Throws for a zero mass. */
export function massToMoleFractions(w: Record<string, number>, masses: Record<string, number>): Record<string, number> {
  let total = 0;
  for (const [el, v] of Object.entries(w)) total += v / checkedMass(el, masses);
  if (!(total > 0)) throw new Error('mass fractions sum to 0: no mole fractions');
  return Object.fromEntries(Object.entries(w).map(([el, v]) => [el, v / masses[el]! / total]));
}

/** Mass fractions, or undefined when an element has no positive molar mass (a result then gives x only). */
export function massFractionsOrUndefined(
  x: Record<string, number>,
  masses: Record<string, number>,
): Record<string, number> | undefined {
  try {
    return moleToMassFractions(x, masses);
  } catch {
    return undefined;
  }
}

const SUM_TOLERANCE = 1e-6;

/**
 * A composition map in mass fractions (every element, or every element but one, which then takes 1 - sum)
 * as mole fractions with the same keys: the element left out stays left out, so the dependent component of
 * the calculation does not change. `field` names the map in errors.
 */
export function massMapToMoleFractions(
  field: string,
  map: Record<string, unknown>,
  elements: readonly string[],
  masses: Record<string, number>,
): Record<string, number> {
  const given: Record<string, number> = {};
  for (const [k, v] of Object.entries(map)) {
    const el = k.toUpperCase();
    if (el === 'VA') continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1)
      throw new Error(`${field}.${k}: must be a mass fraction between 0 and 1`);
    given[el] = v;
  }
  const missing = elements.filter((e) => !(e in given));
  if (missing.length > 1)
    throw new Error(
      `${field}: give the mass fractions of all components or of all but one (missing ${missing.join(', ')})`,
    );
  const sum = Object.values(given).reduce((a, b) => a + b, 0);
  if (missing.length === 1 && sum > 1 + SUM_TOLERANCE)
    throw new Error(`${field}: the mass fractions sum to ${sum} > 1`);
  if (missing.length === 0 && Math.abs(sum - 1) > SUM_TOLERANCE)
    throw new Error(`${field}: the mass fractions of all components sum to ${sum}, not 1`);
  const full = { ...given };
  if (missing.length === 1) full[missing[0]!] = Math.max(0, 1 - sum);
  for (const el of Object.keys(full)) {
    try {
      checkedMass(el, masses);
    } catch (e) {
      throw new Error(`condition.composition_unit mass_fraction: ${(e as Error).message}`);
    }
  }
  const x = massToMoleFractions(full, masses);
  return Object.fromEntries(Object.keys(given).map((el) => [el, x[el]!]));
}

/**
 * The condition with its composition maps in mole fractions: unchanged for composition_unit mole_fraction
 * (the default), converted from mass fractions otherwise. `masses` is called only when a conversion is needed.
 */
export function moleFractionCondition<C extends Record<string, unknown>>(
  cond: C,
  elements: readonly string[],
  masses: () => Record<string, number>,
): C {
  const unit = cond.composition_unit ?? 'mole_fraction';
  if (unit === 'mole_fraction') return cond;
  if (unit !== 'mass_fraction')
    throw new Error(`condition.composition_unit: must be one of: ${COMPOSITION_UNITS.join(', ')}`);
  const m = masses();
  const out: Record<string, unknown> = { ...cond };
  for (const field of COMPOSITION_FIELDS) {
    const map = cond[field];
    if (map && typeof map === 'object' && !Array.isArray(map)) {
      out[field] = massMapToMoleFractions(`condition.${field}`, map as Record<string, unknown>, elements, m);
    }
  }
  return out as C;
}

/**
 * Binary: mass fraction of an element at its mole fraction x, given its molar mass and that of the other element
 * (w = x M / (x M + (1 - x) M_other)); the inverse below. Both are monotonic, so a range maps onto a range.
 */
export function binaryMassFraction(x: number, mass: number, otherMass: number): number {
  const a = x * mass,
    b = (1 - x) * otherMass;
  return a + b > 0 ? a / (a + b) : x;
}
export function binaryMoleFraction(w: number, mass: number, otherMass: number): number {
  const a = w / mass,
    b = (1 - w) / otherMass;
  return a + b > 0 ? a / (a + b) : w;
}

/** Conversions between the mole and mass fraction of the x component of a binary. */
export interface MassConverter {
  toW(x: number): number;
  toX(w: number): number;
  masses: Record<string, number>;
}

/**
 * The converter of a binary with x component `xc`, or an error naming `what` and the element without a positive
 * molar mass (undefined instead when `what` is not given).
 */
export function binaryMassConverter(
  xc: string,
  other: string,
  masses: Record<string, number> | undefined,
  what: string,
): MassConverter;
export function binaryMassConverter(
  xc: string,
  other: string,
  masses: Record<string, number> | undefined,
): MassConverter | undefined;
export function binaryMassConverter(
  xc: string,
  other: string,
  masses: Record<string, number> | undefined,
  what?: string,
): MassConverter | undefined {
  const mX = masses?.[xc],
    mO = masses?.[other];
  for (const [el, m] of [
    [xc, mX],
    [other, mO],
  ] as const) {
    if (typeof m !== 'number' || !(m > 0)) {
      if (what === undefined) return undefined;
      throw new Error(
        `${what}: ${el} has ${m === undefined ? 'no ELEMENT line' : `molar mass ${m}`} in the database: mass fractions of ${el} cannot be converted (give mole fractions)`,
      );
    }
  }
  return {
    toW: (x) => binaryMassFraction(x, mX!, mO!),
    toX: (w) => binaryMoleFraction(w, mX!, mO!),
    masses: { [xc]: mX!, [other]: mO! },
  };
}
