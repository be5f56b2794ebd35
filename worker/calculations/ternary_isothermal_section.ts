// ternary_isothermal_section: the isothermal section of a ternary system at one T and P, mapped by
// worker/mapping/ternary.ts (seed grid + tie-line continuation of every two-phase region, tie-triangles refined to
// 1e-5, completeness self-check). Writes result/result.json (TernaryIsothermalSectionResult,
// contract/results/ternary_isothermal_section.ts), result/result.csv (tie-lines and triangle corners) and
// preview/isothermal_section.svg/.png.
import { convergenceWarning, failIfNothingConverged } from '../mapping/nothing-converged.js';
import { coherencyStrain } from '../mapping/spinodal/determinant.js';
import { sectionSpinodals } from '../mapping/spinodal/in-gaps.js';
import { basename } from 'node:path';
import { openSystem } from '../system/system.js';
import { RESULT_VERSION, tableToCsv, type ResultTable } from '../../contract/results/common.js';
import type { NativeDatabase } from '../core/native.js';
import { mapTernary, type TernarySection, type Vec3 } from '../mapping/ternary.js';
import { ternarySectionChart } from '../plots/ternary.js';
import { provenance, writeResultFiles } from '../results/common.js';
import { namerOf, withSectionDisplay } from '../results/display-names.js';
import type { Composition, TernaryIsothermalSectionResult } from '../../contract/results/ternary_isothermal_section.js';

import { elementMasses, moleToMassFractions } from '../system/units.js';
import type { CalculationConfig, CalculationOutput, JobControl, TaskJob } from '../protocol.js';

export interface TernaryInput {
  components: [string, string, string];
  T: number;
  P: number;
  window: [number, number][];
  unit: 'mole_fraction' | 'mass_fraction';
  pdens?: number;
  gridDivisions?: number;
}

/**
 * The section's input from the condition, which contract/tasks/ternary_isothermal_section.ts has validated: three
 * different elements in the given order (upper case), the window per component (whole range where none is given).
 */
export function ternaryInput(cond: CalculationConfig<'ternary_isothermal_section'>['condition']): TernaryInput {
  const comps = cond.components.map((c) => c.toUpperCase()) as [string, string, string];
  const window: [number, number][] = [
    [0, 1],
    [0, 1],
    [0, 1],
  ];
  for (const w of cond.composition_window ?? []) window[comps.indexOf(w.component.toUpperCase())] = [w.min, w.max];
  const mo = cond.map_options ?? {};
  return {
    components: comps,
    T: cond.temperature,
    P: cond.pressure,
    window,
    unit: cond.composition_unit ?? 'mole_fraction',
    pdens: mo.GLOBAL_MIN_PDENS !== undefined ? Math.max(1, Math.round(mo.GLOBAL_MIN_PDENS)) : undefined,
    gridDivisions: mo.grid_divisions,
  };
}

/** Mass fractions of the three components from mole fractions, molar masses from the database's ELEMENT lines. */
function massConverter(db: NativeDatabase, comps: readonly string[]): (x: Composition) => Composition {
  const masses = elementMasses(db.info().elements);
  return (x) => moleToMassFractions(Object.fromEntries(comps.map((c) => [c, x[c] ?? 0])), masses);
}

