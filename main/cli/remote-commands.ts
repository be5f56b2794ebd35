// The commands against a running service: `db list`, `task list|show|result|cancel|delete` and `submit`, each one or
// a few /api/v2 requests (main/cli/remote.ts) printed as text, or as the service's JSON with --json. A script reads
// the exit code (docs/cli.md "Exit codes") and, with --json, the specification's own objects.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { COMMAND_HELP } from './options.js';
import { CliExit, EXIT, remoteOf, request, type Remote } from './remote.js';
import { printFileList, saveFiles, writeFileToStdout, type FileKind } from './remote-files.js';

type Values = Record<string, string | boolean | undefined>;

const OPTIONS = {
  url: { type: 'string' },
  config: { type: 'string' },
  json: { type: 'boolean' },
  status: { type: 'string' },
  type: { type: 'string' },
  search: { type: 'string' },
  page: { type: 'string' },
  items: { type: 'string' },
  desc: { type: 'boolean' },
  out: { type: 'string' },
  file: { type: 'string' },
  kind: { type: 'string' },
  title: { type: 'string' },
  'no-cache': { type: 'boolean' },
  threads: { type: 'string' },
  wait: { type: 'boolean' },
} as const;

/** Which options each command takes (any other is bad input, named). */
const ALLOWED: Record<string, readonly string[]> = {
  'db list': ['url', 'config', 'json'],
  'task list': ['url', 'config', 'json', 'status', 'type', 'search', 'page', 'items', 'desc'],
  'task show': ['url', 'config', 'json'],
  'task result': ['url', 'config', 'out', 'file', 'kind'],
  'task cancel': ['url', 'config', 'json'],
  'task delete': ['url', 'config'],
  submit: ['url', 'config', 'json', 'title', 'no-cache', 'threads', 'wait', 'out'],
};

interface Call {
  remote: Remote;
  o: Values;
  /** the positional words after the command's name */
  args: string[];
}

interface TaskRecord {
  id: number;
  title: string;
  status: string;
  task_type: string;
  tdb_code?: string | null;
  result?: string | null;
  logs?: string | null;
  created_at: string;
  updated_at: string;
  progress?: number;
  stage?: string | null;
  duration_ms?: number | null;
}

const TERMINAL = new Set(['completed', 'failed', 'aborted']);

function usageError(command: string, problem: string): CliExit {
  return new CliExit(EXIT.badInput, `${problem}\n${COMMAND_HELP[command] ?? ''}`.trimEnd());
}

/** A positive integer option or argument, or bad input naming it. */
function positiveInt(v: string | boolean | undefined, what: string, command: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isInteger(n) || n < 1)
    throw usageError(command, `${what} must be a positive integer`);
  return n;
}

/** The task id argument: a positive integer. */
function taskId(c: Call, command: string): number {
  if (c.args.length !== 1) throw usageError(command, 'give exactly one task ID');
  return positiveInt(c.args[0], 'ID', command)!;
}

function printJson(v: unknown): void {
  console.log(JSON.stringify(v, null, 2));
}

/** Text columns padded to their widest cell. */
function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [header, ...rows])
    console.log(
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
}

