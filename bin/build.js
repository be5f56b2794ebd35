#!/usr/bin/env node
// Builds only what changed since the last build: `node bin/build.js [addon] [tsc] [renderer] [test-hooks]` (the
// first three when none is named). Used by `npm install`, `npm start`, `npm test` and `npm run build*`, so that a
// start with nothing changed costs a few file checks instead of a full compile.
//   addon       native-core/ with node-gyp, when an addon is missing or a source under native-core/ changed
//               (modification time first; a newer file whose content matches the last build's hash is no change).
//   tsc         `tsc -b tsconfig.json`: TypeScript's own incremental build (dist/tsconfig.tsbuildinfo); then the
//               outputs of deleted sources are removed, so that the installers do not pack them.
//   renderer    `vite build` of renderer/, when a file the last build read (recorded in
//               dist/renderer-build-inputs.json) changed, or package-lock.json did.
//   test-hooks  test/support/hooks/ (the test calculations and the test-only addon's loader) into
//               dist/test/support/hooks/: the tests' setup builds it, the production build never does.
// A failing step exits non-zero and stops the steps after it; with --type-errors-warn (npm install) type errors are
// reported without failing, as tsc still writes dist/.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'package.json'));

const STEPS = { addon: buildAddon, tsc: buildTypeScript, renderer: buildRenderer, 'test-hooks': buildTestHooks };
/** What `node bin/build.js` builds when no step is named: the app, never the test hooks. */
const DEFAULT_STEPS = ['addon', 'tsc', 'renderer'];

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

function filesUnder(dir, keep = () => true, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    // build outputs (build/, private build-*/ folders) and packages are not sources
    if (e.isDirectory()) {
      if (!/^(build|build-.*|node_modules)$/.test(e.name)) filesUnder(p, keep, out);
    } else if (keep(p)) out.push(p);
  }
  return out;
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

// ---- addon -------------------------------------------------------------------------------------------------

const CORE = path.join(ROOT, 'native-core');
const ADDONS = ['phasedesk_core.node', 'phasedesk_core_testing.node'].map((f) =>
  path.join(CORE, 'build', 'Release', f),
);
const ADDON_STAMP = path.join(CORE, 'build', '.sources-sha256');
// The translation units the last configure saw: binding.gyp lists them through native-core/tools/list-sources.cjs
// when gyp runs, so a .cpp file added or removed since needs gyp again, not only make.
const UNITS_STAMP = path.join(CORE, 'build', '.translation-units');

function coreSources() {
  return filesUnder(CORE, (p) => /\.(c|cc|cpp|h|hpp|inc|gyp|gypi|cjs|js)$/.test(p)).sort();
}

function translationUnits() {
  return coreSources()
    .filter((f) => f.endsWith('.cpp'))
    .map((f) => path.relative(CORE, f))
    .join('\n');
}

function sourcesHash(files) {
  const h = createHash('sha256');
  for (const f of files) h.update(path.relative(CORE, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex');
}

/** node-gyp: npm gives its path to scripts (npm_config_node_gyp); otherwise the copy bundled with npm beside node. */
function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    path.join(
      path.dirname(process.execPath),
      '..',
      'lib',
      'node_modules',
      'npm',
      'node_modules',
      'node-gyp',
      'bin',
      'node-gyp.js',
    ),
  ];
  const found = candidates.find((c) => c && existsSync(c));
  if (!found)
    throw new Error('node-gyp not found: run this through npm (npm run build:core) or install npm beside node');
  return found;
}

/**
 * The Node headers for node-gyp: npm passes its `nodedir` setting to scripts; run directly, the headers installed
 * beside this node (a Debian or nodejs.org install has them under <prefix>/include/node) spare a download.
 */
function nodeHeaders() {
  if (process.env.npm_config_nodedir) return [];
  const prefix = path.dirname(path.dirname(process.execPath));
  return existsSync(path.join(prefix, 'include', 'node', 'node_api.h')) ? [`--nodedir=${prefix}`] : [];
}

