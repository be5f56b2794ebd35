// Experimental points to draw over a figure, read from a CSV file: a temperature column, a value column (a
// composition x(EL) / w(EL), in fractions or percent, or any other number for a line plot) and an optional label.
// Headers are matched loosely (T/K, T [°C], x(Zn), w(Zn)%, at% Zn, phase) because files come from papers and
// spreadsheets; every error names the row and the column so the file can be fixed.

/** One measured point: T in kelvin; value a fraction (0..1) when the column is a composition. */
export interface OverlayPoint {
  T: number;
  value: number;
  label: string | null;
  /** 1-based line of the file (the header is line 1) */
  row: number;
}

export interface OverlayComposition {
  /** mole (x) or mass (w) fraction */
  basis: 'x' | 'w';
  /** the element symbol as written, upper-cased (ZN) */
  element: string;
}

export interface OverlayPoints {
  points: OverlayPoint[];
  /** the header of the temperature column as written, and its unit */
  tColumn: string;
  tUnit: 'K' | '°C';
  valueColumn: string;
  /** set when the value column is a composition (values then fractions) */
  composition: OverlayComposition | null;
}

/** A file that cannot be read as overlay points; the message names the row and the column. */
export class OverlayCsvError extends Error {}

/** At most this many points: more would hide the diagram under the markers. */
export const MAX_OVERLAY_POINTS = 5000;

const C_OFFSET = 273.15; // K = °C + 273.15 (ITS-90 definition of the Celsius scale)

/** The temperature unit of a header such as T, T/K, T [K], T(°C), T_C, Temperature (C); null: not a T column. */
export function temperatureHeader(h: string): 'K' | '°C' | null {
  const m = /^(t|temp|temperature)\s*(?:[/([_,]|\s)?\s*(k|°c|ºc|c|degc|deg c|celsius|kelvin)?\s*[)\]]?$/i.exec(
    h.trim(),
  );
  if (!m) return null;
  const u = (m[2] ?? 'k').toLowerCase();
  return u === 'k' || u === 'kelvin' ? 'K' : '°C';
}

/**
 * The composition a header names: x(ZN), x_Zn, w(Zn)%, w(Zn) [%], x(Zn)/%, at% Zn, at.% Zn, wt%Zn, mol% Zn,
 * mass% (Zn); percent when the header says so. Null: not a composition header.
 */
export function compositionHeader(h: string): (OverlayComposition & { percent: boolean }) | null {
  const s = h.trim();
  const fraction = /^([xw])\s*[([_]\s*([A-Za-z]{1,2})\s*[)\]]?\s*(\/\s*%|\[%\]|\(%\)|%|_?pct)?$/i.exec(s);
  if (fraction) {
    return {
      basis: fraction[1]!.toLowerCase() as 'x' | 'w',
      element: fraction[2]!.toUpperCase(),
      percent: !!fraction[3],
    };
  }
  const pct = /^(at|wt|mol|mass)\.?\s*%\s*[(_]?\s*([A-Za-z]{1,2})\s*\)?$/i.exec(s);
  if (pct) {
    const basis = /^(wt|mass)$/i.test(pct[1]!) ? 'w' : 'x';
    return { basis, element: pct[2]!.toUpperCase(), percent: true };
  }
  return null;
}

const LABEL_HEADER = /^(phase|phases|label|name)$/i;

/** The fields of one CSV line: separator `sep`, double quotes around a field that holds the separator. */
export function splitCsvLine(line: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === sep) {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  out.push(cur.trim());
  return out;
}

/** The separator of a header line: tab, then semicolon (files written with a decimal comma), else comma. */
function separatorOf(header: string): string {
  if (header.includes('\t')) return '\t';
  if (header.includes(';')) return ';';
  return ',';
}

interface Columns {
  t: number;
  tUnit: 'K' | '°C';
  value: number;
  composition: (OverlayComposition & { percent: boolean }) | null;
  label: number;
}

