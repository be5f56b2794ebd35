// The databases a task names: its own (tdb_code, spec POST /task step 1) and, as an extension, a database of
// mobility data read beside it (mobility_tdb_code: MQ, MF, DQ, DF parameters for the phases of the first; docs/api.md
// "Mobility databases"). Both must be enabled records the user's subscription allows; the pair must read together
// and hold the mobility data the outputs name.
import { HttpError } from '../util/errors.js';
import type { AuthContext } from './keys.js';
import type { ServiceContext } from './context.js';
import { MOBILITY_TYPE, subscriptionAllowsTasks, type DbRow } from './databases.js';
import { parseOutputName } from '../../contract/results/outputs/names.js';

const KINETIC_TYPES = new Set(['MQ', 'MF', 'DQ', 'DF']);
const DIFFUSION_OUTPUTS = new Set(['MOB', 'DT', 'DC', 'DI']);

/** An enabled record of that code the user may run tasks on; `field` names the configuration key in messages. */
async function enabledRecord(ctx: ServiceContext, auth: AuthContext, code: string, field?: string): Promise<DbRow> {
  const at = field ? `${field}: ` : '';
  const dbRow = await ctx.store.db
    .selectFrom('databases')
    .selectAll()
    .where('code', '=', code)
    .where('state', '=', 'enable')
    .executeTakeFirst();
  if (!dbRow) throw new HttpError(400, `${at}Db code '${code}' was not found or is disabled`);
  const sub = await ctx.store.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', auth.user.id)
    .where('database_id', '=', dbRow.id)
    .executeTakeFirst();
  if (!subscriptionAllowsTasks(sub))
    throw new HttpError(403, `${at}the current subscription does not allow access to Db code '${code}'`);
  return dbRow;
}

/**
 * Spec POST /task step 1: the database is resolved (enabled record, subscription access) before the type-specific
 * configuration is validated, so an unknown code is named even when the condition is incomplete. A record of
 * mobility data alone has no Gibbs energies to calculate with: it is named beside one, never as tdb_code.
 */
export async function usableDatabase(ctx: ServiceContext, auth: AuthContext, code: string): Promise<DbRow> {
  const dbRow = await enabledRecord(ctx, auth, code);
  if (dbRow.type === MOBILITY_TYPE)
    throw new HttpError(
      400,
      `tdb_code: '${code}' holds mobility data only (no Gibbs energies): give a thermodynamic database as tdb_code and this one as mobility_tdb_code`,
    );
  return dbRow;
}

interface PairReader {
  openDatabase(
    path: string,
    mobilityPath?: string,
  ): { parameters(phase: string): { type: string; qualifier?: string }[] };
}

/** The single TDB reader of the project (worker/core/database.ts), loaded as the catalog loads it. */
async function pairReader(): Promise<PairReader> {
  const spec = '../../worker/core/database.js';
  return (await import(spec)) as PairReader;
}

/**
 * The record of task_config.mobility_tdb_code, or undefined without one. 400 naming mobility_tdb_code when it is no
 * usable record or does not read beside the task's database (no parameter of it describes a phase of that database);
 * 400 naming the output when an output asks for the mobility of an element in a phase that has no data for it.
 */
export async function mobilityDatabase(
  ctx: ServiceContext,
  auth: AuthContext,
  config: Record<string, unknown>,
  dbRow: DbRow,
): Promise<DbRow | undefined> {
  const code = config.mobility_tdb_code;
  if (typeof code !== 'string') return undefined;
  const row = await enabledRecord(ctx, auth, code, 'mobility_tdb_code');
  let db: ReturnType<PairReader['openDatabase']>;
  try {
    db = (await pairReader()).openDatabase(dbRow.file_path, row.file_path);
  } catch (e) {
    throw new HttpError(
      400,
      `mobility_tdb_code: '${code}' does not read beside '${dbRow.code}': ${(e as Error).message}`,
    );
  }
  const missing = missingMobility(config, db);
  if (missing) throw new HttpError(400, missing);
  return row;
}

/** The first output naming a phase and an element without kinetic parameters for it, as a message; else null. */
function missingMobility(config: Record<string, unknown>, db: ReturnType<PairReader['openDatabase']>): string | null {
  const condition = (config.condition ?? {}) as { thermo_outputs?: unknown; outputs_list_template?: unknown };
  for (const field of ['thermo_outputs', 'outputs_list_template'] as const) {
    const names = Array.isArray(condition[field]) ? (condition[field] as unknown[]) : [];
    for (const name of names) {
      const o = parseOutputName(String(name));
      if (typeof o === 'string' || !DIFFUSION_OUTPUTS.has(o.fn) || !o.phase || o.phase === '*') continue;
      const phase = o.phase.replace(/#\d+$/, '');
      const have = new Set(
        db
          .parameters(phase)
          .filter((p) => KINETIC_TYPES.has(p.type.toUpperCase()))
          .map((p) => (p.qualifier ?? '').toUpperCase()),
      );
      const lacking = [o.element, o.element2].find((e) => e && e !== '*' && !have.has(e));
      if (lacking)
        return `condition.${field}: ${String(name)}: the mobility data has no parameter for ${lacking} in ${phase}${have.size ? ` (it has ${[...have].sort().join(', ')})` : ''}`;
    }
  }
  return null;
}
