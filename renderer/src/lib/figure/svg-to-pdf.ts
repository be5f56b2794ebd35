// The live <svg> of a view drawn into a vector PDF, element by element, as the browser shows it: each shape with its
// transformation to the <svg> (getCTM), its computed fill, stroke, width, dashes and opacity, the clip rectangles of
// the plot area, and each text at the position the browser laid it out (its anchor kept: a label centred on screen
// is centred in the PDF's Helvetica). The page is the <svg>'s size at 96 px per inch (CSS), 0.75 pt per pixel.
import { PdfContent, pdfDocument, type Rgb } from './pdf-document.js';

const PT_PER_PX = 72 / 96; // CSS pixel = 1/96 in, PDF point = 1/72 in
const SKIPPED = new Set(['defs', 'title', 'desc', 'style', 'clipPath', 'mask', 'metadata', 'script', 'foreignObject']);
const KAPPA = 0.5522847498; // control-point distance of a quarter circle by one cubic Bézier, 4(√2 − 1)/3

/** A CSS colour as computed (rgb(…), rgba(…), none) as RGB and its alpha; null for none or a paint server. */
export function cssColor(c: string): { rgb: Rgb; alpha: number } | null {
  const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(c.trim());
  if (!m) return null;
  const a = m[4] === undefined ? 1 : m[4].endsWith('%') ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
  return { rgb: [Number(m[1]), Number(m[2]), Number(m[3])], alpha: a };
}

const px = (v: string) => parseFloat(v) || 0;

function matrixOf(el: Element): number[] {
  const m = (el as SVGGraphicsElement).getCTM?.();
  return m ? [m.a, m.b, m.c, m.d, m.e, m.f] : [1, 0, 0, 1, 0, 0];
}

/** The outline of a shape element as path operators; false when the element is not a shape drawn here. */
function outline(el: Element, pdf: PdfContent): boolean {
  const n = (a: string) => Number(el.getAttribute(a) ?? 0);
  switch (el.localName) {
    case 'line':
      pdf.moveTo(n('x1'), n('y1'));
      pdf.lineTo(n('x2'), n('y2'));
      return true;
    case 'polyline':
    case 'polygon': {
      const pts = (el.getAttribute('points') ?? '')
        .trim()
        .split(/[\s,]+/)
        .map(Number);
      for (let i = 0; i + 1 < pts.length; i += 2) (i ? pdf.lineTo : pdf.moveTo).call(pdf, pts[i]!, pts[i + 1]!);
      if (el.localName === 'polygon') pdf.push('h');
      return pts.length >= 2;
    }
    case 'rect':
      pdf.rect(n('x'), n('y'), n('width'), n('height'));
      return true;
    case 'circle':
      ellipse(pdf, n('cx'), n('cy'), n('r'), n('r'));
      return true;
    case 'ellipse':
      ellipse(pdf, n('cx'), n('cy'), n('rx'), n('ry'));
      return true;
    case 'path':
      return pathOutline(el.getAttribute('d') ?? '', pdf);
    default:
      return false;
  }
}

function ellipse(pdf: PdfContent, cx: number, cy: number, rx: number, ry: number): void {
  const kx = rx * KAPPA;
  const ky = ry * KAPPA;
  pdf.moveTo(cx + rx, cy);
  pdf.curveTo(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry);
  pdf.curveTo(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy);
  pdf.curveTo(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry);
  pdf.curveTo(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy);
  pdf.push('h');
}

/** The straight-segment commands of SVG path data (M L H V Z, absolute and relative): what the views draw. */
export function pathOutline(d: string, pdf: PdfContent): boolean {
  const tokens = d.match(/[MLHVZmlhvz]|-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/g) ?? [];
  let x = 0;
  let y = 0;
  let sx = 0;
  let sy = 0;
  let cmd = '';
  let drew = false;
  for (let i = 0; i < tokens.length;) {
    if (/[A-Za-z]/.test(tokens[i]!)) cmd = tokens[i++]!;
    const rel = cmd === cmd.toLowerCase();
    const C = cmd.toUpperCase();
    if (C === 'Z') {
      pdf.push('h');
      [x, y] = [sx, sy];
      continue;
    }
    const a = Number(tokens[i++]);
    if (C === 'H') x = rel ? x + a : a;
    else if (C === 'V') y = rel ? y + a : a;
    else {
      const b = Number(tokens[i++]);
      x = rel ? x + a : a;
      y = rel ? y + b : b;
    }
    if (C === 'M') {
      pdf.moveTo(x, y);
      [sx, sy] = [x, y];
      cmd = rel ? 'l' : 'L'; // coordinates after a moveto are linetos
    } else pdf.lineTo(x, y);
    drew = true;
  }
  return drew;
}

