import { randomUUID } from 'node:crypto';
import type { Store } from '../db/index.js';
import { rfc3339 } from '../util/time.js';

export async function setPlan(store: Store, name: string, taskUsingLimit: number): Promise<string> {
  if (!Number.isInteger(taskUsingLimit) || taskUsingLimit < 0)
    throw new Error('task_using_limit must be a non-negative integer');
  const existing = await store.db.selectFrom('plans').select('id').where('name', '=', name).executeTakeFirst();
  if (existing) {
    await store.db
      .updateTable('plans')
      .set({ task_using_limit: taskUsingLimit })
      .where('id', '=', existing.id)
      .execute();
    return existing.id;
  }
  const id = randomUUID();
  await store.db
    .insertInto('plans')
    .values({ id, name, task_using_limit: taskUsingLimit, created_at: rfc3339() })
    .execute();
  return id;
}

export async function createUser(
  store: Store,
  o: { username: string; email?: string | null; plan: string; subscriptionExpiresAt?: string | null },
): Promise<string> {
  const plan = await store.db.selectFrom('plans').select('id').where('name', '=', o.plan).executeTakeFirst();
  if (!plan) throw new Error(`plan '${o.plan}' does not exist (create it with: plan set)`);
  const id = randomUUID();
  await store.db
    .insertInto('users')
    .values({
      id,
      username: o.username,
      email: o.email ?? null,
      plan_id: plan.id,
      subscription_expires_at: o.subscriptionExpiresAt ?? null,
      created_at: rfc3339(),
    })
    .execute();
  return id;
}

/** Moves a user to another plan. */
export async function setUserPlan(store: Store, username: string, plan: string): Promise<void> {
  const p = await store.db.selectFrom('plans').select('id').where('name', '=', plan).executeTakeFirst();
  if (!p) throw new Error(`plan '${plan}' does not exist`);
  const r = await store.db
    .updateTable('users')
    .set({ plan_id: p.id })
    .where('username', '=', username)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new Error(`user '${username}' does not exist`);
}

export async function userIdByName(store: Store, username: string): Promise<string> {
  const u = await store.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  if (!u) throw new Error(`user '${username}' does not exist`);
  return u.id;
}
