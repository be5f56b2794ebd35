// The pure parts of figure export and overlays (renderer/src/lib/figure/): overlay CSV files read with their
// header variants and every error naming row and column; points placed on a composition axis; the pHYs chunk of
// a PNG (resolution in pixels per metre, CRC); the PDF's structure, page size, fonts and text.
import { describe, expect, it } from 'vitest';
import { deflateSync, inflateSync } from 'node:zlib';
import {
  compositionHeader,
  MAX_OVERLAY_POINTS,
  parseOverlayCsv,
  temperatureHeader,
} from '../../renderer/src/lib/figure/overlay-csv.js';
import { pointsOnAxis } from '../../renderer/src/lib/figure/overlay-map.js';
import { crc32, pngInfo, withDpi } from '../../renderer/src/lib/figure/png-dpi.js';
import { PdfContent, pdfDocument } from '../../renderer/src/lib/figure/pdf-document.js';
import { pdfString, runsWidth, textRuns } from '../../renderer/src/lib/figure/pdf-text.js';
import { cssColor, pathOutline } from '../../renderer/src/lib/figure/svg-to-pdf.js';

describe('overlay CSV', () => {
  it('reads T/K, x(ZN) and a phase label', () => {
    const p = parseOverlayCsv('T/K,x(ZN),phase\n650,0.1,fcc\n# a comment\n\n700.5,0.25,liquid\n');
    expect(p.tUnit).toBe('K');
    expect(p.composition).toEqual({ basis: 'x', element: 'ZN' });
    expect(p.points).toEqual([
      { T: 650, value: 0.1, label: 'fcc', row: 2 },
      { T: 700.5, value: 0.25, label: 'liquid', row: 5 },
    ]);
  });
  it('reads degrees Celsius and percent: T/C and w(Zn)% give kelvin and fractions', () => {
    const p = parseOverlayCsv('T/C;w(Zn)%\n400;12,5\n');
    expect(p.points[0]!.T).toBeCloseTo(673.15, 10);
    expect(p.points[0]!.value).toBeCloseTo(0.125, 12);
    expect(p.composition).toEqual({ basis: 'w', element: 'ZN' });
  });
  it('recognises the header variants', () => {
    expect(['T', 'T/K', 'T [K]', 'T(K)', 'Temperature'].map(temperatureHeader)).toEqual(Array(5).fill('K'));
    expect(['T/C', 'T [°C]', 'T(°C)', 'T_C', 'temperature (C)'].map(temperatureHeader)).toEqual(Array(5).fill('°C'));
    expect(temperatureHeader('time')).toBeNull();
    expect(compositionHeader('x_Zn')).toEqual({ basis: 'x', element: 'ZN', percent: false });
    expect(compositionHeader('w(Mg) [%]')).toEqual({ basis: 'w', element: 'MG', percent: true });
    expect(compositionHeader('at% Cu')).toEqual({ basis: 'x', element: 'CU', percent: true });
    expect(compositionHeader('wt.%Si')).toEqual({ basis: 'w', element: 'SI', percent: true });
  });
  it('takes another numeric column as the value on a line plot', () => {
    const p = parseOverlayCsv('T/K,f(liquid)\n900,0.5\n');
    expect(p.composition).toBeNull();
    expect(p.valueColumn).toBe('f(liquid)');
  });
  it('names the row and column of a bad cell', () => {
    expect(() => parseOverlayCsv('T/K,x(ZN)\n650,0.1\n700,abc\n')).toThrow(
      'row 3, column "x(ZN)": "abc" is not a number',
    );
    expect(() => parseOverlayCsv('T/K,x(ZN)\n650,1.2\n')).toThrow('row 2, column "x(ZN)": 1.2 is outside 0–1');
    expect(() => parseOverlayCsv('T/C,x(ZN)%\n-300,12\n')).toThrow('row 2, column "T/C": -300 is at or below 0 K');
    expect(() => parseOverlayCsv('T/K,x(ZN)\n,0.2\n')).toThrow('row 2, column "T/K": "" is not a number');
    expect(() => parseOverlayCsv('a,b\n1,2\n')).toThrow('no temperature column');
    expect(() => parseOverlayCsv('T/K\n650\n')).toThrow('no value column');
    expect(() => parseOverlayCsv('T/K,x(ZN)\n')).toThrow('no data rows');
    const many = `T/K,x(ZN)\n${'650,0.1\n'.repeat(MAX_OVERLAY_POINTS + 1)}`;
    expect(() => parseOverlayCsv(many)).toThrow(
      `row ${MAX_OVERLAY_POINTS + 2}: more than ${MAX_OVERLAY_POINTS} points`,
    );
  });
  it('places points on a binary axis, the other component as 1 − x, and refuses a mismatched basis', () => {
    const p = parseOverlayCsv('T/K,x(AL),phase\n650,0.3,fcc\n');
    expect(pointsOnAxis(p, { element: 'ZN', basis: 'x', other: 'AL' })).toEqual({
      points: [{ x: 0.7, T: 650, label: 'fcc' }],
    });
    expect(pointsOnAxis(p, { element: 'ZN', basis: 'w', other: 'AL' })).toEqual({
      problem: 'column "x(AL)" holds mole fractions; the axis is in mass fractions',
    });
    expect(pointsOnAxis(p, { element: 'MG', basis: 'x' })).toEqual({
      problem: 'column "x(AL)" is a fraction of AL; the axis is MG',
    });
  });
});

