// First start: local user + key printed; bundled catalog imported through native-core's TDB reader;
// POST /database/{id}/phases answered by the same reader.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { api, ensureBuilt, ROOT, tempDir } from './helpers.js';
import { startService, type RunningService } from '../../main/server.js';
import { loadTdbModule } from '../../main/service/databases.js';

const CATALOG = join(ROOT, 'databases', 'catalog.json');
let reason: string | undefined;
try {
  (await loadTdbModule()).readTdbInfo(join(ROOT, 'databases', 'cuni_mey1992.tdb'));
} catch (e) {
  reason = (e as Error).message;
}
if (reason)
  console.warn(
    `catalog import tests skipped: native TDB reader unavailable (${reason}); set PHASEDESK_CORE_ADDON to a built core`,
  );

let svc: RunningService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

describe('first start', () => {
  it('empty data dir without a catalog: local user and a key, no databases, logged', async () => {
    ensureBuilt();
    const logs: string[] = [];
    svc = await startService({ dataDir: tempDir(), port: 0, catalogFile: join(tempDir(), 'missing.json') }, (l) =>
      logs.push(l),
    );
    expect(svc.firstKey).toMatch(/^tk_[A-Za-z0-9]{32}$/);
    expect(logs.some((l) => l.startsWith('no database catalog at'))).toBe(true);
    const info = await api(svc.port, 'GET', '/key/info', { key: svc.firstKey! });
    expect(info.body.user).toMatchObject({ username: 'local', subscription_level: 'local' });
    expect((await api(svc.port, 'GET', '/database', { key: svc.firstKey! })).body.total).toBe(0);
    const plan = await svc.store.db
      .selectFrom('plans')
      .selectAll()
      .where('name', '=', 'local')
      .executeTakeFirstOrThrow();
    expect(plan.task_using_limit).toBe(100000);
  });

  it.skipIf(reason !== undefined)('imports every catalog database, subscribes local, answers phases', async () => {
    ensureBuilt();
    const dataDir = tempDir();
    svc = await startService({ dataDir, port: 0, catalogFile: CATALOG }, () => {});
    const key = svc.firstKey!;
    const { readFileSync } = await import('node:fs');
    const catalog = JSON.parse(readFileSync(CATALOG, 'utf8')) as { code: string; file: string }[];
    const list = await api(svc.port, 'GET', '/database?size=100', { key });
    expect(list.body.items.map((d: any) => d.code).sort()).toEqual(catalog.map((c) => c.code).sort());
    const mod = await loadTdbModule();
    for (const c of catalog) {
      const d = list.body.items.find((x: any) => x.code === c.code);
      const info = mod.readTdbInfo(join(ROOT, c.file));
      expect(d.element_list).toEqual(info.elements);
      expect(d.phase_list).toEqual(info.phases);
      expect(d.user_status).toBe('active');
      // one element that some phase holds (MF Steel declares AG first, in no phase)
      const el = [['FE', 'AL', 'CU'].find((e) => info.elements.includes(e)) ?? info.elements[0]!];
      const ph = await api(svc.port, 'POST', `/database/${d.id}/phases`, { key, body: { element_list: el } });
      expect(ph.status).toBe(200);
      expect(ph.body.phase_list).toEqual(mod.phasesFor(join(dataDir, 'databases', `${c.code}.tdb`), el));
      expect(ph.body.phase_list.length).toBeGreaterThan(0);
    }
    // A second start neither re-creates the user nor prints a new key.
    await svc.close();
    svc = await startService({ dataDir, port: 0, catalogFile: CATALOG }, () => {});
    expect(svc.firstKey).toBeUndefined();
    expect((await api(svc.port, 'GET', '/database', { key })).body.total).toBe(catalog.length);
  });
});
