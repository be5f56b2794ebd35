// `npm run audit:answers [-- NAME-SUBSTRING ...]`: do this addon's answers equal an earlier build's? With
// PHASEDESK_BENCH_BEFORE=path/to/phasedesk_core.node (an addon built from an earlier revision), every database of
// ../shared/tdb (tdbDir()) and of databases/catalog.json is opened with both addons, one system of it is chosen (below),
// and the same random points are solved with both, each from the cold start (the convex hull of the sampled grid; the
// phase models and grids are built once per database and addon, as a worker keeps them). A point agrees when both
// converged and |GM(this) - GM(before)| <= 1e-6 J/mol; it is lower and certified when this addon's GM is lower by more
// and its answer converged (converged means certified: the solver re-scans its grid with the final chemical potentials
// and checks every phase's basins, native-core/src/solver/certify.cpp); it is worse when this addon's GM is higher by
// more. One line per database, then the total; every worse point and every point that converged before but not now
// is printed with its conditions, and either makes the exit status 1.
//
// The system of a database: its elements (VA added where the database defines it, as worker/system/system.ts does)
// when it has at most four that some phase holds; the steel databases (mf-steel, mc_fe) Fe-Cr-Ni-Mo-C-Mn-Si, the Al
// databases (COST507, mc_al) Al-Cu-Mg-Si-Zn-Fe-Mn and mc_fecocrnbti Fe-Co-Cr-Nb-Ti; any other the first four elements
// some phase holds. The phases: the recommended selection of the database's catalog record (databases/catalog.json,
// as a task on it gets), every phase the elements allow otherwise. The points (a fixed seed per file name): T uniform
// from 300 K to the top of the range a new diagram of the system opens with (worker/core/melting.ts; 500-2000 K when
// it has none); mole fractions from exponential weights (each at least about 1e-3), the first element the dependent
// one. Where not every composition has an equilibrium (a pure element no phase takes: oxides, salts, an element only
// in compounds), the compositions are mixtures of the vertices of those the phases can take (charge-neutral
// endmembers and edge points) instead, so that the points are not all "no equilibrium" on both sides.
//
// AUDIT_ANSWERS_POINTS (default 1000) points per database; AUDIT_ANSWERS_POINTS_LARGE (default 200) for systems of six
// or more elements (the steel and Al alloy systems, about 0.1 s a cold point); AUDIT_ANSWERS_THREADS (default: the
// core's OpenMP threads) solves each side's points in batches of 50 over that many threads (equilibriumBatch without
// warm start: every point cold), the two addons alternating batch by batch. The s columns time each side's batches,
// the building of its phase models and grids included.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { elementsOf } from '../contract/phases.js';
import { PACKAGE_ROOT } from '../main/util/package-root.js';
import type { DatabasePhaseSelection } from '../contract/phase-selection.js';
import { phaseFactsOf } from '../worker/core/database.js';
import type { EquilibriumConditions, EquilibriumResult } from '../worker/core/equilibrium.js';
import { suggestedTemperatureRange } from '../worker/core/melting.js';
import { coreMaxThreads } from '../worker/core/models.js';
import { loadCore, type CoreAddon, type NativeDatabase, type NativeDatabaseInfo } from '../worker/core/native.js';
import { selectPhases } from '../worker/system/phase-selection.js';
import { beforeCore, tdbDir } from './support.js';

const TOL = 1e-6; // J/mol of atoms
const POINTS = Number(process.env.AUDIT_ANSWERS_POINTS ?? 1000);
const POINTS_LARGE = Number(process.env.AUDIT_ANSWERS_POINTS_LARGE ?? 200);
/** systems of this many elements or more get POINTS_LARGE points */
const LARGE = 6;
const BATCH = 50;
const FLOOR = 1e-3;
/** conditions printed per database and kind at most (every one is counted) */
const SHOWN = 10;

const STEEL = ['FE', 'CR', 'NI', 'MO', 'C', 'MN', 'SI'];
const AL_ALLOY = ['AL', 'CU', 'MG', 'SI', 'ZN', 'FE', 'MN'];
/** The fixed systems of the large databases, by file name; the first element is the dependent one. */
const SYSTEMS: Record<string, string[]> = {
  'mf-steel.tdb': STEEL,
  'mc_fe_v2.059.pycalphad.tdb': STEEL,
  'COST507.tdb': AL_ALLOY,
  'mc_al_v2.032.pycalphad.tdb': AL_ALLOY,
  'mc_fecocrnbti.tdb': ['FE', 'CO', 'CR', 'NB', 'TI'],
};