function buildAddon() {
  const sources = coreSources();
  const built = ADDONS.map(mtime);
  if (built.every((t) => t !== undefined)) {
    const oldest = Math.min(...built);
    if (sources.every((f) => mtime(f) <= oldest)) return 'up to date';
    // touched but identical (a checkout, a copied tree): the hash of the last build decides
    if (existsSync(ADDON_STAMP) && readFileSync(ADDON_STAMP, 'utf8').trim() === sourcesHash(sources))
      return 'up to date (sources unchanged)';
  }
  const configured = mtime(path.join(CORE, 'build', 'config.gypi'));
  const units = translationUnits();
  const gypChanged =
    configured === undefined ||
    mtime(path.join(CORE, 'binding.gyp')) > configured ||
    !existsSync(UNITS_STAMP) ||
    readFileSync(UNITS_STAMP, 'utf8') !== units;
  const args = [nodeGyp(), gypChanged ? 'rebuild' : 'build', '--directory', CORE, ...nodeHeaders()];
  const status = run(process.execPath, args);
  if (status !== 0) return fail('addon', status);
  writeFileSync(ADDON_STAMP, sourcesHash(coreSources()) + '\n');
  writeFileSync(UNITS_STAMP, units);
  return gypChanged ? 'rebuilt' : 'built (changed sources)';
}

// ---- TypeScript --------------------------------------------------------------------------------------------

const TSCONFIG = path.join(ROOT, 'tsconfig.json');
const TS_BUILD_INFO = path.join(ROOT, 'dist', 'tsconfig.tsbuildinfo');
// Written by this script after each successful `tsc -b` and compared with the sources' times. Not the build info
// itself: any other tsc run on tsconfig.json (an editor's, a `tsc --noEmit` check) rewrites that without emitting.
const TS_STAMP = path.join(ROOT, 'dist', '.tsc-build-stamp');

/**
 * What the last `tsc -b` left: 'changed' when one of its inputs may have changed (anything under the folders
 * tsconfig.json includes or references, files or folders so that an added or deleted file counts, tsconfig.json or
 * package-lock.json newer than the build info), 'outputs missing' when a source's .js in dist/ is gone (tsc -b
 * trusts its build info and would not write it again), else 'unchanged': then the compiler (about half a second
 * to load) is not started at all.
 */
function typeScriptState() {
  const built = mtime(TS_STAMP);
  if (built === undefined) return 'changed';
  let config;
  try {
    config = JSON.parse(readFileSync(TSCONFIG, 'utf8'));
  } catch {
    return 'changed';
  }
  if (!Array.isArray(config.include)) return 'changed';
  // the first folder of every include pattern, and the folder of every referenced project (tsc -b builds those too)
  const dirs = new Set(
    [
      ...config.include.map((g) => String(g).split('/')[0]),
      ...(config.references ?? []).map(
        (r) => path.relative(ROOT, path.resolve(ROOT, String(r.path))).split(path.sep)[0],
      ),
    ].filter((d) => d && d !== '..' && !d.includes('*')),
  );
  const outDir = path.resolve(ROOT, config.compilerOptions?.outDir ?? 'dist');
  const newer = (p) => (mtime(p) ?? Infinity) > built;
  if (newer(TSCONFIG) || newer(path.join(ROOT, 'package-lock.json'))) return 'changed';
  let missing = false;
  const walk = (dir) => {
    if (newer(dir)) return true;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (walk(p)) return true;
        continue;
      }
      if (newer(p)) return true;
      const js = /^(?!.*\.d\.c?ts$).*\.(c?)ts$/.exec(e.name);
      if (js && !missing)
        missing = !existsSync(path.join(outDir, path.relative(ROOT, p)).replace(/\.(c?)ts$/, '.$1js'));
    }
    return false;
  };
  for (const d of dirs) {
    const dir = path.join(ROOT, d);
    if (existsSync(dir) && walk(dir)) return 'changed';
  }
  return missing ? 'outputs missing' : 'unchanged';
}

