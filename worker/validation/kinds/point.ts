// The point-type kinds (equilibrium, derivative, metastable, property): every expected entry is a
// quantity name of the README's vocabulary, read and evaluated by worker/validation/quantities.ts at the
// case's conditions (lists and ranges of T, P, X, ... give one value per point). A name the runner
// cannot compute is reported as unsupported with its reason; a failed computation as an error.
import { caseDatabase } from '../databases.js';
import { evaluateQuantity, Unsupported, type Scope } from '../quantities.js';
import type { ComputedValue, KindContext, KindHandler, ValidationCase } from '../types.js';
import { literatureEntry } from './literature.js';

/** One entry: its value, or why not (unsupported / error). */
export function computeEntry(q: string, scope: Scope): ComputedValue {
  try {
    return { value: evaluateQuantity(q, scope) };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    return err instanceof Unsupported ? { value: null, unsupported: msg } : { value: null, error: msg };
  }
}

/**
 * `phaseAlone` (kind metastable: "isolated-phase, driving-force or T0 quantities"): GM/HM/SM/CPM(PHASE)
 * is the phase alone as one composition set at the overall composition, not a stable set of the equilibrium.
 */
/**
 * An entry of any kind that is not one of that kind's own forms: a point quantity of the vocabulary, else a
 * diagram/literature quantity (invariant temperatures, liquidus, melting points, ...), else unsupported
 * with the point evaluator's reason.
 */
export function vocabularyEntry(c: ValidationCase, ctx: KindContext, scope: Scope): ComputedValue {
  const e = scope.entry!;
  const v = computeEntry(e.quantity, scope);
  if (!v.unsupported) return v;
  const lit = literatureEntry(c, ctx, e, false);
  return lit.unsupported ? v : lit;
}

export function pointKind(mode: Scope['mode'], phaseAlone = false): KindHandler {
  return (c, ctx) => {
    const db = caseDatabase(c, ctx);
    return c.expected.map((e) => vocabularyEntry(c, ctx, { c, db, mode, cond: c.conditions, entry: e, phaseAlone }));
  };
}
