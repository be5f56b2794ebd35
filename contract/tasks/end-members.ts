// End members of a pseudo-binary section (the isopleth's condition.end_members): each is a compound formula
// ("Fe3C", "Al2O3", "NiAl", "(ZrO2)0.97(Y2O3)0.03") or an alloy composition (a map of fractions in the condition's
// composition_unit, like composition_start). A formula is read into element amounts per formula unit; the section's
// path is then the straight line between the two end members' compositions (docs/calculations.md, "Pseudo-binary
// sections"). Pure TypeScript: the schema (contract/tasks/isopleth.ts), the worker and the renderer use it.
import { z } from 'zod';
import { nearestName } from '../nearest-name.js';
import { composition, compositionProblem, conditionElements } from './common.js';

/** An end member as the task gives it: a formula, or an alloy's fractions in composition_unit. */
export const endMember = z.union([z.string().min(1, 'must not be empty'), composition], {
  error: 'must be a compound formula (text such as "Fe3C") or an alloy composition (a map of fractions)',
});
export type EndMember = z.infer<typeof endMember>;

/** Amounts of each element (upper case) in one formula unit, or the reason the text is not a formula. */
export type FormulaReading = { amounts: Record<string, number> } | { error: string };

const NUMBER = /^\d+(?:\.\d+)?|^\.\d+/;

/**
 * Reads a formula: element symbols each with an optional amount (a decimal number, 1 when absent), groups in
 * parentheses with an amount that multiplies them. A symbol is a capital letter and an optional small one (Al,
 * Zr); a formula written in capitals only (AL2O3, NIAL) is read against the components, the longest first.
 */
export function parseFormula(text: string, components: readonly string[]): FormulaReading {
  const upper = components.map((c) => c.toUpperCase());
  const capitalsOnly = !/[a-z]/.test(text);
  const stack: Record<string, number>[] = [{}];
  let i = 0;
  const amountAt = (): number => {
    const m = NUMBER.exec(text.slice(i));
    if (!m) return 1;
    i += m[0].length;
    return Number(m[0]);
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '(') {
      stack.push({});
      i++;
    } else if (ch === ')') {
      if (stack.length < 2) return { error: `"${text}": a ")" without its "("` };
      i++;
      const group = stack.pop()!;
      const k = amountAt();
      for (const [el, n] of Object.entries(group)) add(stack[stack.length - 1]!, el, n * k);
    } else if (/[A-Z]/.test(ch)) {
      const symbol = symbolAt(text, i, capitalsOnly, upper);
      i += symbol.length;
      const el = symbol.toUpperCase();
      if (!upper.includes(el)) {
        const near = nearestName(el, upper);
        return {
          error: `${symbol} in "${text}" is not one of the components (${upper.join(', ')})${near ? `: did you mean ${near}?` : ''}`,
        };
      }
      add(stack[stack.length - 1]!, el, amountAt());
    } else {
      return {
        error: `"${text}": "${ch}" at position ${i + 1} is neither an element symbol, an amount nor a parenthesis`,
      };
    }
  }
  if (stack.length > 1) return { error: `"${text}": a "(" without its ")"` };
  const amounts = stack[0]!;
  if (!Object.values(amounts).some((n) => n > 0)) return { error: `"${text}" holds no element` };
  return { amounts };
}

function add(into: Record<string, number>, el: string, n: number): void {
  into[el] = (into[el] ?? 0) + n;
}

/** The element symbol at i: capital + small letter, or in a formula of capitals the longest component there. */
function symbolAt(text: string, i: number, capitalsOnly: boolean, components: readonly string[]): string {
  if (capitalsOnly) {
    const two = text.slice(i, i + 2);
    if (two.length === 2 && /[A-Z]{2}/.test(two) && components.includes(two)) return two;
    return text[i]!;
  }
  return /[a-z]/.test(text[i + 1] ?? '') ? text.slice(i, i + 2) : text[i]!;
}

/** Mole fractions of every element (upper case, components order) of one formula unit's amounts. */
export function formulaMoleFractions(
  amounts: Record<string, number>,
  elements: readonly string[],
): Record<string, number> {
  const atoms = Object.values(amounts).reduce((a, b) => a + b, 0);
  return Object.fromEntries(elements.map((el) => [el, (amounts[el] ?? 0) / atoms]));
}

interface EndMemberCondition {
  components: string[];
  composition_unit?: 'mole_fraction' | 'mass_fraction';
  composition_start?: Record<string, number>;
  composition_end?: Record<string, number>;
  end_members?: { start: EndMember; end: EndMember };
  end_member_axis?: 'mole_fraction' | 'mass_fraction';
}

/**
 * The isopleth's choice between end members and composition_start/composition_end, and each end member read: a
 * 400 naming the field and what is wrong (both given, neither, a formula that does not read or names an element
 * that is not a component, an alloy map that is not a composition, the same end member twice).
 */
export function endMembersRule(c: EndMemberCondition, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  if (c.end_members === undefined) {
    for (const field of ['composition_start', 'composition_end'] as const)
      if (c[field] === undefined) issue([field], 'is required unless end_members is given');
    if (c.end_member_axis !== undefined) issue(['end_member_axis'], 'is only read with end_members');
    return;
  }
  if (c.composition_start !== undefined || c.composition_end !== undefined) {
    issue(['end_members'], 'give either end_members or composition_start and composition_end, not both');
    return;
  }
  const elements = conditionElements(c.components);
  const fractions = c.composition_unit === 'mass_fraction' ? 'mass fractions' : 'mole fractions';
  const read: (Record<string, number> | undefined)[] = [];
  for (const side of ['start', 'end'] as const) {
    const m = c.end_members[side];
    if (typeof m === 'string') {
      const r = parseFormula(m.trim(), elements);
      if ('error' in r) issue(['end_members', side], r.error);
      read.push('error' in r ? undefined : formulaMoleFractions(r.amounts, elements));
    } else {
      const r = compositionProblem(elements, m, fractions);
      if ('problem' in r)
        issue(
          r.problem.key === undefined ? ['end_members', side] : ['end_members', side, r.problem.key],
          r.problem.message,
        );
      read.push(undefined);
    }
  }
  const [a, b] = read;
  const { start, end } = c.end_members;
  const sameAlloy = typeof start !== 'string' && typeof end !== 'string' && sameMap(start, end);
  const sameFormula = a && b && elements.every((el) => Math.abs(a[el]! - b[el]!) < 1e-12);
  if (sameAlloy || sameFormula)
    issue(['end_members', 'end'], 'must differ from end_members.start (the section needs two compositions)');
}

function sameMap(a: Record<string, number>, b: Record<string, number>): boolean {
  const up = (m: Record<string, number>) => new Map(Object.entries(m).map(([k, v]) => [k.toUpperCase(), v]));
  const x = up(a),
    y = up(b);
  return [...new Set([...x.keys(), ...y.keys()])].every((k) => x.get(k) === y.get(k));
}
