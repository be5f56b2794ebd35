// Result files of a fixed corpus of calculations, as sha256 per file, to prove that a change of code that must not
// change any answer (a refactoring, a speed-up) leaves every result byte-identical. The corpus: one binary diagram
// of every binary database in ../shared/tdb (the diagrams-all bench: 300-2000 K, whole composition range), and a
// configuration or several of every other task type on the databases the benches use (ternary sections of ten
// systems, isopleths of three and four components, lines, properties, Scheil of a 7-component alloy, Gibbs curves,
// a C-P-T grid). What changes from run to run by design is left out before hashing: the creation time of
// provenance, wall times in statistics, and "in N s" in texts.
//
//   npm run build && node dist/scripts/result-snapshot.js --out before.json [--only SUBSTRING] [--threads N, default 1]
//   node dist/scripts/result-snapshot.js --out after.json --compare before.json
//
// --keep DIR keeps the result files (one folder per case, numbered in corpus order). --compare prints each case and file whose hash differs and exits 1 if any does.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { parseArgs } from 'node:util';
import { TASK_REGISTRY, type TaskType } from '../contract/tasks/registry.js';
import { openDatabase } from '../worker/core/database.js';
import { loadCalculation } from '../worker/index.js';
import { CONTROL_BYTES, JobControl } from '../worker/protocol.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const TDB_DIR = process.env.PHASEDESK_BENCH_TDB_DIR ?? path.resolve(ROOT, '..', 'shared', 'tdb');
const P = 101325;

export interface SnapshotCase {
  name: string;
  tdb: string;
  config: Record<string, unknown> & { task_type: TaskType };
}

function binaryDatabases(): { file: string; components: [string, string] }[] {
  const out: { file: string; components: [string, string] }[] = [];
  for (const file of readdirSync(TDB_DIR)
    .filter((f) => f.toLowerCase().endsWith('.tdb'))
    .sort()) {
    let elements: string[];
    try {
      elements = openDatabase(path.join(TDB_DIR, file))
        .info()
        .elements.map((e) => e.name.toUpperCase())
        .filter((n) => n !== 'VA' && n !== '/-');
    } catch {
      continue;
    }
    if (elements.length === 2) out.push({ file, components: [elements[0]!, elements[1]!] });
  }
  return out;
}

const TERNARIES: [string, [string, string, string], number[]][] = [
  ['crtiv_ghosh.tdb', ['CR', 'TI', 'V'], [1000, 1400]],
  ['Cr-Fe-Ni_shallow_bcc.tdb', ['CR', 'FE', 'NI'], [600, 800]],
  ['alcrni.tdb', ['AL', 'CR', 'NI'], [1273, 1473]],
  ['COST507.tdb', ['AL', 'CU', 'MG'], [700, 800]],
  ['COST507.tdb', ['AL', 'MG', 'SI'], [700, 800]],
  ['sl_chen.tdb', ['A', 'B', 'C'], [500, 700]],
  ['alcocrni.tdb', ['CO', 'CR', 'NI'], [1273, 1473]],
  ['CrFeNb_Jacob2016.tdb', ['CR', 'FE', 'NB'], [1273, 1473]],
  ['alnipt.tdb', ['AL', 'NI', 'PT'], [1273, 1473]],
  ['alfeo.tdb', ['AL', 'FE', 'O'], [1273, 1473]],
];

const ALLOY7 = ['AL', 'ZN', 'MG', 'CU', 'SI', 'FE', 'MN'];
const ALLOY7_X = { ZN: 0.025, MG: 0.029, CU: 0.007, SI: 0.002, FE: 0.002, MN: 0.001 };

