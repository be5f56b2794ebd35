// Parser of the quantity names of a validation case (shared/validation/README.md "Quantities"). A name is
// an arithmetic expression (+ - * /, parentheses, numbers) over quantity atoms:
//
//   atom    := NAME [ '(' args ')' ] [ '.' NAME [ '(' args ')' ] ]      e.g. GM, MU(AL), X(FCC_A1#*,ZN),
//                                                                       HM.T, MU(AL).X(ZN), NP(FCC_A1).T
//   args    := arg { ',' arg }        an arg is either a plain name (PHASE, EL, PHASE#2, y, ...) or a
//                                     condition KEY=NUMBER that evaluates the atom there: GM(P=1e10)
//
// and, around an expression, the phrases the README writes out in words (worker/validation/quantities.ts):
//   "max_over_grid(Q)", "min_over_grid(Q)", "Q of isolated PHASE[ (...)]", "VAR at which A=B",
//   "Q at KEY=V[, KEY2=V2]" (V may be a list [v1,v2,...]).
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
  /** the atom's text as written */
  text: string;
}

export class ParseError extends Error {}

const NUMBER = /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?|^\.[0-9]+([eE][-+]?[0-9]+)?/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

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

  private primary(): Expr {
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
    if (inner !== null && inner.trim() !== '') {
      for (const a of splitTopLevel(inner)) {
        const kv = /^([A-Za-z][A-Za-z0-9_]*(\([^()]*\))?)\s*=\s*(.+)$/.exec(a);
        if (kv && NUMBER.test(kv[3].trim()) && Number.isFinite(Number(kv[3].trim())))
          at[normalise(kv[1])] = Number(kv[3].trim());
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
    return { name: name.toUpperCase(), args, at, wrt, text: this.text.slice(start, this.pos) };
  }
}

/** Parses an arithmetic quantity expression; throws ParseError naming the text it cannot read. */
export function parseExpression(text: string): Expr {
  return new Parser(text.trim()).parse();
}

/** The phrases around an expression (README "other names"), outermost first. */
export type Phrase =
  | { type: 'over_grid'; which: 'max' | 'min'; inner: string }
  | { type: 'isolated'; inner: string; phase: string }
  | { type: 'root'; variable: string; left: string; right: string }
  | { type: 'at'; inner: string; at: Record<string, number | number[]> }
  | { type: 'expr'; text: string };

/** "KEY=V, KEY2=[a,b]" -> conditions; null if any part is not such an assignment. */
export function parseAssignments(text: string): Record<string, number | number[]> | null {
  const out: Record<string, number | number[]> = {};
  for (const part of splitTopLevel(text)) {
    const m = /^([A-Za-z][A-Za-z0-9_]*(\([^()]*\))?)\s*=\s*(.+)$/.exec(part);
    if (!m) return null;
    const v = m[3].trim();
    if (v.startsWith('[') && v.endsWith(']')) {
      const list = splitTopLevel(v.slice(1, -1)).map(Number);
      if (list.some((x) => !Number.isFinite(x))) return null;
      out[normalise(m[1])] = list;
    } else {
      if (!NUMBER.test(v) || !Number.isFinite(Number(v))) return null;
      out[normalise(m[1])] = Number(v);
    }
  }
  return out;
}

/** The outermost phrase of a quantity name. */
export function parsePhrase(q: string): Phrase {
  const text = q.trim();
  let m: RegExpExecArray | null;
  if ((m = /^(max|min)_over_grid\s*\((.*)\)$/i.exec(text)) && closing(text, text.indexOf('(')) === text.length - 1) {
    return { type: 'over_grid', which: m[1].toLowerCase() as 'max' | 'min', inner: m[2] };
  }
  if ((m = /^(.+?)\s+of isolated\s+([A-Za-z0-9_]+)(\s*\(.*\))?$/i.exec(text))) {
    return { type: 'isolated', inner: m[1], phase: m[2].toUpperCase() };
  }
  if ((m = /^(.+?)\s+at which\s+(.+?)\s*=\s*(.+)$/i.exec(text))) {
    return { type: 'root', variable: normalise(m[1]), left: m[2], right: m[3] };
  }
  const at = text.lastIndexOf(' at ');
  if (at > 0) {
    const assignments = parseAssignments(text.slice(at + 4));
    if (assignments) return { type: 'at', inner: text.slice(0, at), at: assignments };
  }
  return { type: 'expr', text };
}
