// Where the seed grid's equilibria do not converge the diagram may miss its fields and boundaries: result.json lists
// those nodes (not_converged_nodes, besides the count in statistics) and the preview marks each one with a cross
// explained under the plot (worker/calculations/binary_equilibrium.ts, worker/plots/charts.ts). And the nodes of the
// Co-Cr liquid above 2150 K (alcocrni), which did not converge while BCC_B2 ran into its pure-vacancy configuration
// (test/core/solver/vacancy-left-out.test.ts), now do: the liquid is mapped there. A diagram delivered with a large
// share of its seed grid without an equilibrium (binary or ternary section) says so (convergence_warning).
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { diagramChart, diagramDocument, notConvergedNodes } from '../../worker/calculations/binary_equilibrium.js';
import { notConvergedLegend } from '../../worker/plots/charts.js';
import { mapBinary } from '../../worker/mapping/binary.js';
import { mapTernary } from '../../worker/mapping/ternary.js';
import { sectionDocument, sectionSummary } from '../../worker/calculations/ternary_isothermal_section.js';
import { ternarySectionChart } from '../../worker/plots/ternary.js';
import { convergenceWarning, gridFailures } from '../../worker/mapping/nothing-converged.js';
import { isoplethPreview } from '../../worker/plots/isopleth.js';
import type { IsoplethResult } from '../../contract/results/isopleth.js';
import { LARGE_FAILURE_SHARE } from '../../contract/results/common.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const base = { provenance: {} as never, phase_selection: undefined as never };

describe('seed-grid nodes that did not converge', () => {
  const db = openDatabase(path.join(SHARED_TDB_DIR, 'alzn_mey.tdb'));
  const d = mapBinary({ database: db, components: ['AL', 'ZN'], T: [600, 900], threads: 1 });

  test('a diagram whose nodes all converged lists none and draws no mark', () => {
    expect(d.stats.notConverged).toBe(0);
    expect(diagramDocument(d, {}, base).not_converged_nodes).toBeUndefined();
    expect(diagramChart(d)).not.toContain('not-converged');
  });

  test('a node that did not converge is listed in result.json and marked in the preview', () => {
    const k = 3 * d.grid.X.length + 4; // the fifth node of the fourth temperature
    const failed = { ...d, grid: { ...d.grid, labels: d.grid.labels.map((l, i) => (i === k ? '' : l)) } };
    const node = { T: d.grid.T[3]!, x: d.grid.X[4]! };
    expect(notConvergedNodes(failed)).toEqual([node]);
    expect(diagramDocument(failed, {}, base).not_converged_nodes).toEqual([node]);
    const svg = diagramChart(failed);
    const group = svg.match(/<g class="not-converged">([\s\S]*?)<\/g>/);
    expect(group).not.toBeNull();
    expect(group![1]!.match(/<line /g)).toHaveLength(2); // one cross
    expect(svg).toContain(notConvergedLegend(1));
  });

  test('a node where no equilibrium exists is listed as such and marked with a ring of its own legend', () => {
    const k = 2 * d.grid.X.length + 1;
    const none = {
      ...d,
      grid: { ...d.grid, labels: d.grid.labels.map((l, i) => (i === k ? '' : l)), noEquilibrium: [k] },
    };
    const node = { T: d.grid.T[2]!, x: d.grid.X[1]!, no_equilibrium: true };
    expect(diagramDocument(none, {}, base).not_converged_nodes).toEqual([node]);
    const svg = diagramChart(none);
    const group = svg.match(/<g class="not-converged">([\s\S]*?)<\/g>/);
    expect(group![1]!.match(/<circle /g)).toHaveLength(1);
    expect(svg).toContain(notConvergedLegend(1, true));
    expect(svg).not.toContain(notConvergedLegend(1));
  });
});

test('a binary whose compositions no phase but a stoichiometric one takes: its nodes say no equilibrium exists', () => {
  // pycalphad_inline_alcl3_charged: ALCL3 alone, at x(Cl) = 0.75
  const db = openDatabase(path.join(SHARED_TDB_DIR, 'pycalphad_inline_alcl3_charged.tdb'));
  const d = mapBinary({ database: db, components: ['AL', 'CL'], T: [300, 600], threads: 1 });
  const nodes = notConvergedNodes(d);
  expect(nodes.length).toBeGreaterThan(0);
  expect(nodes.every((n) => n.no_equilibrium === true)).toBe(true);
});

