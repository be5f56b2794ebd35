// The connection of the command line to a running service (`phasedesk task ...`, `submit`, `db list`): where the
// service is and which API key to send, and one request with the exit code each failure gives (docs/cli.md
// "Exit codes"). The key comes from PHASEDESK_API_KEY or a config file, never from the command line alone: a key in
// the arguments would be readable by every user of the machine (ps) and kept in shell histories.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Exit codes of the command line (docs/cli.md). */
export const EXIT = { ok: 0, failed: 1, badInput: 2, noAccess: 3, unreachable: 4 } as const;

/** A failure that ends the command with an exit code and a message on stderr. */
export class CliExit extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Remote {
  /** base URL of /api/v2, without a trailing slash */
  url: string;
  key: string;
}

/** The config file: --config, else PHASEDESK_CLI_CONFIG, else ~/.config/phasedesk/cli.json (XDG_CONFIG_HOME). */
export function configFile(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return flag;
  if (env.PHASEDESK_CLI_CONFIG) return env.PHASEDESK_CLI_CONFIG;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'phasedesk', 'cli.json');
}

function readConfig(file: string, given: boolean): { api_key?: unknown; url?: unknown } {
  if (!existsSync(file)) {
    if (given) throw new CliExit(EXIT.badInput, `--config ${file}: no such file`);
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new CliExit(EXIT.badInput, `${file}: not a JSON object with api_key (${(e as Error).message})`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new CliExit(EXIT.badInput, `${file}: not a JSON object with api_key`);
  // a key file others can read is a key others can use
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0)
    console.error(`warning: ${file} is readable by other users (chmod 600 ${file})`);
  return parsed as { api_key?: unknown; url?: unknown };
}

/**
 * The service and the key: --url, else PHASEDESK_URL, else the config file's url, else the local service
 * (PHASEDESK_PORT, default 7431); the key from PHASEDESK_API_KEY, else the config file's api_key.
 */
export function remoteOf(o: { url?: string; config?: string }, env: NodeJS.ProcessEnv = process.env): Remote {
  const file = configFile(o.config, env);
  const cfg = readConfig(file, o.config !== undefined);
  const key = env.PHASEDESK_API_KEY || (typeof cfg.api_key === 'string' ? cfg.api_key : '');
  if (!key)
    throw new CliExit(
      EXIT.noAccess,
      `no API key: set PHASEDESK_API_KEY or write {"api_key": "tk_..."} to ${file} (mode 600)`,
    );
  const url =
    o.url ||
    env.PHASEDESK_URL ||
    (typeof cfg.url === 'string' && cfg.url) ||
    `http://127.0.0.1:${env.PHASEDESK_PORT || 7431}/api/v2`;
  return { url: url.replace(/\/+$/, ''), key };
}

/** The exit code of an HTTP status: a refused request is bad input (2) or no access (3); the service failing, 4. */
export function exitCodeOf(status: number): number {
  if (status === 401 || status === 403) return EXIT.noAccess;
  if (status >= 400 && status < 500) return EXIT.badInput;
  return EXIT.unreachable;
}

/** The service's error text of a failed answer (`error`, the specification's field), else the status line. */
async function errorText(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { error?: unknown; details?: unknown };
    if (typeof body.error === 'string')
      return typeof body.details === 'string' ? `${body.error} (${body.details})` : body.error;
  } catch {
    /* not JSON: the text is the message */
  }
  return text.trim() || `HTTP ${res.status}`;
}

/** GET/POST/PATCH/DELETE `path` of the service with the key; the JSON answer, or CliExit with the exit code. */
export async function request<T>(r: Remote, method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(r.url + path, {
      method,
      headers: {
        authorization: `Bearer ${r.key}`,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new CliExit(
      EXIT.unreachable,
      `cannot reach the service at ${r.url}: ${cause?.code ?? cause?.message ?? (e as Error).message} (is phasedesk start running? --url, PHASEDESK_URL)`,
    );
  }
  if (!res.ok) throw new CliExit(exitCodeOf(res.status), `${method} ${path}: ${res.status} ${await errorText(res)}`);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The bytes behind a signed file URL (the URL is the credential: no key is sent). */
export async function download(url: string): Promise<Buffer> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new CliExit(EXIT.unreachable, `cannot download ${url}: ${(e as Error).message}`);
  }
  if (!res.ok) throw new CliExit(exitCodeOf(res.status), `download ${url}: ${res.status} ${await errorText(res)}`);
  return Buffer.from(await res.arrayBuffer());
}

/** The file name at the end of a signed URL. */
export function fileNameOf(url: string): string {
  const p = new URL(url).pathname;
  return decodeURIComponent(p.slice(p.lastIndexOf('/') + 1));
}
