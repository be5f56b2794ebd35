// clang-format over the C++ of native-core/src with the repository's .clang-format, using the clang-format binary
// of the npm package `clang-format` (one version on every machine: another version formats some lines otherwise).
//
//   node dist/scripts/format-cpp.js --check   lists the files clang-format would change, exit 1 if any
//   node dist/scripts/format-cpp.js --write   formats them in place
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOURCES = path.join('native-core', 'src');

export function cppSources(root = ROOT): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir)).sort()) {
      const rel = path.join(dir, entry);
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (/\.(cpp|hpp|h|cc)$/.test(entry)) out.push(rel);
    }
  };
  walk(SOURCES);
  return out;
}

/** The npm package ships one binary per OS (x64; macOS on Apple silicon runs it under Rosetta). */
function clangFormatBinary(): string {
  const require = createRequire(import.meta.url);
  const pkg = path.dirname(require.resolve('clang-format/package.json'));
  const folder: Record<string, string> = { linux: 'linux_x64', darwin: 'darwin_x64', win32: 'win32' };
  const exe = process.platform === 'win32' ? 'clang-format.exe' : 'clang-format';
  return path.join(pkg, 'bin', folder[process.platform] ?? 'linux_x64', exe);
}

/** The formatted text of one file (relative to the repository root). */
export function formatted(file: string, root = ROOT): string {
  return execFileSync(
    clangFormatBinary(),
    [`--style=file:${path.join(root, '.clang-format')}`, path.join(root, file)],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    },
  );
}

/** Files whose text differs from clang-format's. */
export function unformattedCpp(root = ROOT): string[] {
  return cppSources(root).filter((f) => formatted(f, root) !== readFileSync(path.join(root, f), 'utf8'));
}

function main(argv: string[]): number {
  if (argv.includes('--write')) {
    const files = cppSources().map((f) => path.join(ROOT, f));
    execFileSync(clangFormatBinary(), [`--style=file:${path.join(ROOT, '.clang-format')}`, '-i', ...files]);
    return 0;
  }
  const bad = unformattedCpp();
  for (const f of bad) console.log(`${f}: not formatted (npm run format)`);
  return bad.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