test('a diagram delivered with a large share of its grid without an equilibrium says so in result.json and the preview', () => {
  // pycalphad_inline_alcl3_charged: ALCL3 alone takes only x(Cl) = 0.75, so most of the grid has no equilibrium
  const db = openDatabase(path.join(SHARED_TDB_DIR, 'pycalphad_inline_alcl3_charged.tdb'));
  const d = mapBinary({ database: db, components: ['AL', 'CL'], T: [300, 600], threads: 1 });
  const failed = notConvergedNodes(d);
  const w = diagramDocument(d, {}, base).convergence_warning;
  expect(w).toBeDefined();
  expect(w!.nodes).toBe(d.grid.labels.length);
  expect(w!.no_equilibrium + w!.not_converged).toBe(failed.length);
  expect(w!.share).toBeCloseTo(failed.length / d.grid.labels.length, 12);
  expect(w!.share).toBeGreaterThan(0.9);
  const svg = diagramChart(d);
  expect(svg).toContain(w!.message);
  // a diagram of which every node converged carries none
  const alzn = openDatabase(path.join(SHARED_TDB_DIR, 'alzn_mey.tdb'));
  const ok = mapBinary({ database: alzn, components: ['AL', 'ZN'], T: [600, 700], threads: 1 });
  expect(diagramDocument(ok, {}, base).convergence_warning).toBeUndefined();
});

test('the warning starts at LARGE_FAILURE_SHARE of the grid nodes and counts the two kinds of failure', () => {
  const nodes = 200;
  const limit = Math.ceil(LARGE_FAILURE_SHARE * nodes); // 20 of 200
  expect(convergenceWarning({ nodes, notConverged: limit - 10, noEquilibrium: 9 })).toBeUndefined();
  const w = convergenceWarning({ nodes, notConverged: limit - 10, noEquilibrium: 10 })!;
  expect(w).toMatchObject({ nodes: 200, not_converged: 10, no_equilibrium: 10, share: 0.1 });
  expect(w.message).toBe(
    'incomplete: 20 of 200 grid nodes (10 %) have no equilibrium (10 not converged, 10 where none exists); ' +
      'the diagram covers only the rest',
  );
});

test('Co-Cr (alcocrni) above 2150 K: every node converges and the liquid is mapped', () => {
  const db = openDatabase(path.join(SHARED_TDB_DIR, 'alcocrni.tdb'));
  const d = mapBinary({ database: db, components: ['CO', 'CR'], T: [2000, 2500], threads: 1 });
  expect(d.stats.notConverged).toBe(0);
  expect(notConvergedNodes(d)).toEqual([]);
  const liquidAbove = d.grid.labels.filter(
    (l, k) => l === 'LIQUID' && d.grid.T[Math.floor(k / d.grid.X.length)]! > 2150,
  );
  expect(liquidAbove.length).toBeGreaterThan(0);
  expect(d.grid.labels.every((l) => l !== '')).toBe(true);
});

test('a ternary section with most of its seed grid without an equilibrium says so (result.json, preview, summary)', () => {
  // al2o3_nd2o3_zro2's Al-O-Zr at 1500 K: oxides and ionic phases only, no allowed phase takes most compositions
  const db = openDatabase(path.join(SHARED_TDB_DIR, 'al2o3_nd2o3_zro2.tdb'));
  const s = mapTernary({ database: db, components: ['AL', 'O', 'ZR'], T: 1500, threads: 1 });
  const g = s.stats.grid;
  expect(g.nodes).toBe(91); // the default 12 divisions: 13 * 14 / 2 nodes
  expect(g.noEquilibrium + g.notConverged).toBeGreaterThan(0.5 * g.nodes);
  expect(g.noEquilibrium + g.notConverged).toBeLessThan(g.nodes);
  const doc = sectionDocument(s, 'mole_fraction', null, {}, base);
  const w = doc.convergence_warning!;
  expect(w).toMatchObject({ nodes: g.nodes, not_converged: g.notConverged, no_equilibrium: g.noEquilibrium });
  expect(ternarySectionChart(doc)).toContain(w.message);
  expect(sectionSummary(s)).toContain(w.message);
});

test('gridFailures counts the nodes the solver gave up on apart from those where it says none exists', () => {
  const none = { converged: false, reasonCode: 'PD_NO_EQUILIBRIUM' as const };
  const failed = { converged: false, reasonCode: undefined };
  const ok = { converged: true, reasonCode: undefined };
  expect(gridFailures([ok, none, failed, null, ok, none])).toEqual({ nodes: 6, notConverged: 2, noEquilibrium: 2 });
});

test("an isopleth's preview carries its convergence warning under the title", () => {
  const w = convergenceWarning({ nodes: 49, notConverged: 3, noEquilibrium: 4 })!;
  const doc = {
    config: {},
    components: ['AL', 'CU', 'MG'],
    composition_unit: 'mole_fraction',
    dependent: 'AL',
    axis: { element: 'MG', range: [0, 0.1], unit: 'mole_fraction' },
    composition_start: { CU: 0.02, MG: 0 },
    composition_end: { CU: 0.02, MG: 0.1 },
    temperature_range: [600, 900],
    pressure: 101325,
    lines: [],
    regions: [],
    invariants: [],
    liquidus: [],
    solidus: [],
    convergence_warning: w,
  } as unknown as IsoplethResult;
  expect(w.message).toBe(
    'incomplete: 7 of 49 grid nodes (14 %) have no equilibrium (3 not converged, 4 where none exists); ' +
      'the diagram covers only the rest',
  );
  expect(isoplethPreview(doc)).toContain(w.message);
  expect(isoplethPreview({ ...doc, convergence_warning: undefined })).not.toContain('incomplete');
});
