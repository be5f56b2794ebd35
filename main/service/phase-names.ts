// The display names of a database's phases (extension of /api/v2: GET and PUT /database/{db_id}/phase-names):
// stored with the database record as JSON, over the defaults of its family (contract/plots/phase-names.ts). One
// set of names per database, shared by every user of the service; result files keep the database's names.
import type { PhaseNamesResponse } from '../../contract/api/responses.js';
import {
  databaseFamily,
  defaultDisplayName,
  displayKeysOf,
  type PhaseDisplayNames,
} from '../../contract/plots/phase-names.js';
import type { ServiceContext } from './context.js';
import { enabledDatabase, type DbRow } from './databases.js';
import { HttpError } from '../util/errors.js';
import { rfc3339 } from '../util/time.js';

/** The stored names of a record ({} when none). */
export function storedPhaseNames(row: Pick<DbRow, 'phase_names'>): PhaseDisplayNames {
  return row.phase_names ? (JSON.parse(row.phase_names) as PhaseDisplayNames) : {};
}

function response(row: DbRow): PhaseNamesResponse {
  const family = databaseFamily(row.code);
  const names = storedPhaseNames(row);
  const phases = displayKeysOf(JSON.parse(row.phase_list) as string[]).map((k) => {
    const default_name = defaultDisplayName(k.phase, family, k.structure ?? undefined);
    return { ...k, default_name, name: names[k.key] ?? default_name };
  });
  return { db_id: row.id, code: row.code, family, names, phases };
}

async function recordOf(ctx: ServiceContext, id: string): Promise<DbRow> {
  const row = await enabledDatabase(ctx, id);
  if (!row) throw new HttpError(404, 'Db not found');
  return row;
}

export async function getPhaseNames(ctx: ServiceContext, id: string): Promise<PhaseNamesResponse> {
  return response(await recordOf(ctx, id));
}

/**
 * Replaces the stored names of a database: every key must be one of its phases or of their states (400 naming the
 * key otherwise); a name equal to the default is not stored, so a later change of the defaults reaches it.
 */
export async function setPhaseNames(
  ctx: ServiceContext,
  id: string,
  names: PhaseDisplayNames,
): Promise<PhaseNamesResponse> {
  const row = await recordOf(ctx, id);
  const family = databaseFamily(row.code);
  const keys = new Map(displayKeysOf(JSON.parse(row.phase_list) as string[]).map((k) => [k.key, k]));
  const stored: PhaseDisplayNames = {};
  for (const [key, name] of Object.entries(names)) {
    const k = keys.get(key);
    if (!k) throw new HttpError(400, `names.${key} is not a phase of this database (nor a state of one)`);
    if (name !== defaultDisplayName(k.phase, family, k.structure ?? undefined)) stored[key] = name;
  }
  const phase_names = Object.keys(stored).length ? JSON.stringify(stored) : null;
  await ctx.store.db
    .updateTable('databases')
    .set({ phase_names, updated_at: rfc3339() })
    .where('id', '=', id)
    .execute();
  return response({ ...row, phase_names });
}
