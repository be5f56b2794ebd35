// The figure files of a view, made in the page from the <svg> on screen (the zoom, units, names and overlays the user
// sees): a standalone SVG whose elements carry their computed styles inline (the views style them with component
// CSS, which a saved file would lose), a PNG drawn from that SVG on a canvas at dpi/96 device pixels per CSS pixel
// with its resolution written in the file (png-dpi.ts), and a vector PDF (svg-to-pdf.ts).
import { saveBlob } from '../results.js';
import { withDpi } from './png-dpi.js';
import { svgToPdf } from './svg-to-pdf.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** The presentation properties a figure's look depends on, copied from the computed style onto each element. */
const STYLED = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'text-anchor',
  'paint-order',
  'visibility',
] as const;
const DROPPED = new Set(['title', 'desc', 'script']);

function inlineStyles(src: Element, dst: Element): void {
  const cs = getComputedStyle(src);
  const style = STYLED.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(';');
  dst.setAttribute('style', style);
  dst.removeAttribute('class');
  const s = [...src.children];
  const d = [...dst.children];
  for (let i = 0; i < s.length; i++) inlineStyles(s[i]!, d[i]!);
}

/** The <svg> as the text of a standalone SVG file, its styles inline, on a white background. */
export function standaloneSvg(svg: SVGSVGElement): string {
  const { width, height } = svg.getBoundingClientRect();
  const copy = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, copy);
  for (const el of [...copy.querySelectorAll('*')]) if (DROPPED.has(el.localName)) el.remove();
  for (const a of ['role', 'tabindex', 'data-testid', 'data-labels', 'data-view', 'aria-label'])
    copy.removeAttribute(a);
  copy.setAttribute('xmlns', SVG_NS);
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  // a chart drawn in viewBox units (scaled to its box) keeps them; the others are in CSS pixels
  if (!svg.hasAttribute('viewBox')) copy.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const bg = document.createElementNS(SVG_NS, 'rect');
  for (const [k, v] of [
    ['width', '100%'],
    ['height', '100%'],
    ['fill', '#fff'],
  ])
    bg.setAttribute(k!, v!);
  copy.insertBefore(bg, copy.firstChild);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}

/** The <svg> as a PNG at `dpi` (the CSS pixel is 1/96 in), with a pHYs chunk saying so. */
export async function svgToPng(svg: SVGSVGElement, dpi: number): Promise<Uint8Array> {
  const { width, height } = svg.getBoundingClientRect();
  const scale = dpi / 96;
  const url = URL.createObjectURL(new Blob([standaloneSvg(svg)], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas to draw the figure on');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, 'image/png'));
    if (!blob) throw new Error(`the figure is too large for a canvas at ${dpi} dpi`);
    return withDpi(new Uint8Array(await blob.arrayBuffer()), dpi);
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Saves bytes or text as a file of a MIME type from the page. */
function save(name: string, data: Uint8Array | string, type: string): void {
  saveBlob(name, new Blob([data as BlobPart], { type }));
}

export type FigureFormat = 'svg' | 'pdf' | 'png300' | 'png600';

/** Writes the figure of `svg` in a format as `<base>.<ext>` (PNG names carry their dpi). */
export async function exportFigure(svg: SVGSVGElement, base: string, format: FigureFormat, title: string) {
  if (format === 'svg') save(`${base}.svg`, standaloneSvg(svg), 'image/svg+xml');
  else if (format === 'pdf') save(`${base}.pdf`, svgToPdf(svg, title), 'application/pdf');
  else {
    const dpi = format === 'png300' ? 300 : 600;
    save(`${base}-${dpi}dpi.png`, await svgToPng(svg, dpi), 'image/png');
  }
}
