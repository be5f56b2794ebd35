// Display labels of the phase sets of a mapped field (core/skeleton.ts, stage 6; ternary sections and isopleths): a
// set of a phase with an order-disorder description is named by its state, as point results name it
// (worker/system/ordering.ts: "L12 (L12_FCC)", "A1 (L12_FCC)", "B2 (BCC_B2)"), so gamma + gamma' reads as two states
// of one model rather than NAME + NAME#2; other phases keep their set labels (NAME, NAME#2 for a second set of a
// miscibility gap). Two sets in the same state are numbered as sets are: "B2 (B2)", "B2 (B2)#2".
import { PointConverter } from '../../system/point-converter.js';
import type { EquilibriumResult, PhaseState } from '../../core/equilibrium.js';
import type { NativeDatabase } from '../../core/native.js';

export class StateLabeller {
  private readonly converter: PointConverter;
  constructor(db: NativeDatabase, components: string[]) {
    this.converter = new PointConverter(db, components);
  }

  /** The state label of one set of a solver result. */
  stateOf(p: PhaseState): string {
    return this.converter.ordering(p)?.label ?? p.name;
  }

  /**
   * Labels of the given sets of result r, in the order given: `sets` are the sets' set labels (NAME or NAME#k) with
   * their compositions; each is matched to r's stable set of that name nearest in composition.
   */
  labels(r: EquilibriumResult, sets: { label: string; x: Record<string, number> }[]): string[] {
    const used = new Set<PhaseState>();
    const raw = sets.map((s) => {
      const name = s.label.replace(/#\d+$/, '');
      const cands = r.phases.filter((p) => p.name === name && p.NP > 1e-12 && !used.has(p));
      if (!cands.length) return s.label;
      const dist = (p: PhaseState) => Object.keys(s.x).reduce((a, k) => a + Math.abs((p.x[k] ?? 0) - (s.x[k] ?? 0)), 0);
      const best = cands.reduce((b, p) => (dist(p) < dist(b) ? p : b));
      used.add(best);
      const state = this.stateOf(best);
      // a phase without an ordering description keeps its set label (NAME#2 of a miscibility gap)
      return state === best.name ? s.label : state;
    });
    return numberRepeats(raw);
  }
}

/**
 * Display labels of every stable set of r, in the order of the set labels NAME, NAME#2, ... sorted (the isopleth's
 * phaseLabels): the ordering state where the phase has one, else the set label.
 */
export function resultStateLabels(labeller: StateLabeller, r: EquilibriumResult): string[] {
  const count = new Map<string, number>();
  const sets = r.phases.map((p) => {
    const k = (count.get(p.name) ?? 0) + 1;
    count.set(p.name, k);
    const label = k === 1 ? p.name : `${p.name}#${k}`;
    const state = labeller.stateOf(p);
    return { label, display: state === p.name ? label : state };
  });
  sets.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return numberRepeats(sets.map((s) => s.display));
}

/** The second and later occurrences of one label get #2, #3, ... (set labels that already carry #k are left as they are). */
export function numberRepeats(labels: string[]): string[] {
  const count = new Map<string, number>();
  return labels.map((l) => {
    const n = (count.get(l) ?? 0) + 1;
    count.set(l, n);
    return n > 1 && !/#\d+$/.test(l) ? `${l}#${n}` : l;
  });
}
