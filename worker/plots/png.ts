// SVG -> PNG for the preview files, in Node with @resvg/resvg-js (Rust resvg through N-API; no browser,
// no system Cairo). resvg draws no text without a font: it loads the system fonts and uses DejaVu Sans
// (Debian package fonts-dejavu-core), which the SVG builder names first in its font stack. The DejaVu
// files are also passed explicitly when present, so the choice does not depend on fontconfig order.

import { existsSync } from 'node:fs';
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

/** Renders an SVG document to PNG bytes. Throws an Error (never crashes) on invalid SVG. */
export function svgToPng(svg: string, opts: PngOptions = {}): Buffer {
  return renderSvg(svg, opts).png;
}

/** Renders an SVG document; returns the PNG and the raw pixels. */
export function renderSvg(svg: string, opts: PngOptions = {}): RenderedImage {
  if (typeof svg !== 'string' || !svg.length) throw new TypeError('svgToPng: svg must be a non-empty string');
  if (opts.width !== undefined && !(Number.isInteger(opts.width) && opts.width > 0 && opts.width <= 16384)) {
    throw new RangeError(`svgToPng: width must be an integer in 1..16384, got ${opts.width}`);
  }
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
    const img = r.render();
    return { width: img.width, height: img.height, pixels: img.pixels, png: img.asPng() };
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
