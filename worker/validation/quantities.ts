// The quantity vocabulary of shared/validation/README.md for the point-type kinds (equilibrium,
// derivative, metastable, property) and for any kind that asks for a point quantity: a quantity name is
// read by worker/validation/expression.ts and evaluated here. docs/validation.md lists every quantity,
// how it is computed and its unit.
//
// Errors: Unsupported and NoResult (worker/validation/scope.ts) say why a quantity has no value.
import {
  compositionKey,
  conditionValues,
  expandPoints,
  gridKeys,
  normKey,
  pointOverride,
  type PointConditions,
} from './conditions.js';
import { equilibriumAt } from './equilibrium-at.js';
import { equilibriumAtom } from './equilibrium-atoms.js';
import { parseExpression, parsePhrase, ParseError, type Atom, type Expr } from './expression.js';
import { propertyAtom } from './property-atoms.js';
import { caseElements, dbInfo, NoResult, num, phaseRef, Unsupported, type Scope } from './scope.js';
import type { ComputedValue } from './types.js';

// ------------------------------------------------------------------------------------- evaluation

/** One entry: its value, or why not (unsupported / error). */
export function computeEntry(q: string, scope: Scope): ComputedValue {
  try {
    return { value: evaluateQuantity(q, scope) };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    return err instanceof Unsupported ? { value: null, unsupported: msg } : { value: null, error: msg };
  }
}

/** Evaluates a quantity name in a scope; throws Unsupported / NoResult / Error. */
export function evaluateQuantity(q: string, s: Scope): unknown {
  const ph = parsePhrase(q);
  switch (ph.type) {
    case 'over_grid': {
      const keys = gridKeys(s.cond);
      if (!keys.length) throw new Unsupported(`${q}: no grid in the conditions`);
      const grid = Object.fromEntries(keys.map((k) => [k, s.cond[k]]));
      const vals: number[] = [];
      let first: unknown = null;
      for (const p of expandPoints(grid)) {
        try {
          const v = evaluateQuantity(ph.inner, { ...s, cond: { ...s.cond, ...p } });
          if (typeof v === 'number' && Number.isFinite(v)) vals.push(v);
          else first ??= new NoResult(`${ph.inner} is not a number`);
        } catch (err) {
          if (err instanceof Unsupported) throw err;
          first ??= err;
        }
      }
      if (!vals.length) throw first instanceof Error ? first : new NoResult(`${q}: no grid point has a value`);
      return ph.which === 'max' ? Math.max(...vals) : Math.min(...vals);
    }
    case 'isolated':
      return evaluateQuantity(
        ph.inner,
        ph.phase ? { ...s, isolated: phaseRef(ph.phase).phase } : { ...s, isolateEach: true },
      );
    case 'root':
      return rootOf(ph.variable, `(${ph.left}) - (${ph.right})`, s);
    case 'at': {
      const lists = Object.entries(ph.at).filter(([, v]) => Array.isArray(v));
      const cond = pointOverride(s.cond, ph.at, caseElements(s.c));
      if (!lists.length) return evaluateQuantity(ph.inner, { ...s, cond });
      return expandPoints(Object.fromEntries(lists)).map((p) =>
        evaluateQuantity(ph.inner, { ...s, cond: { ...cond, ...p } }),
      );
    }
    case 'expr': {
      let e: Expr;
      try {
        e = parseExpression(ph.text);
      } catch (err) {
        if (err instanceof ParseError) throw new Unsupported(`quantity '${q}' (${err.message})`);
        throw err;
      }
      return evalExpr(e, s);
    }
  }
}

function arith(op: string, a: unknown, b: unknown): unknown {
  if (Array.isArray(a) || Array.isArray(b)) {
    const n = Array.isArray(a) ? a.length : (b as unknown[]).length;
    if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length)
      throw new Error('lists of different lengths in an expression');
    return Array.from({ length: n }, (_, i) => arith(op, Array.isArray(a) ? a[i] : a, Array.isArray(b) ? b[i] : b));
  }
  const x = num(a, 'an operand'),
    y = num(b, 'an operand');
  return op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : x / y;
}

function reshape(flat: unknown[], dims: number[]): unknown[] {
  if (dims.length <= 1) return flat;
  const inner = dims.slice(1).reduce((a, b) => a * b, 1);
  return Array.from({ length: dims[0] }, (_, i) => reshape(flat.slice(i * inner, (i + 1) * inner), dims.slice(1)));
}

