// The TypeScript client (clients/typescript) against a real service: its operations and field names checked
// against the OpenAPI document the service serves, its source type-checked on its own settings, and a whole session
// run through it (key info, databases, phases, a point calculation waited for, result.json through a signed URL,
// typed errors, waiting aborted by a signal).
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, pointConfig, startFixture, type Fixture } from '../service/helpers.js';
import {
  ENDPOINTS,
  PhaseDeskApiError,
  PhaseDeskClient,
  PhaseDeskTaskError,
  fileName,
  type Task,
  type TaskConfig,
} from '../../clients/typescript/src/index.js';
import {
  AGREED_EXTENSIONS,
  compareFields,
  operations,
  queryFields,
  schemaFields,
  type ClientField,
  type OpenApiDoc,
} from './openapi-doc.js';

const CLIENT_DIR = join(ROOT, 'clients', 'typescript');
const SOURCE = join(CLIENT_DIR, 'src', 'index.ts');

interface ClientType {
  name: string;
  schemas: string[];
  queries: string[];
  fields: ClientField[];
}

/** The client's source compiled with its own tsconfig: diagnostics and every interface with its @schema / @query tags. */
function readClientSource(): { diagnostics: string[]; types: ClientType[] } {
  const cfg = ts.getParsedCommandLineOfConfigFile(
    join(CLIENT_DIR, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const program = ts.createProgram({ rootNames: cfg.fileNames, options: { ...cfg.options, noEmit: true } });
  const diagnostics = ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  const source = program.getSourceFile(SOURCE)!;
  const tagValues = (node: ts.Node, tag: string) =>
    ts
      .getJSDocTags(node)
      .filter((t) => t.tagName.text === tag)
      .map((t) => (typeof t.comment === 'string' ? t.comment : (ts.getTextOfJSDocComment(t.comment) ?? '')).trim());
  const types: ClientType[] = [];
  source.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node)) return;
    const fields: ClientField[] = node.members.filter(ts.isPropertySignature).map((m) => ({
      name: m.name.getText(source),
      optional: m.questionToken !== undefined,
      extension: ts.getJSDocTags(m).some((t) => t.tagName.text === 'extension'),
    }));
    types.push({ name: node.name.text, schemas: tagValues(node, 'schema'), queries: tagValues(node, 'query'), fields });
  });
  return { diagnostics, types };
}

let f: Fixture;
let doc: OpenApiDoc;
let client: PhaseDeskClient;

