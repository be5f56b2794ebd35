// electron-builder afterPack hook (electron-builder.yml `afterPack`): puts the OpenMP runtime the calculation core
// was linked against next to the unpacked core (resources/app.asar.unpacked/native-core/build/Release/), so the
// installed app never depends on a compiler runtime being present on the user's machine:
//   Linux    libgomp.so.1   found with ldd on the built core; the core carries RUNPATH $ORIGIN (native-core/binding.gyp),
//                           so the copy beside it is loaded first (AppImage and deb alike).
//   macOS    libomp.dylib   found with otool -L (Homebrew's libomp); the core's reference is rewritten to
//                           @loader_path/libomp.dylib and both files are signed ad hoc again (the identity signing
//                           of electron-builder follows this hook).
//   Windows  vcomp140.dll   from the Visual C++ redistributable folder of the compiler (VCToolsRedistDir, set in a
//                           Developer prompt) or System32; Windows searches the directory of the loaded core first.
// PHASEDESK_OPENMP_RUNTIME=/path/to/the/library overrides the search. Runs before the installers are assembled; a
// runtime that cannot be found stops the build instead of shipping a core that cannot load.
'use strict';
const { execFileSync } = require('node:child_process');
const { chmodSync, copyFileSync, existsSync, readdirSync } = require('node:fs');
const { basename, join } = require('node:path');

const CORE_DIR = ['app.asar.unpacked', 'native-core', 'build', 'Release'];
const CORE_FILE = 'phasedesk_core.node';
/** The runtime file each platform's core needs, by electron-builder's platform name. */
const RUNTIME = { linux: 'libgomp.so.1', darwin: 'libomp.dylib', win32: 'vcomp140.dll' };
/** electron-builder's Arch enum (ia32 = 0, x64 = 1, armv7l = 2, arm64 = 3, universal = 4) to MSVC folder names. */
const MSVC_ARCH = { 0: 'x86', 1: 'x64', 3: 'arm64' };

function resourcesDir(context) {
  if (context.electronPlatformName === 'darwin') {
    return join(context.appOutDir, `${context.packager.appInfo.productFilename}.app`, 'Contents', 'Resources');
  }
  return join(context.appOutDir, 'resources');
}

/** The library the core resolves on this build machine, as the dynamic loader reports it. */
function linkedRuntime(platform, core, run, arch) {
  if (process.env.PHASEDESK_OPENMP_RUNTIME) return { path: process.env.PHASEDESK_OPENMP_RUNTIME, reference: undefined };
  if (platform === 'linux') {
    const line = run('ldd', [core])
      .split('\n')
      .find((l) => l.trim().startsWith('libgomp.so'));
    const m = line && /=>\s*(\S+)/.exec(line);
    if (!m || m[1] === 'not')
      throw new Error(`the core does not resolve libgomp.so.1 here (ldd: ${line ?? 'not linked'})`);
    return { path: m[1], reference: undefined };
  }
  if (platform === 'darwin') {
    const ref = run('otool', ['-L', core])
      .split('\n')
      .map((l) => l.trim().split(' ')[0])
      .find((l) => /libomp\.dylib$/.test(l));
    if (!ref) throw new Error('the core does not link libomp.dylib (otool -L)');
    if (!ref.startsWith('@')) return { path: ref, reference: ref };
    const prefix = run('brew', ['--prefix', 'libomp']).trim();
    return { path: join(prefix, 'lib', 'libomp.dylib'), reference: ref };
  }
  return { path: findVcomp(arch), reference: undefined };
}

function findVcomp(arch) {
  const msvcArch = MSVC_ARCH[arch] ?? 'x64';
  const redist = process.env.VCToolsRedistDir;
  if (redist && existsSync(join(redist, msvcArch))) {
    const dir = readdirSync(join(redist, msvcArch)).find((d) => /^Microsoft\.VC\d+\.OpenMP$/.test(d));
    if (dir && existsSync(join(redist, msvcArch, dir, 'vcomp140.dll')))
      return join(redist, msvcArch, dir, 'vcomp140.dll');
  }
  const system = join(process.env.SystemRoot ?? 'C:\\Windows', 'System32', 'vcomp140.dll');
  if (existsSync(system)) return system;
  throw new Error(
    'vcomp140.dll not found: build from a Visual Studio Developer prompt (VCToolsRedistDir) or set PHASEDESK_OPENMP_RUNTIME',
  );
}

/**
 * Copies the OpenMP runtime next to the packed core. `run` executes a tool and returns its stdout (tests pass their own).
 * Returns the path of the copy.
 */
function bundleOpenMpRuntime(context, run = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8' })) {
  const platform = context.electronPlatformName;
  const name = RUNTIME[platform];
  if (!name) throw new Error(`no OpenMP runtime known for platform ${platform}`);
  const coreDir = join(resourcesDir(context), ...CORE_DIR);
  const core = join(coreDir, CORE_FILE);
  if (!existsSync(core))
    throw new Error(`${core} is missing: is native-core/build/Release/${CORE_FILE} in asarUnpack?`);
  const found = linkedRuntime(platform, core, run, context.arch);
  if (!existsSync(found.path)) throw new Error(`OpenMP runtime ${found.path} does not exist`);
  const target = join(coreDir, name);
  copyFileSync(found.path, target); // follows symbolic links: the real library under its soname
  chmodSync(target, 0o755);
  if (platform === 'darwin') {
    run('install_name_tool', ['-id', `@loader_path/${name}`, target]);
    if (found.reference) run('install_name_tool', ['-change', found.reference, `@loader_path/${name}`, core]);
    for (const f of [target, core]) run('codesign', ['--force', '--sign', '-', f]);
  }
  console.log(`  • OpenMP runtime ${basename(found.path)} (${found.path}) bundled next to ${CORE_FILE}`);
  return target;
}

async function afterPack(context) {
  bundleOpenMpRuntime(context);
}

module.exports = afterPack;
module.exports.default = afterPack;
module.exports.bundleOpenMpRuntime = bundleOpenMpRuntime;
module.exports.RUNTIME = RUNTIME;
module.exports.CORE_DIR = CORE_DIR;