interface CatalogRecord {
  file: string;
  phase_selection?: DatabasePhaseSelection;
}

/** The files to audit: the catalog's, then the shared ones not byte-identical to one of those (audited once). */
function databaseFiles(
  root: string,
  shared: string,
): { file: string; name: string; selection?: DatabasePhaseSelection }[] {
  const catalog = JSON.parse(readFileSync(path.join(root, 'databases', 'catalog.json'), 'utf8')) as CatalogRecord[];
  const selections = new Map(catalog.map((r) => [path.basename(r.file), r.phase_selection]));
  const hash = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
  const seen = new Map<string, { file: string; name: string; selection?: DatabasePhaseSelection }>();
  for (const r of catalog) {
    const file = path.join(root, r.file);
    seen.set(hash(file), { file, name: r.file, selection: r.phase_selection });
  }
  const sharedFiles = readdirSync(shared)
    .filter((f) => f.toLowerCase().endsWith('.tdb'))
    .sort();
  for (const f of sharedFiles) {
    const file = path.join(shared, f);
    const h = hash(file);
    const bundled = seen.get(h);
    if (bundled) bundled.name += ' (= shared)';
    else seen.set(h, { file, name: `shared/${f}`, selection: selections.get(f) });
  }
  return [...seen.values()];
}

interface AuditSystem {
  elements: string[];
  components: string[];
  /** null: every phase the components allow */
  phases: string[] | null;
  T: [number, number];
  /**
   * the vertices of the compositions the phases can take (reachableVertices) when a pure element is not among them
   * (oxides, salts, an element only in compounds); undefined when every composition is reachable
   */
  vertices?: number[][];
}

/** Endmembers enumerated per phase at most (a phase with more is sampled by its first ones). */
const MAX_ENDMEMBERS = 5000;

type Species = NativeDatabaseInfo['species'][number];
type Phase = NativeDatabaseInfo['phases'][number];

/**
 * Atoms of each of `elements` and the charge of one formula unit of an endmember (one species per sublattice). The
 * ionic two-sublattice liquid (option Y) has the site ratios P = the anion's charge (Q for a vacancy, 0 for a neutral
 * species) and Q = the cation's: every endmember of it is neutral.
 */
function endmember(p: Phase, combo: Species[], elements: string[]): { x: number[]; q: number } {
  const ionicLiquid = p.options.toUpperCase().includes('Y') && combo.length === 2;
  let ratios = p.siteRatios;
  if (ionicLiquid) {
    const [cation, anion] = combo as [Species, Species];
    const isVa = Object.keys(anion.composition).length === 0 && anion.charge === 0;
    ratios = [isVa ? cation.charge : -anion.charge, cation.charge];
  }
  const x = elements.map(() => 0);
  let q = 0;
  combo.forEach((sp, k) => {
    q += ratios[k]! * sp.charge;
    for (const [el, n] of Object.entries(sp.composition)) x[elements.indexOf(el.toUpperCase())]! += ratios[k]! * n;
  });
  // the ionic liquid's vacancy carries the charge -Q: neutral too
  return { x, q: ionicLiquid ? 0 : q };
}

/**
 * The vertices of the compositions the phases can take, as mole fractions of `elements`: the neutral endmembers and,
 * on each edge between two endmembers of opposite charge (one sublattice's species exchanged), its neutral point
 * (ALCL3 of [AL+3,VA]1[CL-1]1: AL+3 1/3, VA 2/3). Every composition with an equilibrium is a mixture of them.
 */
function reachableVertices(db: NativeDatabase, elements: string[], phases: string[]): number[][] {
  const info = db.info();
  const species = new Map(info.species.map((sp) => [sp.name.toUpperCase(), sp]));
  const system = new Set(elements);
  const models = info.phases.filter((p) => phases.includes(p.name.toUpperCase()));
  const found = new Map<string, number[]>();
  const add = (x: number[]) => {
    const atoms = x.reduce((a, b) => a + b, 0);
    if (!(atoms > 1e-12)) return;
    const xs = x.map((v) => v / atoms);
    found.set(xs.map((v) => v.toFixed(9)).join(','), xs);
  };
  for (const p of models) {
    const subl = p.constituents.map((cs) =>
      cs
        .map((c) => species.get(c.toUpperCase()))
        .filter((sp): sp is Species => !!sp && Object.keys(sp.composition).every((el) => system.has(el.toUpperCase()))),
    );
    let combos: number[][] = [[]];
    for (const cs of subl) combos = combos.flatMap((c) => cs.map((_, i) => [...c, i])).slice(0, MAX_ENDMEMBERS);
    const of = (idx: number[]) =>
      endmember(
        p,
        idx.map((i, k) => subl[k]![i]!),
        elements,
      );
    for (const idx of combos) {
      const a = of(idx);
      if (Math.abs(a.q) < 1e-9) add(a.x);
      else
        idx.forEach((i, k) => {
          for (let j = i + 1; j < subl[k]!.length; j++) {
            const b = of(idx.map((v, kk) => (kk === k ? j : v)));
            if (a.q * b.q >= 0) continue;
            const l = b.q / (b.q - a.q); // l a.q + (1 - l) b.q = 0
            add(a.x.map((v, e) => l * v + (1 - l) * b.x[e]!));
          }
        });
    }
  }
  return [...found.values()];
}

