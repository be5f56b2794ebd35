// The pure-element check of a diagram's self-audit (worker/mapping/audit.ts, check (c)): the transitions of each
// pure element (melting, allotropic), found by a temperature scan 1e-7 from the element, are on the diagram's edges.
import type { EquilibriumResult } from '../../core/equilibrium.js';
import { equilibrium } from '../../core/equilibrium.js';
import { chunkedScan } from '../../scans/chunked-scan.js';
import { type ScanPath } from '../../scans/scan-path.js';
import { refineTransitions } from '../../scans/transitions.js';
import { fmtT, PURE_T_TOL, type AuditContext } from './context.js';

export function checkPureElements(c: AuditContext): void {
  const [el0, el1] = [c.other, c.xc];
  for (const [el, x] of [
    [el0, 1e-7],
    [el1, 1 - 1e-7],
  ] as const)
    for (const Tt of elementTransitions(c, x)) {
      const edge = x < 0.5 ? 0 : 1;
      const drawnHere =
        c.d.pureTransitions.some((p) => p.x === edge && Math.abs(p.T - Tt) <= PURE_T_TOL) ||
        c.d.regions.some((r) =>
          r.tielines.some(
            (t) =>
              Math.abs(t.T - Tt) <= PURE_T_TOL &&
              Math.abs(t.x[edge] - edge) < 0.002 &&
              Math.abs(t.x[1 - edge] - edge) < 0.01,
          ),
        );
      if (!drawnHere)
        c.failures.pureElements.push(`pure ${el}: transition at ${fmtT(Tt)} K is not on the diagram's edge`);
    }
}

/** The temperatures (1 K apart at least) of the element's own transitions along a T scan at composition x. */
function elementTransitions(c: AuditContext, x: number): number[] {
  const { xc, other, T, sys, threads, control, structureOf } = c;
  const n = 160;
  const path: ScanPath = {
    T0: T[0],
    T1: T[1],
    P: 101325,
    X0: { [xc]: x },
    X1: { [xc]: x },
    full0: { [other]: 1 - x, [xc]: x },
    full1: { [other]: 1 - x, [xc]: x },
  };
  const s = Array.from({ length: n }, (_, i) => i / (n - 1));
  const results = chunkedScan(
    sys,
    s.map((v) => ({ T: T[0] + (T[1] - T[0]) * v, P: 101325, X: { [xc]: x } })),
    threads,
    control,
  );
  const edges: { s: number; r: EquilibriumResult }[] = [];
  const trs = refineTransitions(path, s, results, { sys, threads, control, structureOf }, edges);
  const edge = x < 0.5 ? 0 : 1;
  // a pure element's first-order transition passes through a two-phase field ~1e-7 wide whose phases
  // both lie at the edge; a solvus crossing x = 1e-7 brings in a phase far from it and is not one
  // (every stable set counts, however small: at a solvus crossing the other phase's amount goes to 0)
  const atEdge = (r: EquilibriumResult) => r.phases.every((p) => Math.abs((p.x[xc] ?? 0) - edge) < 0.01);
  const temps: number[] = [];
  trs.forEach((t, i) => {
    if (t.kind === 'order_disorder' || !atEdge(edges[2 * i].r) || !atEdge(edges[2 * i + 1].r)) return;
    if (!elementChangesPhase(c, edge, t.T)) return;
    if (!temps.some((v) => Math.abs(v - t.T) < 1)) temps.push(t.T);
  });
  return temps;
}

/**
 * A transition of the element itself changes the phase that holds it (the one of largest amount) 100 times closer
 * to the edge too, within PURE_T_TOL; a solvus of a phase dissolving ~1e-7 of the other element crossing the scan's
 * composition does not (pure Mg of Cu-Mg: hcp + a trace of liquid at x(Mg) 0.991 from 912.7 K, while Mg melts at
 * 922.2 K).
 */
function elementChangesPhase(c: AuditContext, edge: number, Tt: number): boolean {
  const x = edge === 0 ? 1e-9 : 1 - 1e-9;
  const main = (Tk: number) => {
    const r = equilibrium({
      database: c.db,
      components: c.components,
      phases: c.phases,
      conditions: { T: Tk, X: { [c.xc]: x } },
    });
    if (!r.converged || !r.phases.length) return null;
    return c.drawnName(r.phases.reduce((a, p) => (p.NP > a.NP ? p : a)));
  };
  const below = main(Tt - PURE_T_TOL),
    above = main(Tt + PURE_T_TOL);
  return below === null || above === null || below !== above;
}
