// Phase selection in every task type (worker/system/phase-selection.ts), on LibreCalphad's MF Steel (362 phases,
// ordered partners, an ionic liquid): each type completes with the database's recommended selection (the catalog's
// MF_STEEL entry) and with a task's own inhibit_phases of names, patterns and groups; result.json records the
// selection and no suppressed phase appears in the results. selectPhases itself: activated phases first, conditional
// entries, entries the file does not define, a selection that leaves nothing.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TaskType } from '../../contract/tasks/registry.js';
import type { DatabasePhaseSelection } from '../../contract/phase-selection.js';
import type { ResultDocument } from '../../contract/results/common.js';
import { loadCalculation } from '../../worker/index.js';
import { openDatabase } from '../../worker/core/database.js';
import { selectPhases } from '../../worker/system/phase-selection.js';
import { JobControl } from '../../worker/protocol.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

const MF_STEEL = path.join(SHARED_TDB_DIR, 'mf-steel.tdb');
const catalog = JSON.parse(readFileSync(path.resolve(__dirname, '../../databases/catalog.json'), 'utf8')) as {
  code: string;
  phase_selection?: DatabasePhaseSelection;
}[];
const RECOMMENDED = catalog.find((e) => e.code === 'MF_STEEL')!.phase_selection!;
/** What the recommended selection removes from the phases that can form in a system with Fe and C. */
const REMOVED_FE_C = ['BCC_B2', 'BCC_4SL', 'FCC_L10', 'FCC_L12', 'HCP_L12', 'IONIC_LIQ', 'KAPPA_E21', 'MC_SHP'];
const P = 101325;
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-selection-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const FE_C = { components: ['FE', 'C'] };
/** A small configuration of every task type on Fe-C (Fe-Cr-C where the type needs three components). */
const CONDITIONS: Record<TaskType, { condition: Record<string, unknown>; extra?: Record<string, unknown> }> = {
  point_calculation: { condition: { ...FE_C, temperature: 1000, pressure: P, compositions: { C: 0.018 } } },
  line_calculation: {
    condition: {
      ...FE_C,
      compositions_start: { C: 0.018 },
      compositions_end: { C: 0.018 },
      temperature_start: 900,
      temperature_end: 1900,
      pressure: P,
      points: 11,
    },
  },
  binary_equilibrium: {
    condition: {
      ...FE_C,
      compositions_start: { C: 0 },
      compositions_end: { C: 0.1 },
      temperature_start: 900,
      temperature_end: 1900,
      pressure: P,
    },
    extra: { activated_elements: ['FE', 'C'] },
  },
  thermodynamic_properties_next: {
    condition: {
      ...FE_C,
      compositions_start: { C: 0.018 },
      compositions_end: { C: 0.018 },
      temperature_start: 900,
      temperature_end: 1300,
      pressure: P,
      points: 5,
    },
  },
  scheil_solidification: {
    condition: { ...FE_C, compositions: { C: 0.018 }, start_temperature: 1850, temperature_step: 10, pressure: P },
  },
  binary_cpt_diagram: {
    condition: {
      ...FE_C,
      x_component: 'C',
      composition_start: 0,
      composition_end: 0.1,
      composition_step: 0.025,
      temperature_start: 1000,
      temperature_end: 1800,
      temperature_step: 200,
      pressure_start: 1e5,
      pressure_end: 1e6,
      pressure_points: 2,
      pressure_scale: 'log',
    },
  },
  isopleth: {
    condition: {
      components: ['FE', 'CR', 'C'],
      composition_start: { CR: 0.1, C: 0 },
      composition_end: { CR: 0.1, C: 0.02 },
      temperature_start: 1500,
      temperature_end: 1850,
      pressure: P,
      resolution: 10,
    },
  },
  solidification: {
    condition: {
      ...FE_C,
      compositions: { C: 0.018 },
      start_temperature: 1850,
      temperature_step: 10,
      pressure: P,
      cooling_rate: 10,
    },
  },
  solution_treatment: {
    condition: { ...FE_C, compositions: { C: 0.018 }, pressure: P, temperature_start: 900, points: 21 },
  },
  potential_diagram: {
    condition: {
      ...FE_C,
      pressure: P,
      x_axis: { quantity: 'temperature', start: 900, end: 1200 },
      y_axis: { quantity: 'log10_activity', element: 'C', start: -2, end: 0 },
      grid_points: 7,
    },
  },
  liquidus_projection: {
    condition: { components: ['FE', 'CR', 'C'], pressure: P, grid_divisions: 4 },
  },
  aging: {
    condition: {
      ...FE_C,
      compositions: { C: 0.018 },
      pressure: P,
      matrix_phase: 'FCC_A1',
      matrix_lattice_parameter: 3.6e-10,
      temperature: 950,
      end_time: 100,
      precipitates: [{ phase: 'BCC_A2', interfacial_energy: 0.5, lattice_parameter: 2.87e-10, atoms_per_cell: 2 }],
      diffusivities: { C: { D0: 2.3e-5, Q: 148000 } },
      points: 11,
    },
  },
  spinodal_decomposition: {
    condition: {
      ...FE_C,
      phase: 'BCC_A2',
      temperature_start: 500,
      temperature_end: 900,
      pressure: P,
      temperature_points: 3,
      composition_points: 21,
    },
  },
  ternary_isothermal_section: {
    condition: { components: ['FE', 'CR', 'C'], temperature: 1200, pressure: P, map_options: { grid_divisions: 8 } },
  },
  gibbs_energy_curves: {
    condition: {
      ...FE_C,
      compositions_start: { C: 0 },
      compositions_end: { C: 0.1 },
      temperature: 1200,
      pressure: P,
      points: 21,
    },
  },
  equilibrium_batch: {
    condition: {
      ...FE_C,
      pressure: P,
      product: { compositions: [{ C: 0.01 }, { C: 0.018 }], temperatures: [1000, 1200] },
      thermo_outputs: ['phase_name', 'NP(*)', 'DF(*)'],
    },
  },
};

