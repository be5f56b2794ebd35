// The node side of the result files: provenance of the engine and database file, the conversion of solver
// results to result.json points, and the writer of <taskDir>/result/ and <taskDir>/preview/. The document
// types and pure helpers are in contract/results/common.ts (re-exported here for the calculations).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { ENGINE_VERSION } from '../../contract/version.js';
import { join } from 'node:path';
import type { NativeDatabase } from '../core/native.js';
import type { EquilibriumResult, PhaseState } from '../core/equilibrium.js';
import { PhaseModel } from '../core/models.js';
import { classifyOrdering, orderingModelOf, type OrderingModel, type OrderingState } from './ordering.js';
import {
  ENGINE_NAME,
  type EquilibriumPoint,
  type Provenance,
  type ResultDocument,
  type SublatticeFractions,
} from '../../contract/results/common.js';
import { PREVIEW_PNG_WIDTH, writePreviewPng } from '../plots/png.js';
import { elementMasses, massFractionsOrUndefined } from './units.js';

export {
  RESULT_VERSION,
  ENGINE_NAME,
  phaseLabel,
  tableToCsv,
  type Provenance,
  type ResultDocument,
  type SublatticeFractions,
  type PhaseRecord,
  type MetastableRecord,
  type EquilibriumPoint,
  type ResultTable,
} from '../../contract/results/common.js';

/** The engine version recorded in provenance (contract/version.ts). */
export function getEngineVersion(): string {
  return ENGINE_VERSION;
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

/**
 * Converts solver results to result.json points; caches one PhaseModel per phase to name the
 * site-fraction variables.
 */
export class PointConverter {
  private readonly models = new Map<string, PhaseModel | null>();
  private orderingModels?: Map<string, OrderingModel | null>;
  private masses?: Record<string, number>;
  constructor(
    private readonly db: NativeDatabase,
    private readonly components: string[],
  ) {}

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
    model.variables.forEach((v, k) => {
      out[v.sublattice]![v.species] = phase.y[k] ?? 0;
    });
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
      T: r.T,
      P: r.P,
      x: { ...r.x },
      ...this.massField(r.x),
      converged: r.converged,
      reason: r.converged ? '' : r.reason,
      GM: r.GM,
      HM: r.HM,
      SM: r.SM,
      CPM: r.CPM,
      MU: { ...r.mu },
      phases: r.phases.map((p) => ({
        name: p.name,
        composition_set: p.setNumber,
        amount: p.NP,
        x: { ...p.x },
        ...this.massField(p.x),
        site_fractions: this.siteFractions(p),
        GM: p.GM,
        HM: p.HM,
        SM: p.SM,
        CPM: p.CPM,
        ...this.orderingField(p),
      })),
      metastable: r.metastable.map((m) => ({ name: m.name, driving_force: m.DF, x: { ...m.x }, GM: m.GM })),
    };
  }
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
