// OpenAPI 3.1 document of /api/v2, generated from the same zod schemas the routes use (main/requests/) and the
// contract's answers (contract/api/).
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  dbItemResponse,
  errorResponse,
  fileListResponse,
  keyInfoResponse,
  listDbResponse,
  phaseNamesResponse,
  phasesResponse,
  taskListResponse,
  taskStatusResponse,
  userStatusResponse,
} from '../../contract/api/responses.js';
import { taskCreateBody, taskCreateResponse } from '../../contract/api/task-request.js';
import { taskListQuery } from '../requests/tasks.js';
import {
  dbByTaskQuery,
  dbListQuery,
  dbUserStatusQuery,
  phaseNamesRequest,
  phasesRequest,
} from '../requests/databases.js';
import { TASK_REGISTRY, TASK_TYPES, isTaskType } from '../../contract/tasks/registry.js';
import { RESULT_SCHEMAS } from '../../contract/results/result-schemas.generated.js';
import { HttpError } from '../util/errors.js';

/** Where the JSON Schema of a task type's result.json is served, below /api/v2 (no key needed, like this document). */
export const RESULT_SCHEMA_PATH = '/schemas/results';

/** GET /api/v2/schemas/results/<task_type>.json: the JSON Schema of that type's result.json. */
export function registerResultSchemaRoutes(api: FastifyInstance): void {
  api.get<{ Params: { file: string } }>(`${RESULT_SCHEMA_PATH}/:file`, async (req) => {
    const file = req.params.file;
    const t = file.replace(/\.json$/, '');
    if (!file.endsWith('.json') || !isTaskType(t)) {
      throw new HttpError(404, `no result schema '${file}'; known: ${TASK_TYPES.map((k) => `${k}.json`).join(', ')}`);
    }
    return RESULT_SCHEMAS[t];
  });
}

function js(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

function queryParams(schema: z.ZodObject, required: string[] = []) {
  const props = (js(schema, 'input').properties ?? {}) as Record<string, unknown>;
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    schema: s,
  }));
}

const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const json = (n: string) => ({ content: { 'application/json': { schema: ref(n) } } });
const ok = (n: string, d = 'OK') => ({ description: d, ...json(n) });
const err = (d: string) => ({ description: d, ...json('Error') });
const pathId = (name: string, schema: Record<string, unknown>) => ({ name, in: 'path', required: true, schema });
const AUTH = { 401: err('Authentication failed'), 403: err('Key disabled/expired or access denied') };

/** The schemas of components.schemas: the bodies of the requests and answers, and each open type's task_config. */
function componentSchemas(): Record<string, unknown> {
  const schemas: Record<string, unknown> = {
    Error: js(errorResponse),
    KeyInfo: js(keyInfoResponse),
    DbItemResponse: js(dbItemResponse),
    ListDbResponse: js(listDbResponse),
    TaskStatusResponse: js(taskStatusResponse),
    TaskList: js(taskListResponse),
    TaskCreateRequest: js(taskCreateBody, 'input'),
    TaskCreateResponse: js(taskCreateResponse),
    FileListResponse: js(fileListResponse),
    PhasesRequest: js(phasesRequest, 'input'),
    PhasesResponse: js(phasesResponse),
    PhaseNamesRequest: js(phaseNamesRequest, 'input'),
    PhaseNamesResponse: js(phaseNamesResponse),
    UserDbStatus: js(userStatusResponse),
  };
  for (const t of TASK_TYPES) schemas[`TaskConfig_${t}`] = js(TASK_REGISTRY[t].schema, 'input');
  // task_config is one of the open types' configurations, told apart by task_type
  const createRequest = schemas.TaskCreateRequest as { properties: Record<string, unknown> };
  createRequest.properties.task_config = {
    description: 'The configuration of the task; absent or null: a description holding its JSON text is used',
    anyOf: [
      {
        oneOf: TASK_TYPES.map((t) => ref(`TaskConfig_${t}`)),
        discriminator: {
          propertyName: 'task_type',
          mapping: Object.fromEntries(TASK_TYPES.map((t) => [t, `#/components/schemas/TaskConfig_${t}`])),
        },
      },
      { type: 'null' },
    ],
  };
  return schemas;
}

const intId = pathId('id', { type: 'integer', minimum: 1 });
const fileOp = (what: string) => ({
  get: {
    summary: `${what} files of a completed task`,
    parameters: [intId],
    responses: {
      200: ok('FileListResponse'),
      ...AUTH,
      404: err('Task not found'),
      409: err('Task is not completed'),
    },
  },
});

