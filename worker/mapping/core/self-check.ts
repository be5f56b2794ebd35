// The completeness self-check of a map (core/skeleton.ts, stage 7): point equilibria at points the seed grid does
// not share (core/grid.ts upwardCellCentroids for a triangle), solved on their own, must each lie in a mapped field
// of their phases. A region the map missed, or one it drew where there is none, shows up as a disagreement; an
// answer that did not converge is counted apart (it checks nothing).

/** The tally of a self-check: points asked, agreeing, not converged, and what the others found. */
export interface CheckTally<D> {
  points: number;
  agree: number;
  not_converged: number;
  disagreements: D[];
}

/** Each converged answer judged against the map: `judge` gives null where they agree, else the disagreement. */
export function tallyAnswers<A extends { ok: boolean }, D>(
  answers: readonly A[],
  judge: (a: A) => D | null,
): CheckTally<D> {
  let agree = 0,
    notConverged = 0;
  const disagreements: D[] = [];
  for (const a of answers) {
    if (!a.ok) {
      notConverged++;
      continue;
    }
    const d = judge(a);
    if (d === null) agree++;
    else disagreements.push(d);
  }
  return { points: answers.length, agree, not_converged: notConverged, disagreements };
}