function otherCases(): SnapshotCase[] {
  const c = (name: string, tdb: string, task_type: TaskType, condition: Record<string, unknown>): SnapshotCase => ({
    name,
    tdb,
    config: { task_type, condition },
  });
  const cases: SnapshotCase[] = [
    c('point Al-30Zn 700 K', 'alzn_mey.tdb', 'point_calculation', {
      components: ['AL', 'ZN'],
      temperature: 700,
      pressure: P,
      compositions: { ZN: 0.3 },
    }),
    c('point alloy7 900 K', 'COST507.tdb', 'point_calculation', {
      components: ALLOY7,
      temperature: 900,
      pressure: P,
      compositions: ALLOY7_X,
    }),
    c('point Ni-Al-Co-Cr 1523 K', 'alcocrni.tdb', 'point_calculation', {
      components: ['NI', 'AL', 'CO', 'CR'],
      temperature: 1523,
      pressure: P,
      compositions: { AL: 0.1, CO: 0.1, CR: 0.1 },
    }),
    c('line Al-40Zn', 'alzn_mey.tdb', 'line_calculation', {
      components: ['AL', 'ZN'],
      temperature_start: 300,
      temperature_end: 1290,
      pressure: P,
      points: 200,
      compositions_start: { ZN: 0.4 },
      compositions_end: { ZN: 0.4 },
    }),
    c('line Cr-Ti-V', 'crtiv_ghosh.tdb', 'line_calculation', {
      components: ['CR', 'TI', 'V'],
      temperature_start: 800,
      temperature_end: 2000,
      pressure: P,
      points: 200,
      compositions_start: { TI: 0.3, V: 0.3 },
      compositions_end: { TI: 0.3, V: 0.3 },
    }),
    c('line alloy7', 'COST507.tdb', 'line_calculation', {
      components: ALLOY7,
      temperature_start: 950,
      temperature_end: 550,
      pressure: P,
      points: 60,
      compositions_start: ALLOY7_X,
      compositions_end: ALLOY7_X,
    }),
    c('properties Al-30Zn', 'alzn_mey.tdb', 'thermodynamic_properties_next', {
      components: ['AL', 'ZN'],
      temperature_start: 300,
      temperature_end: 1000,
      pressure: P,
      points: 200,
      compositions_start: { ZN: 0.3 },
      compositions_end: { ZN: 0.3 },
    }),
    c('properties A-25B-10C', 'sl_chen.tdb', 'thermodynamic_properties_next', {
      components: ['A', 'B', 'C'],
      temperature_start: 500,
      temperature_end: 900,
      pressure: P,
      points: 200,
      compositions_start: { B: 0.25, C: 0.1 },
      compositions_end: { B: 0.25, C: 0.1 },
    }),
    c('scheil Al-30Zn', 'alzn_mey.tdb', 'scheil_solidification', {
      components: ['AL', 'ZN'],
      compositions: { AL: 0.7, ZN: 0.3 },
      start_temperature: 1000,
      temperature_step: 1,
      pressure: P,
    }),
    c('scheil A-25B-10C', 'sl_chen.tdb', 'scheil_solidification', {
      components: ['A', 'B', 'C'],
      compositions: { A: 0.65, B: 0.25, C: 0.1 },
      start_temperature: 900,
      temperature_step: 1,
      pressure: P,
    }),
    c('scheil alloy7', 'COST507.tdb', 'scheil_solidification', {
      components: ALLOY7,
      compositions: { AL: 1 - Object.values(ALLOY7_X).reduce((a, b) => a + b, 0), ...ALLOY7_X },
      start_temperature: 950,
      temperature_step: 2,
      pressure: P,
    }),
    c('gibbs Al-Zn 600 K', 'alzn_mey.tdb', 'gibbs_energy_curves', {
      components: ['AL', 'ZN'],
      temperature: 600,
      pressure: P,
      points: 51,
      compositions_start: { ZN: 0 },
      compositions_end: { ZN: 1 },
    }),
    c('isopleth Al-4.4Cu-0.5Si-xMg', 'COST507.tdb', 'isopleth', {
      components: ['AL', 'CU', 'MG', 'SI'],
      temperature_start: 650,
      temperature_end: 950,
      pressure: P,
      composition_unit: 'mass_fraction',
      composition_start: { CU: 0.044, SI: 0.005, MG: 0 },
      composition_end: { CU: 0.044, SI: 0.005, MG: 0.02 },
    }),
    c('isopleth Ni-8Cr-xAl', 'alcrni.tdb', 'isopleth', {
      components: ['NI', 'AL', 'CR'],
      temperature_start: 1100,
      temperature_end: 1800,
      pressure: P,
      composition_start: { CR: 0.08, AL: 0.05 },
      composition_end: { CR: 0.08, AL: 0.21 },
      resolution: 7,
    }),
    c('isopleth Fe-18Cr-xNi', 'Cr-Fe-Ni_shallow_bcc.tdb', 'isopleth', {
      components: ['FE', 'CR', 'NI'],
      temperature_start: 400,
      temperature_end: 1000,
      pressure: P,
      composition_start: { CR: 0.18, NI: 0 },
      composition_end: { CR: 0.18, NI: 0.12 },
      resolution: 7,
    }),
    c('cpt Al-Zn', 'alzn_mey.tdb', 'binary_cpt_diagram', {
      components: ['AL', 'ZN'],
      x_component: 'ZN',
      composition_start: 0,
      composition_end: 1,
      composition_step: 0.05,
      temperature_start: 400,
      temperature_end: 900,
      temperature_step: 20,
      pressure_start: 1e5,
      pressure_end: 1e9,
      pressure_points: 4,
      pressure_scale: 'log',
    }),
  ];
  for (const [tdb, components, temperatures] of TERNARIES) {
    for (const T of temperatures) {
      cases.push(
        c(`ternary ${components.join('-')} ${T} K`, tdb, 'ternary_isothermal_section', {
          components,
          temperature: T,
          pressure: P,
        }),
      );
    }
  }
  return cases;
}