/** The operations of /key and /task. */
function taskPaths(): Record<string, unknown> {
  return {
    '/key/info': { get: { summary: 'Key info', responses: { 200: ok('KeyInfo'), ...AUTH } } },
    '/task': {
      post: {
        summary: 'Create a task',
        requestBody: { required: true, ...json('TaskCreateRequest') },
        responses: { 200: ok('TaskCreateResponse'), 400: err('Validation error'), ...AUTH },
      },
    },
    '/task/list': {
      get: {
        summary: 'List own tasks',
        parameters: queryParams(taskListQuery),
        responses: { 200: ok('TaskList'), 400: err('Out-of-range paging'), ...AUTH },
      },
    },
    '/task/{id}': {
      get: {
        summary: 'Task status',
        parameters: [intId],
        responses: { 200: ok('TaskStatusResponse'), ...AUTH, 404: err('Task not found') },
      },
      delete: {
        summary: 'Stop if needed, then delete',
        parameters: [pathId('id', { anyOf: [{ type: 'integer' }, { type: 'string', format: 'uuid' }] })],
        responses: {
          200: { description: 'Deleted (empty body)' },
          400: err('id must be an integer or uuid'),
          ...AUTH,
          404: err('Task not found'),
        },
      },
    },
    '/task/{id}/cancel': {
      patch: {
        summary: 'Cancel',
        parameters: [intId],
        responses: {
          200: ok('TaskStatusResponse'),
          ...AUTH,
          404: err('Task not found'),
          409: err('Not cancellable'),
        },
      },
    },
    '/task/{id}/result': fileOp('Result'),
    '/task/{id}/preview': fileOp('Preview'),
    '/task/{id}/vtk': fileOp('VTK'),
  };
}

/** The operations of /database. */
function databasePaths(): Record<string, unknown> {
  const dbList = queryParams(dbListQuery);
  return {
    '/database': {
      get: {
        summary: 'Enabled databases',
        parameters: dbList,
        responses: { 200: ok('ListDbResponse'), 400: err('Bad paging'), ...AUTH },
      },
    },
    '/database/users': {
      get: {
        summary: 'Databases linked to the caller',
        parameters: dbList,
        responses: { 200: ok('ListDbResponse'), ...AUTH },
      },
    },
    '/database/by-task': {
      get: {
        summary: 'Databases supporting a task type',
        parameters: queryParams(dbByTaskQuery, ['task_type']),
        responses: { 200: ok('ListDbResponse'), 400: err('task_type missing'), ...AUTH },
      },
    },
    '/database/user/status': {
      get: {
        summary: 'Subscription status',
        parameters: queryParams(dbUserStatusQuery, ['user_id', 'topdb_id']),
        responses: { 200: ok('UserDbStatus'), ...AUTH, 404: err('Db not found') },
      },
    },
    '/database/{db_id}': {
      get: {
        summary: 'One database',
        parameters: [pathId('db_id', { type: 'string', format: 'uuid' })],
        responses: { 200: ok('DbItemResponse'), ...AUTH, 404: err('Db not found') },
      },
    },
    '/database/{db_id}/phases': {
      post: {
        summary: 'Phases for elements',
        parameters: [pathId('db_id', { type: 'string', format: 'uuid' })],
        requestBody: { required: true, ...json('PhasesRequest') },
        responses: { 200: ok('PhasesResponse'), 400: err('Bad element_list'), ...AUTH, 404: err('Db not found') },
      },
    },
    // Extension (docs/api.md): display names of the database's phases; a client of the specification can ignore it
    '/database/{db_id}/phase-names': {
      get: {
        summary: 'Display names of the phases (extension)',
        parameters: [pathId('db_id', { type: 'string', format: 'uuid' })],
        responses: { 200: ok('PhaseNamesResponse'), ...AUTH, 404: err('Db not found') },
      },
      put: {
        summary: 'Set the display names of the phases (extension)',
        parameters: [pathId('db_id', { type: 'string', format: 'uuid' })],
        requestBody: { required: true, ...json('PhaseNamesRequest') },
        responses: { 200: ok('PhaseNamesResponse'), 400: err('Bad names'), ...AUTH, 404: err('Db not found') },
      },
    },
  };
}

export function buildOpenApi(serverUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'PhaseDesk Thermodynamic Calculation Task Service', version: '2.0.0' },
    // Extension: where the JSON Schema of each task type's result.json is served (no key needed). Not an operation
    // of `paths`: the files are documents about the API, as this one is.
    'x-result-schemas': Object.fromEntries(TASK_TYPES.map((t) => [t, `${serverUrl}${RESULT_SCHEMA_PATH}/${t}.json`])),
    servers: [{ url: serverUrl }],
    components: {
      schemas: componentSchemas(),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'tk_ + 32 alphanumerics' } },
    },
    security: [{ bearer: [] }],
    paths: { ...taskPaths(), ...databasePaths() },
  };
}
