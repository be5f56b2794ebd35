// Kind "literature": published phase-diagram values (invariant temperatures and compositions,
// congruent melting, maximum solubility, miscibility-gap critical point, melting points of the pure
// elements, single-phase fields) compared with a particular database (shared/validation/README.md).
// Every value is read from the mapped diagram (worker/mapping/binary.ts) or from point equilibria with
// root finding (worker/mapping/queries.ts); the tolerance is the curator's and nothing is tuned.
import type { BinaryDiagram } from '../../mapping/binary.js';
import { alloyQuantity, meltingQuantity } from '../alloy.js';
import { caseDatabase } from '../databases.js';
import { caseDiagram } from '../diagrams.js';
import { computeEntry } from '../quantities.js';
import { caseElements, Unsupported } from '../scope.js';
import type { ComputedValue, ExpectedEntry, KindContext, KindHandler, ValidationCase } from '../types.js';
import { diagramQuantity, type LiteratureScope } from './literature-quantities.js';

export const literature: KindHandler = (c, ctx) => c.expected.map((e) => literatureEntry(c, ctx, e));

/**
 * One literature quantity. `pointFallback` (default): a name that is no diagram quantity is evaluated as a
 * point quantity of the vocabulary; without it such a name is reported unsupported (the other kinds use this
 * function as their own fallback for diagram quantities).
 */
export function literatureEntry(
  c: ValidationCase,
  ctx: KindContext,
  e: ExpectedEntry,
  pointFallback = true,
): ComputedValue {
  const db = caseDatabase(c, ctx);
  const els = caseElements(c);
  let diagram: BinaryDiagram | null = null;
  const D = () => {
    if (els.length !== 2)
      throw new Unsupported(`a diagram quantity of a system of ${els.length} elements (binary diagrams only)`);
    return (diagram ??= caseDiagram(c, ctx));
  };
  try {
    return entry({ c, db, els, D }, e, pointFallback);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    return err instanceof Unsupported ? { value: null, unsupported: msg } : { value: null, error: msg };
  }
}

/** A diagram quantity, else a liquidus, solidus or melting point, else (with `pointFallback`) a point quantity. */
function entry(s: LiteratureScope, e: ExpectedEntry, pointFallback: boolean): ComputedValue {
  const { c, db } = s;
  const q = e.quantity.trim();
  const value = diagramQuantity(q, s) ?? alloyQuantity(q, c, db) ?? meltingQuantity(q, c, db);
  if (value) return value;
  // any other name: a point quantity of the vocabulary (e.g. "X(FCC_A1,CU) at T=800, X(CU)=0.01")
  if (!pointFallback) return { value: null, unsupported: `quantity ${q}` };
  return computeEntry(q, { c, db, mode: 'equilibrium', cond: c.conditions, entry: e });
}
