// liquidus_projection (an extension): the liquidus surface of a ternary system, or of a ternary section of a
// multicomponent alloy, projected on its composition triangle (contract/tasks/liquidus_projection.ts). The map:
// worker/mapping/liquidus/ (projection.ts); the method and its checks: docs/calculations.md "Liquidus projections".
import { basename } from 'node:path';
import { isLiquidName } from '../../contract/phases.js';
import { displayFieldLabel, displayReaction, type DisplayNamer } from '../../contract/plots/phase-names.js';
import { tableToCsv, type ResultTable } from '../../contract/results/common.js';
import type { LiquidusProjectionDocument, PrimaryFieldRecord } from '../../contract/results/liquidus_projection.js';
import { LIQUIDUS_GRID_DIVISIONS, LIQUIDUS_ISOTHERM_STEP } from '../../contract/tasks/liquidus_projection.js';
import { StateLabeller } from '../mapping/core/labels.js';
import { classify, fourPhaseChecks, FOUR_PHASE_CHECK_OFFSET, reactionText } from '../mapping/liquidus/invariants.js';
import {
  defaultIsothermStep,
  isotherms,
  isothermLevels,
  liquidusRange,
  primaryFields,
} from '../mapping/liquidus/isotherms.js';
import { mapLiquidusProjection, type LiquidusProjectionMap } from '../mapping/liquidus/projection.js';
import { liquidusDerivatives } from '../mapping/liquidus/search.js';
import { TriangleGrid } from '../mapping/liquidus/triangle-grid.js';
import { convergenceWarning } from '../mapping/nothing-converged.js';
import { liquidusProjectionChart } from '../plots/liquidus.js';
import { CancelledError, type CalculationOutput, type JobControl, type TaskJob } from '../protocol.js';
import { writeResultFiles } from '../results/common.js';
import { namerOf } from '../results/display-names.js';
import { documentBase } from '../results/document.js';
import { ChunkedSolver } from '../scans/chunked-solver.js';
import { openSystem, type CalcSystem } from '../system/system.js';

type Condition = TaskJob<'liquidus_projection'>['config']['condition'];

/** K where every node's liquidus search starts (it steps up from a state with a solid) */
const SEARCH_START = 2000;

function gridOf(cond: Condition, sys: CalcSystem): TriangleGrid {
  const fixed = Object.fromEntries(Object.entries(cond.fixed_compositions ?? {}).map(([k, v]) => [k.toUpperCase(), v]));
  const corners = sys.elements.slice(0, 3) as [string, string, string];
  return new TriangleGrid(cond.grid_divisions ?? LIQUIDUS_GRID_DIVISIONS.default, corners, fixed);
}

export function run(job: TaskJob<'liquidus_projection'>, control: JobControl): CalculationOutput {
  if (control.cancelled) throw new CancelledError();
  const cond = job.config.condition;
  const sys = openSystem(job, cond);
  const liquid = (sys.phases ?? sys.formable).find(isLiquidName);
  if (!liquid) throw new Error('condition: no liquid phase among the phases of this calculation: no liquidus');
  const grid = gridOf(cond, sys);
  const solver = new ChunkedSolver(
    {
      db: sys.db,
      components: sys.components,
      phases: sys.phases,
      options: { warmStart: true, derivatives: liquidusDerivatives(sys.elements, sys.elements.slice(1, 3)) },
    },
    Math.max(1, job.ompThreads),
    control,
  );
  let map: LiquidusProjectionMap;
  let doc: LiquidusProjectionDocument;
  try {
    map = mapLiquidusProjection(grid, cond.pressure, SEARCH_START, solver);
    if (map.nodes.every((n) => n === null))
      throw new Error(
        `no liquidus found at any of the ${grid.nodes.length} grid nodes: no projection (check the phases: a liquid and solids that form from it)`,
      );
    doc = documentOf(job, cond, sys, map, liquid, solver);
  } finally {
    solver.close();
  }
  const files = writeResultFiles(job.taskDir, {
    json: doc,
    csv: tableToCsv(doc.table),
    previews: { liquidus_projection: liquidusProjectionChart(doc, basename(sys.tdbFile)) },
  });
  const certified = doc.invariants.filter((v) => v.check.certified).length;
  return {
    summary: `${doc.convergence_warning ? `${doc.convergence_warning.message}; ` : ''}${doc.primary_fields.length} primary fields, ${doc.valleys.length} valleys, ${doc.invariants.length} invariant points (${certified} certified as four-phase equilibria)`,
    logs: [
      ...sys.logs,
      `equilibria: ${doc.grid.equilibria} (nodes ${map.stages.nodes}, valleys ${map.stages.valleys}, invariant points ${map.stages.invariants}, checks ${2 * doc.invariants.length}, isotherms ${doc.grid.stages.isotherms}; ${grid.nodes.length} nodes, ${job.ompThreads} thread(s))`,
      ...doc.invariants.map(
        (v) =>
          `invariant ${v.type} ${v.T.toFixed(2)} K: ${v.reaction}${v.check.certified ? '' : ' (four-phase check failed)'}`,
      ),
      ...doc.notes.map((m) => `note: ${m}`),
      `written ${files.join(', ')}`,
    ],
  };
}

