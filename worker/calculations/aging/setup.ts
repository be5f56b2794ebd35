// The inputs of a precipitation simulation checked and turned into what the time loop uses: molar volumes, atomic
// spacing, nucleation sites per phase, the alloy's composition, and per temperature each precipitate's tie line with
// the matrix and (binary systems) its table of the driving force against the matrix composition.
import { AVOGADRO, siteDensity } from './nucleation.js';
import type { InterfaceTable } from './growth.js';
import type { AgingThermo, TieLine } from './thermo.js';
import type { AgingConfig, PrecipitateInput, VolumeInput } from './types.js';
import { SizeGrid } from './psd.js';
import { shapeFactors, type ShapeFactors } from './shape.js';

const TABLE_POINTS = 120;

/** A precipitate phase in the loop: its constants, its size distribution and its last rates (for the records). */
export interface PhaseContext {
  input: PrecipitateInput;
  phase: string;
  molarVolume: number;
  gamma: number;
  /** the shape's area and kinetic factors (1 and 1 for a sphere) */
  shape: ShapeFactors;
  sites: number;
  grid: SizeGrid | null;
  last: { drivingForce: number; criticalRadius: number | null; nucleationRate: number };
}

/** V_m (m^3 per mole of atoms) given directly or from a cubic cell (a^3 N_A / atoms per cell). */
export function molarVolumeOf(v: VolumeInput, field: string): number | Error {
  if (v.molar_volume !== undefined) {
    if (!(v.molar_volume > 0)) return new Error(`${field}.molar_volume: a positive volume (m^3/mol)`);
    return v.molar_volume;
  }
  if (!(v.lattice_parameter! > 0))
    return new Error(`${field}: give molar_volume (m^3/mol) or lattice_parameter (m) and atoms_per_cell`);
  const atoms = v.atoms_per_cell ?? 4;
  if (!(atoms > 0)) return new Error(`${field}.atoms_per_cell: a positive number`);
  return (v.lattice_parameter! ** 3 * AVOGADRO) / atoms;
}

/**
 * The matrix's lattice parameter (m): given, else the edge of the cubic cell of its molar volume and atoms per cell,
 * a = (n V_m / N_A)^(1/3), so that a matrix given by its volume and the same matrix given by its cell nucleate alike.
 * It is the attachment distance of the nucleation rate and the site spacing on dislocations and grain boundaries.
 */
export function latticeSpacing(matrix: VolumeInput, matrixMolarVolume: number): number {
  return matrix.lattice_parameter ?? Math.cbrt(((matrix.atoms_per_cell ?? 4) * matrixMolarVolume) / AVOGADRO);
}

/** The alloy's mole fractions over every element of the system (an element left out is 0), or an Error. */
export function alloyOf(elements: string[], composition: Record<string, number>): Record<string, number> | Error {
  const x: Record<string, number> = {};
  for (const [k, v] of Object.entries(composition)) {
    const el = k.toUpperCase();
    if (!elements.includes(el)) return new Error(`composition.${k}: not an element of the system`);
    if (!(v >= 0 && v <= 1)) return new Error(`composition.${k}: a mole fraction in [0, 1]`);
    x[el] = v;
  }
  const sum = elements.reduce((a, e) => a + (x[e] ?? 0), 0);
  if (Math.abs(sum - 1) > 1e-6) return new Error(`composition: the mole fractions sum to ${sum}, not 1`);
  return Object.fromEntries(elements.map((e) => [e, (x[e] ?? 0) / sum]));
}

/** The phase contexts of the precipitates, or an Error naming the field. */
export function phaseContexts(config: AgingConfig, matrixMolarVolume: number, spacing: number): PhaseContext[] | Error {
  if (config.precipitates.length === 0) return new Error('precipitates: name at least one precipitate phase');
  const out: PhaseContext[] = [];
  for (const [i, p] of config.precipitates.entries()) {
    const field = `precipitates[${i}]`;
    const molarVolume = molarVolumeOf(p, field);
    if (molarVolume instanceof Error) return molarVolume;
    if (!(p.interfacial_energy > 0)) return new Error(`${field}.interfacial_energy: a positive energy (J/m^2)`);
    const site = p.nucleation_site ?? 'bulk';
    const sites =
      p.site_density ??
      siteDensity(site, matrixMolarVolume, spacing, config.matrix.dislocation_density, config.matrix.grain_size);
    if (sites instanceof Error) return sites;
    if (!(sites > 0)) return new Error(`${field}.site_density: a positive number of sites per m^3`);
    const ratio = p.shape?.aspect_ratio ?? 1;
    if (!(ratio >= 1 && Number.isFinite(ratio)))
      return new Error(`${field}.shape.aspect_ratio: at least 1 (the long axis over the short one)`);
    out.push({
      input: p,
      phase: p.phase.toUpperCase(),
      molarVolume,
      gamma: p.interfacial_energy,
      shape: shapeFactors(p.shape),
      sites,
      grid: null,
      last: { drivingForce: 0, criticalRadius: null, nucleationRate: 0 },
    });
  }
  return out;
}

/**
 * The driving force of `phase` against the solute's fraction in a binary matrix at T: TABLE_POINTS (120), uniform in ln x,
 * from just below the matrix's tie-line composition to halfway to the precipitate's; made non-decreasing.
 */
export function interfaceTableOf(
  thermo: AgingThermo,
  phase: string,
  T: number,
  solute: string,
  solvent: string,
  line: TieLine,
): InterfaceTable {
  const lo = Math.log(0.98 * line.matrix[solute]!);
  const hi = Math.log(0.5 * (line.matrix[solute]! + line.precipitate[solute]!));
  const logX: number[] = [];
  const drivingForce: number[] = [];
  for (let i = 0; i < TABLE_POINTS; i++) {
    const l = lo + ((hi - lo) * i) / (TABLE_POINTS - 1);
    const x = Math.exp(l);
    const state = thermo.matrixAt(T, { [solute]: x, [solvent]: 1 - x }, false);
    const g = thermo.drivingForce(phase, state, line.y).drivingForce;
    logX.push(l);
    drivingForce.push(Math.max(g, drivingForce[i - 1] ?? -Infinity));
  }
  return { logX, drivingForce };
}
