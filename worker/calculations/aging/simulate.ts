// Precipitation kinetics by the Kampmann-Wagner numerical (KWN) method (Kampmann and Wagner, in "Decomposition of
// Alloys: the Early Stages", Pergamon 1984, p. 91): for each precipitate phase a size distribution on radius bins
// (psd.ts) fed by classical nucleation at 1.05 r* (nucleation.ts) and moved by diffusion-controlled growth
// (growth.ts); every phase draws its solute from one matrix whose composition follows from the precipitates'
// amounts at every step (mass balance), so the phases compete. The time step adapts: the fastest occupied bin edge
// moves at most a fraction of a bin (Courant), the matrix's solute fractions change by at most a fraction of their
// supersaturation (a step that would change them more is halved and redone), a ramp changes T by at most 1 K, and the
// step grows by at most 1.5 per step. Results at log-spaced times; size distributions at chosen times.
import { RateModel, type PhaseRates } from './kinetics.js';
import { SizeGrid } from './psd.js';
import { scheduleOf, type Schedule } from './schedule.js';
import { alloyOf, latticeSpacing, molarVolumeOf, phaseContexts, type PhaseContext } from './setup.js';
import { AgingThermo, type MatrixState } from './thermo.js';
import type { AgingConfig, AgingResult, AgingSystem } from './types.js';
import { AgingRecorder, stopTimes } from './record.js';

const DEFAULT_BINS = 200;
const MAX_STEPS = 2_000_000;

interface Prepared {
  config: AgingConfig;
  alloy: Record<string, number>;
  schedule: Schedule;
  thermo: AgingThermo;
  rates: RateModel;
  phases: PhaseContext[];
  matrixMolarVolume: number;
}

