// The highest change of a phase condition in an alloy's downward T scan (only liquid above the liquidus, any
// liquid above the solidus), narrowed to ALLOY_T_TOLERANCE by regula falsi kept bracketed (as in Brent's method).
import type { EquilibriumResult } from '../core/equilibrium.js';
import { CancelledError } from '../protocol.js';

export const ALLOY_T_TOLERANCE = 0.01;

/** A state of the scan at T. */
export interface TState {
  T: number;
  r: EquilibriumResult;
}

/** The scan's grid (ascending T) with its states, every state computed so far, and how to compute one more. */
export interface FlipScan {
  Ts: number[];
  results: EquilibriumResult[];
  /** every state computed so far (scan and refinements), so the solidus starts from what the liquidus met */
  known: TState[];
  /** the equilibrium at T starting from `start` */
  solve(T: number, start: EquilibriumResult): EquilibriumResult;
  cancelled(): boolean;
}

/** The condition of a flip: `pred` true above it, false below; `amount` vanishes at it on one side. */
export interface Flip {
  pred: (r: EquilibriumResult) => boolean;
  amount: (r: EquilibriumResult) => number;
  /** the amount is that of the side below the flip (liquidus: the solids), else above (solidus: the liquid) */
  amountBelow: boolean;
}

/**
 * Highest grid bracket where pred is false below and true above (liquidus: only liquid above; solidus: any liquid
 * above, none below), narrowed to ALLOY_T_TOLERANCE keeping a state on each side, from the highest such change
 * among the states already computed in it. `amount` vanishes at the change on one side of it (liquidus: the
 * solid phases below; solidus: the liquid above) and is smooth there except at an invariant: the two states
 * nearest the change on that side extrapolate it linearly to zero, and the next step goes ALLOY_T_TOLERANCE * 0.45
 * past that estimate, alternately to either side (regula falsi kept bracketed, as in Brent's method); an
 * estimate outside the bracket, or a step that lands on the side it did not aim at, gives a bisection step
 * instead. The answer is the middle of the final bracket either way, as the bisection's.
 */
export function highestFlip(scan: FlipScan, flip: Flip): number | null {
  const { Ts, results, known } = scan;
  const { pred } = flip;
  for (let i = Ts.length - 2; i >= 0; i--) {
    const lo = results[i]!,
      hi = results[i + 1]!;
    if (!lo.converged || !hi.converged || pred(lo) || !pred(hi)) continue;
    const inside = known.filter((k) => k.r.converged && k.T >= Ts[i]! && k.T <= Ts[i + 1]!).sort((x, y) => x.T - y.T);
    let j = inside.length - 2;
    while (j > 0 && (pred(inside[j]!.r) || !pred(inside[j + 1]!.r))) j--;
    return narrow(scan, flip, inside, j);
  }
  return null;
}

/** The narrowing's state: the bracket [a, b], the amounts met on the amount's side, the aims, the last state. */
interface Narrowing {
  a: number;
  b: number;
  /** states on the amount's side with a positive amount, the nearest to the change last */
  side: { T: number; v: number }[];
  aimAtAmountSide: boolean;
  lastAimMissed: boolean;
  near: EquilibriumResult;
}

/** Narrows the change between inside[j] and inside[j + 1] to ALLOY_T_TOLERANCE; returns the bracket's middle. */
function narrow(scan: FlipScan, flip: Flip, inside: TState[], j: number): number {
  const { amountBelow } = flip;
  const n: Narrowing = {
    a: inside[j]!.T,
    b: inside[j + 1]!.T,
    side: (amountBelow ? inside.slice(0, j + 1) : inside.slice(j + 1).reverse())
      .map((k) => ({ T: k.T, v: flip.amount(k.r) }))
      .filter((k) => k.v > 0),
    aimAtAmountSide: true,
    lastAimMissed: false,
    // each step starts from the previous step's state (the solver re-scans the grid with the final chemical
    // potentials, so a warm start gives the cold start's answer)
    near: amountBelow ? inside[j]!.r : inside[j + 1]!.r,
  };
  for (let step = 0; n.b - n.a > ALLOY_T_TOLERANCE && step < 100; step++) {
    if (scan.cancelled()) throw new CancelledError();
    const { m, aimed } = nextTemperature(n, amountBelow);
    const r = scan.solve(m, n.near);
    if (!r.converged) break;
    n.near = r;
    scan.known.push({ T: m, r });
    const above = flip.pred(r);
    if (above) n.b = m;
    else n.a = m;
    const onAmountSide = above !== amountBelow;
    if (onAmountSide) {
      const v = flip.amount(r);
      if (v > 0) n.side.push({ T: m, v });
    }
    n.lastAimMissed = aimed !== null && aimed !== onAmountSide;
    if (aimed !== null) n.aimAtAmountSide = !aimed;
  }
  return 0.5 * (n.a + n.b);
}

/**
 * The next temperature: 0.45 tolerances to the side aimed at past the zero of the amount extrapolated from its
 * last two values (the other side when that lies outside the bracket), else the bracket's middle; `aimed` says
 * which side was aimed at (true: the amount's), null for the middle.
 */
function nextTemperature(n: Narrowing, amountBelow: boolean): { m: number; aimed: boolean | null } {
  const tol = ALLOY_T_TOLERANCE,
    towardAmount = amountBelow ? -1 : 1;
  const within = (t: number) => t > n.a + 0.02 * tol && t < n.b - 0.02 * tol;
  const p = n.side[n.side.length - 2],
    q = n.side[n.side.length - 1];
  if (p && q && q.v !== p.v && !n.lastAimMissed) {
    const zero = q.T - (q.v * (q.T - p.T)) / (q.v - p.v);
    const toAmount = zero + towardAmount * 0.45 * tol,
      toOther = zero - towardAmount * 0.45 * tol;
    const [first, second] = n.aimAtAmountSide ? [toAmount, toOther] : [toOther, toAmount];
    if (within(first)) return { m: first, aimed: n.aimAtAmountSide };
    if (within(second)) return { m: second, aimed: !n.aimAtAmountSide };
  }
  return { m: 0.5 * (n.a + n.b), aimed: null };
}