/** A minimal valid PNG of w × h (one grey row per line, unfiltered). */
function png(w: number, h: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grey
  const raw = Buffer.alloc((w + 1) * h, 0x80);
  for (let y = 0; y < h; y++) raw[y * (w + 1)] = 0;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('PNG resolution', () => {
  it('CRC-32 of "IEND" is the constant every PNG ends with (AE 42 60 82)', () => {
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
  });
  it('writes pHYs after IHDR: 600 dpi is round(600 / 0.0254) = 23622 pixels per metre', () => {
    const out = withDpi(png(5, 3), 600);
    const info = pngInfo(out);
    expect(info.width).toBe(5);
    expect(info.height).toBe(3);
    expect(info.dpiX).toBeCloseTo(23622 * 0.0254, 9);
    expect(Buffer.from(out.subarray(33 + 4, 33 + 8)).toString('latin1')).toBe('pHYs');
    expect(new DataView(out.buffer, out.byteOffset).getUint32(33 + 8)).toBe(23622);
    // written again at another resolution, one pHYs remains
    const again = withDpi(out, 300);
    expect(Buffer.from(again).toString('latin1').split('pHYs').length).toBe(2);
    expect(pngInfo(again).dpiY).toBeCloseTo(11811 * 0.0254, 9);
  });
  it('refuses what is not a PNG', () => {
    expect(() => withDpi(new Uint8Array([1, 2, 3]), 300)).toThrow('not a PNG');
  });
});

describe('PDF', () => {
  it('a page of 600 × 400 px is 450 × 300 pt with its text in Helvetica and Symbol', () => {
    const c = new PdfContent();
    c.text('Temperature [°C] (α-Al)', 10, 20, 12, false);
    c.alpha(0.5, 1);
    const bytes = pdfDocument(c, 450, 300, 'Al-Zn');
    const text = Buffer.from(bytes).toString('latin1');
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text).toContain('/MediaBox [0 0 450 300]');
    expect(text).toContain('/BaseFont /Symbol');
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    // the cross-reference table points at each object
    const xref = Number(/startxref\n(\d+)/.exec(text)![1]);
    expect(text.slice(xref, xref + 4)).toBe('xref');
    const offsets = [...text.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets.length).toBe(8);
    offsets.forEach((o, i) => expect(text.slice(o).startsWith(`${i + 1} 0 obj\n`)).toBe(true));
    const m = /stream\n([\s\S]*?)\nendstream/.exec(text)!;
    const ops = inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1');
    // ° is 260 (octal 0xB0) in WinAnsi; α is "a" in Symbol; parentheses escaped
    expect(ops).toContain('/F1 12 Tf (Temperature [\\260C] \\() Tj /F3 12 Tf (a) Tj /F1 12 Tf (-Al\\)) Tj');
    expect(ops).toContain('/GS0p5_1 gs');
    expect(text).toContain('/GS0p5_1 << /Type /ExtGState /ca 0.5 /CA 1 >>');
  });
  it('measures Helvetica: "Al" at 10 pt is (667 + 222) / 100 pt', () => {
    expect(runsWidth(textRuns('Al', false), 10)).toBeCloseTo(8.89, 12);
    expect(pdfString([0x5c, 0x41, 0xe9])).toBe('(\\\\A\\351)');
  });
  it('draws SVG path data: relative moves and lines after an absolute start, H, V and Z', () => {
    const c = new PdfContent();
    // the cross of a not-converged node (BinaryDiagram): M x,y l7,7 m0,-7 l-7,7
    expect(pathOutline('M10,20l7,7m0,-7l-7,7', c)).toBe(true);
    expect(c.ops).toEqual(['10 20 m', '17 27 l', '17 20 m', '10 27 l']);
    const d = new PdfContent();
    pathOutline('M1,1H5V4h-2v1zL2.5,1e1', d);
    expect(d.ops).toEqual(['1 1 m', '5 1 l', '5 4 l', '3 4 l', '3 5 l', 'h', '2.5 10 l']);
    // implicit lineto after a moveto's first pair
    const e = new PdfContent();
    pathOutline('M0,0 3,4 6,0', e);
    expect(e.ops).toEqual(['0 0 m', '3 4 l', '6 0 l']);
  });
  it('reads computed colours: rgb, rgba and none', () => {
    expect(cssColor('rgb(29, 35, 48)')).toEqual({ rgb: [29, 35, 48], alpha: 1 });
    expect(cssColor('rgba(0, 0, 0, 0.13)')).toEqual({ rgb: [0, 0, 0], alpha: 0.13 });
    expect(cssColor('none')).toBeNull();
    expect(cssColor('url("#grad")')).toBeNull();
  });
});
