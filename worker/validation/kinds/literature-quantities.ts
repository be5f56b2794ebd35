// The diagram quantities of the literature kind (shared/validation/README.md): invariant temperatures and
// compositions, maximum solubility, congruent melting, miscibility-gap critical points, melting points of the pure
// elements and single-phase fields, each a pattern of the quantity's name and how its value is read from the
// mapped binary diagram (worker/mapping/binary.ts) or from point equilibria (worker/mapping/queries.ts).
import { baseName, isLiquidName } from '../../../contract/phases.js';
import type { InvariantRecord } from '../../../contract/results/binary_equilibrium.js';
import { equilibrium } from '../../core/equilibrium.js';
import type { NativeDatabase } from '../../core/native.js';
import type { BinaryDiagram } from '../../mapping/binary.js';
import { phaseNames, pureTransition } from '../../mapping/queries.js';
import { caseElements, solverComponents } from '../scope.js';
import type { ComputedValue, ValidationCase } from '../types.js';

/** What a diagram quantity is read from: the case, its database and elements, and its diagram (mapped once). */
export interface LiteratureScope {
  c: ValidationCase;
  db: NativeDatabase;
  els: string[];
  /** the case's binary diagram; throws Unsupported for a system of other than 2 elements */
  D: () => BinaryDiagram;
}

/** A diagram quantity: the pattern of its name and its value from the match. */
interface DiagramQuantity {
  pattern: RegExp;
  value: (m: RegExpExecArray, s: LiteratureScope) => ComputedValue;
}

/** The diagram quantity `q` names, or null when it names none of them. */
export function diagramQuantity(q: string, s: LiteratureScope): ComputedValue | null {
  for (const d of DIAGRAM_QUANTITIES) {
    const m = d.pattern.exec(q);
    if (m) return d.value(m, s);
  }
  return null;
}

const KINDS = 'eutectic|peritectic|monotectic|eutectoid|peritectoid|syntectic|monotectoid';

/** The patterns in the order they are tried: the first that matches decides. */
const DIAGRAM_QUANTITIES: DiagramQuantity[] = [
  // T_<kind> (A -> B + C): the mapped invariant of that kind with exactly those phases
  { pattern: new RegExp(`^T_(${KINDS})\\s*\\((.+)\\)$`, 'i'), value: invariantOfPhases },
  // T_<kind> without phases (e.g. "T_eutectic", "T_peritectic of the Cu-rich side"): the case's invariant of that kind
  { pattern: new RegExp(`^T_(${KINDS})\\b(?!\\s*\\()`, 'i'), value: invariantOfKind },
  // T_invariant (A + B + C): the mapped invariant of any kind with exactly those phases (the highest)
  { pattern: /^T_invariant\s*\((.+)\)$/i, value: anyInvariantOfPhases },
  // X(PHASE,EL) at <kind> / at T_invariant: composition of PHASE at the case's invariant
  {
    pattern: new RegExp(`^X\\(([A-Z0-9_]+),([A-Z0-9]+)\\) at (?:T_)?(${KINDS}|invariant)\\b`, 'i'),
    value: invariantComposition,
  },
  // max X(PHASE,EL): the largest fraction of EL in PHASE over its boundaries and invariants
  { pattern: /^max X\(([A-Z0-9_]+),([A-Z0-9]+)\)/i, value: maximumSolubility },
  // T_congruent_melting(PHASE): the congruent point of PHASE with the liquid
  { pattern: /^T_congruent_melting\(([A-Z0-9_]+)\)/i, value: congruentMelting },
  // T_critical of the <phase> miscibility gap / X(EL) at the critical point
  { pattern: /^T_critical of the ([A-Za-z0-9_]+) miscibility gap/, value: criticalTemperature },
  { pattern: /^X\(([A-Z0-9]+)\) at the critical point/i, value: criticalComposition },
  // T_melting (G(LIQUID) = G(SOLID) for pure EL): root of the Gibbs-energy difference of the pure element
  { pattern: /^T_melting \(G\(([A-Z0-9_]+)\) = G\(([A-Z0-9_]+)\) for pure ([A-Z0-9]+)\)/i, value: pureMelting },
  // stable_phases at each X(EL): the same phase set at every listed composition (else the first other set)
  { pattern: /^stable_phases at each X\(([A-Z0-9]+)\)/i, value: stablePhasesAtEach },
];

