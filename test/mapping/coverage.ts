// Completeness of a mapped binary diagram ("every two-phase region ... no missing boundary,
// gap or invariant"): independent point equilibria on a grid that shares no node with the mapper's seed
// grid. Every converged two-phase point must lie in a traced region of the same two phases with the same
// compositions (a region the mapper missed shows up here); a single-phase point must not lie well inside
// a traced region (a region that does not exist); a point that does not converge must say that no
// equilibrium exists (a model without a lower bound, a composition no phase can take), anything else is
// a solver failure the diagram may hide.
import { baseName } from '../../contract/phases.js';
import { equilibrium, saysNoEquilibrium } from '../../worker/core/equilibrium.js';
import { type BinaryDiagram } from '../../worker/mapping/binary.js';
import type { NativeDatabase } from '../../worker/core/native.js';

const X_TOL = 0.02; // interpolating between traced tie-lines (steps up to 15 K) stays well within this
const T_MARGIN = 1; // K: near a region's end the neighbour region may already hold

export interface CoverageOptions {
  db: NativeDatabase;
  components: string[];
  d: BinaryDiagram;
  temperatures: number[];
  compositions: number[];
}

/** The traced region's boundaries at T, interpolated between the neighbouring tie-lines, or null. */
function boundariesAt(r: BinaryDiagram['regions'][number], T: number, margin: number): [number, number] | null {
  const tl = r.tielines;
  if (!tl.length || T < tl[0].T - margin || T > tl[tl.length - 1].T + margin) return null;
  let k = 0;
  while (k < tl.length - 1 && tl[k + 1].T < T) k++;
  const a = tl[k],
    b = tl[Math.min(k + 1, tl.length - 1)];
  const w = b.T > a.T ? Math.min(1, Math.max(0, (T - a.T) / (b.T - a.T))) : 0;
  return [a.x[0] + w * (b.x[0] - a.x[0]), a.x[1] + w * (b.x[1] - a.x[1])];
}

/** Failures, one line each; `checked` counts the grid points that were compared. */
export function checkCoverage(o: CoverageOptions): { failures: string[]; checked: number } {
  const { d } = o;
  const failures: string[] = [];
  let checked = 0;
  // the solver names an ordered phase by its model name; the mapping labels its disordered state with
  // the DIS_PART name (order_disorder.phases), the ordered variants of a 4SL phase with their structure (B2 (BCC_4SL))
  const matches = (raw: string, label: string) =>
    raw === baseName(label) ||
    baseName(label).endsWith(` (${raw})`) ||
    d.orderDisorder.phases.some((ph) => ph.ordered === raw && ph.disordered === baseName(label));
  for (const T of o.temperatures)
    for (const X of o.compositions) {
      const r = equilibrium({ database: o.db, components: o.components, conditions: { T, X: { [d.xComponent]: X } } });
      const at = `T=${T.toFixed(2)} X=${X.toFixed(4)}`;
      if (!r.converged) {
        if (!saysNoEquilibrium(r)) failures.push(`${at}: not converged (${r.reason})`);
        continue;
      }
      checked++;
      const ps = r.phases
        .filter((p) => p.NP > 1e-6)
        .map((p) => ({ name: p.name, x: p.x[d.xComponent] }))
        .sort((a, b) => a.x - b.x);
      if (ps.length === 2) {
        const inRegion = d.regions.some((reg) => {
          if (!matches(ps[0].name, reg.phases[0]) || !matches(ps[1].name, reg.phases[1])) return false;
          const b = boundariesAt(reg, T, T_MARGIN);
          return b !== null && Math.abs(b[0] - ps[0].x) < X_TOL && Math.abs(b[1] - ps[1].x) < X_TOL;
        });
        if (!inRegion)
          failures.push(`${at}: ${ps.map((p) => `${p.name}@${p.x.toFixed(4)}`).join('+')} is in no traced region`);
      } else if (ps.length === 1) {
        for (const reg of d.regions) {
          const b = boundariesAt(reg, T, -T_MARGIN);
          if (b && X > b[0] + X_TOL && X < b[1] - X_TOL)
            failures.push(
              `${at}: single ${ps[0].name} inside the traced ${reg.phases.join('+')} (${b.map((v) => v.toFixed(4)).join('..')})`,
            );
        }
      }
    }
  return { failures, checked };
}
