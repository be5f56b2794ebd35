// Preview of a ternary isothermal section: a Gibbs triangle (components[0] bottom left, [1] bottom right, [2] at the
// top) with the two-phase regions (lightly filled, boundaries drawn, a selection of tie-lines), the three-phase
// tie-triangles shaded, region labels and critical points. Mole fractions; the preview always shows the whole
// triangle (a composition window only limits what is mapped).
import { pressureText, systemName } from '../../contract/plots/names.js';
import { escapeXml, fmt, FONT_FAMILY, previewTemperatureUnit } from './svg.js';
import { REGION_FILLS } from '../../contract/plots/palette.js';
import {
  anchoredTextBox,
  dejaVuMeasure,
  placeLabels,
  polylineSegments,
  type Box,
  type LabelRequest,
  type Pt,
  type Segment,
} from '../../contract/plots/labels.js';
import { gibbsPoint, type TernaryIsothermalSectionResult } from '../../contract/results/ternary_isothermal_section.js';

export const WIDTH = 820;
export const HEIGHT = 820;
const SIDE = 640;
const X0 = (WIDTH - SIDE) / 2;
export const Y0 = 690;

type Doc = Pick<
  TernaryIsothermalSectionResult,
  | 'components'
  | 'temperature'
  | 'pressure'
  | 'two_phase_regions'
  | 'three_phase_triangles'
  | 'single_phase_regions'
  | 'critical_points'
  | 'spinodals'
  | 'coherent_spinodals'
> &
  Partial<Pick<TernaryIsothermalSectionResult, 'convergence_warning'>> & {
    config?: unknown;
    self_check?: TernaryIsothermalSectionResult['self_check'];
  };

function polygonArea(p: [number, number][]): number {
  let a = 0;
  for (let i = 0, j = p.length - 1; i < p.length; j = i++) a += (p[j]![0] + p[i]![0]) * (p[j]![1] - p[i]![1]);
  return Math.abs(a) / 2;
}

/** Pixel point of a plane point of the Gibbs triangle. */
export function px(p: [number, number]): [number, number] {
  return [X0 + p[0] * SIDE, Y0 - p[1] * SIDE];
}

/** Pixel point of a composition (mole fractions by component). */
export type At = (c: Record<string, number>) => [number, number];

/** SVG points attribute of pixel points. */
export function pointsAttr(list: [number, number][]): string {
  return list.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(' ');
}

export function pathSegment(p: [number, number], q: [number, number]): string {
  return `M${fmt(p[0])},${fmt(p[1])}L${fmt(q[0])},${fmt(q[1])}`;
}

/** The outline of a two-phase region: one boundary along its tie-lines' first ends, back along their second ends. */
function regionOutline(r: Doc['two_phase_regions'][number], at: At): [number, number][] {
  return [...r.tielines.map((t) => at(t.x[0])), ...[...r.tielines].reverse().map((t) => at(t.x[1]))];
}

/** The opening tag, the white background and the title line with the temperature in both units. */
function header(doc: Doc): string[] {
  const TC = `${(doc.temperature - 273.15).toFixed(1)} °C`,
    TK = `${doc.temperature} K`;
  const tText = previewTemperatureUnit(doc.config) === 'celsius' ? `${TC} (${TK})` : `${TK} (${TC})`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="${escapeXml(FONT_FAMILY)}">`,
    `<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#FFFFFF"/>`,
    `<text x="${WIDTH / 2}" y="28" font-size="17" text-anchor="middle">${escapeXml(`${systemName(doc.components)} isothermal section, T = ${tText}, P = ${pressureText(doc.pressure)}`)}</text>`,
    ...selfCheckWarning(doc),
  ];
}

/**
 * Under the title, in red, when the section's self-check found points the map does not agree with, and when a large
 * share of its seed grid has no equilibrium.
 */
function selfCheckWarning(doc: Doc): string[] {
  const n = doc.self_check?.disagreements.length ?? 0;
  const lines = [
    ...(n
      ? [
          `self-check: ${n} of ${doc.self_check!.points} point equilibria disagree with this map (listed in result.json)`,
        ]
      : []),
    ...(doc.convergence_warning ? [doc.convergence_warning.message] : []),
  ];
  return lines.map(
    (text, k) =>
      `<text x="${WIDTH / 2}" y="${48 + 15 * k}" font-size="12" text-anchor="middle" fill="#B00020">${escapeXml(text)}</text>`,
  );
}