/** Finds the temperature, value and label columns of a header; throws naming what is missing. */
function columnsOf(header: string[]): Columns {
  const t = header.findIndex((h) => temperatureHeader(h) !== null);
  if (t < 0)
    throw new OverlayCsvError(
      `no temperature column: the header needs one named T/K or T/C (found ${header.map((h) => `"${h}"`).join(', ')})`,
    );
  const label = header.findIndex((h) => LABEL_HEADER.test(h.trim()));
  const comp = header.findIndex((h, i) => i !== t && compositionHeader(h) !== null);
  const value = comp >= 0 ? comp : header.findIndex((h, i) => i !== t && i !== label && h.trim() !== '');
  if (value < 0)
    throw new OverlayCsvError(
      `no value column beside "${header[t]}": the header needs a composition column such as x(ZN) or w(ZN)%`,
    );
  return {
    t,
    tUnit: temperatureHeader(header[t]!)!,
    value,
    composition: comp >= 0 ? compositionHeader(header[comp]!) : null,
    label,
  };
}

/** A number of a cell, with a decimal comma accepted when the separator is not a comma. */
function numberOf(cell: string, sep: string): number {
  const s = sep === ',' ? cell : cell.replace(',', '.');
  return s.trim() === '' ? NaN : Number(s);
}

/** One data line as a point, or an error naming its row and column. */
function pointOf(cells: string[], row: number, header: string[], c: Columns, sep: string): OverlayPoint {
  const cellNumber = (i: number): number => {
    const v = numberOf(cells[i] ?? '', sep);
    if (!Number.isFinite(v))
      throw new OverlayCsvError(`row ${row}, column "${header[i]}": "${cells[i] ?? ''}" is not a number`);
    return v;
  };
  const T = c.tUnit === 'K' ? cellNumber(c.t) : cellNumber(c.t) + C_OFFSET;
  if (T <= 0) throw new OverlayCsvError(`row ${row}, column "${header[c.t]}": ${cells[c.t]} is at or below 0 K`);
  let value = cellNumber(c.value);
  if (c.composition) {
    const top = c.composition.percent ? 100 : 1;
    if (value < 0 || value > top)
      throw new OverlayCsvError(`row ${row}, column "${header[c.value]}": ${cells[c.value]} is outside 0–${top}`);
    value /= top;
  }
  const label = c.label >= 0 ? (cells[c.label] ?? '').trim() || null : null;
  return { T, value, label, row };
}

/**
 * Reads overlay points from CSV text: the first line that is neither blank nor a # comment is the header; blank
 * and # lines are skipped. Throws OverlayCsvError naming the row (1-based line of the file) and column.
 */
export function parseOverlayCsv(text: string): OverlayPoints {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const isData = (l: string) => l.trim() !== '' && !l.trimStart().startsWith('#');
  const h = lines.findIndex(isData);
  if (h < 0) throw new OverlayCsvError('the file is empty: a header line and at least one row are needed');
  const sep = separatorOf(lines[h]!);
  const header = splitCsvLine(lines[h]!, sep);
  const c = columnsOf(header);
  const points: OverlayPoint[] = [];
  for (let i = h + 1; i < lines.length; i++) {
    if (!isData(lines[i]!)) continue;
    if (points.length >= MAX_OVERLAY_POINTS)
      throw new OverlayCsvError(`row ${i + 1}: more than ${MAX_OVERLAY_POINTS} points`);
    points.push(pointOf(splitCsvLine(lines[i]!, sep), i + 1, header, c, sep));
  }
  if (!points.length) throw new OverlayCsvError(`no data rows below the header (line ${h + 1})`);
  return {
    points,
    tColumn: header[c.t]!,
    tUnit: c.tUnit,
    valueColumn: header[c.value]!,
    composition: c.composition ? { basis: c.composition.basis, element: c.composition.element } : null,
  };
}
