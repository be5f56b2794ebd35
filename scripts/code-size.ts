// Size limits of the source tree: no function over FUNCTION_LINE_CAP lines and no file over FILE_LINE_CAP lines
// in the TypeScript and Svelte of contract/, main/, worker/ and renderer/src and the C++ of native-core/src
// (generated files aside). A function's length runs from its first line (signature or `=>` head) to its closing
// brace, nested closures included: a closure that grows makes its function long, and belongs in a named function
// of its own. TypeScript and Svelte scripts are measured with the TypeScript compiler's own parser, C++ with
// tree-sitter's C++ grammar (both complete parsers, so macros, templates and lambdas count as written).
//
// `node dist/scripts/code-size.js [--top N]` prints the longest functions and files and exits 1 over a cap;
// test/house/code-size.test.ts runs the same check in `npm test`.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { Language, Parser, type Node as SyntaxNode } from 'web-tree-sitter';

export const FUNCTION_LINE_CAP = 120;
export const FILE_LINE_CAP = 600;

const TREES = ['contract', 'main', 'worker', 'renderer/src', 'native-core/src'];
const GENERATED = /\.generated\.ts$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build']);

export interface Measured {
  file: string;
  line: number;
  name: string;
  lines: number;
}

export interface SizeReport {
  functions: Measured[];
  files: Measured[];
}

function listSources(root: string, dir: string, out: string[]): void {
  for (const entry of readdirSync(join(root, dir))) {
    const path = join(dir, entry);
    if (statSync(join(root, path)).isDirectory()) {
      if (!SKIPPED_DIRS.has(entry)) listSources(root, path, out);
    } else if (/\.(ts|cts|svelte|cpp|hpp|h|cc)$/.test(entry) && !GENERATED.test(entry) && !entry.endsWith('.d.ts')) {
      out.push(path);
    }
  }
}

function lineCount(text: string): number {
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

function tsFunctionName(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

/** Functions of a TypeScript text whose first line is `firstLine` (1-based) in its file. */
function measureTypeScript(file: string, text: string, firstLine: number, out: Measured[]): void {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ file, line: start + firstLine, name: tsFunctionName(node), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

/** The `<script>` blocks of a Svelte component, each with the line its content starts on. */
function svelteScripts(text: string): { content: string; firstLine: number }[] {
  const blocks: { content: string; firstLine: number }[] = [];
  const pattern = /<script\b[^>]*>([\s\S]*?)<\/script>/g;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const contentStart = m.index + m[0].indexOf('>') + 1;
    blocks.push({ content: m[1], firstLine: lineCount(text.slice(0, contentStart)) + 1 });
  }
  return blocks;
}

let cppParser: Parser | undefined;

async function cppParserOnce(): Promise<Parser> {
  if (cppParser) return cppParser;
  const require = createRequire(import.meta.url);
  await Parser.init();
  const language = await Language.load(require.resolve('tree-sitter-cpp/tree-sitter-cpp.wasm'));
  cppParser = new Parser();
  cppParser.setLanguage(language);
  return cppParser;
}

function cppFunctionName(node: SyntaxNode): string {
  if (node.type === 'lambda_expression') return '(lambda)';
  let declarator = node.childForFieldName('declarator');
  while (declarator && declarator.childForFieldName('declarator'))
    declarator = declarator.childForFieldName('declarator');
  return declarator?.text ?? '(anonymous)';
}

async function measureCpp(file: string, text: string, out: Measured[]): Promise<void> {
  const tree = (await cppParserOnce()).parse(text);
  if (!tree) throw new Error(`${file}: tree-sitter could not parse the file`);
  const visit = (node: SyntaxNode): void => {
    if (node.type === 'function_definition' || node.type === 'lambda_expression') {
      const lines = node.endPosition.row - node.startPosition.row + 1;
      out.push({ file, line: node.startPosition.row + 1, name: cppFunctionName(node), lines });
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(tree.rootNode);
  tree.delete();
}

/** Functions and the line count of one TypeScript or Svelte text. */
export function measureSource(file: string, text: string): SizeReport {
  const functions: Measured[] = [];
  if (file.endsWith('.svelte')) {
    for (const block of svelteScripts(text)) measureTypeScript(file, block.content, block.firstLine, functions);
  } else measureTypeScript(file, text, 1, functions);
  return { functions, files: [{ file, line: 1, name: file, lines: lineCount(text) }] };
}

/** Functions (lambdas included) and the line count of one C++ text. */
export async function measureCppSource(file: string, text: string): Promise<SizeReport> {
  const functions: Measured[] = [];
  await measureCpp(file, text, functions);
  return { functions, files: [{ file, line: 1, name: file, lines: lineCount(text) }] };
}

/** Every function and file of the checked trees under `root`, longest first. */
export async function measureTree(root: string): Promise<SizeReport> {
  const paths: string[] = [];
  for (const tree of TREES) listSources(root, tree, paths);
  const functions: Measured[] = [];
  const files: Measured[] = [];
  for (const path of paths) {
    const text = readFileSync(join(root, path), 'utf8');
    const one = /\.(cpp|hpp|h|cc)$/.test(path) ? await measureCppSource(path, text) : measureSource(path, text);
    functions.push(...one.functions);
    files.push(...one.files);
  }
  functions.sort((a, b) => b.lines - a.lines);
  files.sort((a, b) => b.lines - a.lines);
  return { functions, files };
}

export function overCaps(report: SizeReport): string[] {
  const over = report.functions
    .filter((f) => f.lines > FUNCTION_LINE_CAP)
    .map((f) => `${f.file}:${f.line} ${f.name}: ${f.lines} lines (cap ${FUNCTION_LINE_CAP})`);
  for (const f of report.files.filter((f) => f.lines > FILE_LINE_CAP))
    over.push(`${f.file}: ${f.lines} lines (cap ${FILE_LINE_CAP})`);
  return over;
}

export function formatReport(report: SizeReport, top: number): string {
  const rows = (title: string, list: Measured[]): string[] => [
    title,
    ...list.slice(0, top).map((f) => `  ${String(f.lines).padStart(5)}  ${f.file}:${f.line}  ${f.name}`),
  ];
  return [
    ...rows(`longest functions (cap ${FUNCTION_LINE_CAP} lines):`, report.functions),
    ...rows(
      `longest files (cap ${FILE_LINE_CAP} lines):`,
      report.files.map((f) => ({ ...f, name: '' })),
    ),
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const topAt = argv.indexOf('--top');
  const top = topAt >= 0 ? Number(argv[topAt + 1]) : 10;
  const root = process.cwd();
  const report = await measureTree(root);
  console.log(formatReport(report, top));
  const over = overCaps(report);
  if (over.length > 0) console.log(`\n${over.length} over a cap:\n  ${over.join('\n  ')}`);
  return over.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
