// The ranges a new diagram of a system opens with (the extensions `temperature_range` and `composition_range` of
// POST /database/{db_id}/phases, the New task form's defaults), estimated in a few dozen equilibria (well under a
// second on the bundled steel database):
//
// - Temperature: from the pure elements' melting points (melting.ts: 300 K, or lower for low-melting elements, to
//   15 % above the highest melting point of the elements that guide the range, rounded up to 100 K). For a binary the
//   estimate then checks that the system is free of solids at that upper end at compositions every 0.05 across the
//   composition range, and raises the end by 10 % steps (at most five) where it is not: a congruently melting
//   compound above both elements (B2 NiAl at 1911 K against Ni's 1728 K) then stays inside the diagram. The lower end
//   stays below the invariants of metallic systems (the eutectoid of steels near 1000 K, the monotectoid of Al-Zn at
//   550 K).
// - Composition: the whole range, except in a binary of a metal with an interstitial element (H, B, C, N, O). There
//   the useful diagram is the metal-rich side up to the eutectic and the steep liquidus of the carbide, graphite or
//   nitride beyond it (Fe-C: the eutectic at 4.3 mass % C; graphite melts above 4700 K and would flatten everything
//   else). The range ends where the liquidus, past the eutectic, climbs back to the metal's own melting point: the
//   first composition, on a 0.02 mole-fraction grid of the interstitial, where the system is not free of solids at the
//   metal's melting point. That end is rounded up to 0.05 in mole fraction, and its mass fraction up to 0.01 (Fe-C on
//   the bundled steel databases: 0-0.25 mole fraction, up to cementite's Fe3C, and 0-0.07 mass fraction C).
import { baseName, isLiquidName } from '../../contract/phases.js';
import { equilibrium } from './equilibrium.js';
import { INTERSTITIALS, meltingPoint, suggestedTemperatureRange, type TemperatureRange } from './melting.js';
import type { NativeDatabase } from './native.js';

/** The composition range a binary diagram opens with, of `element` (the one whose fraction grows). */
export interface CompositionRange {
  element: string;
  mole_fraction: [number, number];
  mass_fraction: [number, number];
}

export interface SystemRanges {
  temperature: TemperatureRange | null;
  composition: CompositionRange | null;
}

const GRID = 0.02;
const LIQUID_CHECK_STEP = 0.05;

interface BinarySystem {
  components: string[];
  phases: string[] | undefined;
  /** the component whose mole fraction is given */
  other: string;
  /** the gas phases (option G), which, like the liquid, are no solid */
  gas: Set<string>;
}

function binarySystem(db: NativeDatabase, els: string[], other: string, phases?: string[]): BinarySystem {
  const info = db.info();
  const withVa = info.elements.some((e) => e.name.toUpperCase() === 'VA');
  const gas = new Set(info.phases.filter((p) => p.options.includes('G')).map((p) => p.name.toUpperCase()));
  return { components: withVa ? [...els, 'VA'] : els, phases, other, gas };
}

/**
 * Whether a binary holds no solid at T and mole fraction x of `other` (above its liquidus: liquid, or liquid and
 * gas); undefined: no converged answer.
 */
function noSolid(db: NativeDatabase, system: BinarySystem, x: number, T: number): boolean | undefined {
  const r = equilibrium({
    database: db,
    components: system.components,
    phases: system.phases,
    conditions: { T, P: 101325, X: { [system.other]: x } },
  });
  return r.converged ? r.phases.every((p) => isLiquidName(p.name) || system.gas.has(baseName(p.name))) : undefined;
}

/** Mass fraction of `b` in a binary a-b of mole fraction x of b. */
export function massFraction(x: number, massA: number, massB: number): number {
  return (x * massB) / (x * massB + (1 - x) * massA);
}

const roundUp = (v: number, step: number) => Math.min(1, Math.ceil(v / step - 1e-9) * step);

/** The composition range of a metal-interstitial binary (see the header), or null for any other system. */
export function interstitialCompositionRange(
  db: NativeDatabase,
  elements: string[],
  phases?: string[],
): CompositionRange | null {
  const els = [...new Set(elements.map((e) => e.toUpperCase()).filter((e) => e !== 'VA'))];
  if (els.length !== 2) return null;
  const interstitial = els.filter((e) => INTERSTITIALS.has(e));
  if (interstitial.length !== 1) return null;
  const other = interstitial[0]!;
  const metal = els.find((e) => e !== other)!;
  const Tm = meltingPoint(db, metal);
  if (Tm === null) return null;
  const system = binarySystem(db, [metal, other], other, phases);
  let end = 0.5;
  for (let x = GRID; x < 0.5 + 1e-9; x += GRID) {
    if (noSolid(db, system, x, Tm) === false) {
      end = x;
      break;
    }
  }
  const mass = (e: string) => db.info().elements.find((el) => el.name.toUpperCase() === e)?.mass ?? NaN;
  const xEnd = Math.round(roundUp(end, 0.05) * 100) / 100;
  const w = massFraction(xEnd, mass(metal), mass(other));
  return {
    element: other,
    mole_fraction: [0, xEnd],
    mass_fraction: [0, Number.isFinite(w) ? Math.round(roundUp(w, 0.01) * 100) / 100 : 1],
  };
}

/**
 * The temperature range's upper end raised until the binary is free of solids there at every 0.05 of the composition
 * range (see the header); the range as it was for other systems.
 */
function coverLiquidus(
  db: NativeDatabase,
  elements: string[],
  range: TemperatureRange,
  composition: CompositionRange | null,
  phases?: string[],
): TemperatureRange {
  const els = [...new Set(elements.map((e) => e.toUpperCase()).filter((e) => e !== 'VA'))];
  if (els.length !== 2) return range;
  const other = composition?.element ?? els[1]!;
  const [x0, x1] = composition?.mole_fraction ?? [0, 1];
  const system = binarySystem(db, els, other, phases);
  let end = range.end;
  for (let step = 0; step < 5; step++) {
    let solidSomewhere = false;
    for (let x = x0 + LIQUID_CHECK_STEP; x < x1 - 1e-9; x += LIQUID_CHECK_STEP)
      if (noSolid(db, system, x, end) === false) {
        solidSomewhere = true;
        break;
      }
    if (!solidSomewhere) break;
    end = Math.ceil((end * 1.1) / 100) * 100;
  }
  return { ...range, end };
}

/**
 * The ranges a new diagram of `elements` opens with (see the header); `phases`: the phases the form's default
 * selection leaves (all of the system's when undefined).
 */
export function suggestedRanges(db: NativeDatabase, elements: string[], phases?: string[]): SystemRanges {
  const temperature = suggestedTemperatureRange(db, elements);
  const composition = interstitialCompositionRange(db, elements, phases);
  return {
    temperature: temperature && coverLiquidus(db, elements, temperature, composition, phases),
    composition,
  };
}
