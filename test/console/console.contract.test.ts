// Contract of the local console API (/console/v1, main/api/console.ts) over the real listener: token, Host check,
// zod validation naming the field, key lifecycle as seen through /api/v2, TDB import report, database
// enablement, subscriptions, settings.json. Hostile inputs are a table; every row states status and message.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, ensureBuilt, http, startFixture, type Fixture, type Res } from '../service/helpers.js';
import { consoleTokenMatches, loadOrCreateConsoleToken } from '../../main/console/token.js';
import { resolveSettings } from '../../main/config.js';
import { MAX_UPLOAD_BYTES } from '../../main/api/console.js';

const CUNI = readFileSync(new URL('../../databases/cuni_mey1992.tdb', import.meta.url), 'utf8');
let f: Fixture;
let token: string;
// The worker build (tsc) may run first when sources changed: at collection time, outside the hook's time limit.
ensureBuilt();

function con(
  method: string,
  path: string,
  o: { body?: unknown; raw?: string; token?: string | null; host?: string } = {},
): Promise<Res> {
  const headers: Record<string, string> = {};
  const t = o.token === undefined ? token : o.token;
  if (t !== null) headers['x-phasedesk-console'] = t;
  if (o.host) headers.host = o.host;
  return http(f.svc.port, method, `/console/v1${path}`, { headers, body: o.body, raw: o.raw });
}

beforeAll(async () => {
  // Bootstrap on (user "local" and its first key) with no catalog, so no bundled database is imported.
  f = await startFixture({ bootstrap: true, catalogFile: '/nonexistent/catalog.json' });
  token = readFileSync(join(f.dataDir, 'console-token'), 'utf8').trim();
});
afterAll(async () => {
  await f?.close();
});

describe('console token', () => {
  it('is created at first start with mode 0600, is what the service uses, and survives a restart', () => {
    expect(token).toMatch(/^pdc_[0-9a-f]{64}$/);
    expect(f.svc.consoleToken).toBe(token);
    expect(statSync(join(f.dataDir, 'console-token')).mode & 0o777).toBe(0o600);
    expect(loadOrCreateConsoleToken(f.dataDir)).toEqual({ token, created: false });
  });
  it('a damaged token file is replaced, never accepted', () => {
    const dir = f.dataDir + '-tok';
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'console-token'), '\n');
    const t = loadOrCreateConsoleToken(dir);
    expect(t.created).toBe(true);
    expect(t.token).toMatch(/^pdc_[0-9a-f]{64}$/);
    rmSync(dir, { recursive: true, force: true });
  });
  it('compares whole tokens only', () => {
    expect(consoleTokenMatches(token, token)).toBe(true);
    expect(consoleTokenMatches(token, ` ${token} `)).toBe(true);
    expect(consoleTokenMatches(token, token.slice(0, -1))).toBe(false);
    expect(consoleTokenMatches(token, `${token}0`)).toBe(false);
    expect(consoleTokenMatches(token, [token, token])).toBe(false);
    expect(consoleTokenMatches(token, undefined)).toBe(false);
  });
});

