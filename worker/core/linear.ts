// Dense linear systems of the small sizes the calculations meet (a phase's variables and components, tens of
// unknowns): Gauss-Jordan elimination with partial pivoting.

/**
 * Solves A X = B for a square A (n x n) and the columns of B (n x r); null when A is singular relative to its
 * largest entry (a pivot below `relativeTolerance` times it).
 */
export function solveLinear(
  A: readonly number[][],
  B: readonly number[][],
  relativeTolerance = 1e-13,
): number[][] | null {
  const n = A.length;
  const r = B[0]?.length ?? 0;
  const M = A.map((row, i) => [...row, ...B[i]]);
  let scale = 0;
  for (const row of A) for (const v of row) scale = Math.max(scale, Math.abs(v));
  const tiny = scale * relativeTolerance;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let i = c + 1; i < n; i++) if (Math.abs(M[i][c]) > Math.abs(M[p][c])) p = i;
    if (!(Math.abs(M[p][c]) > tiny)) return null;
    [M[c], M[p]] = [M[p], M[c]];
    for (let i = 0; i < n; i++) {
      if (i === c || M[i][c] === 0) continue;
      const f = M[i][c] / M[c][c];
      for (let k = c; k < n + r; k++) M[i][k] -= f * M[c][k];
    }
  }
  return M.map((row, i) => row.slice(n).map((v) => v / row[i]));
}
