// Kind "invariant": the temperature of an invariant (C + 1 phases at fixed P: three in a binary, four in a
// ternary) at an overall composition on the invariant (shared/validation/README.md): the change of the
// stable phase set along T at that composition, located by bisection to 1e-6 K (worker/mapping/queries.ts),
// whose phases below and above together are the named phases. For a binary the mapped diagram
// (worker/mapping/binary.ts) must hold the same invariant (cross-check, reported on mismatch) and gives the
// phase compositions; otherwise the compositions come from the equilibria 1e-3 K below and above it.
import { baseName } from '../../../contract/phases.js';
import { equilibrium } from '../../core/equilibrium.js';

import { caseDatabase } from '../databases.js';
import type { ComputedValue, KindHandler } from '../types.js';
import { lineChanges, lineX } from '../line-changes.js';
import { caseDiagram } from '../diagrams.js';
import { caseElements, solverComponents } from '../scope.js';
import { vocabularyEntry } from './vocabulary.js';

export const invariant: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  const changes = lineChanges(c, db);
  const nPhases = caseElements(c).length + 1;
  // the phases named by the temperature entry, e.g. "T_invariant (LIQUID + FCC_A1 + BCT_A5)" or "(LIQUID -> A + B)"
  const tq = c.expected.find((e) => /^T_\w+\s*\(/.test(e.quantity.trim()))?.quantity ?? c.expected[0]?.quantity ?? '';
  const named = /\(([^()]+)\)/
    .exec(tq)?.[1]
    ?.split(/<->|->|\+|,/)
    .map((s) => s.trim().toUpperCase().replace(/#.*$/, ''))
    .filter(Boolean)
    .sort();
  const inv = changes.find((ch) => {
    const u = [...new Set([...ch.below, ...ch.above])].sort();
    return u.length === nPhases && (!named || named.length !== nPhases || u.join('+') === named.join('+'));
  });
  const diagram = nPhases === 3 ? caseDiagram(c, ctx) : null;
  const mapped = () => (inv && diagram ? diagram.invariants.find((v) => Math.abs(v.T - inv.T) < 0.1) : undefined);
  return c.expected.map((e): ComputedValue => {
    const q = e.quantity.trim();
    const describe = () =>
      changes.map((ch) => `${ch.below.join('+')}->${ch.above.join('+')} ${ch.T.toFixed(3)} K`).join('; ');
    if (/^T_(invariant|eutectic|peritectic|monotectic|eutectoid|peritectoid|syntectic|monotectoid)\b/i.test(q)) {
      if (!inv) return { value: null, error: `no ${nPhases}-phase invariant along the line (changes: ${describe()})` };
      if (diagram && !mapped())
        return { value: null, error: `the mapped diagram has no invariant within 0.1 K of ${inv.T.toFixed(4)} K` };
      return { value: inv.T };
    }
    if (/^stable_phases at T_invariant/.test(q)) {
      if (!inv) return { value: null, error: `no ${nPhases}-phase invariant along the line (changes: ${describe()})` };
      const d = mapped();
      return { value: d ? d.phases.map((p) => baseName(p.name)) : [...new Set([...inv.below, ...inv.above])] };
    }
    // X(PHASE,EL) at T_invariant: the phase's composition at the invariant
    const xm = /^X\(([A-Z0-9_]+),([A-Z0-9]+)\) at T_invariant\b/i.exec(q);
    if (xm) {
      if (!inv) return { value: null, error: `no ${nPhases}-phase invariant along the line (changes: ${describe()})` };
      const ph = xm[1].toUpperCase(),
        el = xm[2].toUpperCase();
      const d = mapped();
      if (diagram) {
        const p = d?.phases.find((s) => baseName(s.name) === ph);
        if (!d || !p)
          return { value: null, error: `${xm[1]} is not a phase of the mapped invariant at ${inv.T.toFixed(3)} K` };
        return { value: el === diagram.xComponent ? p.x : 1 - p.x };
      }
      for (const T of [inv.T - 1e-3, inv.T + 1e-3]) {
        const r = equilibrium({
          database: db,
          components: solverComponents(c, db),
          phases: c.phases,
          conditions: { T, P: typeof c.conditions.P === 'number' ? c.conditions.P : 101325, X: lineX(c, db) },
        });
        const set = r.converged ? r.phases.find((p) => p.name === ph) : undefined;
        if (set && el in set.x) return { value: set.x[el] };
      }
      return { value: null, error: `${ph} is stable on neither side of the invariant at ${inv.T.toFixed(3)} K` };
    }
    return vocabularyEntry(c, ctx, { c, db, mode: 'equilibrium', cond: c.conditions, entry: e });
  });
};
