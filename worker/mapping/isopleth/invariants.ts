// The invariants of an isopleth (core/skeleton.ts, stage 5): n+1 phases of an n-component system meet at one
// temperature, so the horizontal runs shared by the lines of two or more phases at one T are the invariant-like
// lines; and the named lines: the liquidus, where a solid phase's line borders the field of liquid alone, and the
// solidus, the liquid's own line.
import { baseName } from '../../../contract/phases.js';
import type { InvariantLine, LinePoint, NamedLine, ZpfLine } from './types.js';

/** Horizontal runs that the lines of two or more phases share at one temperature. */
export function invariantLines(lines: ZpfLine[]): InvariantLine[] {
  interface Run {
    T: number;
    x: [number, number];
    phases: Set<string>;
    linePhase: string;
  }
  const runs: Run[] = [];
  const MIN_SPAN = 1e-3; // axis fraction
  for (const l of lines) {
    let i = 0;
    while (i < l.points.length) {
      let j = i;
      let lo = l.points[i]!.T,
        hi = lo;
      while (j + 1 < l.points.length) {
        const T = l.points[j + 1]!.T;
        if (Math.max(hi, T) - Math.min(lo, T) > 0.3) break;
        lo = Math.min(lo, T);
        hi = Math.max(hi, T);
        j++;
      }
      const xs = l.points.slice(i, j + 1).map((p) => p.x);
      if (j > i && Math.max(...xs) - Math.min(...xs) >= MIN_SPAN) {
        const phases = new Set<string>();
        for (const p of l.points.slice(i, j + 1)) for (const q of [...p.with, ...p.without]) phases.add(q);
        runs.push({ T: (lo + hi) / 2, x: [Math.min(...xs), Math.max(...xs)], phases, linePhase: l.phase });
      }
      i = j > i ? j : i + 1;
    }
  }
  const out: InvariantLine[] = [];
  const used = new Set<number>();
  runs.forEach((r, k) => {
    if (used.has(k)) return;
    // runs at the same T (0.5 K) that overlap any run of the group, transitively
    const group = [r];
    for (let grown = true; grown;) {
      grown = false;
      runs.forEach((q, m) => {
        if (m <= k || used.has(m)) return;
        if (group.some((g) => Math.abs(q.T - g.T) <= 0.5 && q.x[0] <= g.x[1] + 1e-9 && g.x[0] <= q.x[1] + 1e-9)) {
          group.push(q);
          used.add(m);
          grown = true;
        }
      });
    }
    const linePhases = [...new Set(group.map((g) => g.linePhase))];
    if (linePhases.length < 2) return;
    out.push({
      T: group.reduce((a, g) => a + g.T, 0) / group.length,
      x: [Math.min(...group.map((g) => g.x[0])), Math.max(...group.map((g) => g.x[1]))],
      phases: [...new Set(group.flatMap((g) => [...g.phases]))].sort(),
      line_phases: linePhases.sort(),
    });
  });
  return out.sort((a, b) => b.T - a.T);
}

/** The liquidus and solidus lines of a section (`liquids`: the phase names that are liquids). */
export function namedLines(lines: ZpfLine[], liquids: Set<string>): { liquidus: NamedLine[]; solidus: NamedLine[] } {
  const isLiquid = (label: string) => liquids.has(baseName(label));
  const liquidus: NamedLine[] = [],
    solidus: NamedLine[] = [];
  for (const l of lines) {
    if (isLiquid(l.phase)) {
      if (l.phase.includes('#')) continue;
      solidus.push({ phase: l.phase, points: l.points.map(({ s, T, x }) => ({ s, T, x })) });
      continue;
    }
    let run: LinePoint[] = [];
    const flush = () => {
      if (run.length >= 2) liquidus.push({ phase: l.phase, points: run.map(({ s, T, x }) => ({ s, T, x })) });
      run = [];
    };
    for (const p of l.points) {
      if (p.without.length > 0 && p.without.every(isLiquid)) run.push(p);
      else flush();
    }
    flush();
  }
  return { liquidus, solidus };
}
