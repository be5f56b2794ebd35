// Shared helpers of the phase-model tests: database loading from the shared test databases and
// finite-difference checks of the analytic derivatives.
import { existsSync } from 'node:fs';
import { loadCore, type NativeDatabase } from '../../../worker/core/native.js';
import { PhaseModel } from '../../../worker/core/models.js';
import { SHARED_TDB_DIR } from '../../support/shared.js';

export const TDB_DIR = SHARED_TDB_DIR;
export const haveTdb = existsSync(TDB_DIR);

const dbs = new Map<string, NativeDatabase>();
export function db(file: string): NativeDatabase {
  let d = dbs.get(file);
  if (!d) {
    d = loadCore().Database.fromFile(`${TDB_DIR}/${file}`);
    dbs.set(file, d);
  }
  return d;
}

export function model(file: string, phase: string, components: string[]): PhaseModel {
  const m = PhaseModel.build(db(file), phase, components);
  if (!m) throw new Error(`${phase} cannot form`);
  return m;
}

/** Deterministic interior point: every sublattice gets distinct positive fractions summing to 1. */
export function interiorPoint(m: PhaseModel, seed = 1): Float64Array {
  const y = new Float64Array(m.variables.length);
  let s = seed;
  const rand = () => (s = (s * 16807) % 2147483647) / 2147483647;
  for (let sub = 0; sub < m.info.numSublattices; sub++) {
    const idx = m.variables.map((v, k) => (v.sublattice === sub ? k : -1)).filter((k) => k >= 0);
    let sum = 0;
    for (const k of idx) sum += y[k] = 0.2 + rand();
    for (const k of idx) y[k] /= sum;
  }
  return y;
}

export interface FdError {
  grad: number;
  hess: number;
}

/**
 * Largest relative error of the analytic gradient and Hessian of GM and Gf against central finite
 * differences over z = (T, P, y); steps 1e-3 K, 10 Pa (relative to P) and 1e-6 in y.
 */
export function fdCheck(m: PhaseModel, T: number, P: number, y: Float64Array): FdError {
  const n = y.length + 2;
  const e = m.evaluate(T, P, y, 2);
  let grad = 0;
  let hess = 0;
  for (let i = 0; i < n; i++) {
    const h = i === 0 ? 1e-3 : i === 1 ? Math.max(10, P * 1e-6) : 1e-6;
    const at = (d: number) => {
      const yy = Float64Array.from(y);
      let TT = T;
      let PP = P;
      if (i === 0) TT += d;
      else if (i === 1) PP += d;
      else yy[i - 2] += d;
      return m.evaluate(TT, PP, yy, 1);
    };
    const a = at(h);
    const b = at(-h);
    for (const [val, g, H, ga, gb] of [
      [a.GM - b.GM, e.dGM, e.d2GM, a.dGM, b.dGM],
      [a.Gf - b.Gf, e.dGf, e.d2Gf, a.dGf, b.dGf],
    ] as Array<[number, Float64Array, Float64Array, Float64Array, Float64Array]>) {
      const fd = val / (2 * h);
      grad = Math.max(grad, Math.abs(fd - g[i]) / (1 + Math.abs(fd)));
      for (let j = 0; j < n; j++) {
        const fh = (ga[j] - gb[j]) / (2 * h);
        hess = Math.max(hess, Math.abs(fh - H[i * n + j]) / (1 + Math.abs(fh)));
      }
    }
  }
  return { grad, hess };
}
