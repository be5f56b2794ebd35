// Real PostgreSQL and Redis servers for the lab-server tests and `npm run bench:server`, from the Debian packages
// (postgresql, redis-server): each on a free loopback port in a temporary directory, stopped by its PID. When the
// binaries are absent the tests that need them are skipped with a loud line in the output (CI installs them: .ci/run).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PG_BIN =
  process.env.PHASEDESK_PG_BIN ??
  (existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .sort()
        .reverse()
        .map((v) => join('/usr/lib/postgresql', v, 'bin'))
        .find((d) => existsSync(join(d, 'initdb')))
    : undefined);
const REDIS_BIN = ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/usr/bin/valkey-server'].find((p) =>
  existsSync(p),
);

/** Why the server tests cannot run here, or null when both servers' binaries are installed. */
export const serversMissing: string | null =
  !PG_BIN || !existsSync(join(PG_BIN, 'initdb'))
    ? 'PostgreSQL binaries (Debian package postgresql) not found'
    : !REDIS_BIN
      ? 'redis-server (Debian package redis-server) not found'
      : null;
if (serversMissing) {
  console.warn(
    `\n!!!!! LAB SERVER TESTS SKIPPED: ${serversMissing}. CI must install postgresql and redis-server (.ci/run). !!!!!\n`,
  );
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

async function waitFor(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`${what} did not come up`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface RunningServer {
  url: string;
  /** The server's process id (it changes with a restart). */
  pid: number;
  /**
   * PostgreSQL: `pg_ctl restart -m fast` (every connection ends with 57P01, the data stays). Redis: killed (-9) and
   * started again on the same port without its data.
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Further addresses a server listens on besides 127.0.0.1 (a test's network namespace reaches it there). */
export interface ListenOptions {
  extraAddresses?: string[];
}

/** As root, PostgreSQL runs as the `postgres` user (it refuses root). */
function asPostgres(cmd: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function startPostgres(o: ListenOptions = {}): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'phasedesk-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
      gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  execFileSync(
    ...asPostgres(join(PG_BIN!, 'initdb'), ['-D', data, '-U', 'phasedesk', '--auth=trust', '-E', 'UTF8', '--no-sync']),
    { stdio: 'ignore' },
  );
  const extra = o.extraAddresses ?? [];
  for (const a of extra)
    appendFileSync(join(data, 'pg_hba.conf'), `host all all ${a.replace(/\.\d+$/, '.0')}/24 trust\n`);
  // Test settings: no fsync (the server's data is thrown away), sockets in the temp dir, loopback (and the given
  // addresses) only.
  const pgCtl = (action: string, more: string[] = []) => {
    const [cmd, args] = asPostgres(join(PG_BIN!, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-w',
      ...more,
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=${['127.0.0.1', ...extra].join(',')} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
      action,
    ]);
    execFileSync(cmd, args, { stdio: 'ignore' });
  };
  pgCtl('start');
  const postmasterPid = () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let pid = postmasterPid();
  return {
    url: `postgres://phasedesk@127.0.0.1:${port}/postgres`,
    get pid() {
      return pid;
    },
    async restart() {
      pgCtl('restart', ['-m', 'fast']);
      pid = postmasterPid();
    },
    async stop() {
      // SIGQUIT: immediate shutdown of the postmaster and its children.
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {
        /* already gone */
      }
      await waitFor(() => !pidAlive(pid), 'postgres shutdown', 15_000).catch(() => {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh database on a running server (one per test file keeps them apart). */
export async function createDatabase(server: RunningServer, name: string): Promise<string> {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: server.url });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE ${name}`);
  } finally {
    await c.end();
  }
  return server.url.replace(/\/postgres$/, `/${name}`);
}

/** redis-server on `port` with nothing kept on disk; resolves once it accepts connections. */
async function spawnRedis(port: number, dir: string, binds: string[]): Promise<ChildProcess> {
  const child: ChildProcess = spawn(
    REDIS_BIN!,
    [
      '--port',
      String(port),
      '--bind',
      ...binds,
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--maxmemory-policy',
      'noeviction',
      // a test's network namespace reaches it on a link-local address of a link the test made (no password there)
      ...(binds.length > 1 ? ['--protected-mode', 'no'] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  await waitFor(() => /Ready to accept connections/.test(out) || child.exitCode !== null, 'redis-server');
  if (child.exitCode !== null) throw new Error(`redis-server ended: ${out.slice(-500)}`);
  return child;
}

async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((r) => child.once('exit', r));
  process.kill(child.pid!, 'SIGKILL');
  await ended;
}

export async function startRedis(o: ListenOptions = {}): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'phasedesk-redis-'));
  const port = await freePort();
  const binds = ['127.0.0.1', ...(o.extraAddresses ?? [])];
  let child = await spawnRedis(port, dir, binds);
  return {
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child.pid!;
    },
    async restart() {
      await killChild(child);
      child = await spawnRedis(port, dir, binds);
    },
    async stop() {
      await killChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
