// The topology checks of a diagram's self-audit (worker/mapping/audit.ts, check (a)): every invariant ends its three
// two-phase fields at its temperature and compositions, every critical point ends a miscibility gap and every
// congruent point a field whose two boundaries meet there, nothing is reported twice, and no two two-phase fields
// overlap at one T (in a binary at fixed P a two-phase field is a band of tie-lines: Gibbs phase rule, F = 1).
import { baseName } from '../../../contract/phases.js';
import type { BinaryDiagram } from '../binary-types.js';
import { fieldsAt, fmtT, fmtX, regionEnds, sameSet, T_TOL, X_TOL } from './context.js';

type RegionEnd = ReturnType<typeof regionEnds>[number];

/** The checks of the diagram's points against its fields, each disagreement a line of `out`. */
export function checkTopology(d: BinaryDiagram, out: string[]): void {
  const ends = regionEnds(d);
  invariantsEndTheirFields(d, ends, out);
  invariantsDistinct(d, out);
  criticalPointsCloseGaps(d, ends, out);
  congruentPointsCloseFields(d, ends, out);
  tricriticalPointsCloseFields(d, ends, out);
  congruentPointsDistinct(d, out);
}

function invariantsEndTheirFields(d: BinaryDiagram, ends: RegionEnd[], out: string[]): void {
  for (const inv of d.invariants) {
    const ph = inv.phases;
    for (const [i, j] of [
      [0, 1],
      [1, 2],
      [0, 2],
    ]) {
      // two phases of one composition (polymorphs of a line compound) bound no field of their own
      if (Math.abs(ph[i].x - ph[j].x) <= X_TOL) continue;
      const want = [baseName(ph[i].name), baseName(ph[j].name)];
      const ok = ends.some(
        ({ r, t }) =>
          Math.abs(t.T - inv.T) <= T_TOL &&
          sameSet(r.phases.map(baseName), want) &&
          Math.abs(t.x[0] - ph[i].x) <= X_TOL &&
          Math.abs(t.x[1] - ph[j].x) <= X_TOL,
      );
      if (!ok)
        out.push(
          `${inv.kind} ${fmtT(inv.T)} K (${ph.map((p) => `${p.name}@${fmtX(p.x)}`).join(', ')}): no ${want.join('+')} field ends there`,
        );
    }
  }
}

function invariantsDistinct(d: BinaryDiagram, out: string[]): void {
  for (let i = 0; i < d.invariants.length; i++)
    for (let j = i + 1; j < d.invariants.length; j++) {
      const a = d.invariants[i],
        b = d.invariants[j];
      const shared = a.phases.filter((p) =>
        b.phases.some((q) => baseName(q.name) === baseName(p.name) && Math.abs(q.x - p.x) < 0.02),
      ).length;
      // two invariants bounding a narrow field share two phases by necessity; one found twice shares all three
      if (Math.abs(a.T - b.T) < 2 && shared >= 3)
        out.push(
          `invariants ${a.kind} ${fmtT(a.T)} K and ${b.kind} ${fmtT(b.T)} K look like one (${shared} phases at the same compositions)`,
        );
    }
}

function criticalPointsCloseGaps(d: BinaryDiagram, ends: RegionEnd[], out: string[]): void {
  for (const c of d.criticalPoints) {
    const ok = ends.some(
      ({ r, t }) =>
        Math.abs(t.T - c.T) <= T_TOL &&
        baseName(r.phases[0]) === baseName(r.phases[1]) &&
        t.x[1] - t.x[0] <= 0.02 &&
        Math.abs((t.x[0] + t.x[1]) / 2 - c.x) <= 0.02,
    );
    if (!ok) out.push(`critical point ${c.phase} ${fmtT(c.T)} K x=${fmtX(c.x)}: no miscibility gap closes there`);
  }
}

/**
 * A congruent point next to a pure element closes a field on each side of it, the element's side one running on
 * to the element.
 */
