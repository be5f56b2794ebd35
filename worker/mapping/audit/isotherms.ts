// The completeness check of a diagram's self-audit (worker/mapping/audit.ts, checks (b) and (e)): at every audited
// temperature a dense isothermal composition scan (line scans refined at every transition to 1e-5, the
// line_calculation machinery) must find each drawn boundary, and each transition it finds must lie on a drawn
// boundary (or, for a second-order transition, a drawn order-disorder line) of the same phases, within X_TOL in mole
// fraction; every point of the scans converges or says that no equilibrium exists there (a diagram drawn around
// points the solver gave up on would pass without having been checked).
import { baseName } from '../../../contract/phases.js';
import { equilibrium, saysNoEquilibrium, type EquilibriumResult } from '../../core/equilibrium.js';
import { chunkedScan } from '../../scans/chunked-scan.js';
import { type ScanPath } from '../../scans/scan-path.js';
import { refineTransitions, type RefinedTransition } from '../../scans/transitions.js';
import type { BinaryDiagram } from '../binary-types.js';
import {
  fieldsAt,
  fmtT,
  fmtX,
  NUDGE,
  polylineAt,
  sameSet,
  specialTemperatures,
  X_TOL,
  XHI as xhi,
  XLO as xlo,
  type AuditContext,
} from './context.js';

/** A drawn boundary at an audited temperature: its x, its field's phases, its own phase and the field's other x. */
interface DrawnBoundary {
  x: number;
  phases: [string, string];
  phase: string;
  /** the field's other boundary */ other: number;
}

/** The states before and after each transition of a scan, two per transition in the order of the transitions. */
type ScanEdges = { s: number; r: EquilibriumResult }[];

/**
 * The audited temperatures: nIso evenly spread over the range, each nudged off every special temperature, and
 * 1.5 K above and below each invariant, where narrow fields end.
 */
export function auditedTemperatures(d: BinaryDiagram, T: [number, number], nIso: number): number[] {
  const special = specialTemperatures(d);
  const temps: number[] = [];
  for (let k = 0; k < nIso; k++) {
    let Tk = T[0] + ((T[1] - T[0]) * (k + 0.5)) / nIso;
    for (let tries = 0; tries < 20 && special.some((s) => Math.abs(s - Tk) < NUDGE); tries++) Tk += NUDGE;
    temps.push(Tk);
  }
  for (const v of d.invariants)
    for (const dT of [-1.5, 1.5]) {
      const Tk = v.T + dT;
      if (Tk > T[0] && Tk < T[1] && !special.some((s) => Math.abs(s - Tk) < NUDGE)) temps.push(Tk);
    }
  return temps;
}

/** The scan of one isotherm over nPts points compared with the diagram; returns the transitions compared. */
export function checkIsotherm(c: AuditContext, Tk: number, nPts: number): number {
  const { xc, other, sys, threads, control, structureOf, failures } = c;
  const path: ScanPath = {
    T0: Tk,
    T1: Tk,
    P: 101325,
    X0: { [xc]: xlo },
    X1: { [xc]: xhi },
    full0: { [other]: 1 - xlo, [xc]: xlo },
    full1: { [other]: 1 - xhi, [xc]: xhi },
  };
  const s = Array.from({ length: nPts }, (_, i) => i / (nPts - 1));
  const conds = s.map((v) => ({ T: Tk, P: 101325, X: { [xc]: xlo + (xhi - xlo) * v } }));
  const results = chunkedScan(sys, conds, threads, control);
  const failed = results.flatMap((r, k) => (r.converged || saysNoEquilibrium(r) ? [] : [k]));
  if (failed.length)
    failures.convergence.push(
      `${fmtT(Tk)} K: ${failed.length} of ${nPts} scan points did not converge (x=${fmtX(conds[failed[0]].X[xc])}: ${results[failed[0]].reason})`,
    );
  const edges: ScanEdges = [];
  const transitions = refineTransitions(path, s, results, { sys, threads, control, structureOf }, edges);
  const drawn: DrawnBoundary[] = fieldsAt(c.d, Tk).flatMap((f) => [
    { x: f.x[0], phases: f.phases, phase: f.phases[0], other: f.x[1] },
    { x: f.x[1], phases: f.phases, phase: f.phases[1], other: f.x[0] },
  ]);
  const compared = compareTransitions(c, Tk, transitions, edges, drawn);
  compareDrawn(c, Tk, transitions, drawn);
  return compared;
}

