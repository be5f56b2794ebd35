// The particle size distribution of one precipitate phase on an Eulerian grid of radius bins (the Kampmann-Wagner
// numerical model: Kampmann and Wagner 1984; Wagner, Kampmann and Voorhees, in "Phase Transformations in Materials",
// Wiley-VCH 2001, ch. 5): the number of particles per m^3 in each bin, moved between bins by the growth rate at the
// bin edges by upwind finite volumes (implicit, with a limited second-order correction). Bin 0, below the smallest edge, is the sink: particles that shrink
// into it have dissolved. When the distribution reaches the top of the grid its range doubles and the particles are
// remapped onto the coarser bins conserving both their number and their volume.

export class SizeGrid {
  edges: Float64Array;
  number: Float64Array;
  /** the cube of each bin's centre (the volume sums run every step) */
  private cubes: Float64Array;

  constructor(
    rMax: number,
    readonly bins: number,
  ) {
    this.edges = Float64Array.from({ length: bins + 1 }, (_, i) => (rMax * i) / bins);
    this.number = new Float64Array(bins);
    this.cubes = centreCubes(this.edges);
  }

  get width(): number {
    return this.edges[1]!;
  }

  centre(i: number): number {
    return 0.5 * (this.edges[i]! + this.edges[i + 1]!);
  }

  total(): number {
    let s = 0;
    for (const n of this.number) s += n;
    return s;
  }

  /** The particles' volume per m^3 of alloy (each at its bin's centre). */
  volume(): number {
    const n = this.number,
      c = this.cubes;
    let s = 0;
    for (let i = 0; i < n.length; i++) s += n[i]! * c[i]!;
    return ((4 * Math.PI) / 3) * s;
  }

  meanRadius(): number {
    let s = 0,
      N = 0;
    this.number.forEach((n, i) => {
      s += n * this.centre(i);
      N += n;
    });
    return N > 0 ? s / N : 0;
  }

  /** Bins holding a fraction above 1e-12 of the largest bin (the ones whose edges limit the time step). */
  occupied(i: number, peak: number): boolean {
    return this.number[i]! > 1e-12 * peak;
  }

  /** The largest volume per radius of a bin, n_i r_i^3 / w (comparable between grids of different bin widths). */
  peakVolumeDensity(): number {
    const n = this.number,
      c = this.cubes;
    let peak = 0;
    for (let i = 0; i < n.length; i++) peak = Math.max(peak, n[i]! * c[i]!);
    return peak / this.width;
  }

  /**
   * The largest |v| / width (1/s) over the edges of the bins whose volume per radius (n_i r_i^3 / w) exceeds `floor`:
   * the Courant limit for accuracy where the precipitated volume is (the implicit step is stable anywhere; the few
   * small particles dissolving fast near r = 0, v ~ 1/r^2, and the particles of a phase holding a negligible part of
   * the precipitated volume would otherwise set it).
   */
  courantRate(velocity: Float64Array, floor: number): number {
    const n = this.number,
      c = this.cubes;
    const limit = floor * this.width;
    let rate = 0;
    for (let e = 1; e < this.bins; e++)
      if (n[e - 1]! * c[e - 1]! > limit || n[e]! * c[e]! > limit) rate = Math.max(rate, Math.abs(velocity[e]!));
    return rate / this.width;
  }

