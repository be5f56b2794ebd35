// binary_cpt_diagram on a database without molar volumes: result.json says pressure_dependent: false and the
// preview carries the note that pressure changes nothing; a database with V0 parameters gets neither.
import { describe, expect, it } from 'vitest';
import { parsedJob } from '../support/jobs.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NO_VOLUME_NOTE, pressureDependent, readInput, run } from '../../worker/calculations/binary_cpt_diagram.js';
import { CONTROL_BYTES, JobControl } from '../../worker/protocol.js';
import { escapeXml } from '../../worker/plots/svg.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const condition = {
  components: ['CU', 'NI'],
  x_component: 'NI',
  composition_start: 0,
  composition_end: 1,
  composition_step: 0.25,
  temperature_start: 1400,
  temperature_end: 1800,
  temperature_step: 100,
  pressure_start: 1e5,
  pressure_end: 1e9,
  pressure_points: 2,
  pressure_scale: 'log',
};
function job(tdb: string, cond: Record<string, unknown>, dir: string) {
  return parsedJob('binary_cpt_diagram', {
    taskUuid: 't',
    ompThreads: 1,
    taskDir: dir,
    control: new SharedArrayBuffer(CONTROL_BYTES),
    config: { tdb_code: 'X', tdb_file: tdb, condition: cond },
  });
}

describe('C-P-T pressure note', () => {
  it('a database without V0 parameters: flag false in result.json, note in the preview and the logs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpt-note-'));
    try {
      const out = run(
        job(resolve(__dirname, '../../databases/cuni_mey1992.tdb'), condition, dir),
        new JobControl(new SharedArrayBuffer(CONTROL_BYTES)),
      );
      const doc = JSON.parse(readFileSync(join(dir, 'result', 'result.json'), 'utf8'));
      expect(doc.pressure_dependent).toBe(false);
      expect(doc.components).toEqual(['NI', 'CU']);
      expect(readFileSync(join(dir, 'preview', 'isobaric_sections.svg'), 'utf8')).toContain(escapeXml(NO_VOLUME_NOTE));
      expect(out.logs.some((l) => l.includes('no molar-volume'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a database with a V0 parameter is pressure dependent', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpt-note-'));
    try {
      const tdb = join(SHARED_TDB_DIR, 'alcocrni.tdb');
      const input = readInput(job(tdb, { ...condition, components: ['AL', 'NI'], x_component: 'NI' }, dir));
      expect(pressureDependent(input)).toBe(true);
      const cuni = readInput(job(resolve(__dirname, '../../databases/cuni_mey1992.tdb'), condition, dir));
      expect(pressureDependent(cuni)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
