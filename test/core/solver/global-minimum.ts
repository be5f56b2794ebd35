// An independent check of the global minimum: at a converged equilibrium no state of any phase lies below the
// tangent hyperplane sum_A mu_A x_A (a state below it has a positive driving force, so the answer is not the
// minimum of the Gibbs energy). The solver certifies its answers against its own sampling grid and basin
// relaxations; here each phase is sampled again, with nothing shared with the solver but the model's energy:
// site fractions from a mixture of Dirichlet distributions per sublattice (concentration 1, 0.3 and 0.08, the
// last two crowding the faces and corners where ordered and dilute states lie). Charged phases are left out:
// random site fractions are not electroneutral (their states are then only missed, never wrong). The domain of
// a phase is the solver's documented one: a DIS_PART phase contained in its listed ordered phase is no phase of
// its own (docs/engine.md, order-disorder), and a phase that can be emptied of atoms (VA on every sublattice)
// keeps at least half the atoms of its emptiest end member (near the pure-vacancy configuration G_M = G_f/N_f
// falls without bound when G(VA:...:VA) = 0: an artefact of the model, not a state).
import { PhaseModel } from '../../../worker/core/models.js';
import { equilibrium } from '../../../worker/core/equilibrium.js';
import type { NativeDatabase } from '../../../worker/core/native.js';

export interface GlobalCheckOptions {
  db: NativeDatabase;
  /** elements of the system (VA is added where the database has it) */
  elements: string[];
  /** temperatures; at each, the phases are sampled once */
  temperatures: number[];
  /** overall compositions: mole fractions of all elements but the first */
  compositions: Record<string, number>[];
  /** sampled states per phase */
  samples: number;
  seed: number;
  /** J/mol of atoms: a sampled state further below the tangent than this is a violation */
  tolerance: number;
}

export interface GlobalCheckResult {
  /** converged equilibria compared */
  checked: number;
  violations: string[];
}

interface Sampled {
  phase: string;
  G: Float64Array;
  X: Float64Array[];
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) + 0.5) / 4294967296;
}

