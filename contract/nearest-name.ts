// The known name nearest to a misspelled one, for the 400s that name both: a phase or group of inhibit_phases
// (contract/phase-selection.ts), a key of task_config (contract/tasks/common.ts), an element of a condition.
/**
 * Edit distance of two strings, case-insensitive: insertions, deletions, substitutions and transpositions of
 * neighbours each count 1 (the optimal string alignment distance; FCC_L21 is one step from FCC_L12).
 */
export function editDistance(a: string, b: string): number {
  const s = a.toUpperCase();
  const t = b.toUpperCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= t.length; j++) d[0]![j] = j;
  for (let i = 1; i <= s.length; i++)
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  return d[s.length]![t.length]!;
}

/** The candidate closest to `word` by edit distance (the first of equals), or undefined when there is none. */
export function nearestName(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/**
 * The candidate close enough to `word` to be what was meant: at most a third of the word's letters edited (at
 * least one), so that "inhibit_phase" suggests inhibit_phases while "colour" suggests nothing.
 */
export function closeName(word: string, candidates: readonly string[]): string | undefined {
  const best = nearestName(word, candidates);
  if (best === undefined) return undefined;
  return editDistance(word, best) <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}
