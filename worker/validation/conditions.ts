// Conditions of a validation case (shared/validation/README.md "Conditions"): T, P, N, X(EL), W(EL),
// MU(EL) and Y(PHASE,s,SPECIES), each a number, an explicit list ("evaluate at every value") or a
// {min, max, step} range. A range follows numpy.arange, the sources' convention (stop excluded), as the
// case notes say; a list is used exactly as written.

/** One point: every condition a single number. */
export type PointConditions = Record<string, number>;

/** A site-fraction condition Y(PHASE,s,SPECIES) = value (sublattice s counted from 0). */
export interface SiteFractionCondition {
  key: string;
  phase: string;
  sublattice: number;
  species: string;
  value: number;
}

/** The values of one condition: a number, a list or a {min, max, step} range (arange, stop excluded). */
export function conditionValues(key: string, v: unknown): number[] {
  if (typeof v === 'number') return [v];
  if (Array.isArray(v)) {
    if (!v.every((x) => typeof x === 'number' && Number.isFinite(x)))
      throw new Error(`condition ${key}: a list of numbers is expected`);
    return v as number[];
  }
  if (v && typeof v === 'object') {
    const g = v as { min?: unknown; max?: unknown; step?: unknown };
    if (
      typeof g.min !== 'number' ||
      typeof g.max !== 'number' ||
      typeof g.step !== 'number' ||
      !(g.step > 0) ||
      !(g.max > g.min)
    ) {
      throw new Error(`condition ${key}: {min, max, step} with step > 0 and max > min is expected`);
    }
    const n = Math.ceil((g.max - g.min) / g.step - 1e-9);
    return Array.from({ length: n }, (_, i) => (g.min as number) + i * (g.step as number));
  }
  throw new Error(`condition ${key}: a number, a list or {min, max, step} is expected`);
}

/** Keys of the conditions that hold more than one value (lists and ranges), in the case's order. */
export function gridKeys(cond: Record<string, unknown>): string[] {
  return Object.entries(cond)
    .filter(([, v]) => typeof v !== 'number')
    .map(([k]) => k);
}

/** Every point of the conditions: the cartesian product of the grid conditions (first key outermost). */
export function expandPoints(cond: Record<string, unknown>): PointConditions[] {
  let points: PointConditions[] = [{}];
  for (const [k, v] of Object.entries(cond)) {
    const vals = conditionValues(k, v);
    const next: PointConditions[] = [];
    for (const p of points) for (const x of vals) next.push({ ...p, [k]: x });
    points = next;
  }
  return points;
}

/** Normalised condition key: upper case, no blanks ("x(zn)" -> "X(ZN)"). */
export function normKey(k: string): string {
  return k.replace(/\s+/g, '').toUpperCase();
}

/** Y(PHASE,s,SPECIES) keys of a point. */
export function siteFractionConditions(point: PointConditions): SiteFractionCondition[] {
  const out: SiteFractionCondition[] = [];
  for (const [k, v] of Object.entries(point)) {
    const m = /^Y\(\s*([A-Z0-9_]+)\s*,\s*(\d+)\s*,\s*([A-Z0-9_+\-/]+)\s*\)$/i.exec(k.trim());
    if (m)
      out.push({ key: k, phase: m[1].toUpperCase(), sublattice: Number(m[2]), species: m[3].toUpperCase(), value: v });
  }
  return out;
}

/** Element named by a composition-type key X(EL), W(EL), MU(EL); null for others. */
export function compositionKey(k: string): { kind: 'X' | 'W' | 'MU'; element: string } | null {
  const m = /^(X|W|MU)\(([A-Z][A-Z0-9]*)\)$/i.exec(normKey(k));
  return m ? { kind: m[1].toUpperCase() as 'X' | 'W' | 'MU', element: m[2].toUpperCase() } : null;
}