export function sectionDocument(
  s: TernarySection,
  unit: TernaryInput['unit'],
  toMass: ((x: Composition) => Composition) | null,
  config: Record<string, unknown>,
  base: Pick<TernaryIsothermalSectionResult, 'provenance' | 'phase_selection'>,
): TernaryIsothermalSectionResult {
  const comps = s.components;
  const obj = (v: Vec3): Composition => Object.fromEntries(comps.map((c, i) => [c, v[i]!]));
  const withW = (v: Vec3) => (toMass ? { x: obj(v), w: toMass(obj(v)) } : { x: obj(v) });
  const doc: TernaryIsothermalSectionResult = {
    version: RESULT_VERSION,
    task_type: 'ternary_isothermal_section',
    provenance: base.provenance,
    config,
    phase_selection: base.phase_selection,
    components: comps,
    temperature: s.T,
    pressure: s.P,
    composition_unit: unit,
    window: Object.fromEntries(comps.map((c, i) => [c, s.window[i]!])),
    two_phase_regions: s.regions.map((r) => ({
      phases: r.phases,
      labels: r.labels ?? r.phases,
      ends: r.ends,
      tielines: r.tielines.map((t) =>
        toMass
          ? { x: [obj(t.x[0]), obj(t.x[1])], w: [toMass(obj(t.x[0])), toMass(obj(t.x[1]))] }
          : { x: [obj(t.x[0]), obj(t.x[1])] },
      ) as TernaryIsothermalSectionResult['two_phase_regions'][number]['tielines'],
      boundaries: [0, 1].map((k) => ({
        phase: r.phases[k]!,
        x: r.tielines.map((t) => obj(t.x[k]!)),
        ...(toMass ? { w: r.tielines.map((t) => toMass(obj(t.x[k]!))) } : {}),
      })),
    })),
    three_phase_triangles: s.triangles.map((t) => ({
      phases: t.phases,
      labels: t.labels ?? t.phases,
      refinement: t.refinement,
      corners: t.corners.map((c, k) => ({ phase: t.phases[k]!, ...withW(c) })),
    })),
    single_phase_regions: s.singlePhaseLabels.map((l) => ({
      phase: l.phase,
      label: l.label ?? l.phase,
      label_point: withW(l.x),
    })),
    critical_points: s.criticalPoints.map((c) => ({ phases: c.phases, ...withW(c.x) })),
    self_check: s.selfCheck
      ? {
          ...s.selfCheck,
          disagreements: s.selfCheck.disagreements.map((d) => ({ ...d, x: obj(d.x) })),
          overlaps: s.selfCheck.overlaps.map((o) => ({ ...o, x: obj(o.x) })),
        }
      : null,
    statistics: { equilibria: s.stats.equilibria, not_converged: s.stats.notConverged, wall_time_s: s.stats.seconds },
    table: { columns: [], rows: [] },
  };
  const warning = convergenceWarning(s.stats.grid);
  if (warning) doc.convergence_warning = warning;
  doc.table = sectionTable(doc);
  return doc;
}

/** One row per tie-line and per triangle: kind, index, phases, then each phase with its composition. */
export function sectionTable(d: TernaryIsothermalSectionResult): ResultTable {
  const comps = d.components;
  const mass = d.composition_unit === 'mass_fraction';
  const phaseCols = (k: number) => [
    { name: `phase_${k}`, unit: '' },
    ...comps.map((c) => ({ name: `X${k}(${c})`, unit: 'mole fraction' })),
    ...(mass ? comps.map((c) => ({ name: `W${k}(${c})`, unit: 'mass fraction' })) : []),
  ];
  const cells = (phase: string, x: Composition, w?: Composition) => [
    phase,
    ...comps.map((c) => x[c] ?? 0),
    ...(mass ? comps.map((c) => w?.[c] ?? null) : []),
  ];
  const blank = () => [null, ...comps.map(() => null), ...(mass ? comps.map(() => null) : [])];
  const rows: ResultTable['rows'] = [];
  d.two_phase_regions.forEach((r, i) =>
    r.tielines.forEach((t) =>
      rows.push([
        'tie_line',
        i + 1,
        r.phases.join('+'),
        ...cells(r.phases[0], t.x[0], t.w?.[0]),
        ...cells(r.phases[1], t.x[1], t.w?.[1]),
        ...blank(),
      ]),
    ),
  );
  d.three_phase_triangles.forEach((t, i) =>
    rows.push(['triangle', i + 1, t.phases.join('+'), ...t.corners.flatMap((c) => cells(c.phase, c.x, c.w))]),
  );
  return {
    columns: [
      { name: 'kind', unit: '' },
      { name: 'index', unit: '' },
      { name: 'phases', unit: '' },
      ...phaseCols(1),
      ...phaseCols(2),
      ...phaseCols(3),
    ],
    rows,
  };
}

