// Kind "map": phase-diagram topology of a binary (two-phase regions and invariants that must exist)
// plus single-point checks, from the mapped diagram (worker/mapping/binary.ts) and point equilibria.
// Also exports the diagram cache and helpers the kinds "boundary", "invariant" and "literature" use.
import { equilibrium } from '../../core/equilibrium.js';
import type { NativeDatabase } from '../../core/native.js';
import { baseName, mapBinary, type BinaryDiagram } from '../../mapping/binary.js';
import { phaseNames } from '../../mapping/queries.js';
import { caseDatabase } from '../databases.js';
import type { ComputedValue, KindHandler, ValidationCase } from '../types.js';

/** The case's elements (VA and electrons dropped), upper case. */
export function caseElements(c: ValidationCase): string[] {
  return c.components.map((s) => s.toUpperCase()).filter((s) => s !== 'VA' && s !== '/-');
}

/** Solver components of a case: its elements plus VA when the database has it. */
export function solverComponents(c: ValidationCase, db: NativeDatabase): string[] {
  const els = caseElements(c);
  return db.info().elements.some((e) => e.name.toUpperCase() === 'VA') ? [...els, 'VA'] : els;
}

/** Range {min, max} of a grid condition, or null. */
function rangeOf(v: unknown): [number, number] | null {
  if (v && typeof v === 'object' && !Array.isArray(v) && 'min' in v && 'max' in v) {
    const o = v as { min: number; max: number };
    return [o.min, o.max];
  }
  return null;
}

const diagrams = new Map<string, BinaryDiagram>();

/**
 * The diagram of a binary case (cached per database, phases and ranges for the run). The x component
 * is the one a composition condition names (else the second element); T range from the case's T grid
 * or `defaultT`.
 */
export function caseDiagram(c: ValidationCase, ctx: Parameters<KindHandler>[1], defaultT: [number, number] = [250, 2200]): BinaryDiagram {
  const els = caseElements(c);
  if (els.length !== 2) throw new Error(`case ${c.id}: a phase diagram needs exactly 2 elements, got ${els.join(', ')}`);
  const db = caseDatabase(c, ctx);
  let xc = els[1];
  let X: [number, number] = [0, 1];
  for (const [k, v] of Object.entries(c.conditions)) {
    const m = /^X\(([A-Z0-9]+)\)$/i.exec(k);
    if (m && els.includes(m[1].toUpperCase())) {
      xc = m[1].toUpperCase();
      X = rangeOf(v) ?? [0, 1];
    }
  }
  const T = rangeOf(c.conditions.T) ?? defaultT;
  const P = typeof c.conditions.P === 'number' ? c.conditions.P : 101325;
  const key = JSON.stringify([c.tdb, c.parameter_overrides ?? {}, els, xc, c.phases, T, X, P]);
  let d = diagrams.get(key);
  if (!d) {
    d = mapBinary({ database: db, components: [els[0], els[1]], xComponent: xc, phases: c.phases, T, X, P, threads: 1 });
    diagrams.set(key, d);
  }
  return d;
}

/** Parses "Q at K=V, K2=V2" into the quantity and conditions; null when there is no " at ". */
export function atConditions(q: string): { quantity: string; at: Record<string, number> } | null {
  const m = /^(.+?) at (([A-Z0-9()]+\s*=\s*[-+0-9.eE]+\s*,?\s*)+)$/i.exec(q.trim());
  if (!m) return null;
  const at: Record<string, number> = {};
  for (const part of m[2].split(',')) {
    const [k, v] = part.split('=').map((s) => s.trim());
    if (k) at[k.toUpperCase()] = Number(v);
  }
  return { quantity: m[1].trim(), at };
}

/** Point equilibrium of a case at "T=..., X(EL)=..." conditions. */
export function pointAt(c: ValidationCase, db: NativeDatabase, at: Record<string, number>) {
  const X: Record<string, number> = {};
  let T = NaN;
  for (const [k, v] of Object.entries(at)) {
    if (k === 'T') T = v;
    const m = /^X\(([A-Z0-9]+)\)$/.exec(k);
    if (m) X[m[1]] = v;
  }
  if (!Number.isFinite(T)) throw new Error('no T in the point conditions');
  const P = typeof c.conditions.P === 'number' ? c.conditions.P : 101325;
  const r = equilibrium({ database: db, components: solverComponents(c, db), phases: c.phases, conditions: { T, P, X } });
  if (!r.converged) throw new Error(`equilibrium at ${JSON.stringify(at)} did not converge: ${r.reason}`);
  return r;
}

/** Phase sets (base names, sorted) of the diagram's two-phase regions and invariants. */
export function regionSets(d: BinaryDiagram): string[][] {
  return d.regions.map((r) => r.phases.map(baseName).sort());
}
export function invariantSets(d: BinaryDiagram): string[][] {
  return d.invariants.map((v) => v.phases.map((p) => baseName(p.name)).sort());
}

export const map: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  const out: ComputedValue[] = [];
  for (const e of c.expected) {
    const q = e.quantity.trim();
    if (q === 'two_phase_regions_include') { out.push({ value: regionSets(caseDiagram(c, ctx)) }); continue; }
    if (q === 'invariants_include' || q === 'three_phase_regions_include') { out.push({ value: invariantSets(caseDiagram(c, ctx)) }); continue; }
    const at = atConditions(q);
    if (at && at.quantity === 'number_of_stable_phases') { out.push({ value: phaseNames(pointAt(c, db, at.at)).length }); continue; }
    if (at && at.quantity === 'stable_phases') { out.push({ value: phaseNames(pointAt(c, db, at.at)) }); continue; }
    out.push({ value: null, unsupported: `quantity ${q}` });
  }
  return out;
};
