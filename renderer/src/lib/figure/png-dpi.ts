// The resolution of a PNG: its pHYs chunk (PNG specification, 2nd edition, W3C 2003, section 11.3.5.3) holds the
// pixels per metre along x and y with unit 1 (metre). A canvas writes no pHYs, so a figure exported at 600 dpi would
// open at 96 dpi in a word processor; the chunk is written right after IHDR (it must precede IDAT).

const INCH_M = 0.0254; // 1 inch = 0.0254 m (exact, international inch)
const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

let crcTable: Uint32Array | null = null;
/** CRC-32 of the chunk type and data (PNG specification, annex D: polynomial 0xEDB88320, reflected). */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

interface Chunk {
  type: string;
  /** offset of the chunk's length field */
  start: number;
  /** offset just past its CRC */
  end: number;
  data: Uint8Array;
}

function chunksOf(png: Uint8Array): Chunk[] {
  if (png.length < 8 || SIGNATURE.some((b, i) => png[i] !== b)) throw new Error('not a PNG file (no signature)');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out: Chunk[] = [];
  for (let p = 8; p + 12 <= png.length;) {
    const len = view.getUint32(p);
    const type = String.fromCharCode(...png.subarray(p + 4, p + 8));
    out.push({ type, start: p, end: p + 12 + len, data: png.subarray(p + 8, p + 8 + len) });
    p += 12 + len;
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** The PNG with a pHYs chunk saying `dpi` (replacing any it had). */
export function withDpi(png: Uint8Array, dpi: number): Uint8Array {
  const chunks = chunksOf(png);
  if (chunks[0]?.type !== 'IHDR') throw new Error('not a PNG file (IHDR is not the first chunk)');
  const ppm = Math.round(dpi / INCH_M);
  const data = new Uint8Array(9);
  const view = new DataView(data.buffer);
  view.setUint32(0, ppm);
  view.setUint32(4, ppm);
  data[8] = 1; // unit: metre
  const parts: Uint8Array[] = [png.subarray(0, chunks[0].end), chunk('pHYs', data)];
  for (const c of chunks.slice(1)) if (c.type !== 'pHYs') parts.push(png.subarray(c.start, c.end));
  return concatBytes(parts);
}

/** The byte arrays one after the other. */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Width and height in pixels and the resolution in dots per inch (null without a pHYs in metres). */
export function pngInfo(png: Uint8Array): { width: number; height: number; dpiX: number | null; dpiY: number | null } {
  const chunks = chunksOf(png);
  const ihdr = chunks[0];
  if (ihdr?.type !== 'IHDR') throw new Error('not a PNG file (IHDR is not the first chunk)');
  const h = new DataView(ihdr.data.buffer, ihdr.data.byteOffset, ihdr.data.byteLength);
  const phys = chunks.find((c) => c.type === 'pHYs');
  let dpiX: number | null = null;
  let dpiY: number | null = null;
  if (phys && phys.data[8] === 1) {
    const p = new DataView(phys.data.buffer, phys.data.byteOffset, phys.data.byteLength);
    dpiX = p.getUint32(0) * INCH_M;
    dpiY = p.getUint32(4) * INCH_M;
  }
  return { width: h.getUint32(0), height: h.getUint32(4), dpiX, dpiY };
}
