import type { DbItemResponse, ListDbResponse, PhasesResponse } from '../../contract/api/responses.js';
import type { Selectable } from 'kysely';
import type { DatabasesTable, SubscriptionsTable } from '../db/types.js';
import type { ServiceContext } from './context.js';
import { HttpError } from '../util/errors.js';
import { isPast } from '../util/time.js';
import { recommendedEntries, type DatabasePhaseSelection } from '../../contract/phase-selection.js';

/** The record type of a file of mobility data alone (it is read beside a thermodynamic database, never alone). */
export const MOBILITY_TYPE = 'mobility';

export type DbRow = Selectable<DatabasesTable>;
type SubRow = Selectable<SubscriptionsTable>;

/** Effective subscription status: the stored one, reported as expired once expires_at has passed. */
export function effectiveStatus(sub: Pick<SubRow, 'status' | 'expires_at'> | undefined): string {
  if (!sub) return 'inactive';
  if (isPast(sub.expires_at) && (sub.status === 'active' || sub.status === 'trail')) return 'expired';
  return sub.status;
}

/** POST /task access: an active or trial subscription that has not expired. */
export function subscriptionAllowsTasks(sub: SubRow | undefined): boolean {
  const s = effectiveStatus(sub);
  return s === 'active' || s === 'trail';
}

/** The record's recommended phase selection (stored as JSON, checked by the schema when it was written). */
export function selectionOf(row: Pick<DbRow, 'phase_selection'>): DatabasePhaseSelection | null {
  return row.phase_selection ? (JSON.parse(row.phase_selection) as DatabasePhaseSelection) : null;
}

export function toDbItem(row: DbRow, userStatus: string): DbItemResponse {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    type: row.type,
    version: row.version,
    level: row.level,
    element_list: JSON.parse(row.element_list) as string[],
    phase_list: JSON.parse(row.phase_list) as string[],
    support_task_list: JSON.parse(row.support_task_list) as string[],
    sp_id: row.sp_id,
    price: row.price,
    user_status: userStatus,
    created_at: row.created_at,
    updated_at: row.updated_at,
    // extensions (docs/api.md): where the file comes from, its licence and attribution, its recommended selection
    source: row.source,
    license: row.license,
    attribution: row.attribution,
    phase_selection: selectionOf(row),
  };
}

export interface DbFilter {
  type?: string;
  level?: string;
  search?: string;
  task_type?: string;
  page: number;
  size: number;
}

function matches(row: DbRow, f: DbFilter): boolean {
  if (f.type !== undefined && row.type !== f.type) return false;
  if (f.level !== undefined && row.level !== f.level) return false;
  if (f.task_type !== undefined && !(JSON.parse(row.support_task_list) as string[]).includes(f.task_type)) return false;
  if (f.search !== undefined && f.search !== '') {
    const q = f.search.toLowerCase();
    const els = JSON.parse(row.element_list) as string[];
    if (
      !row.code.toLowerCase().includes(q) &&
      !row.name.toLowerCase().includes(q) &&
      !els.some((e) => e.toLowerCase() === q)
    )
      return false;
  }
  return true;
}

async function subsByDb(ctx: ServiceContext, userId: string): Promise<Map<string, SubRow>> {
  const subs = await ctx.store.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).execute();
  return new Map(subs.map((s) => [s.database_id, s]));
}

/** GET /database, /database/by-task and (linkedOnly) /database/users. Enabled records only. */
export async function listDatabases(
  ctx: ServiceContext,
  userId: string,
  f: DbFilter,
  linkedOnly = false,
): Promise<ListDbResponse> {
  const rows = await ctx.store.db
    .selectFrom('databases')
    .selectAll()
    .where('state', '=', 'enable')
    .orderBy('code')
    .execute();
  const subs = await subsByDb(ctx, userId);
  const all = rows.filter((r) => matches(r, f) && (!linkedOnly || subs.has(r.id)));
  const items = all
    .slice((f.page - 1) * f.size, f.page * f.size)
    .map((r) => toDbItem(r, effectiveStatus(subs.get(r.id))));
  return { items, total: all.length, page: f.page, size: f.size };
}