/** "6 two-phase regions, 3 three-phase triangles, 1 critical point; self-check 136/136". */
export function sectionSummary(s: TernarySection): string {
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const parts = [plural(s.regions.length, 'two-phase region'), plural(s.triangles.length, 'three-phase triangle')];
  if (s.criticalPoints.length) parts.push(plural(s.criticalPoints.length, 'critical point'));
  let out = parts.join(', ');
  if (s.selfCheck) {
    out += `; self-check ${s.selfCheck.agree} of ${s.selfCheck.points - s.selfCheck.not_converged} points agree`;
    if (s.selfCheck.disagreements.length)
      out += ` (${plural(s.selfCheck.disagreements.length, 'disagreement')}, listed in result.json)`;
    if (s.selfCheck.overlaps.length)
      out += `; ${plural(s.selfCheck.overlaps.length, 'overlap')} of mapped fields (listed in result.json)`;
  }
  if (s.stats.notConverged) out += `; ${s.stats.notConverged} of ${s.stats.equilibria} equilibria not converged`;
  const warning = convergenceWarning(s.stats.grid);
  if (warning) out += `; ${warning.message}`;
  return out;
}

export function run(job: TaskJob<'ternary_isothermal_section'>, control: JobControl): CalculationOutput {
  const cond = job.config.condition;
  const inp = ternaryInput(cond);
  const sys = openSystem(job, cond);
  const s = mapTernary({
    database: sys.db,
    components: inp.components,
    phases: sys.phases,
    T: inp.T,
    P: inp.P,
    window: inp.window,
    threads: job.ompThreads,
    control,
    pdens: inp.pdens,
    gridDivisions: inp.gridDivisions,
  });
  failIfNothingConverged('section', s.stats, s.logs);
  control.setStage('writing the section');
  const toMass = inp.unit === 'mass_fraction' ? massConverter(sys.db, inp.components) : null;
  const config = { ...job.config, tdb_file: basename(sys.tdbFile) };
  const doc = sectionDocument(s, inp.unit, toMass, config, {
    provenance: provenance(sys.tdbFile, job.database?.code ?? null, job.database?.sha256),
    phase_selection: sys.selection,
  });
  if (job.config.spinodal) {
    const sp = { db: sys.db, components: sys.components, P: inp.P };
    doc.spinodals = sectionSpinodals(sp, inp.T, doc.two_phase_regions);
    const coherent = job.config.coherent;
    if (coherent)
      doc.coherent_spinodals = sectionSpinodals(
        { ...sp, coherency: coherencyStrain(coherent) },
        inp.T,
        doc.two_phase_regions,
      );
  }
  const shown = withSectionDisplay(doc, namerOf(job));
  writeResultFiles(job.taskDir, {
    json: shown,
    csv: tableToCsv(doc.table),
    previews: { isothermal_section: ternarySectionChart(shown) },
  });
  const logs = [
    ...sys.logs,
    `mapped ${inp.components.join('-')} at ${inp.T} K: ${s.stats.equilibria} equilibria in ${s.stats.seconds.toFixed(2)} s (seed grid ${s.stats.gridSeconds.toFixed(2)} s)`,
    ...s.logs,
    ...(s.selfCheck?.disagreements ?? [])
      .slice(0, 20)
      .map(
        (d) =>
          `self-check: at x(${inp.components.join(',')}) = ${d.x.map((v) => v.toFixed(4)).join(', ')} ` +
          `the point equilibrium gives ${d.found.join('+')}, the map ${d.mapped.length ? d.mapped.join('+') : 'a single-phase field'}`,
      ),
    ...(s.selfCheck?.overlaps ?? [])
      .slice(0, 20)
      .map(
        (o) =>
          `self-check: the triangle ${o.phases[0].join('+')} overlaps the ${o.kind === 'triangles' ? 'triangle' : 'two-phase region'} ` +
          `${o.phases[1].join('+')} at x(${inp.components.join(',')}) = ${o.x.map((v) => v.toFixed(4)).join(', ')}`,
      ),
  ];
  return { summary: sectionSummary(s), logs };
}
