// The production build leaves the test hooks out. tsconfig.json (what `npm run build` compiles, and the installers
// pack from dist/main and dist/worker) reaches no file of test/ and no source naming a hook; after the build, no file
// under dist/main or dist/worker names a test calculation or the test-only addon; electron-builder.yml packs nothing
// of dist/test/, where the test setup builds the hooks (test/support/hooks) for the tests, which do run them.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from '../service/helpers.js';

const require = createRequire(import.meta.url);
// both are already in the lockfile (development dependencies of the tooling); no dependency is added for them
const yaml = require('js-yaml') as { load(text: string): unknown };
const { minimatch } = require('minimatch') as { minimatch(path: string, pattern: string, o?: object): boolean };

/** Names only the test hooks have: the test calculations' types and the test-only addon and its members. */
const HOOK_NAMES = [
  '__test_sleep',
  '__test_write',
  '__test_crash',
  '__test_throw',
  '__test_heap',
  'loadTestingCore',
  'solverSelfTest',
  'crashForTest',
  'internalErrorProbe',
  'phasedesk_core_testing',
];

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) filesUnder(p, out);
    else out.push(p);
  }
  return out;
}

/** The files that name a hook, each with the names it holds. */
function naming(files: { name: string; text: string }[]): string[] {
  return files.flatMap(({ name, text }) => {
    const found = HOOK_NAMES.filter((n) => text.includes(n));
    return found.length ? [`${name}: ${found.join(', ')}`] : [];
  });
}

describe('the production build without the test hooks', () => {
  it('tsconfig.json compiles no file of test/ and no source naming a hook', () => {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    )!;
    // the program follows every static import from the included files: a hook imported by the app would be in it
    const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
    const sources = program
      .getSourceFiles()
      .filter((f) => !f.isDeclarationFile && !f.fileName.includes('/node_modules/'))
      .map((f) => ({ name: relative(ROOT, f.fileName), text: f.text }));
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.filter((f) => f.name.startsWith('test/')).map((f) => f.name)).toEqual([]);
    expect(naming(sources)).toEqual([]);
  }, 120_000);

  it('no file of dist/main or dist/worker names a hook; the hooks are built apart, in dist/test', () => {
    ensureBuilt();
    const built = ['main', 'worker'].flatMap((d) =>
      filesUnder(join(ROOT, 'dist', d)).map((f) => ({ name: relative(ROOT, f), text: readFileSync(f, 'utf8') })),
    );
    expect(built.length).toBeGreaterThan(100);
    expect(naming(built)).toEqual([]);
    const hooks = join(ROOT, 'dist', 'test', 'support', 'hooks', 'calculations.js');
    expect(existsSync(hooks)).toBe(true);
    expect(readFileSync(hooks, 'utf8')).toContain('__test_sleep');
  });

  it('the installers pack nothing of dist/test', () => {
    const files = (yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as { files: string[] }).files;
    const packed = (p: string) =>
      files.reduce(
        (inside, pattern) =>
          pattern.startsWith('!')
            ? inside && !minimatch(p, pattern.slice(1), { dot: true })
            : inside || minimatch(p, pattern, { dot: true }),
        false,
      );
    expect(packed('dist/worker/index.js')).toBe(true);
    expect(packed('dist/main/cli.js')).toBe(true);
    for (const f of ['calculations.js', 'testing-core.js', 'task-types.js'])
      expect(packed(`dist/test/support/hooks/${f}`), f).toBe(false);
  });
});