export function snapshotCorpus(): SnapshotCase[] {
  const binaries = binaryDatabases().map(({ file, components }): SnapshotCase => ({
    name: `binary ${file}`,
    tdb: file,
    config: {
      task_type: 'binary_equilibrium',
      condition: {
        components,
        compositions_start: { [components[1]]: 0 },
        compositions_end: { [components[1]]: 1 },
        temperature_start: 300,
        temperature_end: 2000,
        pressure: P,
      },
    },
  }));
  return [...binaries, ...otherCases()];
}

const VOLATILE_KEYS = /^(created_at|wall_time_s|seconds|grid_seconds|gridSeconds|seedSeconds|ms|elapsed_s)$/;

function stripVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripVolatile);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!VOLATILE_KEYS.test(k)) out[k] = stripVolatile(v);
    return out;
  }
  if (typeof value === 'string') return value.replace(/\bin \d+(\.\d+)? (s|ms)\b/g, 'in <t> $2');
  return value;
}

function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

const NUMBER = /-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi;

/** Two texts equal but for numbers that agree to 1e-9 relative or 1e-10 absolute (rounding noise). */
export function nearlyEqualTexts(a: string, b: string): boolean {
  const words = (t: string) => t.split(NUMBER);
  if (words(a).join('\u0000') !== words(b).join('\u0000')) return false;
  const x = a.match(NUMBER) ?? [];
  const y = b.match(NUMBER) ?? [];
  return (
    x.length === y.length &&
    x.every((v, i) => {
      const p = Number(v);
      const q = Number(y[i]);
      return Math.abs(p - q) <= Math.max(1e-10, 1e-9 * Math.max(Math.abs(p), Math.abs(q)));
    })
  );
}

interface Hashed {
  hashes: Record<string, string>;
  /** the normalized text of every text file, for the numeric comparison */
  texts: Record<string, string>;
}

/** sha256 of every file under dir (of each entry of a zip), and the normalized text of each text file. */
function fileHashes(dir: string): Hashed {
  const out: Hashed = { hashes: {}, texts: {} };
  const walk = (rel: string): void => {
    for (const entry of readdirSync(path.join(dir, rel)).sort()) {
      const r = path.join(rel, entry);
      const full = path.join(dir, r);
      if (statSync(full).isDirectory()) walk(r);
      else if (/\.(json|svg|csv|txt)$/.test(entry)) {
        const text = readFileSync(full, 'utf8');
        const normal = entry.endsWith('.json')
          ? JSON.stringify(stripVolatile(JSON.parse(text)), null, 1)
          : String(stripVolatile(text));
        out.hashes[r] = sha256(normal);
        out.texts[r] = normal;
      } else if (entry.endsWith('.zip')) {
        // a zip's entries carry their write times: hash what they hold
        for (const [name, bytes] of Object.entries(unzipSync(readFileSync(full))).sort(([a], [b]) =>
          a.localeCompare(b),
        ))
          out.hashes[`${r}:${name}`] = sha256(Buffer.from(bytes));
      } else out.hashes[r] = sha256(readFileSync(full));
    }
  };
  walk('');
  return out;
}