/** The composition grid, every 0.1 of each component. */
export function compositionGrid(comps: string[], at: At): string {
  const grid: string[] = [];
  for (let i = 1; i < 10; i++) {
    const f = i / 10;
    for (let k = 0; k < 3; k++) {
      const a = { [comps[k]!]: f, [comps[(k + 1) % 3]!]: 1 - f };
      const b = { [comps[k]!]: f, [comps[(k + 2) % 3]!]: 1 - f };
      grid.push(pathSegment(at(a), at(b)));
    }
  }
  return `<path d="${grid.join('')}" stroke="#E3E3E3" stroke-width="0.8" fill="none"/>`;
}

/**
 * The phase fields: two-phase regions filled, a selection of their tie-lines (about 12 each), the three-phase
 * triangles shaded, the boundaries drawn over them and the critical points on top.
 */
function phaseFields(doc: Doc, at: At): string[] {
  const out: string[] = [];
  doc.two_phase_regions.forEach((r, i) => {
    if (r.tielines.length < 2) return;
    out.push(
      `<polygon points="${pointsAttr(regionOutline(r, at))}" fill="${REGION_FILLS[i % REGION_FILLS.length]}" fill-opacity="0.8" stroke="none"/>`,
    );
  });
  for (const r of doc.two_phase_regions) {
    const stride = Math.max(1, Math.floor(r.tielines.length / 12));
    const d = r.tielines
      .filter((_, k) => k % stride === 0 || k === r.tielines.length - 1)
      .map((t) => pathSegment(at(t.x[0]), at(t.x[1])))
      .join('');
    if (d) out.push(`<path d="${d}" stroke="#8A8A8A" stroke-width="0.7" fill="none"/>`);
  }
  for (const t of doc.three_phase_triangles) {
    out.push(
      `<polygon points="${pointsAttr(t.corners.map((c) => at(c.x)))}" fill="#BDBDBD" fill-opacity="0.75" stroke="#404040" stroke-width="1"/>`,
    );
  }
  for (const r of doc.two_phase_regions) {
    for (const b of r.boundaries) {
      if (b.x.length < 2) continue;
      out.push(
        `<polyline points="${pointsAttr(b.x.map(at))}" stroke="#1F1F1F" stroke-width="1.6" fill="none" stroke-linejoin="round"/>`,
      );
    }
  }
  // the spinodal of each gap, dashed: one side's compositions along the tie-lines, the other's back
  // (the chemical one long dashes, the coherent one inside it short dashes)
  const spinodals = [
    ...(doc.spinodals ?? []).map((g) => ({ g, dash: '7 4' })),
    ...(doc.coherent_spinodals ?? []).map((g) => ({ g, dash: '2 3' })),
  ];
  for (const { g, dash } of spinodals) {
    const line = [...g.points.map((p) => at(p[0])), ...[...g.points].reverse().map((p) => at(p[1]))];
    out.push(
      `<polyline points="${pointsAttr(line)}" stroke="#B03030" stroke-width="1.6" stroke-dasharray="${dash}" fill="none"/>`,
    );
  }
  for (const c of doc.critical_points) {
    const [x, y] = at(c.x);
    out.push(`<circle cx="${fmt(x)}" cy="${fmt(y)}" r="4" fill="#D55E00" stroke="#000" stroke-width="0.6"/>`);
  }
  return out;
}

/** A text of the triangle's frame: a tick fraction along an edge or a corner's name. */
interface FrameText {
  x: number;
  y: number;
  text: string;
  size: number;
  anchor: 'start' | 'middle' | 'end';
  bold: boolean;
}

/** The fraction ticks along the edges (every 0.2) and the corner names, where the frame writes them. */
function frameTexts(comps: string[], at: At, [A, B, C]: [number, number][]): FrameText[] {
  const out: FrameText[] = [];
  for (let i = 2; i < 10; i += 2) {
    const f = i / 10;
    for (let k = 0; k < 3; k++) {
      // tick label of component k+1 along the edge from k to k+1
      const p = at({ [comps[k]!]: 1 - f, [comps[(k + 1) % 3]!]: f });
      const dx = [0, 14, -14][k]!,
        dy = [18, -4, -4][k]!;
      out.push({ x: p[0] + dx, y: p[1] + dy, text: f.toFixed(1), size: 11, anchor: 'middle', bold: false });
    }
  }
  out.push(
    { x: A![0] - 10, y: A![1] + 22, text: comps[0]!, size: 16, anchor: 'end', bold: true },
    { x: B![0] + 10, y: B![1] + 22, text: comps[1]!, size: 16, anchor: 'start', bold: true },
    { x: C![0], y: C![1] - 12, text: comps[2]!, size: 16, anchor: 'middle', bold: true },
  );
  return out;
}

