// The equilibrium (lever-rule) solidification of the alloy beside its Scheil path: equilibria at the alloy's
// composition stepping down from the start temperature until the liquid is gone, the solidus by bisection.
import type { EquilibriumResult } from '../../core/equilibrium.js';
import { CancelledError } from '../../protocol.js';
import { chunkedBatch } from '../batch.js';
import { xConditions, type PathEquilibria, type PathPoint } from './equilibria.js';
import type { ScheilSetup } from './setup.js';

export interface LeverRule {
  lever: { T: number; fraction_solid: number }[];
  solidus: number | null;
}

/** What the lever rule takes of the Scheil path: its liquidus and where it ended. */
export interface ScheilEnds {
  liquidus: number | null;
  /** the Scheil solidus, or null */
  solidus: number | null;
  /** the last temperature of the path */
  lastT: number;
}

/** The lever rule down to 50 steps below the Scheil solidus (or the path's last temperature). */
export function leverRule(
  eq: PathEquilibria,
  setup: ScheilSetup,
  ends: ScheilEnds,
  threads: number,
  logs: string[],
): LeverRule {
  const { T0, step, Tmin, control } = setup;
  const out: LeverRule = { lever: [], solidus: null };
  const bottom = Math.max(Tmin, (ends.solidus ?? ends.lastT) - 50 * step);
  let Ttop = T0;
  const scan: LeverScan = { lastLiquid: null, done: false };
  if (ends.liquidus !== null && ends.liquidus > T0) out.lever.push({ T: ends.liquidus, fraction_solid: 0 });
  // Batches of 16 temperatures per thread: the points of a batch beyond the lever solidus are wasted
  // (tens of ms each in a multicomponent alloy); each batch continues from the last point before it.
  const perBatch = 16 * threads;
  let lastResult: EquilibriumResult | undefined;
  while (!scan.done && Ttop >= bottom) {
    const Ts: number[] = [];
    for (let k = 0; k < perBatch && Ttop - k * step >= bottom; k++) Ts.push(Ttop - k * step);
    const prog = control?.getProgress() ?? 0;
    const rs = chunkedBatch(
      { database: setup.database, components: setup.components, phases: setup.phases },
      Ts.map((T) => ({ T, P: setup.P, X: xConditions(setup.x0) })),
      threads,
      control,
      prog,
      prog,
      lastResult,
    );
    lastResult = rs[rs.length - 1];
    if (control?.cancelled) throw new CancelledError();
    for (let k = 0; k < rs.length && !scan.done; k++) leverPoint(eq, setup, ends, scan, out, Ts[k], rs[k], logs);
    Ttop -= perBatch * step;
    control?.setProgress(0.8 + 0.2 * Math.min(1, (T0 - Ttop) / Math.max(step, T0 - bottom)));
  }
  if (out.solidus === null) logs.push(`lever rule: liquid remains down to ${bottom.toFixed(2)} K`);
  return out;
}

/** The lever-rule scan so far: its last state with liquid, and whether the liquid is gone. */
interface LeverScan {
  lastLiquid: PathPoint | null;
  done: boolean;
}

/** One equilibrium of the lever-rule scan at T, added to `out`; at the first without liquid, the solidus. */
function leverPoint(
  eq: PathEquilibria,
  setup: ScheilSetup,
  ends: ScheilEnds,
  scan: LeverScan,
  out: LeverRule,
  T: number,
  r: EquilibriumResult,
  logs: string[],
): void {
  if (!r.converged) {
    logs.push(`lever rule: T=${T.toFixed(2)} K did not converge (${r.reason}); point left out`);
    return;
  }
  const q = eq.split(r);
  if (q.fL <= 0 && scan.lastLiquid) {
    const b = eq.bisect(setup.x0, { T, r }, scan.lastLiquid, (z) => z.fL <= 0);
    out.solidus = 0.5 * (b.lo.T + b.hi.T);
    // the state just above the solidus: at an invariant the last liquid goes at one temperature
    if (b.hi.T < scan.lastLiquid.T) out.lever.push({ T: b.hi.T, fraction_solid: 1 - eq.split(b.hi.r).fL });
    out.lever.push({ T: out.solidus, fraction_solid: 1 });
    scan.done = true;
    return;
  }
  if (q.fL <= 0) {
    logs.push(`lever rule: no liquid at the start temperature`);
    scan.done = true;
    return;
  }
  const lever = out.lever;
  if (ends.liquidus !== null && lever.length && lever[lever.length - 1].T > ends.liquidus && T < ends.liquidus)
    lever.push({ T: ends.liquidus, fraction_solid: 0 });
  lever.push({ T, fraction_solid: 1 - q.fL });
  scan.lastLiquid = { T, r };
}
