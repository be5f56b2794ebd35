// Text in a PDF without embedding a font: the standard Type 1 fonts every PDF reader has (PDF 1.7, ISO 32000-1,
// section 9.6.2.2): Helvetica and Helvetica-Bold in WinAnsiEncoding (Latin-1 and a few typographic marks), and
// Symbol for Greek letters (phase names: α-Al, θ), arrows, the minus sign and relations. A string becomes runs, each
// in one font; a character none of them has is written as "?".

export type PdfFont = 'sans' | 'bold' | 'symbol';
export interface TextRun {
  font: PdfFont;
  codes: number[];
}

// Widths of Helvetica in 1/1000 em for the codes 32..126 (Adobe's Helvetica AFM, Core 14 metrics).
// prettier-ignore
const HELVETICA_ASCII = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833,
  722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556,
  556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334,
  260, 334, 584,
];
// Latin-1 marks whose Helvetica widths differ from the 556 assumed for the rest of 160..255
const HELVETICA_LATIN1: Record<number, number> = { 0xb0: 400, 0xb7: 278, 0xd7: 584, 0xb1: 584, 0xa0: 278 };
/** Symbol glyphs are measured at this mean width (Greek letters range from 411 to 768 in Symbol's AFM). */
const SYMBOL_WIDTH = 560;

// WinAnsiEncoding's codes 128..159 for the typographic marks a label may hold (ISO 32000-1, annex D.2)
const WIN_ANSI_EXTRA: Record<string, number> = {
  '€': 0x80,
  '…': 0x85,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '™': 0x99,
};

// Symbol font codes (ISO 32000-1, annex D.5): Greek letters by their Latin counterparts, then marks
const GREEK_LOWER = 'αβχδεφγηιϕκλμνοπθρστυϖωξψζ';
const GREEK_LOWER_AT = 'abcdefghijklmnopqrstuvwxyz';
const GREEK_UPPER = 'ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ';
const SYMBOL_MARKS: Record<string, number> = {
  '−': 0x2d,
  '→': 0xae,
  '←': 0xac,
  '↑': 0xad,
  '↓': 0xaf,
  '↔': 0xab,
  '≤': 0xa3,
  '≥': 0xb3,
  '≈': 0xbb,
  '≠': 0xb9,
  '∞': 0xa5,
  '∂': 0xb6,
  '′': 0xa2,
  '″': 0xb2,
};

/** The code of a character in Symbol, or null. */
function symbolCode(ch: string): number | null {
  const lower = GREEK_LOWER.indexOf(ch);
  if (lower >= 0) return GREEK_LOWER_AT.charCodeAt(lower);
  const upper = GREEK_UPPER.indexOf(ch);
  if (upper >= 0) return GREEK_LOWER_AT.toUpperCase().charCodeAt(upper);
  return SYMBOL_MARKS[ch] ?? null;
}

/** The code of a character in WinAnsiEncoding, or null. Subscript digits become digits. */
function winAnsiCode(ch: string): number | null {
  const c = ch.codePointAt(0)!;
  if ((c >= 32 && c <= 126) || (c >= 160 && c <= 255)) return c;
  if (c >= 0x2080 && c <= 0x2089) return 48 + c - 0x2080;
  return WIN_ANSI_EXTRA[ch] ?? null;
}

/** The runs of a string: Helvetica (bold when asked) where WinAnsi has the character, Symbol where it has it. */
export function textRuns(text: string, bold: boolean): TextRun[] {
  const runs: TextRun[] = [];
  const latin: PdfFont = bold ? 'bold' : 'sans';
  for (const ch of text) {
    const w = winAnsiCode(ch);
    const s = w === null ? symbolCode(ch) : null;
    const font: PdfFont = w !== null || s === null ? latin : 'symbol';
    const code = w ?? s ?? 63; // '?'
    const last = runs[runs.length - 1];
    if (last && last.font === font) last.codes.push(code);
    else runs.push({ font, codes: [code] });
  }
  return runs;
}

function codeWidth(font: PdfFont, code: number): number {
  if (font === 'symbol') return code === 0x20 ? 250 : SYMBOL_WIDTH;
  // Helvetica-Bold is measured with Helvetica's widths: bold digits and most letters are within 5 % of them
  if (code >= 32 && code <= 126) return HELVETICA_ASCII[code - 32]!;
  return HELVETICA_LATIN1[code] ?? 556;
}

/** The advance width of the runs at font size `size` (same unit as size). */
export function runsWidth(runs: TextRun[], size: number): number {
  let w = 0;
  for (const r of runs) for (const c of r.codes) w += codeWidth(r.font, c);
  return (w * size) / 1000;
}

/** A PDF literal string of the codes: ( ) and \ escaped, codes outside printable ASCII as octal escapes. */
export function pdfString(codes: number[]): string {
  let s = '(';
  for (const c of codes) {
    if (c === 0x28 || c === 0x29 || c === 0x5c) s += `\\${String.fromCharCode(c)}`;
    else if (c >= 32 && c <= 126) s += String.fromCharCode(c);
    else s += `\\${c.toString(8).padStart(3, '0')}`;
  }
  return `${s})`;
}