/** The system of a database (see the header), or why it has none. */
function systemOf(db: NativeDatabase, file: string, selection?: DatabasePhaseSelection): AuditSystem | string {
  const info = db.info();
  const facts = phaseFactsOf(info);
  const inPhases = new Set(facts.flatMap((f) => f.elements));
  const all = elementsOf(info.elements.map((e) => e.name));
  const fixed = SYSTEMS[path.basename(file)];
  const usable = all.filter((e) => inPhases.has(e));
  const elements = fixed ?? (usable.length <= 4 ? usable : usable.slice(0, 4));
  const missing = elements.filter((e) => !usable.includes(e));
  if (missing.length) return `${missing.join(', ')} not an element of a phase`;
  if (elements.length === 0) return 'no element some phase holds';
  const hasVa = info.elements.some((e) => e.name.toUpperCase() === 'VA');
  const phases = selection
    ? (selectPhases(db, elements, { database: selection }, path.basename(file)).phases ?? null)
    : null;
  if ((phases ?? db.phasesFor(elements)).length === 0) return `no phase of ${elements.join('-')}`;
  const range = suggestedTemperatureRange(db, elements);
  const vertices = reachableVertices(db, elements, phases ?? db.phasesFor(elements));
  if (vertices.length === 0) return `no composition of ${elements.join('-')} a phase can take`;
  // every pure element reachable: the whole composition simplex is
  const whole = elements.every((_, e) => vertices.some((x) => x[e]! > 1 - 1e-9));
  return {
    elements,
    components: hasVa ? [...elements, 'VA'] : elements,
    phases,
    T: range ? [300, Math.max(range.end, 600)] : [500, 2000],
    vertices: whole ? undefined : vertices,
  };
}

/** Uniform numbers in (0, 1) from a linear congruential generator seeded by a name: the same on every machine. */
function rng(name: string): () => number {
  let s = createHash('sha256').update(name).digest().readUInt32LE(0);
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) + 0.5) / 4294967296;
}

/** Mole fractions from exponential weights, each at least about FLOOR (uniform on the simplex but its edges). */
function simplexPoint(rand: () => number, n: number): number[] {
  const w = Array.from({ length: n }, () => -Math.log(rand()));
  const sum = w.reduce((a, b) => a + b, 0);
  const x = w.map((v) => Math.max(FLOOR, v / sum));
  const total = x.reduce((a, b) => a + b, 0);
  return x.map((v) => v / total);
}

/**
 * A composition of a system not every composition of which is reachable: a mixture of as many random vertices of the
 * reachable ones as the system has elements (weights from simplexPoint), with VERTEX_FLOOR of the mean of all
 * vertices, so that every element is present.
 */
const VERTEX_FLOOR = 0.01;
function vertexPoint(rand: () => number, vertices: number[][], n: number): number[] {
  const mean = Array.from({ length: n }, (_, i) => vertices.reduce((s, x) => s + x[i]!, 0) / vertices.length);
  const picks = Array.from({ length: n }, () => vertices[Math.floor(rand() * vertices.length)]!);
  const w = simplexPoint(rand, n);
  return mean.map((m, i) => VERTEX_FLOOR * m + (1 - VERTEX_FLOOR) * picks.reduce((s, x, k) => s + w[k]! * x[i]!, 0));
}

function randomPoints(sys: AuditSystem, n: number, seed: string): EquilibriumConditions[] {
  const rand = rng(seed);
  const [lo, hi] = sys.T;
  return Array.from({ length: n }, () => {
    const T = lo + (hi - lo) * rand();
    const C = sys.elements.length;
    const x = sys.vertices ? vertexPoint(rand, sys.vertices, C) : simplexPoint(rand, C);
    const X = Object.fromEntries(sys.elements.slice(1).map((el, k) => [el, x[k + 1]!]));
    return { T, P: 101325, X };
  });
}

