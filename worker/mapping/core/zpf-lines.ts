// The zero-phase-fraction lines of a map in a plane (core/zpf-line.ts): each phase's border is followed on its own,
// so the lines of two phases cross (with a kink) where both change. Every grid edge whose two ends disagree about a
// phase and that no line of that phase traced so far crosses seeds a line: the crossing is located on the edge and
// the line followed both ways (core/continuation.ts traceBothWays). The same line traced twice (from two seeds, one
// where the first pass cut a corner) is kept once, the more detailed trace.
import { dropTwins, traceBothWays } from './continuation.js';
import {
  add,
  dot,
  has,
  len,
  sub,
  type LineEnd,
  type Located,
  type Sample,
  type UV,
  type ZpfFollower,
} from './zpf-line.js';

export interface ZpfLine<P> {
  /** phase label whose amount is zero along the line */
  phase: string;
  points: P[];
  ends: [LineEnd, LineEnd];
}

/** Whether segments ab and cd meet (touching counts). */
function segmentsMeet(a: UV, b: UV, c: UV, d: UV): boolean {
  const cross = (o: UV, p: UV, q: UV) => (p.u - o.u) * (q.v - o.v) - (p.v - o.v) * (q.u - o.u);
  const d1 = cross(c, d, a),
    d2 = cross(c, d, b),
    d3 = cross(a, b, c),
    d4 = cross(a, b, d);
  const eps = 1e-14;
  return (
    ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps) || Math.abs(d1) <= eps || Math.abs(d2) <= eps) &&
    ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps) || Math.abs(d3) <= eps || Math.abs(d4) <= eps)
  );
}

/** The labels one of two samples has and the other has not. */
export function changedLabels(a: Sample, b: Sample): string[] {
  return [...a.labels.filter((l) => !b.labels.includes(l)), ...b.labels.filter((l) => !a.labels.includes(l))];
}

/**
 * The lines of a map, their points in the kind's coordinates P: `pointOf` a located point, `uvOf` the plane's point
 * of a line point (the lines are compared in the plane).
 */
export class ZpfLineSet<P> {
  readonly lines: ZpfLine<P>[] = [];
  private readonly linesOf = new Map<string, ZpfLine<P>[]>();
  /** lines with an end that could not be followed to the border */
  lost = 0;

  constructor(
    private readonly follower: ZpfFollower,
    private readonly pointOf: (l: Located) => P,
    private readonly uvOf: (p: P) => UV,
  ) {}

  /** Seeds and follows the line of every phase that changes along a grid edge (progress(k, count) per edge). */
  traceGridEdges(edges: readonly (readonly [Sample, Sample])[], progress: (k: number, count: number) => void): void {
    const flips = edges.map(([a, b]) => ({ a, b, changed: changedLabels(a, b) })).filter((e) => e.changed.length > 0);
    flips.forEach((e, k) => {
      progress(k, flips.length);
      for (const label of e.changed) {
        if (this.covered(label, e.a, e.b)) continue;
        const [inside, outside] = has(e.a, label) ? [e.a, e.b] : [e.b, e.a];
        this.trace(label, this.follower.locate(label, inside, outside));
      }
    });
  }

  /** The line through a located seed, unless the seed lies on a line of its phase traced already. */
  private trace(label: string, seed: Located): void {
    // an edge next to a node that a traced line passes on the other side: the seed lies on that line
    if (this.nearLine(label, seed.p)) return;
    const t = traceBothWays<Located, LineEnd>(seed, (dir) => this.follower.follow(label, seed, dir), {
      first: 1,
      closed: 'closed',
    });
    const line: ZpfLine<P> = { phase: label, points: t.points.map(this.pointOf), ends: t.ends };
    if (t.ends[0] === 'lost' || t.ends[1] === 'lost') this.lost++;
    this.lines.push(line);
    const list = this.linesOf.get(label) ?? [];
    list.push(line);
    this.linesOf.set(label, list);
  }

  /** A traced line of `label` crosses the segment ab. */
  private covered(label: string, a: UV, b: UV): boolean {
    for (const l of this.linesOf.get(label) ?? []) {
      const ps = l.points.map(this.uvOf);
      for (let k = 0; k + 1 < ps.length; k++) if (segmentsMeet(a, b, ps[k]!, ps[k + 1]!)) return true;
      if (ps.length === 1 && len(sub(ps[0]!, a)) + len(sub(ps[0]!, b)) <= len(sub(a, b)) + 1e-9) return true;
    }
    return false;
  }

  /** p lies within a quarter of the first step of a traced line of `label`. */
  private nearLine(label: string, p: UV): boolean {
    return (this.linesOf.get(label) ?? []).some((l) => this.nearPolyline(p, l.points.map(this.uvOf)));
  }

  private nearPolyline(p: UV, ps: UV[]): boolean {
    for (let k = 0; k + 1 < ps.length; k++) {
      const a = ps[k]!,
        ab = sub(ps[k + 1]!, a);
      const f = Math.min(1, Math.max(0, dot(sub(p, a), ab) / Math.max(1e-300, dot(ab, ab))));
      if (len(sub(p, add(a, ab, f))) < 0.25 * this.follower.h0) return true;
    }
    return false;
  }

  /** The share of line a's points near line b. */
  private nearShare(a: ZpfLine<P>, b: ZpfLine<P>): number {
    const ps = b.points.map(this.uvOf);
    const near = a.points.filter((q) => this.nearPolyline(this.uvOf(q), ps)).length;
    return near / Math.max(1, a.points.length);
  }

  /** Of two traces of one line (each near the other for 80 % of its points), the one with fewer points goes. */
  dropTwins(): void {
    const lines = this.lines;
    const twinOf = (i: number) =>
      lines.findIndex(
        (b, j) =>
          j !== i &&
          b.phase === lines[i]!.phase &&
          this.nearShare(lines[i]!, b) >= 0.8 &&
          this.nearShare(b, lines[i]!) >= 0.8 &&
          lines[i]!.points.length <= b.points.length,
      );
    dropTwins(lines.length, twinOf, (i) => lines.splice(i, 1));
  }
}