describe('hostile input', () => {
  type Row = { name: string; req: () => Promise<Res>; status: number; error: RegExp };
  const rows: Row[] = [
    {
      name: 'missing token',
      req: () => con('GET', '/keys', { token: null }),
      status: 401,
      error: /^Missing X-PhaseDesk-Console header/,
    },
    {
      name: 'empty token',
      req: () => con('GET', '/keys', { token: '' }),
      status: 401,
      error: /^Missing X-PhaseDesk-Console header/,
    },
    {
      name: 'wrong token',
      req: () => con('GET', '/settings', { token: 'pdc_' + '0'.repeat(64) }),
      status: 401,
      error: /^invalid console token$/,
    },
    {
      name: 'token prefix only',
      req: () => con('GET', '/settings', { token: token.slice(0, 20) }),
      status: 401,
      error: /^invalid console token$/,
    },
    {
      name: 'an API key is not a console token',
      req: () => con('GET', '/keys', { token: f.keyA }),
      status: 401,
      error: /^invalid console token$/,
    },
    {
      name: 'bad Host with a valid token',
      req: () => con('GET', '/keys', { host: 'evil.example:80' }),
      status: 403,
      error: /^Host not allowed$/,
    },
    {
      name: 'rebinding Host naming loopback as a subdomain',
      req: () => con('GET', '/settings', { host: '127.0.0.1.evil.example' }),
      status: 403,
      error: /^Host not allowed$/,
    },
    {
      name: 'unauthenticated upload is refused before it is read',
      req: () => con('POST', '/databases', { token: null, raw: 'x'.repeat(MAX_UPLOAD_BYTES + 10) }),
      status: 401,
      error: /^Missing/,
    },
    {
      name: 'oversized upload',
      req: () =>
        con('POST', '/databases', {
          raw: JSON.stringify({ file_name: 'big.tdb', code: 'BIG', name: 'big', tdb: '$'.repeat(MAX_UPLOAD_BYTES) }),
        }),
      status: 413,
      error: /too large/i,
    },
    {
      name: 'malformed TDB',
      req: () =>
        con('POST', '/databases', {
          body: {
            file_name: 'bad.tdb',
            code: 'BAD',
            name: 'bad',
            subscribe_user: null,
            tdb: 'ELEMENT AL FCC_A1 26.98 0 0 !\nFOO BAR !\n',
          },
        }),
      status: 400,
      error: /^tdb: bad\.tdb:2: unknown command 'FOO'$/,
    },
    {
      name: 'TDB of which nothing usable remains (its only PHASE without a sublattice count)',
      req: () =>
        con('POST', '/databases', {
          body: {
            file_name: 'cut.tdb',
            code: 'CUT',
            name: 'cut',
            tdb: 'ELEMENT CU FCC_A1 63.5 0 0 !\nPHASE LIQUID:L % 1.0 !\nCONSTITUENT LIQUID:L :CU: !\n',
          },
        }),
      status: 400,
      error: /^tdb: cut\.tdb:2: PHASE LIQUID: expected 'PHASE NAME TYPECODES NUMBER_OF_SUBLATTICES RATIOS\.\.\.'$/,
    },
    {
      name: 'TDB without elements',
      req: () =>
        con('POST', '/databases', { body: { file_name: 'e.tdb', code: 'E', name: 'e', tdb: '$ only a comment\n' } }),
      status: 400,
      error: /^tdb: e\.tdb:1: no ELEMENT declared \(a TDB database declares its elements with ELEMENT commands\)$/,
    },
    {
      name: 'invalid JSON',
      req: () => con('POST', '/keys', { raw: '{"name":' }),
      status: 400,
      error: /^Invalid JSON body/,
    },
    {
      name: 'two token headers',
      req: () =>
        http(f.svc.port, 'GET', '/console/v1/keys', { headers: { 'x-phasedesk-console': `${token}, ${token}` } }),
      status: 401,
      error: /^invalid console token$/,
    },
    {
      name: 'database code with an encoded path',
      req: () => con('PATCH', '/databases/..%2F..%2Fetc', { body: { state: 'enable' } }),
      status: 400,
      error: /^code may only contain/,
    },
    {
      name: 'import: code with a path',
      req: () => con('POST', '/databases', { body: { file_name: 'a.tdb', code: '../x', name: 'x', tdb: CUNI } }),
      status: 400,
      error: /^code may only contain/,
    },
    {
      name: 'import: file name with a directory',
      req: () => con('POST', '/databases', { body: { file_name: '../a.tdb', code: 'X', name: 'x', tdb: CUNI } }),
      status: 400,
      error: /^file_name must be a file name without a directory$/,
    },
    {
      name: 'import: tdb missing',
      req: () => con('POST', '/databases', { body: { file_name: 'a.tdb', code: 'X', name: 'x' } }),
      status: 400,
      error: /^tdb is required$/,
    },
    {
      name: 'import: unknown field',
      req: () =>
        con('POST', '/databases', {
          body: { file_name: 'a.tdb', code: 'X', name: 'x', tdb: CUNI, path: '/etc/passwd' },
        }),
      status: 400,
      error: /path/,
    },
    {
      name: 'import: subscribe an unknown user',
      req: () =>
        con('POST', '/databases', {
          body: { file_name: 'a.tdb', code: 'X', name: 'x', tdb: CUNI, subscribe_user: 'nobody' },
        }),
      status: 400,
      error: /^subscribe_user: user 'nobody' does not exist$/,
    },
    {
      name: 'key: name missing',
      req: () => con('POST', '/keys', { body: {} }),
      status: 400,
      error: /^name is required$/,
    },
    {
      name: 'key: blank name',
      req: () => con('POST', '/keys', { body: { name: '   ' } }),
      status: 400,
      error: /^name must not be empty$/,
    },
    {
      name: 'key: expiry in the past',
      req: () => con('POST', '/keys', { body: { name: 'k', expires_at: '2001-01-01T00:00:00Z' } }),
      status: 400,
      error: /^expires_at must be in the future$/,
    },
    {
      name: 'key: expiry not a time',
      req: () => con('POST', '/keys', { body: { name: 'k', expires_at: 'tomorrow' } }),
      status: 400,
      error: /^expires_at must be an RFC 3339 time/,
    },
    {
      name: 'key: unknown user',
      req: () => con('POST', '/keys', { body: { name: 'k', username: 'nobody' } }),
      status: 400,
      error: /^username: user 'nobody' does not exist$/,
    },
    {
      name: 'key: id not an integer',
      req: () => con('PATCH', '/keys/abc', { body: { name: 'x' } }),
      status: 400,
      error: /^id must be a positive integer$/,
    },
    {
      name: 'key: unknown id',
      req: () => con('DELETE', '/keys/99999'),
      status: 404,
      error: /^id: key 99999 does not exist$/,
    },
    {
      name: 'key: empty change',
      req: () => con('PATCH', '/keys/1', { body: {} }),
      status: 400,
      error: /name, is_active or expires_at is required/,
    },
    {
      name: 'key: is_active not a boolean',
      req: () => con('PATCH', '/keys/1', { body: { is_active: 'no' } }),
      status: 400,
      error: /^is_active must be true or false$/,
    },
    {
      name: 'database: bad state',
      req: () => con('PATCH', '/databases/ALFE', { body: { state: 'gone' } }),
      status: 400,
      error: /^state must be enable, disable or invisible$/,
    },
    {
      name: 'database: unknown code',
      req: () => con('PATCH', '/databases/NOPE', { body: { state: 'disable' } }),
      status: 404,
      error: /^database 'NOPE' does not exist$/,
    },
    {
      name: 'subscription: bad status',
      req: () => con('PUT', '/databases/ALFE/subscriptions/a', { body: { status: 'forever' } }),
      status: 400,
      error: /^status must be trail, active/,
    },
    {
      name: 'subscription: unknown user',
      req: () => con('PUT', '/databases/ALFE/subscriptions/nobody', { body: { status: 'active' } }),
      status: 404,
      error: /^user 'nobody' does not exist$/,
    },
    {
      name: 'settings: pool size 0',
      req: () => con('PUT', '/settings', { body: { pool_size: 0 } }),
      status: 400,
      error: /^pool_size must be an integer between 1 and 64/,
    },
    {
      name: 'settings: port as a string',
      req: () => con('PUT', '/settings', { body: { port: '8080' } }),
      status: 400,
      error: /^port must be an integer between 0 and 65535/,
    },
    {
      name: 'settings: unknown setting',
      req: () => con('PUT', '/settings', { body: { data_dir: '/tmp' } }),
      status: 400,
      error: /data_dir/,
    },
  ];
  for (const r of rows) {
    it(`${r.name} -> ${r.status}`, async () => {
      const res = await r.req();
      expect(res.status, res.text.slice(0, 300)).toBe(r.status);
      expect(res.body?.error).toMatch(r.error);
    });
  }
  it('no refused request changed anything', async () => {
    const dbs = await con('GET', '/databases');
    expect(dbs.body.items.map((d: { code: string }) => d.code)).toEqual(['ALFE']);
    expect(readdirSafe(join(f.dataDir, 'databases')).filter((n) => n.startsWith('.upload-'))).toEqual([]);
    expect((await con('GET', '/settings')).body.saved).toEqual({});
  });
});

