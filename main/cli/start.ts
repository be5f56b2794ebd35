// `phasedesk start`: the /api/v2 listener with the scheduler, until SIGINT/SIGTERM.
import { join } from 'node:path';
import { startService } from '../server.js';
import { parseConsoleArgs, portOption } from './options.js';
import { runUntilSignal } from './until-signal.js';

export async function run(argv: string[]): Promise<number> {
  const { values: o } = parseConsoleArgs(argv);
  const port = portOption(o.port);
  // Only the flags are passed: resolveSettings records where each value came from (Settings shows it).
  const svc = await startService({ dataDir: o['data-dir'], port });
  if (svc.firstKey) console.log(`API key: ${svc.firstKey}`);
  // The console token guards /console/v1 (keys, databases, settings in the renderer); it stays readable in the file.
  console.log(`Console token: ${svc.consoleToken} (also in ${join(svc.ctx.settings.dataDir, 'console-token')})`);
  console.log(`PhaseDesk listening on ${svc.baseUrl}`);
  console.log(`Open ${svc.ctx.origin}/ in a browser`);
  return runUntilSignal(() => svc.close());
}
