// Benchmark part of `npm run bench:calc` (bench/calc.ts calls benchDiagrams()): wall time, median of 5
// runs, of a full binary phase diagram (300-2000 K, whole composition range, every phase of the
// database) mapped by worker/mapping/binary.ts, for three databases, on all cores. The database is
// opened once before the runs (warm: what the 2nd and later tasks on a database cost); result files
// are not written (the mapping is what is timed). Goal: each < 0.5 s.
// Section `diagrams-all` (benchAllDiagrams): one diagram of every binary database in ../shared/tdb
// (exactly two elements besides VA and the electron), default phases, after one warm-up call per file.
// Databases are looked for in $PHASEDESK_BENCH_TDB_DIR, else ../shared/tdb beside the repository.
// PHASEDESK_BENCH_BEFORE_TREE=/path/of/an/older/checkout (its dist/ and native-core addon built): diagrams-all
// times every diagram with this checkout's code and with that one's in the same run, each in a child process
// of its own (bench/calc/diagram-child.ts, kept alive, database opened and warmed up once; both with this checkout's
// OpenMP wait policy, so that neither one's idle threads spin on a core while the other is timed), the two alternately
// and in alternating order, PHASEDESK_BENCH_REPEATS times (default 3), a diagram of a few milliseconds more often
// (until each checkout's runs of it add up to a second, at most 51 times: one run of such a diagram varies by
// tens of percent with what else the machine does), and prints per diagram the median of both, and the ratio
// now / before. PHASEDESK_BENCH_DIAGRAMS=a,b (substrings of file names) limits
// diagrams-all (and diagrams-work) to those databases.
// Section `diagrams-work` (benchDiagramsWork, run only when named): the instructions one diagram executes, counted
// by valgrind (callgrind; `valgrind` on the PATH), for this checkout and, with PHASEDESK_BENCH_BEFORE_TREE, the older
// one: a count does not move with what else the machine does, where the times of a diagram of a few milliseconds
// move by tens of percent. Each count is the difference of two child processes (diagram-child.ts --count), one
// mapping the diagram PHASEDESK_BENCH_WORK_RUNS times (default 2; more, up to 20, until the runs add up to 1e9
// instructions) after two warm-ups and one mapping the warm-ups only, divided by the runs. One thread: valgrind runs a program's threads one at a time, so the count with two
// would add the hand-overs between them to the work. Under valgrind a diagram runs some 50 times slower than
// natively (Al-Fe_sundman2009: several minutes per run). The count of the whole process includes the JavaScript
// engine's collections and compilations, which move a small diagram's count by several percent from one process
// to the next; PHASEDESK_BENCH_WORK_SCOPE=solver counts only what runs inside the native solver's
// EquilibriumSolver::solve_impl (every equilibrium, without the mapper's JavaScript), the same from run to run.
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DiagramAnswer, DiagramRequest } from './diagram-child.js';
import { openDatabase } from '../../worker/core/database.js';
import { mapBinary } from '../../worker/mapping/binary.js';
import { tdbDir, median } from '../support.js';
import { SERVICE_OMP_WAIT_POLICY } from '../../worker/core/native.js';

const REPEATS = 5;
/** diagrams-all against an older checkout: short diagrams are run until each side's runs add up to this (s) ... */
const MIN_TIMED_SECONDS = 1;
/** ... at most this many times */
const MAX_REPEATS = 51;

const SETUPS: { file: string; components: [string, string] }[] = [
  { file: 'alzn_mey.tdb', components: ['AL', 'ZN'] },
  { file: 'pbsn.tdb', components: ['PB', 'SN'] },
  { file: 'cumg.tdb', components: ['CU', 'MG'] },
];

