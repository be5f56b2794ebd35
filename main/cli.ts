#!/usr/bin/env node
// PhaseDesk command line: `start` runs the /api/v2 listener; `calc` runs one task_config without the service and
// `batch` an equilibrium_batch of a CSV table; the other commands are the web-console operations of the spec against
// a data directory.
// Each command's module is imported only when that command runs: a `calc` never loads fastify, Kysely or SQLite,
// and `--help` loads nothing but node:util (test/cli/lazy-loading.test.ts checks both).
import { parseConsoleArgs, USAGE } from './cli/options.js';

interface Command {
  run(argv: string[]): Promise<number>;
}

const CONSOLE_COMMAND = () => import('./cli/console.js');

/** Command name -> its module, loaded on demand. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  start: () => import('./cli/start.js'),
  calc: async () => ({ run: (await import('./console/calc.js')).calcCommand }),
  batch: () => import('./cli/batch.js'),
  user: CONSOLE_COMMAND,
  plan: CONSOLE_COMMAND,
  key: CONSOLE_COMMAND,
  subscribe: CONSOLE_COMMAND,
  db: CONSOLE_COMMAND,
  server: async () => ({ run: (argv) => import('./cli/lab.js').then((m) => m.serverCommand(argv.slice(1))) }),
  worker: async () => ({ run: (argv) => import('./cli/lab.js').then((m) => m.workerCommand(argv.slice(1))) }),
};

async function main(argv: string[]): Promise<number> {
  // `calc` has its own options (main/console/calc.ts) and needs no data directory.
  if (argv[0] === 'calc') return (await COMMANDS.calc()).run(argv.slice(1));
  if (argv[0] === 'batch') return (await COMMANDS.batch()).run(argv);
  // The lab server's commands parse their own options (main/cli/lab.ts).
  if (argv[0] === 'server' || argv[0] === 'worker') return (await COMMANDS[argv[0]]()).run(argv);
  if (argv.length === 1 && (argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h')) {
    console.log(USAGE);
    return 0;
  }
  const { values, positionals } = parseConsoleArgs(argv);
  const name = positionals[0];
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (name === undefined) {
    console.error(USAGE);
    return 2;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    console.error(`unknown command '${name}'\n${USAGE}`);
    return 2;
  }
  return (await load()).run(argv);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (e: Error) => {
    console.error(`error: ${e.message}`);
    process.exitCode = 1;
  },
);
