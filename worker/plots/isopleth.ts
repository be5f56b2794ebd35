// Preview of an isopleth (vertical section): the zero-phase-fraction lines, the invariant-like horizontals and the
// region labels, drawn by the binary diagram chart (worker/plots/charts.ts) with the composition axis in mole or
// mass percent of the axis element (a pseudo-binary section: the end member's fraction) and T in K (degrees Celsius
// on the right).
import { pressureText } from '../../contract/plots/names.js';
import { binaryPhaseDiagram, type BoundaryInput, type InvariantInput, type RegionLabelInput } from './charts.js';
import { isoplethHorizontal, isoplethTitle, type IsoplethResult } from '../../contract/results/isopleth.js';
import { previewTemperatureUnit } from './panel.js';

export function isoplethPreview(doc: IsoplethResult): string {
  const axis = isoplethHorizontal(doc);
  const boundaries: BoundaryInput[] = doc.lines.map((l) => ({
    phases: [l.phase],
    points: l.points.map((p) => ({ x: axis.of(p), T: p.T })),
  }));
  const invariants: InvariantInput[] = doc.invariants.map((v) => ({
    T: v.T,
    phases: v.phases,
    x: axis.ofRange(v),
  }));
  const regionLabels: RegionLabelInput[] = doc.regions
    .filter((r) => r.grid_nodes > 0)
    .map((r) => ({
      x: axis.of(r),
      T: r.T,
      // the database's display names where the document has them (worker/results/display-names.ts)
      label: r.display ?? (r.phases.length ? (r.labels ?? r.phases).join(' + ') : 'no stable phase'),
    }));
  return binaryPhaseDiagram({
    title: `${isoplethTitle(doc)}, P = ${pressureText(doc.pressure)}`,
    boundaries,
    invariants,
    regionLabels,
    xLabel: axis.label,
    yLabel: 'Temperature (K)',
    xRange: axis.range,
    TRange: doc.temperature_range,
    celsiusAxis: true,
    temperatureUnit: previewTemperatureUnit(doc.config),
    warning: doc.convergence_warning?.message,
  });
}