export async function benchDiagrams(): Promise<string[]> {
  const threads = availableParallelism();
  const lines: string[] = [
    `binary phase diagrams, 300-2000 K, X 0-1, ${threads} threads, median of ${REPEATS} (goal < 0.5 s each):`,
  ];
  for (const s of SETUPS) {
    const db = openDatabase(path.join(tdbDir(), s.file));
    const times: number[] = [];
    let last = null as ReturnType<typeof mapBinary> | null;
    for (let i = 0; i < REPEATS; i++) {
      const t0 = performance.now();
      last = mapBinary({ database: db, components: s.components, T: [300, 2000], threads });
      times.push((performance.now() - t0) / 1000);
    }
    const d = last!;
    lines.push(
      `  ${s.file.padEnd(14)} ${s.components.join('-').padEnd(6)} ${median(times).toFixed(3)} s  ` +
        `(${d.stats.equilibria} equilibria, ${d.regions.length} two-phase regions, ${d.invariants.length} invariants, ` +
        `min ${Math.min(...times).toFixed(3)} s, max ${Math.max(...times).toFixed(3)} s)`,
    );
  }
  return lines;
}

/** The binary databases of the shared folder (exactly two elements besides VA and the electron), optionally filtered. */
function allBinaries(dir: string): { file: string; components: [string, string] }[] {
  const only = (process.env.PHASEDESK_BENCH_DIAGRAMS ?? '')
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
  const out: { file: string; components: [string, string] }[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith('.tdb'))
    .sort()) {
    if (only.length && !only.some((w) => file.toLowerCase().includes(w))) continue;
    let db;
    try {
      db = openDatabase(path.join(dir, file));
    } catch {
      continue;
    }
    const els = db
      .info()
      .elements.map((e) => e.name.toUpperCase())
      .filter((n) => n !== 'VA' && n !== '/-');
    if (els.length !== 2) continue;
    out.push({ file, components: [els[0]!, els[1]!] });
  }
  return out;
}

export async function benchAllDiagrams(): Promise<string[]> {
  if (process.env.PHASEDESK_BENCH_BEFORE_TREE) return benchAllDiagramsAgainst(process.env.PHASEDESK_BENCH_BEFORE_TREE);
  const threads = availableParallelism();
  const dir = tdbDir();
  const lines: string[] = [
    `every binary database of ${dir}, 300-2000 K, X 0-1, ${threads} threads, one run each after a warm-up point:`,
  ];
  const times: number[] = [];
  for (const { file, components } of allBinaries(dir)) {
    const db = openDatabase(path.join(dir, file));
    // warm-up: models and the sampled grid are built once per database (what a second task costs)
    mapBinary({ database: db, components, T: [1000, 1010], X: [0.4, 0.6], threads: 1 });
    const t0 = performance.now();
    const d = mapBinary({ database: db, components, T: [300, 2000], threads });
    const s = (performance.now() - t0) / 1000;
    times.push(s);
    lines.push(
      `  ${file.padEnd(40)} ${components.join('-').padEnd(6)} ${s.toFixed(3)} s  (${d.stats.equilibria} equilibria, ` +
        `${d.stats.notConverged} not converged, ${d.regions.length} regions, ${d.invariants.length} invariants)`,
    );
  }
  const under = times.filter((t) => t < 0.5).length;
  lines.push(
    `  ${times.length} diagrams, median ${median(times).toFixed(3)} s, max ${Math.max(...times).toFixed(3)} s, ` +
      `${under}/${times.length} under 0.5 s`,
  );
  return lines;
}

/** A child process mapping diagrams with one checkout's code (diagram-child.ts), one request at a time. */
class DiagramChild {
  private readonly proc: ChildProcess;
  private readonly ready: Promise<void>;
  private pending: ((a: DiagramAnswer) => void) | null = null;