async function runCase(c: SnapshotCase, dir: string, threads: number): Promise<Hashed> {
  const type = c.config.task_type;
  const config = TASK_REGISTRY[type].schema.parse({ tdb_code: 'SNAPSHOT', ...c.config });
  const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
  const run = (await loadCalculation(type))!;
  const job = {
    taskUuid: 'snapshot',
    taskType: type,
    config: { ...config, tdb_file: path.join(TDB_DIR, c.tdb) },
    ompThreads: threads,
    taskDir: dir,
    control: control.buffer,
  };
  try {
    const out = await run(job, control);
    const hashed = fileHashes(dir);
    const texts = JSON.stringify({ summary: out.summary, logs: out.logs }, null, 1)
      .replace(/\d+(\.\d+)? m?s\b/g, '<t> s')
      .replace(/\(\d+ per s\)/g, '(<rate>)');
    hashed.hashes['(summary)'] = sha256(texts);
    hashed.texts['(summary)'] = texts;
    return hashed;
  } catch (e) {
    return { hashes: { '(error)': (e as Error).message }, texts: {} };
  }
}

/** The `--case NAME --dir DIR` mode: one case in this process, its hashes and texts as JSON on stdout. */
async function runChild(name: string, dir: string, threads: number): Promise<number> {
  const c = snapshotCorpus().find((k) => k.name === name);
  if (!c) throw new Error(`no case '${name}'`);
  const text = JSON.stringify(await runCase(c, dir, threads));
  // a pipe takes large writes asynchronously: exit only once all of it is out
  await new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));
  return 0;
}

/**
 * Each case runs in a process of its own: the solvers a process keeps per thread start warm from the states of
 * earlier calculations, so the same case can end in the same state with its phases listed in another order
 * after other cases than when alone.
 */
function caseInChild(name: string, dir: string, threads: number): Hashed {
  const out = execFileSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--case', name, '--dir', dir, '--threads', String(threads)],
    { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return JSON.parse(out) as Hashed;
}

type Manifest = Record<string, Hashed>;

/** Prints every file that differs; returns the counts of files that differ and of those equal but for rounding. */
function compareManifests(now: Manifest, before: Manifest): { differ: number; near: number } {
  let differ = 0;
  let near = 0;
  for (const [name, { hashes, texts }] of Object.entries(now)) {
    const old = before[name];
    if (!old) {
      console.log(`new case: ${name}`);
      continue;
    }
    for (const f of new Set([...Object.keys(hashes), ...Object.keys(old.hashes)])) {
      if (hashes[f] === old.hashes[f]) continue;
      const a = texts[f];
      const b = old.texts[f];
      // a PNG is drawn from its SVG: it follows the SVG's verdict
      const svg = f.replace(/\.png$/, '.svg');
      const svgNear =
        f.endsWith('.png') &&
        texts[svg] !== undefined &&
        old.texts[svg] !== undefined &&
        nearlyEqualTexts(texts[svg]!, old.texts[svg]!);
      if ((a !== undefined && b !== undefined && nearlyEqualTexts(a, b)) || svgNear) {
        near += 1;
        console.log(`equal but for rounding (1e-9): ${name} ${f}`);
      } else {
        differ += 1;
        console.log(`DIFFERS ${name} ${f}`);
      }
    }
  }
  return { differ, near };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      compare: { type: 'string' },
      only: { type: 'string' },
      threads: { type: 'string', default: '1' },
      keep: { type: 'string' },
      case: { type: 'string' },
      dir: { type: 'string' },
    },
  });
  if (values.case !== undefined) return runChild(values.case, values.dir!, Number(values.threads));
  if (!values.out) throw new Error('--out FILE is required');
  const cases = snapshotCorpus().filter((c) => !values.only || c.name.includes(values.only));
  const manifest: Manifest = {};
  const scratch = values.keep ?? mkdtempSync(path.join(tmpdir(), 'phasedesk-snapshot-'));
  try {
    for (const [i, c] of cases.entries()) {
      const t0 = performance.now();
      manifest[c.name] = caseInChild(c.name, path.join(scratch, String(i)), Number(values.threads));
      const files = Object.keys(manifest[c.name]!.hashes).length;
      console.log(`${c.name}: ${files} files, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
  } finally {
    if (!values.keep) rmSync(scratch, { recursive: true, force: true });
  }
  writeFileSync(values.out, JSON.stringify(manifest));
  if (!values.compare) return 0;
  const before = JSON.parse(readFileSync(values.compare, 'utf8')) as Manifest;
  const { differ, near } = compareManifests(manifest, before);
  const total = Object.keys(manifest).length;
  console.log(
    differ
      ? `${differ} file(s) differ, ${near} equal but for rounding`
      : `all ${total} cases agree: ${near} file(s) equal but for rounding (1e-9), the rest byte-identical`,
  );
  return differ ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error((e as Error).message);
      process.exit(1);
    },
  );
}
