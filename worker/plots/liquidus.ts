// Preview of a liquidus projection: the Gibbs triangle of the three corners with the liquidus isotherms (thin), the
// valleys (thick, an arrow on each pointing to falling temperature), the invariant points marked and numbered by
// class (E1, U2, P3), the primary fields labelled by their solid, and the table of invariant reactions under it.
import { pressureText, systemName } from '../../contract/plots/names.js';
import {
  dejaVuMeasure,
  placeLabels,
  placePointTags,
  pointTagObstacles,
  polylineSegments,
  type Box,
  type PointTag,
  type Segment,
} from '../../contract/plots/labels.js';
import {
  cornerPoint,
  invariantTags,
  type LiquidusProjectionDocument,
} from '../../contract/results/liquidus_projection.js';
import { escapeXml, fmt, FONT_FAMILY, formatTemperature, previewTemperatureUnit } from './svg.js';
import {
  closeWithRows,
  compositionGrid,
  frameObstacles,
  HEIGHT,
  legendLines,
  pathSegment,
  px,
  triangleFrame,
  WIDTH,
  type At,
} from './ternary.js';

type Pt = [number, number];

const VALLEY = '#1F4E9C',
  ISOTHERM = '#9AA5B1',
  WARNING = '#B00020';

function header(doc: LiquidusProjectionDocument, tdbName: string): string[] {
  const held = Object.entries(doc.fixed_compositions);
  const section = held.length ? ` + ${held.map(([el, x]) => `${x} ${el}`).join(', ')} (mole fractions)` : '';
  const lines = [
    ...(doc.convergence_warning ? [doc.convergence_warning.message] : []),
    ...doc.notes.filter((n) => /four-phase|no located/.test(n)),
  ];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="${escapeXml(FONT_FAMILY)}">`,
    `<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#FFFFFF"/>`,
    `<text x="${WIDTH / 2}" y="28" font-size="17" text-anchor="middle">${escapeXml(`${systemName(doc.corners)}${section} liquidus projection, P = ${pressureText(doc.pressure)}, ${tdbName}`)}</text>`,
    ...lines.map(
      (t, k) =>
        `<text x="${WIDTH / 2}" y="${48 + 15 * k}" font-size="12" text-anchor="middle" fill="${WARNING}">${escapeXml(t)}</text>`,
    ),
  ];
}

/** An arrowhead at the middle of the valley's middle segment, pointing to the lower temperature. */
function arrow(p: Pt, q: Pt): string {
  const [mx, my] = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
  const len = Math.hypot(q[0] - p[0], q[1] - p[1]) || 1;
  const [ux, uy] = [(q[0] - p[0]) / len, (q[1] - p[1]) / len];
  const tip: Pt = [mx + 5 * ux, my + 5 * uy];
  const l: Pt = [mx - 5 * ux - 4 * uy, my - 5 * uy + 4 * ux];
  const r: Pt = [mx - 5 * ux + 4 * uy, my - 5 * uy - 4 * ux];
  return `<polygon points="${[tip, l, r].map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(' ')}" fill="${VALLEY}"/>`;
}

function lines(doc: LiquidusProjectionDocument, at: At): string[] {
  const out: string[] = [];
  const iso = doc.isotherms.flatMap((l) => l.segments.map(([p, q]) => pathSegment(at(p), at(q))));
  if (iso.length) out.push(`<path d="${iso.join('')}" stroke="${ISOTHERM}" stroke-width="0.8" fill="none"/>`);
  for (const v of doc.valleys) {
    const pts = v.points.map((p) => at(p.x));
    out.push(
      `<polyline points="${pts.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(' ')}" stroke="${VALLEY}" stroke-width="1.8" fill="none"/>`,
    );
    if (pts.length < 2) continue;
    const k = Math.floor((pts.length - 2) / 2);
    const [a, b] = [v.points[k]!, v.points[k + 1]!];
    out.push(a.T >= b.T ? arrow(pts[k]!, pts[k + 1]!) : arrow(pts[k + 1]!, pts[k]!));
  }
  return out;
}

/** The invariant points' tags beside each point, clear of the other points and tags. */
function pointTags(doc: LiquidusProjectionDocument, at: At): PointTag[] {
  return placePointTags(
    doc.invariants.map((v) => at(v.x)),
    invariantTags(doc),
    10,
  );
}

