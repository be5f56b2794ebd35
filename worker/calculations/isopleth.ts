// isopleth (vertical section): the zero-phase-fraction lines of a multicomponent alloy in T against one
// composition axis, every composition varying linearly from composition_start to composition_end (mole or mass
// fractions). Mapped by worker/mapping/isopleth/trace.ts (coarse grid + continuation of every line, see the
// method comment there). Writes result/result.json (IsoplethResult, contract/results/isopleth.ts), result/result.csv
// (the points of every line, of the liquidus and of the solidus) and preview/isopleth.svg/.png.
import { documentBase } from '../results/document.js';
import { openSystem } from '../system/system.js';
import { tableToCsv, type ResultTable } from '../../contract/results/common.js';
import { mapIsopleth, type IsoplethMap } from '../mapping/isopleth/trace.js';
import { convergenceWarning, failIfNothingConverged } from '../mapping/nothing-converged.js';
import { compositionPath, type CompositionPath, type CompositionUnit } from '../mapping/isopleth/path.js';
import { resolveEndMembers, withEndMemberFractions } from './isopleth/end-members.js';
import { isoplethPreview } from '../plots/isopleth.js';
import { writeResultFiles } from '../results/common.js';
import { namerOf, withIsoplethDisplay } from '../results/display-names.js';
import type { IsoplethEndMembers, IsoplethResult } from '../../contract/results/isopleth.js';
import type { CalculationOutput, JobControl, TaskJob } from '../protocol.js';

/** Coarse-grid nodes per axis when the task gives no resolution. */
export const DEFAULT_RESOLUTION = 11;

type Drawn = Pick<IsoplethResult, 'lines' | 'liquidus' | 'solidus'>;

/** The points of every line, of the liquidus and of the solidus; a pseudo-binary section adds the column y. */
export function isoplethTable(
  m: Drawn,
  unitName: string,
  axisElement: string,
  endMembers?: IsoplethEndMembers,
): ResultTable {
  const rows: ResultTable['rows'] = [];
  const yCell = (p: { y?: number }) => (endMembers ? [p.y ?? null] : []);
  m.lines.forEach((l, k) => {
    for (const p of l.points)
      rows.push(['zpf', k + 1, l.phase, p.T, p.x, ...yCell(p), p.s, p.with.join('+'), p.without.join('+')]);
  });
  for (const [kind, list] of [
    ['liquidus', m.liquidus],
    ['solidus', m.solidus],
  ] as const) {
    list.forEach((l, k) => {
      for (const p of l.points) rows.push([kind, k + 1, l.phase, p.T, p.x, ...yCell(p), p.s, null, null]);
    });
  }
  const yColumn = endMembers ? [{ name: `y(${endMembers.end.label})`, unit: endMembers.axis.replace('_', ' ') }] : [];
  return {
    columns: [
      { name: 'kind', unit: '' },
      { name: 'line', unit: '' },
      { name: 'phase', unit: '' },
      { name: 'T', unit: 'K' },
      { name: `${unitName === 'mass_fraction' ? 'W' : 'X'}(${axisElement})`, unit: unitName.replace('_', ' ') },
      ...yColumn,
      { name: 's', unit: '' },
      { name: 'phases_with', unit: '' },
      { name: 'phases_without', unit: '' },
    ],
    rows,
  };
}

export function isoplethSummary(m: IsoplethMap): string {
  const plural = (k: number, w: string) => `${k} ${w}${k === 1 ? '' : 's'}`;
  const parts = [
    plural(m.lines.length, 'zero-phase-fraction line'),
    plural(m.regions.length, 'region'),
    plural(m.invariants.length, 'invariant-like line'),
  ];
  const liq = m.liquidus.flatMap((l) => l.points.map((p) => p.T));
  const sol = m.solidus.flatMap((l) => l.points.map((p) => p.T));
  if (liq.length) parts.push(`liquidus ${Math.min(...liq).toFixed(1)}-${Math.max(...liq).toFixed(1)} K`);
  if (sol.length) parts.push(`solidus ${Math.min(...sol).toFixed(1)}-${Math.max(...sol).toFixed(1)} K`);
  if (m.stats.notConverged) parts.push(`${m.stats.notConverged} of ${m.stats.equilibria} equilibria not converged`);
  const warning = convergenceWarning(m.stats.grid);
  return parts.join(', ') + (warning ? `; ${warning.message}` : '');
}