/** "FCC_A1#Zn-rich" -> "FCC_A1" (annotations after '#' name a composition set). */
const phaseOfName = (s: string) => s.trim().toUpperCase().replace(/#.*$/, '');

/** x of element `el` from a mole fraction of the diagram's x component. */
function xOf(d: BinaryDiagram, el: string, x: number): number {
  return el.toUpperCase() === d.xComponent ? x : 1 - x;
}

/**
 * Elements a case points at as the side of the diagram it means: "Al-rich" in the description,
 * "(Al)" / "(Cu)" (terminal solid solution of that element) in its quantities.
 */
function sideHints(c: ValidationCase, els: string[]): string[] {
  const text = [c.description, ...c.expected.map((e) => e.quantity)].join(' ');
  const out: string[] = [];
  for (const el of els) {
    const name = el.charAt(0) + el.slice(1).toLowerCase();
    if (new RegExp(`\\b${name}-rich\\b`).test(text) || text.includes(`(${name})`)) out.push(el);
  }
  return out;
}

/**
 * The invariant of `kind` that holds `phase` and most of the case's phases; when several remain, the one
 * on the side the case names (sideHints: middle phase richest in that element), else the highest T.
 */
function caseInvariant(d: BinaryDiagram, c: ValidationCase, kind: string, phase?: string): InvariantRecord | undefined {
  const wanted = new Set(c.phases.map((p) => p.toUpperCase()));
  const score = (v: InvariantRecord) => v.phases.filter((p) => wanted.has(baseName(p.name))).length;
  const hints = sideHints(c, caseElements(c));
  const hintX = (v: InvariantRecord) => (hints.length === 1 ? xOf(d, hints[0], v.phases[1].x) : 0);
  return d.invariants
    .filter(
      (v) => (kind === 'invariant' || v.kind === kind) && (!phase || v.phases.some((p) => baseName(p.name) === phase)),
    )
    .sort((a, b) => score(b) - score(a) || hintX(b) - hintX(a) || b.T - a.T)[0];
}

const invariantList = (d: BinaryDiagram) =>
  d.invariants.map((v) => `${v.kind} ${v.reaction} ${v.T.toFixed(2)} K`).join('; ');

const phaseKey = (v: InvariantRecord) =>
  v.phases
    .map((p) => baseName(p.name))
    .sort()
    .join('+');

function invariantOfPhases(m: RegExpExecArray, { c, D }: LiteratureScope): ComputedValue {
  const kind = m[1].toLowerCase();
  const names = m[2].split(/->|\+/).map(phaseOfName).sort();
  const same = (v: InvariantRecord) => phaseKey(v) === names.join('+');
  const hit =
    D().invariants.filter(same).length > 1
      ? caseInvariant({ ...D(), invariants: D().invariants.filter(same) }, c, kind)
      : (D().invariants.find((v) => v.kind === kind && same(v)) ?? D().invariants.find(same));
  if (!hit)
    return {
      value: null,
      error: `no ${kind} ${names.join('+')} in the mapped diagram (invariants: ${invariantList(D())})`,
    };
  return { value: hit.T };
}

function invariantOfKind(m: RegExpExecArray, { c, D }: LiteratureScope): ComputedValue {
  const v = caseInvariant(D(), c, m[1].toLowerCase());
  if (!v) return { value: null, error: `no ${m[1]} in the mapped diagram (invariants: ${invariantList(D())})` };
  return { value: v.T };
}

function anyInvariantOfPhases(m: RegExpExecArray, { D }: LiteratureScope): ComputedValue {
  const names = m[1]
    .split(/<->|->|\+|,/)
    .map(phaseOfName)
    .filter(Boolean)
    .sort();
  const hit = D()
    .invariants.filter((v) => phaseKey(v) === names.join('+'))
    .sort((a, b) => b.T - a.T)[0];
  if (!hit)
    return {
      value: null,
      error: `no invariant ${names.join('+')} in the mapped diagram (invariants: ${invariantList(D())})`,
    };
  return { value: hit.T };
}

function invariantComposition(m: RegExpExecArray, { c, D }: LiteratureScope): ComputedValue {
  const ph = m[1].toUpperCase();
  const v = caseInvariant(D(), c, m[3].toLowerCase(), ph);
  const p = v?.phases.find((s) => baseName(s.name) === ph);
  if (!v || !p) return { value: null, error: `no ${m[3]} with ${ph} in the mapped diagram` };
  return { value: xOf(D(), m[2], p.x) };
}

function maximumSolubility(m: RegExpExecArray, { els, D }: LiteratureScope): ComputedValue {
  const ph = m[1].toUpperCase();
  // "solubility of B in (A)": only the terminal solution of A (A-rich side) counts
  const host = /\bin \(([A-Z][a-z]?)\)/.exec(m.input)?.[1]?.toUpperCase();
  const onSide = (x: number) => !host || !els.includes(host) || xOf(D(), host, x) > 0.5;
  const xs: number[] = [];
  for (const r of D().regions)
    r.phases.forEach((lab, k) => {
      if (baseName(lab) === ph) for (const t of r.tielines) if (onSide(t.x[k])) xs.push(xOf(D(), m[2], t.x[k]));
    });
  for (const v of D().invariants)
    for (const p of v.phases) if (baseName(p.name) === ph && onSide(p.x)) xs.push(xOf(D(), m[2], p.x));
  if (!xs.length) return { value: null, error: `${ph} borders no two-phase region in the mapped diagram` };
  return { value: Math.max(...xs) };
}

function congruentMelting(m: RegExpExecArray, { D }: LiteratureScope): ComputedValue {
  const ph = m[1].toUpperCase();
  const hit = D().congruentPoints.find((p) => p.phases.includes(ph) && p.phases.some(isLiquidName));
  if (!hit) return { value: null, error: `no congruent point of ${ph} with the liquid in the mapped diagram` };
  return { value: hit.T };
}

function criticalTemperature(m: RegExpExecArray, { D }: LiteratureScope): ComputedValue {
  const word = m[1].toUpperCase();
  const cp = D()
    .criticalPoints.filter((p) => p.phase.includes(word))
    .sort((a, b) => b.T - a.T)[0];
  if (!cp) return { value: null, error: `no critical point of a ${word} gap in the mapped diagram` };
  return { value: cp.T };
}

function criticalComposition(m: RegExpExecArray, { D }: LiteratureScope): ComputedValue {
  const cp = [...D().criticalPoints].sort((a, b) => b.T - a.T)[0];
  if (!cp) return { value: null, unsupported: 'no critical point in the mapped diagram' };
  return { value: xOf(D(), m[1], cp.x) };
}

function pureMelting(m: RegExpExecArray, { c, db }: LiteratureScope): ComputedValue {
  const T = pureTransition(
    db,
    solverComponents(c, db),
    m[3].toUpperCase(),
    m[1].toUpperCase(),
    m[2].toUpperCase(),
    [200, 4000],
    1e-6,
    typeof c.conditions.P === 'number' ? c.conditions.P : 101325,
  );
  return T === null ? { value: null, unsupported: `G(${m[1]}) - G(${m[2]}) has no root in 200-4000 K` } : { value: T };
}

function stablePhasesAtEach(m: RegExpExecArray, { c, db, els }: LiteratureScope): ComputedValue {
  const el = m[1].toUpperCase();
  const list = c.conditions[`X(${m[1]})`] ?? c.conditions[`X(${el})`];
  const T = c.conditions.T;
  if (!Array.isArray(list) || typeof T !== 'number') return { value: null, unsupported: 'needs a T and a list of X' };
  if (!els.includes(el)) return { value: null, unsupported: `${el} is not a case element` };
  const sets = (list as number[]).map((x) => {
    const r = equilibrium({
      database: db,
      components: solverComponents(c, db),
      phases: c.phases,
      conditions: { T, P: typeof c.conditions.P === 'number' ? c.conditions.P : 101325, X: { [el]: x } },
    });
    if (!r.converged) throw new Error(`equilibrium at X(${el})=${x} did not converge: ${r.reason}`);
    return [...new Set(phaseNames(r))];
  });
  const first = sets[0].join('+');
  return { value: sets.find((s) => s.join('+') !== first) ?? sets[0] };
}
