// The installer configuration, checked without Electron's binary (it cannot be downloaded here): electron-builder.yml
// parses, every file set it packs exists after the build, Electron and the packages only it needs are left out of the
// app (derived from package-lock.json), the package metadata is real, and the afterPack hook really bundles the
// OpenMP runtime: on this Linux machine with the built core (the copy is the one the loader picks), on macOS and
// Windows with stand-in tools.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../service/helpers.js';

const require = createRequire(import.meta.url);
// js-yaml is already in the lockfile (a development dependency of a test library); no dependency is added for it.
const yaml = require('js-yaml') as { load(text: string): unknown };
const hook = require(join(ROOT, 'installer', 'after-pack.cjs')) as {
  (context: unknown): Promise<void>;
  bundleOpenMpRuntime(context: unknown, run?: (cmd: string, args: string[]) => string): string;
  CORE_DIR: string[];
};

interface BuilderConfig {
  appId: string;
  productName: string;
  afterPack: string;
  files: string[];
  asarUnpack: string[];
  linux: { maintainer: string; target: string[] };
  deb: { depends: string[] };
}
const config = yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  main: string;
  author?: string;
  description?: string;
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }>;
};

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

/** Lockfile keys of everything `name` (required from lockfile key `from`) needs at run time, npm's resolution rules. */
function closure(roots: { from: string; name: string }[]): Set<string> {
  const seen = new Set<string>();
  const resolve = (from: string, name: string): string | undefined => {
    for (let base = from; ; base = base.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
      const key = `${base ? base + '/' : ''}node_modules/${name}`;
      if (lock.packages[key]) return key;
      if (!base) return undefined;
    }
  };
  const visit = (from: string, name: string) => {
    const key = resolve(from, name);
    if (!key || seen.has(key)) return;
    seen.add(key);
    const p = lock.packages[key]!;
    for (const dep of Object.keys({ ...p.dependencies, ...p.optionalDependencies })) visit(key, dep);
  };
  for (const r of roots) visit(r.from, r.name);
  return seen;
}
/** The package name of a lockfile key (node_modules/a/node_modules/@b/c -> @b/c). */
const nameOf = (key: string) => key.replace(/^.*node_modules\//, '');

describe('electron-builder.yml', () => {
  ensureBuilt();

  it('packs file sets that exist after the build, the entry point included', () => {
    expect(pkg.main).toBe('dist/main/electron/main.js');
    expect(existsSync(join(ROOT, pkg.main))).toBe(true);
    expect(existsSync(join(ROOT, 'dist', 'main', 'electron', 'preload.cjs'))).toBe(true);
    const wanted = config.files.filter((f) => !f.startsWith('!'));
    expect(wanted).toEqual(
      expect.arrayContaining([
        'package.json',
        'dist/main/**',
        'dist/worker/**',
        'renderer/dist/**',
        'databases/**',
        'native-core/build/Release/phasedesk_core.node',
      ]),
    );
    for (const f of wanted) expect(existsSync(join(ROOT, f.replace(/\/\*\*$/, ''))), f).toBe(true);
    expect(existsSync(join(ROOT, 'renderer', 'dist', 'index.html'))).toBe(true);
    expect(existsSync(join(ROOT, 'databases', 'catalog.json'))).toBe(true);
    expect(config.asarUnpack).toContain('native-core/build/Release/phasedesk_core.node');
    expect(existsSync(join(ROOT, config.afterPack))).toBe(true);
    expect(typeof hook).toBe('function');
  });

  it('leaves Electron and every package only Electron needs out of the app, and nothing the app needs', () => {
    // Electron stays optional: `npm install` must succeed where its binary cannot be downloaded.
    expect(pkg.dependencies.electron).toBeUndefined();
    expect(pkg.devDependencies.electron).toBeUndefined();
    expect(pkg.optionalDependencies?.electron).toBeDefined();
    const production = Object.keys({ ...pkg.dependencies });
    const appNeeds = new Set([...closure(production.map((name) => ({ from: '', name })))].map(nameOf));
    const electronOnly = [...closure([{ from: '', name: 'electron' }])]
      .filter((k) => !k.startsWith('node_modules/electron/node_modules/')) // inside electron's folder: excluded with it
      .map(nameOf)
      .filter((n) => !appNeeds.has(n));
    expect(electronOnly).toContain('electron');
    expect(electronOnly.length).toBeGreaterThan(5);
    expect(electronOnly).toContain('@electron/get');
    const excluded = config.files
      .filter((f) => f.startsWith('!node_modules/'))
      .map((f) => /^!node_modules\/(.+)\{,\/\*\*\}$/.exec(f)?.[1]);
    expect(excluded).not.toContain(undefined); // every exclusion has the "!node_modules/NAME{,/**}" form
    expect([...excluded].sort()).toEqual([...electronOnly].sort());
    for (const name of excluded) expect(appNeeds.has(name!), `${name} is needed by the app`).toBe(false);
  });

  it('carries real package metadata without an invented address', () => {
    expect(pkg.author).toBe('PhaseDesk contributors');
    expect(pkg.description!.length).toBeGreaterThan(20);
    expect(config.productName).toBe('PhaseDesk');
    expect(config.linux.maintainer).toBe('PhaseDesk contributors <phasedesk>');
    const text =
      readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8') + readFileSync(join(ROOT, 'package.json'), 'utf8');
    expect(text).not.toMatch(/example\.(org|com|net)/);
    expect(config.deb.depends).toContain('libgomp1');
  });
});

describe('afterPack: the OpenMP runtime next to the core', () => {
  const core = join(ROOT, 'native-core', 'build', 'Release', 'phasedesk_core.node');

  function fakeAppOut(resources: string[]): { appOutDir: string; coreDir: string } {
    const appOutDir = temp('phasedesk-appout-');
    const coreDir = join(appOutDir, ...resources, ...hook.CORE_DIR);
    mkdirSync(coreDir, { recursive: true });
    copyFileSync(core, join(coreDir, 'phasedesk_core.node'));
    return { appOutDir, coreDir };
  }

  it.runIf(process.platform === 'linux')(
    'Linux: copies libgomp.so.1 beside the core, and the loader takes that copy',
    () => {
      // native-core/binding.gyp links the core with RUNPATH $ORIGIN (an older build needs `npm run build:core`).
      expect(
        execFileSync('readelf', ['-d', core], { encoding: 'utf8' }),
        'core built without RUNPATH $ORIGIN: run npm run build:core',
      ).toMatch(/RUNPATH.*\[\$ORIGIN\]/);
      const { appOutDir, coreDir } = fakeAppOut(['resources']);
      const copy = hook.bundleOpenMpRuntime({
        electronPlatformName: 'linux',
        appOutDir,
        arch: 1,
        packager: { appInfo: { productFilename: 'PhaseDesk' } },
      });
      expect(copy).toBe(join(coreDir, 'libgomp.so.1'));
      const packedCore = join(coreDir, 'phasedesk_core.node');
      expect(execFileSync('ldd', [packedCore], { encoding: 'utf8' })).toContain(`libgomp.so.1 => ${copy}`);
      // Loaded the way the workers load it: the process maps the bundled copy, not the system's.
      const maps = execFileSync(
        process.execPath,
        [
          '-e',
          `require(${JSON.stringify(packedCore)}); process.stdout.write(require('fs').readFileSync('/proc/self/maps','utf8'))`,
        ],
        { encoding: 'utf8' },
      );
      const gomp = [
        ...new Set(
          maps
            .split('\n')
            .filter((l) => l.includes('libgomp'))
            .map((l) => l.trim().split(/\s+/).pop()),
        ),
      ];
      expect(gomp).toEqual([copy]);
    },
  );

  it('macOS: copies libomp.dylib, points the core at @loader_path and signs both again (stand-in tools)', () => {
    const { appOutDir, coreDir } = fakeAppOut(['PhaseDesk.app', 'Contents', 'Resources']);
    const brew = temp('phasedesk-brew-');
    const libomp = join(brew, 'libomp.dylib');
    writeFileSync(libomp, 'not a real dylib');
    const calls: string[] = [];
    const run = (cmd: string, args: string[]) => {
      calls.push([cmd, ...args].join(' '));
      return cmd === 'otool'
        ? `${args[1]}:\n\t${libomp} (compatibility version 5.0.0)\n\t/usr/lib/libc++.1.dylib (compatibility version 1.0.0)\n`
        : '';
    };
    const copy = hook.bundleOpenMpRuntime(
      { electronPlatformName: 'darwin', appOutDir, arch: 3, packager: { appInfo: { productFilename: 'PhaseDesk' } } },
      run,
    );
    expect(copy).toBe(join(coreDir, 'libomp.dylib'));
    expect(readFileSync(copy, 'utf8')).toBe('not a real dylib');
    const packedCore = join(coreDir, 'phasedesk_core.node');
    expect(calls).toEqual([
      `otool -L ${packedCore}`,
      `install_name_tool -id @loader_path/libomp.dylib ${copy}`,
      `install_name_tool -change ${libomp} @loader_path/libomp.dylib ${packedCore}`,
      `codesign --force --sign - ${copy}`,
      `codesign --force --sign - ${packedCore}`,
    ]);
  });

  it("Windows: copies vcomp140.dll from the compiler's redistributable folder (stand-in folder)", () => {
    const { appOutDir, coreDir } = fakeAppOut(['resources']);
    const redist = temp('phasedesk-vcredist-');
    mkdirSync(join(redist, 'x64', 'Microsoft.VC143.OpenMP'), { recursive: true });
    writeFileSync(join(redist, 'x64', 'Microsoft.VC143.OpenMP', 'vcomp140.dll'), 'vcomp x64');
    const before = process.env.VCToolsRedistDir;
    process.env.VCToolsRedistDir = redist;
    try {
      const copy = hook.bundleOpenMpRuntime(
        { electronPlatformName: 'win32', appOutDir, arch: 1, packager: { appInfo: { productFilename: 'PhaseDesk' } } },
        () => '',
      );
      expect(copy).toBe(join(coreDir, 'vcomp140.dll'));
      expect(readFileSync(copy, 'utf8')).toBe('vcomp x64');
    } finally {
      if (before === undefined) delete process.env.VCToolsRedistDir;
      else process.env.VCToolsRedistDir = before;
    }
  });

  it('stops the build when the core is not where asarUnpack puts it', () => {
    const appOutDir = temp('phasedesk-appout-');
    expect(() =>
      hook.bundleOpenMpRuntime({
        electronPlatformName: 'linux',
        appOutDir,
        arch: 1,
        packager: { appInfo: { productFilename: 'PhaseDesk' } },
      }),
    ).toThrow(/phasedesk_core\.node is missing/);
  });
});
