// A one-page vector PDF (PDF 1.4, ISO 32000-1 for the syntax): catalog, page tree, one page whose content stream
// holds the drawing operators, the three standard fonts of pdf-text.ts and one graphics state per opacity used.
// The content stream is Flate-compressed (fflate, already a dependency for the VTK zip).
import { zlibSync } from 'fflate';
import { pdfString, runsWidth, textRuns, type PdfFont } from './pdf-text.js';
import { concatBytes } from './png-dpi.js';

const FONT_NAMES: Record<PdfFont, string> = { sans: 'F1', bold: 'F2', symbol: 'F3' };
const num = (v: number) => (Math.abs(v) < 1e-9 ? '0' : String(Math.round(v * 1000) / 1000));

export type Rgb = [number, number, number];

/** The drawing operators of a page, written in order; opacities become named graphics states. */
export class PdfContent {
  readonly ops: string[] = [];
  readonly alphas = new Map<string, { fill: number; stroke: number }>();

  push(op: string): void {
    this.ops.push(op);
  }
  /** concatenates the matrix [a b c d e f] to the current transformation */
  transform(m: readonly number[]): void {
    this.push(`${m.map(num).join(' ')} cm`);
  }
  moveTo(x: number, y: number): void {
    this.push(`${num(x)} ${num(y)} m`);
  }
  lineTo(x: number, y: number): void {
    this.push(`${num(x)} ${num(y)} l`);
  }
  curveTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void {
    this.push(`${[x1, y1, x2, y2, x, y].map(num).join(' ')} c`);
  }
  rect(x: number, y: number, w: number, h: number): void {
    this.push(`${num(x)} ${num(y)} ${num(w)} ${num(h)} re`);
  }
  fillColor(c: Rgb): void {
    this.push(`${c.map((v) => num(v / 255)).join(' ')} rg`);
  }
  strokeColor(c: Rgb): void {
    this.push(`${c.map((v) => num(v / 255)).join(' ')} RG`);
  }
  lineWidth(w: number): void {
    this.push(`${num(w)} w`);
  }
  dash(pattern: number[]): void {
    this.push(`[${pattern.map(num).join(' ')}] 0 d`);
  }
  /** an ExtGState with these opacities (1: opaque) */
  alpha(fill: number, stroke: number): void {
    if (fill >= 1 && stroke >= 1) return;
    const key = `GS${num(fill)}_${num(stroke)}`.replace(/\./g, 'p');
    this.alphas.set(key, { fill, stroke });
    this.push(`/${key} gs`);
  }
  /**
   * Text with its left end of the baseline at (x, y) in a y-down space (the page's SVG space): the text matrix
   * flips y back so glyphs stand upright. mode 0 fills, 1 strokes (a halo under the label).
   */
  text(text: string, x: number, y: number, size: number, bold: boolean, mode: 0 | 1 = 0): void {
    const runs = textRuns(text, bold);
    const parts = runs.map((r) => `/${FONT_NAMES[r.font]} ${num(size)} Tf ${pdfString(r.codes)} Tj`);
    this.push(`BT ${mode} Tr 1 0 0 -1 ${num(x)} ${num(y)} Tm ${parts.join(' ')} ET`);
  }
  /** The width the text takes in this PDF's fonts at `size`. */
  static textWidth(text: string, size: number, bold: boolean): number {
    return runsWidth(textRuns(text, bold), size);
  }
}

const encoder = new TextEncoder();

/** A PDF file of one page of widthPt × heightPt points drawn by `content`. */
export function pdfDocument(content: PdfContent, widthPt: number, heightPt: number, title: string): Uint8Array {
  const stream = zlibSync(encoder.encode(content.ops.join('\n')));
  const gs = [...content.alphas].map(
    ([k, a]) => `/${k} << /Type /ExtGState /ca ${num(a.fill)} /CA ${num(a.stroke)} >>`,
  );
  const titleCodes = textRuns(title, false).flatMap((r) => (r.font === 'symbol' ? [63] : r.codes));
  const objects: (string | Uint8Array)[][] = [
    ['<< /Type /Catalog /Pages 2 0 R >>'],
    ['<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    [
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(widthPt)} ${num(heightPt)}] /Contents 4 0 R ` +
        `/Resources << /Font << /F1 5 0 R /F2 6 0 R /F3 7 0 R >> /ExtGState << ${gs.join(' ')} >> >> >>`,
    ],
    [`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, stream, '\nendstream'],
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'],
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>'],
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>'],
    [`<< /Title ${pdfString(titleCodes)} /Producer (PhaseDesk) >>`],
  ];
  // the second header line: four bytes above 127 mark the file as binary (ISO 32000-1, 7.5.2)
  const parts: Uint8Array[] = [Uint8Array.from([...encoder.encode('%PDF-1.4\n%'), 0xe2, 0xe3, 0xcf, 0xd3, 0x0a])];
  let offset = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((pieces, i) => {
    offsets.push(offset);
    const bytes = [
      encoder.encode(`${i + 1} 0 obj\n`),
      ...pieces.map((p) => (typeof p === 'string' ? encoder.encode(p) : p)),
    ];
    bytes.push(encoder.encode('\nendobj\n'));
    for (const b of bytes) {
      parts.push(b);
      offset += b.length;
    }
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${offset}\n%%EOF\n`,
  ].join('');
  parts.push(encoder.encode(xref));
  return concatBytes(parts);
}
