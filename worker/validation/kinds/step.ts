// Kind "step" (shared/validation/README.md "Kinds"): a one-dimensional line in T or in one
// composition variable, with the phase regions met and phase quantities along it. The grid
// condition ({min, max, step} or an explicit list) is evaluated with one equilibrium batch; between
// neighbouring grid points whose phase sets differ, the transitions are located with the
// line_calculation refinement (worker/calculations/line_calculation.ts refineTransitions), so a
// narrow region between two grid points is met too and every boundary node is known.
//
// Quantities:
//   phase_regions_include / two_phase_regions_include / three_phase_regions_include:
//       the phase sets (names, composition sets merged) of the regions met along the line
//   boundaries_include: at every transition, the union of the phases on both sides (the node)
//   "Q at VAR=v" / "Q at VAR=[v1,v2,...]": quantity Q of the vocabulary (worker/validation/quantities.ts)
//       at those values (they need not be grid points); any other quantity: one value per grid point
//   T_liquidus / T_solidus of the line's alloy (worker/validation/alloy.ts)
//   "PHASE stable at VAR >= v" (also <=, >, <, =): whether PHASE is stable at any grid point there
import { availableParallelism } from 'node:os';
import { type ScanPath } from '../../scans/scan-path.js';
import { refineTransitions } from '../../scans/transitions.js';
import { equilibriumBatch, type EquilibriumConditions, type EquilibriumResult } from '../../core/equilibrium.js';

import { CONTROL_BYTES, JobControl } from '../../protocol.js';
import { alloyQuantity } from '../alloy.js';
import { conditionValues } from '../conditions.js';
import { withoutRemark } from '../expression.js';
import { caseDatabase } from '../databases.js';
import { vocabularyEntry } from './vocabulary.js';
import type { ComputedValue, KindHandler, ValidationCase } from '../types.js';
import { pointConditions } from './equilibrium.js';

/** The grid condition of a case: its key and its values in order (a range follows numpy.arange, conditions.ts). */
export function gridOf(c: ValidationCase): { key: string; values: number[] } {
  const grids = Object.entries(c.conditions).filter(([, v]) => typeof v !== 'number');
  if (grids.length !== 1)
    throw new Error(
      `a step case needs exactly one grid condition (found ${grids.map(([k]) => k).join(', ') || 'none'})`,
    );
  const [key, v] = grids[0];
  return { key, values: conditionValues(key, v) };
}

const names = (r: EquilibriumResult) => [...new Set(r.phases.map((p) => p.name))].sort();

/** Line between two grid points as a ScanPath (T or X grids). */
function pathBetween(a: EquilibriumConditions, b: EquilibriumConditions): ScanPath | null {
  if (a.MU || a.W || b.MU || b.W) return null;
  const X0 = { ...(a.X ?? {}) },
    X1 = { ...(b.X ?? {}) };
  return { T0: a.T, T1: b.T, P: a.P ?? 101325, X0, X1, full0: X0, full1: X1 };
}

export interface StepLine {
  key: string;
  values: number[];
  results: EquilibriumResult[];
  /** phase sets (names) of the regions met, in order along the line */
  regions: string[][];
  /** phase-name unions at the transitions, in order */
  nodes: string[][];
}

export function stepLine(c: ValidationCase, db: ReturnType<typeof caseDatabase>): StepLine {
  const { key, values } = gridOf(c);
  const conds = values.map((v) => pointConditions(c, { [key]: v }));
  const threads = Math.max(1, Math.min(2, availableParallelism()));
  const results = equilibriumBatch({
    database: db,
    components: c.components,
    phases: c.phases,
    conditions: conds,
    threads,
  });
  const regions: string[][] = [];
  const nodes: string[][] = [];
  const addRegion = (set: string[]) => {
    if (!regions.some((r) => r.join('+') === set.join('+'))) regions.push(set);
  };
  const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
  let prev = -1;
  for (let i = 0; i < results.length; i++) {
    if (!results[i].converged) continue;
    addRegion(names(results[i]));
    if (prev >= 0) {
      const ra = results[prev],
        rb = results[i];
      const labels = (r: EquilibriumResult) =>
        r.phases
          .map((p) => `${p.name}#${p.setNumber}`)
          .sort()
          .join('+');
      if (labels(ra) !== labels(rb)) {
        const path = pathBetween(conds[prev], conds[i]);
        const trs = path
          ? refineTransitions(path, [0, 1], [ra, rb], {
              sys: { db, components: c.components, phases: c.phases },
              threads,
              control,
            })
          : [];
        if (trs.length === 0) nodes.push([...new Set([...names(ra), ...names(rb)])].sort());
        for (const t of trs) {
          const strip = (l: string) => l.replace(/#\d+$/, '');
          const before = [...new Set(t.phases_before.map(strip))].sort();
          const after = [...new Set(t.phases_after.map(strip))].sort();
          addRegion(before);
          addRegion(after);
          nodes.push([...new Set([...before, ...after])].sort());
        }
      }
    }
    prev = i;
  }
  return { key, values, results, regions, nodes };
}

const CMP: Record<string, (a: number, b: number) => boolean> = {
  '>=': (a, b) => a >= b - 1e-12,
  '<=': (a, b) => a <= b + 1e-12,
  '>': (a, b) => a > b,
  '<': (a, b) => a < b,
  '=': (a, b) => Math.abs(a - b) <= 1e-12,
};

export const step: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  const line = stepLine(c, db);
  const sameVar = (v: string) => v.replace(/\s+/g, '').toUpperCase() === line.key.replace(/\s+/g, '').toUpperCase();
  return c.expected.map((e): ComputedValue => {
    const q = e.quantity.trim();
    const k = withoutRemark(q);
    if (k === 'phase_regions_include') return { value: line.regions };
    if (k === 'two_phase_regions_include') return { value: line.regions.filter((r) => r.length === 2) };
    if (k === 'three_phase_regions_include') return { value: line.regions.filter((r) => r.length === 3) };
    if (k === 'boundaries_include') return { value: line.nodes };
    let m: RegExpExecArray | null;
    if ((m = /^([A-Z0-9_]+) stable at (.+?)\s*(>=|<=|>|<|=)\s*([-+0-9.eE]+)$/i.exec(q))) {
      if (!sameVar(m[2])) return { value: null, unsupported: `${m[2]} is not the grid variable ${line.key}` };
      const phase = m[1].toUpperCase(),
        op = CMP[m[3]],
        v = Number(m[4]);
      const at = line.values.map((x, i) => ({ x, r: line.results[i] })).filter((p) => op(p.x, v));
      if (at.some((p) => !p.r.converged))
        return { value: null, unsupported: 'a grid point in that range did not converge' };
      return { value: at.some((p) => p.r.phases.some((ph) => ph.name === phase)) };
    }
    const alloy = alloyQuantity(q, c, db);
    if (alloy) return alloy;
    // any other quantity of the vocabulary: one value per grid point (or max/min_over_grid(...), "Q at ...")
    return vocabularyEntry(c, ctx, { c, db, mode: 'equilibrium', cond: c.conditions, entry: e });
  });
};
