// Signed download URLs (valid, altered, expired) and API keys at rest.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, http, startFixture, until, type Fixture, sqliteOf } from './helpers.js';
import { hashApiKey } from '../../main/service/keys.js';
import { signedUrl } from '../../main/service/files.js';
import { directoryBlobStore } from '../../main/service/blob-store.js';

let f: Fixture;
let files: { task_id: string; files: string[] };
beforeAll(async () => {
  f = await startFixture();
  const c = await api(f.svc.port, 'POST', '/task', {
    key: f.keyA,
    body: { title: 'w', task_config: { task_type: '__test_write', tdb_code: 'ALFE' } },
  });
  await until(
    () => api(f.svc.port, 'GET', `/task/${c.body.id}`, { key: f.keyA }),
    (r) => r.body.status === 'completed',
  );
  files = (await api(f.svc.port, 'GET', `/task/${c.body.id}/result`, { key: f.keyA })).body;
});
afterAll(async () => {
  await f?.close();
});

const get = (u: string) => {
  const x = new URL(u);
  return http(f.svc.port, 'GET', x.pathname + x.search);
};

describe('signed URLs', () => {
  it('a fresh URL downloads the file (no API key needed)', async () => {
    const r = await get(files.files[0]!);
    expect(r.status).toBe(200);
    expect(r.text).toBe('result of null\n');
  });

  it('an altered signature is refused', async () => {
    const u = files.files[0]!.replace(/signature=([0-9a-f])/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`);
    const r = await get(u);
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('Invalid or expired signature');
  });

  it('an altered path or expiry is refused', async () => {
    expect((await get(files.files[0]!.replace('/result/result.txt', '/preview/preview.txt'))).status).toBe(403);
    expect(
      (await get(files.files[0]!.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 3600}`))).status,
    ).toBe(403);
    expect((await get(files.files[0]!.replace(/&signature=.*/, ''))).status).toBe(403);
  });

  it('an expired URL (correctly signed) is refused', async () => {
    const old = signedUrl(f.svc.ctx, files.task_id, 'result', 'result.txt', Date.now() - 16 * 60 * 1000);
    const r = await get(old);
    expect(r.status).toBe(403);
    // The same file signed now is accepted: the refusal is due to the expiry alone.
    expect((await get(signedUrl(f.svc.ctx, files.task_id, 'result', 'result.txt'))).status).toBe(200);
  });

  it('a file opened for download stays readable when its task folder is removed meanwhile; once gone it is absent', async () => {
    const store = directoryBlobStore(f.dataDir);
    const rel = store.relPath(files.task_id, 'result', 'gone.txt');
    mkdirSync(join(f.dataDir, dirname(rel)), { recursive: true });
    writeFileSync(join(f.dataDir, rel), 'still here\n');
    const stream = store.open(rel)!;
    rmSync(join(f.dataDir, rel));
    expect(Buffer.concat(await stream.toArray()).toString()).toBe('still here\n');
    expect(store.open(rel)).toBeUndefined();
    expect(store.open('../outside.txt')).toBeUndefined();
  });

  it('the signing secret file is mode 600', async () => {
    const { statSync } = await import('node:fs');
    expect(statSync(join(f.dataDir, 'secret')).mode & 0o777).toBe(0o600);
  });
});

describe('keys at rest', () => {
  it('the sqlite files never contain a key in clear, only its sha256', async () => {
    // Flush the WAL so every page is in the main file too; scan main file, WAL and SHM anyway.
    sqliteOf(f.svc.store).pragma('wal_checkpoint(TRUNCATE)');
    const blobs = readdirSync(f.dataDir)
      .filter((n) => n.startsWith('phasedesk.sqlite'))
      .map((n) => readFileSync(join(f.dataDir, n)));
    const all = Buffer.concat(blobs);
    for (const key of [f.keyA, f.keyB]) {
      expect(key).toMatch(/^tk_[A-Za-z0-9]{32}$/);
      expect(all.includes(Buffer.from(key))).toBe(false);
      expect(all.includes(Buffer.from(key.slice(3)))).toBe(false);
      expect(all.includes(Buffer.from(hashApiKey(key)))).toBe(true);
    }
  });
});
