// Parser of the quantity names of a validation case (shared/validation/README.md "Quantities"). A name is
// an arithmetic expression (+ - * /, parentheses, numbers) over quantity atoms:
//
//   atom    := NAME [ '(' args ')' ] [ '.' NAME [ '(' args ')' ] ]      e.g. GM, MU(AL), X(FCC_A1#*,ZN),
//                                                                       HM.T, MU(AL).X(ZN), NP(FCC_A1).T
//   args    := arg { ',' arg }        an arg is either a plain name (PHASE, EL, PHASE#2, y, ...) or a
//                                     condition KEY=NUMBER that evaluates the atom there: GM(P=1e10)
//
// The README's "... isolated" (the phase alone, one composition set, every other phase suspended) may follow
// an atom or a parenthesised term ("GM(LIQUID) isolated - GM(SOLID) isolated"), precede it ("isolated
// GM(LIQUID)") or stand among the arguments ("GM(LIQUID, isolated)", "GM(LIQUID isolated)"); the phase is the
// one the atom names (quantities.ts isolatedPhase).
//
// Around an expression, the phrases the README writes out in words (worker/validation/quantities.ts), outermost
// first:
//   "max_over_grid(Q)", "min_over_grid(Q)";
//   "Q at KEY=V[, KEY2=V2]" (V may be a list [v1,v2,...]; also separated by ';' or 'and'; T may carry 'K', P 'Pa');
//   "VAR at which A=B";
//   "Q of|for|in|with [the] isolated PHASE", "Q of PHASE isolated", "Q isolated PHASE", "Q isolated (PHASE)",
//   "Q isolated" (each atom's own phase); any of them may end in a remark in parentheses: "(single composition set)".
// Names are matched case-insensitively; phase and element names are returned in upper case.

export type Expr =
  | { type: 'num'; value: number }
  | { type: 'neg'; arg: Expr }
  | { type: 'bin'; op: '+' | '-' | '*' | '/'; left: Expr; right: Expr }
  | { type: 'atom'; atom: Atom };

export interface Atom {
  /** upper-case name: GM, MU, X, NP, TC, DEGREE_OF_ORDERING, ... */
  name: string;
  /** positional arguments, upper case except a lone 'y' (relation notation), blanks removed */
  args: string[];
  /** condition arguments KEY=NUMBER (keys normalised, e.g. P, T, X(ZN)) */
  at: Record<string, number>;
  /** derivative variable of "A.B" (normalised: T, P, X(ZN), W(AL), MU(CU)), if any */
  wrt?: string;
  /** "... isolated": the atom's phase alone, one composition set */
  isolated?: boolean;
  /** the atom's text as written */
  text: string;
}

export class ParseError extends Error {}