/**
 * What the field labels keep off: the triangle's edges (a label anchored inside stays inside) and the boxes of the
 * tick fractions and corner names.
 */
export function frameObstacles(
  comps: string[],
  at: At,
  corners: [number, number][],
): { segments: Segment[]; boxes: Box[] } {
  const boxes = frameTexts(comps, at, corners).map((t) => anchoredTextBox(t.text, t.x, t.y, t.anchor, t.size, t.bold));
  return { segments: polylineSegments([...corners, corners[0]!]), boxes };
}

/** The triangle's outline, the fraction ticks along its edges, the corner names and the caption under it. */
export function triangleFrame(
  comps: string[],
  at: At,
  corners: [number, number][],
  caption = 'mole fractions; grey: three-phase tie-triangles, thin lines: tie-lines',
): string[] {
  const [A, B, C] = corners;
  const out = [`<polygon points="${pointsAttr([A!, B!, C!])}" fill="none" stroke="#000" stroke-width="1.6"/>`];
  for (const t of frameTexts(comps, at, corners)) {
    const tick = !t.bold;
    out.push(
      `<text x="${fmt(t.x)}" y="${fmt(t.y)}" font-size="${t.size}"${t.bold ? ' font-weight="bold"' : ''}${t.anchor === 'start' ? '' : ` text-anchor="${t.anchor}"`}${tick ? ' fill="#555"' : ''}>${escapeXml(t.text)}</text>`,
    );
  }
  out.push(
    `<text x="${WIDTH / 2}" y="${fmt(A![1] + 40)}" font-size="12" text-anchor="middle" fill="#555">${escapeXml(caption)}</text>`,
  );
  return out;
}

/** The lines labels must not cross: the two-phase boundaries and the edges of the three-phase triangles. */
function labelObstacles(doc: Doc, at: At): Segment[] {
  const segments: Segment[] = [];
  for (const r of doc.two_phase_regions) for (const b of r.boundaries) segments.push(...polylineSegments(b.x.map(at)));
  for (const t of doc.three_phase_triangles)
    segments.push(...polylineSegments([...t.corners.map((c) => at(c.x)), at(t.corners[0]!.x)]));
  return segments;
}

/**
 * What to label: single-phase fields at their label points, two-phase regions at the middles of their tie-lines,
 * triangles at their centroid. Slivers stay unlabelled. A record's `display` text (the database's display names,
 * worker/results/display-names.ts) is printed where it has one.
 */
function labelRequests(doc: Doc, at: At): LabelRequest[] {
  const requests: LabelRequest[] = [];
  doc.single_phase_regions.forEach((s, i) =>
    requests.push({
      key: `one:${i}`,
      text: s.display ?? s.phase,
      size: 14,
      bold: true,
      anchor: at(s.label_point.x),
      priority: 2,
    }),
  );
  doc.two_phase_regions.forEach((r, i) => {
    if (r.tielines.length < 2) return;
    // slivers (between two nearly equal triangles) stay unlabelled: their label would cover the neighbours'
    if (polygonArea(regionOutline(r, at)) < 1200) return;
    const mids = r.tielines.map((t) => {
      const [p, q] = [at(t.x[0]), at(t.x[1])];
      return [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2] as Pt;
    });
    const m = mids[Math.floor(mids.length / 2)]!;
    requests.push({
      key: `two:${i}`,
      text: r.display ?? (r.labels ?? r.phases).join(' + '),
      size: 11,
      anchor: m,
      inside: mids,
      priority: 1,
      shrink: [0.85],
    });
  });
  doc.three_phase_triangles.forEach((t, i) => {
    const c = t.corners.map((k) => at(k.x));
    const area =
      Math.abs((c[1]![0] - c[0]![0]) * (c[2]![1] - c[0]![1]) - (c[2]![0] - c[0]![0]) * (c[1]![1] - c[0]![1])) / 2;
    if (area < 300) return;
    requests.push({
      key: `tri:${i}`,
      text: t.display ?? (t.labels ?? t.phases).join(' + '),
      size: 10.5,
      anchor: [(c[0]![0] + c[1]![0] + c[2]![0]) / 3, (c[0]![1] + c[1]![1] + c[2]![1]) / 3],
      priority: 0.5,
      shrink: [0.85],
    });
  });
  return requests;
}

