// Benchmark part of `npm run bench:calc -- isopleth` (bench/calc.ts): wall time of isopleths through the whole task
// (grid, line tracing, result files and preview), on all cores, median of BENCH_ISOPLETH_REPEATS (default 3) runs
// after one warm-up run each (the database opened and its models built: what the 2nd and later tasks on it cost):
// the 4-component Al-4.4Cu-0.5Si-xMg (mass percent, Mg 0-2 %, COST507) and the three alloys of
// test/mapping/isopleth.test.ts at its resolution, goal < 10 s each; and (section pseudo-binary) two pseudo-binary
// sections (end_members) of test/calculations/pseudo-binary.test.ts, goal < 2 s each. Databases from $PHASEDESK_BENCH_TDB_DIR, else
// ../shared/tdb beside the repository.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../../worker/calculations/isopleth.js';
import { CONTROL_BYTES, JobControl, type TaskJob } from '../../worker/protocol.js';
import { median, tdbDir } from '../support.js';

const REPEATS = Number(process.env.BENCH_ISOPLETH_REPEATS ?? 3);

export const ISOPLETH_BENCH_CONDITION = {
  components: ['AL', 'CU', 'MG', 'SI'],
  temperature_start: 650,
  temperature_end: 950,
  pressure: 101325,
  composition_unit: 'mass_fraction' as const,
  composition_start: { CU: 0.044, SI: 0.005, MG: 0 },
  composition_end: { CU: 0.044, SI: 0.005, MG: 0.02 },
};

type Condition = TaskJob<'isopleth'>['config']['condition'];

const ISOPLETHS: { name: string; file: string; condition: Condition; goal?: number }[] = [
  {
    name: 'Al-4.4Cu-0.5Si-xMg (mass %, Mg 0-2 %), 650-950 K, default resolution',
    file: 'COST507.tdb',
    condition: ISOPLETH_BENCH_CONDITION,
  },
  {
    name: 'Al-4.4Cu-xMg (mass %, Mg 0-2 %), 650-950 K, resolution 7',
    file: 'COST507.tdb',
    condition: {
      components: ['AL', 'CU', 'MG'],
      temperature_start: 650,
      temperature_end: 950,
      pressure: 101325,
      composition_unit: 'mass_fraction',
      composition_start: { CU: 0.044, MG: 0 },
      composition_end: { CU: 0.044, MG: 0.02 },
      resolution: 7,
    },
  },
  {
    name: 'Ni-8Cr-xAl (x(AL) 0.05-0.21, alcrni), 1100-1800 K, resolution 7',
    file: 'alcrni.tdb',
    condition: {
      components: ['NI', 'AL', 'CR'],
      temperature_start: 1100,
      temperature_end: 1800,
      pressure: 101325,
      composition_start: { CR: 0.08, AL: 0.05 },
      composition_end: { CR: 0.08, AL: 0.21 },
      resolution: 7,
    },
  },
  {
    name: 'Fe-18Cr-xNi (x(NI) 0-0.12, Cr-Fe-Ni_shallow_bcc), 400-1000 K, resolution 7',
    file: 'Cr-Fe-Ni_shallow_bcc.tdb',
    condition: {
      components: ['FE', 'CR', 'NI'],
      temperature_start: 400,
      temperature_end: 1000,
      pressure: 101325,
      composition_start: { CR: 0.18, NI: 0 },
      composition_end: { CR: 0.18, NI: 0.12 },
      resolution: 7,
    },
  },
  // pseudo-binary sections (end_members, section pseudo-binary): goal < 2 s each
  {
    name: 'pseudo-binary Al2O3-ZrO2 (al2o3_nd2o3_zro2), 1850-3200 K, resolution 7',
    file: 'al2o3_nd2o3_zro2.tdb',
    condition: {
      components: ['AL', 'ZR', 'O'],
      temperature_start: 1850,
      temperature_end: 3200,
      pressure: 101325,
      end_members: { start: 'Al2O3', end: 'ZrO2' },
      resolution: 7,
    },
    goal: 2,
  },
  {
    name: 'pseudo-binary NiAl-Cr (alcrni), 1200-2200 K, resolution 7',
    file: 'alcrni.tdb',
    condition: {
      components: ['NI', 'AL', 'CR'],
      temperature_start: 1200,
      temperature_end: 2200,
      pressure: 101325,
      end_members: { start: 'NiAl', end: 'Cr' },
      resolution: 7,
    },
    goal: 2,
  },
];

function once(file: string, condition: Condition, threads: number): { s: number; out: ReturnType<typeof run> } {
  const dir = mkdtempSync(path.join(tmpdir(), 'phasedesk-bench-isopleth-'));
  try {
    const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
    const t0 = performance.now();
    const job: TaskJob<'isopleth'> = {
      taskUuid: 'bench',
      taskType: 'isopleth',
      ompThreads: threads,
      taskDir: dir,
      control: control.buffer,
      config: { task_type: 'isopleth', tdb_file: path.join(tdbDir(), file), condition },
    };
    const out = run(job, control);
    return { s: (performance.now() - t0) / 1000, out };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function benchIsopleth(): Promise<string[]> {
  return benchSections(
    ISOPLETHS.filter((i) => !i.goal),
    'isopleths',
  );
}

/** `npm run bench:calc -- pseudo-binary`: the pseudo-binary sections alone. */
export function benchPseudoBinary(): Promise<string[]> {
  return benchSections(
    ISOPLETHS.filter((i) => i.goal),
    'pseudo-binary sections',
  );
}

async function benchSections(list: typeof ISOPLETHS, what: string): Promise<string[]> {
  const threads = availableParallelism();
  const lines = [`${what}, ${threads} threads, median of ${REPEATS} after a warm-up run:`];
  for (const iso of list) {
    once(iso.file, iso.condition, threads);
    const runs = Array.from({ length: REPEATS }, () => once(iso.file, iso.condition, threads));
    const times = runs.map((r) => r.s);
    const last = runs[runs.length - 1]!.out;
    const goal = iso.goal ?? 10;
    lines.push(
      `  ${iso.name} (${iso.file}): ${median(times).toFixed(2)} s (min ${Math.min(...times).toFixed(2)} s, max ${Math.max(...times).toFixed(2)} s)` +
        `${median(times) < goal ? '' : `  OVER the ${goal} s goal`}: ${last.summary}`,
    );
    lines.push(...last.logs.filter((l) => /equilibria in/.test(l)).map((l) => `    ${l}`));
  }
  return lines;
}