function documentOf(
  job: TaskJob<'liquidus_projection'>,
  cond: Condition,
  sys: CalcSystem,
  map: LiquidusProjectionMap,
  liquid: string,
  solver: ChunkedSolver,
): LiquidusProjectionDocument {
  const { grid } = map;
  const namer = namerOf(job);
  const comp = ([b, c]: [number, number]) => grid.composition(b, c);
  const labeller = new StateLabeller(sys.db, sys.components);
  const classified = map.invariants.map((p) => classify(p, map.valleys));
  const section = Object.keys(grid.fixed).length > 0;
  const checks = fourPhaseChecks(map.invariants, grid.corners[0], liquid, solver, cond.pressure, section);
  const failed = map.nodes.flatMap((n, k) => (n ? [] : [comp(grid.nodes[k]!)]));
  const range = liquidusRange(map.nodes);
  const step =
    cond.isotherm_step ?? defaultIsothermStep(range, LIQUIDUS_ISOTHERM_STEP.default, LIQUIDUS_ISOTHERM_STEP.most);
  const notes = noteOf(map, checks.filter((c) => !c.certified).length);
  const beforeIsotherms = solver.count;
  const lines = isotherms(grid, map.cells, map.nodes, isothermLevels(range, step), { P: cond.pressure, solver });
  const warning = convergenceWarning({ nodes: grid.nodes.length, notConverged: failed.length, noEquilibrium: 0 });
  return {
    ...documentBase(job, 'liquidus_projection', sys),
    components: sys.elements,
    corners: grid.corners,
    fixed_compositions: grid.fixed,
    pressure: cond.pressure,
    liquid,
    grid: {
      divisions: grid.n,
      nodes: grid.nodes.length,
      not_converged: failed.length,
      equilibria: solver.count,
      stages: {
        ...map.stages,
        invariants: map.stages.invariants + 2 * map.invariants.length,
        isotherms: solver.count - beforeIsotherms,
      },
    },
    liquidus_range: range,
    primary_fields: fieldRecords(map, labeller, namer),
    valleys: map.valleys.map((v) => ({
      phases: v.phases,
      display: displayFieldLabel(`${liquid} + ${v.phases.join(' + ')}`, namer),
      points: v.points.map((p) => ({ x: comp(p.bc), T: p.T })),
    })),
    invariants: classified.map((c, k) => {
      const reaction = reactionText(liquid, c);
      return {
        type: c.type,
        T: c.point.state.T,
        x: comp(c.point.bc),
        phases: c.point.phases,
        solids: Object.fromEntries(c.point.phases.map((ph) => [ph, c.point.state.solids.get(ph) ?? {}])),
        reaction,
        display_reaction: displayReaction(reaction, namer),
        spread: c.point.spread,
        check: { ...checks[k]!, offset: FOUR_PHASE_CHECK_OFFSET },
      };
    }),
    isotherm_step: step,
    isotherms: lines.map((l) => ({
      T: l.T,
      segments: l.segments.map(([p, q]) => [comp(p), comp(q)] as [Record<string, number>, Record<string, number>]),
    })),
    unresolved: map.unlocated.map(comp),
    not_converged_nodes: failed,
    table: nodeTable(map, sys.elements),
    notes,
    ...(warning ? { convergence_warning: warning } : {}),
  };
}

/**
 * The primary fields: those holding grid nodes (labelled at the node farthest from the others), and those too small
 * to hold one that the valleys bound (labelled at the centroid of their valleys' points, grid_nodes 0).
 */
function fieldRecords(map: LiquidusProjectionMap, labeller: StateLabeller, namer: DisplayNamer): PrimaryFieldRecord[] {
  const { grid } = map;
  const comp = ([b, c]: [number, number]) => grid.composition(b, c);
  const fields: PrimaryFieldRecord[] = primaryFields(grid, map.nodes).map((f) => {
    const st = map.nodes[f.node]!;
    const solid = st.above.metastable.find((m) => m.name === f.phase);
    const label = solid ? labeller.stateOf(solid) : f.phase;
    const at = { x: comp(grid.nodes[f.node]!), T: st.T };
    return { phase: f.phase, label, display: displayFieldLabel(label, namer), at, grid_nodes: f.nodes };
  });
  const named = new Set(fields.map((f) => f.phase));
  const bounding = new Map<string, { bc: [number, number]; T: number }[]>();
  for (const v of map.valleys)
    for (const ph of v.phases) if (!named.has(ph)) bounding.set(ph, [...(bounding.get(ph) ?? []), ...v.points]);
  for (const [phase, pts] of bounding) {
    const mean = (f: (p: (typeof pts)[number]) => number) => pts.reduce((t, p) => t + f(p), 0) / pts.length;
    const at = { x: comp([mean((p) => p.bc[0]), mean((p) => p.bc[1])]), T: mean((p) => p.T) };
    fields.push({ phase, label: phase, display: displayFieldLabel(phase, namer), at, grid_nodes: 0 });
  }
  return fields;
}

function noteOf(map: LiquidusProjectionMap, uncertified: number): string[] {
  const notes: string[] = [];
  const failed = map.nodes.filter((n) => !n).length;
  if (failed)
    notes.push(`${failed} of ${map.nodes.length} grid nodes have no liquidus: fields and valleys may be missing there`);
  if (map.unlocated.length)
    notes.push(
      `${map.unlocated.length} place(s) where valleys meet have no located invariant point (fields too small for the grid's finest split, or a failed search)`,
    );
  if (uncertified) notes.push(`${uncertified} invariant point(s) failed the four-phase check (see check in each)`);
  return notes;
}

/** One row per grid node: the mole fractions, the liquidus and the primary phase. */
function nodeTable(map: LiquidusProjectionMap, elements: string[]): ResultTable {
  const { grid } = map;
  return {
    columns: [
      ...elements.map((e) => ({ name: `X(${e})`, unit: '-' })),
      { name: 'T_liquidus', unit: 'K' },
      { name: 'primary_phase', unit: '-' },
    ],
    rows: map.nodes.map((n, k) => {
      const x = grid.composition(...grid.nodes[k]!);
      return [...elements.map((e) => x[e] ?? 0), n ? n.T : null, n ? n.primary : 'not converged'];
    }),
  };
}
