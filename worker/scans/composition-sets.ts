// Composition sets along a scan: the sets of one phase (a miscibility gap's NAME and NAME#2) keep their numbers
// from point to point by continuity of composition, not by the order in which the solver found them.
import { type CompositionSet, type EquilibriumResult } from '../core/equilibrium.js';

export function xDistance(a: Record<string, number>, b: Record<string, number>): number {
  let d = 0;
  for (const k of Object.keys(a)) d += Math.abs(a[k] - (b[k] ?? 0));
  return d;
}

/** Injective maps of k items into m slots (k <= m), as arrays slot[i] for item i. */
export function injections(k: number, m: number): number[][] {
  if (k === 0) return [[]];
  const out: number[][] = [];
  for (const rest of injections(k - 1, m)) for (let v = 0; v < m; v++) if (!rest.includes(v)) out.push([...rest, v]);
  return out;
}

/** The ordered/disordered structure of a composition set, for continuity and transition keys. */
export type StructureOf = (p: CompositionSet) => string | undefined;

/**
 * Renumbers the composition sets of every phase along a scan so that each set keeps the number of the set it
 * continues (closest composition, same ordered/disordered structure) at the previous converged point. The
 * solver numbers the sets of a miscibility gap independently at each point, which would make NP(FCC_A1) and
 * NP(FCC_A1#2) swap between neighbouring points; and where one set of a gap vanishes the survivor keeps its
 * number (Al-Zn, X(ZN)=0.4, the gap closing near 622 K: the Zn-rich set #2 survives as FCC_A1#2, and the
 * Al-rich set #1 is the one that disappears). New sets take the smallest free numbers. Phase-set changes (the
 * transitions) are keyed by the number of sets per phase and do not depend on the numbering.
 */
export function relabelCompositionSets(
  results: EquilibriumResult[],
  structureOf?: StructureOf,
  jumps?: ReadonlySet<EquilibriumResult>,
): void {
  const prev = new Map<string, { num: number; x: Record<string, number>; structure?: string }[]>();
  for (const r of results) {
    if (!r.converged) continue;
    const byName = new Map<string, CompositionSet[]>();
    for (const p of r.phases) {
      const l = byName.get(p.name) ?? [];
      l.push(p);
      byName.set(p.name, l);
    }
    for (const [name, sets] of byName) {
      const before = prev.get(name) ?? [];
      const structures = sets.map((p) => structureOf?.(p));
      const nums: number[] = new Array(sets.length).fill(0);
      if (before.length === 0 || sets.length > 5 || before.length > 5) {
        // no history: a deterministic order (richest in the first component first)
        const el = Object.keys(sets[0].x).sort()[0];
        sets
          .map((_, i) => i)
          .sort((a, b) => (sets[b].x[el] ?? 0) - (sets[a].x[el] ?? 0))
          .forEach((i, j) => {
            nums[i] = j + 1;
          });
      } else {
        // continue the closest previous sets; a change of structure (ordered <-> disordered) costs more than any
        // composition difference of a continued set
        const cost = (i: number, j: number) =>
          xDistance(sets[i].x, before[j].x) + (structures[i] !== before[j].structure ? 1 : 0);
        const k = Math.min(sets.length, before.length);
        let best = Infinity;
        let pick: { items: number[]; slots: number[] } = { items: [], slots: [] };
        // which k of the current sets continue previous ones (all of them when the count did not grow)
        const itemChoices =
          sets.length <= before.length
            ? [sets.map((_, i) => i)]
            : injections(k, sets.length)
                .map((a) => [...a].sort())
                .filter((a, i, all) => all.findIndex((b) => b.join() === a.join()) === i);
        for (const items of itemChoices) {
          for (const slots of injections(k, before.length)) {
            let c = 0;
            for (let q = 0; q < k; q++) c += cost(items[q], slots[q]);
            if (c < best - 1e-15) {
              best = c;
              pick = { items, slots };
            }
          }
        }
        // past a jump of composition sets (setJump) a set far from every previous one is a new set: it takes a
        // number none of the previous sets had, so the transition names the set that appears and the one that goes
        const jumped = jumps?.has(r) === true;
        pick.items.forEach((i, q) => {
          const prevSet = before[pick.slots[q]];
          if (!(jumped && xDistance(sets[i].x, prevSet.x) > SET_JUMP)) nums[i] = prevSet.num;
        });
        const taken = jumped ? before.map((b) => b.num) : [];
        let free = 1;
        for (let i = 0; i < sets.length; i++) {
          if (nums[i] !== 0) continue;
          while (nums.includes(free) || taken.includes(free)) free++;
          nums[i] = free;
        }
      }
      sets.forEach((p, i) => {
        p.setNumber = nums[i];
      });
      prev.set(
        name,
        sets.map((p, i) => ({ num: nums[i], x: p.x, structure: structures[i] })),
      );
    }
  }
}

/**
 * What a transition changes, independent of how the composition sets are numbered: the number of sets of each
 * phase, and with a structure function the ordered/disordered structure of each set (second-order transitions).
 */
export function phaseSetKey(r: EquilibriumResult, structureOf?: StructureOf): string {
  const by = new Map<string, string[]>();
  for (const p of r.phases) by.set(p.name, [...(by.get(p.name) ?? []), structureOf?.(p) ?? '']);
  return [...by.keys()]
    .sort()
    .map((n) => `${n}:${by.get(n)!.sort().join(',')}`)
    .join('+');
}

/**
 * Smallest composition change (sum over elements of |dx|) that is a jump of a composition set, not its continuous
 * change: a set replaced by another of the same phase at an invariant whose two sides hold the same phase names
 * (Al-Zn at X(ZN) = 0.8: FCC_A1 + HCP_A3 on both sides of the 550.4 K monotectoid, the FCC set at X(ZN) = 0.14 below
 * and 0.62 above). Neighbouring scan points further apart than this are bisected like a change of phase set; a
 * continuous change falls below it as the bracket shrinks and drops out, a jump keeps its size down to 0.01 K.
 */
export const SET_JUMP = 0.05;

/**
 * Largest composition change of a composition set between two states with the same phase-set key: the sets of
 * each phase are paired so that the total change is least.
 */
export function setJump(a: EquilibriumResult, b: EquilibriumResult): number {
  let jump = 0;
  const setsOf = (r: EquilibriumResult, name: string) => r.phases.filter((p) => p.name === name);
  for (const name of new Set(a.phases.map((p) => p.name))) {
    const sa = setsOf(a, name),
      sb = setsOf(b, name);
    if (sa.length !== sb.length || sa.length === 0 || sa.length > 5) continue;
    let best = Infinity,
      worst = 0;
    for (const slots of injections(sa.length, sb.length)) {
      const d = sa.map((p, i) => xDistance(p.x, sb[slots[i]].x));
      const total = d.reduce((u, v) => u + v, 0);
      if (total < best) {
        best = total;
        worst = Math.max(...d);
      }
    }
    jump = Math.max(jump, worst);
  }
  return jump;
}
