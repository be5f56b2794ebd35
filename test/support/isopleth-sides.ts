// Checks of an isopleth's lines against independent point equilibria on both of their sides (the phase sets there
// differ by the line's phase): test/mapping/isopleth.test.ts and test/calculations/pseudo-binary.test.ts.
import path from 'node:path';
import { expect } from 'vitest';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium } from '../../worker/core/equilibrium.js';
import { compositionPath, solverX } from '../../worker/mapping/isopleth/path.js';
import { phaseLabels } from '../../worker/mapping/isopleth/trace.js';
import type { IsoplethResult } from '../../contract/results/isopleth.js';
import { SHARED_TDB_DIR } from './shared.js';
import { readFileSync } from 'node:fs';
import { JobControl, CONTROL_BYTES } from '../../worker/protocol.js';
import { parsedJob } from './jobs.js';
import { run } from '../../worker/calculations/isopleth.js';

/** How far inside the section's composition border a probe moved onto it stays. */
const BORDER_INSET = 1e-6;

/** One isopleth task run in dir: its result.json, summary and logs. */
export function runIsoplethTask(
  dir: string,
  tdb: string,
  condition: Record<string, unknown>,
  threads = 2,
): { doc: IsoplethResult; dir: string; summary: string | null; logs: string[] } {
  const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
  const job = parsedJob('isopleth', {
    taskUuid: 'i',
    ompThreads: threads,
    taskDir: dir,
    control: control.buffer,
    config: { tdb_file: path.join(SHARED_TDB_DIR, tdb), condition: { pressure: 101325, ...condition } },
  });
  const out = run(job, control);
  return {
    doc: JSON.parse(readFileSync(path.join(dir, 'result', 'result.json'), 'utf8')) as IsoplethResult,
    dir,
    ...out,
  };
}

/** Point equilibria a little to both sides of every line point (across the line in T, else in s). */
export function checkSides(tdb: string, doc: IsoplethResult, components: string[]): number {
  const db = openDatabase(path.join(SHARED_TDB_DIR, tdb));
  // the phases the section allowed: the database's less those its phase selection removed
  const removed = new Set(doc.phase_selection.removed ?? []);
  const phases = db
    .info()
    .phases.map((ph) => ph.name)
    .filter((n) => !removed.has(n));
  const masses = Object.fromEntries(db.info().elements.map((e) => [e.name.toUpperCase(), e.mass]));
  const elements = doc.components;
  const p = compositionPath(elements, doc.composition_start, doc.composition_end, doc.composition_unit, masses);
  let checked = 0;
  const tolS = 2e-4 / Math.abs(doc.axis.range[1] - doc.axis.range[0]);
  for (const line of doc.lines) {
    // a line that runs along a composition border within the tracer's accuracy (1e-4 in the axis fraction) is a
    // field narrower than the probes' step (M5C2 beside cementite at exactly Fe3C): no side inside to compare
    if (line.points.every((q) => q.s <= tolS) || line.points.every((q) => q.s >= 1 - tolS)) continue;
    // a few points of every line: both ends and the middle; an end the tracer reports as 'lost' (it could not
    // bracket the line further, e.g. where two sets of one phase vanish together) is not a claim and is left out
    const ks = [0, Math.floor(line.points.length / 2), line.points.length - 1].filter(
      (k, i) =>
        !(i === 0 && line.ends[0] === 'lost' && line.points.length > 1) &&
        !(i === 2 && line.ends[1] === 'lost' && line.points.length > 1),
    );
    const picks = [...new Set(ks)].map((k) => line.points[k]!);
    for (const q of picks) {
      // which direction crosses the line: T first, then s; 0.3 K / 3e-4 in the axis fraction, then wider: a cold
      // point equilibrium misses a phase whose amount is below about 5e-4 (the tracer's warm starts find it, at a
      // lower Gibbs energy), so right at the line the present side may read as absent
      const dsAxis = 3e-4 / Math.abs(doc.axis.range[1] - doc.axis.range[0]);
      const probes = [1, 3, 10].flatMap((k) => [
        [
          { s: q.s, T: q.T - 0.3 * k },
          { s: q.s, T: q.T + 0.3 * k },
        ],
        [
          { s: q.s - k * dsAxis, T: q.T },
          { s: q.s + k * dsAxis, T: q.T },
        ],
      ]);
      // a line within the tracer's accuracy (1e-4 in the axis fraction) of a composition border runs along it (a
      // compound end member of a pseudo-binary section, Fe3C: cementite alone only at s = 1): its phase must be
      // present just inside, the other side is the border itself
      if (q.s <= tolS || q.s >= 1 - tolS) {
        const c = { s: q.s <= tolS ? q.s + dsAxis : q.s - dsAxis, T: q.T };
        const r = equilibrium({
          database: db,
          components,
          phases,
          conditions: { T: c.T, P: doc.pressure, X: solverX(p, c.s) },
        });
        if (r.converged && phaseLabels(r).includes(line.phase)) {
          checked++;
          continue;
        }
      }
      let ok = false;
      const seen: string[] = [];
      // a probe beyond the section is moved just inside its border (a line point near the border, the solubility
      // of C in ferrite at the lowest T, is checked from there and the inside; not onto the border, where a
      // pseudo-binary section's end member is a pure compound); a pair left on one point is no probe
      const [T0, T1] = doc.temperature_range;
      const inside = (c: { s: number; T: number }) => ({
        s: Math.min(1 - BORDER_INSET, Math.max(BORDER_INSET, c.s)),
        T: Math.min(T1, Math.max(T0, c.T)),
      });
      for (const [a, b] of probes.map(([a, b]) => [inside(a!), inside(b!)])) {
        if (a!.s === b!.s && a!.T === b!.T) continue;
        if ((a!.s === q.s && a!.T === q.T) || (b!.s === q.s && b!.T === q.T)) continue;
        const [ra, rb] = [a!, b!].map((c) =>
          equilibrium({
            database: db,
            components,
            phases,
            conditions: { T: c.T, P: doc.pressure, X: solverX(p, c.s) },
          }),
        );
        expect(ra!.converged && rb!.converged, `${line.phase} at ${JSON.stringify([a, b])}`).toBe(true);
        const la = phaseLabels(ra!),
          lb = phaseLabels(rb!);
        seen.push(`${la.join('+')} | ${lb.join('+')}`);
        // the two sides differ by the line's phase: present on one side, absent on the other
        if (la.includes(line.phase) !== lb.includes(line.phase)) {
          ok = true;
          break;
        }
      }
      expect(ok, `${line.phase} line at T=${q.T.toFixed(2)} K, x=${q.x.toFixed(5)}: sides ${seen.join(' ; ')}`).toBe(
        true,
      );
      checked++;
    }
  }
  return checked;
}
