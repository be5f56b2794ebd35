// Shared vocabulary of the result files every calculation writes (issue 5 "Outputs"): one equilibrium
// point in result.json, provenance (engine + database) so a result is reproducible, and the writer of
// <taskDir>/result/ and <taskDir>/preview/. The per-task-type result documents extend ResultDocument;
// the README ("Result files") documents each of them. Units: K, Pa, J/mol of atoms, J/(mol K),
// mole fractions; amounts NP in moles of atoms per mole of atoms of the system (N = 1).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NativeDatabase } from '../core/native.js';
import type { EquilibriumResult, PhaseState } from '../core/equilibrium.js';
import { PhaseModel } from '../core/models.js';
import { svgToPng } from '../plots/png.js';
import { classifyOrdering, orderingModelOf, type OrderingModel, type OrderingState } from './ordering.js';
import { PREVIEW_PNG_WIDTH, writePreviewPng } from '../plots/png.js';
import { elementMasses, massFractionsOrUndefined } from './units.js';

/** Version of the result.json layout; bumped on any incompatible change. */
export const RESULT_VERSION = 1;
export const ENGINE_NAME = 'phasedesk-core';

let engineVersion: string | undefined;
/**
 * The package version of PhaseDesk (the engine ships with the app and has no separate version),
 * read from the nearest package.json named "phasedesk" above this module (sources and dist/ alike).
 */
