// Label placement of a binary phase diagram or an isopleth preview (contract/plots/labels.ts): invariants first
// (their positions are few), then the fields. An invariant whose reaction fits nowhere keeps its kind and
// temperature; a field whose name fits nowhere gets a number at its anchor, and the number's meaning goes to the
// legend under the plot.
import {
  placeLabels,
  polylineSegments,
  type LabelRequest,
  type PlacedLabel,
  type Segment,
} from '../../contract/plots/labels.js';
import { displayFieldLabel } from '../../contract/plots/phase-names.js';
import { LinearScale, formatTemperature, type Rect, type Ticks } from './svg.js';
import { num } from './chart-frame.js';
import type { BinaryPhaseDiagramInput } from './charts.js';

/** Region label text size (px) in the previews; invariant labels are a little smaller. */
const REGION_LABEL_SIZE = 19;
const INVARIANT_LABEL_SIZE = 15;

type Px = (x: number, T: number) => readonly [number, number];
type LabelledInput = Pick<
  BinaryPhaseDiagramInput,
  'boundaries' | 'invariants' | 'regions' | 'regionLabels' | 'temperatureUnit' | 'phaseNames'
>;

/** A field label (phases joined by " + ") in the input's display names, or as given without them. */
function fieldText(input: LabelledInput, label: string): string {
  return input.phaseNames ? displayFieldLabel(label, input.phaseNames) : label;
}

/**
 * A label under each invariant line (the boundaries meet it from above), else above it; centred on the line, then
 * shifted sideways in 20 px steps (a label longer than its line may overhang one end). Each line also becomes a
 * segment the other labels avoid; `shortText` gets the kind and temperature alone, tried when the reaction fits
 * nowhere.
 */
function invariantRequests(
  input: LabelledInput,
  area: Rect,
  px: Px,
  segments: Segment[],
  shortText: Map<string, string>,
): LabelRequest[] {
  const requests: LabelRequest[] = [];
  (input.invariants ?? []).forEach((v, i) => {
    const xs = (v.x ?? []).map(num).filter(Number.isFinite);
    if (!xs.length || !Number.isFinite(num(v.T))) return;
    const [a, Y] = px(Math.min(...xs), num(v.T)),
      [b] = px(Math.max(...xs), num(v.T));
    segments.push([a, Y, b, Y]);
    const phases = fieldText(input, (v.phases ?? []).join(' + '));
    const text = `${v.kind ? `${v.kind}: ` : ''}${phases}  ${formatTemperature(num(v.T), input.temperatureUnit)}`;
    const h = INVARIANT_LABEL_SIZE * 1.164 + 6;
    const xsAlong = [0, ...Array.from({ length: 30 }, (_, k) => (k % 2 ? -1 : 1) * 20 * Math.ceil((k + 1) / 2))].map(
      (d) => (a + b) / 2 + d,
    );
    const inside: Array<readonly [number, number]> = [
      ...xsAlong.map((X) => [X, Y + h / 2 + 2] as const),
      ...xsAlong.map((X) => [X, Y - h / 2 - 2] as const),
    ];
    if (!Number.isFinite(Y) || Y < area.y || Y > area.y + area.height) return;
    requests.push({
      key: `invariant:${i}`,
      text,
      size: INVARIANT_LABEL_SIZE,
      anchor: [(a + b) / 2, Y],
      inside,
      priority: 2,
      spiral: false,
      maxLeader: 90,
    });
    shortText.set(`invariant:${i}`, `${v.kind ?? 'invariant'} ${formatTemperature(num(v.T), input.temperatureUnit)}`);
  });
  return requests;
}

/**
 * The fields to name: filled regions at their vertex centroid, then the explicit region labels (those whose anchor
 * lies outside the plotted range are dropped, not chased); larger names first, as they have less room to move.
 */