function durationText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '-';
  return ms < 10_000 ? `${(ms / 1000).toFixed(3)} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** The elements of a database, the first twelve and a count beyond them (--json gives them all). */
function elementsText(list: string[]): string {
  const els = list.filter((e) => !['VA', '/-'].includes(e));
  return els.length > 12 ? `${els.slice(0, 12).join(' ')} ... (${els.length})` : els.join(' ');
}

async function dbList({ remote, o }: Call): Promise<number> {
  type Db = { code: string; name: string; version: string; level: string; element_list: string[] };
  const items: Db[] = [];
  for (let page = 1; ; page++) {
    const r = await request<{ items: Db[]; total: number }>(remote, 'GET', `/database?page=${page}&size=100`);
    items.push(...r.items);
    if (r.items.length === 0 || items.length >= r.total) break;
  }
  if (o.json) printJson(items);
  else
    printTable(
      ['CODE', 'VERSION', 'LEVEL', 'ELEMENTS', 'NAME'],
      items.map((d) => [d.code, d.version, d.level, elementsText(d.element_list), d.name]),
    );
  return EXIT.ok;
}

async function taskList({ remote, o }: Call): Promise<number> {
  const q = new URLSearchParams({
    page: String(positiveInt(o.page, '--page', 'task list') ?? 1),
    items_per_page: String(positiveInt(o.items, '--items', 'task list') ?? 20),
    sort_order: o.desc ? 'desc' : 'asc',
  });
  for (const [k, v] of [
    ['status', o.status],
    ['task_type', o.type],
    ['search', o.search],
  ] as const)
    if (typeof v === 'string') q.set(k, v);
  const r = await request<{ data: TaskRecord[]; total: number; page: number; total_pages: number }>(
    remote,
    'GET',
    `/task/list?${q}`,
  );
  if (o.json) {
    printJson(r);
    return EXIT.ok;
  }
  printTable(
    ['ID', 'STATUS', 'TYPE', 'DATABASE', 'CREATED', 'DURATION', 'TITLE'],
    r.data.map((t) => [
      String(t.id),
      t.status,
      t.task_type,
      t.tdb_code ?? '-',
      t.created_at,
      durationText(t.duration_ms),
      t.title,
    ]),
  );
  console.log(`page ${r.page} of ${r.total_pages} (${r.total} tasks)`);
  return EXIT.ok;
}

function printTask(t: TaskRecord): void {
  const lines: [string, string][] = [
    ['id', String(t.id)],
    ['title', t.title],
    ['status', t.status + (t.stage ? ` (${t.stage})` : '')],
    ['type', t.task_type],
    ['database', t.tdb_code ?? '-'],
    ['created', t.created_at],
    ['updated', t.updated_at],
    ['duration', durationText(t.duration_ms)],
    ['result', t.result ?? '-'],
  ];
  for (const [k, v] of lines) console.log(`${`${k}:`.padEnd(10)}${v}`);
  if (t.logs) console.log(`logs:\n${t.logs.replace(/^/gm, '  ')}`);
}

async function taskShow(c: Call): Promise<number> {
  const t = await request<TaskRecord>(c.remote, 'GET', `/task/${taskId(c, 'task show')}`);
  if (c.o.json) printJson(t);
  else printTask(t);
  return EXIT.ok;
}

function kindOf(v: string | boolean | undefined): FileKind | undefined {
  if (v === undefined) return undefined;
  if (v === 'result' || v === 'preview' || v === 'vtk') return v;
  throw usageError('task result', '--kind must be one of: result, preview, vtk');
}

async function taskResult(c: Call): Promise<number> {
  const id = taskId(c, 'task result');
  const kind = kindOf(c.o.kind);
  if (typeof c.o.out === 'string' && typeof c.o.file === 'string')
    throw usageError('task result', 'give --out DIR or --file NAME, not both');
  if (typeof c.o.file === 'string') await writeFileToStdout(c.remote, id, c.o.file, kind ?? 'result');
  else if (typeof c.o.out === 'string') await saveFiles(c.remote, id, c.o.out, kind ? [kind] : ['result', 'preview']);
  else await printFileList(c.remote, id, kind ?? 'result');
  return EXIT.ok;
}

async function taskCancel(c: Call): Promise<number> {
  const t = await request<TaskRecord>(c.remote, 'PATCH', `/task/${taskId(c, 'task cancel')}/cancel`);
  if (c.o.json) printJson(t);
  else console.log(`task ${t.id} ${t.status}`);
  return EXIT.ok;
}

async function taskDelete(c: Call): Promise<number> {
  const id = taskId(c, 'task delete');
  await request<unknown>(c.remote, 'DELETE', `/task/${id}`);
  console.log(`task ${id} deleted`);
  return EXIT.ok;
}

/** The body of POST /task from a file holding a task_config or a whole body ({title, task_config, ...}). */
function submitBody(c: Call): Record<string, unknown> {
  if (c.args.length !== 1) throw usageError('submit', 'give exactly one CONFIG.json');
  const file = c.args[0]!;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new CliExit(EXIT.badInput, `${file}: ${(e as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new CliExit(EXIT.badInput, `${file}: not a JSON object (a task_config or a POST /task body)`);
  const obj = parsed as Record<string, unknown>;
  const whole = 'task_config' in obj && !('task_type' in obj);
  const body: Record<string, unknown> = whole ? { ...obj } : { task_config: obj };
  if (typeof c.o.title === 'string') body.title = c.o.title;
  body.title ??= basename(file).replace(/\.json$/i, '');
  if (c.o['no-cache']) body.no_cache = true;
  const threads = positiveInt(c.o.threads, '--threads', 'submit');
  if (threads !== undefined) body.omp_threads = threads;
  return body;
}

/** Polls the task every half second until it ends; prints what it is doing when that changes (stderr). */
async function waitForTask(remote: Remote, id: number): Promise<TaskRecord> {
  let said = '';
  for (;;) {
    const t = await request<TaskRecord>(remote, 'GET', `/task/${id}`);
    if (TERMINAL.has(t.status)) return t;
    const now = `${t.status}${t.stage ? `: ${t.stage}` : ''}`;
    if (now !== said) console.error(`task ${id} ${now}`);
    said = now;
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function submit(c: Call): Promise<number> {
  const body = submitBody(c);
  const created = await request<{ id: number; status: string }>(c.remote, 'POST', '/task', body);
  const out = typeof c.o.out === 'string' ? c.o.out : undefined;
  if (!c.o.wait && !out) {
    if (c.o.json) printJson(created);
    else console.log(`task ${created.id} ${created.status}`);
    return EXIT.ok;
  }
  const t = await waitForTask(c.remote, created.id);
  if (c.o.json) printJson(t);
  else console.log(`task ${t.id} ${t.status}${t.result ? `: ${t.result}` : ''}`);
  if (t.status !== 'completed') {
    if (t.logs && !c.o.json) console.error(t.logs);
    return EXIT.failed;
  }
  if (out) await saveFiles(c.remote, t.id, out, ['result', 'preview']);
  return EXIT.ok;
}

const RUN: Record<string, (c: Call) => Promise<number>> = {
  'db list': dbList,
  'task list': taskList,
  'task show': taskShow,
  'task result': taskResult,
  'task cancel': taskCancel,
  'task delete': taskDelete,
  submit,
};

/** The command of the words (`task show`, `submit`) and the positional arguments after it. */
function commandOf(positionals: string[]): { name: string; args: string[] } {
  const [a, b] = positionals;
  if (a === 'submit') return { name: a, args: positionals.slice(1) };
  const name = `${a} ${b ?? ''}`.trim();
  if (!Object.hasOwn(RUN, name)) {
    const known = Object.keys(RUN).filter((k) => k.startsWith(`${a} `));
    throw new CliExit(EXIT.badInput, `unknown command '${name}' (${known.join(', ')})`);
  }
  return { name, args: positionals.slice(2) };
}

/** `phasedesk db list | task ... | submit ...`: the exit code (messages on stderr). */
export async function run(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
    const { name, args } = commandOf(positionals);
    const extra = Object.keys(values).filter((k) => !ALLOWED[name]!.includes(k));
    if (extra.length > 0) throw usageError(name, `${name} takes no --${extra[0]}`);
    return await RUN[name]!({ remote: remoteOf(values as Values), o: values as Values, args });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (e instanceof CliExit || code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`phasedesk: ${(e as Error).message}`);
      return e instanceof CliExit ? e.exitCode : EXIT.badInput;
    }
    throw e;
  }
}