function prepare(sys: AgingSystem, config: AgingConfig): Prepared | Error {
  const alloy = alloyOf(sys.elements, config.composition);
  if (alloy instanceof Error) return alloy;
  const schedule = scheduleOf(config.temperature);
  if (schedule instanceof Error) return schedule;
  if (!(config.end_time > 0)) return new Error('end_time: a positive time (s)');
  const matrixMolarVolume = molarVolumeOf(config.matrix, 'matrix');
  if (matrixMolarVolume instanceof Error) return matrixMolarVolume;
  const spacing = latticeSpacing(config.matrix, matrixMolarVolume);
  const phases = phaseContexts(config, matrixMolarVolume, spacing);
  if (phases instanceof Error) return phases;
  try {
    const thermo = new AgingThermo(
      sys,
      config.matrix.phase.toUpperCase(),
      config.pressure ?? 101325,
      config.matrix.diffusivities ?? {},
    );
    for (const p of phases) thermo.model(p.phase);
    const rates = new RateModel(thermo, alloy, spacing);
    return { config, alloy, schedule, thermo, rates, phases, matrixMolarVolume };
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** Runs the simulation; an Error naming the input when it cannot start or the engine fails on the way. */
export function simulateAging(sys: AgingSystem, config: AgingConfig): AgingResult | Error {
  const p = prepare(sys, config);
  if (p instanceof Error) return p;
  try {
    return new AgingLoop(p).run();
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

class AgingLoop {
  private t = 0;
  private dt = 0;
  private matrix: Record<string, number>;
  private state: MatrixState | null = null;
  private readonly precipitateX = new Map<string, Record<string, number>>();
  private readonly recorder: AgingRecorder;
  private readonly courant: number;
  private readonly supersaturation: number;
  private readonly isothermal: boolean;
  private massError = 0;
  private steps = 0;

  constructor(private readonly p: Prepared) {
    this.matrix = { ...p.alloy };
    this.courant = p.config.step_control?.courant ?? 0.4;
    this.supersaturation = p.config.step_control?.supersaturation ?? 0.02;
    this.isothermal = typeof p.config.temperature === 'number';
    this.recorder = new AgingRecorder(
      p.phases.map((c) => c.phase),
      p.config.strength,
    );
  }

  /** The temperature the thermodynamics is evaluated at: the schedule's, in 1 K steps on a ramp. */
  private temperature(t: number): number {
    const T = this.p.schedule.at(t);
    return this.isothermal ? T : Math.round(T);
  }

  run(): AgingResult {
    const end = this.p.config.end_time;
    const stops = stopTimes(end, this.p.config.outputs ?? 100, this.p.config.psd_times ?? []);
    this.dt = stops.times[0]! * 1e-3;
    let next = 0;
    while (this.t < end * (1 - 1e-12) && this.steps < MAX_STEPS) {
      this.step(stops.times[next]! - this.t);
      if (this.steps % 100 === 0) this.p.config.progress?.(this.t);
      while (next < stops.times.length && this.t >= stops.times[next]! * (1 - 1e-12)) {
        this.record(stops.psd.has(next), stops.output.has(next));
        next++;
      }
    }
    return this.recorder.result(this.massError, this.steps, Object.fromEntries(this.precipitateX), this.notes());
  }

  private notes(): string[] {
    const notes: string[] = [];
    if (this.t < this.p.config.end_time * (1 - 1e-12))
      notes.push(`stopped after ${this.steps} steps at t = ${this.t.toPrecision(4)} s, before end_time`);
    for (const c of this.p.phases)
      if (!this.precipitateX.has(c.phase))
        notes.push(
          this.p.rates.lineOrLast(c.phase, this.temperature(0))
            ? `${c.phase} did not nucleate`
            : `${c.phase}: the alloy is undersaturated for it in ${this.p.thermo.matrix} at the start (no tie line)`,
        );
    return notes;
  }

  private record(psd: boolean, output: boolean): void {
    const T = this.temperature(this.t);
    if (output) this.recorder.record(this.t, T, this.matrix, this.p.phases);
    if (psd) this.recorder.distributions(this.t, this.p.phases);
  }

  /**
   * The matrix alone (potentials, thermodynamic factor, diffusivities), recomputed when T changes or the composition
   * has moved from where it was evaluated by more than 1e-3 of its supersaturation (`scale`).
   */
  private matrixState(T: number, scale: Record<string, number>): MatrixState {
    const s = this.state;
    const near =
      s && s.T === T && Object.keys(this.matrix).every((e) => Math.abs(this.matrix[e]! - s.x[e]!) <= 1e-3 * scale[e]!);
    if (!near) this.state = this.p.thermo.matrixAt(T, this.matrix);
    return this.state!;
  }

  /** One accepted step of at most `untilStop` seconds. */
  private step(untilStop: number): void {
    const T = this.temperature(this.t);
    const scale = this.supersaturationScale(T);
    const state = this.matrixState(T, scale);
    const rates = this.p.phases.map((c) => this.phaseRates(c, state));
    const velocities = this.p.phases.map((c, i) => edgeVelocities(c.grid, rates[i]!));
    let dt = Math.min(this.dt * 1.5, untilStop);
    // the bins that set the Courant limit: those holding more than 1e-3 of the largest bin's volume (per radius) of
    // any phase, so that neither a phase's few fast-dissolving small particles nor a phase holding a negligible part
    // of the precipitate (a competitor that lost) sets the step
    const floor = 1e-3 * this.p.phases.reduce((a, c) => Math.max(a, c.grid?.peakVolumeDensity() ?? 0), 0);
    this.p.phases.forEach((c, i) => {
      const rate = c.grid ? c.grid.courantRate(velocities[i]!, floor) : 0;
      if (rate > 0) dt = Math.min(dt, this.courant / rate);
    });
    const ramp = this.p.schedule.rate(this.t, dt);
    if (ramp > 0) dt = Math.min(dt, 1 / ramp);
    for (let attempt = 0; ; attempt++) {
      const saved = this.p.phases.map((c) => (c.grid ? { n: c.grid.snapshot(), e: c.grid.edges } : null));
      this.advance(rates, velocities, dt);
      const next = this.matrixComposition();
      if (attempt >= 40 || this.acceptable(next, scale)) {
        this.matrix = next;
        break;
      }
      this.p.phases.forEach((c, i) => saved[i] && c.grid!.restore(saved[i]!.n, saved[i]!.e));
      dt /= 2;
    }
    this.t += dt;
    this.dt = dt;
    this.steps++;
  }

  private phaseRates(c: PhaseContext, state: MatrixState): PhaseRates | null {
    const r = this.p.rates.rates(c, state, this.matrix, this.t);
    c.last = {
      drivingForce: r?.drivingForce ?? 0,
      criticalRadius: r?.nucleus?.criticalRadius ?? null,
      nucleationRate: r?.nucleus?.rate ?? 0,
    };
    const nucleating = r?.nucleus && r.nucleus.rate > 0 ? r.nucleus.criticalRadius * 1.05 : 0;
    if (nucleating > 0) {
      c.grid ??= new SizeGrid(40 * nucleating, this.p.config.bins ?? DEFAULT_BINS);
      if (!this.precipitateX.has(c.phase))
        this.precipitateX.set(c.phase, { ...this.p.rates.lineOrLast(c.phase, state.T)!.precipitate });
    }
    c.grid?.growToHold(nucleating);
    return r;
  }

  /** Moves the distributions by dt and adds the nuclei. */
  private advance(rates: (PhaseRates | null)[], velocities: (Float64Array | null)[], dt: number): void {
    this.p.phases.forEach((c, i) => {
      const r = rates[i];
      if (!c.grid || !r) return;
      c.grid.advect(velocities[i]!, dt);
      // fewer than one particle per m^3 left: the phase has dissolved (its vanishing remainder would keep setting the
      // time step with the fast shrinking of the smallest particles)
      if (c.grid.total() < 1) c.grid.number.fill(0);
      if (r.nucleus && r.nucleus.rate > 0) c.grid.add(1.05 * r.nucleus.criticalRadius, r.nucleus.rate * dt);
    });
  }

  /**
   * The matrix's composition from the precipitates' amounts: each phase's atoms per m^3 are its volume over its
   * molar volume, the matrix's the rest of the volume over its own; x_matrix = (x_alloy - sum f_p x_p) / (1 - sum f_p)
   * with f_p the phases' atom fractions. Records the mass balance's residual.
   */
  private matrixComposition(): Record<string, number> {
    const volumes = this.p.phases.map((c) => (c.grid ? c.grid.volume() : 0));
    const moles = volumes.map((v, i) => v / this.p.phases[i]!.molarVolume);
    const volume = volumes.reduce((a, b) => a + b, 0);
    const total = moles.reduce((a, b) => a + b, 0) + (1 - volume) / this.p.matrixMolarVolume;
    const f = moles.map((m) => m / total);
    const F = f.reduce((a, b) => a + b, 0);
    const out: Record<string, number> = {};
    for (const e of Object.keys(this.p.alloy)) {
      let x = this.p.alloy[e]!;
      this.p.phases.forEach((c, i) => (x -= f[i]! * (this.precipitateX.get(c.phase)?.[e] ?? 0)));
      out[e] = x / (1 - F);
      let back = (1 - F) * out[e]!;
      this.p.phases.forEach((c, i) => (back += f[i]! * (this.precipitateX.get(c.phase)?.[e] ?? 0)));
      this.massError = Math.max(this.massError, Math.abs(back - this.p.alloy[e]!));
    }
    return out;
  }

  /**
   * Per element: its distance from the nearest tie line's matrix composition among the phases taking up solute (those
   * holding more than 1e-3 of the largest phase's volume; every phase before any has precipitated: a competitor that
   * lost, with its tie line near the matrix, would otherwise hold the steps to its own distance), floored at 1e-4 of
   * its fraction in the alloy (near a solvus on a ramp the distance vanishes; the floor keeps the steps from following
   * it down).
   */
  private supersaturationScale(T: number): Record<string, number> {
    const volumes = this.p.phases.map((c) => c.grid?.volume() ?? 0);
    const largest = Math.max(...volumes);
    const taking = this.p.phases.filter((_, i) => largest === 0 || volumes[i]! > 1e-3 * largest);
    const lines = taking.map((c) => this.p.rates.lineOrLast(c.phase, T));
    const out: Record<string, number> = {};
    for (const e of Object.keys(this.p.alloy)) {
      let s = Infinity;
      for (const line of lines) if (line) s = Math.min(s, Math.abs(this.matrix[e]! - line.matrix[e]!));
      out[e] = Math.max(Number.isFinite(s) ? s : 0, 1e-4 * this.p.alloy[e]!, 1e-12);
    }
    return out;
  }

  private acceptable(next: Record<string, number>, scale: Record<string, number>): boolean {
    return Object.keys(next).every(
      (e) => next[e]! >= 0 && Math.abs(next[e]! - this.matrix[e]!) <= this.supersaturation * scale[e]!,
    );
  }
}

/** The growth rate at every edge of the grid (0 at the lowest, whose outflow the sink takes). */
function edgeVelocities(grid: SizeGrid | null, rates: PhaseRates | null): Float64Array | null {
  if (!grid) return null;
  const v = new Float64Array(grid.bins + 1);
  if (!rates) return v;
  for (let e = 1; e <= grid.bins; e++) v[e] = rates.growth(grid.edges[e]!);
  return v;
}