interface Side {
  addon: CoreAddon;
  db: NativeDatabase;
  seconds: number;
  results: EquilibriumResult[];
}

function solveChunk(side: Side, sys: AuditSystem, conditions: EquilibriumConditions[], threads: number): void {
  const t0 = process.hrtime.bigint();
  const rs = side.addon.equilibriumBatch(side.db, sys.components, sys.phases, conditions, undefined, threads);
  side.seconds += Number(process.hrtime.bigint() - t0) / 1e9;
  side.results.push(...rs);
}

interface Tally {
  points: number;
  agree: number;
  lower: number;
  worse: number;
  /** converged before, not now */
  lost: number;
  /** converged now, not before */
  gained: number;
  /** converged with neither */
  neither: number;
  /** of those, the ones whose solver failed now (any reason code but PD_NO_EQUILIBRIUM: no equilibrium exists) */
  failing: number;
  /** of those, the ones whose reason code differs (no equilibrium before, not converged now, ...) */
  reasons: number;
  phaseSets: number;
  maxDiff: number;
  before: number;
  now: number;
}

const emptyTally = (): Tally => ({
  points: 0,
  agree: 0,
  lower: 0,
  worse: 0,
  lost: 0,
  gained: 0,
  neither: 0,
  failing: 0,
  reasons: 0,
  phaseSets: 0,
  maxDiff: 0,
  before: 0,
  now: 0,
});

const phaseSet = (r: EquilibriumResult) =>
  r.phases
    .map((p) => p.name)
    .sort()
    .join('+');

const conditionText = (c: EquilibriumConditions) =>
  `T=${c.T} ${Object.entries(c.X ?? {})
    .map(([el, v]) => `X(${el})=${v}`)
    .join(' ')}`;

/**
 * How far the sets of the earlier answer lie below this answer's tangent hyperplane at most (J/mol of atoms; <= 0:
 * none lies below, as a lower global minimum requires). A check of a lower answer that does not rest on its solver.
 */
function belowHyperplane(now: EquilibriumResult, was: EquilibriumResult): number {
  let worst = -Infinity;
  for (const p of was.phases) {
    const plane = Object.entries(p.x).reduce((s, [el, x]) => s + (now.mu[el] ?? NaN) * x, 0);
    worst = Math.max(worst, plane - p.GM);
  }
  return worst;
}

/** Compares the answers point by point into `t`; returns the lines of the points to show. */
function compare(conditions: EquilibriumConditions[], now: Side, was: Side, t: Tally): string[] {
  const shown: Record<string, number> = {};
  const lines: string[] = [];
  const show = (kind: string, text: string) => {
    shown[kind] = (shown[kind] ?? 0) + 1;
    if (shown[kind] <= SHOWN) lines.push(`  ${kind}: ${text}`);
  };
  conditions.forEach((c, i) => {
    const a = now.results[i]!;
    const b = was.results[i]!;
    t.points++;
    if (!a.converged || !b.converged) {
      if (a.converged) t.gained++;
      else if (b.converged) {
        t.lost++;
        show('lost', `${conditionText(c)}: converged before (${phaseSet(b)}), now not: ${a.reason}`);
      } else {
        t.neither++;
        if (a.reasonCode !== 'PD_NO_EQUILIBRIUM') t.failing++;
        if (a.reasonCode !== b.reasonCode) {
          t.reasons++;
          show(
            'other reason',
            `${conditionText(c)}: before ${b.reasonCode} (${b.reason}), now ${a.reasonCode} (${a.reason})`,
          );
        }
      }
      return;
    }
    const d = a.GM - b.GM;
    t.maxDiff = Math.max(t.maxDiff, Math.abs(d));
    if (phaseSet(a) !== phaseSet(b)) t.phaseSets++;
    if (Math.abs(d) <= TOL) t.agree++;
    else if (d < 0) {
      t.lower++;
      show(
        'lower',
        `${conditionText(c)}: GM ${a.GM} (${phaseSet(a)}) against ${b.GM} (${phaseSet(b)}), ` +
          `${d.toExponential(2)} J/mol; the earlier sets lie at most ${belowHyperplane(a, b).toExponential(2)} J/mol below the new hyperplane`,
      );
    } else {
      t.worse++;
      show(
        'worse',
        `${conditionText(c)}: GM ${a.GM} (${phaseSet(a)}) against ${b.GM} (${phaseSet(b)}), +${d.toExponential(2)} J/mol`,
      );
    }
  });
  for (const [kind, n] of Object.entries(shown)) if (n > SHOWN) lines.push(`  ${kind}: ${n - SHOWN} more not shown`);
  return lines;
}

