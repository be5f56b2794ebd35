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
// Each check is a module of audit/: topology.ts (a), isotherms.ts (b, e), pure-elements.ts (c), fields.ts (d); what
// they share (the system, the drawn names, the tolerances) is audit/context.ts.
import type { NativeDatabase } from '../core/native.js';
import { mapBinary } from './binary.js';
import type { BinaryDiagram } from './binary-types.js';
import { auditContext, type AuditFailures } from './audit/context.js';
import { checkFieldPoints } from './audit/fields.js';
import { auditedTemperatures, checkIsotherm } from './audit/isotherms.js';
import { checkPureElements } from './audit/pure-elements.js';
import { checkNoOverlap, checkTopology } from './audit/topology.js';

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
  /** the phases of the diagram and of every check (a database's recommended selection); default: every phase */
  phases?: string[];
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
  failures: AuditFailures;
  seconds: number;
  mapSeconds: number;
}

export function auditBinary(o: AuditOptions): AuditReport {
  const t0 = performance.now();
  const db = o.database;
  const [c1, c2] = o.elements;
  const T: [number, number] = o.T ?? [300, 2000];
  const threads = Math.max(1, o.threads ?? 1);
  const d =
    o.diagram ?? mapBinary({ database: db, components: [c1, c2], xComponent: c2, T, threads, phases: o.phases });
  const mapSeconds = o.diagram ? 0 : (performance.now() - t0) / 1000;
  const c = auditContext(db, o.elements, T, threads, d, o.phases);
  checkTopology(d, c.failures.topology);
  const temps = auditedTemperatures(d, T, o.isotherms ?? 24);
  let compared = 0;
  for (const Tk of temps) compared += checkIsotherm(c, Tk, o.scanPoints ?? 121);
  checkPureElements(c);
  const points = checkFieldPoints(c);
  checkNoOverlap(d, temps, c.failures.topology);
  return {
    regions: d.regions.length,
    invariants: d.invariants.length,
    isotherms: temps.length,
    transitionsCompared: compared,
    pointsChecked: points,
    failures: c.failures,
    seconds: (performance.now() - t0) / 1000,
    mapSeconds,
  };
}