function buildTypeScript() {
  const state = typeScriptState();
  if (state === 'unchanged') return 'up to date';
  const tsc = require.resolve('typescript/bin/tsc');
  const status = run(process.execPath, [
    tsc,
    '-b',
    path.join(ROOT, 'tsconfig.json'),
    ...(state === 'outputs missing' ? ['--force'] : []),
  ]);
  if (status === 0) writeFileSync(TS_STAMP, `${new Date().toISOString()}\n`);
  else rmSync(TS_STAMP, { force: true });
  const pruned = removeOutputsOfDeletedSources();
  const removed = pruned ? `, ${pruned} output(s) of deleted sources removed` : '';
  if (status === 0)
    return (state === 'outputs missing' ? 'done (tsc -b --force: outputs were missing)' : 'done (tsc -b)') + removed;
  // the build info of a build with errors must not look current to typeScriptState(): tsc -b reports them again
  if (existsSync(TS_BUILD_INFO)) utimesSync(TS_BUILD_INFO, 0, 0);
  // tsc writes every file even when some do not type-check; `npm install` reports the errors but still succeeds, so
  // that the clone is usable and `npm test` names them
  if (flags.has('--type-errors-warn') && existsSync(path.join(ROOT, 'dist', 'main', 'cli.js')))
    return 'done, with type errors (above)';
  return fail('tsc', status);
}

/**
 * tsc -b writes the .js (and .js.map) of each source but never removes those of a source deleted or moved since: they
 * would stay in dist/ and be packed by the installers (dist/main/**, dist/worker/**). Removes every .js, .cjs and
 * .map under the folders tsconfig.json compiles whose .ts or .cts is gone; returns how many.
 */
function removeOutputsOfDeletedSources() {
  const config = JSON.parse(readFileSync(TSCONFIG, 'utf8'));
  const outDir = path.resolve(ROOT, config.compilerOptions?.outDir ?? 'dist');
  const dirs = new Set((config.include ?? []).map((g) => String(g).split('/')[0]).filter((d) => d && !d.includes('*')));
  let removed = 0;
  for (const d of dirs) {
    const out = path.join(outDir, d);
    if (!existsSync(out)) continue;
    for (const f of filesUnder(out, (p) => /\.c?js(\.map)?$/.test(p))) {
      const source = path.join(ROOT, path.relative(outDir, f)).replace(/\.(c?)js(\.map)?$/, (_, c) => `.${c}ts`);
      if (!existsSync(source)) {
        rmSync(f);
        removed++;
      }
    }
  }
  return removed;
}

// ---- test hooks --------------------------------------------------------------------------------------------

// test/support/hooks/: the calculations of the __test_* task types and the loader of the test-only core addon. Not
// in tsconfig.json, so the production build (dist/main and dist/worker, what `npm run build` writes and the
// installers pack) has none of them; the tests' setup builds them into dist/test/support/hooks/, where their imports
// of ../../../worker/... reach the compiled worker. Each file is transpiled on its own with tsconfig.json's options
// (as ES modules: transpiling alone, TypeScript cannot read package.json's "type"); `npm run typecheck` type-checks
// them with the tests (tsconfig.test.json).
const HOOKS = path.join(ROOT, 'test', 'support', 'hooks');

