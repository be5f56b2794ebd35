// `npm run bench:steel`: the real-alloy tasks of the speed goals as whole `phasedesk calc` processes on one thread,
// each the median of BENCH_STEEL_RUNS (default 5) runs with its peak resident set (getrusage maxrss of the process,
// written by the process itself at exit) and its goal. The steel tasks run on the bundled MF Steel database with its
// recommended phase selection (`--db MF_STEEL`); 316L = Fe-17Cr-12Ni-2.5Mo-0.02C-1.5Mn-0.5Si (mass %). The last row is
// the 7-component Al alloy of bench:calc's alloy7 on COST507 (every phase); `solution` is the solution-treatment window
// of 316L, `solidify` and `alsolid` the solidification with back diffusion of 316L and of the Al alloy (goals of
// kinetics part 1).
// With PHASEDESK_BENCH_BEFORE_TREE=/path/of/an/older/checkout (its dist/ and addon built), each run of a task is also
// run with that checkout's command line, alternately, and printed beside as "before" with the ratio before/now.
// Sections can be selected by the names in the first column: `npm run bench:steel -- point scheil`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternateRuns, beforeFigure, benchSelected, CalcProcess, runsFigure, type CalcRun } from './calc-process.js';
import { tdbDir } from './support.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUNS = Math.max(1, Number(process.env.BENCH_STEEL_RUNS ?? 5));
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-bench-steel-'));

const STEEL = ['FE', 'CR', 'NI', 'MO', 'C', 'MN', 'SI'];
const SS316L = { CR: 0.17, NI: 0.12, MO: 0.025, C: 0.0002, MN: 0.015, SI: 0.005 };
const mass = { pressure: 101325, composition_unit: 'mass_fraction' };

interface SteelTask {
  name: string;
  what: string;
  /** seconds and (when given) MB of peak resident set */
  goal: { s: number; mb?: number };
  database: string[];
  config: Record<string, unknown>;
}

