// The bundled catalog (databases/catalog.json) must describe files that our own TDB reader loads
// completely: every phase usable, the elements the catalog entry implies, nothing refused.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTdbInfo } from '../../worker/core/database.js';

const root = path.resolve(__dirname, '../..');
interface CatalogEntry { file: string; code: string; name: string; level: string; support_task_list: string[] }
const catalog: CatalogEntry[] = JSON.parse(readFileSync(path.join(root, 'databases/catalog.json'), 'utf8'));

describe('bundled databases', () => {
  it('has at least three entries with unique codes', () => {
    expect(catalog.length).toBeGreaterThanOrEqual(3);
    expect(new Set(catalog.map((e) => e.code)).size).toBe(catalog.length);
  });

  for (const entry of catalog) {
    it(`${entry.code} loads every phase with no refusal`, () => {
      const info = readTdbInfo(path.join(root, entry.file));
      expect(info.refusals).toEqual([]);
      expect(info.phases).toContain('LIQUID');
      expect(info.elements.length).toBe(2);
      const header = readFileSync(path.join(root, entry.file), 'utf8').slice(0, 3000);
      // Each file names the publication its numbers come from (an author and a year at least).
      expect(header).toMatch(/\$.*(19|20)\d\d/);
    });
  }
});
