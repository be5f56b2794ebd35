import type { Kysely } from 'kysely';
import { bigintType, doubleType, idColumn } from '../dialect.js';

// First schema version. Later versions add files 002_*.ts and register them in ../index.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await createAccountTables(db);
  await createDatabaseTables(db);
  await createTaskTables(db);
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

/** Plans, users and their API keys (stored as hashes). */
async function createAccountTables(db: Kysely<any>): Promise<void> {
  const [idType, identity] = idColumn(db);
  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('task_using_limit', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('plan_id', 'text', (c) => c.notNull().references('plans.id'))
    .addColumn('subscription_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('api_keys')
    .addColumn('id', idType, identity)
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('key_name', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('expires_at', 'text')
    .execute();
}

/** The database catalog and the users' subscriptions to it. */
async function createDatabaseTables(db: Kysely<any>): Promise<void> {
  const double = doubleType(db);
  await db.schema
    .createTable('databases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('element_list', 'text', (c) => c.notNull())
    .addColumn('phase_list', 'text', (c) => c.notNull())
    .addColumn('support_task_list', 'text', (c) => c.notNull())
    .addColumn('sp_id', 'text')
    .addColumn('price', double, (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('enable'))
    .addColumn('file_path', 'text', (c) => c.notNull())
    .addColumn('file_sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('database_id', 'text', (c) => c.notNull().references('databases.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('plan_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('subscriptions_user_db', ['user_id', 'database_id'])
    .execute();
}

/** Tasks, the creation log of the daily quota, the files of the tasks and the calculation cache. */
async function createTaskTables(db: Kysely<any>): Promise<void> {
  const [idType, identity] = idColumn(db);
  const bigint = bigintType(db),
    double = doubleType(db);
  await db.schema
    .createTable('tasks')
    .addColumn('id', idType, identity)
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('task_config', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('task_type', 'text', (c) => c.notNull())
    .addColumn('tdb_code', 'text')
    .addColumn('database_id', 'text')
    .addColumn('result', 'text')
    .addColumn('logs', 'text')
    .addColumn('progress', double, (c) => c.notNull().defaultTo(0))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('omp_threads', 'integer')
    .addColumn('no_cache', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cache_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('created_ms', bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tasks_user_status').on('tasks').columns(['user_id', 'status']).execute();
  // Creation log kept apart from tasks so that deleting a task does not give back rolling-24h quota.
  await db.schema
    .createTable('task_creations')
    .addColumn('id', idType, identity)
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_ms', bigint, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('task_creations_user_time')
    .on('task_creations')
    .columns(['user_id', 'created_ms'])
    .execute();
  await db.schema
    .createTable('task_files')
    .addColumn('id', idType, identity)
    .addColumn('task_id', bigint, (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('rel_path', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('calc_cache')
    .addColumn('cache_key', 'text', (c) => c.primaryKey())
    .addColumn('task_uuid', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'settings',
    'calc_cache',
    'task_files',
    'task_creations',
    'tasks',
    'subscriptions',
    'databases',
    'api_keys',
    'users',
    'plans',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