function fieldRequests(input: LabelledInput, area: Rect, px: Px): LabelRequest[] {
  const fields: Array<{ text: string; anchor: readonly [number, number]; inside: Array<readonly [number, number]> }> =
    [];
  for (const r of input.regions ?? []) {
    if (!r.label) continue;
    const pts = (r.points ?? []).filter((p) => Number.isFinite(num(p.x)) && Number.isFinite(num(p.T)));
    if (!pts.length) continue;
    // Vertex centroid: good enough for the convex-ish regions of a binary diagram; explicit
    // regionLabels take over when a region is strongly concave.
    const cx = pts.reduce((s, p) => s + p.x, 0) / pts.length,
      cT = pts.reduce((s, p) => s + p.T, 0) / pts.length;
    fields.push({ text: fieldText(input, r.label), anchor: px(cx, cT), inside: [] });
  }
  for (const r of input.regionLabels ?? []) {
    const x = num(r?.x),
      T = num(r?.T);
    if (!Number.isFinite(x) || !Number.isFinite(T)) continue;
    const anchor = px(x, T);
    if (
      anchor[0] < area.x - 1e-6 ||
      anchor[0] > area.x + area.width + 1e-6 ||
      anchor[1] < area.y - 1e-6 ||
      anchor[1] > area.y + area.height + 1e-6
    )
      continue;
    fields.push({
      text: fieldText(input, String(r?.label ?? '')),
      anchor,
      inside: (r.inside ?? []).map((p) => px(num(p.x), num(p.T))),
    });
  }
  return fields.map((f, i) => ({
    key: `field:${i}`,
    text: f.text,
    size: REGION_LABEL_SIZE,
    anchor: f.anchor,
    inside: f.inside,
    priority: 1 - f.text.length / 1000,
    shrink: [0.8],
  }));
}

/** The placed labels and the legend lines of the fields left unlabelled or marked by a number. */
export function diagramLabels(
  input: LabelledInput,
  area: Rect,
  xt: Ticks,
  yt: Ticks,
): { placed: PlacedLabel[]; legend: string[] } {
  const sx = new LinearScale(xt.min, xt.max, area.x, area.x + area.width);
  const sy = new LinearScale(yt.min, yt.max, area.y + area.height, area.y);
  const px: Px = (x, T) => [sx.map(x), sy.map(T)];
  const segments: Segment[] = [];
  for (const b of input.boundaries) segments.push(...polylineSegments(b.points.map((p) => px(num(p?.x), num(p?.T)))));
  const shortText = new Map<string, string>();
  const requests = invariantRequests(input, area, px, segments, shortText);
  requests.push(...fieldRequests(input, area, px));
  const first = placeLabels(requests, { area, segments });
  const placed = [...first.placed];
  const taken = () => ({
    area,
    segments: [...segments, ...placed.flatMap((p) => (p.leader ? [p.leader] : []))],
    obstacles: placed.map((p) => p.box),
  });
  // invariants whose reaction fits nowhere: kind and temperature only, among what is already placed
  const short = placeLabels(
    first.dropped.filter((r) => shortText.has(r.key)).map((r) => ({ ...r, text: shortText.get(r.key)! })),
    taken(),
  );
  placed.push(...short.placed);
  const legend: string[] = [];
  const fieldsDropped = first.dropped.filter((r) => !short.placed.some((p) => p.key === r.key));
  if (fieldsDropped.length) {
    // numbers at the anchors of the fields left unlabelled, placed among what is already there
    const tags = placeLabels(
      fieldsDropped.map((r, k) => ({
        key: r.key,
        text: String(k + 1),
        size: 16,
        bold: true,
        anchor: r.anchor,
        inside: r.inside,
        priority: 0,
      })),
      taken(),
    );
    placed.push(...tags.placed);
    fieldsDropped.forEach((r, k) => {
      const tagged = tags.placed.some((t) => t.key === r.key);
      legend.push(tagged ? `${k + 1}: ${r.text}` : `(not marked) ${r.text}`);
    });
  }
  return { placed, legend };
}