/** Each refined transition of the scan on a drawn boundary of its phases (or a drawn second-order line). */
function compareTransitions(
  c: AuditContext,
  Tk: number,
  transitions: RefinedTransition[],
  edges: ScanEdges,
  drawn: DrawnBoundary[],
): number {
  const { xc, drawnName, failures } = c;
  const od = c.d.orderDisorder.secondOrderLines.flatMap((l) => polylineAt(l.points, Tk).map((x) => ({ x, line: l })));
  // names on each side of a transition, as the diagram labels them
  // (the phase that appears at a transition is in the state just after it in any amount: the refined
  // bracket ends within 1e-5 of the boundary, and its amount there can be below 1e-9, Cr-Ni at 1256.25 K)
  const sideNames = (i: number, side: 'before' | 'after', minNP = 1e-9) =>
    edges[2 * i + (side === 'before' ? 0 : 1)].r.phases.filter((p) => p.NP > minNP).map(drawnName);
  let compared = 0;
  for (const [i, t] of transitions.entries()) {
    if (!t.refined) continue;
    compared++;
    const x = t.x[xc];
    if (x <= xlo + X_TOL || x >= xhi - X_TOL) continue;
    if (t.kind === 'order_disorder' && !fieldToField(c, edges, i)) {
      if (!confirmedOrdering(c, Tk, x)) continue;
      if (!od.some((l) => Math.abs(l.x - x) <= X_TOL))
        failures.completeness.push(
          `${fmtT(Tk)} K: second-order transition ${(t.ordering_changes ?? []).map((ch) => `${ch.phase} ${ch.before}->${ch.after}`).join(', ')} at x=${fmtX(x)} is not on a drawn order-disorder line`,
        );
      continue;
    }
    // the same sets under the diagram's names on both sides (to 1e-4 in x): a phase duplicating another's state
    // named the one way and the other by the solver (duplicate-phases.ts), no boundary
    const drawnSets = (k: number) =>
      edges[2 * i + k].r.phases.filter((p) => p.NP > 1e-9).map((p) => `${drawnName(p)}@${fmtX(p.x[xc] ?? 0)}`);
    if (drawnSets(0).sort().join() === drawnSets(1).sort().join()) continue;
    const names = new Set([...sideNames(i, 'before', 0), ...sideNames(i, 'after', 0)]);
    const hit = drawn.some((b) => Math.abs(b.x - x) <= X_TOL && b.phases.every((p) => names.has(baseName(p))));
    if (
      !hit &&
      !splitAtOneComposition(c, edges[2 * i].r) &&
      !splitAtOneComposition(c, edges[2 * i + 1].r) &&
      !twinSwitch(c, Tk, x, edges[2 * i].r, edges[2 * i + 1].r)
    ) {
      const near = drawn.filter((b) => Math.abs(b.x - x) < 0.05).map((b) => `${b.phases.join('+')}@${fmtX(b.x)}`);
      failures.completeness.push(
        `${fmtT(Tk)} K: scan transition ${sideNames(i, 'before').join('+') || '-'} -> ${sideNames(i, 'after').join('+') || '-'} at x=${fmtX(x)} is on no drawn boundary${near.length ? ` (nearest: ${near.join(', ')})` : ''}`,
      );
    }
  }
  return compared;
}

/**
 * A set changing its ordering between two two-phase states whose compositions differ is no second-order line (at
 * fixed T a binary two-phase field has fixed compositions): the sets jump across a stoichiometric phase, a field
 * boundary.
 */
function fieldToField(c: AuditContext, edges: ScanEdges, i: number): boolean {
  const setXs = (side: 'before' | 'after') =>
    edges[2 * i + (side === 'before' ? 0 : 1)].r.phases
      .filter((p) => p.NP > 1e-9)
      .map((p) => p.x[c.xc] ?? 0)
      .sort((a, b) => a - b);
  const xb = setXs('before'),
    xa = setXs('after');
  return xb.length >= 2 && xa.length === xb.length && xb.some((v, k) => Math.abs(v - xa[k]) > X_TOL);
}

/** Each drawn boundary found by the scan, by a dense local scan or by the tie-line just inside its field. */
function compareDrawn(c: AuditContext, Tk: number, transitions: RefinedTransition[], drawn: DrawnBoundary[]): void {
  for (const b of drawn) {
    if (b.x <= xlo + X_TOL || b.x >= xhi - X_TOL) continue;
    // a field or single-phase range narrower than the scan step is looked for again by a dense local scan
    const hit =
      transitions.some((t) => Math.abs(t.x[c.xc] - b.x) <= X_TOL) ||
      localScanFinds(c, Tk, b.x) ||
      tieLineConfirms(c, Tk, b);
    if (!hit)
      c.failures.completeness.push(
        `${fmtT(Tk)} K: drawn boundary of ${b.phases.join('+')} (${b.phase} side) at x=${fmtX(b.x)} is not found by the scan`,
      );
  }
}

/** The structures of the sets of the cold equilibrium at (Tk, x), or null where it does not converge. */
function structuresAt(c: AuditContext, Tk: number, x: number): string | null {
  const r = equilibrium({
    database: c.db,
    components: c.components,
    phases: c.phases,
    conditions: { T: Tk, X: { [c.xc]: Math.min(xhi, Math.max(xlo, x)) } },
  });
  return r.converged
    ? r.phases
        .map((p) => `${p.name}:${c.structureOf(p) ?? ''}`)
        .sort()
        .join('+')
    : null;
}