export function getEngineVersion(): string {
  if (engineVersion) return engineVersion;
  engineVersion = 'unknown';
  for (let up = '../'; up.length < 16; up += '../') {
    try {
      const pkg = JSON.parse(readFileSync(new URL(`${up}package.json`, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'phasedesk') { engineVersion = pkg.version ?? 'unknown'; break; }
    } catch { /* not at this level */ }
  }
  return engineVersion;
}

export interface Provenance {
  engine: { name: string; version: string };
  /** code = the catalog code (null when run from a file by `phasedesk calc`), sha256 of the TDB bytes */
  database: { code: string | null; file_name: string; sha256: string };
  created_at: string;
}

export function sha256OfFile(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export function provenance(tdbFile: string, code: string | null, sha256?: string): Provenance {
  return {
    engine: { name: ENGINE_NAME, version: getEngineVersion() },
    database: { code, file_name: tdbFile.split(/[\\/]/).pop() ?? tdbFile, sha256: sha256 ?? sha256OfFile(tdbFile) },
    created_at: new Date().toISOString(),
  };
}

/** Every result.json: version, task type, provenance, the validated task_config it answers. */
export interface ResultDocument {
  version: number;
  task_type: string;
  provenance: Provenance;
  config: Record<string, unknown>;
}

/** One sublattice of a phase: its constituents' site fractions. */
export type SublatticeFractions = Record<string, number>;

export interface PhaseRecord {
  name: string;
  /** 1, 2, ... (miscibility gaps) */
  composition_set: number;
  /** NP: moles of atoms of the phase per mole of atoms of the system */
  amount: number;
  /** mole fractions of the elements in the phase */
  x: Record<string, number>;
  /** mass fractions of the elements in the phase (absent when an element has no molar mass in the database) */
  w?: Record<string, number>;
  /** site fractions, one map per sublattice */
  site_fractions: SublatticeFractions[];
  GM: number;
  HM: number;
  SM: number;
  /** frozen Cp of the phase, -T d2GM/dT2 */
  CPM: number;
  /**
   * Present for phases with an order-disorder description (worker/results/ordering.ts): whether this set is
   * ordered and its structure, e.g. { ordered: false, structure: 'A2', label: 'A2 (BCC_B2)' }.
   */
  ordering?: OrderingState;
  /** Curie/Neel temperature (K) and mean magnetic moment per mole of atoms (Bohr magnetons): magnetic phases only */
  TC?: number;
  BMAGN?: number;
  /** molar volume, m^3/mol of atoms: only phases with volume parameters in the database */
  VM?: number;
  /** pycalphad's degree of ordering (0 = disordered): phases with a constituent on two or more sublattices */
  degree_of_ordering?: number;
  /** GM - sum_i x_i GM(reference state of i) at the same T and P, J/mol of atoms (worker/results/thermo-extra.ts) */
  GM_formation?: number;
}

export interface MetastableRecord {
  name: string;
  /** sum_A mu_A x_A - GM at the relaxed composition, J/mol of atoms; < 0 = not stable */
  driving_force: number;
  x: Record<string, number>;
  GM: number;
}

export interface EquilibriumPoint {
  T: number;
  P: number;
  /** overall mole fractions */
  x: Record<string, number>;
  /** overall mass fractions (molar masses of the ELEMENT lines; absent when an element has none) */
  w?: Record<string, number>;
  converged: boolean;
  /** why the solver could not certify the answer ('' when converged) */
  reason: string;
  GM: number;
  HM: number;
  SM: number;
  /** frozen-phase Cp of the system (sum NP * CPM of the phases) */
  CPM: number;
  /** chemical potentials per element, J/mol */
  MU: Record<string, number>;
  phases: PhaseRecord[];
  metastable: MetastableRecord[];
  /** sum NP * VM when every stable phase has volume data, m^3/mol */
  VM?: number;
  /** GM - sum_i x_i GM(reference state of i), J/mol of atoms */
  GM_formation?: number;
  /** chemical potential relative to the reference state of each element (MU - GM_ref), J/mol of the element */
  MUR?: Record<string, number>;
  /** activity relative to the reference state, exp(MUR / RT) */
  ACR?: Record<string, number>;
}

/**
 * Converts solver results to result.json points; caches one PhaseModel per phase to name the
 * site-fraction variables.
 */
export class PointConverter {
  private readonly models = new Map<string, PhaseModel | null>();
  private orderingModels?: Map<string, OrderingModel | null>;
  private masses?: Record<string, number>;
  constructor(private readonly db: NativeDatabase, private readonly components: string[]) {}

  /** Ordered or not (phases with an order-disorder description only; undefined otherwise). */
  ordering(phase: PhaseState): OrderingState | undefined {
    if (!this.orderingModels) {
      this.orderingModels = new Map(this.db.info().phases.map((p) => [p.name, orderingModelOf(p)]));
    }
    const m = this.orderingModels.get(phase.name);
    return m ? classifyOrdering(m, this.siteFractions(phase)) : undefined;
  }

  siteFractions(phase: PhaseState): SublatticeFractions[] {
    let model = this.models.get(phase.name);
    if (model === undefined) {
      model = PhaseModel.build(this.db, phase.name, this.components);
      this.models.set(phase.name, model);
    }
    if (!model) return [];
    const out: SublatticeFractions[] = Array.from({ length: model.info.numSublattices }, () => ({}));
    model.variables.forEach((v, k) => { out[v.sublattice]![v.species] = phase.y[k] ?? 0; });
    return out;
  }

  private orderingField(p: PhaseState): { ordering?: OrderingState } {
    const o = this.ordering(p);
    return o ? { ordering: o } : {};
  }

  /** `w`: mass fractions of x, omitted when an element has no positive molar mass. */
  private massField(x: Record<string, number>): { w?: Record<string, number> } {
    this.masses ??= elementMasses(this.db.info().elements);
    const w = massFractionsOrUndefined(x, this.masses);
    return w ? { w } : {};
  }

  point(r: EquilibriumResult): EquilibriumPoint {
    return {
      T: r.T, P: r.P, x: { ...r.x }, ...this.massField(r.x), converged: r.converged, reason: r.converged ? '' : r.reason,
      GM: r.GM, HM: r.HM, SM: r.SM, CPM: r.CPM, MU: { ...r.mu },
      phases: r.phases.map((p) => ({
        name: p.name, composition_set: p.setNumber, amount: p.NP, x: { ...p.x }, ...this.massField(p.x),
        site_fractions: this.siteFractions(p), GM: p.GM, HM: p.HM, SM: p.SM, CPM: p.CPM,
        ...this.orderingField(p),
      })),
      metastable: r.metastable.map((m) => ({ name: m.name, driving_force: m.DF, x: { ...m.x }, GM: m.GM })),
    };
  }
}

/** Phase label of a stable composition set: NAME, or NAME#2 for the second set of a gap. */
export function phaseLabel(p: { name: string; composition_set: number }): string {
  return p.composition_set > 1 ? `${p.name}#${p.composition_set}` : p.name;
}

/** A result table: named columns with units, rows of numbers/strings (null = not applicable). */
export interface ResultTable {
  columns: { name: string; unit: string }[];
  rows: (number | string | null)[][];
}

/** CSV (RFC 4180) of a table; the header carries the unit in brackets, e.g. "T [K]". */
export function tableToCsv(table: ResultTable): string {
  const cell = (v: number | string | null): string => {
    if (v === null || v === undefined) return '';
    const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const header = table.columns.map((c) => cell(c.unit ? `${c.name} [${c.unit}]` : c.name));
  return [header.join(','), ...table.rows.map((r) => r.map(cell).join(','))].join('\r\n') + '\r\n';
}

export interface ResultFiles {
  json: ResultDocument;
  csv?: string;
  /** preview SVG documents by base name (e.g. { preview: svg } -> preview.svg + preview.png) */
  previews?: Record<string, string>;
}

/**
 * Writes <dir>/result/result.json (+ result.csv) and <dir>/preview/<name>.svg + .png. `dir` is the
 * task directory in the service and the --out directory of `phasedesk calc`.
 */
export function writeResultFiles(dir: string, files: ResultFiles): string[] {
  const written: string[] = [];
  const resultDir = join(dir, 'result');
  mkdirSync(resultDir, { recursive: true });
  writeFileSync(join(resultDir, 'result.json'), JSON.stringify(files.json));
  written.push('result/result.json');
  if (files.csv !== undefined) {
    writeFileSync(join(resultDir, 'result.csv'), files.csv);
    written.push('result/result.csv');
  }
  if (files.previews) {
    const previewDir = join(dir, 'preview');
    mkdirSync(previewDir, { recursive: true });
    for (const [name, svg] of Object.entries(files.previews)) {
      writeFileSync(join(previewDir, `${name}.svg`), svg);
      writePreviewPng(join(previewDir, `${name}.png`), svg, { width: PREVIEW_PNG_WIDTH });
      written.push(`preview/${name}.svg`, `preview/${name}.png`);
    }
  }
  return written;
}