function evalExpr(e: Expr, s: Scope): unknown {
  switch (e.type) {
    case 'num':
      return e.value;
    case 'neg':
      return arith('-', 0, evalExpr(e.arg, s));
    case 'bin':
      return arith(e.op, evalExpr(e.left, s), evalExpr(e.right, s));
    case 'atom': {
      const cond = { ...s.cond, ...e.atom.at };
      const keys = gridKeys(cond);
      if (!keys.length) return atomAt(e.atom, cond as PointConditions, s);
      const flat = expandPoints(cond).map((p) => atomAt(e.atom, p, s));
      // several grid conditions: a flat list (first key outermost), or nested lists when the expected value is nested
      const ev = s.entry?.value;
      if (keys.length > 1 && Array.isArray(ev) && Array.isArray(ev[0]))
        return reshape(
          flat,
          keys.map((k) => conditionValues(k, cond[k]).length),
        );
      return flat;
    }
  }
}

/** Names of quantities whose first argument is a phase (X and W: when they have two arguments). */
const PHASE_FIRST = new Set([
  'GM',
  'HM',
  'SM',
  'CPM',
  'VM',
  'NP',
  'Y',
  'DF',
  'TC',
  'BMAGN',
  'GM_NO_IDMIX',
  'GM_FORMATION',
  'DEGREE_OF_ORDERING',
  'DOO',
  'NET_CHARGE',
]);

/**
 * The phase of "Q isolated": the one the atom names (GM(PHASE), X(PHASE,EL), ...), else the entry's `phase`,
 * else the case's only phase.
 */
export function isolatedPhase(a: Atom, s: Scope): string {
  const args = a.args.filter((x) => x !== 'y');
  const named = (a.name === 'X' || a.name === 'W' ? args.length >= 2 : PHASE_FIRST.has(a.name)) ? args[0] : undefined;
  const known = new Set(dbInfo(s.db).phases.map((p) => p.name.toUpperCase()));
  const only = s.c.phases.filter((p) => known.has(p.toUpperCase()));
  const phase = named ?? s.entry?.phase ?? (only.length === 1 ? only[0] : undefined);
  if (!phase) throw new Unsupported(`${a.text} isolated: no phase named (Q(PHASE) isolated, Q of isolated PHASE)`);
  return phaseRef(phase.toUpperCase()).phase;
}

function atomAt(a: Atom, point: PointConditions, s0: Scope): unknown {
  // "... isolated": the atom's phase alone (a property case's phase is alone already; T0 takes each phase alone)
  const alone = (a.isolated || s0.isolateEach) && !s0.isolated && s0.mode === 'equilibrium' && a.name !== 'T0';
  const s = alone ? { ...s0, isolated: isolatedPhase(a, s0) } : s0;
  if (a.wrt) return derivative(a, point, s);
  if (s.mode === 'property') return propertyAtom(a, point, s);
  if (a.name === 'T0') return t0(a, point, s);
  return equilibriumAtom(a, point, s);
}

/** T0(P1,P2): the temperature at which the two phases alone have the same GM (a root, rootOf). */
function t0(a: Atom, point: PointConditions, s: Scope): number {
  if (a.args.length !== 2) throw new Unsupported(`${a.text}: T0 takes two phases`);
  return rootOf('T', `GM(${a.args[0]}) - GM(${a.args[1]})`, { ...s, cond: { ...s.cond, ...point } });
}

// ------------------------------------------------------------------------------------ derivatives

/** Finite-difference steps of the condition variables (central differences; accuracy ~1e-6 relative). */
function stepOf(key: string, v: number): number {
  if (key === 'T') return 1e-2;
  if (key === 'P') return Math.max(1, 1e-4 * Math.abs(v));
  if (key.startsWith('MU(')) return 1e-1;
  return 1e-6;
}

/**
 * "A.B" (README): the total derivative dA/dB along the equilibrium with the other conditions fixed. The
 * solver's analytic derivatives (§9.4) serve GM/HM/SM, MU(EL), NP(PHASE), X(PHASE,EL) with respect to T and
 * X(EL); every other pair (any quantity of this file with respect to T, P, X(EL), W(EL), MU(EL)) is a
 * central finite difference of A at B +- h, one-sided when the stable phase set changes on one side.
 */
