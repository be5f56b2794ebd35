// The database's display names in the result files of the phase diagrams: each labelled field, triangle and
// reaction gets a `display` text beside the database's labels, which stay as they are for scripts to match
// (contract/plots/phase-names.ts; the previews print the same texts).
import { displayFieldLabel, displayReaction, namerFor, type DisplayNamer } from '../../contract/plots/phase-names.js';
import type { BinaryEquilibriumResult } from '../../contract/results/binary_equilibrium.js';
import type { IsoplethResult } from '../../contract/results/isopleth.js';
import type { TernaryIsothermalSectionResult } from '../../contract/results/ternary_isothermal_section.js';
import type { CalculationJob } from '../protocol.js';

/** The display names of a job's database: the names stored with it when the task was created, over the defaults. */
export function namerOf(job: Pick<CalculationJob, 'database'>): DisplayNamer {
  return namerFor(job.database?.code ?? null, job.database?.phase_names ?? {});
}

export function withBinaryDisplay(doc: BinaryEquilibriumResult, namer: DisplayNamer): BinaryEquilibriumResult {
  return {
    ...doc,
    two_phase_regions: doc.two_phase_regions.map((r) => ({
      ...r,
      display: displayFieldLabel(r.phases.join(' + '), namer),
    })),
    invariants: doc.invariants.map((v) => ({ ...v, display_reaction: displayReaction(v.reaction, namer) })),
    single_phase_regions: doc.single_phase_regions.map((s) => ({ ...s, display: displayFieldLabel(s.label, namer) })),
  };
}

export function withSectionDisplay(
  doc: TernaryIsothermalSectionResult,
  namer: DisplayNamer,
): TernaryIsothermalSectionResult {
  return {
    ...doc,
    two_phase_regions: doc.two_phase_regions.map((r) => ({
      ...r,
      display: displayFieldLabel(r.labels.join(' + '), namer),
    })),
    three_phase_triangles: doc.three_phase_triangles.map((t) => ({
      ...t,
      display: displayFieldLabel(t.labels.join(' + '), namer),
    })),
    single_phase_regions: doc.single_phase_regions.map((s) => ({ ...s, display: displayFieldLabel(s.label, namer) })),
  };
}

export function withIsoplethDisplay(doc: IsoplethResult, namer: DisplayNamer): IsoplethResult {
  return {
    ...doc,
    regions: doc.regions.map((r) => ({
      ...r,
      display: r.phases.length ? displayFieldLabel(r.labels.join(' + '), namer) : 'no stable phase',
    })),
  };
}
