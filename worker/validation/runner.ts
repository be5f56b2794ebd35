// Validation runner: loads a cases file (schema calphad-validation-cases/1), dispatches every case by
// kind through the registry (kinds/index.ts), applies the tolerance rule per expected entry, and
// builds a report with computed value, expected value and verdict for every entry. Kinds without an
// implementation, and entries a kind cannot compute, are reported as "unsupported".
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compareEntry } from './compare.js';
import { kinds as defaultKinds } from './kinds/index.js';
import type { CaseReport, CasesFile, EntryReport, KindContext, KindHandler, ValidationCase } from './types.js';

export interface KindSummary {
  matched: number;
  total: number;
  mismatch: number;
  unsupported: number;
  error: number;
}

export interface ValidationReport {
  casesFile: string;
  generatedAt: string;
  summary: Record<string, KindSummary>;
  cases: CaseReport[];
}

export function loadCases(file: string): CasesFile {
  const data = JSON.parse(readFileSync(file, 'utf8')) as CasesFile;
  if (!data || !Array.isArray(data.cases)) throw new Error(`${file}: not a validation cases file (no "cases" list)`);
  return data;
}

export async function runCase(
  c: ValidationCase,
  ctx: KindContext,
  registry: Record<string, KindHandler>,
): Promise<CaseReport> {
  const handler = registry[c.kind];
  const base = (verdict: EntryReport['verdict'], message?: string): EntryReport[] =>
    c.expected.map((e) => ({
      quantity: e.quantity,
      phase: e.phase,
      expected: e.value,
      computed: null,
      verdict,
      message,
    }));
  if (!handler) {
    const msg = `kind '${c.kind}' is not implemented yet`;
    return { id: c.id, kind: c.kind, verdict: 'unsupported', entries: base('unsupported', msg), message: msg };
  }
  let computed;
  try {
    computed = await handler(c, ctx);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    return { id: c.id, kind: c.kind, verdict: 'error', entries: base('error', msg), message: msg };
  }
  const entries: EntryReport[] = c.expected.map((e, i) => {
    const cv = computed[i];
    if (cv?.error) {
      return {
        quantity: e.quantity,
        phase: e.phase,
        expected: e.value,
        computed: null,
        verdict: 'error',
        message: cv.error,
      };
    }
    if (!cv || cv.unsupported) {
      return {
        quantity: e.quantity,
        phase: e.phase,
        expected: e.value,
        computed: null,
        verdict: 'unsupported',
        message: cv?.unsupported ?? 'not computed',
      };
    }
    let cmp = compareEntry(e, cv.value);
    let toleranceUsed: 'entry' | 'suggested' = 'entry';
    // An algorithm-dependent value (e.g. pycalphad's stopping rule) is judged with the curator's
    // suggested tolerance for an independent engine, when the case gives one; the report says so.
    if (!cmp.ok && c.suggested_tolerance) {
      const loose = compareEntry({ ...e, tolerance: c.suggested_tolerance }, cv.value);
      if (loose.ok) {
        cmp = loose;
        toleranceUsed = 'suggested';
      }
    }
    return {
      quantity: e.quantity,
      phase: e.phase,
      expected: e.value,
      computed: cv.value,
      verdict: cmp.ok ? 'matched' : 'mismatch',
      deviation: cmp.deviation,
      message: cmp.message,
      tolerance_used: toleranceUsed,
    };
  });
  const verdict = entries.every((x) => x.verdict === 'matched')
    ? 'matched'
    : entries.some((x) => x.verdict === 'mismatch')
      ? 'mismatch'
      : entries.some((x) => x.verdict === 'error')
        ? 'error'
        : 'unsupported';
  return { id: c.id, kind: c.kind, verdict, entries };
}

export interface RunOptions {
  /** folder of the TDB files; default: ../tdb next to the cases file (the shared layout) */
  tdbDir?: string;
  /** only cases of these kinds */
  kinds?: string[];
  registry?: Record<string, KindHandler>;
}

export async function runValidation(casesFile: string, opts: RunOptions = {}): Promise<ValidationReport> {
  const data = loadCases(casesFile);
  // default TDB folder: ../tdb beside the cases file (the shared layout), else PHASEDESK_TDB_DIR
  const beside = path.join(path.dirname(path.resolve(casesFile)), '..', 'tdb');
  const envDir = process.env.PHASEDESK_TDB_DIR;
  const ctx: KindContext = {
    tdbDir: opts.tdbDir ?? (!existsSync(beside) && envDir ? envDir : beside),
    casesDir: path.dirname(path.resolve(casesFile)),
  };
  const registry = opts.registry ?? defaultKinds;
  const summary: Record<string, KindSummary> = {};
  const reports: CaseReport[] = [];
  for (const c of data.cases) {
    if (opts.kinds && !opts.kinds.includes(c.kind)) continue;
    const r = await runCase(c, ctx, registry);
    reports.push(r);
    const s = (summary[c.kind] ??= { matched: 0, total: 0, mismatch: 0, unsupported: 0, error: 0 });
    s.total++;
    s[r.verdict]++;
  }
  return { casesFile: path.resolve(casesFile), generatedAt: new Date().toISOString(), summary, cases: reports };
}

export function formatSummary(r: ValidationReport): string {
  const lines = Object.entries(r.summary)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, s]) => {
      const extra = [
        s.mismatch && `${s.mismatch} mismatch`,
        s.error && `${s.error} error`,
        s.unsupported && `${s.unsupported} unsupported`,
      ]
        .filter(Boolean)
        .join(', ');
      return `${k.padEnd(12)} ${s.matched}/${s.total} matched${extra ? ` (${extra})` : ''}`;
    });
  const tot = Object.values(r.summary).reduce((a, s) => ({ m: a.m + s.matched, t: a.t + s.total }), { m: 0, t: 0 });
  lines.push(`${'all'.padEnd(12)} ${tot.m}/${tot.t} matched`);
  return lines.join('\n');
}
