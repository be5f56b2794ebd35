// Preview of an isopleth (vertical section): the zero-phase-fraction lines, the invariant-like horizontals and the
// region labels, drawn by the binary diagram chart (worker/plots/charts.ts) with the composition axis in mole or
// mass percent of the axis element and T in K (degrees Celsius on the right).
import { pressureText } from '../../contract/plots/names.js';
import { binaryPhaseDiagram, type BoundaryInput, type InvariantInput, type RegionLabelInput } from './charts.js';
import { isoplethAxisLabel, isoplethCompositionText, type IsoplethResult } from '../../contract/results/isopleth.js';
import { previewTemperatureUnit } from './panel.js';

export function isoplethPreview(doc: IsoplethResult): string {
  const pct = (x: number) => 100 * x;
  const boundaries: BoundaryInput[] = doc.lines.map((l) => ({
    phases: [l.phase],
    points: l.points.map((p) => ({ x: pct(p.x), T: p.T })),
  }));
  const invariants: InvariantInput[] = doc.invariants.map((v) => ({
    T: v.T,
    phases: v.phases,
    x: [pct(v.x[0]), pct(v.x[1])],
  }));
  const regionLabels: RegionLabelInput[] = doc.regions
    .filter((r) => r.grid_nodes > 0)
    .map((r) => ({
      x: pct(r.x),
      T: r.T,
      // the database's display names where the document has them (worker/results/display-names.ts)
      label: r.display ?? (r.phases.length ? (r.labels ?? r.phases).join(' + ') : 'no stable phase'),
    }));
  const [a, b] = doc.axis.range;
  return binaryPhaseDiagram({
    title: `Isopleth ${isoplethCompositionText(doc)}, P = ${pressureText(doc.pressure)}`,
    boundaries,
    invariants,
    regionLabels,
    xLabel: isoplethAxisLabel(doc),
    yLabel: 'Temperature (K)',
    xRange: [pct(Math.min(a, b)), pct(Math.max(a, b))],
    TRange: doc.temperature_range,
    celsiusAxis: true,
    temperatureUnit: previewTemperatureUnit(doc.config),
    warning: doc.convergence_warning?.message,
  });
}
