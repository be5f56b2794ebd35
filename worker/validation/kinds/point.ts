// The point-type kinds (equilibrium, derivative, metastable, property): every expected entry is a
// quantity name of the README's vocabulary, read and evaluated by worker/validation/quantities.ts at the
// case's conditions (lists and ranges of T, P, X, ... give one value per point). A name the runner
// cannot compute is reported as unsupported with its reason; a failed computation as an error.
import { caseDatabase } from '../databases.js';
import type { Scope } from '../scope.js';
import type { KindHandler } from '../types.js';
import { vocabularyEntry } from './vocabulary.js';

/**
 * `phaseAlone` (kind metastable: "isolated-phase, driving-force or T0 quantities"): GM/HM/SM/CPM(PHASE)
 * is the phase alone as one composition set at the overall composition, not a stable set of the equilibrium.
 */
export function pointKind(mode: Scope['mode'], phaseAlone = false): KindHandler {
  return (c, ctx) => {
    const db = caseDatabase(c, ctx);
    return c.expected.map((e) => vocabularyEntry(c, ctx, { c, db, mode, cond: c.conditions, entry: e, phaseAlone }));
  };
}
