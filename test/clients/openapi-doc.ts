// Reading the service's OpenAPI document the way both client checks need it: the set of operations, the fields of
// a component schema (or of an object nested in one), and the query parameters of an operation.

export interface OpenApiDoc {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean }[] }>>;
  components: { schemas: Record<string, JsonSchema> };
}
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
}
/** A field of a schema or a query parameter: its name and whether the document requires it. */
export interface DocField {
  name: string;
  required: boolean;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** "GET /task/{id}" for every operation of the document. */
export function operations(doc: OpenApiDoc): string[] {
  const out: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const m of Object.keys(ops)) if (HTTP_METHODS.includes(m)) out.push(`${m.toUpperCase()} ${path}`);
  }
  return out.sort();
}

/** Follows $ref, a nullable anyOf and arrays down to the object schema they describe. */
function objectSchema(doc: OpenApiDoc, s: JsonSchema | undefined): JsonSchema | undefined {
  for (let depth = 0; s && depth < 10; depth++) {
    if (s.$ref) {
      s = doc.components.schemas[s.$ref.replace('#/components/schemas/', '')];
      continue;
    }
    const alts = s.anyOf ?? s.oneOf;
    if (alts) {
      s = alts.find((a) => a.type !== 'null');
      continue;
    }
    if (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) {
      s = s.items;
      continue;
    }
    return s;
  }
  return undefined;
}

/** Fields of `Name` or `Name.prop.prop` (an object nested in a component schema); undefined if there is none. */
export function schemaFields(doc: OpenApiDoc, ref: string): DocField[] | undefined {
  const [name, ...path] = ref.split('.');
  let s = objectSchema(doc, doc.components.schemas[name!]);
  for (const p of path) s = objectSchema(doc, s?.properties?.[p]);
  if (!s?.properties) return undefined;
  const req = new Set(s.required ?? []);
  return Object.keys(s.properties).map((n) => ({ name: n, required: req.has(n) }));
}

/** Query parameters of "METHOD /path"; undefined if the operation does not exist. */
export function queryFields(doc: OpenApiDoc, op: string): DocField[] | undefined {
  const [method, path] = op.split(' ');
  const o = doc.paths[path!]?.[method!.toLowerCase()];
  if (!o) return undefined;
  return (o.parameters ?? [])
    .filter((p) => p.in === 'query')
    .map((p) => ({ name: p.name, required: p.required === true }));
}

/** A client type's field: its name, whether the client makes it optional, whether it is a PhaseDesk extension. */
export interface ClientField {
  name: string;
  optional: boolean;
  extension: boolean;
}

/**
 * Compares a client type with the document: every non-extension client field exists in the document with the same
 * optionality (required there = not optional here), and every document field exists in the client type. Extension
 * fields may be missing from the document; when present they may be required there (a spec-only server omits them,
 * so clients keep them optional). Returns the problems as sentences.
 */
export function compareFields(where: string, client: ClientField[], doc: DocField[]): string[] {
  const problems: string[] = [];
  const byName = new Map(doc.map((f) => [f.name, f]));
  const clientNames = new Set(client.map((f) => f.name));
  for (const f of client) {
    const d = byName.get(f.name);
    if (!d) {
      if (!f.extension) problems.push(`${where}: client field '${f.name}' is not in the document`);
      continue;
    }
    if (f.extension) {
      if (!f.optional) problems.push(`${where}: extension field '${f.name}' must be optional in the client`);
      continue;
    }
    if (d.required === f.optional)
      problems.push(
        `${where}: '${f.name}' is ${d.required ? 'required' : 'optional'} in the document but ${f.optional ? 'optional' : 'required'} in the client`,
      );
  }
  for (const d of doc)
    if (!clientNames.has(d.name)) problems.push(`${where}: document field '${d.name}' is missing from the client`);
  return problems;
}

/** The PhaseDesk extensions agreed between the engineers (task record, task list filters); clients may carry no other. */
export const AGREED_EXTENSIONS: Record<string, string[]> = {
  TaskStatusResponse: ['progress', 'stage', 'duration_ms'],
  'GET /task/list': ['status', 'task_type', 'tdb_code', 'search'],
};
