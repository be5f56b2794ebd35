// The node side of the result files: provenance of the engine and database file, and the writer of
// <taskDir>/result/ and <taskDir>/preview/. The document types and pure helpers are in contract/results/common.ts.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { ENGINE_VERSION } from '../../contract/version.js';
import { join } from 'node:path';
import { ENGINE_NAME, type Provenance, type ResultDocument } from '../../contract/results/common.js';
import { PREVIEW_PNG_WIDTH, writePreviewPng } from '../plots/png.js';

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