  constructor(readonly tree: string) {
    const env = { ...process.env };
    delete env.PHASEDESK_CORE_ADDON; // each checkout loads its own addon
    // Both checkouts with the OpenMP wait policy of this one's service (sleeping waiters unless the caller set one):
    // a checkout that leaves its waiters spinning keeps a core busy after each of its diagrams, and the other
    // checkout's diagram, timed next, then runs its two threads on one core (spinel_gas_zr_o 6 ms instead of 4).
    env.OMP_WAIT_POLICY ??= SERVICE_OMP_WAIT_POLICY;
    this.proc = fork(fileURLToPath(new URL('./diagram-child.js', import.meta.url)), [tree], {
      env,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.ready = new Promise((resolve, reject) => {
      this.proc.once('message', () => resolve());
      this.proc.once('exit', (code) => reject(new Error(`diagram child for ${tree} exited with ${code}`)));
    });
    this.proc.on('message', (m: DiagramAnswer) => {
      const p = this.pending;
      this.pending = null;
      p?.(m);
    });
  }

  async map(q: DiagramRequest): Promise<DiagramAnswer> {
    await this.ready;
    return new Promise((resolve) => {
      this.pending = resolve;
      this.proc.send(q);
    });
  }

  close(): void {
    this.proc.kill();
  }
}

/** diagrams-all for this checkout and an older one, timed alternately in child processes (see the header). */
async function benchAllDiagramsAgainst(beforeTree: string): Promise<string[]> {
  const threads = availableParallelism();
  const repeats = Math.max(1, Math.floor(Number(process.env.PHASEDESK_BENCH_REPEATS ?? 3)) || 3);
  const dir = tdbDir();
  const thisTree = fileURLToPath(new URL('../../../', import.meta.url));
  const now = new DiagramChild(thisTree),
    before = new DiagramChild(path.resolve(beforeTree));
  const lines: string[] = [
    `every binary database of ${dir}, 300-2000 K, X 0-1, ${threads} threads, median of ${repeats} runs ` +
      `(diagrams under ${MIN_TIMED_SECONDS / repeats} s: until each side has run for ${MIN_TIMED_SECONDS} s, at most ${MAX_REPEATS} runs) ` +
      `after a warm-up diagram, this checkout against ${path.resolve(beforeTree)} (before), timed alternately:`,
  ];
  const ratios: number[] = [];
  let sumNow = 0,
    sumBefore = 0;
  try {
    for (const { file, components } of allBinaries(dir)) {
      const q: DiagramRequest = { file: path.join(dir, file), components, threads };
      const tNow: number[] = [],
        tBefore: number[] = [];
      let aNow: DiagramAnswer | null = null,
        aBefore: DiagramAnswer | null = null;
      const total = (t: number[]) => t.reduce((a, b) => a + b, 0);
      for (
        let r = 0;
        r < repeats || (r < MAX_REPEATS && Math.min(total(tNow), total(tBefore)) < MIN_TIMED_SECONDS);
        r++
      ) {
        for (const child of r % 2 === 0 ? [now, before] : [before, now]) {
          const a = await child.map(q);
          if (child === now) {
            aNow = a;
            tNow.push(a.seconds);
          } else {
            aBefore = a;
            tBefore.push(a.seconds);
          }
        }
      }
      const mNow = median(tNow),
        mBefore = median(tBefore);
      const failed = [aNow?.error && `now: ${aNow.error}`, aBefore?.error && `before: ${aBefore.error}`]
        .filter(Boolean)
        .join('; ');
      if (Number.isFinite(mNow) && Number.isFinite(mBefore)) {
        ratios.push(mNow / mBefore);
        sumNow += mNow;
        sumBefore += mBefore;
      }
      lines.push(
        `  ${file.padEnd(40)} ${components.join('-').padEnd(6)} now ${mNow.toFixed(3)} s  before ${mBefore.toFixed(3)} s  ` +
          `ratio ${(mNow / mBefore).toFixed(2)}  (${tNow.length} runs; equilibria ${aNow?.equilibria ?? '-'} / ${aBefore?.equilibria ?? '-'}` +
          `${failed ? `; failed: ${failed}` : ''})`,
      );
    }
  } finally {
    now.close();
    before.close();
  }
  lines.push(
    `  ${ratios.length} diagrams, total now ${sumNow.toFixed(2)} s, before ${sumBefore.toFixed(2)} s, ` +
      `median ratio ${ratios.length ? median(ratios).toFixed(2) : '-'}, max ratio ${ratios.length ? Math.max(...ratios).toFixed(2) : '-'}`,
  );
  return lines;
}

/** diagrams-work: the counted runs of a diagram add up to at least this many instructions ... */
const MIN_COUNTED = 1e9;
/** ... with at most this many runs */
const MAX_COUNTED_RUNS = 20;

/** Instructions (callgrind's count) per diagram, of `runs` or more diagrams of one database with one checkout's code, one thread. */
function diagramInstructions(
  tree: string,
  file: string,
  components: [string, string],
  runs: number,
  solverOnly: boolean,
): number {
  const child = fileURLToPath(new URL('./diagram-child.js', import.meta.url));
  const env = { ...process.env };
  delete env.PHASEDESK_CORE_ADDON; // each checkout loads its own addon
  // solve_impl, the one solve of a condition (once, or once per retry), never runs inside itself: callgrind toggles
  // collection at each entry and exit of a matching function, so a pattern matching nested calls (solve(c) calling
  // solve(c, start, end)) counts none of the inner one's work
  const scope = solverOnly
    ? ['--collect-atstart=no', '--toggle-collect=pd::solver::EquilibriumSolver::solve_impl(*']
    : [];
  const count = (n: number): number => {
    const r = spawnSync(
      'valgrind',
      [
        '--tool=callgrind',
        '--callgrind-out-file=/dev/null',
        ...scope,
        process.execPath,
        child,
        tree,
        '--count',
        file,
        components.join(','),
        String(n),
        '1',
      ],
      { env, encoding: 'utf8', maxBuffer: 1 << 26 },
    );
    if (r.error)
      throw new Error(`valgrind could not be started (${r.error.message}); diagrams-work needs it on the PATH`);
    const m = /Collected\s*:\s*(\d+)/.exec(r.stderr ?? '');
    if (r.status !== 0 || !m)
      throw new Error(`counting ${path.basename(file)} with ${tree} failed: ${(r.stderr ?? '').slice(-400)}`);
    return Number(m[1]);
  };
  const base = count(0);
  const per = (count(runs) - base) / runs;
  // a diagram of a few million instructions is repeated until the counted runs add up to MIN_COUNTED: the
  // collections and compilations of the JavaScript engine fall into one run or another
  const enough = Math.min(MAX_COUNTED_RUNS, Math.ceil(MIN_COUNTED / Math.max(per, 1)));
  return enough > runs ? (count(enough) - base) / enough : per;
}

/** diagrams-work: instructions per diagram, this checkout and optionally an older one (see the header). */
export async function benchDiagramsWork(): Promise<string[]> {
  const runs = Math.max(1, Math.floor(Number(process.env.PHASEDESK_BENCH_WORK_RUNS ?? 2)) || 2);
  const beforeTree = process.env.PHASEDESK_BENCH_BEFORE_TREE
    ? path.resolve(process.env.PHASEDESK_BENCH_BEFORE_TREE)
    : null;
  const dir = tdbDir();
  const thisTree = fileURLToPath(new URL('../../../', import.meta.url));
  const solverOnly = process.env.PHASEDESK_BENCH_WORK_SCOPE === 'solver';
  const lines: string[] = [
    `instructions per diagram (callgrind, ${solverOnly ? 'inside the native solver only' : 'whole process'}, ` +
      `one thread, mean of ${runs} or more runs after two warm-ups), every binary ` +
      `database of ${dir}, 300-2000 K, X 0-1${beforeTree ? `, this checkout against ${beforeTree} (before)` : ''}:`,
  ];
  const ratios: number[] = [];
  let sumNow = 0,
    sumBefore = 0,
    count = 0;
  for (const { file, components } of allBinaries(dir)) {
    const full = path.join(dir, file);
    const now = diagramInstructions(thisTree, full, components, runs, solverOnly);
    sumNow += now;
    count++;
    let tail = '';
    if (beforeTree) {
      const before = diagramInstructions(beforeTree, full, components, runs, solverOnly);
      sumBefore += before;
      ratios.push(now / before);
      tail = `  before ${(before / 1e6).toFixed(1)} M  ratio ${(now / before).toFixed(3)}`;
    }
    lines.push(`  ${file.padEnd(40)} ${components.join('-').padEnd(6)} now ${(now / 1e6).toFixed(1)} M${tail}`);
  }
  lines.push(
    `  ${count} diagrams, total now ${(sumNow / 1e9).toFixed(3)} G` +
      (beforeTree
        ? `, before ${(sumBefore / 1e9).toFixed(3)} G, median ratio ${ratios.length ? median(ratios).toFixed(3) : '-'}, ` +
          `max ratio ${ratios.length ? Math.max(...ratios).toFixed(3) : '-'}`
        : ''),
  );
  return lines;
}
