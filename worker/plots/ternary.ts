// Preview of a ternary isothermal section: a Gibbs triangle (components[0] bottom left, [1] bottom right, [2] at the
// top) with the two-phase regions (lightly filled, boundaries drawn, a selection of tie-lines), the three-phase
// tie-triangles shaded, region labels and critical points. Mole fractions; the preview always shows the whole
// triangle (a composition window only limits what is mapped).
import { escapeXml, fmt, FONT_FAMILY, previewTemperatureUnit } from './svg.js';
import { REGION_FILLS } from '../../contract/plots/palette.js';
import {
  dejaVuMeasure,
  placeLabels,
  polylineSegments,
  type LabelRequest,
  type Pt,
  type Segment,
} from '../../contract/plots/labels.js';
import { gibbsPoint, type TernaryIsothermalSectionResult } from '../../contract/results/ternary_isothermal_section.js';

const WIDTH = 820;
const HEIGHT = 820;
const SIDE = 640;
const X0 = (WIDTH - SIDE) / 2;
const Y0 = 690;

type Doc = Pick<
  TernaryIsothermalSectionResult,
  | 'components'
  | 'temperature'
  | 'pressure'
  | 'two_phase_regions'
  | 'three_phase_triangles'
  | 'single_phase_regions'
  | 'critical_points'
> & { config?: unknown };

function polygonArea(p: [number, number][]): number {
  let a = 0;
  for (let i = 0, j = p.length - 1; i < p.length; j = i++) a += (p[j]![0] + p[i]![0]) * (p[j]![1] - p[i]![1]);
  return Math.abs(a) / 2;
}

/** Pixel point of a plane point of the Gibbs triangle. */
function px(p: [number, number]): [number, number] {
  return [X0 + p[0] * SIDE, Y0 - p[1] * SIDE];
}

