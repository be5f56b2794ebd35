// Phases of a system that hold no state of their own. A phase with a single state in the system (one constituent on
// every sublattice once the species of absent elements are left out) whose Gibbs energy is that of an endmember of
// another phase with the same composition duplicates that endmember: every state of it is a state of the other
// phase, which is never higher and, where it dissolves the other element, lower by only R T x ln-terms of that
// solubility. H_BCC of mc_fe_v2.059 (FE : H,VA, the bcc Fe of its Fe-H assessment) is pure bcc Fe in every system
// without H, with BCC_A2's Gibbs energy and magnetic parameters for FE:VA; in C-Fe, BCC_A2 next to BCC_DISL holds
// 9e-12 of C at 620 K and lies 5e-8 J/mol lower, far below the solver's tolerance, so the solver names the state
// either way and a map traced with both draws a change of field where there is none (an invariant at 672.28 K
// between BCC_DISL + BCC_A2 and BCC_DISL + H_BCC, and a transition of pure Fe).
import { PhaseModel } from '../core/models.js';
import type { NativeDatabase } from '../core/native.js';

/** Endmembers of a phase tried at most (the product of its sublattices' constituent counts). */
const MAX_ENDMEMBERS = 4096;
/** Two Gibbs energies this close (relative, at least 1e-9 J/mol) are one. */
const SAME_G = 1e-9;

interface Endmember {
  y: Float64Array;
  /** mole fractions of the model's elements */
  x: number[];
}

/** Every endmember of a model with atoms (one constituent per sublattice), up to MAX_ENDMEMBERS of them. */
function endmembers(m: PhaseModel): Endmember[] {
  const bySublattice: number[][] = Array.from({ length: m.info.numSublattices }, () => []);
  m.variables.forEach((v, k) => bySublattice[v.sublattice].push(k));
  if (bySublattice.some((s) => !s.length)) return [];
  if (bySublattice.reduce((n, s) => n * s.length, 1) > MAX_ENDMEMBERS) return [];
  let picks: number[][] = [[]];
  for (const s of bySublattice) picks = picks.flatMap((p) => s.map((k) => [...p, k]));
  const out: Endmember[] = [];
  for (const p of picks) {
    const y = new Float64Array(m.variables.length);
    for (const k of p) y[k] = 1;
    const mo = m.moles(y, 0);
    if (!(mo.Nf > 1e-12)) continue;
    out.push({ y, x: Array.from(mo.M, (v) => v / mo.Nf) });
  }
  return out;
}

/**
 * The phases of `phases` that duplicate an endmember of another phase of the list at each of `temperatures` (see the
 * header), mapped to that phase. Of two single-state phases that duplicate each other the one listed first stays.
 */
export function duplicatePhases(
  db: NativeDatabase,
  components: string[],
  phases: readonly string[],
  temperatures: readonly number[],
  P = 101325,
): Map<string, string> {
  const models = new Map<string, PhaseModel>();
  for (const name of phases) {
    const m = PhaseModel.build(db, name, components);
    if (m && !m.info.charged && !m.info.ionicLiquid) models.set(name, m);
  }
  const ends = new Map([...models].map(([name, m]) => [name, endmembers(m)] as const));
  const twins = new Map<string, string>();
  for (const [name, m] of models) {
    const own = ends.get(name)!;
    if (own.length !== 1 || m.variables.length !== m.info.numSublattices) continue;
    const [single] = own;
    const gm = (model: PhaseModel, y: Float64Array, T: number) => model.evaluate(T, P, y, 0).GM;
    for (const [other, q] of models) {
      if (other === name || twins.has(other)) continue;
      const theirs = ends.get(other)!;
      if (theirs.length === 1 && phases.indexOf(other) > phases.indexOf(name)) continue;
      const match = theirs.find(
        (e) =>
          e.x.every((v, k) => Math.abs(v - single.x[k]) < 1e-12) &&
          temperatures.every((T) => {
            const a = gm(m, single.y, T),
              b = gm(q, e.y, T);
            return Math.abs(a - b) <= SAME_G * Math.max(1, Math.abs(a));
          }),
      );
      if (match) {
        twins.set(name, other);
        break;
      }
    }
  }
  return twins;
}

/** The duplicates of `phases` anywhere in [T0, T1]: duplicatePhases at nine temperatures spread over it, ends included. */
export function duplicatesOver(
  db: NativeDatabase,
  components: string[],
  phases: readonly string[],
  [T0, T1]: readonly [number, number],
  P = 101325,
): Map<string, string> {
  const temperatures = Array.from({ length: 9 }, (_, i) => T0 + ((T1 - T0) * i) / 8);
  return duplicatePhases(db, components, phases, temperatures, P);
}

/** `phases` without their duplicates anywhere in [T0, T1] (duplicatesOver). */
export function withoutDuplicates(
  db: NativeDatabase,
  components: string[],
  phases: readonly string[],
  T: readonly [number, number],
  P = 101325,
): string[] {
  const twins = duplicatesOver(db, components, phases, T, P);
  return phases.filter((p) => !twins.has(p));
}