function row(name: string, system: string, t: Tally): string {
  const cells = [
    name,
    system,
    t.points,
    t.agree,
    t.lower,
    t.worse,
    `${t.lost} / ${t.gained} / ${t.neither}` +
      (t.failing ? ` (${t.failing} not converged)` : '') +
      (t.reasons ? ` (${t.reasons} for another reason)` : ''),
    t.phaseSets,
    t.maxDiff.toExponential(1),
    t.before.toFixed(1),
    t.now.toFixed(1),
  ];
  return `| ${cells.join(' | ')} |`;
}

function main(): number {
  // this addon first: loadCore makes the OpenMP threads of both sleep while they wait (OMP_WAIT_POLICY, read once)
  const core = loadCore();
  const before = beforeCore();
  if (!before) {
    console.error(
      'audit:answers compares with an earlier build: set PHASEDESK_BENCH_BEFORE=path/to/phasedesk_core.node',
    );
    return 2;
  }
  const threads = Math.max(1, Number(process.env.AUDIT_ANSWERS_THREADS ?? coreMaxThreads()));
  const wanted = process.argv.slice(2);
  const files = databaseFiles(PACKAGE_ROOT, tdbDir()).filter(
    (f) => wanted.length === 0 || wanted.some((w) => f.name.includes(w)),
  );
  console.log(
    `this addon against ${process.env.PHASEDESK_BENCH_BEFORE}: ${POINTS} random points per database ` +
      `(${POINTS_LARGE} for ${LARGE} or more elements), cold starts, ${threads} thread(s); |dG| <= ${TOL} J/mol agrees`,
  );
  console.log(
    '\n| database | system | points | agree | lower, certified | worse | converged before only / now only / neither | phase sets differ | max abs(dG) J/mol | s before | s now |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  const total = emptyTally();
  const skipped: string[] = [];
  const t0 = Date.now();
  for (const f of files) {
    let sides: [Side, Side];
    let sys: AuditSystem | string;
    try {
      const db = core.Database.fromFile(f.file);
      sys = systemOf(db, f.file, f.selection);
      const dbBefore = before.Database.fromFile(f.file);
      sides = [
        { addon: core, db, seconds: 0, results: [] },
        { addon: before, db: dbBefore, seconds: 0, results: [] },
      ];
    } catch (e) {
      skipped.push(`${f.name}: ${(e as Error).message.split('\n')[0]}`);
      continue;
    }
    if (typeof sys === 'string') {
      skipped.push(`${f.name}: ${sys}`);
      continue;
    }
    const n = sys.elements.length >= LARGE ? POINTS_LARGE : POINTS;
    const conditions = randomPoints(sys, n, path.basename(f.file));
    const [now, was] = sides;
    try {
      for (let i = 0, k = 0; i < n; i += BATCH, k++) {
        const chunk = conditions.slice(i, i + BATCH);
        // alternate which addon goes first, so that neither always meets the other's warm caches or the machine's load
        for (const side of k % 2 ? [was, now] : [now, was]) solveChunk(side, sys, chunk, threads);
      }
    } catch (e) {
      skipped.push(`${f.name}: a batch threw: ${(e as Error).message.split('\n')[0]}`);
      continue;
    }
    const t: Tally = { ...emptyTally(), before: was.seconds, now: now.seconds };
    const lines = compare(conditions, now, was, t);
    const label =
      `${sys.elements.join('-')}${sys.phases ? ` (${sys.phases.length} phases)` : ''}, ${sys.T[0]}-${Math.round(sys.T[1])} K` +
      (sys.vertices ? `, mixtures of ${sys.vertices.length} vertices` : '');
    console.log(row(f.name, label, t));
    for (const l of lines) console.log(l);
    for (const k of Object.keys(total) as (keyof Tally)[])
      total[k] = k === 'maxDiff' ? Math.max(total[k], t[k]) : total[k] + t[k];
  }
  console.log(row('total', `${files.length - skipped.length} databases`, total));
  for (const s of skipped) console.log(`skipped ${s}`);
  const failed = total.worse + total.lost;
  console.log(
    `\n${failed ? 'FAILED' : 'passed'}: ${total.agree} agree, ${total.lower} lower and certified, ${total.worse} worse, ` +
      `${total.lost} converged before but not now, of ${total.points} points (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
  );
  return failed ? 1 : 0;
}

process.exitCode = main();