const NUMBER = /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?|^\.[0-9]+([eE][-+]?[0-9]+)?/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
/** the word "isolated" as a whole word at the start of the text, after blanks */
const ISOLATED = /^\s*isolated(?![A-Za-z0-9_#])/i;
/** a phase name as the README writes it (PHASE, PHASE#2) */
const PHASE = '[A-Za-z][A-Za-z0-9_]*(?:#\\d+)?';

/** Marks every atom of an expression "isolated". */
function markIsolated(e: Expr): Expr {
  if (e.type === 'atom') e.atom.isolated = true;
  else if (e.type === 'neg') markIsolated(e.arg);
  else if (e.type === 'bin') {
    markIsolated(e.left);
    markIsolated(e.right);
  }
  return e;
}

/** Splits text at top-level commas (outside parentheses and brackets). */
export function splitTopLevel(text: string, sep = ','): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    if (ch === sep && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((s) => s.trim());
}

/** Index of the parenthesis closing the one at `open`, or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

function normalise(s: string): string {
  return s.replace(/\s+/g, '').toUpperCase();
}

class Parser {
  private pos = 0;
  constructor(private readonly text: string) {}

  parse(): Expr {
    const e = this.sum();
    this.blank();
    if (this.pos !== this.text.length)
      throw new ParseError(`unexpected '${this.text.slice(this.pos)}' in '${this.text}'`);
    return e;
  }

  private blank(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }

  private peek(): string {
    this.blank();
    return this.text[this.pos] ?? '';
  }

  private sum(): Expr {
    let left = this.product();
    for (;;) {
      const op = this.peek();
      if (op !== '+' && op !== '-') return left;
      this.pos++;
      left = { type: 'bin', op, left, right: this.product() };
    }
  }

  private product(): Expr {
    let left = this.unary();
    for (;;) {
      const op = this.peek();
      if (op !== '*' && op !== '/') return left;
      this.pos++;
      left = { type: 'bin', op, left, right: this.unary() };
    }
  }

  private unary(): Expr {
    if (this.peek() === '-') {
      this.pos++;
      return { type: 'neg', arg: this.unary() };
    }
    if (this.peek() === '+') {
      this.pos++;
      return this.unary();
    }
    return this.primary();
  }

  /** A term, with "isolated" before or after it. */
  private primary(): Expr {
    const before = ISOLATED.exec(this.text.slice(this.pos));
    if (before && /^\s*[A-Za-z_(]/.test(this.text.slice(this.pos + before[0].length))) {
      this.pos += before[0].length;
      return markIsolated(this.term());
    }
    const e = this.term();
    const after = ISOLATED.exec(this.text.slice(this.pos));
    if (after && e.type !== 'num') {
      this.pos += after[0].length;
      return markIsolated(e);
    }
    return e;
  }

  private term(): Expr {
    const ch = this.peek();
    if (ch === '(') {
      this.pos++;
      const e = this.sum();
      if (this.peek() !== ')') throw new ParseError(`missing ')' in '${this.text}'`);
      this.pos++;
      return e;
    }
    const rest = this.text.slice(this.pos);
    const num = NUMBER.exec(rest);
    if (num) {
      this.pos += num[0].length;
      return { type: 'num', value: Number(num[0]) };
    }
    if (NAME.test(rest)) return { type: 'atom', atom: this.atom() };
    throw new ParseError(`cannot read '${rest}' in '${this.text}'`);
  }

  /** NAME [(args)] */
  private call(): { name: string; inner: string | null } {
    const name = NAME.exec(this.text.slice(this.pos))![0];
    this.pos += name.length;
    // "GM (P=1e10)": blanks between a name and its argument list
    const gap = /^\s*/.exec(this.text.slice(this.pos))![0].length;
    if (gap > 0 && this.text[this.pos + gap] === '(') this.pos += gap;
    if (this.text[this.pos] === '(') {
      const end = closing(this.text, this.pos);
      if (end < 0) throw new ParseError(`missing ')' after ${name} in '${this.text}'`);
      const inner = this.text.slice(this.pos + 1, end);
      this.pos = end + 1;
      return { name, inner };
    }
    return { name, inner: null };
  }

  private atom(): Atom {
    const start = this.pos;
    const { name, inner } = this.call();
    const args: string[] = [];
    const at: Record<string, number> = {};
    let isolated = false;
    if (inner !== null && inner.trim() !== '') {
      for (const a0 of splitTopLevel(inner)) {
        // "GM(LIQUID, isolated)", "GM(LIQUID isolated)"
        const a = a0.replace(/(^|\s+)isolated$/i, '');
        if (a !== a0) isolated = true;
        if (a === '') continue;
        const kv = /^([A-Za-z][A-Za-z0-9_]*(\([^()]*\))?)\s*=\s*(.+)$/.exec(a);
        const v = kv ? conditionNumber(normalise(kv[1]), kv[3]) : null;
        if (kv && v !== null) at[normalise(kv[1])] = v;
        else if (/^[A-Za-z0-9_#*+\-/.]+$/.test(a.trim())) args.push(a.trim() === 'y' ? 'y' : normalise(a));
        else throw new ParseError(`'${a.trim()}' is not a phase, element or condition argument in '${this.text}'`);
      }
    }
    let wrt: string | undefined;
    if (this.text[this.pos] === '.' && NAME.test(this.text.slice(this.pos + 1))) {
      this.pos++;
      const b = this.call();
      wrt = normalise(b.inner === null ? b.name : `${b.name}(${b.inner})`);
    }
    const atom: Atom = { name: name.toUpperCase(), args, at, wrt, text: this.text.slice(start, this.pos) };
    if (isolated) atom.isolated = true;
    return atom;
  }
}

/** A keyword quantity without a remark in parentheses after it: "two_phase_regions_include (at 1000 K)". */
export function withoutRemark(q: string): string {
  return q.trim().replace(/\s+\([^()]*\)$/, '');
}

/** Parses an arithmetic quantity expression; throws ParseError naming the text it cannot read. */
export function parseExpression(text: string): Expr {
  return new Parser(text.trim()).parse();
}

/** The phrases around an expression (README "other names"), outermost first. */
export type Phrase =
  | { type: 'over_grid'; which: 'max' | 'min'; inner: string }
  /** phase null: "Q isolated", each atom of Q isolated on the phase it names */
  | { type: 'isolated'; inner: string; phase: string | null }
  | { type: 'root'; variable: string; left: string; right: string }
  | { type: 'at'; inner: string; at: Record<string, number | number[]> }
  | { type: 'expr'; text: string };

/** A signed number written alone ("-2e4", "0.3"), else null. */
function signedNumber(text: string): number | null {
  const t = text.trim().replace(/^([-+])\s*/, '$1');
  const body = t.replace(/^[-+]/, '');
  const m = NUMBER.exec(body);
  return m && m[0] === body ? Number(t) : null;
}

/** A condition's value with an optional unit: "1600", "1600 K", "1e5 Pa", "-20000" (MU). */
function conditionNumber(key: string, v: string): number | null {
  const unit = key === 'T' ? /\s*K$/ : key === 'P' ? /\s*Pa$/ : null;
  return signedNumber(unit ? v.replace(unit, '') : v);
}

/** "KEY=V, KEY2=[a,b]" (also "; " or " and " between them) -> conditions; null if any part is not such an assignment. */
export function parseAssignments(text: string): Record<string, number | number[]> | null {
  let body = text.trim();
  if (body.startsWith('(') && closing(body, 0) === body.length - 1) body = body.slice(1, -1);
  const out: Record<string, number | number[]> = {};
  const parts = splitTopLevel(body.replace(/\s+and\s+/gi, ',').replace(/;/g, ','));
  for (const part of parts) {
    const m = /^([A-Za-z][A-Za-z0-9_]*(\([^()]*\))?)\s*=\s*(.+)$/.exec(part);
    if (!m) return null;
    const key = normalise(m[1]);
    const v = m[3].trim();
    if (v.startsWith('[') && v.endsWith(']')) {
      const list = splitTopLevel(v.slice(1, -1)).map((x) => conditionNumber(key, x));
      if (list.some((x) => x === null)) return null;
      out[key] = list as number[];
    } else {
      const x = conditionNumber(key, v);
      if (x === null) return null;
      out[key] = x;
    }
  }
  return out;
}

/** The phase named in parentheses after "isolated" ("(BCT_A5)"); null for a remark ("(single composition set)"). */
function phaseInTail(tail: string | undefined): string | null {
  const inner = tail?.trim().slice(1, -1).trim() ?? '';
  return new RegExp(`^${PHASE}$`).test(inner) ? inner.toUpperCase() : null;
}

/** The "... isolated" phrases with or without a phase name; null when the text is none of them. */
function isolatedPhrase(text: string): Phrase | null {
  const tail = String.raw`(\s*\([^()]*\))?$`;
  const prep = String.raw`\s+(?:of|for|in|with)\s+(?:the\s+)?`;
  let m: RegExpExecArray | null;
  // "GM of isolated BCC_A2 (single composition set)", "GM of BCC_A2 isolated", "GM isolated BCC_A2"
  for (const re of [
    `^(.+?)${prep}isolated\\s+(${PHASE})${tail}`,
    `^(.+?)${prep}(${PHASE})\\s+isolated${tail}`,
    `^(.+?)\\s+isolated\\s+(${PHASE})${tail}`,
  ]) {
    if ((m = new RegExp(re, 'i').exec(text))) return { type: 'isolated', inner: m[1], phase: m[2].toUpperCase() };
  }
  // "GM(BCC_A2) isolated", "MU(SN) isolated (BCT_A5)", "GM(BCC_A2), isolated (one composition set)"
  if ((m = /^(.+?)\s*,?\s+isolated(\s*\([^()]*\))?$/i.exec(text)))
    return { type: 'isolated', inner: m[1], phase: phaseInTail(m[2]) };
  return null;
}

/** The outermost phrase of a quantity name. */
export function parsePhrase(q: string): Phrase {
  const text = q.trim();
  let m: RegExpExecArray | null;
  if ((m = /^(max|min)_over_grid\s*\((.*)\)$/i.exec(text)) && closing(text, text.indexOf('(')) === text.length - 1) {
    return { type: 'over_grid', which: m[1].toLowerCase() as 'max' | 'min', inner: m[2] };
  }
  const at = text.toLowerCase().lastIndexOf(' at ');
  if (at > 0) {
    const assignments = parseAssignments(text.slice(at + 4));
    if (assignments) return { type: 'at', inner: text.slice(0, at).trim(), at: assignments };
  }
  if ((m = /^(.+?)\s+at which\s+(.+?)\s*=\s*(.+)$/i.exec(text))) {
    return { type: 'root', variable: normalise(m[1]), left: m[2], right: m[3] };
  }
  return isolatedPhrase(text) ?? { type: 'expr', text };
}
