import { describe, expect, it } from 'vitest';
import { phaseFractionChart } from '../../worker/plots/charts.js';
import { examplePhaseFraction } from './fixtures.js';
import { findDejaVuFonts, isPng, pngSize, renderSvg, svgToPng } from '../../worker/plots/png.js';

/** Count of pixels darker than mid-grey in premultiplied RGBA over a white background. */
function darkPixels(pixels: Buffer): number {
  let n = 0;
  for (let i = 0; i < pixels.length; i += 4)
    if (pixels[i] + pixels[i + 1] + pixels[i + 2] < 384 && pixels[i + 3] > 0) n++;
  return n;
}

describe('svgToPng', () => {
  it('has the PNG signature and the requested width, keeping the aspect ratio', () => {
    const svg = phaseFractionChart(examplePhaseFraction());
    const png = svgToPng(svg, { width: 1200 });
    expect(isPng(png)).toBe(true);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(pngSize(png)).toEqual({ width: 1200, height: 800 });
    const small = svgToPng(svg, { width: 600 });
    expect(pngSize(small)).toEqual({ width: 600, height: 400 });
  });

  it('renders text (a font is available: Debian package fonts-dejavu-core)', () => {
    // A text-only document: if no font were found, resvg would silently draw nothing.
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><rect width="400" height="100" fill="#ffffff"/>' +
      `<text x="10" y="60" font-size="40" font-family="'DejaVu Sans', sans-serif">Phase fraction</text></svg>`;
    const img = renderSvg(svg);
    expect(img.width).toBe(400);
    expect(
      darkPixels(img.pixels),
      `no text was drawn; fonts found: ${JSON.stringify(findDejaVuFonts())}`,
    ).toBeGreaterThan(500);
  });

  it('is deterministic', () => {
    const svg = phaseFractionChart(examplePhaseFraction());
    expect(svgToPng(svg).equals(svgToPng(svg))).toBe(true);
  });

  it('throws an Error on bad input instead of crashing', () => {
    expect(() => svgToPng('not svg at all')).toThrow(Error);
    expect(() => svgToPng('')).toThrow(TypeError);
    expect(() => svgToPng('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>', { width: -5 })).toThrow(
      RangeError,
    );
    expect(pngSize(Buffer.from('GIF89a'))).toBeUndefined();
  });
});
