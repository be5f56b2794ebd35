// Composition-set names of a binary diagram made consistent across its regions, invariants and single-phase
// labels, before the result and its preview are written (both then name a set alike).
//
// The mapping names the sets of one phase per equilibrium (NAME for the first set the solver reports, NAME#2 for
// the second), so a region that meets only one set of a phase calls it NAME even when, at the invariant it ends
// on, that same solid is NAME#2 (Ag-Cu: the Cu-rich FCC of LIQUID + FCC was "FCC_A1" in the region and
// "FCC_A1#2" in the eutectic). The rules:
//   1. where two or more sets of a phase coexist (an invariant, a region of two sets), the set of lower x is
//      NAME, the next NAME#2, and so on;
//   2. a region's set takes the name of the set it meets at an invariant holding two or more sets of the phase
//      (same temperature to 0.05 K, nearest composition);
//   3. a single-phase label takes the name of the nearest boundary of that phase.
// Phases that never show two sets are left as they are.
import { baseName } from '../../contract/phases.js';

export interface NamedTieLine {
  T: number;
  x: [number, number];
}
export interface NamedRegion {
  phases: [string, string];
  tielines: NamedTieLine[];
}
export interface NamedInvariant {
  T: number;
  phases: { name: string; x: number }[];
  reaction?: string;
}
export interface NamedLabel {
  label: string;
  T: number;
  x: number;
}

export interface SetNamedDiagram {
  regions: NamedRegion[];
  invariants: NamedInvariant[];
  singlePhaseLabels: NamedLabel[];
}

function setLabel(base: string, k: number): string {
  return k === 0 ? base : `${base}#${k + 1}`;
}

/** Returns the diagram with consistent set names (regions, invariants and labels are new objects; the rest is kept). */
export function harmonizeSetNames<D extends SetNamedDiagram>(d: D): D {
  const multi = new Set<string>();
  for (const r of d.regions) for (const p of r.phases) if (p !== baseName(p)) multi.add(baseName(p));
  for (const v of d.invariants) for (const p of v.phases) if (p.name !== baseName(p.name)) multi.add(baseName(p.name));
  if (!multi.size) return d;

  // 1. invariants: sets of one phase named in order of composition
  const invariants = d.invariants.map((v) => {
    const phases = v.phases.map((p) => ({ ...p }));
    for (const base of multi) {
      const sets = phases.filter((p) => baseName(p.name) === base).sort((a, b) => a.x - b.x);
      if (sets.length > 1)
        sets.forEach((p, k) => {
          p.name = setLabel(base, k);
        });
    }
    // the reaction text names the same sets: old name -> new name, matched by position in `phases`
    const rename = new Map(v.phases.map((p, i) => [p.name, phases[i]!.name]));
    const reaction =
      typeof v.reaction === 'string'
        ? v.reaction.replace(/[A-Za-z0-9_]+(?:#\d+)?/g, (tok) => rename.get(tok) ?? tok)
        : v.reaction;
    return { ...v, phases, ...(reaction !== undefined ? { reaction } : {}) };
  });
  const T0 = Math.min(...d.regions.flatMap((r) => r.tielines.map((t) => t.T)), Infinity);
  const T1 = Math.max(...d.regions.flatMap((r) => r.tielines.map((t) => t.T)), -Infinity);
  const tScale = Number.isFinite(T1 - T0) && T1 > T0 ? T1 - T0 : 1;

  const regions = d.regions.map((r) => {
    const phases: [string, string] = [r.phases[0], r.phases[1]];
    const b0 = baseName(phases[0]),
      b1 = baseName(phases[1]);
    if (b0 === b1 && multi.has(b0)) return { ...r, phases: [b0, setLabel(b0, 1)] as [string, string] };
    for (const k of [0, 1] as const) {
      const base = baseName(phases[k]);
      if (!multi.has(base) || !r.tielines.length) continue;
      const ends = [r.tielines[0]!, r.tielines[r.tielines.length - 1]!];
      let best: { name: string; dx: number } | null = null;
      for (const v of invariants) {
        const sets = v.phases.filter((p) => baseName(p.name) === base);
        if (sets.length < 2) continue;
        for (const e of ends) {
          if (Math.abs(e.T - v.T) > 0.05) continue;
          for (const p of sets) {
            const dx = Math.abs(p.x - e.x[k]);
            if (dx < 0.05 && (!best || dx < best.dx)) best = { name: p.name, dx };
          }
        }
      }
      if (best) phases[k] = best.name;
    }
    return { ...r, phases };
  });

  const singlePhaseLabels = d.singlePhaseLabels.map((l) => {
    const base = baseName(l.label);
    if (!multi.has(base)) return { ...l };
    let best: { name: string; dist: number } | null = null;
    for (const r of regions) {
      for (const k of [0, 1] as const) {
        if (baseName(r.phases[k]) !== base) continue;
        for (const t of r.tielines) {
          const dist = Math.hypot(t.x[k] - l.x, (t.T - l.T) / tScale);
          if (!best || dist < best.dist) best = { name: r.phases[k], dist };
        }
      }
    }
    return { ...l, label: best ? best.name : l.label };
  });
  return { ...d, regions, invariants, singlePhaseLabels };
}
