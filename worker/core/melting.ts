// The temperature range a new diagram of some elements opens with (the extension `temperature_range` of
// POST /database/{db_id}/phases, the New task form's defaults): from the melting points of the pure elements in the
// database itself, so that the whole liquidus of a system like Cu-Ni (Ni melts at 1728 K) is in view, not cut off at
// a fixed 1500 K. A melting point is the temperature above which no condensed phase of the pure element other than
// a liquid is stable (gas phases left out: above the boiling point the liquid stays the reference), found by
// bisection on unary equilibria to 0.5 K. Intermediate phases that melt above both elements are rare in metallic
// systems and stay within 15 % of the higher melting point (B2 NiAl: 1911 K against Ni's 1728 K); the carbides,
// nitrides and oxides that do not are the reason an interstitial element (H, B, C, N, O) beside a metal does not set
// the range: Fe-C opens at 300-2100 K (graphite's own melting point, above 4000 K, would hide the steel region).
import { isLiquidName } from '../../contract/phases.js';
import { equilibrium } from './equilibrium.js';
import type { NativeDatabase } from './native.js';

const SEARCH_FROM = 200;
const SEARCH_TO = [6000, 4500, 3500];
/** Elements whose own melting point does not bound the diagrams they make with a metal. */
export const INTERSTITIALS = new Set(['H', 'B', 'C', 'N', 'O']);

export interface TemperatureRange {
  /** K: 300, or lower for elements that melt below 500 K */
  start: number;
  /** K: 15 % above the highest melting point that guides the range, rounded up to 100 K */
  end: number;
  /** K, per element; null when the database gives the pure element no liquid, or no solid below 3500-6000 K */
  melting_points: Record<string, number | null>;
}

/** Melting point of pure `element` in the database, K (see the header), or null. */
export function meltingPoint(db: NativeDatabase, element: string): number | null {
  const el = element.toUpperCase();
  const info = db.info();
  const gas = new Set(info.phases.filter((p) => p.options.includes('G')).map((p) => p.name.toUpperCase()));
  const phases = db.phasesFor([el]).filter((p) => !gas.has(p.toUpperCase()));
  if (!phases.some(isLiquidName)) return null;
  const components = info.elements.some((e) => e.name.toUpperCase() === 'VA') ? [el, 'VA'] : [el];
  const solidAt = (T: number): boolean | undefined => {
    const r = equilibrium({ database: db, components, phases, conditions: { T, P: 101325 } });
    return r.converged ? r.phases.some((p) => !isLiquidName(p.name)) : undefined;
  };
  let lo = SEARCH_FROM;
  // the top of the search: the highest of these where the pure element has an equilibrium (a phase with vacancies
  // can run into its pure-vacancy configuration at the highest temperatures: BCC_B2 of alni_dupin_2001 at 6000 K)
  let top: number | undefined;
  for (const T of SEARCH_TO) {
    const solid = solidAt(T);
    if (solid === undefined) continue;
    if (solid) return null; // still solid at the top of the search
    top = T;
    break;
  }
  if (top === undefined || solidAt(lo) !== true) return null;
  let hi: number = top;
  while (hi - lo > 0.5) {
    const mid = 0.5 * (lo + hi);
    const solid = solidAt(mid);
    if (solid === undefined) return null;
    if (solid) lo = mid;
    else hi = mid;
  }
  return Math.round(0.5 * (lo + hi) * 10) / 10;
}

/** The default temperature range of a diagram of `elements` (see the header); null when no melting point guides it. */
export function suggestedTemperatureRange(db: NativeDatabase, elements: string[]): TemperatureRange | null {
  const els = [...new Set(elements.map((e) => e.toUpperCase()).filter((e) => e !== 'VA'))];
  const melting_points = Object.fromEntries(els.map((e) => [e, meltingPoint(db, e)]));
  const metals = els.some((e) => !INTERSTITIALS.has(e));
  const guides = els
    .filter((e) => !(metals && INTERSTITIALS.has(e)))
    .map((e) => melting_points[e])
    .filter((t): t is number => t !== null);
  if (guides.length === 0) return null;
  const end = Math.ceil((1.15 * Math.max(...guides)) / 100) * 100;
  const start = Math.min(300, Math.max(50, Math.floor((0.6 * Math.min(...guides)) / 50) * 50));
  return { start, end, melting_points };
}