const TASKS: SteelTask[] = [
  {
    name: 'point',
    what: 'point_calculation 316L at 1300 K',
    goal: { s: 0.3, mb: 200 },
    database: ['--db', 'MF_STEEL'],
    config: {
      task_type: 'point_calculation',
      condition: { components: STEEL, temperature: 1300, compositions: SS316L, ...mass },
    },
  },
  {
    name: 'line',
    what: 'line_calculation 316L 1900 -> 600 K, 131 points',
    goal: { s: 1.5, mb: 300 },
    database: ['--db', 'MF_STEEL'],
    config: {
      task_type: 'line_calculation',
      condition: {
        components: STEEL,
        temperature_start: 1900,
        temperature_end: 600,
        points: 131,
        compositions_start: SS316L,
        compositions_end: SS316L,
        ...mass,
      },
    },
  },
  {
    name: 'scheil',
    what: 'scheil_solidification 316L from 1781 K, 1 K steps',
    goal: { s: 3, mb: 300 },
    database: ['--db', 'MF_STEEL'],
    config: {
      task_type: 'scheil_solidification',
      condition: { components: STEEL, compositions: SS316L, start_temperature: 1781, temperature_step: 1, ...mass },
    },
  },
  {
    name: 'isopleth',
    what: 'isopleth Fe-13Cr-xC, 0-1 mass % C, 900-1800 K',
    goal: { s: 2, mb: 300 },
    database: ['--db', 'MF_STEEL'],
    config: {
      task_type: 'isopleth',
      condition: {
        components: ['FE', 'CR', 'C'],
        temperature_start: 900,
        temperature_end: 1800,
        composition_start: { CR: 0.13, C: 0 },
        composition_end: { CR: 0.13, C: 0.01 },
        ...mass,
      },
    },
  },
  {
    name: 'ternary',
    what: 'ternary_isothermal_section Fe-Cr-Ni 1073 K',
    goal: { s: 0.5, mb: 300 },
    database: ['--db', 'MF_STEEL'],
    config: {
      task_type: 'ternary_isothermal_section',
      condition: { components: ['FE', 'CR', 'NI'], temperature: 1073, pressure: 101325 },
    },
  },
  {
    name: 'solution',
    what: 'solution_treatment 316L from 900 K (window, solvus, incipient melting)',
    goal: { s: 3, mb: 300 },
    database: ['--db', 'MF_STEEL'],
    config: {
      task_type: 'solution_treatment',
      condition: { components: STEEL, compositions: SS316L, temperature_start: 900, ...mass },
    },
  },
  {
    name: 'solidify',
    what: 'solidification 316L with back diffusion (mf-mobility beside MF Steel), 10 K/s, from 1781 K, 1 K steps',
    goal: { s: 10 },
    database: ['--db', 'MF_STEEL', '--mobility-tdb', path.join(tdbDir(), 'mf-mobility.tdb')],
    config: {
      task_type: 'solidification',
      condition: {
        components: STEEL,
        compositions: SS316L,
        start_temperature: 1781,
        temperature_step: 1,
        cooling_rate: 10,
        secondary_arm_spacing: 50e-6,
        ...mass,
      },
    },
  },
  {
    name: 'alsolid',
    what: 'solidification COST507 7-component Al alloy with back diffusion (kawin Al-Mg-Si mobilities beside), 10 K/s',
    goal: { s: 5 },
    database: ['--tdb', path.join(tdbDir(), 'COST507.tdb'), '--mobility-tdb', path.join(tdbDir(), 'kawin_AlMgSi.tdb')],
    config: {
      task_type: 'solidification',
      tdb_code: 'COST507',
      condition: {
        components: ['AL', 'ZN', 'MG', 'CU', 'SI', 'FE', 'MN'],
        compositions: { ZN: 0.025, MG: 0.029, CU: 0.007, SI: 0.002, FE: 0.002, MN: 0.001 },
        start_temperature: 950,
        temperature_step: 1,
        cooling_rate: 10,
        pressure: 101325,
        composition_unit: 'mole_fraction',
      },
    },
  },
  {
    name: 'alloy7',
    what: 'scheil_solidification COST507 7-component Al alloy from 950 K, 1 K steps',
    goal: { s: 2 },
    database: ['--tdb', path.join(tdbDir(), 'COST507.tdb')],
    config: {
      task_type: 'scheil_solidification',
      tdb_code: 'COST507',
      condition: {
        components: ['AL', 'ZN', 'MG', 'CU', 'SI', 'FE', 'MN'],
        compositions: { ZN: 0.025, MG: 0.029, CU: 0.007, SI: 0.002, FE: 0.002, MN: 0.001 },
        start_temperature: 950,
        temperature_step: 1,
        pressure: 101325,
        composition_unit: 'mole_fraction',
      },
    },
  },
];

const calc = new CalcProcess(tmp);

/** One `phasedesk calc` of the task with the command line of `tree`. */
const runOnce = (tree: string, task: SteelTask): CalcRun =>
  calc.run(tree, task.name, { tdb_code: 'MF_STEEL', ...task.config }, task.database);

function benchTask(task: SteelTask, before: string | undefined): string[] {
  const { now, old } = alternateRuns(RUNS, ROOT, before, (tree) => runOnce(tree, task));
  const goal = `goal < ${task.goal.s} s${task.goal.mb ? `, < ${task.goal.mb} MB` : ''}`;
  const lines = [
    `${task.name.padEnd(9)} ${task.what}: ${runsFigure(now)}; ${goal}`,
    `          ${now.at(-1)!.summary}`,
  ];
  if (before) lines.push(`          ${beforeFigure(old, now)}`);
  return lines;
}

benchSelected(TASKS, { runs: RUNS, tmp, header: 'whole `phasedesk calc` processes' }, benchTask);
