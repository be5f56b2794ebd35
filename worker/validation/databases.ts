// Database loading for the validation kinds: one load per (file, overrides), cached for the run.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadCore, type NativeDatabase } from '../core/native.js';
import type { KindContext, ValidationCase } from './types.js';

const cache = new Map<string, NativeDatabase>();

export function caseDatabase(c: ValidationCase, ctx: KindContext): NativeDatabase {
  if (!c.tdb) throw new Error(`case ${c.id} names no database`);
  // the shared TDB folder first; a case may also name a file relative to its cases file (own test databases)
  let file = path.resolve(ctx.tdbDir, c.tdb);
  if (!existsSync(file) && ctx.casesDir && existsSync(path.resolve(ctx.casesDir, c.tdb)))
    file = path.resolve(ctx.casesDir, c.tdb);
  let db = cache.get(file);
  if (!db) {
    db = loadCore().Database.fromFile(file);
    cache.set(file, db);
  }
  const overrides = c.parameter_overrides;
  if (overrides && Object.keys(overrides).length > 0) {
    const key = `${file}|${JSON.stringify(overrides)}`;
    let o = cache.get(key);
    if (!o) {
      o = db.withOverrides(overrides);
      cache.set(key, o);
    }
    return o;
  }
  return db;
}

/** Temperature and pressure of a single-point case (P defaults to 101325 Pa). */
export function stateOf(c: ValidationCase): { T: number; P: number } {
  const T = c.conditions.T;
  const P = c.conditions.P ?? 101325;
  if (typeof T !== 'number' || typeof P !== 'number') throw new Error(`case ${c.id}: T and P must be single numbers`);
  return { T, P };
}
