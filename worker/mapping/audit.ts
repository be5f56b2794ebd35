// Self-audit of a mapped binary phase diagram against calculations that share nothing with the mapper's
// tracing: dense isothermal composition scans (line scans refined at every transition to 1e-5, the
// line_calculation machinery), temperature scans next to each pure element, and point equilibria inside
// the labelled fields. A diagram passes when
//  (a) topology: every invariant ends its three two-phase fields at its temperature and compositions,
//      every critical point ends a miscibility gap and every congruent point a field whose two
//      boundaries meet there, nothing is reported twice, and no two two-phase fields overlap at one T
//      (in a binary at fixed P a two-phase field is a band of tie-lines: Gibbs phase rule, F = 1);
//  (b) completeness: at every audited temperature each transition the scan finds lies on a drawn
//      boundary (or, for a second-order transition, a drawn order-disorder line) of the same phases and
//      each drawn boundary is found by the scan, within X_TOL in mole fraction;
//  (c) the transitions of each pure element (melting, allotropic) are on the diagram's edges;
//  (d) point equilibria inside each two-phase field give its two phases, and at each single-phase label
//      its phase;
//  (e) convergence: every point of the isothermal scans converges or says that no equilibrium exists there
//      (a diagram drawn around points the solver gave up on would pass (b) without having been checked).
// Every disagreement is one line of text; nothing is filtered here (the caller decides what is known).
import { baseName } from '../../contract/phases.js';
import { type ScanPath } from '../scans/scan-path.js';
import { refineTransitions, type RefinedTransition } from '../scans/transitions.js';
import { chunkedScan } from '../scans/chunked-scan.js';
import { PointConverter } from '../system/point-converter.js';
import { equilibrium, saysNoEquilibrium, type CompositionSet, type EquilibriumResult } from '../core/equilibrium.js';
import type { NativeDatabase } from '../core/native.js';

import { CONTROL_BYTES, JobControl } from '../protocol.js';
import { mapBinary, type BinaryDiagram } from './binary.js';
import { disorderedLabel, hasOrderedVariants, orderedStateLabel } from './order-disorder.js';
import { orderingModelOf } from '../system/ordering.js';

/** Largest distance in mole fraction between a scan transition and the drawn boundary it is matched to. */
export const X_TOL = 0.004;
/** K: region ends, invariants and pure-element transitions are compared to this. */
const T_TOL = 0.05;
const PURE_T_TOL = 0.5;
/** isotherms keep at least this far from any invariant, critical or congruent point and region end (K) */
const NUDGE = 0.3;

export interface AuditOptions {
  database: NativeDatabase;
  /** the two elements; the second is the composition axis */
  elements: [string, string];
  T?: [number, number];
  threads?: number;
  /** number of audited isotherms (default 24) */
  isotherms?: number;
  /** scan points per isotherm (default 121) */
  scanPoints?: number;
  /** the diagram to audit; mapped here with the defaults when absent */
  diagram?: BinaryDiagram;
}

export interface AuditReport {
  regions: number;
  invariants: number;
  isotherms: number;
  /** scan transitions compared with the drawn boundaries */
  transitionsCompared: number;
  pointsChecked: number;
  failures: {
    topology: string[];
    completeness: string[];
    pureElements: string[];
    fields: string[];
    convergence: string[];
  };
  seconds: number;
  mapSeconds: number;
}

interface DrawnBoundary {
  x: number;
  phases: [string, string];
  phase: string;
  /** the field's other boundary */ other: number;
}

const fmtT = (T: number) => T.toFixed(2);
const fmtX = (x: number) => x.toFixed(4);