let n = 0;
async function calculate(type: TaskType, inhibit?: string[]): Promise<{ doc: ResultDocument; text: string }> {
  const { condition, extra } = CONDITIONS[type];
  const dir = path.join(tmp, `${type}-${n++}`);
  const job = parsedJob(type, {
    taskUuid: 'sel',
    ompThreads: 2,
    taskDir: dir,
    control: new SharedArrayBuffer(128),
    database: { code: 'MF_STEEL', sha256: 'abc', phase_selection: RECOMMENDED },
    config: {
      tdb_file: MF_STEEL,
      ...extra,
      condition: { ...condition, ...(inhibit ? { inhibit_phases: inhibit } : {}) },
    },
  });
  const run = (await loadCalculation(type))!;
  await run(job, new JobControl(job.control));
  const text = readFileSync(path.join(dir, 'result', 'result.json'), 'utf8');
  return { doc: JSON.parse(text) as ResultDocument, text };
}

/** The phase names the results mention, outside the record of the selection and the configuration. */
function mentioned(doc: ResultDocument, names: string[]): string[] {
  const { phase_selection: _s, config: _c, ...rest } = doc;
  const text = JSON.stringify(rest);
  return names.filter((p) => new RegExp(`\\b${p}\\b`).test(text));
}

const TYPES = Object.keys(CONDITIONS) as TaskType[];

