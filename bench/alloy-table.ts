// The 7-component Al alloy family of the batch benchmarks (bench:batch, bench:server): the alloy7 composition of
// bench/calc/alloy7.ts with each solute varied by +-30 %, AL the balance. The alloys are a low-discrepancy sequence
// (fractional parts of multiples of square roots of primes), so every run computes the same rows.
const X: Record<string, number> = { ZN: 0.025, MG: 0.029, CU: 0.007, SI: 0.002, FE: 0.002, MN: 0.001 };
export const SOLUTES = Object.keys(X);
const STEPS = [2, 3, 5, 7, 11, 13].map(Math.sqrt);

/** The table of n alloys: alloy7 with each solute's mole fraction times 0.7 ... 1.3, AL the balance. */
export function alloyTable(n: number): string {
  const lines = [SOLUTES.join(',')];
  for (let i = 1; i <= n; i++) {
    lines.push(SOLUTES.map((el, k) => (X[el]! * (0.7 + 0.6 * ((i * STEPS[k]!) % 1))).toPrecision(6)).join(','));
  }
  return lines.join('\n') + '\n';
}
