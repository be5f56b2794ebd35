// Binary phase diagrams of every binary system available (bundled databases/*.tdb and the binary files
// of ../shared/tdb, discovered by test/mapping/systems.ts): each diagram is computed without failure,
// and its boundaries agree with independent point equilibria sampled on each side of each boundary:
// at the T of a traced tie-line, X slightly inside the two-phase field gives
// the same two phases with the same compositions (to 1e-4), X slightly outside gives another phase
// set that still holds the boundary's phase.
import { describe, expect, test } from 'vitest';
import { baseName } from '../../contract/phases.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { mapBinary, type BinaryDiagram } from '../../worker/mapping/binary.js';
import { checkCoverage } from './coverage.js';
import { binarySystems, type BinarySystem } from './systems.js';

// Al-Fe_sundman2009 takes ~15 s (its 4-sublattice BCC_4SL has thousands of energy terms), the rest
// 0.02-7 s each. alni_tough_chempot and Al-Fe_sundman2009 were wrong here until the solver relaxed
// phases with several sublattices from more than one start (check_basins in native-core/src/solver/basins.cpp: the cold
// start missed a B2 with constitutional vacancies at 1560.7 K, X(NI) = 0.8369, by 170 J/mol, and the
// D03 + B2 field of Al-Fe at 305 K by 0.05 J/mol).

const { systems, unreadable } = binarySystems();

function solverComponents(s: BinarySystem): string[] {
  return s.db.info().elements.some((e) => e.name.toUpperCase() === 'VA') ? [...s.elements, 'VA'] : [...s.elements];
}

/** Stable sets at (T, X), sorted by composition, as base names + compositions. */
function point(s: BinarySystem, d: BinaryDiagram, T: number, X: number) {
  const r = equilibrium({
    database: s.db,
    components: solverComponents(s),
    conditions: { T, X: { [d.xComponent]: X } },
  });
  const phases = r.phases
    .filter((p) => p.NP > 1e-10)
    .map((p) => ({ name: p.name, x: p.x[d.xComponent] }))
    .sort((a, b) => a.x - b.x);
  return { converged: r.converged, phases };
}

describe('binary systems are discovered', () => {
  test('every file is readable and the expected binaries are there', () => {
    expect(unreadable).toEqual([]);
    const names = systems.map((s) => s.name);
    for (const n of [
      'databases/agcu_hayes1986.tdb',
      'databases/alzn_mey1993.tdb',
      'databases/cuni_mey1992.tdb',
      'tdb/alzn_mey.tdb',
      'tdb/pbsn.tdb',
      'tdb/cumg.tdb',
    ])
      expect(names).toContain(n);
  });
});

describe.each(systems.map((s) => [s.name, s] as const))('%s', (name, s) => {
  test('diagram 300-2000 K maps without failure and its boundaries agree with point equilibria', () => {
    const d = mapBinary({ database: s.db, components: s.elements, T: [300, 2000], threads: 2 });
    console.log(
      `${name}: ${d.regions.length} regions [${d.regions.map((r) => r.phases.join('+')).join(', ')}], ` +
        `invariants [${d.invariants.map((v) => `${v.kind} ${v.T.toFixed(2)}`).join(', ')}], ${d.stats.equilibria} equilibria, ` +
        `${d.stats.notConverged} not converged, ${d.stats.seconds.toFixed(2)} s`,
    );
    expect(d.stats.equilibria).toBeGreaterThan(0);
    let checked = 0;
    const failures: string[] = [];
    for (const r of d.regions) {
      const tl = r.tielines;
      const T0 = tl[0].T,
        T1 = tl[tl.length - 1].T;
      // tie-lines away from the region's ends (invariants are within 0.01 K there) and long enough to probe
      const usable = tl.filter((t) => t.T > T0 + 0.5 && t.T < T1 - 0.5 && t.x[1] - t.x[0] > 4e-3);
      const picks = [...new Set([0.2, 0.5, 0.8].map((f) => Math.floor(f * (usable.length - 1))))]
        .map((k) => usable[k])
        .filter(Boolean);
      for (const t of picks) {
        const len = t.x[1] - t.x[0];
        const d1 = Math.min(1e-3, len / 4);
        // inside, near each boundary: the same two phases with the traced compositions
        for (const X of [t.x[0] + d1, t.x[1] - d1]) {
          const p = point(s, d, t.T, X);
          if (!p.converged) continue; // a non-converged point is not evidence either way (the mapping logs its own)
          checked++;
          const names = p.phases.map((q) => q.name);
          const want = r.phases.map(baseName);
          // the solver names an ordered phase by its model name; the mapping labels its disordered state
          // with the DIS_PART name (order_disorder.phases), the ordered variants of a 4SL phase with their
          // structure (B2 (BCC_4SL))
          const matches = (raw: string, label: string) =>
            raw === label ||
            label.endsWith(` (${raw})`) ||
            d.orderDisorder.phases.some((o) => o.ordered === raw && o.disordered === label);
          const ok = names.length === 2 && names.every((n, k) => matches(n, want[k]));
          const same =
            names.length === 2 && Math.abs(p.phases[0].x - t.x[0]) < 1e-4 && Math.abs(p.phases[1].x - t.x[1]) < 1e-4;
          if (!(ok && same))
            failures.push(
              `${r.phases.join('+')} T=${t.T.toFixed(3)} X=${X.toFixed(5)} inside: got ${p.phases.map((q) => `${q.name}@${q.x.toFixed(5)}`).join('+')}, tie-line ${t.x.map((v) => v.toFixed(5)).join('..')}`,
            );
        }
        // outside each boundary: another phase set, still holding that boundary's phase
        for (const [k, X] of [
          [0, t.x[0] - 1e-3],
          [1, t.x[1] + 1e-3],
        ] as const) {
          if (X <= 1e-6 || X >= 1 - 1e-6) continue;
          const p = point(s, d, t.T, X);
          if (!p.converged) continue;
          checked++;
          const sameField =
            p.phases.length === 2 && Math.abs(p.phases[0].x - t.x[0]) < 1e-4 && Math.abs(p.phases[1].x - t.x[1]) < 1e-4;
          const holds = p.phases.some((q) => Math.abs(q.x - t.x[k]) < 5e-3 || Math.abs(q.x - X) < 1e-9);
          if (sameField || !holds)
            failures.push(
              `${r.phases.join('+')} T=${t.T.toFixed(3)} X=${X.toFixed(5)} outside ${k ? 'right' : 'left'}: got ${p.phases.map((q) => `${q.name}@${q.x.toFixed(5)}`).join('+')}, tie-line ${t.x.map((v) => v.toFixed(5)).join('..')}`,
            );
        }
      }
    }
    // completeness: independent point equilibria on a grid that shares no node with the seed grid
    const cover = checkCoverage({
      db: s.db,
      components: solverComponents(s),
      d,
      temperatures: Array.from({ length: 25 }, (_, k) => 313.7 + 70 * k),
      compositions: Array.from({ length: 20 }, (_, k) => 0.0237 + 0.05 * k),
    });
    failures.push(...cover.failures);
    if (failures.length) console.log(failures.join('\n'));
    expect(failures).toEqual([]);
    if (d.regions.length) expect(checked).toBeGreaterThan(0);
  }, 300_000);
});
