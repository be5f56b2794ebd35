// Point conditions of a case for the line kinds (step): T, P, N, X(EL), W(EL), MU(EL) as the solver takes
// them. The point kinds (equilibrium, derivative, metastable, property) evaluate their quantities through
// worker/validation/quantities.ts (kinds/point.ts), which also handles Y(PHASE,s,SPECIES) conditions.
import type { EquilibriumConditions } from '../../core/equilibrium.js';
import { solverConditions } from '../equilibrium-at.js';
import type { ValidationCase } from '../types.js';

/** Point conditions of a case with `override` applied (every condition must then be a single number). */
export function pointConditions(c: ValidationCase, override: Record<string, number> = {}): EquilibriumConditions {
  const raw = { ...c.conditions, ...override } as Record<string, unknown>;
  for (const [k, v] of Object.entries(raw))
    if (typeof v !== 'number') throw new Error(`condition ${k} is not a single number`);
  return solverConditions(raw as Record<string, number>);
}