  /**
   * One step of dn/dt + d(v n)/dr = 0 with the velocities at the edges (velocity[e] at edges[e]): implicit (backward
   * Euler) first-order upwind, n_i (1 + dt out_i / w) = n_i(old) + dt in_i / w with the inflow from the upwind
   * neighbours' new numbers, plus a limited second-order correction of the fluxes from the old numbers on the edges
   * whose Courant number C is below 1: (1 + C) v phi(theta) (n_down - n_up) / 2 with van Leer's limiter (van Leer,
   * J. Comput. Phys. 14 (1974) 361; Sweby, SIAM J. Numer. Anal. 21 (1984) 995). The factor 1 + C (1 - C for an
   * explicit base, Lax-Wendroff's) cancels the implicit upwind step's numerical diffusion v w (1 + C) / 2 to second
   * order, so the result does not depend on the time step at first order. Each edge carries one way, so the bins are solved in the order of the flow (upwind first), exactly:
   * the particles shrinking fast near r = 0 (v ~ 1/r^2, Courant numbers far above 1) need no step limit there, and the
   * correction keeps the distribution from spreading numerically where the particles are (LSW's distribution is
   * sensitive to that spreading). The top edge is closed (the grid grows before particles reach it); whatever enters
   * bin 0 dissolves.
   */
  advect(velocity: Float64Array, dt: number): void {
    const M = this.bins;
    const n = this.number;
    const k = dt / this.width;
    const right = (i: number) => (i + 1 < M ? velocity[i + 1]! : 0); // velocity at bin i's upper edge
    const left = (i: number) => (i > 0 ? velocity[i]! : 0);
    const correction = this.fluxCorrection(velocity, k);
    const indegree = new Int32Array(M);
    for (let i = 0; i < M; i++) indegree[i] = (left(i) > 0 ? 1 : 0) + (right(i) < 0 ? 1 : 0);
    const queue: number[] = [];
    for (let i = 0; i < M; i++) if (indegree[i] === 0) queue.push(i);
    const next = new Float64Array(M);
    for (let q = 0; q < queue.length; q++) {
      const i = queue[q]!;
      const inflow = (left(i) > 0 ? left(i) * next[i - 1]! : 0) + (right(i) < 0 ? -right(i) * next[i + 1]! : 0);
      const outflow = Math.max(right(i), 0) + Math.max(-left(i), 0);
      const corrected = n[i]! + k * (correction[i]! - (i + 1 < M ? correction[i + 1]! : 0));
      next[i] = Math.max(0, (corrected + k * inflow) / (1 + k * outflow));
      if (right(i) > 0 && --indegree[i + 1]! === 0) queue.push(i + 1);
      if (left(i) < 0 && --indegree[i - 1]! === 0) queue.push(i - 1);
    }
    next[0] = 0;
    this.number = next;
  }

  /** The limited second-order part of the flux at each edge (particles per m^3 times m/s), 0 where C >= 1. */
  private fluxCorrection(velocity: Float64Array, k: number): Float64Array {
    const M = this.bins;
    const n = this.number;
    const out = new Float64Array(M + 1);
    for (let e = 2; e < M - 1; e++) {
      const v = velocity[e]!;
      const courant = Math.abs(v) * k;
      if (v === 0 || courant >= 1) continue;
      const [up, down, upup] = v > 0 ? [e - 1, e, e - 2] : [e, e - 1, e + 1];
      const jump = n[down]! - n[up]!;
      if (jump === 0) continue;
      const theta = (n[up]! - n[upup]!) / jump;
      const limiter = (theta + Math.abs(theta)) / (1 + Math.abs(theta));
      out[e] = 0.5 * v * limiter * (1 + courant) * jump;
    }
    return out;
  }

  /** Adds `count` particles per m^3 at radius r (in the bin holding it, at least bin 1). */
  add(r: number, count: number): void {
    const i = Math.min(this.bins - 1, Math.max(1, Math.floor(r / this.width)));
    this.number[i]! += count;
  }

  /** The highest bin holding more than 1e-12 of the largest (-1 when empty): upwind's numerical tail is below. */
  top(): number {
    const peak = this.number.reduce((a, b) => Math.max(a, b), 0);
    for (let i = this.bins - 1; i >= 0; i--) if (peak > 0 && this.occupied(i, peak)) return i;
    return -1;
  }

  /** Doubles the range while particles (or a radius r to hold) lie in the top tenth of the bins. */
  growToHold(r: number): void {
    while (this.top() >= 0.9 * this.bins || r >= 0.9 * this.edges[this.bins]!) this.remap(2 * this.edges[this.bins]!);
  }

  /** Moves the particles onto a grid of the same number of bins up to rMax, number and volume conserved. */
  remap(rMax: number): void {
    const next = new SizeGrid(rMax, this.bins);
    this.number.forEach((n, i) => {
      if (n <= 0) return;
      const r = this.centre(i);
      const j = Math.floor(r / next.width - 0.5);
      if (j < 1) {
        // below the first non-sink centre: into bin 1 with the same volume
        next.number[1]! += (n * r ** 3) / next.centre(1) ** 3;
        return;
      }
      const lo = next.centre(j) ** 3,
        hi = next.centre(j + 1) ** 3;
      const w = (r ** 3 - lo) / (hi - lo);
      next.number[j]! += n * (1 - w);
      next.number[Math.min(j + 1, this.bins - 1)]! += n * w;
    });
    this.edges = next.edges;
    this.number = next.number;
    this.cubes = next.cubes;
  }

  snapshot(): Float64Array {
    return Float64Array.from(this.number);
  }

  restore(n: Float64Array, edges: Float64Array): void {
    this.number = Float64Array.from(n);
    if (edges !== this.edges) {
      this.edges = Float64Array.from(edges);
      this.cubes = centreCubes(this.edges);
    }
  }
}

function centreCubes(edges: Float64Array): Float64Array {
  return Float64Array.from({ length: edges.length - 1 }, (_, i) => (0.5 * (edges[i]! + edges[i + 1]!)) ** 3);
}
