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

const isCompositionKey = (k: string) => compositionKey(k) !== null || /^Y\(/i.test(normKey(k));

/**
 * The conditions of a point stated inside a quantity ("number_of_stable_phases at X(A)=0.2, X(B)=0.3") over
 * those of the case: a key the point names replaces the case's; when the point's composition conditions
 * (X, W, MU, Y) and the case's left together are more than the C - 1 a system of C elements takes, the
 * case's are dropped (grids first) until C - 1 remain, as the point's own conditions replace the map's grid
 * ones. A point that states all C mole fractions (summing to 1) leaves out the case's dependent element, the
 * one the case gives no condition.
 */
export function pointOverride(
  cond: Record<string, unknown>,
  at: Record<string, unknown>,
  elements: string[],
): Record<string, unknown> {
  const atKeys = new Set(Object.keys(at).map(normKey));
  const kept = Object.entries(cond).filter(([k]) => !atKeys.has(normKey(k)));
  const pointComp = Object.keys(at).filter(isCompositionKey);
  const caseComp = kept.filter(([k]) => isCompositionKey(k));
  let excess = pointComp.length + caseComp.length - (elements.length - 1);
  const drop = new Set<string>();
  for (const [k] of [
    ...caseComp.filter(([, v]) => typeof v !== 'number'),
    ...caseComp.filter(([, v]) => typeof v === 'number'),
  ]) {
    if (excess <= 0) break;
    drop.add(k);
    excess--;
  }
  const out: Record<string, unknown> = Object.fromEntries(kept.filter(([k]) => !drop.has(k)));
  Object.assign(out, at);
  if (excess > 0) return withoutDependent(out, at, cond, elements);
  return out;
}

/** All C mole fractions stated at a point (summing to 1): the case's dependent element's one is left out. */
function withoutDependent(
  out: Record<string, unknown>,
  at: Record<string, unknown>,
  cond: Record<string, unknown>,
  elements: string[],
): Record<string, unknown> {
  const xs = Object.keys(at).filter((k) => compositionKey(k)?.kind === 'X');
  const comp = Object.keys(at).filter(isCompositionKey);
  const sum = xs.reduce((a, k) => a + (typeof at[k] === 'number' ? (at[k] as number) : NaN), 0);
  if (comp.length !== elements.length || xs.length !== comp.length || !(Math.abs(sum - 1) <= 1e-6))
    throw new Error(
      `the point ${Object.keys(at).join(', ')} states more composition conditions than a system of ` +
        `${elements.length} elements takes (${elements.length - 1})`,
    );
  const named = new Set(Object.keys(cond).map((k) => compositionKey(k)?.element));
  const dependent = elements.find((e) => !named.has(e)) ?? elements[elements.length - 1];
  return Object.fromEntries(Object.entries(out).filter(([k]) => compositionKey(k)?.element !== dependent));
}