/** Sets fill and stroke from the computed style; returns the painting operator (f, S, B) or null (nothing). */
function paint(cs: CSSStyleDeclaration, opacity: number, pdf: PdfContent): string | null {
  const fill = cssColor(cs.fill);
  const stroke = cssColor(cs.stroke);
  const width = px(cs.strokeWidth);
  const doStroke = stroke !== null && width > 0;
  if (!fill && !doStroke) return null;
  const fa = fill ? fill.alpha * Number(cs.fillOpacity) * opacity : 1;
  const sa = stroke ? stroke.alpha * Number(cs.strokeOpacity) * opacity : 1;
  pdf.alpha(fa, sa);
  if (fill) pdf.fillColor(fill.rgb);
  if (doStroke) {
    pdf.strokeColor(stroke.rgb);
    pdf.lineWidth(width);
    const dashes = cs.strokeDasharray === 'none' ? [] : cs.strokeDasharray.split(/[\s,]+/).map(px);
    if (dashes.some((v) => v > 0)) pdf.dash(dashes.length % 2 ? [...dashes, ...dashes] : dashes);
    pdf.push(`${{ butt: 0, round: 1, square: 2 }[cs.strokeLinecap] ?? 0} J`);
    pdf.push(`${{ miter: 0, round: 1, bevel: 2 }[cs.strokeLinejoin] ?? 0} j`);
  }
  return fill && doStroke ? 'B' : fill ? 'f' : 'S';
}

function drawShape(el: Element, cs: CSSStyleDeclaration, opacity: number, pdf: PdfContent): void {
  pdf.push('q');
  pdf.transform(matrixOf(el));
  const op = paint(cs, opacity, pdf);
  if (op && outline(el, pdf)) pdf.push(op);
  else pdf.push('n');
  pdf.push('Q');
}

/** A text element at the browser's layout: the anchor point kept, the width that of the PDF's font. */
function drawText(el: SVGTextContentElement, cs: CSSStyleDeclaration, opacity: number, pdf: PdfContent): void {
  const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (!text || el.getNumberOfChars() === 0) return;
  const size = px(cs.fontSize);
  const bold = Number(cs.fontWeight) >= 600 || cs.fontWeight === 'bold';
  const start = el.getStartPositionOfChar(0);
  const screenWidth = el.getComputedTextLength();
  const width = PdfContent.textWidth(text, size, bold);
  const anchor = cs.textAnchor === 'middle' ? 0.5 : cs.textAnchor === 'end' ? 1 : 0;
  const x = start.x + anchor * (screenWidth - width);
  pdf.push('q');
  pdf.transform(matrixOf(el));
  const stroke = cssColor(cs.stroke);
  if (stroke && px(cs.strokeWidth) > 0 && cs.paintOrder.startsWith('stroke')) {
    // the halo a label draws under itself (paint-order: stroke) so it stays legible over lines
    pdf.alpha(1, stroke.alpha * opacity);
    pdf.strokeColor(stroke.rgb);
    pdf.lineWidth(px(cs.strokeWidth));
    pdf.push('1 j');
    pdf.text(text, x, start.y, size, bold, 1);
  }
  const fill = cssColor(cs.fill);
  if (fill) {
    pdf.alpha(fill.alpha * opacity, 1);
    pdf.fillColor(fill.rgb);
    pdf.text(text, x, start.y, size, bold, 0);
  }
  pdf.push('Q');
}

/** The clip rectangle a group references (clip-path: url(#id) holding a <rect>), applied in the group's space. */
function clipOf(el: Element, cs: CSSStyleDeclaration, root: SVGSVGElement, pdf: PdfContent): void {
  const id = /url\(["']?#([^"')]+)["']?\)/.exec(cs.clipPath)?.[1];
  const rect = id ? root.querySelector(`[id="${CSS.escape(id)}"] rect`) : null;
  if (!rect) return;
  const n = (a: string) => Number(rect.getAttribute(a) ?? 0);
  const m = matrixOf(el);
  pdf.transform(m);
  pdf.rect(n('x'), n('y'), n('width'), n('height'));
  pdf.push('W n');
  // back to the <svg>'s space for the children (each concatenates its own matrix to the <svg>)
  const det = m[0]! * m[3]! - m[1]! * m[2]!;
  if (Math.abs(det) < 1e-12) return;
  const inv = [m[3]! / det, -m[1]! / det, -m[2]! / det, m[0]! / det];
  pdf.transform([...inv, -(inv[0]! * m[4]! + inv[2]! * m[5]!), -(inv[1]! * m[4]! + inv[3]! * m[5]!)]);
}

function walk(parent: Element, root: SVGSVGElement, opacity: number, pdf: PdfContent): void {
  for (const el of parent.children) {
    if (SKIPPED.has(el.localName)) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none') continue;
    const alpha = opacity * Number(cs.opacity || 1);
    if (el.localName === 'g' || el.localName === 'a') {
      pdf.push('q');
      if (cs.clipPath && cs.clipPath !== 'none') clipOf(el, cs, root, pdf);
      walk(el, root, alpha, pdf);
      pdf.push('Q');
    } else if (cs.visibility === 'hidden') continue;
    else if (el.localName === 'text') drawText(el as SVGTextContentElement, cs, alpha, pdf);
    else drawShape(el, cs, alpha, pdf);
  }
}

/** The <svg> as a one-page PDF of its size (1 px = 0.75 pt) on a white page. */
export function svgToPdf(svg: SVGSVGElement, title: string): Uint8Array {
  const { width, height } = svg.getBoundingClientRect();
  const pdf = new PdfContent();
  // PDF's y grows upwards: flip the page into the SVG's y-down pixel space once
  pdf.transform([PT_PER_PX, 0, 0, -PT_PER_PX, 0, height * PT_PER_PX]);
  pdf.fillColor([255, 255, 255]);
  pdf.rect(0, 0, width, height);
  pdf.push('f');
  walk(svg, svg, 1, pdf);
  return pdfDocument(pdf, width * PT_PER_PX, height * PT_PER_PX, title);
}