beforeAll(async () => {
  f = await startFixture();
  client = new PhaseDeskClient({ baseUrl: f.svc.baseUrl, apiKey: f.keyA });
  const res = await fetch(`${f.svc.baseUrl}/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as OpenApiDoc;
});
afterAll(async () => {
  await f?.close();
});

describe('TypeScript client against the OpenAPI document', () => {
  const src = readClientSource();

  it('type-checks with its own settings (DOM fetch types, no Node types, strict)', () => {
    expect(src.diagnostics).toEqual([]);
    expect(src.types.map((t) => t.name)).toEqual(
      expect.arrayContaining(['KeyInfo', 'Task', 'TaskCreateRequest', 'CptCondition']),
    );
  });

  it('has a method for every operation of the document, and no operation the document lacks', () => {
    const clientOps = Object.values(ENDPOINTS)
      .map((e) => `${e.method} ${e.path}`)
      .sort();
    expect(clientOps).toEqual(operations(doc));
    for (const name of Object.keys(ENDPOINTS))
      expect(typeof (PhaseDeskClient.prototype as unknown as Record<string, unknown>)[name], name).toBe('function');
  });

  it('uses exactly the field names of the document schemas and query parameters', () => {
    const problems: string[] = [];
    const covered = new Set<string>();
    for (const t of src.types) {
      for (const ref of t.schemas) {
        const fields = schemaFields(doc, ref);
        if (!fields) {
          problems.push(`${t.name}: @schema ${ref} is not an object schema of the document`);
          continue;
        }
        covered.add(ref);
        problems.push(...compareFields(`${t.name} (${ref})`, t.fields, fields));
        for (const x of t.fields.filter((x) => x.extension))
          if (!AGREED_EXTENSIONS[ref]?.includes(x.name)) problems.push(`${t.name}.${x.name}: not an agreed extension`);
      }
      for (const op of t.queries) {
        const fields = queryFields(doc, op);
        if (!fields) {
          problems.push(`${t.name}: @query ${op} is not an operation of the document`);
          continue;
        }
        covered.add(op);
        problems.push(...compareFields(`${t.name} (${op})`, t.fields, fields));
        for (const x of t.fields.filter((x) => x.extension))
          if (!AGREED_EXTENSIONS[op]?.includes(x.name)) problems.push(`${t.name}.${x.name}: not an agreed extension`);
      }
    }
    expect(problems).toEqual([]);
    // Every component schema and every operation with query parameters has a client type.
    for (const name of Object.keys(doc.components.schemas)) expect(covered.has(name), `schema ${name}`).toBe(true);
    for (const op of operations(doc))
      if ((queryFields(doc, op) ?? []).length > 0) expect(covered.has(op), `query of ${op}`).toBe(true);
  });

  it('the check itself catches a field the document does not have and a missing one', () => {
    const fields = schemaFields(doc, 'TaskCreateResponse')!;
    expect(
      compareFields(
        'x',
        [
          { name: 'id', optional: false, extension: false },
          { name: 'statuss', optional: false, extension: false },
        ],
        fields,
      ),
    ).toEqual(
      expect.arrayContaining([
        "x: client field 'statuss' is not in the document",
        "x: document field 'status' is missing from the client",
      ]),
    );
    expect(
      compareFields('x', [{ name: 'id', optional: true, extension: false }], [{ name: 'id', required: true }]),
    ).toEqual(["x: 'id' is required in the document but optional in the client"]);
    // An agreed extension passes whether or not this service's document has it yet, and stays optional in the client.
    const progress = { name: 'progress', optional: true, extension: true };
    expect(compareFields('x', [progress], [{ name: 'progress', required: true }])).toEqual([]);
    expect(compareFields('x', [progress], [])).toEqual([]);
    expect(compareFields('x', [{ ...progress, optional: false }], [{ name: 'progress', required: true }])).toEqual([
      "x: extension field 'progress' must be optional in the client",
    ]);
  });
});

describe('TypeScript client against a real service', () => {
  it('runs a session: key, databases, phases, a point calculation, its result.json through a signed URL', async () => {
    const key = await client.keyInfo();
    expect(key.user.username).toBe('a');
    expect(key.key_name).toBe('key-a');

    const dbs = await client.listDatabases({ search: 'ALFE' });
    const alfe = dbs.items.find((d) => d.code === 'ALFE')!;
    expect(alfe).toBeDefined();
    expect((await client.getDatabase(alfe.id)).element_list).toEqual(expect.arrayContaining(['AL', 'FE']));
    expect((await client.listUserDatabases()).items.map((d) => d.code)).toContain('ALFE');
    expect((await client.listDatabasesByTask({ task_type: 'point_calculation' })).items.map((d) => d.code)).toContain(
      'ALFE',
    );
    expect((await client.userDatabaseStatus({ user_id: key.user.id, topdb_id: alfe.id })).status).toBe('active');
    const phases = await client.queryPhases(alfe.id, { element_list: ['AL', 'FE'] });
    expect(phases.phase_list).toEqual(expect.arrayContaining(['LIQUID', 'FCC_A1', 'BCC_A2']));

    const created = await client.createTask({
      title: 'client point',
      no_cache: true,
      task_config: pointConfig() as TaskConfig,
    });
    expect(created).toMatchObject({ status: 'pending', task_type: 'point_calculation', tdb_code: 'ALFE' });
    const seen: string[] = [];
    const done = await client.waitForTask(created.id, { intervalMs: 20, onUpdate: (t) => seen.push(t.status) });
    expect(done.status).toBe('completed');
    expect(seen.at(-1)).toBe('completed');

    const listed = await client.listTasks({ sort_order: 'desc', items_per_page: 5 });
    expect(listed.data[0]!.id).toBe(created.id);

    const files = await client.resultFiles(created.id);
    expect(files.total_count).toBe(files.files.length);
    const resultUrl = files.files.find((u) => fileName(u) === 'result.json')!;
    expect(resultUrl).toBeDefined();
    const result = await client.downloadJson<{
      point: { T: number; converged: boolean; x: Record<string, number>; phases: { amount: number }[] };
    }>(resultUrl);
    expect(result.point.T).toBe(1000);
    expect(result.point.converged).toBe(true);
    expect(result.point.x.AL).toBeCloseTo(0.3, 9);
    expect(result.point.phases.reduce((s, p) => s + p.amount, 0)).toBeCloseTo(1, 6);
    expect(
      (await client.downloadText(files.files.find((u) => fileName(u) === 'result.csv')!)).split('\n')[0],
    ).toContain('T [K]');
    // one call for a named file; a name the list lacks names the files there are
    const csv = new TextDecoder().decode(await client.taskFile(created.id, 'result.csv'));
    expect(csv.split('\n')[0]).toMatch(/^T \[K\],P \[Pa\],x\(AL\)/);
    expect((await client.taskFile(created.id, 'point.svg', { kind: 'preview' })).length).toBeGreaterThan(0);
    await expect(client.taskFile(created.id, 'nope.csv')).rejects.toMatchObject({
      status: 404,
      message: expect.stringMatching(/has no result file nope\.csv \(files: .*result\.csv/),
    });
    expect(done.duration_ms).toBeGreaterThanOrEqual(0);

    // The signed URL is the credential: the key never travels with a download.
    const sent: { url: string; auth: string | null }[] = [];
    const spy = new PhaseDeskClient({
      baseUrl: f.svc.baseUrl,
      apiKey: f.keyA,
      fetch: (input, init) => {
        sent.push({ url: String(input), auth: new Headers(init?.headers).get('authorization') });
        return fetch(input, init);
      },
    });
    await spy.download(resultUrl);
    expect(sent).toEqual([{ url: resultUrl, auth: null }]);
    await spy.keyInfo();
    expect(sent[1]!.auth).toBe(`Bearer ${f.keyA}`);

    const previews = await client.previewFiles(created.id);
    expect(previews.files.map(fileName)).toEqual(expect.arrayContaining(['point.svg', 'point.png']));
    const png = await client.download(previews.files.find((u) => fileName(u) === 'point.png')!);
    expect(Array.from(png.subarray(0, 4))).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect((await client.vtkFiles(created.id)).task_id).toBe(files.task_id);
  });

  it('runs a batch: rows in input order with status, inputs and outputs; a refused or failed one throws', async () => {
    const product = {
      compositions: [
        { AL: 0.25, FE: 0.75 },
        { AL: 0.4, FE: 0.6 },
      ],
      temperatures: [1200, 1400],
    };
    const rows = await client.batch(
      'ALFE',
      { components: ['AL', 'FE'], pressure: 101325, product },
      { intervalMs: 20 },
    );
    expect(rows.map((r) => r.row)).toEqual([1, 2, 3, 4]);
    expect(rows.every((r) => r.status === 'ok' && r.reason === '')).toBe(true);
    expect(rows.map((r) => [r.input.T, Number(r.input.x.AL!.toFixed(9))]).sort()).toEqual([
      [1200, 0.25],
      [1200, 0.4],
      [1400, 0.25],
      [1400, 0.4],
    ]);
    // each row is the point calculation of its alloy
    const alone = await client.createTask({
      title: 'same alloy',
      no_cache: true,
      task_config: pointConfig() as TaskConfig,
    });
    await client.waitForTask(alone.id, { intervalMs: 20 });
    const point = JSON.parse(new TextDecoder().decode(await client.taskFile(alone.id, 'result.json'))).point;
    const [same] = await client.batch('ALFE', {
      components: ['AL', 'FE'],
      pressure: 101325,
      rows: [{ compositions: { AL: 0.3, FE: 0.7 }, temperature: 1000 }],
    });
    expect(same!.values!.G).toBeCloseTo(point.GM, 6);
    const refused = await client.batch('ALFE', { components: ['AL', 'FE'], pressure: 101325 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PhaseDeskApiError);
    expect((refused as PhaseDeskApiError).status).toBe(400);
    expect((refused as PhaseDeskApiError).message).toMatch(/rows/);
    // a batch cancelled while it runs ends aborted: PhaseDeskTaskError with the task's record
    const many = {
      compositions: Array.from({ length: 40 }, (_, k) => ({ AL: 0.1 + k * 0.01, FE: 0.9 - k * 0.01 })),
      temperatures: Array.from({ length: 500 }, (_, k) => 600 + k),
    };
    const cancelled = await client
      .batch(
        'ALFE',
        { components: ['AL', 'FE'], pressure: 101325, product: many },
        {
          intervalMs: 20,
          onUpdate: (t) => void (t.status === 'running' && client.cancelTask(t.id).catch(() => {})),
        },
      )
      .catch((e: unknown) => e);
    expect(cancelled).toBeInstanceOf(PhaseDeskTaskError);
    expect((cancelled as PhaseDeskTaskError).task.status).toBe('aborted');
  });

  it('throws PhaseDeskApiError with the HTTP status and the service message', async () => {
    const err = (p: Promise<unknown>) =>
      p.then(
        () => {
          throw new Error('expected an error');
        },
        (e: unknown) => e as PhaseDeskApiError,
      );
    const notFound = await err(client.getTask(999_999));
    expect(notFound).toBeInstanceOf(PhaseDeskApiError);
    expect(notFound).toMatchObject({ status: 404, message: 'Task not found', method: 'GET' });
    const badKey = await err(new PhaseDeskClient({ baseUrl: f.svc.baseUrl, apiKey: 'tk_' + 'x'.repeat(32) }).keyInfo());
    expect(badKey).toMatchObject({ status: 401, message: 'invalid API key' });
    const badPaging = await err(client.listTasks({ items_per_page: 0 }));
    expect(badPaging.status).toBe(400);
    expect(badPaging.message).toContain('items_per_page');
    const badConfig = await err(
      client.createTask({ title: 'bad', task_config: pointConfig({ pressure: -1 }) as TaskConfig }),
    );
    expect(badConfig).toMatchObject({ status: 400, message: 'task_config.condition.pressure: must be greater than 0' });
    expect(badConfig.body?.error).toBe(badConfig.message);
    const doneId = (await client.listTasks({ sort_order: 'desc' })).data.find((t) => t.status === 'completed')!.id;
    expect(await err(client.cancelTask(doneId))).toMatchObject({
      status: 409,
      message: 'Task cannot be stopped in current status: completed',
    });
    const url = (await client.resultFiles(doneId)).files[0]!;
    expect(
      await err(
        client.download(
          url.replace(/signature=[0-9a-f]/, (m) => (m.endsWith('0') ? m.slice(0, -1) + '1' : m.slice(0, -1) + '0')),
        ),
      ),
    ).toMatchObject({ status: 403 });
  });

  it('waitForTask stops when its signal aborts; cancel and delete end the task', async () => {
    const sleeper = await client.createTask({
      title: 'sleeper',
      task_config: { task_type: '__test_sleep', tdb_code: 'ALFE', seconds: 3600 } as unknown as TaskConfig,
    });
    const stop = new AbortController();
    const updates: Task[] = [];
    const waiting = client.waitForTask(sleeper.id, {
      intervalMs: 20,
      signal: stop.signal,
      onUpdate: (t) => {
        updates.push(t);
        if (t.status === 'running') stop.abort(new Error('enough'));
      },
    });
    await expect(waiting).rejects.toThrow('enough');
    expect(updates.at(-1)!.status).toBe('running');
    const cancelled = await client.cancelTask(sleeper.id);
    expect(cancelled.status).toBe('aborted');
    expect((await client.waitForTask(sleeper.id)).status).toBe('aborted');
    await client.deleteTask(sleeper.id);
    await expect(client.getTask(sleeper.id)).rejects.toMatchObject({ status: 404 });
  });
});
