// Curie/Neel lines of a binary diagram: where the magnetic ordering temperature of a stable solution
// phase equals T. In the Inden-Hillert-Jarl model (Hillert and Jarl, Calphad 2 (1978) 227) the magnetic
// contribution to G is a function of tau = T / T_C with T_C(x) the composition-dependent Curie (or,
// after the antiferromagnetic factor, Neel) temperature; the transition is of second order and is not a
// boundary between phase fields, so it is drawn as its own (dotted) line. The line is followed across
// the composition axis in steps of 0.02 with T = T_C(x) (fixed-point iteration for a T-dependent T_C)
// from the phase's own model at the site fractions of composition x, which are exact for a solution
// with one substitutional sublattice (interstitial or single-species sublattices besides); a point is
// kept where it lies in that phase's single-phase field of the traced diagram, so no equilibrium is
// solved for it.
import { baseName } from '../../contract/phases.js';
import { PhaseModel } from '../core/models.js';
import type { NativeDatabase } from '../core/native.js';
import type { TieLine } from '../../contract/results/binary_equilibrium.js';
import type { BinaryRegion } from './binary-types.js';
import type { OrderModel } from './order-disorder.js';

import { interpolateTieLine } from './tracing.js';

export interface MagneticLine {
  phase: string;
  points: { T: number; x: number }[];
}

/** Composition step of a magnetic line (T_C(x) is smooth; each point costs two model evaluations). */
const X_STEP = 0.02;

/**
 * Site fractions of a phase model at mole fraction x of `xc` in the binary (xc, other): every sublattice
 * holding both elements gets (1 - x, x) and nothing else; a sublattice with one species holds it alone.
 * Null when the model has a sublattice the composition does not fix (more than one species that are not
 * just the two elements).
 */
export function solutionSiteFractions(
  variables: readonly { sublattice: number; species: string }[],
  xc: string,
  other: string,
  x: number,
): Float64Array | null {
  const bySub = new Map<number, number[]>();
  variables.forEach((v, k) => {
    if (!bySub.has(v.sublattice)) bySub.set(v.sublattice, []);
    bySub.get(v.sublattice)!.push(k);
  });
  const y = new Float64Array(variables.length);
  let substitutional = 0;
  for (const idx of bySub.values()) {
    if (idx.length === 1) {
      y[idx[0]] = 1;
      continue;
    }
    const a = idx.find((k) => variables[k].species.toUpperCase() === xc),
      b = idx.find((k) => variables[k].species.toUpperCase() === other);
    if (a === undefined || b === undefined) return null;
    y[a] = x;
    y[b] = 1 - x;
    substitutional++;
  }
  return substitutional ? y : null;
}

/** The phase label of the single-phase field holding (T, x) in the traced diagram, or null inside a two-phase field / unknown. */
export function fieldAt(regions: readonly BinaryRegion[], T: number, x: number): string | null {
  const spans: { lo: number; hi: number; left: string; right: string }[] = [];
  for (const r of regions) {
    const tl: TieLine[] = r.tielines;
    if (!tl.length || T < tl[0].T || T > tl[tl.length - 1].T) continue;
    const [lo, hi] = interpolateTieLine(tl, T);
    if (x >= lo && x <= hi) return null;
    spans.push({ lo, hi, left: r.phases[0], right: r.phases[1] });
  }
  let left: string | null = null,
    right: string | null = null,
    dl = Infinity,
    dr = Infinity;
  for (const s of spans) {
    if (s.hi < x && x - s.hi < dl) {
      dl = x - s.hi;
      left = s.right;
    }
    if (s.lo > x && s.lo - x < dr) {
      dr = s.lo - x;
      right = s.left;
    }
  }
  if (left && right && baseName(left) !== baseName(right)) return null; // inconsistent neighbours: not decided here
  return left ?? right;
}

/**
 * Curie/Neel lines of the magnetic solution phases of a diagram. `fallback` names the single-phase field
 * at (T, x) where no two-phase region spans T (e.g. the nearest seed-grid node).
 */
export function magneticLines(
  db: NativeDatabase,
  o: {
    phases: readonly string[];
    components: string[];
    xComponent: string;
    other: string;
    P: number;
    T: [number, number];
    X: [number, number];
    regions: readonly BinaryRegion[];
    order: OrderModel;
    fallback: (T: number, x: number) => string | null;
  },
): MagneticLine[] {
  const out: MagneticLine[] = [];
  const magnetic = (name: string) => db.parameters(name).some((p) => p.type === 'TC' || p.type === 'NT');
  const info = db.info();
  for (const ph of info.phases) {
    const name = ph.name.toUpperCase();
    if (!o.phases.includes(name)) continue;
    const ordered = o.order.info.get(name);
    if (!magnetic(name) && !(ph.disorderedPart && magnetic(ph.disorderedPart))) continue;
    // the label of its field: an ordered phase's uniform (disordered) state carries the disordered name
    const label = ordered ? ordered.disordered : name;
    if (out.some((l) => l.phase === label)) continue;
    let model: PhaseModel | null = null;
    try {
      model = PhaseModel.build(db, ph.name, o.components);
    } catch {
      model = null;
    }
    if (!model) continue;
    const variables = model.variables;
    const lines: { T: number; x: number }[][] = [];
    let run: { T: number; x: number }[] = [];
    const n = Math.round((o.X[1] - o.X[0]) / X_STEP);
    for (let k = 0; k <= n; k++) {
      const x = o.X[0] + ((o.X[1] - o.X[0]) * k) / Math.max(1, n);
      const y = solutionSiteFractions(variables, o.xComponent, o.other, Math.min(1 - 1e-10, Math.max(1e-10, x)));
      let T: number | null = null;
      if (y) {
        let t = (o.T[0] + o.T[1]) / 2;
        for (let it = 0; it < 4; it++) {
          const tc = model.curieTemperature(t, o.P, y);
          if (!(tc > 0) || !Number.isFinite(tc)) {
            t = NaN;
            break;
          }
          if (Math.abs(tc - t) < 1e-6) break;
          t = tc;
        }
        if (Number.isFinite(t) && t >= o.T[0] && t <= o.T[1]) T = t;
      }
      const field = T === null ? null : (fieldAt(o.regions, T, x) ?? o.fallback(T, x));
      if (T !== null && field !== null && baseName(field) === label) run.push({ T, x });
      else if (run.length) {
        lines.push(run);
        run = [];
      }
    }
    if (run.length) lines.push(run);
    for (const points of lines) if (points.length >= 2) out.push({ phase: label, points });
  }
  return out;
}
