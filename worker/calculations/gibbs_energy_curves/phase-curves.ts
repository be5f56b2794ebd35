// The Gibbs energy curve of each phase alone along the line (one composition set, minimised over its internal
// degrees of freedom), or, for a phase of fixed composition, its single point where the line passes through it.
import type { PhaseCurve } from '../../../contract/results/gibbs_energy_curves.js';
import type { EquilibriumResult } from '../../core/equilibrium.js';
import { PhaseModel } from '../../core/models.js';
import { CancelledError, type JobControl } from '../../protocol.js';
import { chunkedBatch } from '../../scans/batch.js';
import type { CalcSystem } from '../../system/system.js';
import { axisValueAt, formationEnergy, positionOnLine, type CurveLine } from './line.js';

/** How the curves are computed: threads, the job's control, the energies of reference, and where notes go. */
export interface CurveRun {
  threads: number;
  control: JobControl;
  gref: Record<string, number>;
  notes: string[];
}

/** The curves of `phases`, in their order; the batches report progress 0..0.8. */
export function phaseCurves(sys: CalcSystem, line: CurveLine, phases: string[], run: CurveRun): PhaseCurve[] {
  return phases.map((ph, k) => {
    if (run.control.cancelled) throw new CancelledError();
    const fixed = fixedComposition(sys, ph, line.T, line.P);
    if (fixed) return compoundCurve(line, ph, fixed, run);
    return phaseCurve(sys, line, ph, run, [(0.8 * k) / phases.length, (0.8 * (k + 1)) / phases.length]);
  });
}

/** The curve of a phase whose composition varies: its equilibria alone, one composition set, along the line. */
function phaseCurve(
  sys: CalcSystem,
  line: CurveLine,
  ph: string,
  run: CurveRun,
  progress: [number, number],
): PhaseCurve {
  let rs: EquilibriumResult[];
  try {
    rs = chunkedBatch(
      { database: sys.db, components: sys.components, phases: [ph], options: { singleSet: true } },
      line.conditions,
      run.threads,
      run.control,
      progress[0],
      progress[1],
    );
  } catch (e) {
    if (e instanceof CancelledError) throw e;
    run.notes.push(`${ph}: no curve (${(e as Error).message})`);
    return { name: ph, GM: line.s.map(() => null), GM_formation: line.s.map(() => null) };
  }
  const GM = rs.map((r) => (r.converged && r.phases.length === 1 ? r.GM : null));
  if (GM.every((g) => g === null)) run.notes.push(`${ph}: no converged state on the line`);
  return {
    name: ph,
    GM,
    GM_formation: GM.map((g, i) =>
      g === null ? null : formationEnergy(line.elements, run.gref, line.states[i]!.x, g),
    ),
  };
}

/** The curve of a phase of fixed composition: no values on the grid, its point where it lies on the line. */
function compoundCurve(
  line: CurveLine,
  ph: string,
  fixed: { x: Record<string, number>; GM: number },
  run: CurveRun,
): PhaseCurve {
  const on = positionOnLine(line.path, fixed.x, line.elements);
  const curve: PhaseCurve = { name: ph, GM: line.s.map(() => null), GM_formation: line.s.map(() => null) };
  if (on !== null) {
    curve.compound = {
      s: on,
      axis_value: axisValueAt(line, on),
      x: fixed.x,
      GM: fixed.GM,
      GM_formation: formationEnergy(line.elements, run.gref, fixed.x, fixed.GM),
    };
  } else run.notes.push(`${ph}: a phase of fixed composition off the line (${fmtX(fixed.x)})`);
  return curve;
}

const fmtX = (x: Record<string, number>) =>
  Object.entries(x)
    .map(([e, v]) => `${e} ${String(Number(v.toFixed(4)))}`)
    .join(', ');

/** A phase whose every sublattice holds one constituent: its composition and GM, else null. */
function fixedComposition(
  sys: Pick<CalcSystem, 'db' | 'components'>,
  phase: string,
  T: number,
  P: number,
): { x: Record<string, number>; GM: number } | null {
  const model = PhaseModel.build(sys.db, phase, sys.components);
  if (!model) return null;
  const perSublattice = new Map<number, number>();
  for (const v of model.variables) perSublattice.set(v.sublattice, (perSublattice.get(v.sublattice) ?? 0) + 1);
  if ([...perSublattice.values()].some((c) => c > 1)) return null;
  const y = new Float64Array(model.variables.length).fill(1);
  const mo = model.moles(y, 0);
  const x = Object.fromEntries(model.info.elements.map((e, i) => [e, mo.M[i]! / mo.Nf]));
  return { x, GM: model.evaluate(T, P, y, 0).GM };
}
