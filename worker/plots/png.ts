// SVG -> PNG for the preview files, in Node with @resvg/resvg-js (Rust resvg through N-API; no browser,
// no system Cairo). resvg draws no text without a font: it loads the system fonts and uses DejaVu Sans
// (Debian package fonts-dejavu-core), which the SVG builder names first in its font stack. The DejaVu
// files are also passed explicitly when present, so the choice does not depend on fontconfig order.

import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const DEFAULT_FONT_FAMILY = 'DejaVu Sans';

/** Where Debian/Ubuntu (fonts-dejavu-core) and Fedora put DejaVu Sans. */
const DEJAVU_CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf',
  '/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Bold.ttf',
];

/** DejaVu Sans files found on this machine (empty when the font package is missing). */
export function findDejaVuFonts(): string[] {
  return DEJAVU_CANDIDATES.filter((p) => existsSync(p));
}

export interface PngOptions {
  /** Output width in pixels; the height follows the SVG's aspect ratio. Default: the SVG's own width. */
  width?: number;
  /** Extra font files (for example a font bundled with the desktop app). */
  fontFiles?: string[];
  fontFamily?: string;
}

type ResvgModule = typeof import('@resvg/resvg-js');
let resvgModule: ResvgModule | undefined;

/** Loaded lazily so that importing the plots module never fails where the native binary is absent. */
function loadResvg(): ResvgModule {
  if (!resvgModule) {
    try {
      resvgModule = require('@resvg/resvg-js') as ResvgModule;
    } catch (err) {
      throw new Error(`PNG rendering unavailable: cannot load @resvg/resvg-js (${(err as Error).message})`);
    }
  }
  return resvgModule;
}

export interface RenderedImage {
  width: number;
  height: number;
  /** Premultiplied RGBA, row-major (for checks that text and lines actually produced ink). */
  pixels: Buffer;
  png: Buffer;
}

/**
 * Renders an SVG document to PNG bytes. Throws an Error (never crashes) on invalid SVG. The raw pixels are not
 * copied out of resvg (a 1200 x 800 preview's are 3.8 MB, held at the peak of a task's memory).
 */
export function svgToPng(svg: string, opts: PngOptions = {}): Buffer {
  return rendered(svg, opts, (img) => img.asPng());
}

/** Renders an SVG document; returns the PNG and the raw pixels. */
export function renderSvg(svg: string, opts: PngOptions = {}): RenderedImage {
  return rendered(svg, opts, (img) => ({ width: img.width, height: img.height, pixels: img.pixels, png: img.asPng() }));
}

type ResvgImage = ReturnType<InstanceType<ResvgModule['Resvg']>['render']>;

/** Renders an SVG document with resvg and returns what `take` reads of the image. */
function rendered<T>(svg: string, opts: PngOptions, take: (img: ResvgImage) => T): T {
  if (typeof svg !== 'string' || !svg.length) throw new TypeError('svgToPng: svg must be a non-empty string');
  if (opts.width !== undefined && !(Number.isInteger(opts.width) && opts.width > 0 && opts.width <= 16384)) {
    throw new RangeError(`svgToPng: width must be an integer in 1..16384, got ${opts.width}`);
  }
  const problems = svgGeometryProblems(svg);
  if (problems.length) throw new Error(`svgToPng: invalid geometry: ${problems.slice(0, 3).join('; ')}`);
  const { Resvg } = loadResvg();
  const family = opts.fontFamily ?? DEFAULT_FONT_FAMILY;
  try {
    const r = new Resvg(svg, {
      background: '#ffffff',
      fitTo: opts.width ? { mode: 'width', value: opts.width } : { mode: 'original' },
      font: {
        loadSystemFonts: true,
        fontFiles: [...findDejaVuFonts(), ...(opts.fontFiles ?? [])],
        defaultFontFamily: family,
        sansSerifFamily: family,
      },
      shapeRendering: 2, // geometricPrecision: anti-aliased lines
      textRendering: 1, // optimizeLegibility
    });
    return take(r.render());
  } catch (err) {
    throw new Error(`svgToPng: ${(err as Error).message ?? String(err)}`);
  }
}

/** Width and height from a PNG's IHDR chunk (bytes 16..23), or undefined when not a PNG. */
export function pngSize(png: Uint8Array): { width: number; height: number } | undefined {
  if (!isPng(png) || png.length < 24) return undefined;
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: dv.getUint32(16), height: dv.getUint32(20) };
}

export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