/**
 * Labels (contract/plots/labels.ts, as the binary preview) placed inside the triangle's box; none overlaps another
 * or a boundary, and a label that fits nowhere becomes a number at its field, explained in the legend (the texts
 * returned in `dropped`, each with its number or a dash when even the number found no place).
 */
function placeSectionLabels(
  doc: Doc,
  at: At,
  box: { x: number; y: number; width: number; height: number },
  frame: { segments: Segment[]; boxes: Box[] },
) {
  const segments = [...labelObstacles(doc, at), ...frame.segments];
  const first = placeLabels(labelRequests(doc, at), {
    area: box,
    segments,
    obstacles: frame.boxes,
    measure: dejaVuMeasure,
    maxLeader: 60,
  });
  const tags = placeLabels(
    first.dropped.map((r, k) => ({
      key: r.key,
      text: String(k + 1),
      size: 10.5,
      bold: true,
      anchor: r.anchor,
      inside: r.inside,
      priority: 0,
    })),
    {
      area: box,
      segments: [...segments, ...first.placed.flatMap((l) => (l.leader ? [l.leader] : []))],
      obstacles: [...frame.boxes, ...first.placed.map((l) => l.box)],
      measure: dejaVuMeasure,
      maxLeader: 60,
    },
  );
  const out: string[] = ['<g class="labels">'];
  for (const l of [...first.placed, ...tags.placed]) {
    if (l.leader)
      out.push(
        `<line x1="${fmt(l.leader[0])}" y1="${fmt(l.leader[1])}" x2="${fmt(l.leader[2])}" y2="${fmt(l.leader[3])}" stroke="#667085" stroke-width="0.8"/>`,
      );
    const color = l.key.startsWith('one:') ? '#000' : '#303030';
    out.push(
      `<text x="${fmt(l.x)}" y="${fmt(l.baseline)}" font-size="${l.size}"${l.bold ? ' font-weight="bold"' : ''} text-anchor="middle" fill="${color}" stroke="#FFFFFF" stroke-width="3" paint-order="stroke">${escapeXml(l.text)}</text>`,
    );
  }
  out.push('</g>');
  const dropped = first.dropped.map((r, k) => `${tags.placed.some((t) => t.key === r.key) ? k + 1 : '–'} ${r.text}`);
  return { out, dropped };
}

/** The legend of the numbered labels, wrapped into lines of the picture's width. */
export function legendLines(items: string[]): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line && (line.length + item.length + 3) * 6.2 > WIDTH - 40) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line};  ${item}` : item;
  }
  if (line) lines.push(line);
  return lines;
}

export function ternarySectionChart(doc: Doc): string {
  const comps = doc.components;
  const at: At = (c) => px(gibbsPoint(c, comps));
  const corners = [0, 1, 2].map((k) => at({ [comps[k]!]: 1 }));
  const [A, , C] = corners as [[number, number], [number, number], [number, number]];
  const out = [
    ...header(doc),
    compositionGrid(comps, at),
    ...phaseFields(doc, at),
    ...triangleFrame(comps, at, corners),
  ];
  const box = { x: X0 - 10, y: C[1] - 4, width: SIDE + 20, height: A[1] - C[1] + 8 };
  const labels = placeSectionLabels(doc, at, box, frameObstacles(comps, at, corners));
  out.push(...labels.out);
  // legend lines under the triangle; they make the picture taller
  return closeWithRows(out, legendLines(labels.dropped), A[1] + 60);
}

/**
 * Rows of text under the triangle from y = top (a legend, a table), the picture made as tall as they need; the SVG
 * document closed. `out` starts with the opening tag and the background of header().
 */
export function closeWithRows(out: string[], rows: string[], top: number): string {
  rows.forEach((t, k) =>
    out.push(`<text x="20" y="${fmt(top + k * 14)}" font-size="10.5" fill="#303030">${escapeXml(t)}</text>`),
  );
  out.push('</svg>');
  const height = Math.max(HEIGHT, top + rows.length * 14 + 10);
  out[0] = out[0]!.replace(
    `height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}"`,
    `height="${height}" viewBox="0 0 ${WIDTH} ${height}"`,
  );
  out[1] = `<rect x="0" y="0" width="${WIDTH}" height="${height}" fill="#FFFFFF"/>`;
  return out.join('\n');
}
