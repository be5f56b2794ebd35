// The table "Known disagreements" of docs/diagram-audit.md, which the binary audit (audit.test.ts) and the ternary
// random-point check (audit-sections.test.ts) read: a disagreement it lists by system, check and pattern does not
// fail the test.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface Known {
  system: string;
  check: string;
  pattern: RegExp;
  cause: string;
}

/** Rows of the table under "## Known disagreements" in docs/diagram-audit.md. */
export function knownDisagreements(root: string): Known[] {
  const text = readFileSync(path.join(root, 'docs', 'diagram-audit.md'), 'utf8');
  const section = text.split(/^## Known disagreements\s*$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows: Known[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 6 || cells[1] === 'system' || /^-+$/.test(cells[1])) continue;
    rows.push({
      system: cells[1],
      check: cells[2],
      pattern: new RegExp(cells[3].replace(/^`|`$/g, '')),
      cause: cells[4],
    });
  }
  return rows;
}
