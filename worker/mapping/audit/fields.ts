// The field check of a diagram's self-audit (worker/mapping/audit.ts, check (d)): point equilibria inside each
// two-phase field give its two phases, and at each single-phase label its phase.
import { baseName } from '../../../contract/phases.js';
import { equilibrium } from '../../core/equilibrium.js';
import { fmtT, fmtX, NUDGE, sameSet, specialTemperatures, X_TOL, XHI, XLO, type AuditContext } from './context.js';

/** The point equilibria in the fields and at the labels; returns how many converged (and were compared). */
export function checkFieldPoints(c: AuditContext): number {
  const special = specialTemperatures(c.d);
  return checkRegionPoints(c, special) + checkLabelPoints(c, special);
}

/** At a quarter, half and three quarters of each field wide enough, the middle of the tie-line. */
function checkRegionPoints(c: AuditContext, special: number[]): number {
  let points = 0;
  for (const r of c.d.regions) {
    const tl = r.tielines.filter((t) => t.x[1] - t.x[0] > 4 * X_TOL);
    if (tl.length < 3) continue;
    for (const f of [0.25, 0.5, 0.75]) {
      const t = tl[Math.floor(f * (tl.length - 1))];
      if (special.some((v) => Math.abs(v - t.T) < NUDGE)) continue;
      const X = (t.x[0] + t.x[1]) / 2;
      const res = equilibrium({
        database: c.db,
        components: c.components,
        phases: c.phases,
        conditions: { T: t.T, X: { [c.xc]: X } },
      });
      if (!res.converged) continue;
      points++;
      const got = res.phases.filter((p) => p.NP > 1e-9).map(c.drawnName);
      if (!sameSet(got, r.phases.map(baseName)))
        c.failures.fields.push(
          `${r.phases.join('+')} at ${fmtT(t.T)} K x=${fmtX(X)}: the equilibrium is ${got.join('+')}`,
        );
    }
  }
  return points;
}

/** A label on the diagram's edge stands for the pure element, where the condition clamp decides the answer. */
function checkLabelPoints(c: AuditContext, special: number[]): number {
  let points = 0;
  for (const l of c.d.singlePhaseLabels) {
    if (special.some((v) => Math.abs(v - l.T) < NUDGE) || l.x < 2e-3 || l.x > 1 - 2e-3) continue;
    const res = equilibrium({
      database: c.db,
      components: c.components,
      phases: c.phases,
      conditions: { T: l.T, X: { [c.xc]: Math.min(XHI, Math.max(XLO, l.x)) } },
    });
    if (!res.converged) continue;
    points++;
    const got = res.phases.filter((p) => p.NP > 1e-9).map(c.drawnName);
    if (!sameSet(got, [baseName(l.label)]))
      c.failures.fields.push(`label ${l.label} at ${fmtT(l.T)} K x=${fmtX(l.x)}: the equilibrium is ${got.join('+')}`);
  }
  return points;
}
