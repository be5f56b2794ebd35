// Type test of the task-type registry: a registry entry without a calculation or without a result view, or a
// calculation (a view) wired to another type's configuration (result), fails to compile
// (test/contract/types/calculation-table.ts and view-table.ts, compiled here with the TypeScript compiler the build
// uses).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TASK_REGISTRY, TASK_TYPES } from '../../contract/tasks/registry.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CALCULATIONS = path.join(ROOT, 'test/contract/types/calculation-table.ts');
const VIEWS = path.join(ROOT, 'test/contract/types/view-table.ts');
const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
};

let previous: ts.Program | undefined;

/** Diagnostics of a fixture, optionally with its source rewritten (the other files are read from disk). */
function compile(fixture: string, rewrite?: (text: string) => string): string[] {
  const host = ts.createCompilerHost(OPTIONS);
  const read = host.readFile.bind(host);
  if (rewrite) {
    host.readFile = (f) => (path.resolve(f) === fixture ? rewrite(read(f)!) : read(f));
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (f, lang, onError, create) =>
      path.resolve(f) === fixture
        ? ts.createSourceFile(f, rewrite(read(f)!), lang)
        : getSourceFile(f, lang, onError, create);
  }
  // the second compilation reuses the unchanged files of the first
  const program = ts.createProgram([fixture], OPTIONS, host, previous);
  previous = program;
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${path.relative(ROOT, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('task-type registry (types)', () => {
  it('the calculation table compiles: every expected error occurs where it is expected', () => {
    expect(compile(CALCULATIONS)).toEqual([]);
  }, 60_000);

  it('without the directives, TypeScript names the missing calculation, the mismatched one and the unknown field', () => {
    const errors = compile(CALCULATIONS, (text) => text.replace(/\/\/ @ts-expect-error/g, '//'));
    expect(errors).toHaveLength(3);
    expect(errors.find((e) => e.includes("Property 'temperature_start' does not exist"))).toBeDefined();
    expect(errors.find((e) => e.includes("'binary_cpt_diagram' is missing"))).toBeDefined();
    expect(errors.find((e) => /calculation-table\.ts:\d+ .*scheil_solidification/.test(e))).toBeDefined();
  }, 60_000);

  it('the result view table compiles: every expected error occurs where it is expected', () => {
    expect(compile(VIEWS)).toEqual([]);
  }, 60_000);

  it('without the directives, TypeScript names the missing view and the mismatched one', () => {
    const errors = compile(VIEWS, (text) => text.replace(/\/\/ @ts-expect-error/g, '//'));
    expect(errors).toHaveLength(2);
    expect(errors.find((e) => /view-table\.ts:\d+ .*'isopleth' is missing/.test(e))).toBeDefined();
    expect(errors.find((e) => /view-table\.ts:\d+ .*scheil_solidification|ScheilDocument/.test(e))).toBeDefined();
  }, 60_000);

  it('the registry and its type list agree, and every entry has a schema, a label, help and a stage', () => {
    expect(TASK_TYPES).toEqual(Object.keys(TASK_REGISTRY));
    for (const t of TASK_TYPES) {
      const e = TASK_REGISTRY[t];
      expect(e.label.length).toBeGreaterThan(0);
      expect(e.help.length).toBeGreaterThan(0);
      expect(e.stage.length).toBeGreaterThan(0);
      expect(e.schema.safeParse({ task_type: t }).success).toBe(false);
    }
  });
});