/**
 * The section's composition line: from composition_start to composition_end, or between the two end members of a
 * pseudo-binary section (isopleth/end-members.ts), whose axis it also returns.
 */
function sectionPath(
  cond: TaskJob<'isopleth'>['config']['condition'],
  elements: string[],
  unit: CompositionUnit,
  masses: Record<string, number>,
): { path: CompositionPath; endMembers?: IsoplethEndMembers } {
  if (!cond.end_members)
    return { path: compositionPath(elements, cond.composition_start ?? {}, cond.composition_end ?? {}, unit, masses) };
  const r = resolveEndMembers(cond.end_members, elements, unit, masses, cond.end_member_axis);
  return { path: compositionPath(elements, r.compositionStart, r.compositionEnd, unit, masses), endMembers: r.info };
}

export function run(job: TaskJob<'isopleth'>, control: JobControl): CalculationOutput {
  const cond = job.config.condition;
  const sys = openSystem(job, cond);
  const info = sys.db.info();
  const masses = Object.fromEntries(info.elements.map((e) => [e.name.toUpperCase(), e.mass]));
  const unit: CompositionUnit = cond.composition_unit ?? 'mole_fraction';
  const { path, endMembers } = sectionPath(cond, sys.elements, unit, masses);
  const Ta = cond.temperature_start,
    Tb = cond.temperature_end;
  const T: [number, number] = [Math.min(Ta, Tb), Math.max(Ta, Tb)];
  const P = cond.pressure;
  const resolution = cond.resolution ?? DEFAULT_RESOLUTION;
  // liquids: the phases the TDB marks with the L option, and LIQUID by name
  const liquids = new Set(
    info.phases.filter((p) => p.options.includes('L') || /^LIQUID/i.test(p.name)).map((p) => p.name.toUpperCase()),
  );
  const m = mapIsopleth({
    database: sys.db,
    components: sys.components,
    phases: sys.phases,
    path,
    T,
    P,
    resolution,
    threads: job.ompThreads,
    control,
    liquids,
  });
  failIfNothingConverged('isopleth', m.stats, m.logs);
  const base = documentBase(job, 'isopleth', sys);
  const drawn = endMembers ? withEndMemberFractions(m, path.axisRange, endMembers.weights) : m;
  const doc: IsoplethResult = {
    ...base,
    components: sys.elements,
    composition_unit: unit,
    dependent: path.dependent,
    axis: { element: path.axisElement, range: path.axisRange, unit },
    composition_start: path.start,
    composition_end: path.end,
    ...(endMembers ? { end_members: endMembers } : {}),
    temperature_range: T,
    pressure: P,
    ...drawn,
    statistics: {
      equilibria: m.stats.equilibria,
      not_converged: m.stats.notConverged,
      grid_nodes: resolution * resolution,
      wall_time_s: m.stats.seconds,
    },
    table: isoplethTable(drawn, unit, path.axisElement, endMembers),
  };
  const warning = convergenceWarning(m.stats.grid);
  if (warning) doc.convergence_warning = warning;
  const shown = withIsoplethDisplay(doc, namerOf(job));
  writeResultFiles(job.taskDir, {
    json: shown,
    csv: tableToCsv(doc.table),
    previews: { isopleth: isoplethPreview(shown) },
  });
  control.setProgress(1);
  const logs = [
    ...sys.logs,
    `isopleth of ${sys.elements.join('-')} over T ${T[0]}-${T[1]} K, ${path.axisElement} ${path.axisRange[0]}-${path.axisRange[1]} (${unit})` +
      (endMembers
        ? ` (pseudo-binary ${endMembers.start.label} - ${endMembers.end.label}, x axis ${endMembers.axis_label})`
        : '') +
      ': ' +
      `${m.stats.equilibria} equilibria in ${m.stats.seconds.toFixed(2)} s (grid ${resolution} x ${resolution} in ${m.stats.gridSeconds.toFixed(2)} s)`,
    ...m.logs,
  ];
  if (m.stats.notConverged)
    logs.push(
      `${m.stats.notConverged} of ${m.stats.equilibria} equilibria did not converge; their phase sets were used as the solver returned them`,
    );
  return { summary: isoplethSummary(m), logs };
}
