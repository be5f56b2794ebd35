// Reference phases of GM_FORMATION (shared/validation/README.md "Quantities"): where a case names them and the
// Gibbs energy of each pure element in its reference phase.
import type { NativeDatabase } from '../core/native.js';
import { caseElements, dbInfo, NoResult, solveCached, Unsupported, type Scope } from './scope.js';
import type { ExpectedEntry, ValidationCase } from './types.js';

// ------------------------------------------------------------------------------- reference phases

/**
 * Reference phase of each element for GM_FORMATION: a field `reference_phases` ({EL: PHASE}, or a list of
 * phase names, one for all elements or one per element in the case's element order) on the expected
 * entry, the case or its `calculation`; else the phases the entry's note or the case's notes name
 * ("FCC_A1 for Al", "Al: FCC_A1", "AL=FCC_A1", "Al in FCC_A1", "FCC_A1 (Al)", "Al(FCC_A1)", "FCC_A1 Al", "relative to FCC_A1");
 * else the reference phase of the database's ELEMENT line (the SER phase) when the database defines it.
 */
export function referencePhases(c: ValidationCase, db: NativeDatabase, entry?: ExpectedEntry): Record<string, string> {
  const els = caseElements(c);
  const phases = new Set(dbInfo(db).phases.map((p) => p.name.toUpperCase()));
  const out: Record<string, string> = {};
  const field = (o: unknown) => {
    if (!o || typeof o !== 'object') return undefined;
    const r = o as Record<string, unknown>;
    return r.reference_phases ?? r.reference_phase ?? r.reference_states ?? r.references;
  };
  const given = field(entry) ?? field(c) ?? field(c.calculation);
  if (typeof given === 'string') for (const el of els) out[el] = given.toUpperCase();
  else if (Array.isArray(given)) {
    const list = given.map((p) => String(p).toUpperCase());
    els.forEach((el, i) => (out[el] = list.length === 1 ? list[0] : list[i]));
  } else if (given && typeof given === 'object') {
    for (const [k, v] of Object.entries(given as Record<string, unknown>))
      out[k.toUpperCase()] = String(v).toUpperCase();
  }
  const text = [entry?.note ?? '', c.notes ?? ''].join(' \n ');
  const isEl = (s: string) => els.includes(s.toUpperCase());
  const isPh = (s: string) => phases.has(s.toUpperCase());
  const take = (el: string, ph: string) => {
    if (isEl(el) && isPh(ph) && !out[el.toUpperCase()]) out[el.toUpperCase()] = ph.toUpperCase();
  };
  const EL = '([A-Za-z][A-Za-z]?)';
  const PH = '([A-Za-z][A-Za-z0-9_]*)';
  for (const [re, elFirst] of [
    [new RegExp(`\\b${PH}\\s+(?:for|of)\\s+(?:pure\\s+)?${EL}\\b`, 'g'), false],
    [new RegExp(`\\b(?:pure\\s+)?${EL}\\s*(?::|=|->|in|as)\\s*${PH}\\b`, 'g'), true],
    [new RegExp(`\\b${PH}\\s*\\(\\s*(?:pure\\s+)?${EL}\\s*\\)`, 'g'), false],
    [new RegExp(`\\bpure\\s+${EL}\\s+${PH}\\b`, 'g'), true],
    [new RegExp(`\\b${EL}\\s*\\(\\s*${PH}\\s*\\)`, 'g'), true],
    [new RegExp(`\\b${PH}\\s+(?:pure\\s+)?${EL}\\b`, 'g'), false],
  ] as Array<[RegExp, boolean]>) {
    for (const m of text.matchAll(re)) {
      if (elFirst) take(m[1], m[2]);
      else take(m[2], m[1]);
    }
  }
  const single =
    /\b(?:relative to|reference(?: phase)?s?(?: is| are|:)?)\s+(?:pure\s+)?(?:the\s+)?([A-Za-z][A-Za-z0-9_]*)\b/i.exec(
      text,
    );
  if (single && isPh(single[1])) for (const el of els) out[el] ??= single[1].toUpperCase();
  for (const el of els) {
    if (out[el]) continue;
    const ser = dbInfo(db)
      .elements.find((e) => e.name.toUpperCase() === el)
      ?.referencePhase?.toUpperCase();
    if (ser && phases.has(ser)) out[el] = ser;
    else throw new Unsupported(`GM_FORMATION: no reference phase for ${el} (name it in reference_phases or the notes)`);
  }
  return out;
}

/** GM of pure `el` in `phase` at T, P (the phase alone, one composition set, the element's own system). */
export function pureGM(s: Scope, el: string, phase: string, T: number, P: number): number {
  const comps = dbInfo(s.db).elements.some((e) => e.name.toUpperCase() === 'VA') ? [el, 'VA'] : [el];
  const r = solveCached(s.db, comps, [phase], { T, P }, true, []);
  if (!r.converged) throw new NoResult(`pure ${el} in ${phase} at T=${T} did not converge: ${r.reason}`);
  return r.GM;
}

export function formationReference(s: Scope, x: Record<string, number>, T: number, P: number): number {
  const refs = referencePhases(s.c, s.db, s.entry);
  let g = 0;
  for (const [el, xi] of Object.entries(x)) if (xi !== 0) g += xi * pureGM(s, el, refs[el], T, P);
  return g;
}