function buildTestHooks() {
  const config = JSON.parse(readFileSync(TSCONFIG, 'utf8'));
  const outDir = path.join(path.resolve(ROOT, config.compilerOptions?.outDir ?? 'dist'), path.relative(ROOT, HOOKS));
  mkdirSync(outDir, { recursive: true });
  const sources = readdirSync(HOOKS).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  for (const f of readdirSync(outDir))
    if (!sources.includes(f.replace(/\.js$/, '.ts'))) rmSync(path.join(outDir, f), { force: true });
  const outOf = (f) => path.join(outDir, f.replace(/\.ts$/, '.js'));
  const stale = sources.filter(
    (f) => (mtime(outOf(f)) ?? -Infinity) < Math.max(mtime(path.join(HOOKS, f)), mtime(TSCONFIG)),
  );
  if (!stale.length) return 'up to date';
  const ts = require('typescript');
  const { options, errors } = ts.convertCompilerOptionsFromJson(config.compilerOptions ?? {}, ROOT);
  if (errors.length) throw new Error(ts.flattenDiagnosticMessageText(errors[0].messageText, '\n'));
  const compilerOptions = {
    ...options,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    sourceMap: false,
    declaration: false,
  };
  for (const f of stale) {
    const source = path.join(HOOKS, f);
    const r = ts.transpileModule(readFileSync(source, 'utf8'), {
      compilerOptions,
      fileName: source,
      reportDiagnostics: true,
    });
    if (r.diagnostics?.length) {
      for (const d of r.diagnostics) console.error(`${f}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      return fail('test-hooks', 1);
    }
    writeFileSync(outOf(f), r.outputText);
  }
  return `built (${stale.length} file(s) transpiled)`;
}

// ---- renderer ----------------------------------------------------------------------------------------------

const RENDERER = path.join(ROOT, 'renderer');
const RENDERER_OUT = path.join(RENDERER, 'dist', 'index.html');
// kept outside renderer/dist, which the installers pack
const RENDERER_INPUTS = path.join(ROOT, 'dist', 'renderer-build-inputs.json');

function rendererStale() {
  const stamp = mtime(RENDERER_INPUTS);
  if (stamp === undefined || mtime(RENDERER_OUT) === undefined) return 'no previous build';
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(RENDERER_INPUTS, 'utf8'));
  } catch {
    return 'unreadable input list';
  }
  for (const f of [
    ...inputs.map((i) => path.resolve(ROOT, i)),
    path.join(ROOT, 'package-lock.json'),
    path.join(RENDERER, 'vite.config.ts'),
    path.join(RENDERER, 'index.html'),
  ]) {
    const t = mtime(f);
    if (t === undefined || t > stamp) return `${path.relative(ROOT, f)} changed`;
  }
  return null;
}

async function buildRenderer() {
  const why = rendererStale();
  if (!why) return 'up to date';
  const inputs = new Set();
  // Every file the bundle read (outside node_modules), so the next build knows what to watch.
  const recordInputs = {
    name: 'phasedesk-record-inputs',
    generateBundle() {
      for (const id of this.getModuleIds()) {
        const file = id.split('?')[0];
        if (path.isAbsolute(file) && !file.includes(`${path.sep}node_modules${path.sep}`) && existsSync(file))
          inputs.add(file);
      }
    },
  };
  const { build } = await import('vite');
  await build({ configFile: path.join(RENDERER, 'vite.config.ts'), plugins: [recordInputs], logLevel: 'warn' });
  mkdirSync(path.dirname(RENDERER_INPUTS), { recursive: true });
  writeFileSync(RENDERER_INPUTS, JSON.stringify([...inputs].map((i) => path.relative(ROOT, i)).sort(), null, 1) + '\n');
  return `built (${why})`;
}

// ---- driver ------------------------------------------------------------------------------------------------

class StepFailed extends Error {}
function fail(step, status) {
  throw new StepFailed(`${step} failed (exit code ${status})`);
}

const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')));
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
for (const f of flags) {
  if (f !== '--type-errors-warn') {
    console.error(`bin/build.js: unknown option ${f} (known: --type-errors-warn)`);
    process.exit(2);
  }
}
for (const w of wanted) {
  if (!(w in STEPS)) {
    console.error(`usage: node bin/build.js [${Object.keys(STEPS).join('] [')}]   (unknown step '${w}')`);
    process.exit(2);
  }
}
const quiet = process.env.PHASEDESK_BUILD_QUIET === '1';
for (const step of wanted.length ? Object.keys(STEPS).filter((s) => wanted.includes(s)) : DEFAULT_STEPS) {
  const t0 = performance.now();
  try {
    const what = await STEPS[step]();
    if (!quiet) console.error(`build ${step}: ${what} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    console.error(
      `build ${step}: ${e instanceof StepFailed ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
    );
    process.exit(1);
  }
}
