// `npm run bench:aging`: the ageing treatments of the aging task's speed goals (contract/tasks/aging-examples.ts:
// Al-0.4Zr 500 h at 723.15 K, Ni-9.8Al-8.3Cr 1e6 s at 1073 K, the 6xxx two-stage schedule with five precipitates) as
// whole `phasedesk calc` processes on one thread, each the median of BENCH_AGING_RUNS (default 3) runs with its CPU
// time, peak resident set and goal, and from its result.json per precipitate the driving force at the start and the
// number density, mean radius and volume fraction at the end.
// With PHASEDESK_BENCH_BEFORE_TREE=/path/of/an/older/checkout (its dist/ and addon built), each run is also run with
// that checkout's command line, alternately, and printed beside as "before" with the ratio before/now.
// Cases can be selected by name: `npm run bench:aging -- 6xxx`.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgingDocument } from '../contract/results/aging.js';
import { AGING_EXAMPLES, type AgingExample } from '../contract/tasks/aging-examples.js';
import { alternateRuns, beforeFigure, benchSelected, CalcProcess, runsFigure, type CalcRun } from './calc-process.js';
import { tdbDir } from './support.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUNS = Math.max(1, Number(process.env.BENCH_AGING_RUNS ?? 3));
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-bench-aging-'));
const calc = new CalcProcess(tmp);

const runOnce = (tree: string, e: AgingExample): CalcRun =>
  calc.run(tree, e.name, { tdb_code: 'BENCH', ...e.config }, ['--tdb', path.join(tdbDir(), e.tdb)]);

/** Per precipitate: its driving force at the first output time and its particles at the end. */
function phaseLines(e: AgingExample): string[] {
  const doc = JSON.parse(readFileSync(path.join(calc.out(e.name), 'result', 'result.json'), 'utf8')) as AgingDocument;
  const end = doc.time.length - 1;
  return doc.precipitates.map((p) => {
    const r = (p.mean_radius[end]! * 1e9).toPrecision(3);
    return `  ${p.phase.padEnd(12)} dG(start) ${p.driving_force[0]!.toFixed(0)} J/mol; at ${doc.time[end]!.toPrecision(4)} s: N ${p.number_density[end]!.toPrecision(3)} m^-3, <r> ${r} nm, f ${p.volume_fraction[end]!.toPrecision(3)}`;
  });
}

function benchExample(e: AgingExample, before: string | undefined): string[] {
  const { now, old } = alternateRuns(RUNS, ROOT, before, (tree) => runOnce(tree, e));
  const lines = [`${e.name.padEnd(7)} ${e.what}: ${runsFigure(now)}; goal < ${e.goal} s`, `  ${now.at(-1)!.summary}`];
  if (before) lines.push(`  ${beforeFigure(old, now)}`);
  return [...lines, ...phaseLines(e)];
}

benchSelected(
  AGING_EXAMPLES,
  { runs: RUNS, tmp, header: 'aging tasks as whole `phasedesk calc` processes' },
  benchExample,
);