function readdirSafe(d: string): string[] {
  try {
    return readdirSync(d);
  } catch {
    return [];
  }
}

describe('keys', () => {
  it('lists every key with owner, last use and expiry, never the key itself', async () => {
    const r = await con('GET', '/keys');
    expect(r.status).toBe(200);
    const names = r.body.items.map((k: { username: string; key_name: string }) => `${k.username}/${k.key_name}`);
    expect(names).toEqual(expect.arrayContaining(['local/local', 'a/key-a', 'b/key-b']));
    expect(r.text).not.toMatch(/tk_[A-Za-z0-9]{32}/);
    expect(r.headers['cache-control']).toBe('no-store');
  });
  it('create (shown once) -> use -> rename -> disable -> enable -> expire -> delete, as /api/v2 sees it', async () => {
    const exp = new Date(Date.now() + 86_400_000).toISOString();
    const c = await con('POST', '/keys', { body: { name: 'laptop', username: 'a', expires_at: exp } });
    expect(c.status).toBe(201);
    expect(c.body.api_key).toMatch(/^tk_[A-Za-z0-9]{32}$/);
    expect(c.body).toMatchObject({
      key_name: 'laptop',
      username: 'a',
      is_active: true,
      last_used_at: null,
      expires_at: exp,
      expired: false,
    });
    const key = c.body.api_key as string;
    const id = c.body.id as number;
    expect(c.body.key_prefix).toBe(key.slice(0, 7));
    const info = await api(f.svc.port, 'GET', '/key/info', { key });
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ id, key_name: 'laptop', user: { username: 'a' } });
    const listed = (await con('GET', '/keys')).body.items.find((k: { id: number }) => k.id === id);
    expect(listed.last_used_at).toBeTruthy();
    expect(listed.api_key).toBeUndefined();

    expect((await con('PATCH', `/keys/${id}`, { body: { name: 'office' } })).body.key_name).toBe('office');
    expect((await api(f.svc.port, 'GET', '/key/info', { key })).body.key_name).toBe('office');
    expect((await con('PATCH', `/keys/${id}`, { body: { is_active: false } })).body.is_active).toBe(false);
    expect(await api(f.svc.port, 'GET', '/key/info', { key })).toMatchObject({
      status: 403,
      body: { error: 'API key is disabled' },
    });
    await con('PATCH', `/keys/${id}`, { body: { is_active: true } });
    expect((await api(f.svc.port, 'GET', '/key/info', { key })).status).toBe(200);
    const expired = await con('PATCH', `/keys/${id}`, { body: { expires_at: '2001-01-01T00:00:00Z' } });
    expect(expired.body.expired).toBe(true);
    expect(await api(f.svc.port, 'GET', '/key/info', { key })).toMatchObject({
      status: 403,
      body: { error: 'API key has expired' },
    });
    expect((await con('PATCH', `/keys/${id}`, { body: { expires_at: null } })).body).toMatchObject({
      expires_at: null,
      expired: false,
    });
    expect((await con('DELETE', `/keys/${id}`)).status).toBe(204);
    expect(await api(f.svc.port, 'GET', '/key/info', { key })).toMatchObject({
      status: 401,
      body: { error: 'invalid API key' },
    });
    expect((await con('DELETE', `/keys/${id}`)).status).toBe(404);
  });
  it('a key without username belongs to the local user; users are listed', async () => {
    const c = await con('POST', '/keys', { body: { name: 'second' } });
    expect(c.body.username).toBe('local');
    const u = await con('GET', '/users');
    expect(u.body.items.map((x: { username: string }) => x.username).sort()).toEqual(['a', 'b', 'local']);
  });
});

