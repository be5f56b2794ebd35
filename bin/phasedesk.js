#!/usr/bin/env node
// Command-line entry (`npx phasedesk ...`): runs the compiled CLI; build first with `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '..', 'dist', 'main', 'cli.js');
if (!existsSync(cli)) {
  console.error('PhaseDesk is not built yet: run `npm install` then `npm run build` in ' + path.join(here, '..'));
  process.exit(1);
}
await import(pathToFileURL(cli).href);
