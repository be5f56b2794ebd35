// An expected entry of any kind that is not one of that kind's own forms: read as a quantity of the vocabulary.
import { computeEntry } from '../quantities.js';
import type { Scope } from '../scope.js';
import type { ComputedValue, KindContext, ValidationCase } from '../types.js';
import { literatureEntry } from './literature.js';

/**
 * A point quantity of the vocabulary, else a diagram/literature quantity (invariant temperatures, liquidus,
 * melting points, ...), else unsupported with the point evaluator's reason.
 */
export function vocabularyEntry(c: ValidationCase, ctx: KindContext, scope: Scope): ComputedValue {
  const e = scope.entry!;
  const v = computeEntry(e.quantity, scope);
  if (!v.unsupported) return v;
  const lit = literatureEntry(c, ctx, e, false);
  return lit.unsupported ? v : lit;
}
