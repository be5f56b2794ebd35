// `npm run audit:diagrams -- [--threads N] [--only binaries|sections] [NAME-SUBSTRING ...]`: the diagram self-audit
// of every binary system at hand (worker/mapping/audit.ts over audit-systems.ts), one table row per system and every
// disagreement below it, then the random-point check of the ternary sections (audit-sections.ts), one row per
// section. Exit status 1 when any system or section disagrees.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { auditBinary } from './audit.js';
import { AUDIT_SECTIONS, auditSection, sectionName } from './audit-sections.js';
import { auditSystems } from './audit-systems.js';

function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'databases', 'catalog.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('repository root (databases/catalog.json) not found');
    dir = up;
  }
  return dir;
}

interface Run {
  root: string;
  shared: string;
  catalog: string;
  threads: number;
  wanted: (name: string) => boolean;
}

/** The binary table; returns the number of systems with disagreements. */
function auditBinaries(r: Run): number {
  const { systems, unreadable } = auditSystems([path.join(r.root, 'databases'), r.shared], { catalog: r.catalog });
  for (const u of unreadable) console.log(`unreadable: ${u.file}: ${u.error}`);
  let bad = 0;
  console.log(
    '| system | regions | invariants | isotherms | transitions | points | topology | completeness | pure elements | fields | convergence | s |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  const lines: string[] = [];
  for (const s of systems) {
    if (!r.wanted(s.name)) continue;
    const a = auditBinary({ database: s.db, elements: s.elements, phases: s.phases, threads: r.threads });
    const f = a.failures;
    const n = Object.values(f).reduce((sum, v) => sum + v.length, 0);
    if (n) bad++;
    console.log(
      `| ${s.name} | ${a.regions} | ${a.invariants} | ${a.isotherms} | ${a.transitionsCompared} | ${a.pointsChecked} | ${f.topology.length} | ${f.completeness.length} | ${f.pureElements.length} | ${f.fields.length} | ${f.convergence.length} | ${a.seconds.toFixed(1)} |`,
    );
    for (const [k, v] of Object.entries(f)) for (const l of v) lines.push(`${s.name} [${k}] ${l}`);
  }
  for (const l of lines) console.log(l);
  return bad;
}

/** The ternary table; returns the number of sections with disagreements. */
function auditSections(r: Run): number {
  let bad = 0;
  console.log(
    '| section | regions | triangles | points | near a boundary | not converged | agree | metastable answers | disagree | s |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const lines: string[] = [];
  for (const s of AUDIT_SECTIONS) {
    if (!r.wanted(sectionName(s))) continue;
    const a = auditSection(s, { tdbDir: r.shared, catalog: r.catalog, threads: r.threads });
    if (a.disagreements.length) bad++;
    console.log(
      `| ${a.name} | ${a.regions} | ${a.triangles} | ${a.points} | ${a.nearBoundary} | ${a.notConverged} | ${a.agree} | ${a.metastableAnswers} | ${a.disagreements.length} | ${a.seconds.toFixed(1)} |`,
    );
    for (const l of a.disagreements) lines.push(`${a.name} [random_points] ${l}`);
  }
  for (const l of lines) console.log(l);
  return bad;
}

function main(): void {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const valued = new Set(['--threads', '--only'].map((o) => args.indexOf(o) + 1).filter((i) => i > 0));
  const filters = args.filter((a, i) => !a.startsWith('--') && !valued.has(i));
  const only = option('--only');
  if (only !== undefined && only !== 'binaries' && only !== 'sections')
    throw new Error(`--only: must be binaries or sections, not ${only}`);
  const root = repoRoot();
  const run: Run = {
    root,
    shared: process.env.PHASEDESK_TDB_DIR ?? path.resolve(root, '..', 'shared', 'tdb'),
    catalog: path.join(root, 'databases', 'catalog.json'),
    threads: Number(option('--threads') ?? 2),
    wanted: (name) => !filters.length || filters.some((f) => name.includes(f)),
  };
  const badSystems = only === 'sections' ? 0 : auditBinaries(run);
  const badSections = only === 'binaries' ? 0 : auditSections(run);
  console.log(`${badSystems} system(s) and ${badSections} section(s) with disagreements`);
  process.exitCode = badSystems + badSections ? 1 : 0;
}

main();
