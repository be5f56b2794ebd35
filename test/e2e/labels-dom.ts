// Label legibility of the renderer's diagrams, read from the DOM (shared by the e2e tests that take diagram
// screenshots: the binary diagram, the isopleth, the potential diagram, the ternary section, the liquidus projection):
// label boxes from getBBox (the halo excluded), checked against each other, the plot area (the diagram's clip
// rectangle, else the whole SVG), every boundary polyline, zero-phase-fraction line, second-order line, invariant
// line, valley, tie-triangle edge and the Gibbs triangle's outline, and the corner names and invariant tags.
import type { Page } from 'playwright-core';

export interface LabelCheck {
  labels: { text: string; kind: string; box: { x: number; y: number; width: number; height: number } }[];
  problems: string[];
}

/**
 * Label boxes from the DOM (getBBox, the halo excluded), checked against each other, the plot area, the lines and
 * the other texts; `svgTestId` names the diagram's SVG.
 */
export function checkDiagramLabels(page: Page, svgTestId = 'binary-svg'): Promise<LabelCheck> {
  return page.evaluate((id) => {
    const svg = document.querySelector(`[data-testid="${id}"]`) as SVGSVGElement;
    const clip = svg.querySelector('clipPath[id^="clip-"] rect');
    const area = clip
      ? {
          x: +clip.getAttribute('x')!,
          y: +clip.getAttribute('y')!,
          w: +clip.getAttribute('width')!,
          h: +clip.getAttribute('height')!,
        }
      : { x: 0, y: 0, w: svg.width.baseVal.value, h: svg.height.baseVal.value };
    const texts = [
      ...svg.querySelectorAll(
        '[data-testid="region-label"], [data-testid="invariant-label"], [data-testid="label-tag"]',
      ),
    ] as SVGTextElement[];
    const labels = texts.map((t) => {
      const b = t.getBBox();
      return {
        text: t.textContent ?? '',
        kind: t.getAttribute('data-testid')!,
        box: { x: b.x, y: b.y, width: b.width, height: b.height },
      };
    });
    const others = [...svg.querySelectorAll('text.corner, text.tag')].map((t) => {
      const b = (t as SVGTextElement).getBBox();
      return { text: t.textContent ?? '', box: { x: b.x, y: b.y, width: b.width, height: b.height } };
    });
    const segs: number[][] = [];
    for (const p of svg.querySelectorAll(
      'polyline.boundary, polyline.zpf, polyline.second-order, polyline.valley, polygon.tri, polygon.outline',
    )) {
      const pts = (p.getAttribute('points') ?? '')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map((q) => q.split(',').map(Number));
      if (p.tagName === 'polygon' && pts.length) pts.push(pts[0]!);
      for (let i = 1; i < pts.length; i++) segs.push([...pts[i - 1]!, ...pts[i]!]);
    }
    for (const l of svg.querySelectorAll('.invariant line'))
      segs.push(['x1', 'y1', 'x2', 'y2'].map((a) => +l.getAttribute(a)!));
    // Liang-Barsky: does the segment pass through the box's interior?
    const hits = (s: number[], b: { x: number; y: number; width: number; height: number }) => {
      const [x1, y1, x2, y2] = s as [number, number, number, number];
      const dx = x2 - x1,
        dy = y2 - y1;
      let t0 = 0,
        t1 = 1;
      for (const [p, q] of [
        [-dx, x1 - b.x],
        [dx, b.x + b.width - x1],
        [-dy, y1 - b.y],
        [dy, b.y + b.height - y1],
      ] as [number, number][]) {
        if (p === 0) {
          if (q <= 0) return false;
          continue;
        }
        const r = q / p;
        if (p < 0) {
          if (r > t1) return false;
          if (r > t0) t0 = r;
        } else {
          if (r < t0) return false;
          if (r < t1) t1 = r;
        }
      }
      return t1 - t0 > 1e-9;
    };
    const problems: string[] = [];
    const e = 0.5;
    labels.forEach((a, i) => {
      const b = a.box;
      if (
        b.x < area.x - e ||
        b.y < area.y - e ||
        b.x + b.width > area.x + area.w + e ||
        b.y + b.height > area.y + area.h + e
      )
        problems.push(`${a.text} leaves the plot`);
      for (const c of [...labels.slice(i + 1), ...others]) {
        const d = c.box;
        if (b.x < d.x + d.width && d.x < b.x + b.width && b.y < d.y + d.height && d.y < b.y + b.height)
          problems.push(`${a.text} overlaps ${c.text}`);
      }
      const s = segs.find((q) => hits(q, b));
      if (s) problems.push(`${a.text} crossed by a line ${s.map((v) => v.toFixed(1)).join(',')}`);
    });
    return { labels, problems };
  }, svgTestId);
}