describe('databases', () => {
  it('imports an uploaded TDB and reports what loaded, what was refused and what was dropped', async () => {
    const tdb = CUNI + '\nPHASE EXTRA:A % 1 1.0 !\nCONSTITUENT EXTRA :CU: !\nPHASE BROKEN % 0.5 0.5 !\n';
    const broken = tdb.split('\n').findIndex((l) => l.startsWith('PHASE BROKEN')) + 1;
    const dropped =
      "PHASE BROKEN: expected 'PHASE NAME TYPECODES NUMBER_OF_SUBLATTICES RATIOS...'; phase BROKEN is dropped";
    const r = await con('POST', '/databases', {
      body: {
        file_name: 'cuni.tdb',
        code: 'CUNI_COPY',
        name: 'Cu-Ni copy',
        level: 'free',
        version: '2',
        tdb,
        subscribe_user: 'a',
      },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ code: 'CUNI_COPY', file_name: 'cuni.tdb', replaced: false, subscribed: 'a' });
    expect(r.body.elements).toEqual(['CU', 'NI']);
    expect(r.body.phases_loaded).toEqual(['LIQUID', 'FCC_A1']);
    expect(r.body.phases_refused).toHaveLength(1);
    expect(r.body.phases_refused[0].phase).toBe('EXTRA');
    expect(r.body.phases_refused[0].reason).toMatch(/aqueous solution model .* EXTRA in cuni\.tdb is not supported/);
    expect(r.body.warnings).toEqual([`cuni.tdb:${broken}: ${dropped}`]);
    expect(r.body.parameter_count).toBeGreaterThan(0);
    // The contract side: user a sees it, subscribed, with the elements the reader found.
    const seen = await api(f.svc.port, 'GET', '/database?search=CUNI_COPY', { key: f.keyA });
    expect(seen.body.items).toHaveLength(1);
    expect(seen.body.items[0]).toMatchObject({
      code: 'CUNI_COPY',
      element_list: ['CU', 'NI'],
      user_status: 'active',
      version: '2',
    });
    const ph = await api(f.svc.port, 'POST', `/database/${r.body.id}/phases`, {
      key: f.keyA,
      body: { element_list: ['CU', 'NI'] },
    });
    expect(ph.body.phase_list).toEqual(['LIQUID', 'FCC_A1']);
    // GET /database/{db_id} carries the warnings of the stored file (extension load_warnings)
    const item = await api(f.svc.port, 'GET', `/database/${r.body.id}`, { key: f.keyA });
    expect(item.status).toBe(200);
    expect(item.body.phase_list).toEqual(['LIQUID', 'FCC_A1', 'EXTRA']);
    expect(item.body.load_warnings).toEqual([
      { file: 'CUNI_COPY.tdb', line: broken, message: dropped, phase: 'BROKEN' },
    ]);
    // The stored copy is the upload, under the server-managed name.
    expect(readFileSync(join(f.dataDir, 'databases', 'CUNI_COPY.tdb'), 'utf8')).toBe(tdb);
  });
  it('refuses a second import under the same code unless replace is set', async () => {
    const again = await con('POST', '/databases', {
      body: { file_name: 'cuni.tdb', code: 'CUNI_COPY', name: 'x', tdb: CUNI, subscribe_user: null },
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/^code: a database with code 'CUNI_COPY' already exists/);
    const rep = await con('POST', '/databases', {
      body: {
        file_name: 'cuni.tdb',
        code: 'CUNI_COPY',
        name: 'Cu-Ni copy',
        tdb: CUNI,
        replace: true,
        subscribe_user: null,
      },
    });
    expect(rep.status).toBe(200);
    expect(rep.body).toMatchObject({ replaced: true, phases_refused: [] });
  });
  it('disable, hide and enable change what /api/v2 returns; the console sees every state', async () => {
    const list = async () =>
      (await api(f.svc.port, 'GET', '/database?search=CUNI_COPY', { key: f.keyA })).body.items.length;
    expect(await list()).toBe(1);
    const d = await con('PATCH', '/databases/CUNI_COPY', { body: { state: 'disable' } });
    expect(d.body.state).toBe('disable');
    expect(await list()).toBe(0);
    const task = await api(f.svc.port, 'POST', '/task', {
      key: f.keyA,
      body: {
        title: 't',
        task_config: {
          task_type: 'point_calculation',
          tdb_code: 'CUNI_COPY',
          condition: { components: ['CU', 'NI'], temperature: 1000, pressure: 1e5, compositions: { CU: 0.5, NI: 0.5 } },
        },
      },
    });
    expect(task.body.error).toBe("Db code 'CUNI_COPY' was not found or is disabled");
    expect((await con('PATCH', '/databases/CUNI_COPY', { body: { state: 'invisible' } })).body.state).toBe('invisible');
    expect(await list()).toBe(0);
    const all = (await con('GET', '/databases')).body.items.map(
      (x: { code: string; state: string }) => `${x.code}:${x.state}`,
    );
    expect(all).toEqual(['ALFE:enable', 'CUNI_COPY:invisible']);
    await con('PATCH', '/databases/CUNI_COPY', { body: { state: 'enable' } });
    expect(await list()).toBe(1);
  });
  it('sets a subscription and reports its effective status', async () => {
    const r = await con('PUT', '/databases/CUNI_COPY/subscriptions/b', {
      body: { status: 'active', expires_at: '2001-01-01T00:00:00Z' },
    });
    expect(r.status).toBe(200);
    expect(r.body.subscriptions).toEqual(
      expect.arrayContaining([
        { username: 'b', status: 'expired', stored_status: 'active', expires_at: '2001-01-01T00:00:00Z' },
        { username: 'a', status: 'active', stored_status: 'active', expires_at: null },
      ]),
    );
    const st = await api(f.svc.port, 'GET', `/database/user/status?user_id=${f.userB}&topdb_id=${r.body.id}`, {
      key: f.keyB,
    });
    expect(st.body.status).toBe('expired');
    await con('PUT', '/databases/CUNI_COPY/subscriptions/b', { body: { status: 'pending' } });
    expect(
      (await api(f.svc.port, 'GET', `/database/user/status?user_id=${f.userB}&topdb_id=${r.body.id}`, { key: f.keyB }))
        .body.status,
    ).toBe('pending');
  });
});

describe('settings', () => {
  it('shows the data directory, the running values and the local API address', async () => {
    const r = await con('GET', '/settings');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      data_dir: f.dataDir,
      settings_file: join(f.dataDir, 'settings.json'),
      settings_file_problem: null,
      api_base_url: `http://127.0.0.1:${f.svc.port}/api/v2`,
      host: '127.0.0.1',
      running: { pool_size: 1, thread_budget: 2, port: f.svc.port, max_pending_tasks: 20 },
      saved: {},
    });
    expect(r.body.cpu_count).toBeGreaterThanOrEqual(1);
  });
  it('saves changes to settings.json for the next start; env vars still win; null restores the default', async () => {
    const r = await con('PUT', '/settings', { body: { pool_size: 3, thread_budget: 6, max_pending_tasks: 50 } });
    expect(r.status).toBe(200);
    expect(r.body.saved).toEqual({ pool_size: 3, thread_budget: 6, max_pending_tasks: 50 });
    expect(r.body.running.pool_size).toBe(1); // applied at next start only
    expect(r.body.restart_required).toEqual(
      expect.arrayContaining(['pool_size', 'thread_budget', 'max_pending_tasks']),
    );
    expect(JSON.parse(readFileSync(join(f.dataDir, 'settings.json'), 'utf8'))).toEqual({
      pool_size: 3,
      thread_budget: 6,
      max_pending_tasks: 50,
    });
    const next = resolveSettings({ dataDir: f.dataDir }, {});
    expect([next.poolSize, next.threadBudget, next.maxPendingTasks]).toEqual([3, 6, 50]);
    expect(resolveSettings({ dataDir: f.dataDir }, { PHASEDESK_POOL_SIZE: '2' }).poolSize).toBe(2);
    expect(resolveSettings({ dataDir: f.dataDir, poolSize: 4 }, {}).poolSize).toBe(4);
    const back = await con('PUT', '/settings', { body: { pool_size: null, port: 7999 } });
    expect(back.body.saved).toEqual({ thread_budget: 6, max_pending_tasks: 50, port: 7999 });
    expect(resolveSettings({ dataDir: f.dataDir }, {}).poolSize).toBe(1);
  });
  it('in_use: the port and data directory in use and where each came from', async () => {
    const r = await con('GET', '/settings');
    // The fixture passes both explicitly, as a command-line flag would.
    expect(r.body.in_use).toEqual({
      port: { value: f.svc.port, source: 'flag' },
      data_dir: { value: f.dataDir, source: 'flag' },
    });
    const d = join(f.dataDir, 'other');
    mkdirSync(d);
    expect(resolveSettings({}, { PHASEDESK_DATA_DIR: d, PHASEDESK_PORT: '7500' }).sources).toEqual({
      port: 'environment',
      dataDir: 'environment',
    });
    writeFileSync(join(d, 'settings.json'), '{"port": 7600}');
    expect(resolveSettings({}, { PHASEDESK_DATA_DIR: d })).toMatchObject({
      port: 7600,
      sources: { port: 'settings file', dataDir: 'environment' },
    });
    expect(resolveSettings({ dataDir: d, port: 7700 }, {})).toMatchObject({
      port: 7700,
      sources: { port: 'flag', dataDir: 'flag' },
    });
    rmSync(join(d, 'settings.json'));
    expect(resolveSettings({ dataDir: d }, {}).sources.port).toBe('default');
  });
  it('work bounds are settings: saved from the console, shown with their bounds, refused out of range', async () => {
    const r = await con('PUT', '/settings', { body: { max_scan_points: 500_000, max_temperature: 20_000 } });
    expect(r.status).toBe(200);
    expect(r.body.saved).toMatchObject({ max_scan_points: 500_000, max_temperature: 20_000 });
    expect(r.body.running.max_scan_points).toBe(100_000);
    expect(r.body.next_start).toMatchObject({ max_scan_points: 500_000, max_temperature: 20_000 });
    expect(r.body.bounds.max_scan_points).toEqual([2, 10_000_000]);
    expect(resolveSettings({ dataDir: f.dataDir }, {}).workBounds).toMatchObject({
      max_scan_points: 500_000,
      max_temperature: 20_000,
    });
    expect(
      resolveSettings({ dataDir: f.dataDir }, { PHASEDESK_MAX_SCAN_POINTS: '300000' }).workBounds.max_scan_points,
    ).toBe(300_000);
    const bad = await con('PUT', '/settings', { body: { max_grid_nodes: 2_000_000 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^max_grid_nodes must be an integer between 8 and 1000000/);
    await con('PUT', '/settings', { body: { max_scan_points: null, max_temperature: null } });
  });
  it('a damaged settings.json is reported and ignored, never fatal', async () => {
    writeFileSync(join(f.dataDir, 'settings.json'), '{"pool_size": 500, "port": 7100, "colour": 1}');
    const s = resolveSettings({ dataDir: f.dataDir }, {});
    expect(s.poolSize).toBe(1);
    expect(s.port).toBe(7100);
    expect(s.settingsFileProblem).toMatch(/pool_size: must be an integer between 1 and 64; colour: unknown setting/);
    const r = await con('GET', '/settings');
    expect(r.body.settings_file_problem).toMatch(/pool_size/);
    writeFileSync(join(f.dataDir, 'settings.json'), '{not json');
    expect(resolveSettings({ dataDir: f.dataDir }, {}).settingsFileProblem).toMatch(/settings\.json: /);
    expect((await con('GET', '/settings')).status).toBe(200);
  });
});
