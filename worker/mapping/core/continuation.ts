// Tracing a boundary by continuation (core/skeleton.ts, stage 3): from a seed on the boundary, the kind's step rule
// follows it in one direction until it ends (on the window, at an invariant, at a critical point, or back at its
// seed); a trace is the two directions joined at the seed. Traces of one boundary found from two seeds are
// dropped but one (dropTwins).

/** One direction of a trace: the points after the seed, in the order found, and how it ended. */
export interface HalfTrace<P, E> {
  points: P[];
  end: E;
}

/** A traced boundary: its points from one end to the other through the seed, and its two ends in that order. */
export interface Trace<P, E> {
  points: P[];
  ends: [E, E];
}

/** How the two directions of a trace are run. */
export type TraceOrder<E> =
  /**
   * both directions, `first` first (the first one's finds, e.g. a tie-triangle, are known to the second); a
   * direction that ends with `closed` came back to its seed: the boundary is a loop, the other direction is not
   * traced and the seed ends the points too
   */
  | { first: 1 | -1; closed?: E }
  /** one direction only, from a seed that is itself an end (`behind`: how the boundary ends there) */
  | { only: 1 | -1; behind: E };

/** The trace through `seed`: `half(dir)` follows the boundary from the seed in direction dir. */
export function traceBothWays<P, E>(
  seed: P,
  half: (dir: 1 | -1) => HalfTrace<P, E>,
  order: TraceOrder<E>,
): Trace<P, E> {
  if ('only' in order) {
    const ahead = half(order.only);
    return { points: [seed, ...ahead.points], ends: [order.behind, ahead.end] };
  }
  const first = half(order.first);
  const loop = order.closed !== undefined && first.end === order.closed;
  const second: HalfTrace<P, E> = loop ? { points: [], end: first.end } : half(order.first === 1 ? -1 : 1);
  const [behind, ahead] = order.first === 1 ? [second, first] : [first, second];
  const points = [...[...behind.points].reverse(), seed, ...ahead.points];
  if (loop) points.push(seed);
  return { points, ends: [behind.end, ahead.end] };
}

/**
 * Drops the traces found twice: from the last trace down, trace i goes (drop(i)) when twinOf(i) names another one
 * it duplicates (-1: none). The kind decides which of two twins names the other (the longer or more detailed one
 * stays).
 */
export function dropTwins(count: number, twinOf: (i: number) => number, drop: (i: number) => void): void {
  for (let i = count - 1; i >= 0; i--) if (twinOf(i) >= 0) drop(i);
}