const NUMERIC_ATTRS = new Set([
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'width',
  'height',
  'stroke-width',
  'font-size',
  'dy',
]);
interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Checks an SVG written by worker/plots/svg.ts before resvg sees it, because resvg aborts the whole
 * process (a Rust panic) on some degenerate geometry: every coordinate must be a finite number, every
 * clip rectangle non-empty, and every line, polyline and polygon under a clip path must touch its clip
 * rectangle. Returns the problems found (empty when the document may be rendered).
 */
export function svgGeometryProblems(svg: string): string[] {
  const problems: string[] = [];
  const clips = new Map<string, Box>();
  for (const m of svg.matchAll(/<clipPath id="([^"]+)">\s*<rect ([^>]*?)\/?>/g)) {
    const a = attrs(m[2]!);
    const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((k) => Number(a[k] ?? '0'));
    if (![x, y, w, h].every(Number.isFinite) || !(w! > 0) || !(h! > 0))
      problems.push(`clip rectangle ${m[1]} is empty or not finite (${m[2]})`);
    else clips.set(m[1]!, { x0: x!, y0: y!, x1: x! + w!, y1: y! + h! });
  }
  const clipStack: (Box | undefined)[] = [];
  for (const m of svg.matchAll(/<(\/?)(g|polyline|polygon|line|rect|circle|text)\b([^>]*)>/g)) {
    const [, close, tag, rest] = m as unknown as [string, string, string, string];
    if (tag === 'g') {
      if (close) clipStack.pop();
      else if (!rest.trimEnd().endsWith('/')) {
        const ref = /clip-path="url\(#([^)"]+)\)"/.exec(rest)?.[1];
        clipStack.push(
          ref !== undefined
            ? (clips.get(ref) ?? { x0: NaN, y0: NaN, x1: NaN, y1: NaN })
            : clipStack[clipStack.length - 1],
        );
        if (ref !== undefined && !clips.has(ref)) problems.push(`clip path ${ref} is not defined`);
      }
      continue;
    }
    if (close) continue;
    const a = attrs(rest);
    for (const [k, v] of Object.entries(a)) {
      if (NUMERIC_ATTRS.has(k) && !Number.isFinite(Number(v)))
        problems.push(`<${tag}> ${k}="${v}" is not a finite number`);
    }
    let pts: number[] = [];
    if (tag === 'polyline' || tag === 'polygon') {
      pts = (a.points ?? '')
        .trim()
        .split(/[\s,]+/)
        .filter((t) => t.length > 0)
        .map(Number);
      if (pts.length < 4 || pts.length % 2 !== 0 || !pts.every(Number.isFinite)) {
        problems.push(`<${tag}> points are malformed or not finite`);
        continue;
      }
    } else if (tag === 'line') pts = [Number(a.x1), Number(a.y1), Number(a.x2), Number(a.y2)];
    else continue;
    const clip = clipStack[clipStack.length - 1];
    if (!clip || !pts.every(Number.isFinite)) continue;
    const xs = pts.filter((_, i) => i % 2 === 0),
      ys = pts.filter((_, i) => i % 2 === 1);
    const half = Number(a['stroke-width'] ?? '1') / 2 || 0.5;
    const box = {
      x0: Math.min(...xs) - half,
      y0: Math.min(...ys) - half,
      x1: Math.max(...xs) + half,
      y1: Math.max(...ys) + half,
    };
    if (box.x1 <= clip.x0 || box.x0 >= clip.x1 || box.y1 <= clip.y0 || box.y0 >= clip.y1) {
      problems.push(`<${tag}> lies entirely outside its clip rectangle`);
    }
  }
  return problems;
}

function attrs(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of s.matchAll(/([\w:-]+)="([^"]*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

/**
 * Where preview PNGs are rendered. Inside a calculation host (worker/host.ts sets
 * PHASEDESK_PREVIEW_PNG=host) the calculation writes only the SVG and the host renders the PNG in a
 * separate renderer process with a time limit (worker/host-png.ts), so a resvg panic or leak reaches
 * neither the calculation nor the service; elsewhere (`phasedesk calc`, tests) it is rendered here.
 */
export function previewPngDeferred(): boolean {
  return process.env.PHASEDESK_PREVIEW_PNG === 'host';
}

/** Writes <name>.png for a preview SVG now, or leaves it to the calculation host (see previewPngDeferred). */
export function writePreviewPng(pngPath: string, svg: string, opts: PngOptions = {}): void {
  if (previewPngDeferred()) return;
  writeFileSync(pngPath, svgToPng(svg, opts));
}

/** Width of preview PNGs in pixels. */
export const PREVIEW_PNG_WIDTH = 1200;
