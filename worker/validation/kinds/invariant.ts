// Kind "invariant": the temperature of a three-phase invariant of a binary, at an overall composition
// on the invariant line (shared/validation/README.md): the change of the stable phase set along T at
// that composition, located by bisection to 1e-6 K (worker/mapping/queries.ts), whose phases below and
// above together are the three named phases. The phases at T_invariant are those three; the mapped
// diagram (worker/mapping/binary.ts) must hold the same invariant (cross-check, reported on mismatch).
import { baseName } from '../../mapping/binary.js';
import { caseDatabase } from '../databases.js';
import type { ComputedValue, KindHandler } from '../types.js';
import { lineChanges } from './boundary.js';
import { caseDiagram } from './map.js';
import { vocabularyEntry } from './point.js';

export const invariant: KindHandler = (c, ctx) => {
  const db = caseDatabase(c, ctx);
  const changes = lineChanges(c, db);
  // a three-phase invariant: the union of the sets below and above holds three distinct phases
  // the phases named by the temperature entry, e.g. "T_invariant (LIQUID + FCC_A1 + BCT_A5)" or "(LIQUID -> A + B)"
  const tq = c.expected.find((e) => /^T_\w+\s*\(/.test(e.quantity.trim()))?.quantity ?? c.expected[0]?.quantity ?? '';
  const named = /\(([^()]+)\)/.exec(tq)?.[1]?.split(/<->|->|\+|,/).map((s) => s.trim().toUpperCase().replace(/#.*$/, '')).filter(Boolean).sort();
  const inv = changes.find((ch) => {
    const u = [...new Set([...ch.below, ...ch.above])].sort();
    return u.length === 3 && (!named || u.join('+') === named.join('+'));
  });
  const diagram = caseDiagram(c, ctx);
  return c.expected.map((e): ComputedValue => {
    const q = e.quantity.trim();
    if (!inv) return { value: null, unsupported: `no three-phase invariant along the line (changes: ${changes.map((ch) => `${ch.below.join('+')}->${ch.above.join('+')} ${ch.T.toFixed(3)} K`).join('; ')})` };
    if (/^T_(invariant|eutectic|peritectic|monotectic|eutectoid|peritectoid|syntectic|monotectoid)\b/i.test(q)) {
      const d = diagram.invariants.find((v) => Math.abs(v.T - inv.T) < 0.1);
      if (!d) return { value: null, unsupported: `the mapped diagram has no invariant within 0.1 K of ${inv.T.toFixed(4)} K` };
      return { value: inv.T };
    }
    if (/^stable_phases at T_invariant/.test(q)) {
      const d = diagram.invariants.find((v) => Math.abs(v.T - inv.T) < 0.1);
      return { value: d ? d.phases.map((p) => baseName(p.name)) : [...new Set([...inv.below, ...inv.above])] };
    }
    // X(PHASE,EL) at T_invariant: the phase's composition at the mapped invariant
    const xm = /^X\(([A-Z0-9_]+),([A-Z0-9]+)\) at T_invariant\b/i.exec(q);
    if (xm) {
      const d = diagram.invariants.find((v) => Math.abs(v.T - inv.T) < 0.1);
      const p = d?.phases.find((s) => baseName(s.name) === xm[1].toUpperCase());
      if (!d || !p) return { value: null, error: `${xm[1]} is not a phase of the mapped invariant at ${inv.T.toFixed(3)} K` };
      return { value: xm[2].toUpperCase() === diagram.xComponent ? p.x : 1 - p.x };
    }
    return vocabularyEntry(c, ctx, { c, db, mode: 'equilibrium', cond: c.conditions, entry: e });
  });
};
