// Command-line options shared by the dispatcher (main/cli.ts) and the commands it loads: node:util only, so that
// finding the command costs nothing beyond Node's own start.
import { parseArgs } from 'node:util';

export const USAGE = `usage: phasedesk <command> [--data-dir DIR]       (phasedesk <command> --help: that command's help)
  start [--port N]                          start the service (PHASEDESK_PORT, PHASEDESK_DATA_DIR)
  user create NAME --plan PLAN [--email E]  create a user
  plan set NAME --limit N                   create/update a plan (task_using_limit per rolling 24 h)
  user plan NAME --plan PLAN                move a user to a plan
  key issue USER [--name N] [--expires T]   issue a key (printed once)
  key list USER | key name ID NAME | key disable ID | key enable ID | key delete ID
  subscribe USER CODE --status S [--expires T] [--plan P]
  db import FILE --code C --name N --level L --type T --version V [--description D] [--support-tasks a,b] [--replace]
  db enable CODE | db disable CODE | db hide CODE
  calc CONFIG.json (--tdb FILE | --db CODE) --out DIR [--threads N]   run a task_config without the service
  batch TABLE.csv (--tdb FILE | --db CODE) --out DIR [...]  one equilibrium per row of a CSV table (phasedesk batch --help)
  server | worker                           lab server: the API on PostgreSQL + Redis, and its workers (--help)
against a running service (API key from PHASEDESK_API_KEY or the file of --config; docs/cli.md):
  db list                                   the databases the service offers
  task list | task show ID | task result ID | task cancel ID | task delete ID
  submit CONFIG.json [--wait] [--out DIR]   create a task from a task_config file
exit codes: 0 done, 1 failed, 2 bad input, 3 no API key or access refused, 4 service unreachable or failing`;

/** Options every command against a running service takes. */
const REMOTE_OPTIONS = `  --url URL      the service (PHASEDESK_URL, the config file's url; default http://127.0.0.1:7431/api/v2)
  --config FILE  JSON file with api_key (and url); default PHASEDESK_CLI_CONFIG or ~/.config/phasedesk/cli.json.
                 The key comes from PHASEDESK_API_KEY or this file, never from the command line.
  --json         print the service's JSON answer instead of text`;

