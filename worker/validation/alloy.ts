// Liquidus and solidus temperatures of an alloy (literature quantities, README "Quantities"): the changes
// of the stable phase set along T at the alloy's fixed overall composition (worker/mapping/queries.ts,
// bisection to 1e-6 K over 200-3000 K). Liquidus: the highest change whose upper side holds only liquid
// phases. Solidus: the highest change whose lower side holds no liquid phase (for an alloy that ends in
// a eutectic this is the eutectic temperature).

import { elementsOf } from '../../contract/phases.js';
import { isLiquidName } from '../../contract/phases.js';
import type { PhaseSetChange } from '../mapping/queries.js';
import type { NativeDatabase } from '../core/native.js';
import { parseAssignments } from './expression.js';
import { lineChanges } from './line-changes.js';
import type { ComputedValue, ValidationCase } from './types.js';

const LIQUIDUS = /^(T_?liquidus|liquidus temperature)\b/i;
const SOLIDUS = /^(T_?solidus|solidus temperature)\b/i;

export function isAlloyQuantity(q: string): boolean {
  return LIQUIDUS.test(q.trim()) || SOLIDUS.test(q.trim());
}

function alloyCase(c: ValidationCase, q: string): ValidationCase {
  // "T_liquidus at X(B)=0.2" sets the composition of the line
  const at = q.lastIndexOf(' at ');
  const over = at > 0 ? parseAssignments(q.slice(at + 4)) : null;
  if (!over) return c;
  const cond: Record<string, unknown> = { ...c.conditions };
  for (const [k, v] of Object.entries(over)) {
    if (Array.isArray(v)) throw new Error(`${q}: one composition at a time`);
    cond[k] = v;
  }
  return { ...c, conditions: cond };
}

/**
 * "T_melting" of a pure element (named as "T_melting(EL)", "T_melting of EL", "... pure EL ..." or by the
 * case's X(EL) = 1 condition): the liquidus at X(EL) = 1 (clamped to 1 - 1e-10 by the solver), i.e. the
 * temperature above which only liquid is stable. Null when `q` is not such a quantity.
 */
export function meltingQuantity(q: string, c: ValidationCase, db: NativeDatabase): ComputedValue | null {
  if (!/^T_?melting\b/i.test(q.trim())) return null;
  const els = elementsOf(c.components);
  const named =
    /^T_?melting\s*\(\s*([A-Za-z]{1,2})\s*\)/i.exec(q)?.[1] ?? /\b(?:of|pure)\s+([A-Za-z]{1,2})\b/i.exec(q)?.[1];
  let el = named?.toUpperCase();
  if (!el || !els.includes(el)) {
    el = els.find((e) =>
      Object.entries(c.conditions).some(([k, v]) => k.replace(/\s+/g, '').toUpperCase() === `X(${e})` && v === 1),
    );
  }
  if (!el)
    return { value: null, unsupported: `${q}: names no element of the case (T_melting(EL) or an X(EL) = 1 condition)` };
  const others = els.filter((e) => e !== el);
  const cond: Record<string, unknown> = Object.fromEntries(
    Object.entries(c.conditions).filter(([k]) => !/^[XW]\(/i.test(k)),
  );
  // all other elements at zero (the dependent one is the melting element)
  for (const o of others) cond[`X(${o})`] = 0;
  // liquidus and solidus of the (clamped) pure element coincide to far below the bisection tolerance; the
  // scan may resolve only one of the two changes, so either serves
  const pure = { ...c, conditions: cond };
  const liq = alloyQuantity('T_liquidus', pure, db)!;
  return liq.error ? alloyQuantity('T_solidus', pure, db) : liq;
}

/** Liquidus / solidus of the case's alloy; null when `q` is not such a quantity. */
export function alloyQuantity(q: string, c: ValidationCase, db: NativeDatabase): ComputedValue | null {
  const liquidus = LIQUIDUS.test(q.trim());
  if (!liquidus && !SOLIDUS.test(q.trim())) return null;
  const line = alloyCase(c, q);
  const changes: PhaseSetChange[] = lineChanges(line, db);
  const allLiquid = (s: string[]) => s.length > 0 && s.every(isLiquidName);
  const anyLiquid = (s: string[]) => s.some(isLiquidName);
  const hits = changes.filter((ch) =>
    liquidus ? allLiquid(ch.above) && !allLiquid(ch.below) : !anyLiquid(ch.below) && anyLiquid(ch.above),
  );
  const describe = () =>
    changes.map((ch) => `${ch.below.join('+')} -> ${ch.above.join('+')} at ${ch.T.toFixed(3)} K`).join('; ');
  if (!hits.length)
    return {
      value: null,
      error: `no ${liquidus ? 'liquidus' : 'solidus'} along the line (changes: ${describe() || 'none'})`,
    };
  return { value: Math.max(...hits.map((h) => h.T)) };
}
