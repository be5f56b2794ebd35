// One disordered phase, one name. Several ordered phases of a database can share a disordered part (MF Steel:
// BCC_B2 and BCC_4SL both name BCC_A2 as DIS_PART, FCC_L10 and FCC_L12 both FCC_A1). In its disordered state each
// of them is that same phase with the same Gibbs energy: the ordering contribution of the partitioned model
// vanishes when the equivalent sublattices hold equal site fractions (Dupin, Ansara, Sundman, Calphad 25 (2001) 279).
// The solver reports the disordered state under whichever of them it met first, so a line named one disordered bcc
// BCC_B2 at one point and BCC_4SL at the next and reported transitions between them. Here a set is ordered only when
// its site fractions differ between equivalent sublattices beyond the tolerance of the results (ordering.ts); a
// disordered set takes the name of the first phase of its family that can hold it (fewest ordering sublattices,
// then the name). Two sets of one phase at one composition are one set: in a system of fixed T, P and amounts, the
// state of least Gibbs energy at that composition (the other is a saddle the solver stopped at, such as the
// disordered stationary point of MF Steel's FCC_L12 next to its slightly ordered minimum in dilute Fe-Si).
import type { NativeDatabase, NativePhaseInfo } from '../core/native.js';
import type { CompositionSet, EquilibriumResult } from '../core/equilibrium.js';
import { PhaseModel } from '../core/models.js';
import { orderingModelOf } from './ordering.js';
import { PointConverter } from './point-converter.js';
import { elementsOf } from '../../contract/phases.js';

/** Sets of one phase whose mole fractions differ by less than this (sum of |dx|) are one set. */
export const SAME_SET_DISTANCE = 1e-6;
/** A site fraction the other phase of a family has no variable for counts as absent below this. */
const ABSENT = 1e-10;

function xDistance(a: Record<string, number>, b: Record<string, number>): number {
  let d = 0;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) d += Math.abs((a[k] ?? 0) - (b[k] ?? 0));
  return d;
}

export class DisorderedSetNames {
  /** ordered phase -> the listed ordered phases sharing its disordered part, in naming order (families of 2+) */
  private readonly families = new Map<string, string[]>();
  private readonly phases = new Map<string, NativePhaseInfo>();
  private readonly models = new Map<string, PhaseModel | null>();
  private readonly conv: PointConverter;

  /** `phases`: the phases the solver was given (undefined: every phase the components allow). */
  constructor(
    private readonly db: NativeDatabase,
    private readonly components: string[],
    phases: readonly string[] | undefined,
  ) {
    this.conv = new PointConverter(db, components);
    const listed = new Set((phases ?? db.phasesFor(elementsOf(components))).map((p) => p.toUpperCase()));
    const byPart = new Map<string, { name: string; order: number }[]>();
    for (const ph of db.info().phases) {
      this.phases.set(ph.name, ph);
      const ordering = orderingModelOf(ph);
      if (!listed.has(ph.name.toUpperCase()) || !ph.disorderedPart || !ordering) continue;
      const key = ph.disorderedPart.toUpperCase();
      byPart.set(key, [...(byPart.get(key) ?? []), { name: ph.name, order: ordering.sublattices.length }]);
    }
    for (const members of byPart.values()) {
      if (members.length < 2) continue;
      const names = members.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name)).map((m) => m.name);
      for (const n of names) this.families.set(n, names);
    }
  }

  /** Names the disordered sets of `r` by their family and merges sets that are one (in place); returns r. */
  apply(r: EquilibriumResult): EquilibriumResult {
    if (this.families.size) for (const p of r.phases) this.rename(p);
    const names = r.phases.map((p) => p.name);
    if (new Set(names).size < names.length) r.phases = merged(r.phases);
    return r;
  }

  private rename(p: CompositionSet): boolean {
    const family = this.families.get(p.name);
    if (!family || this.conv.ordering(p)?.ordered !== false) return false;
    for (const name of family) {
      if (name === p.name) return false;
      const y = this.convert(p, name);
      if (y) {
        p.name = name;
        p.y = y;
        return true;
      }
    }
    return false;
  }

  private model(name: string): PhaseModel | null {
    let m = this.models.get(name);
    if (m === undefined) {
      m = PhaseModel.build(this.db, name, this.components);
      this.models.set(name, m);
    }
    return m;
  }

  /**
   * The site fractions of a disordered set of one phase of a family as a set of `target`: the sublattices that
   * merge into the disordered part's first one (TDB DIS_PART layout, worker/core: the first n_ordered - n_disordered
   * + 1) take their site-ratio-weighted mean, the others (interstitial) follow in order. Null when the target has no
   * place for a constituent the set holds.
   */
  private convert(p: CompositionSet, target: string): Float64Array | null {
    const from = this.phases.get(p.name)!,
      to = this.phases.get(target)!;
    const part = this.phases.get(from.disorderedPart.toUpperCase());
    const model = this.model(target);
    if (!part || !model) return null;
    const nPart = part.siteRatios.length;
    const src = this.conv.siteFractions(p);
    const mergedFrom = from.siteRatios.length - nPart + 1,
      mergedTo = to.siteRatios.length - nPart + 1;
    if (mergedFrom < 2 || mergedTo < 2 || src.length !== from.siteRatios.length) return null;
    const first: Record<string, number> = {};
    let sites = 0;
    for (let s = 0; s < mergedFrom; s++) {
      sites += from.siteRatios[s]!;
      for (const [sp, y] of Object.entries(src[s]!)) first[sp] = (first[sp] ?? 0) + from.siteRatios[s]! * y;
    }
    for (const sp of Object.keys(first)) first[sp]! /= sites;
    const parts = [first, ...src.slice(mergedFrom)];
    const spec = to.siteRatios.map((_, s) => ({ ...parts[s < mergedTo ? 0 : s - mergedTo + 1] }));
    // a constituent the target cannot take on that sublattice: held only if (numerically) absent
    for (const [s, fr] of spec.entries())
      for (const [sp, y] of Object.entries(fr))
        if (!model.variables.some((v) => v.sublattice === s && v.species === sp)) {
          if (y > ABSENT) return null;
          delete fr[sp];
        }
    try {
      return model.siteFractions(spec);
    } catch {
      return null;
    }
  }
}

/**
 * Sets of one phase at one composition merged into the one of least Gibbs energy (amounts added), the sets of each
 * phase numbered again from 1 in their order; sets already distinct are returned unchanged.
 */
export function merged(sets: CompositionSet[]): CompositionSet[] {
  const out: CompositionSet[] = [];
  for (const p of sets) {
    const same = out.find((q) => q.name === p.name && xDistance(q.x, p.x) < SAME_SET_DISTANCE);
    if (!same) out.push(p);
    else if (p.GM < same.GM) out.splice(out.indexOf(same), 1, { ...p, NP: p.NP + same.NP });
    else same.NP += p.NP;
  }
  if (out.length === sets.length) return sets;
  const count = new Map<string, number>();
  for (const p of out) {
    const n = (count.get(p.name) ?? 0) + 1;
    count.set(p.name, n);
    p.setNumber = n;
  }
  return out;
}