describe.each(TYPES)('%s on MF Steel', (type) => {
  it("completes with the database's recommended selection, recorded in result.json", async () => {
    const { doc } = await calculate(type);
    expect(doc.phase_selection.source).toBe('database');
    expect(doc.phase_selection.inhibit_phases).toEqual(['@ordered', '@gas', '@ionic_liquid', 'MC_SHP', 'DIAMOND_A4']);
    expect(doc.phase_selection.removed).toEqual(expect.arrayContaining(REMOVED_FE_C));
    expect(mentioned(doc, doc.phase_selection.removed)).toEqual([]);
  }, 120_000);

  it("with the task's own inhibit_phases of names, patterns and groups instead", async () => {
    const { doc } = await calculate(type, ['@ordered', 'IONIC_LIQ', 'MC_*', 'DIAMOND?A4', '@carbides', 'graphite*']);
    expect(doc.phase_selection.source).toBe('task');
    expect(doc.phase_selection.inhibit_phases).toEqual([
      '@ordered',
      'IONIC_LIQ',
      'MC_*',
      'DIAMOND?A4',
      '@carbides',
      'graphite*',
    ]);
    expect(doc.phase_selection.removed).toEqual(
      expect.arrayContaining([...REMOVED_FE_C, 'DIAMOND_A4', 'CEMENTITE_D011', 'M23C6_D84', 'GRAPHITE_A9']),
    );
    expect(mentioned(doc, doc.phase_selection.removed)).toEqual([]);
  }, 120_000);
});

describe('selectPhases', () => {
  const db = openDatabase(MF_STEEL);
  const pick = (components: string[], req: Parameters<typeof selectPhases>[2]) =>
    selectPhases(db, components, req, 'mf-steel.tdb');

  it('nothing activated or removed: every phase the elements allow (undefined), source none', () => {
    const s = pick(['FE', 'C'], {});
    expect(s.phases).toBeUndefined();
    expect(s.record).toEqual({ source: 'none', inhibit_phases: [], removed: [] });
  });

  it('conditional entries apply to systems with all their elements: DIAMOND_A4 stays the (Si) of Al-Si', () => {
    const alSi = pick(['AL', 'SI'], { database: RECOMMENDED });
    expect(alSi.phases).toContain('DIAMOND_A4');
    expect(alSi.record.inhibit_phases).toEqual(['@ordered', '@gas', '@ionic_liquid']);
    const feC = pick(['FE', 'C', 'VA'], { database: RECOMMENDED });
    expect(feC.phases).not.toContain('DIAMOND_A4');
    expect(feC.record.removed).toEqual(expect.arrayContaining([...REMOVED_FE_C, 'DIAMOND_A4']));
  });

  it('activated phases first, then the entries remove from them', () => {
    const s = pick(['FE', 'C'], {
      activated: ['liquid', 'fcc_a1', 'bcc_a2', 'bcc_b2', 'graphite_a9'],
      database: RECOMMENDED,
    });
    expect(s.phases).toEqual(['LIQUID', 'FCC_A1', 'BCC_A2', 'GRAPHITE_A9']);
    expect(s.record.removed).toEqual(['BCC_B2']);
  });

  it("an entry the file does not define is skipped with a log line when it is the database's", () => {
    const s = pick(['FE', 'C'], { database: { inhibit_phases: ['GAS', '@ordered'] } });
    expect(s.logs).toContain("the database's recommended selection names what mf-steel.tdb does not define: GAS");
    expect(s.record.removed).toContain('BCC_B2');
  });

  it("a task's misspelled entry is an error naming the nearest name; a selection that leaves nothing too", () => {
    expect(() => pick(['FE', 'C'], { inhibit: ['FCC_L21'] })).toThrow(
      "condition.inhibit_phases: FCC_L21 is not a phase of database 'mf-steel.tdb' (nearest: FCC_L12)",
    );
    expect(() => pick(['FE', 'C'], { inhibit: ['*'] })).toThrow(
      'condition.inhibit_phases: * remove every phase that can form from FE, C',
    );
    expect(() => pick(['FE', 'C'], { activated: ['FCC_L21'] })).toThrow(
      'condition.activated_phases: FCC_L21 not defined in mf-steel.tdb (nearest: FCC_L12)',
    );
  });
});
