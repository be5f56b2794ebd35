// The records of a precipitation simulation: per phase and output time its number density, mean and critical radius,
// volume fraction, nucleation rate and driving force; the matrix composition; size distributions at chosen times.
import type { PhaseContext } from './setup.js';
import { combineStrengths, phaseStrength, strengthLaw } from './strength.js';
import type { AgingResult, PhaseRecord, PhaseStrength, SizeDistribution, StrengthInput } from './types.js';
import type { SizeGrid } from './psd.js';

/** The times to stop at: `count` log-spaced from end * 1e-8 to end, plus the distributions' times. */
export function stopTimes(
  end: number,
  count: number,
  psdTimes: number[],
): { times: number[]; output: Set<number>; psd: Set<number> } {
  const n = Math.max(2, Math.floor(count));
  const outputs = Array.from({ length: n }, (_, i) => end * 10 ** (-8 + (8 * i) / (n - 1)));
  const wanted = psdTimes.filter((t) => t > 0 && t <= end);
  const times = [...new Set([...outputs, ...wanted])].sort((a, b) => a - b);
  const output = new Set(times.map((t, i) => (outputs.includes(t) ? i : -1)).filter((i) => i >= 0));
  const psd = new Set(times.map((t, i) => (wanted.includes(t) ? i : -1)).filter((i) => i >= 0));
  return { times, output, psd };
}

export class AgingRecorder {
  private readonly time: number[] = [];
  private readonly temperature: number[] = [];
  private readonly matrix: Record<string, number>[] = [];
  private readonly phases: Record<string, PhaseRecord[]> = {};
  private readonly psd: SizeDistribution[] = [];
  private readonly strengthTotal: number[] = [];

  constructor(
    names: string[],
    private readonly strength?: StrengthInput,
  ) {
    for (const n of names) this.phases[n] = [];
  }

  /** The phase's yield-strength increment from its distribution (none without particles: zero). */
  private strengthOf(phase: string, g: SizeGrid | null): PhaseStrength {
    const law = strengthLaw(this.strength!, phase);
    if (!g) return { shearing: 0, orowan: 0, total: 0 };
    const centres = Array.from({ length: g.bins }, (_, i) => g.centre(i));
    return phaseStrength(law, centres, g.number);
  }

  record(t: number, T: number, matrix: Record<string, number>, contexts: PhaseContext[]): void {
    this.time.push(t);
    this.temperature.push(T);
    this.matrix.push({ ...matrix });
    const strengths: number[] = [];
    for (const c of contexts) {
      const g = c.grid;
      const strength = this.strength ? this.strengthOf(c.phase, g) : undefined;
      if (strength) strengths.push(strength.total);
      this.phases[c.phase]!.push({
        number_density: g ? g.total() : 0,
        mean_radius: g ? g.meanRadius() : 0,
        critical_radius: c.last.criticalRadius,
        volume_fraction: g ? g.volume() : 0,
        nucleation_rate: c.last.nucleationRate,
        driving_force: c.last.drivingForce,
        ...(strength ? { strength } : {}),
      });
    }
    if (this.strength) this.strengthTotal.push(combineStrengths(strengths, this.strength.combination));
  }

  distributions(t: number, contexts: PhaseContext[]): void {
    for (const c of contexts) {
      const g = c.grid;
      this.psd.push({
        t,
        phase: c.phase,
        radius: g ? Array.from({ length: g.bins }, (_, i) => g.centre(i)) : [],
        number: g ? Array.from(g.number) : [],
      });
    }
  }

  result(
    massError: number,
    steps: number,
    precipitateComposition: Record<string, Record<string, number>>,
    notes: string[],
  ): AgingResult {
    return {
      time: this.time,
      temperature: this.temperature,
      matrix_composition: this.matrix,
      phases: this.phases,
      size_distributions: this.psd,
      mass_balance_error: massError,
      steps,
      precipitate_composition: precipitateComposition,
      ...(this.strength ? { strength_total: this.strengthTotal } : {}),
      notes,
    };
  }
}
