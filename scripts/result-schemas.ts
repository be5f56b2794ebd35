// Generates the JSON Schema of every task type's result.json from the TypeScript types of the result documents
// (contract/results/*.ts, TaskResult<T> of the registry) with the TypeScript compiler's type checker, so the
// published schemas and the types the worker writes with and the renderer reads with are one definition.
// Writes contract/results/result-schemas.generated.ts; test/contract/result-schemas.test.ts fails when the file
// is not what the types give. Run after changing a result type: `npm run build && node dist/scripts/result-schemas.js`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { TASK_TYPES } from '../contract/tasks/registry.js';

type JsonSchema = Record<string, unknown>;

/** The repository root: this file runs from scripts/ (sources) or dist/scripts/ (built). */
function repositoryRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!ts.sys.fileExists(path.join(dir, 'contract/tasks/registry.ts'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('contract/tasks/registry.ts not found above this script');
    dir = up;
  }
  return dir;
}

export const GENERATED_FILE = 'contract/results/result-schemas.generated.ts';

/** JSON Schema (draft 2020-12) of each task type's result.json, by task type. */
export function resultSchemas(root = repositoryRoot()): Record<string, JsonSchema> {
  const entry = path.join(root, 'contract/results/__result_schema_roots.ts');
  const text =
    `import type { TaskResult } from '../tasks/registry.js';\n` +
    TASK_TYPES.map((t) => `export type Result_${t} = TaskResult<'${t}'>;`).join('\n');
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
    lib: ['lib.es2022.d.ts'],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (f, lang, onError, create) =>
    path.resolve(f) === entry ? ts.createSourceFile(f, text, lang) : getSourceFile(f, lang, onError, create);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (f) => path.resolve(f) === entry || fileExists(f);
  const program = ts.createProgram([entry], options, host);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry)!;
  const moduleSymbol = checker.getSymbolAtLocation(source)!;

  const out: Record<string, JsonSchema> = {};
  for (const t of TASK_TYPES) {
    const alias = checker.getExportsOfModule(moduleSymbol).find((s) => s.name === `Result_${t}`)!;
    const defs: Record<string, JsonSchema> = {};
    const body = convert(checker, checker.getDeclaredTypeOfSymbol(alias), defs, true);
    out[t] = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: `result.json of ${t}`,
      ...body,
      ...(Object.keys(defs).length
        ? { $defs: Object.fromEntries(Object.entries(defs).sort(([a], [b]) => a.localeCompare(b))) }
        : {}),
    };
  }
  return out;
}

function description(checker: ts.TypeChecker, symbol: ts.Symbol): string | undefined {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).replace(/\s+/g, ' ').trim();
  return text || undefined;
}

/** A named interface (not an anonymous object or an intersection) becomes a $defs entry referenced by name. */
function namedInterface(type: ts.Type): string | undefined {
  const s = type.getSymbol();
  return s && s.flags & ts.SymbolFlags.Interface && !(type.flags & ts.TypeFlags.Intersection) ? s.name : undefined;
}

function convert(checker: ts.TypeChecker, type: ts.Type, defs: Record<string, JsonSchema>, root = false): JsonSchema {
  const f = type.flags;
  if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
  if (f & ts.TypeFlags.StringLiteral) return { const: (type as ts.StringLiteralType).value };
  if (f & ts.TypeFlags.NumberLiteral) return { const: (type as ts.NumberLiteralType).value };
  if (f & ts.TypeFlags.BooleanLiteral) return { const: checker.typeToString(type) === 'true' };
  if (f & ts.TypeFlags.TemplateLiteral) return { type: 'string' };
  if (f & ts.TypeFlags.String) return { type: 'string' };
  if (f & ts.TypeFlags.Number) return { type: 'number' };
  if (f & ts.TypeFlags.Boolean) return { type: 'boolean' };
  if (f & ts.TypeFlags.Null) return { type: 'null' };
  if (type.isUnion()) {
    const members = type.types.filter((m) => !(m.flags & ts.TypeFlags.Undefined));
    const bools = members.filter((m) => m.flags & ts.TypeFlags.BooleanLiteral);
    const rest = members.filter((m) => !(m.flags & ts.TypeFlags.BooleanLiteral));
    const parts = [
      ...(bools.length === 2 ? [{ type: 'boolean' }] : bools.map((m) => convert(checker, m, defs))),
      ...rest.map((m) => convert(checker, m, defs)),
    ];
    if (parts.length === 1) return parts[0]!;
    if (parts.every((p) => 'const' in p && Object.keys(p).length === 1)) return { enum: parts.map((p) => p.const) };
    return { anyOf: parts };
  }
  if (checker.isTupleType(type)) {
    const items = checker.getTypeArguments(type as ts.TypeReference).map((m) => convert(checker, m, defs));
    return { type: 'array', prefixItems: items, minItems: items.length, maxItems: items.length };
  }
  if (checker.isArrayType(type)) {
    return { type: 'array', items: convert(checker, checker.getTypeArguments(type as ts.TypeReference)[0]!, defs) };
  }
  const name = root ? undefined : namedInterface(type);
  if (name) {
    if (!(name in defs)) {
      defs[name] = {};
      defs[name] = objectSchema(checker, type, defs);
    }
    return { $ref: `#/$defs/${name}` };
  }
  return objectSchema(checker, type, defs);
}

function objectSchema(checker: ts.TypeChecker, type: ts.Type, defs: Record<string, JsonSchema>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of checker.getPropertiesOfType(type)) {
    const schema = convert(checker, checker.getTypeOfSymbol(p), defs);
    const d = description(checker, p);
    properties[p.name] = d ? { description: d, ...schema } : schema;
    if (!(p.flags & ts.SymbolFlags.Optional)) required.push(p.name);
  }
  const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
  const schema: JsonSchema = { type: 'object' };
  if (Object.keys(properties).length) schema.properties = properties;
  if (required.length) schema.required = required;
  if (index) schema.additionalProperties = convert(checker, index.type, defs);
  return schema;
}

/** The text of GENERATED_FILE for these schemas. */
export function generatedModule(schemas: Record<string, JsonSchema>): string {
  return (
    `// Generated by scripts/result-schemas.ts from the result-document types (contract/results/*.ts); do not edit.\n` +
    `// JSON Schema of each task type's result.json, served at GET /api/v2/schemas/results/<task_type>.json.\n` +
    `export const RESULT_SCHEMAS: Record<string, Record<string, unknown>> = ${JSON.stringify(schemas, null, 2)};\n`
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = repositoryRoot();
  writeFileSync(path.join(root, GENERATED_FILE), generatedModule(resultSchemas(root)));
  console.log(`written ${GENERATED_FILE}`);
}
