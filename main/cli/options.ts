// Command-line options shared by the dispatcher (main/cli.ts) and the commands it loads: node:util only, so that
// finding the command costs nothing beyond Node's own start.
import { parseArgs } from 'node:util';

export const USAGE = `usage: phasedesk <command> [--data-dir DIR]
  start [--port N]                          start the service (PHASEDESK_PORT, PHASEDESK_DATA_DIR)
  user create NAME --plan PLAN [--email E]  create a user
  plan set NAME --limit N                   create/update a plan (task_using_limit per rolling 24 h)
  user plan NAME --plan PLAN                move a user to a plan
  key issue USER [--name N] [--expires T]   issue a key (printed once)
  key list USER | key name ID NAME | key disable ID | key enable ID | key delete ID
  subscribe USER CODE --status S [--expires T] [--plan P]
  db import FILE --code C --name N --level L --type T --version V [--description D] [--support-tasks a,b] [--replace]
  db enable CODE | db disable CODE | db hide CODE
  calc CONFIG.json --tdb FILE --out DIR [--threads N]   run a task_config without the service (writes result/ and preview/)
  batch TABLE.csv (--tdb FILE | --db CODE) --out DIR [...]  one equilibrium per row of a CSV table (phasedesk batch --help)
  server | worker                           lab server: the API on PostgreSQL + Redis, and its workers (--help)`;

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