export async function enabledDatabase(ctx: ServiceContext, id: string): Promise<DbRow | undefined> {
  return ctx.store.db
    .selectFrom('databases')
    .selectAll()
    .where('id', '=', id)
    .where('state', '=', 'enable')
    .executeTakeFirst();
}

export async function subscriptionFor(ctx: ServiceContext, userId: string, dbId: string): Promise<SubRow | undefined> {
  return ctx.store.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('database_id', '=', dbId)
    .executeTakeFirst();
}

export async function getDatabase(ctx: ServiceContext, userId: string, id: string) {
  const row = await enabledDatabase(ctx, id);
  if (!row) throw new HttpError(404, 'Db not found');
  return toDbItem(row, effectiveStatus(await subscriptionFor(ctx, userId, id)));
}

interface TdbModule {
  readTdbInfo(path: string): {
    elements: string[];
    phases: string[];
    warnings: string[];
    refusals: { phase: string; reason: string }[];
  };
  phasesFor(path: string, elements: string[]): string[];
  phasesWithGroups(
    path: string,
    elements: string[],
    databaseGroups?: Record<string, string[]>,
    recommended?: string[],
  ): {
    phases: string[];
    groups: Record<string, string[]>;
    temperatureRange: { start: number; end: number; melting_points: Record<string, number | null> } | null;
    compositionRange: { element: string; mole_fraction: [number, number]; mass_fraction: [number, number] } | null;
  };
}

/** The single TDB reader of the project lives in worker/core/database.ts (native core). */
export async function loadTdbModule(): Promise<TdbModule> {
  const spec = '../../worker/core/database.js';
  try {
    return (await import(spec)) as TdbModule;
  } catch (e) {
    throw new Error(`the TDB reader (worker/core/database.js) is not available: ${(e as Error).message}`);
  }
}

/**
 * POST /database/{db_id}/phases, with the extensions phase_groups (the members of every group among the phases),
 * recommended_inhibit_phases (the database's recommended entries for these elements), temperature_range and
 * composition_range (the ranges a new diagram of these elements opens with: worker/core/system-range.ts).
 */
export async function phasesForElements(
  ctx: ServiceContext,
  userId: string,
  id: string,
  elements: string[],
): Promise<PhasesResponse> {
  const row = await enabledDatabase(ctx, id);
  if (!row) throw new HttpError(404, 'Db not found');
  const st = effectiveStatus(await subscriptionFor(ctx, userId, id));
  if (st !== 'active' && st !== 'trail')
    throw new HttpError(403, 'You do not have access to this Db or your access has expired');
  const known = new Set((JSON.parse(row.element_list) as string[]).map((e) => e.toUpperCase()));
  const unknown = elements.filter((e) => !known.has(e.toUpperCase()));
  if (unknown.length > 0) throw new HttpError(400, `element_list: unknown elements for this Db: ${unknown.join(', ')}`);
  const mod = await loadTdbModule();
  const selection = selectionOf(row);
  try {
    const recommended = recommendedEntries(selection, elements);
    const { phases, groups, temperatureRange, compositionRange } = mod.phasesWithGroups(
      row.file_path,
      elements,
      selection?.groups,
      recommended,
    );
    return {
      phase_list: phases,
      phase_groups: groups,
      recommended_inhibit_phases: recommended,
      temperature_range: temperatureRange,
      composition_range: compositionRange,
    };
  } catch (e) {
    // the stored file no longer reads (e.g. imported before a reader bound): a state of this Db, not a fault
    // of the service; the answer names the file and line
    throw new HttpError(409, `could not read the Db file: ${(e as Error).message}`);
  }
}

/** GET /database/user/status. */
export async function userDbStatus(ctx: ServiceContext, callerId: string, userId: string, dbId: string) {
  if (userId !== callerId) throw new HttpError(403, "Cannot access other user's Db status");
  const row = await enabledDatabase(ctx, dbId);
  if (!row) throw new HttpError(404, 'Db not found');
  return { status: effectiveStatus(await subscriptionFor(ctx, userId, dbId)) };
}