/** The help of each command, by its words ("db import"); a word alone ("key") gives its commands together. */
export const COMMAND_HELP: Record<string, string> = {
  start: `usage: phasedesk start [--port N] [--data-dir DIR]
  runs the /api/v2 listener with the scheduler until SIGINT/SIGTERM (PHASEDESK_PORT, PHASEDESK_DATA_DIR); prints the
  API key on the first start, the console token and the address to open in a browser`,
  'user create': `usage: phasedesk user create NAME --plan PLAN [--email E] [--data-dir DIR]
  creates a user on a plan (phasedesk plan set makes plans)`,
  'user plan': `usage: phasedesk user plan NAME --plan PLAN [--data-dir DIR]
  moves a user to another plan`,
  'plan set': `usage: phasedesk plan set NAME --limit N [--data-dir DIR]
  creates or updates a plan: N task creations per rolling 24 hours`,
  'key issue': `usage: phasedesk key issue USER [--name N] [--expires TIME] [--data-dir DIR]
  issues an API key for USER; the key is printed once (only its sha256 is stored). --expires: an RFC 3339 time`,
  'key list': `usage: phasedesk key list USER [--data-dir DIR]
  lists USER's keys (id, name, active, created, last used, expiry; never the keys themselves)`,
  'key name': `usage: phasedesk key name ID NAME [--data-dir DIR]
  renames key ID`,
  'key disable': `usage: phasedesk key disable ID [--data-dir DIR]
  disables key ID (requests with it get 401 until it is enabled)`,
  'key enable': `usage: phasedesk key enable ID [--data-dir DIR]
  enables key ID again`,
  'key delete': `usage: phasedesk key delete ID [--data-dir DIR]
  deletes key ID`,
  subscribe: `usage: phasedesk subscribe USER CODE --status S [--expires TIME] [--plan P] [--data-dir DIR]
  sets USER's subscription to database CODE (S: active, trail, inactive, expired, pending)`,
  'db import': `usage: phasedesk db import FILE --code C --name N --level L --type T --version V [--description D]
                          [--support-tasks a,b] [--replace] [--data-dir DIR]
  reads a TDB file (warnings and refused phases printed with file and line) and stores it as database C`,
  'db enable': `usage: phasedesk db enable CODE [--data-dir DIR]
  makes database CODE usable again`,
  'db disable': `usage: phasedesk db disable CODE [--data-dir DIR]
  disables database CODE (listed nowhere; tasks on it are refused)`,
  'db hide': `usage: phasedesk db hide CODE [--data-dir DIR]
  hides database CODE (the specification's "invisible" state)`,
  'db list': `usage: phasedesk db list [--url URL] [--config FILE] [--json]
  the databases the running service offers: code (the task_config's tdb_code), version, level, elements, name
${REMOTE_OPTIONS}`,
  'task list': `usage: phasedesk task list [--status S,..] [--type T,..] [--search TEXT] [--page N] [--items N] [--desc]
                         [--url URL] [--config FILE] [--json]
  your tasks on the running service, oldest first (--desc: newest first), 20 a page
${REMOTE_OPTIONS}`,
  'task show': `usage: phasedesk task show ID [--url URL] [--config FILE] [--json]
  the task record: status, type, database, times, duration, result summary, logs
${REMOTE_OPTIONS}`,
  'task result': `usage: phasedesk task result ID [--out DIR | --file NAME] [--kind result|preview|vtk] [--url URL] [--config FILE]
  without --out or --file: the names and URLs of the task's files (--kind: result by default);
  --out DIR: downloads every result and preview file (or only --kind) to DIR/result/, DIR/preview/, DIR/vtk/;
  --file NAME: writes that file (result.csv, point.svg...) to standard output
${REMOTE_OPTIONS}`,
  'task cancel': `usage: phasedesk task cancel ID [--url URL] [--config FILE] [--json]
  cancels a pending, queued or running task (exit code 2 in another state)
${REMOTE_OPTIONS}`,
  'task delete': `usage: phasedesk task delete ID [--url URL] [--config FILE]
  stops the task if it runs, then deletes it with its files
${REMOTE_OPTIONS}`,
  submit: `usage: phasedesk submit CONFIG.json [--title T] [--no-cache] [--threads N] [--wait] [--out DIR]
                        [--url URL] [--config FILE] [--json]
  creates a task on the running service from a task_config (JSON, or a whole POST /task body) and prints its id;
  --wait: waits until it ends (exit code 0 completed, 1 failed or aborted); --out DIR: waits, then downloads its
  result and preview files to DIR/result/ and DIR/preview/
${REMOTE_OPTIONS}`,
};

/** The help of the command `words` name (its longest known prefix), or of all the commands of their first word. */
export function commandHelp(words: readonly string[]): string | undefined {
  const [a, b] = words;
  if (a === undefined) return undefined;
  if (b !== undefined && Object.hasOwn(COMMAND_HELP, `${a} ${b}`)) return COMMAND_HELP[`${a} ${b}`];
  if (Object.hasOwn(COMMAND_HELP, a)) return COMMAND_HELP[a];
  const group = Object.keys(COMMAND_HELP).filter((k) => k.startsWith(`${a} `));
  return group.length > 0 ? group.map((k) => COMMAND_HELP[k]).join('\n') : undefined;
}

const CONSOLE_OPTIONS = {
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  plan: { type: 'string' },
  email: { type: 'string' },
  limit: { type: 'string' },
  name: { type: 'string' },
  expires: { type: 'string' },
  status: { type: 'string' },
  code: { type: 'string' },
  level: { type: 'string' },
  type: { type: 'string' },
  version: { type: 'string' },
  description: { type: 'string' },
  'support-tasks': { type: 'string' },
  replace: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The options of `start` and the console commands (one set, as before the commands were split into modules). */
export function parseConsoleArgs(argv: string[]) {
  return parseArgs({ args: argv, allowPositionals: true, strict: true, options: CONSOLE_OPTIONS });
}

/** --port N as a number, undefined when absent; throws naming the bound. */
export function portOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be an integer 0..65535');
  return port;
}
