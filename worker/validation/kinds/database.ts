// Kind "database": facts about reading a database. Supported: the parameter count after the
// phase-option B/F symmetry expansion (§5.5).
import { expandedParameterCount } from '../../core/models.js';
import { caseDatabase } from '../databases.js';
import type { ComputedValue, KindHandler } from '../types.js';

export const database: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  return c.expected.map((e): ComputedValue => {
    if (/parameter_count/.test(e.quantity)) return { value: expandedParameterCount(db) };
    return { value: null, unsupported: `database quantity ${e.quantity}` };
  });
};
