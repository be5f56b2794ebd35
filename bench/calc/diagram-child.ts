// Child process of bench/calc/diagrams.ts (diagrams-all with PHASEDESK_BENCH_BEFORE_TREE): maps binary
// diagrams with the code of one checkout, the one named by argv[2] (its dist/ and its native-core addon), so
// that two checkouts are timed in one run, one request at a time. Each request (an IPC message
// { file, components, threads }) is answered with the wall time of mapBinary and the diagram's counts; the
// database stays open and is warmed up with one small diagram when it is first named (what a second task on
// it costs), as the bench does in-process.
// With `--count FILE A,B RUNS THREADS` instead (diagrams-work, run under valgrind): maps the diagram twice to warm
// up, then RUNS more times, and exits; the difference of two such runs' instruction counts is the work of RUNS
// diagrams.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface DiagramRequest {
  file: string;
  components: [string, string];
  threads: number;
}
export interface DiagramAnswer {
  seconds: number;
  equilibria: number;
  notConverged: number;
  regions: number;
  invariants: number;
  error?: string;
}

type Database = unknown;
interface MapperModules {
  openDatabase: (file: string) => Database;
  mapBinary: (req: Record<string, unknown>) => {
    stats: { equilibria: number; notConverged: number };
    regions: unknown[];
    invariants: unknown[];
  };
}

async function load(tree: string): Promise<MapperModules> {
  const mod = async (rel: string) => import(pathToFileURL(path.join(tree, 'dist', rel)).href);
  const database = await mod('worker/core/database.js');
  const binary = await mod('worker/mapping/binary.js');
  return { openDatabase: database.openDatabase, mapBinary: binary.mapBinary };
}

/** The `--count` mode: the warm-ups and `runs` diagrams of one database, nothing timed or sent. */
function mapForCount(m: MapperModules, file: string, components: string[], runs: number, threads: number): void {
  const db = m.openDatabase(file);
  m.mapBinary({ database: db, components, T: [1000, 1010], X: [0.4, 0.6], threads: 1 });
  for (let r = 0; r < 2 + runs; r++) m.mapBinary({ database: db, components, T: [300, 2000], threads });
}

async function main(): Promise<void> {
  const tree = path.resolve(process.argv[2] ?? '.');
  const m = await load(tree);
  if (process.argv[3] === '--count') {
    const [file, components, runs, threads] = process.argv.slice(4);
    mapForCount(m, file!, components!.split(','), Number(runs), Number(threads));
    return;
  }
  const open = new Map<string, Database>();
  process.on('message', (q: DiagramRequest) => {
    let answer: DiagramAnswer;
    try {
      let db = open.get(q.file);
      if (!db) {
        db = m.openDatabase(q.file);
        open.set(q.file, db);
        m.mapBinary({ database: db, components: q.components, T: [1000, 1010], X: [0.4, 0.6], threads: 1 });
      }
      const t0 = performance.now();
      const d = m.mapBinary({ database: db, components: q.components, T: [300, 2000], threads: q.threads });
      answer = {
        seconds: (performance.now() - t0) / 1000,
        equilibria: d.stats.equilibria,
        notConverged: d.stats.notConverged,
        regions: d.regions.length,
        invariants: d.invariants.length,
      };
    } catch (e) {
      answer = { seconds: NaN, equilibria: 0, notConverged: 0, regions: 0, invariants: 0, error: (e as Error).message };
    }
    process.send!(answer);
  });
  process.send!({ ready: true });
}

main().catch((e: unknown) => {
  console.error((e as Error).message);
  process.exit(1);
});
