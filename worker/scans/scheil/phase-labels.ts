// The names of the solids along a Scheil path: an ordered phase in its disordered state is named by its
// disordered part, and the composition sets of one phase keep their labels from step to step.
import type { PhaseState } from '../../core/equilibrium.js';
import { PhaseModel } from '../../core/models.js';
import type { NativeDatabase } from '../../core/native.js';

/**
 * Names phases as a user reads them: an ordered phase (TDB DIS_PART pairing, formula sheet §5.1-§5.2)
 * whose substitutional sublattices hold equal site fractions is in its disordered state and is named by
 * its disordered part (pycalphad/scheil's order_disorder_eq_phases does the same, so ORD_BETA without
 * ordering is reported as BETA).
 */
export class PhaseNamer {
  private readonly info: Map<string, { dis: string; subs: number[] } | null> = new Map();
  private readonly models = new Map<string, PhaseModel | null>();
  constructor(
    private readonly db: NativeDatabase,
    private readonly components: string[],
    private readonly tol = 1e-4,
  ) {}

  private ordered(name: string): { dis: string; subs: number[] } | null {
    let v = this.info.get(name);
    if (v !== undefined) return v;
    v = null;
    const phases = this.db.info().phases;
    const ph = phases.find((p) => p.name === name);
    const dis = ph?.disorderedPart ? phases.find((p) => p.name === ph.disorderedPart) : undefined;
    if (ph && dis) {
      // substitutional sublattices: declared constituents equal to those of the DIS phase's first sublattice (§5.2)
      const d0 = [...(dis.constituents[0] ?? [])]
        .map((s) => s.toUpperCase())
        .sort()
        .join(',');
      const subs = ph.constituents
        .map((c, s) =>
          [...c]
            .map((x) => x.toUpperCase())
            .sort()
            .join(',') === d0
            ? s
            : -1,
        )
        .filter((s) => s >= 0);
      if (subs.length > 1) v = { dis: dis.name, subs };
    }
    this.info.set(name, v);
    return v;
  }

  name(p: PhaseState): string {
    const o = this.ordered(p.name);
    if (!o) return p.name;
    let model = this.models.get(p.name);
    if (model === undefined) {
      model = PhaseModel.build(this.db, p.name, this.components);
      this.models.set(p.name, model);
    }
    if (!model) return p.name;
    const bySub = new Map<number, Map<string, number>>();
    model.variables.forEach((v, k) => {
      if (!o.subs.includes(v.sublattice)) return;
      let m = bySub.get(v.sublattice);
      if (!m) bySub.set(v.sublattice, (m = new Map()));
      m.set(v.species, p.y[k] ?? 0);
    });
    const first = bySub.get(o.subs[0]);
    if (!first) return p.name;
    for (const s of o.subs.slice(1)) {
      const m = bySub.get(s);
      if (!m) return p.name;
      for (const [sp, y] of first) if (Math.abs((m.get(sp) ?? 0) - y) > this.tol) return p.name;
    }
    return o.dis;
  }
}

/**
 * Stable labels for the composition sets of one phase along a path: the first set of a phase that forms
 * is NAME, a set of distinctly different composition met later is NAME#2, and so on. The solver numbers
 * the sets of each equilibrium afresh, so in Ag-Cu the primary Ag-rich FCC could be set 1 in one step
 * and set 2 in the next; matching each set to the nearest known composition (largest mole-fraction
 * difference, minimised over the assignments) keeps "FCC_A1" the same solid from the liquidus to the
 * eutectic. Known compositions follow the sets as they drift.
 */
export class SetLabeler {
  private readonly known = new Map<string, Record<string, number>[]>();
  constructor(private readonly elements: string[]) {}

  private dist(a: Record<string, number>, b: Record<string, number>): number {
    let d = 0;
    for (const e of this.elements) d = Math.max(d, Math.abs((a[e] ?? 0) - (b[e] ?? 0)));
    return d;
  }

  /** Labels of `sets` (all of one displayed phase name in one equilibrium), in their order. */
  assign(base: string, sets: ReadonlyArray<{ x: Record<string, number> }>): string[] {
    const known = this.known.get(base) ?? [];
    this.known.set(base, known);
    const n = sets.length;
    // every injective map of the sets onto the known variants (or "new"): n and the variants are small
    let best: number[] | null = null,
      bestCost = Infinity;
    const cur: number[] = [];
    const used = new Set<number>();
    const search = (i: number, cost: number): void => {
      if (cost >= bestCost) return;
      if (i === n) {
        best = [...cur];
        bestCost = cost;
        return;
      }
      for (let k = 0; k < known.length; k++) {
        if (used.has(k)) continue;
        used.add(k);
        cur.push(k);
        search(i + 1, cost + this.dist(sets[i].x, known[k]));
        used.delete(k);
        cur.pop();
      }
      // a new variant costs more than any match within 0.25 in mole fraction
      cur.push(-1);
      search(i + 1, cost + (known.length - used.size > 0 ? 0.25 : 0));
      cur.pop();
    };
    if (n <= 4 && known.length <= 6) search(0, 0);
    // (more sets or variants than the exhaustive search takes: in the solver's order)
    const map: number[] = best ?? sets.map((_, i) => (i < known.length ? i : -1));
    return map.map((k, i) => {
      let idx = k;
      if (idx < 0) {
        known.push({ ...sets[i].x });
        idx = known.length - 1;
      } else known[idx] = { ...sets[i].x };
      return idx === 0 ? base : `${base}#${idx + 1}`;
    });
  }
}