export function ternarySectionChart(doc: Doc): string {
  const comps = doc.components;
  const at = (c: Record<string, number>) => px(gibbsPoint(c, comps));
  const pts = (list: [number, number][]) => list.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(' ');
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="${escapeXml(FONT_FAMILY)}">`,
  );
  out.push(`<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#FFFFFF"/>`);
  const TC = `${(doc.temperature - 273.15).toFixed(1)} °C`,
    TK = `${doc.temperature} K`;
  const tText = previewTemperatureUnit(doc.config) === 'celsius' ? `${TC} (${TK})` : `${TK} (${TC})`;
  out.push(
    `<text x="${WIDTH / 2}" y="28" font-size="17" text-anchor="middle">${escapeXml(`${comps.join('-')} isothermal section, T = ${tText}, P = ${doc.pressure} Pa`)}</text>`,
  );

  const corner = (k: number): [number, number] => px(gibbsPoint({ [comps[k]!]: 1 }, comps));
  const [A, B, C] = [corner(0), corner(1), corner(2)];
  // composition grid every 0.1
  const grid: string[] = [];
  for (let i = 1; i < 10; i++) {
    const f = i / 10;
    for (let k = 0; k < 3; k++) {
      const a = { [comps[k]!]: f, [comps[(k + 1) % 3]!]: 1 - f };
      const b = { [comps[k]!]: f, [comps[(k + 2) % 3]!]: 1 - f };
      const [p, q] = [at(a), at(b)];
      grid.push(`M${fmt(p[0])},${fmt(p[1])}L${fmt(q[0])},${fmt(q[1])}`);
    }
  }
  out.push(`<path d="${grid.join('')}" stroke="#E3E3E3" stroke-width="0.8" fill="none"/>`);

  // two-phase regions: fill between the boundaries, tie-lines, boundaries
  doc.two_phase_regions.forEach((r, i) => {
    if (r.tielines.length < 2) return;
    const poly = [...r.tielines.map((t) => at(t.x[0])), ...[...r.tielines].reverse().map((t) => at(t.x[1]))];
    out.push(
      `<polygon points="${pts(poly)}" fill="${REGION_FILLS[i % REGION_FILLS.length]}" fill-opacity="0.8" stroke="none"/>`,
    );
  });
  for (const r of doc.two_phase_regions) {
    const stride = Math.max(1, Math.floor(r.tielines.length / 12));
    const d = r.tielines
      .filter((_, k) => k % stride === 0 || k === r.tielines.length - 1)
      .map((t) => {
        const [p, q] = [at(t.x[0]), at(t.x[1])];
        return `M${fmt(p[0])},${fmt(p[1])}L${fmt(q[0])},${fmt(q[1])}`;
      })
      .join('');
    if (d) out.push(`<path d="${d}" stroke="#8A8A8A" stroke-width="0.7" fill="none"/>`);
  }
  for (const t of doc.three_phase_triangles) {
    out.push(
      `<polygon points="${pts(t.corners.map((c) => at(c.x)))}" fill="#BDBDBD" fill-opacity="0.75" stroke="#404040" stroke-width="1"/>`,
    );
  }
  for (const r of doc.two_phase_regions) {
    for (const b of r.boundaries) {
      if (b.x.length < 2) continue;
      out.push(
        `<polyline points="${pts(b.x.map(at))}" stroke="#1F1F1F" stroke-width="1.6" fill="none" stroke-linejoin="round"/>`,
      );
    }
  }
  for (const c of doc.critical_points) {
    const [x, y] = at(c.x);
    out.push(`<circle cx="${fmt(x)}" cy="${fmt(y)}" r="4" fill="#D55E00" stroke="#000" stroke-width="0.6"/>`);
  }

  // triangle outline, ticks and corner names
  out.push(`<polygon points="${pts([A, B, C])}" fill="none" stroke="#000" stroke-width="1.6"/>`);
  for (let i = 2; i < 10; i += 2) {
    const f = i / 10;
    for (let k = 0; k < 3; k++) {
      // tick label of component k+1 along the edge from k to k+1
      const p = at({ [comps[k]!]: 1 - f, [comps[(k + 1) % 3]!]: f });
      const dx = [0, 14, -14][k]!,
        dy = [18, -4, -4][k]!;
      out.push(
        `<text x="${fmt(p[0] + dx)}" y="${fmt(p[1] + dy)}" font-size="11" text-anchor="middle" fill="#555">${f.toFixed(1)}</text>`,
      );
    }
  }
  out.push(
    `<text x="${fmt(A[0] - 10)}" y="${fmt(A[1] + 22)}" font-size="16" font-weight="bold" text-anchor="end">${escapeXml(comps[0])}</text>`,
  );
  out.push(
    `<text x="${fmt(B[0] + 10)}" y="${fmt(B[1] + 22)}" font-size="16" font-weight="bold">${escapeXml(comps[1])}</text>`,
  );
  out.push(
    `<text x="${fmt(C[0])}" y="${fmt(C[1] - 12)}" font-size="16" font-weight="bold" text-anchor="middle">${escapeXml(comps[2])}</text>`,
  );
  out.push(
    `<text x="${WIDTH / 2}" y="${fmt(A[1] + 40)}" font-size="12" text-anchor="middle" fill="#555">mole fractions; grey: three-phase tie-triangles, thin lines: tie-lines</text>`,
  );

  // labels (contract/plots/labels.ts, as the binary preview): single-phase fields at their label points, two-phase
  // regions at the middles of their tie-lines, triangles at their centroid; none overlaps another or a boundary, and
  // a label that fits nowhere becomes a number at its field, explained under the triangle
  const segments: Segment[] = [];
  for (const r of doc.two_phase_regions) for (const b of r.boundaries) segments.push(...polylineSegments(b.x.map(at)));
  for (const t of doc.three_phase_triangles)
    segments.push(...polylineSegments([...t.corners.map((c) => at(c.x)), at(t.corners[0]!.x)]));
  const requests: LabelRequest[] = [];
  doc.single_phase_regions.forEach((s, i) =>
    requests.push({ key: `one:${i}`, text: s.phase, size: 14, bold: true, anchor: at(s.label_point.x), priority: 2 }),
  );
  doc.two_phase_regions.forEach((r, i) => {
    if (r.tielines.length < 2) return;
    // slivers (between two nearly equal triangles) stay unlabelled: their label would cover the neighbours'
    if (polygonArea([...r.tielines.map((k) => at(k.x[0])), ...[...r.tielines].reverse().map((k) => at(k.x[1]))]) < 1200)
      return;
    const mids = r.tielines.map((t) => {
      const [p, q] = [at(t.x[0]), at(t.x[1])];
      return [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2] as Pt;
    });
    const m = mids[Math.floor(mids.length / 2)]!;
    requests.push({
      key: `two:${i}`,
      text: (r.labels ?? r.phases).join(' + '),
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
      text: (t.labels ?? t.phases).join(' + '),
      size: 10.5,
      anchor: [(c[0]![0] + c[1]![0] + c[2]![0]) / 3, (c[0]![1] + c[1]![1] + c[2]![1]) / 3],
      priority: 0.5,
      shrink: [0.85],
    });
  });
  const area = { x: X0 - 10, y: C[1] - 4, width: SIDE + 20, height: A[1] - C[1] + 8 };
  const first = placeLabels(requests, { area, segments, measure: dejaVuMeasure, maxLeader: 60 });
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
      area,
      segments: [...segments, ...first.placed.flatMap((l) => (l.leader ? [l.leader] : []))],
      obstacles: first.placed.map((l) => l.box),
      measure: dejaVuMeasure,
      maxLeader: 60,
    },
  );
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
  let legendLines = 0;
  if (first.dropped.length) {
    const legend = first.dropped.map((r, k) => `${tags.placed.some((t) => t.key === r.key) ? k + 1 : '–'} ${r.text}`);
    // legend lines under the triangle, as many as fit
    const lines: string[] = [];
    let line = '';
    for (const item of legend) {
      if (line && (line.length + item.length + 3) * 6.2 > WIDTH - 40) {
        lines.push(line);
        line = '';
      }
      line = line ? `${line};  ${item}` : item;
    }
    if (line) lines.push(line);
    lines.forEach((t, k) =>
      out.push(`<text x="20" y="${fmt(A[1] + 60 + k * 14)}" font-size="10.5" fill="#303030">${escapeXml(t)}</text>`),
    );
    legendLines = lines.length;
  }
  out.push('</svg>');
  // the legend of numbered labels makes the picture taller
  const height = Math.max(HEIGHT, Y0 + 60 + legendLines * 14 + 10);
  out[0] = out[0]!.replace(
    `height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}"`,
    `height="${height}" viewBox="0 0 ${WIDTH} ${height}"`,
  );
  out[1] = `<rect x="0" y="0" width="${WIDTH}" height="${height}" fill="#FFFFFF"/>`;
  return out.join('\n');
}