function closedFromBothSides(d: BinaryDiagram, c: BinaryDiagram['congruentPoints'][number]): boolean {
  const edge = c.x < 0.5 ? 0 : 1;
  const closing = d.regions.filter(
    (r) =>
      sameSet(r.phases.map(baseName), c.phases.map(baseName)) &&
      [r.tielines[0], r.tielines[r.tielines.length - 1]].some(
        (t) => t && Math.abs(t.T - c.T) <= T_TOL && t.x[1] - t.x[0] <= X_TOL && Math.abs(t.x[0] - c.x) <= X_TOL,
      ),
  );
  const toElement = closing.some((r) =>
    r.tielines.some((t) => Math.abs(t.x[0] - edge) < 0.002 && Math.abs(t.x[1] - edge) < 0.002),
  );
  return closing.length >= 2 && toElement;
}

function congruentPointsCloseFields(d: BinaryDiagram, ends: RegionEnd[], out: string[]): void {
  for (const c of d.congruentPoints) {
    const ok = ends.some(
      ({ r, t }) =>
        Math.abs(t.T - c.T) <= T_TOL &&
        sameSet(r.phases.map(baseName), c.phases.map(baseName)) &&
        t.x[1] - t.x[0] <= X_TOL &&
        Math.abs(t.x[0] - c.x) <= X_TOL,
    );
    if (!ok)
      out.push(
        `congruent point ${c.phases.join('+')} ${fmtT(c.T)} K x=${fmtX(c.x)}: no field whose boundaries meet there`,
      );
    // next to a pure element a lens whose tie-line got short is easily taken for a congruent point; a real
    // extremum there (Al-Ni of alni_tough_chempot: the fcc liquidus peaks 4 K above the melting point of Ni
    // at x 0.991) closes a field on each side, the element's side one running on to the element
    if ((c.x < 0.01 || c.x > 0.99) && !closedFromBothSides(d, c))
      out.push(`congruent point ${c.phases.join('+')} ${fmtT(c.T)} K at x=${fmtX(c.x)}, next to a pure element`);
  }
}

function tricriticalPointsCloseFields(d: BinaryDiagram, ends: RegionEnd[], out: string[]): void {
  for (const c of d.tricriticalPoints) {
    const ok = ends.some(
      ({ r, t }) =>
        Math.abs(t.T - c.T) <= T_TOL &&
        sameSet(r.phases.map(baseName), c.phases.map(baseName)) &&
        t.x[1] - t.x[0] <= X_TOL &&
        Math.abs((t.x[0] + t.x[1]) / 2 - c.x) <= X_TOL,
    );
    if (!ok)
      out.push(
        `tricritical point ${c.phases.join('+')} ${fmtT(c.T)} K x=${fmtX(c.x)}: no field of the two states closes there`,
      );
  }
}

function congruentPointsDistinct(d: BinaryDiagram, out: string[]): void {
  for (let i = 0; i < d.congruentPoints.length; i++)
    for (let j = i + 1; j < d.congruentPoints.length; j++) {
      const a = d.congruentPoints[i],
        b = d.congruentPoints[j];
      if (
        Math.abs(a.T - b.T) < 2 &&
        Math.abs(a.x - b.x) < 0.05 &&
        sameSet(a.phases.map(baseName), b.phases.map(baseName))
      )
        out.push(`congruent points ${fmtT(a.T)} K x=${fmtX(a.x)} and ${fmtT(b.T)} K x=${fmtX(b.x)} look like one`);
    }
}

/** Gibbs phase rule: no two two-phase fields overlap at one of the audited temperatures. */
export function checkNoOverlap(d: BinaryDiagram, temps: number[], out: string[]): void {
  for (const Tk of temps) {
    const f = fieldsAt(d, Tk).sort((a, b) => a.x[0] - b.x[0]);
    for (let i = 0; i + 1 < f.length; i++)
      if (f[i + 1].x[0] < f[i].x[1] - X_TOL)
        out.push(
          `${fmtT(Tk)} K: fields ${f[i].phases.join('+')} (${f[i].x.map(fmtX).join('..')}) and ${f[i + 1].phases.join('+')} (${f[i + 1].x.map(fmtX).join('..')}) overlap`,
        );
  }
}