/**
 * A second-order transition of a scan counts when cold point equilibria on either side (X_TOL / 2 away) differ in
 * the structures of the phase's sets; a scan point warm-started from an ordered neighbour can keep a slightly
 * unequal constitution that a cold start does not.
 */
function confirmedOrdering(c: AuditContext, Tk: number, x: number): boolean {
  const a = structuresAt(c, Tk, x - X_TOL / 2),
    b = structuresAt(c, Tk, x + X_TOL / 2);
  return a !== null && b !== null && a !== b;
}

/** A dense scan of 41 points over x +- 0.01 finds a transition within X_TOL of x. */
function localScanFinds(c: AuditContext, Tk: number, x: number): boolean {
  const { xc, other, sys, threads, control } = c;
  const a = Math.max(xlo, x - 0.01),
    b = Math.min(xhi, x + 0.01),
    n = 41;
  const path: ScanPath = {
    T0: Tk,
    T1: Tk,
    P: 101325,
    X0: { [xc]: a },
    X1: { [xc]: b },
    full0: { [other]: 1 - a, [xc]: a },
    full1: { [other]: 1 - b, [xc]: b },
  };
  const s = Array.from({ length: n }, (_, i) => i / (n - 1));
  const results = chunkedScan(
    sys,
    s.map((v) => ({ T: Tk, P: 101325, X: { [xc]: a + (b - a) * v } })),
    threads,
    control,
  );
  return refineTransitions(path, s, results, { sys, threads, control }).some((t) => Math.abs(t.x[xc] - x) <= X_TOL);
}

/**
 * A single-phase range narrower than the local scan's step between two fields of one phase pair (a line compound
 * with the same neighbour on both sides: zeta between two epsilon + zeta fields of Al-Cu, Laves C15 between two
 * bcc + C15 fields of Cr-Nb at 335 K) changes no phase set along a scan, so no scan finds its boundaries. The
 * equilibrium just inside the drawn field tells the boundary instead: its tie-line does not depend on the overall
 * composition (Gibbs phase rule, F = 1 at fixed T and P), and a field traced on a metastable branch or drawn off a
 * curved boundary gives other phases or compositions.
 */
function tieLineConfirms(c: AuditContext, Tk: number, b: DrawnBoundary): boolean {
  const { xc, drawnName } = c;
  const inward = Math.sign(b.other - b.x);
  const X = Math.min(xhi, Math.max(xlo, b.x + inward * Math.min(X_TOL / 2, Math.abs(b.other - b.x) / 2)));
  const r = equilibrium({
    database: c.db,
    components: c.components,
    phases: c.phases,
    conditions: { T: Tk, X: { [xc]: X } },
  });
  if (!r.converged) return false;
  const stable = r.phases.filter((p) => p.NP > 1e-9);
  return (
    stable.length === 2 &&
    sameSet(stable.map(drawnName), b.phases.map(baseName)) &&
    stable.some((p) => drawnName(p) === baseName(b.phase) && Math.abs((p.x[xc] ?? 0) - b.x) <= X_TOL)
  );
}

/**
 * Two sets at one composition are one state, not a field (a binary field at fixed T and P is bounded by two
 * compositions: Gibbs phase rule): two phases whose Gibbs energies coincide there, e.g. fcc and the disordered state
 * of an L1_2 phase without a disordered part (issue43.tdb Al-Cr), split in any ratio.
 */
function splitAtOneComposition(c: AuditContext, r: EquilibriumResult): boolean {
  const st = r.phases.filter((p) => p.NP > 1e-9);
  return st.length === 2 && Math.abs((st[0].x[c.xc] ?? 0) - (st[1].x[c.xc] ?? 0)) < 1e-6;
}

/**
 * A switch from one such phase to the other with no field between them is no transition: the two have one Gibbs
 * energy not only there but 0.01 on either side (two phases that cross there differ by their slopes' difference
 * times 0.01, many J/mol).
 */
function twinSwitch(c: AuditContext, Tk: number, x: number, a: EquilibriumResult, b: EquilibriumResult): boolean {
  const sa = a.phases.filter((p) => p.NP > 1e-9),
    sb = b.phases.filter((p) => p.NP > 1e-9);
  if (sa.length !== 1 || sb.length !== 1 || sa[0].name === sb[0].name) return false;
  const gm = (name: string, X: number) => {
    const r = equilibrium({
      database: c.db,
      components: c.components,
      phases: [name],
      conditions: { T: Tk, X: { [c.xc]: Math.min(xhi, Math.max(xlo, X)) } },
    });
    return r.converged ? r.GM : NaN;
  };
  return [x - 0.01, x + 0.01].every((X) => Math.abs(gm(sa[0].name, X) - gm(sb[0].name, X)) < 1e-3);
}
