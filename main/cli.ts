#!/usr/bin/env node
// PhaseDesk command line: `start` runs the /api/v2 listener; `calc` runs one task_config without the service and
// `batch` an equilibrium_batch of a CSV table; the other commands are the web-console operations of the spec against
// a data directory.
// Each command's module is imported only when that command runs: a `calc` never loads fastify, Kysely or SQLite,
// and `--help` loads nothing but node:util (test/cli/lazy-loading.test.ts checks both).
import v8 from 'node:v8';
import { commandHelp, parseConsoleArgs, USAGE } from './cli/options.js';

interface Command {
  run(argv: string[]): Promise<number>;
}

const CONSOLE_COMMAND = () => import('./cli/console.js');
const REMOTE_COMMAND = () => import('./cli/remote-commands.js');

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
  task: REMOTE_COMMAND,
  submit: REMOTE_COMMAND,
  server: async () => ({ run: (argv) => import('./cli/lab.js').then((m) => m.serverCommand(argv.slice(1))) }),
  worker: async () => ({ run: (argv) => import('./cli/lab.js').then((m) => m.workerCommand(argv.slice(1))) }),
};

/** Commands that parse their own options and print their own help. */
const OWN_OPTIONS = new Set(['calc', 'batch', 'server', 'worker']);

/** `phasedesk help WORDS` and `phasedesk WORDS --help`: the command's help, else the usage (exit code 0). */
function printHelp(words: string[]): number {
  console.log(commandHelp(words) ?? USAGE);
  return 0;
}

/**
 * A calculation's process keeps V8's young generation at its first size, a semi-space of 1 MB: by default it grows
 * to 16 MB per semi-space (32 MB resident) under the allocation of loading the modules and converting results, memory
 * the peak of a task adds to the core's grids, for a few percent more scavenges (docs/benchmarks.md, memory). V8 fixes
 * the largest size when the process starts (--max-semi-space-size, which a running process cannot change); the
 * growth factor is read at every growth, so a factor of 1 keeps the first size.
 */
function keepYoungGenerationSmall(): void {
  v8.setFlagsFromString('--semi-space-growth-factor=1');
}

async function main(argv: string[]): Promise<number> {
  const first = argv[0];
  if (first === 'calc' || first === 'batch') keepYoungGenerationSmall();
  if (first === 'help' || first === '--help' || first === '-h') {
    const words = argv.slice(1);
    const own = words[0];
    if (own === 'calc') return (await COMMANDS.calc()).run(['--help']);
    if (own !== undefined && OWN_OPTIONS.has(own)) return (await COMMANDS[own]()).run([own, '--help']);
    return printHelp(words);
  }
  // `calc` has its own options (main/console/calc.ts) and needs no data directory.
  if (first === 'calc') return (await COMMANDS.calc()).run(argv.slice(1));
  if (first === 'batch') return (await COMMANDS.batch()).run(argv);
  // The lab server's commands parse their own options (main/cli/lab.ts).
  if (first === 'server' || first === 'worker') return (await COMMANDS[first]()).run(argv);
  if (argv.includes('--help') || argv.includes('-h')) return printHelp(argv.filter((a) => !a.startsWith('-')));
  // `db list` asks the running service; the other db commands work on the data directory.
  if (first === 'db' && argv[1] === 'list') return (await REMOTE_COMMAND()).run(argv);
  if (first === 'task' || first === 'submit') return (await COMMANDS[first]()).run(argv);
  const { positionals } = parseConsoleArgs(argv);
  const name = positionals[0];
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
  (e: Error & { code?: string }) => {
    console.error(`error: ${e.message}`);
    // a misspelled option or a missing value is bad input (node:util parseArgs)
    process.exitCode = e.code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1;
  },
);
