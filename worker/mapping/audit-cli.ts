// `npm run audit:diagrams -- [--threads N] [NAME-SUBSTRING ...]`: the diagram self-audit
// (worker/mapping/audit.ts) of every binary system at hand (audit-systems.ts), one table row per system
// and every disagreement below it. Exit status 1 when any system disagrees.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { auditBinary } from './audit.js';
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

function main(): void {
  const args = process.argv.slice(2);
  const ti = args.indexOf('--threads');
  const threads = ti >= 0 ? Number(args[ti + 1]) : 2;
  const filters = args.filter((a, i) => !a.startsWith('--') && !(ti >= 0 && i === ti + 1));
  const root = repoRoot();
  const shared = process.env.PHASEDESK_TDB_DIR ?? path.resolve(root, '..', 'shared', 'tdb');
  const { systems, unreadable } = auditSystems([path.join(root, 'databases'), shared]);
  for (const u of unreadable) console.log(`unreadable: ${u.file}: ${u.error}`);
  let bad = 0;
  console.log(
    '| system | regions | invariants | isotherms | transitions | points | topology | completeness | pure elements | fields | convergence | s |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  const lines: string[] = [];
  for (const s of systems) {
    if (filters.length && !filters.some((f) => s.name.includes(f))) continue;
    const r = auditBinary({ database: s.db, elements: s.elements, threads });
    const f = r.failures;
    const n = Object.values(f).reduce((sum, v) => sum + v.length, 0);
    if (n) bad++;
    console.log(
      `| ${s.name} | ${r.regions} | ${r.invariants} | ${r.isotherms} | ${r.transitionsCompared} | ${r.pointsChecked} | ${f.topology.length} | ${f.completeness.length} | ${f.pureElements.length} | ${f.fields.length} | ${f.convergence.length} | ${r.seconds.toFixed(1)} |`,
    );
    for (const [k, v] of Object.entries(f)) for (const l of v) lines.push(`${s.name} [${k}] ${l}`);
  }
  for (const l of lines) console.log(l);
  console.log(`${bad} system(s) with disagreements`);
  process.exitCode = bad ? 1 : 0;
}

main();
