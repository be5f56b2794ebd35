// What the checks of a diagram's self-audit (worker/mapping/audit.ts) share: the system, the diagram, the names the
// diagram gives the solver's sets, the tolerances, the drawn fields at a temperature, and the failure lists.
import { PointConverter } from '../../system/point-converter.js';
import { orderingModelOf } from '../../system/ordering.js';
import type { CompositionSet } from '../../core/equilibrium.js';
import type { NativeDatabase } from '../../core/native.js';
import { CONTROL_BYTES, JobControl } from '../../protocol.js';
import type { BinaryDiagram } from '../binary-types.js';
import { disorderedLabel, hasOrderedVariants, orderedStateLabel } from '../order-disorder.js';
import { duplicatesOver } from '../../system/duplicate-phases.js';

/** Largest distance in mole fraction between a scan transition and the drawn boundary it is matched to. */
export const X_TOL = 0.004;
/** K: region ends, invariants and pure-element transitions are compared to this. */
export const T_TOL = 0.05;
export const PURE_T_TOL = 0.5;
/** isotherms keep at least this far from any invariant, critical or congruent point and region end (K) */
export const NUDGE = 0.3;
/** the composition range of the scans: the solver's clamp keeps a point this far from the elements */
export const XLO = 1e-6,
  XHI = 1 - 1e-6;

/** The disagreements found, one line of text each, by check. */
export interface AuditFailures {
  topology: string[];
  completeness: string[];
  pureElements: string[];
  fields: string[];
  convergence: string[];
}

export interface AuditContext {
  db: NativeDatabase;
  /** the element of x = 0 and the composition axis' element */
  other: string;
  xc: string;
  components: string[];
  T: [number, number];
  threads: number;
  d: BinaryDiagram;
  /** the phases of every equilibrium (the diagram's selection); undefined: every phase the elements allow */
  phases: string[] | undefined;
  /** the system of the scans */
  sys: { db: NativeDatabase; components: string[]; phases: string[] };
  control: JobControl;
  /** the structure of a set's ordering state */
  structureOf: (p: CompositionSet) => string | undefined;
  /**
   * The label a set gets on the diagram (order-disorder.ts): the disordered state of an ordered phase carries its
   * disordered name, the ordered variants of a four-sublattice phase their structure, a phase duplicating another's
   * state that other's (it is not mapped: duplicate-phases.ts).
   */
  drawnName: (p: CompositionSet) => string;
  failures: AuditFailures;
}

export function auditContext(
  db: NativeDatabase,
  elements: [string, string],
  T: [number, number],
  threads: number,
  d: BinaryDiagram,
  phases?: string[],
): AuditContext {
  const [c1, c2] = elements;
  const elementNames = db.info().elements.map((e) => e.name.toUpperCase());
  const components = elementNames.includes('VA') ? [c1, c2, 'VA'] : [c1, c2];
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
  const allowed = phases?.length ? phases : db.phasesFor([c1, c2]);
  const twinOf = duplicatesOver(db, components, allowed, T);
  const drawnName = (p: CompositionSet) => {
    const o = orderingOf.get(p.name),
      st = o && conv.ordering(p);
    return twinOf.get(p.name) ?? (o && st ? orderedStateLabel(p.name, o.disordered, o.variants, st) : p.name);
  };
  return {
    db,
    other: c1,
    xc: c2,
    components,
    T,
    threads,
    d,
    phases: phases?.length ? phases : undefined,
    sys: { db, components, phases: allowed },
    control: new JobControl(new SharedArrayBuffer(CONTROL_BYTES)),
    structureOf: (p) => conv.ordering(p)?.structure,
    drawnName,
    failures: { topology: [], completeness: [], pureElements: [], fields: [], convergence: [] },
  };
}

export const fmtT = (T: number) => T.toFixed(2);
export const fmtX = (x: number) => x.toFixed(4);

export const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);

/** The first and the last tie-line of every region. */
export function regionEnds(d: BinaryDiagram) {
  return d.regions.flatMap((r) => {
    const tl = r.tielines;
    return tl.length
      ? [
          { r, t: tl[0] },
          { r, t: tl[tl.length - 1] },
        ]
      : [];
  });
}

/** The temperatures of every invariant, critical, congruent and tricritical point, pure transition and region end. */
export function specialTemperatures(d: BinaryDiagram): number[] {
  return [
    ...d.invariants.map((v) => v.T),
    ...d.criticalPoints.map((c) => c.T),
    ...d.congruentPoints.map((c) => c.T),
    ...d.tricriticalPoints.map((c) => c.T),
    ...d.pureTransitions.map((p) => p.T),
    ...regionEnds(d).map((e) => e.t.T),
  ];
}

/** The drawn two-phase fields at T (boundaries interpolated between neighbouring tie-lines). */
export function fieldsAt(d: BinaryDiagram, T: number): { phases: [string, string]; x: [number, number] }[] {
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
export function polylineAt(points: { T: number; x: number }[], T: number): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i],
      b = points[i + 1];
    if ((a.T - T) * (b.T - T) > 0 || a.T === b.T) continue;
    out.push(a.x + ((T - a.T) / (b.T - a.T)) * (b.x - a.x));
  }
  return out;
}
