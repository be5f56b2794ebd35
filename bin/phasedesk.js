#!/usr/bin/env node
// Command-line entry: `node bin/phasedesk.js ...`, `npm run calc -- ...` and `npx phasedesk ...` in a clone all run
// the compiled CLI (dist/main/cli.js) of the last build (`npm install`, `npm run build` or `npm start`) and never
// build or install anything themselves.
import module from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

// Node 22.1+ keeps compiled code between runs (a shorter start for every command); Node 20 has no such cache.
module.enableCompileCache?.();

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '..', 'dist', 'main', 'cli.js');
if (!existsSync(cli)) {
  console.error('PhaseDesk is not built yet: run `npm install` (or `npm run build`) in ' + path.join(here, '..'));
  process.exit(1);
}
await import(pathToFileURL(cli).href);