function derivative(a: Atom, point: PointConditions, s: Scope): unknown {
  const B = a.wrt!;
  // the solver's name of A: as written, or rebuilt when "isolated" stands among its arguments
  const written = a.text.slice(0, a.text.lastIndexOf('.'));
  const text = /isolated/i.test(written) ? `${a.name}${a.args.length ? `(${a.args.join(',')})` : ''}` : written;
  const base: Atom = { ...a, wrt: undefined, isolated: false, text };
  if (s.mode === 'equilibrium' && !s.phaseAlone) {
    const req = `${base.text}.${B}`;
    try {
      const r = equilibriumAt(s, point, [req]);
      const v = r.derivatives[req];
      if (typeof v === 'number' && Number.isFinite(v)) return v;
    } catch (err) {
      if (err instanceof NoResult) throw err;
      // not an analytic pair of the solver: finite differences below
    }
  }
  const key = Object.keys(point).find((k) => normKey(k) === B) ?? (B === 'P' ? 'P' : null);
  if (!key) throw new Unsupported(`${a.text}: ${B} is not a condition of the case`);
  const v0 = point[key] ?? 101325;
  const h = stepOf(B, v0);
  const at = (v: number) => {
    const p = { ...point, [key]: v };
    const val = num(atomAt(base, p, s), base.text);
    const phases =
      s.mode === 'equilibrium'
        ? equilibriumAt(s, p)
            .phases.map((x) => x.name)
            .sort()
            .join('+')
        : '';
    return { val, phases };
  };
  const mid =
    s.mode === 'equilibrium'
      ? equilibriumAt(s, point)
          .phases.map((x) => x.name)
          .sort()
          .join('+')
      : '';
  let plus: { val: number; phases: string } | null = null,
    minus: { val: number; phases: string } | null = null;
  try {
    plus = at(v0 + h);
  } catch (err) {
    if (!(err instanceof NoResult)) throw err;
  }
  try {
    minus = at(v0 - h);
  } catch (err) {
    if (!(err instanceof NoResult)) throw err;
  }
  const okP = plus && plus.phases === mid,
    okM = minus && minus.phases === mid;
  if (okP && okM) return (plus!.val - minus!.val) / (2 * h);
  const c = num(atomAt(base, point, s), base.text);
  if (okP) return (plus!.val - c) / h;
  if (okM) return (c - minus!.val) / h;
  throw new NoResult(`${a.text}: the stable phase set changes within ${h} of ${B} = ${v0}`);
}

// ---------------------------------------------------------------------------------------- roots

/**
 * "VAR at which A=B" and T0(P1,P2): the value of the condition VAR (T, P, X(EL), W(EL)) at which A - B
 * changes sign, GM(PHASE) meaning the phase alone as one composition set (README T0). Sign changes are
 * bracketed on a scan of [t0_minimum_value, t0_maximum_value] (default 200-4000 K, 0-1 for fractions,
 * 1 Pa-1e11 Pa) and refined by bisection; the root nearest the start value (t0_start_T / t0_start, else the
 * case's own value of VAR) is returned, as the sources iterate from that start.
 */
function rootOf(variable: string, expr: string, s0: Scope): number {
  const s: Scope = { ...s0, phaseAlone: true };
  const calc = (s.c.calculation ?? {}) as Record<string, unknown>;
  const n = (k: string) => (typeof calc[k] === 'number' ? (calc[k] as number) : undefined);
  const isT = variable === 'T',
    isP = variable === 'P';
  const ck = compositionKey(variable);
  if (!isT && !isP && !(ck && ck.kind !== 'MU'))
    throw new Unsupported(`a root in ${variable} (T, P, X(EL) or W(EL) only)`);
  const lo = n('t0_minimum_value') ?? (isT ? 200 : isP ? 1 : 0);
  const hi = n('t0_maximum_value') ?? (isT ? 4000 : isP ? 1e11 : 1);
  const key = Object.keys(s.cond).find((k) => normKey(k) === variable) ?? variable;
  const own = typeof s.cond[key] === 'number' ? (s.cond[key] as number) : undefined;
  const start = (isT ? n('t0_start_T') : n('t0_start')) ?? own ?? (lo + hi) / 2;
  const e = parseExpression(expr);
  const f = (v: number): number => {
    try {
      const val = evalExpr(e, { ...s, cond: { ...s.cond, [key]: v } });
      return typeof val === 'number' ? val : NaN;
    } catch (err) {
      if (err instanceof NoResult) return NaN;
      throw err;
    }
  };
  const steps = isT ? 200 : 100;
  const xs: number[] = [],
    fs: number[] = [];
  for (let i = 0; i <= steps; i++) {
    xs.push(isP ? lo * Math.pow(hi / lo, i / steps) : lo + ((hi - lo) * i) / steps);
    fs.push(f(xs[i]));
  }
  let best: number | null = null;
  for (let i = 0; i < steps; i++) {
    if (!Number.isFinite(fs[i]) || !Number.isFinite(fs[i + 1]) || fs[i] * fs[i + 1] > 0) continue;
    let a = xs[i],
      b = xs[i + 1],
      fa = fs[i];
    for (let k = 0; k < 60; k++) {
      const mid = 0.5 * (a + b);
      const fm = f(mid);
      if (!Number.isFinite(fm)) break;
      if (fa * fm <= 0) b = mid;
      else {
        a = mid;
        fa = fm;
      }
    }
    const root = 0.5 * (a + b);
    if (best === null || Math.abs(root - start) < Math.abs(best - start)) best = root;
  }
  if (best === null) throw new NoResult(`${expr} has no root in ${variable} = [${lo}, ${hi}]`);
  return best;
}