/** Gamma(a, 1) variates (Marsaglia and Tsang, ACM Trans. Math. Softw. 26 (2000) 363; a < 1 by boosting). */
function gamma(a: number, rand: () => number): number {
  if (a < 1) return gamma(a + 1, rand) * Math.pow(rand(), 1 / a);
  const d = a - 1 / 3,
    c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number, v: number;
    do {
      x = Math.sqrt(-2 * Math.log(rand())) * Math.cos(2 * Math.PI * rand());
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    if (Math.log(rand()) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

type PhaseDef = ReturnType<NativeDatabase['info']>['phases'][number];

/** The fewest atoms per formula unit a state may hold: half those of the emptiest end member with atoms when
 *  every sublattice can be vacant, else none. */
function atomFloor(def: PhaseDef, atomsOf: (species: string) => number): number {
  const subs = def.constituents.map((c) => c.map((sp) => sp.toUpperCase()));
  if (!subs.every((c) => c.includes('VA'))) return 1e-6;
  let emptiest = Infinity;
  subs.forEach((c, k) =>
    c
      .filter((sp) => sp !== 'VA')
      .forEach((sp) => {
        emptiest = Math.min(emptiest, def.siteRatios[k] * atomsOf(sp));
      }),
  );
  return Number.isFinite(emptiest) ? 0.5 * emptiest : 1e-6;
}

/** A DIS_PART phase whose ordered phase is listed and has each of its constituents on the corresponding
 *  sublattices (the substitutional ones first, then the interstitial ones in order). */
function containedInOrderedPhase(
  def: PhaseDef,
  defs: Map<string, PhaseDef>,
  listed: Set<string>,
  active: (sp: string) => boolean,
): boolean {
  const parent = [...defs.values()].find(
    (p) => p.disorderedPart?.toUpperCase() === def.name.toUpperCase() && listed.has(p.name),
  );
  if (!parent) return false;
  const nd = def.constituents.length,
    no = parent.constituents.length,
    nsub = no - nd + 1;
  return def.constituents.every((c, k) =>
    c
      .filter(active)
      .every((sp) =>
        k === 0
          ? parent.constituents.slice(0, nsub).every((o) => o.includes(sp))
          : parent.constituents[nsub + k - 1]?.includes(sp),
      ),
  );
}

function samplePhase(
  m: PhaseModel,
  T: number,
  n: number,
  elements: string[],
  floor: number,
  rand: () => number,
): Sampled | null {
  const vars = m.variables,
    k = vars.length;
  if (!k) return null;
  const bySublattice = Array.from({ length: m.info.numSublattices }, (_, s) =>
    vars.flatMap((v, j) => (v.sublattice === s ? [j] : [])),
  );
  const Y = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    const alpha = [1, 0.3, 0.08][i % 3];
    for (const idx of bySublattice) {
      const w = idx.map(() => gamma(alpha, rand) + 1e-300);
      const sum = w.reduce((a, b) => a + b, 0);
      idx.forEach((j, q) => {
        Y[i * k + j] = Math.max(1e-14, w[q] / sum);
      });
    }
  }
  const G = m.energies(T, 101325, Y);
  const X: Float64Array[] = [];
  const keep: number[] = [];
  const col = elements.map((e) => m.info.elements.indexOf(e));
  for (let i = 0; i < n; i++) {
    const mo = m.moles(Y.subarray(i * k, (i + 1) * k), 0);
    if (!(mo.Nf >= floor) || !Number.isFinite(G[i])) continue;
    keep.push(i);
    X.push(Float64Array.from(col, (c) => (c >= 0 ? mo.M[c] / mo.Nf : 0)));
  }
  return { phase: m.name, G: Float64Array.from(keep, (i) => G[i]), X };
}

export function checkGlobalMinima(o: GlobalCheckOptions): GlobalCheckResult {
  const rand = rng(o.seed);
  const hasVA = o.db.info().elements.some((e) => e.name.toUpperCase() === 'VA');
  const components = hasVA ? [...o.elements, 'VA'] : o.elements;
  const phases = o.db.phasesFor(o.elements);
  const info = o.db.info();
  const defs = new Map(info.phases.map((p) => [p.name, p]));
  const chosen = new Set([...o.elements, 'VA']);
  const speciesElements = new Map(info.species.map((sp) => [sp.name.toUpperCase(), sp.composition]));
  const active = (sp: string) =>
    Object.keys(speciesElements.get(sp.toUpperCase()) ?? { [sp]: 1 }).every((e) => chosen.has(e.toUpperCase()));
  const atomsOf = (sp: string) =>
    Object.values(speciesElements.get(sp.toUpperCase()) ?? { [sp]: 1 }).reduce((a, b) => a + b, 0);
  const listed = new Set(phases);
  const candidates = phases.filter((p) => !containedInOrderedPhase(defs.get(p)!, defs, listed, active));
  const models = candidates
    .map((p) => [PhaseModel.build(o.db, p, components), atomFloor(defs.get(p)!, atomsOf)] as const)
    .filter((e): e is readonly [PhaseModel, number] => e[0] !== null && !e[0].info.charged);
  const violations: string[] = [];
  let checked = 0;
  for (const T of o.temperatures) {
    const sampled = models
      .map(([m, floor]) => samplePhase(m, T, o.samples, o.elements, floor, rand))
      .filter((s): s is Sampled => s !== null);
    for (const X of o.compositions) {
      const r = equilibrium({ database: o.db, components, phases, conditions: { T, P: 101325, X } });
      if (!r.converged) continue;
      checked++;
      const mu = o.elements.map((e) => r.mu[e]);
      let worst = 0,
        where = '';
      for (const s of sampled)
        for (let i = 0; i < s.G.length; i++) {
          let tangent = 0;
          for (let A = 0; A < mu.length; A++) tangent += mu[A] * s.X[i][A];
          const below = tangent - s.G[i];
          if (below > worst) {
            worst = below;
            where = `${s.phase} at x=(${Array.from(s.X[i], (v) => v.toFixed(4)).join(', ')})`;
          }
        }
      if (worst > o.tolerance)
        violations.push(
          `T=${T.toFixed(2)} X=${JSON.stringify(X)}: ${r.phases.map((p) => p.name).join('+')} (G=${r.GM.toFixed(3)}); ` +
            `${where} lies ${worst.toFixed(3)} J/mol below its tangent`,
        );
    }
  }
  return { checked, violations };
}