function invariantMarks(doc: LiquidusProjectionDocument, at: At, placed: PointTag[]): string[] {
  const tags = invariantTags(doc);
  return doc.invariants.flatMap((v, k) => {
    const [x, y] = at(v.x);
    const fill = v.check.certified ? '#000' : WARNING;
    const t = placed[k]!;
    return [
      `<circle cx="${fmt(x)}" cy="${fmt(y)}" r="3.5" fill="${fill}"/>`,
      `<text x="${fmt(t.x)}" y="${fmt(t.y)}" font-size="10" text-anchor="${t.anchor}" fill="${fill}" stroke="#FFFFFF" stroke-width="2.5" paint-order="stroke">${tags[k]}</text>`,
    ];
  });
}

/** The primary fields' labels, kept off the valleys and each other (a label that does not fit is numbered). */
function fieldLabels(
  doc: LiquidusProjectionDocument,
  at: At,
  box: { x: number; y: number; width: number; height: number },
  frame: { segments: Segment[]; boxes: Box[] },
  tags: PointTag[],
) {
  const segments: Segment[] = [
    ...doc.valleys.flatMap((v) => polylineSegments(v.points.map((p) => at(p.x)))),
    ...frame.segments,
  ];
  const placed = placeLabels(
    doc.primary_fields.map((f, i) => ({
      key: `field:${i}`,
      text: f.display ?? f.label,
      size: 12,
      bold: true,
      anchor: at(f.at.x),
      priority: f.grid_nodes,
      shrink: [0.85],
    })),
    {
      area: box,
      segments,
      obstacles: [
        ...frame.boxes,
        ...pointTagObstacles(
          doc.invariants.map((v) => at(v.x)),
          tags,
        ),
      ],
      measure: dejaVuMeasure,
      maxLeader: 50,
    },
  );
  const texts = placed.placed.flatMap((l) => [
    ...(l.leader
      ? [
          `<line x1="${fmt(l.leader[0])}" y1="${fmt(l.leader[1])}" x2="${fmt(l.leader[2])}" y2="${fmt(l.leader[3])}" stroke="#667085" stroke-width="0.8"/>`,
        ]
      : []),
    `<text x="${fmt(l.x)}" y="${fmt(l.baseline)}" font-size="${l.size}" font-weight="bold" text-anchor="middle" stroke="#FFFFFF" stroke-width="3" paint-order="stroke">${escapeXml(l.text)}</text>`,
  ]);
  return { out: ['<g class="labels">', ...texts, '</g>'], dropped: placed.dropped.map((r) => r.text) };
}

export function liquidusProjectionChart(doc: LiquidusProjectionDocument, tdbName: string): string {
  const comps = doc.corners;
  const at: At = (c) => px(cornerPoint(c, comps));
  const corners = [0, 1, 2].map((k) => at({ [comps[k]!]: 1 }));
  const [A, , C] = corners as [Pt, Pt, Pt];
  const unit = previewTemperatureUnit(doc.config);
  const caption = `mole fractions${Object.keys(doc.fixed_compositions).length ? ' of the corners' : ''}; thick: valleys (arrows to falling T), thin: liquidus isotherms every ${doc.isotherm_step} K`;
  const out = [
    ...header(doc, tdbName),
    compositionGrid(comps, at),
    ...lines(doc, at),
    ...triangleFrame(comps, at, corners, caption),
  ];
  const placedTags = pointTags(doc, at);
  const labels = fieldLabels(
    doc,
    at,
    { x: A[0] - 10, y: C[1] - 4, width: corners[1]![0] - A[0] + 20, height: A[1] - C[1] + 8 },
    frameObstacles(comps, at, corners),
    placedTags,
  );
  out.push(...labels.out, ...invariantMarks(doc, at, placedTags));
  const tags = invariantTags(doc);
  const table = doc.invariants.map(
    (v, k) =>
      `${tags[k]}  ${formatTemperature(v.T, unit)}: ${v.display_reaction ?? v.reaction}${v.check.certified ? '' : '  (four-phase check failed)'}`,
  );
  const rows = [...table, ...legendLines(labels.dropped.map((t) => `unlabelled field: ${t}`))];
  return closeWithRows(out, rows, A[1] + 62);
}