/** The drawn two-phase fields at T (boundaries interpolated between neighbouring tie-lines). */
function fieldsAt(d: BinaryDiagram, T: number): { phases: [string, string]; x: [number, number] }[] {
  const out: { phases: [string, string]; x: [number, number] }[] = [];
  for (const r of d.regions) {
    const tl = r.tielines;
    if (!tl.length || T < tl[0].T || T > tl[tl.length - 1].T) continue;
    let k = 0;
    while (k < tl.length - 1 && tl[k + 1].T < T) k++;
    const a = tl[k],
      b = tl[Math.min(k + 1, tl.length - 1)];
    const w = b.T > a.T ? (T - a.T) / (b.T - a.T) : 0;
    out.push({ phases: r.phases, x: [a.x[0] + w * (b.x[0] - a.x[0]), a.x[1] + w * (b.x[1] - a.x[1])] });
  }
  return out;
}

/** x of a polyline {T, x} at T: every crossing. */
function polylineAt(points: { T: number; x: number }[], T: number): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i],
      b = points[i + 1];
    if ((a.T - T) * (b.T - T) > 0 || a.T === b.T) continue;
    out.push(a.x + ((T - a.T) / (b.T - a.T)) * (b.x - a.x));
  }
  return out;
}

export function auditBinary(o: AuditOptions): AuditReport {
  const t0 = performance.now();
  const db = o.database;
  const [c1, c2] = o.elements;
  const xc = c2;
  const T: [number, number] = o.T ?? [300, 2000];
  const threads = Math.max(1, o.threads ?? 1);
  const elementNames = db.info().elements.map((e) => e.name.toUpperCase());
  const components = elementNames.includes('VA') ? [c1, c2, 'VA'] : [c1, c2];
  const d = o.diagram ?? mapBinary({ database: db, components: [c1, c2], xComponent: xc, T, threads });
  const mapSeconds = o.diagram ? 0 : (performance.now() - t0) / 1000;
  const failures: AuditReport['failures'] = {
    topology: [],
    completeness: [],
    pureElements: [],
    fields: [],
    convergence: [],
  };
  const conv = new PointConverter(db, components);
  const orderingOf = new Map(
    db.info().phases.map((p) => {
      const m = orderingModelOf(p);
      return [
        p.name,
        m ? { disordered: disorderedLabel(p.name, p.disorderedPart, m), variants: hasOrderedVariants(m) } : null,
      ] as const;
    }),
  );
  const structureOf = (p: CompositionSet) => conv.ordering(p)?.structure;
  // the label a set gets on the diagram (order-disorder.ts): the disordered state of an ordered phase carries
  // its disordered name, the ordered variants of a four-sublattice phase their structure
  const drawnName = (p: CompositionSet) => {
    const o = orderingOf.get(p.name),
      st = o && conv.ordering(p);
    return o && st ? orderedStateLabel(p.name, o.disordered, o.variants, st) : p.name;
  };
  const sameSet = (a: string[], b: string[]) =>
    a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);
  const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
  const sys = { db, components, phases: db.phasesFor([c1, c2]) };

  // ---- (a) topology ----------------------------------------------------------------------------------
  const regionEnds = d.regions.flatMap((r) => {
    const tl = r.tielines;
    return tl.length
      ? [
          { r, t: tl[0] },
          { r, t: tl[tl.length - 1] },
        ]
      : [];
  });
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
      const ok = regionEnds.some(
        ({ r, t }) =>
          Math.abs(t.T - inv.T) <= T_TOL &&
          sameSet(r.phases.map(baseName), want) &&
          Math.abs(t.x[0] - ph[i].x) <= X_TOL &&
          Math.abs(t.x[1] - ph[j].x) <= X_TOL,
      );
      if (!ok)
        failures.topology.push(
          `${inv.kind} ${fmtT(inv.T)} K (${ph.map((p) => `${p.name}@${fmtX(p.x)}`).join(', ')}): no ${want.join('+')} field ends there`,
        );
    }
  }
  for (let i = 0; i < d.invariants.length; i++)
    for (let j = i + 1; j < d.invariants.length; j++) {
      const a = d.invariants[i],
        b = d.invariants[j];
      const shared = a.phases.filter((p) =>
        b.phases.some((q) => baseName(q.name) === baseName(p.name) && Math.abs(q.x - p.x) < 0.02),
      ).length;
      // two invariants bounding a narrow field share two phases by necessity; one found twice shares all three
      if (Math.abs(a.T - b.T) < 2 && shared >= 3)
        failures.topology.push(
          `invariants ${a.kind} ${fmtT(a.T)} K and ${b.kind} ${fmtT(b.T)} K look like one (${shared} phases at the same compositions)`,
        );
    }
  for (const c of d.criticalPoints) {
    const ok = regionEnds.some(
      ({ r, t }) =>
        Math.abs(t.T - c.T) <= T_TOL &&
        baseName(r.phases[0]) === baseName(r.phases[1]) &&
        t.x[1] - t.x[0] <= 0.02 &&
        Math.abs((t.x[0] + t.x[1]) / 2 - c.x) <= 0.02,
    );
    if (!ok)
      failures.topology.push(
        `critical point ${c.phase} ${fmtT(c.T)} K x=${fmtX(c.x)}: no miscibility gap closes there`,
      );
  }
  const closedFromBothSides = (c: BinaryDiagram['congruentPoints'][number]) => {
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
  };
  for (const c of d.congruentPoints) {
    const ok = regionEnds.some(
      ({ r, t }) =>
        Math.abs(t.T - c.T) <= T_TOL &&
        sameSet(r.phases.map(baseName), c.phases.map(baseName)) &&
        t.x[1] - t.x[0] <= X_TOL &&
        Math.abs(t.x[0] - c.x) <= X_TOL,
    );
    if (!ok)
      failures.topology.push(
        `congruent point ${c.phases.join('+')} ${fmtT(c.T)} K x=${fmtX(c.x)}: no field whose boundaries meet there`,
      );
    // next to a pure element a lens whose tie-line got short is easily taken for a congruent point; a real
    // extremum there (Al-Ni of alni_tough_chempot: the fcc liquidus peaks 4 K above the melting point of Ni
    // at x 0.991) closes a field on each side, the element's side one running on to the element
    if ((c.x < 0.01 || c.x > 0.99) && !closedFromBothSides(c))
      failures.topology.push(
        `congruent point ${c.phases.join('+')} ${fmtT(c.T)} K at x=${fmtX(c.x)}, next to a pure element`,
      );
  }
  for (const c of d.tricriticalPoints) {
    const ok = regionEnds.some(
      ({ r, t }) =>
        Math.abs(t.T - c.T) <= T_TOL &&
        sameSet(r.phases.map(baseName), c.phases.map(baseName)) &&
        t.x[1] - t.x[0] <= X_TOL &&
        Math.abs((t.x[0] + t.x[1]) / 2 - c.x) <= X_TOL,
    );
    if (!ok)
      failures.topology.push(
        `tricritical point ${c.phases.join('+')} ${fmtT(c.T)} K x=${fmtX(c.x)}: no field of the two states closes there`,
      );
  }
  for (let i = 0; i < d.congruentPoints.length; i++)
    for (let j = i + 1; j < d.congruentPoints.length; j++) {
      const a = d.congruentPoints[i],
        b = d.congruentPoints[j];
      if (
        Math.abs(a.T - b.T) < 2 &&
        Math.abs(a.x - b.x) < 0.05 &&
        sameSet(a.phases.map(baseName), b.phases.map(baseName))
      )
        failures.topology.push(
          `congruent points ${fmtT(a.T)} K x=${fmtX(a.x)} and ${fmtT(b.T)} K x=${fmtX(b.x)} look like one`,
        );
    }

  // ---- audited temperatures: evenly spread, nudged off every special temperature ------------------------
  const special = [
    ...d.invariants.map((v) => v.T),
    ...d.criticalPoints.map((c) => c.T),
    ...d.congruentPoints.map((c) => c.T),
    ...d.tricriticalPoints.map((c) => c.T),
    ...d.pureTransitions.map((p) => p.T),
    ...regionEnds.map((e) => e.t.T),
  ];
  const nIso = o.isotherms ?? 24;
  const temps: number[] = [];
  for (let k = 0; k < nIso; k++) {
    let Tk = T[0] + ((T[1] - T[0]) * (k + 0.5)) / nIso;
    for (let tries = 0; tries < 20 && special.some((s) => Math.abs(s - Tk) < NUDGE); tries++) Tk += NUDGE;
    temps.push(Tk);
  }
  // and just above and below each invariant, where narrow fields end
  for (const v of d.invariants)
    for (const dT of [-1.5, 1.5]) {
      const Tk = v.T + dT;
      if (Tk > T[0] && Tk < T[1] && !special.some((s) => Math.abs(s - Tk) < NUDGE)) temps.push(Tk);
    }

  // A second-order transition of a scan counts when cold point equilibria on either side (X_TOL / 2 away) differ
  // in the structures of the phase's sets; a scan point warm-started from an ordered neighbour can keep a slightly
  // unequal constitution that a cold start does not.
  const structuresAt = (Tk: number, x: number) => {
    const r = equilibrium({
      database: db,
      components,
      conditions: { T: Tk, X: { [xc]: Math.min(xhi, Math.max(xlo, x)) } },
    });
    return r.converged
      ? r.phases
          .map((p) => `${p.name}:${structureOf(p) ?? ''}`)
          .sort()
          .join('+')
      : null;
  };
  const confirmedOrdering = (Tk: number, x: number) => {
    const a = structuresAt(Tk, x - X_TOL / 2),
      b = structuresAt(Tk, x + X_TOL / 2);
    return a !== null && b !== null && a !== b;
  };

  const localScanFinds = (Tk: number, x: number) => {
    const a = Math.max(xlo, x - 0.01),
      b = Math.min(xhi, x + 0.01),
      n = 41;
    const path: ScanPath = {
      T0: Tk,
      T1: Tk,
      P: 101325,
      X0: { [xc]: a },
      X1: { [xc]: b },
      full0: { [c1]: 1 - a, [xc]: a },
      full1: { [c1]: 1 - b, [xc]: b },
    };
    const s = Array.from({ length: n }, (_, i) => i / (n - 1));
    const results = chunkedScan(
      sys,
      s.map((v) => ({ T: Tk, P: 101325, X: { [xc]: a + (b - a) * v } })),
      threads,
      control,
    );
    return refineTransitions(path, s, results, { sys, threads, control }).some((t) => Math.abs(t.x[xc] - x) <= X_TOL);
  };

  // A single-phase range narrower than the local scan's step between two fields of one phase pair (a line
  // compound with the same neighbour on both sides: zeta between two epsilon + zeta fields of Al-Cu, Laves
  // C15 between two bcc + C15 fields of Cr-Nb at 335 K) changes no phase set along a scan, so no scan
  // finds its boundaries. The equilibrium just inside the drawn field tells the boundary instead: its
  // tie-line does not depend on the overall composition (Gibbs phase rule, F = 1 at fixed T and P), and a
  // field traced on a metastable branch or drawn off a curved boundary gives other phases or compositions.
  const tieLineConfirms = (Tk: number, b: DrawnBoundary) => {
    const inward = Math.sign(b.other - b.x);
    const X = Math.min(xhi, Math.max(xlo, b.x + inward * Math.min(X_TOL / 2, Math.abs(b.other - b.x) / 2)));
    const r = equilibrium({ database: db, components, conditions: { T: Tk, X: { [xc]: X } } });
    if (!r.converged) return false;
    const stable = r.phases.filter((p) => p.NP > 1e-9);
    return (
      stable.length === 2 &&
      sameSet(stable.map(drawnName), b.phases.map(baseName)) &&
      stable.some((p) => drawnName(p) === baseName(b.phase) && Math.abs((p.x[xc] ?? 0) - b.x) <= X_TOL)
    );
  };

  // ---- (b) completeness against isothermal scans ---------------------------------------------------------
  const nPts = o.scanPoints ?? 121;
  const xlo = 1e-6,
    xhi = 1 - 1e-6;
  let compared = 0;
  const other = c1;
  for (const Tk of temps) {
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
    const edges: { s: number; r: EquilibriumResult }[] = [];
    const transitions = refineTransitions(path, s, results, { sys, threads, control, structureOf }, edges);
    const xOf = (t: RefinedTransition) => t.x[xc];
    const drawn: DrawnBoundary[] = fieldsAt(d, Tk).flatMap((f) => [
      { x: f.x[0], phases: f.phases, phase: f.phases[0], other: f.x[1] },
      { x: f.x[1], phases: f.phases, phase: f.phases[1], other: f.x[0] },
    ]);
    const od = d.orderDisorder.secondOrderLines.flatMap((l) => polylineAt(l.points, Tk).map((x) => ({ x, line: l })));
    // two sets at one composition are one state, not a field (a binary field at fixed T and P is bounded by two
    // compositions: Gibbs phase rule): two phases whose Gibbs energies coincide there, e.g. fcc and the
    // disordered state of an L1_2 phase without a disordered part (issue43.tdb Al-Cr), split in any ratio
    const splitAtOneComposition = (r: EquilibriumResult) => {
      const st = r.phases.filter((p) => p.NP > 1e-9);
      return st.length === 2 && Math.abs((st[0].x[xc] ?? 0) - (st[1].x[xc] ?? 0)) < 1e-6;
    };
    // and a switch from one such phase to the other with no field between them is no transition: the two have
    // one Gibbs energy not only there but 0.01 on either side (two phases that cross there differ by their
    // slopes' difference times 0.01, many J/mol)
    const twinSwitch = (Tk: number, x: number, a: EquilibriumResult, b: EquilibriumResult) => {
      const sa = a.phases.filter((p) => p.NP > 1e-9),
        sb = b.phases.filter((p) => p.NP > 1e-9);
      if (sa.length !== 1 || sb.length !== 1 || sa[0].name === sb[0].name) return false;
      const gm = (name: string, X: number) => {
        const r = equilibrium({
          database: db,
          components,
          phases: [name],
          conditions: { T: Tk, X: { [xc]: Math.min(xhi, Math.max(xlo, X)) } },
        });
        return r.converged ? r.GM : NaN;
      };
      return [x - 0.01, x + 0.01].every((X) => Math.abs(gm(sa[0].name, X) - gm(sb[0].name, X)) < 1e-3);
    };
    // names on each side of a transition, as the diagram labels them
    // (edges holds the states before and after each transition, in the order of `transitions`)
    // (the phase that appears at a transition is in the state just after it in any amount: the refined
    // bracket ends within 1e-5 of the boundary, and its amount there can be below 1e-9, Cr-Ni at 1256.25 K)
    const sideNames = (i: number, side: 'before' | 'after', minNP = 1e-9) =>
      edges[2 * i + (side === 'before' ? 0 : 1)].r.phases.filter((p) => p.NP > minNP).map(drawnName);
    for (const [i, t] of transitions.entries()) {
      if (!t.refined) continue;
      compared++;
      const x = xOf(t);
      if (x <= xlo + X_TOL || x >= xhi - X_TOL) continue;
      // a set changing its ordering between two two-phase states whose compositions differ is no second-order
      // line (at fixed T a binary two-phase field has fixed compositions): the sets jump across a stoichiometric
      // phase, a field boundary
      const setXs = (side: 'before' | 'after') =>
        edges[2 * i + (side === 'before' ? 0 : 1)].r.phases
          .filter((p) => p.NP > 1e-9)
          .map((p) => p.x[xc] ?? 0)
          .sort((a, b) => a - b);
      const xb = setXs('before'),
        xa = setXs('after');
      const fieldToField = xb.length >= 2 && xa.length === xb.length && xb.some((v, k) => Math.abs(v - xa[k]) > X_TOL);
      if (t.kind === 'order_disorder' && !fieldToField) {
        if (!confirmedOrdering(Tk, x)) continue;
        if (!od.some((l) => Math.abs(l.x - x) <= X_TOL))
          failures.completeness.push(
            `${fmtT(Tk)} K: second-order transition ${(t.ordering_changes ?? []).map((c) => `${c.phase} ${c.before}->${c.after}`).join(', ')} at x=${fmtX(x)} is not on a drawn order-disorder line`,
          );
        continue;
      }
      const names = new Set([...sideNames(i, 'before', 0), ...sideNames(i, 'after', 0)]);
      const hit = drawn.some((b) => Math.abs(b.x - x) <= X_TOL && b.phases.every((p) => names.has(baseName(p))));
      if (
        !hit &&
        !splitAtOneComposition(edges[2 * i].r) &&
        !splitAtOneComposition(edges[2 * i + 1].r) &&
        !twinSwitch(Tk, x, edges[2 * i].r, edges[2 * i + 1].r)
      ) {
        const near = drawn.filter((b) => Math.abs(b.x - x) < 0.05).map((b) => `${b.phases.join('+')}@${fmtX(b.x)}`);
        failures.completeness.push(
          `${fmtT(Tk)} K: scan transition ${sideNames(i, 'before').join('+') || '-'} -> ${sideNames(i, 'after').join('+') || '-'} at x=${fmtX(x)} is on no drawn boundary${near.length ? ` (nearest: ${near.join(', ')})` : ''}`,
        );
      }
    }
    for (const b of drawn) {
      if (b.x <= xlo + X_TOL || b.x >= xhi - X_TOL) continue;
      // a field or single-phase range narrower than the scan step is looked for again by a dense local scan
      const hit =
        transitions.some((t) => Math.abs(xOf(t) - b.x) <= X_TOL) || localScanFinds(Tk, b.x) || tieLineConfirms(Tk, b);
      if (!hit)
        failures.completeness.push(
          `${fmtT(Tk)} K: drawn boundary of ${b.phases.join('+')} (${b.phase} side) at x=${fmtX(b.x)} is not found by the scan`,
        );
    }
  }

  // ---- (c) pure-element transitions -------------------------------------------------------------------
  // A transition of the element itself changes the phase that holds it (the one of largest amount) 100 times
  // closer to the edge too, within PURE_T_TOL; a solvus of a phase dissolving ~1e-7 of the other element
  // crossing the scan's composition does not (pure Mg of Cu-Mg: hcp + a trace of liquid at x(Mg) 0.991 from
  // 912.7 K, while Mg melts at 922.2 K).
  const elementChangesPhase = (edge: number, Tt: number) => {
    const x = edge === 0 ? 1e-9 : 1 - 1e-9;
    const main = (Tk: number) => {
      const r = equilibrium({ database: db, components, conditions: { T: Tk, X: { [xc]: x } } });
      if (!r.converged || !r.phases.length) return null;
      return drawnName(r.phases.reduce((a, p) => (p.NP > a.NP ? p : a)));
    };
    const below = main(Tt - PURE_T_TOL),
      above = main(Tt + PURE_T_TOL);
    return below === null || above === null || below !== above;
  };
  for (const [el, x] of [
    [c1, 1e-7],
    [c2, 1 - 1e-7],
  ] as const) {
    const n = 160;
    const path: ScanPath = {
      T0: T[0],
      T1: T[1],
      P: 101325,
      X0: { [xc]: x },
      X1: { [xc]: x },
      full0: { [other]: 1 - x, [xc]: x },
      full1: { [other]: 1 - x, [xc]: x },
    };
    const s = Array.from({ length: n }, (_, i) => i / (n - 1));
    const results = chunkedScan(
      sys,
      s.map((v) => ({ T: T[0] + (T[1] - T[0]) * v, P: 101325, X: { [xc]: x } })),
      threads,
      control,
    );
    const edges: { s: number; r: EquilibriumResult }[] = [];
    const trs = refineTransitions(path, s, results, { sys, threads, control, structureOf }, edges);
    const edge = x < 0.5 ? 0 : 1;
    // a pure element's first-order transition passes through a two-phase field ~1e-7 wide whose phases
    // both lie at the edge; a solvus crossing x = 1e-7 brings in a phase far from it and is not one
    // (every stable set counts, however small: at a solvus crossing the other phase's amount goes to 0)
    const atEdge = (r: EquilibriumResult) => r.phases.every((p) => Math.abs((p.x[xc] ?? 0) - edge) < 0.01);
    const temps2: number[] = [];
    trs.forEach((t, i) => {
      if (t.kind === 'order_disorder' || !atEdge(edges[2 * i].r) || !atEdge(edges[2 * i + 1].r)) return;
      if (!elementChangesPhase(edge, t.T)) return;
      if (!temps2.some((v) => Math.abs(v - t.T) < 1)) temps2.push(t.T);
    });
    for (const Tt of temps2) {
      const drawnHere =
        d.pureTransitions.some((p) => p.x === edge && Math.abs(p.T - Tt) <= PURE_T_TOL) ||
        d.regions.some((r) =>
          r.tielines.some(
            (t) =>
              Math.abs(t.T - Tt) <= PURE_T_TOL &&
              Math.abs(t.x[edge] - edge) < 0.002 &&
              Math.abs(t.x[1 - edge] - edge) < 0.01,
          ),
        );
      if (!drawnHere)
        failures.pureElements.push(`pure ${el}: transition at ${fmtT(Tt)} K is not on the diagram's edge`);
    }
  }

  // ---- (d) point equilibria inside the labelled fields ------------------------------------------------------
  let points = 0;
  for (const r of d.regions) {
    const tl = r.tielines.filter((t) => t.x[1] - t.x[0] > 4 * X_TOL);
    if (tl.length < 3) continue;
    for (const f of [0.25, 0.5, 0.75]) {
      const t = tl[Math.floor(f * (tl.length - 1))];
      if (special.some((v) => Math.abs(v - t.T) < NUDGE)) continue;
      const X = (t.x[0] + t.x[1]) / 2;
      const res = equilibrium({ database: db, components, conditions: { T: t.T, X: { [xc]: X } } });
      if (!res.converged) continue;
      points++;
      const got = res.phases.filter((p) => p.NP > 1e-9).map(drawnName);
      if (!sameSet(got, r.phases.map(baseName)))
        failures.fields.push(
          `${r.phases.join('+')} at ${fmtT(t.T)} K x=${fmtX(X)}: the equilibrium is ${got.join('+')}`,
        );
    }
  }
  for (const l of d.singlePhaseLabels) {
    // a label on the diagram's edge stands for the pure element, where the condition clamp decides the answer
    if (special.some((v) => Math.abs(v - l.T) < NUDGE) || l.x < 2e-3 || l.x > 1 - 2e-3) continue;
    const res = equilibrium({
      database: db,
      components,
      conditions: { T: l.T, X: { [xc]: Math.min(xhi, Math.max(xlo, l.x)) } },
    });
    if (!res.converged) continue;
    points++;
    const got = res.phases.filter((p) => p.NP > 1e-9).map(drawnName);
    if (!sameSet(got, [baseName(l.label)]))
      failures.fields.push(`label ${l.label} at ${fmtT(l.T)} K x=${fmtX(l.x)}: the equilibrium is ${got.join('+')}`);
  }

  // ---- Gibbs phase rule: no two two-phase fields overlap at one temperature --------------------------
  for (const Tk of temps) {
    const f = fieldsAt(d, Tk).sort((a, b) => a.x[0] - b.x[0]);
    for (let i = 0; i + 1 < f.length; i++)
      if (f[i + 1].x[0] < f[i].x[1] - X_TOL)
        failures.topology.push(
          `${fmtT(Tk)} K: fields ${f[i].phases.join('+')} (${f[i].x.map(fmtX).join('..')}) and ${f[i + 1].phases.join('+')} (${f[i + 1].x.map(fmtX).join('..')}) overlap`,
        );
  }

  return {
    regions: d.regions.length,
    invariants: d.invariants.length,
    isotherms: temps.length,
    transitionsCompared: compared,
    pointsChecked: points,
    failures,
    seconds: (performance.now() - t0) / 1000,
    mapSeconds,
  };
}
