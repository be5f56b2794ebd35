// line_calculation (worker/calculations/line_calculation.ts): every transition it reports agrees with
// independent point equilibria just below and just above it (0.02 K / 2e-5 in mole fraction), the FCC
// miscibility gap of Al-Zn at X(ZN) = 0.4 is found (OpenCalphad's STEP of the issue misses it), a
// ternary scan, the files, and cancel of a long scan.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { stateAt } from '../../worker/scans/scan-path.js';
import { scanLine, type LineScan } from '../../worker/scans/line-scan.js';
import { relabelCompositionSets } from '../../worker/scans/composition-sets.js';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium, type EquilibriumResult } from '../../worker/core/equilibrium.js';
import { JobControl } from '../../worker/protocol.js';
import { run } from '../../worker/calculations/line_calculation.js';
import type { LineCalculationResult } from '../../contract/results/line_calculation.js';
import { parsedJob } from '../support/jobs.js';
import { SHARED_TDB_DIR } from '../support/shared.js';
import { ensureBuilt, ROOT } from '../service/helpers.js';

const ALZN = path.join(SHARED_TDB_DIR, 'alzn_mey.tdb');
const CRTIV = path.join(SHARED_TDB_DIR, 'crtiv_ghosh.tdb');
const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-line-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

function job(condition: Record<string, unknown>, tdb = ALZN, threads = 2) {
  return parsedJob('line_calculation', {
    taskUuid: 'l',
    ompThreads: threads,
    taskDir: path.join(tmp, `t${n++}`),
    control: new SharedArrayBuffer(16),
    config: {
      task_type: 'line_calculation',
      tdb_code: 'X',
      tdb_file: tdb,
      condition: { pressure: 101325, ...condition },
    },
  });
}
const alznT = (T0: number, T1: number, points: number, x = 0.4) => ({
  components: ['AL', 'ZN'],
  temperature_start: T0,
  temperature_end: T1,
  points,
  compositions_start: { ZN: x },
  compositions_end: { ZN: x },
});
const labels = (r: EquilibriumResult) =>
  r.phases.map((p) => (p.setNumber > 1 ? `${p.name}#${p.setNumber}` : p.name)).sort();
/** Phase names with multiplicity: a cold point equilibrium numbers its sets afresh, a scan by continuity. */
const names = (labelList: readonly string[]) => labelList.map((l) => l.replace(/#\d+$/, '')).sort();

/** Point equilibria on both sides of every transition, `ds` beyond it along the path. */
function checkTransitions(scan: LineScan, ds: number): void {
  const db = openDatabase(scan.sys.tdbFile);
  for (const t of scan.transitions) {
    expect(t.refined, `transition at s=${t.s}`).toBe(true);
    for (const [side, want] of [
      [-1, t.phases_before],
      [1, t.phases_after],
    ] as const) {
      const st = stateAt(scan.path, t.s + side * ds);
      const r = equilibrium({
        database: db,
        components: scan.sys.components,
        phases: scan.sys.phases,
        conditions: { T: st.T, P: scan.path.P, X: st.X },
      });
      expect(r.converged).toBe(true);
      expect(names(labels(r)), `${side < 0 ? 'below' : 'above'} the transition at T=${t.T}, s=${t.s}`).toEqual(
        names(want),
      );
    }
  }
}

describe('line_calculation', () => {
  it('Al-Zn X(ZN)=0.4, 300-1290 K, 200 points: transitions agree with point equilibria 0.02 K on either side', () => {
    const scan = scanLine(job(alznT(300, 1290, 200)), new JobControl(new SharedArrayBuffer(16)));
    expect(scan.results.every((r) => r.converged)).toBe(true);
    const sets = scan.transitions.map((t) => [t.phases_before.join('+'), t.phases_after.join('+')]);
    expect(sets).toEqual([
      // the Zn-rich set formed from HCP_A3 at 550 K survives the closing of the gap and keeps its number
      ['FCC_A1+HCP_A3', 'FCC_A1+FCC_A1#2'],
      ['FCC_A1+FCC_A1#2', 'FCC_A1#2'],
      ['FCC_A1#2', 'FCC_A1#2+LIQUID'],
      ['FCC_A1#2+LIQUID', 'LIQUID'],
    ]);
    for (const t of scan.transitions) expect(t.dT).toBeLessThanOrEqual(0.01);
    checkTransitions(scan, 0.02 / 990);
  });

  it('cooling through the FCC miscibility gap finds FCC_A1#2 appearing near 622.5 K', () => {
    const scan = scanLine(job(alznT(700, 500, 21)), new JobControl(new SharedArrayBuffer(16)));
    const gap = scan.transitions.find((t) => t.appearing.includes('FCC_A1#2'));
    expect(gap, JSON.stringify(scan.transitions)).toBeDefined();
    expect(gap!.phases_before).toEqual(['FCC_A1']);
    expect(gap!.T).toBeGreaterThan(621.5);
    expect(gap!.T).toBeLessThan(623.5);
    checkTransitions(scan, 0.02 / 200);
  });

  it('a jump of composition sets with the same phase names on both sides is an invariant (Al-Zn monotectoid at X(ZN)=0.8)', () => {
    // FCC_A1 + HCP_A3 below and above 550 K; the FCC set jumps from the Al-rich to the Zn-rich side of the gap
    const j = job(alznT(400, 700, 61, 0.8));
    run(j, new JobControl(j.control));
    const doc = JSON.parse(
      readFileSync(path.join(j.taskDir, 'result', 'result.json'), 'utf8'),
    ) as LineCalculationResult;
    const inv = doc.invariants!.find((v) => v.phases.join('+') === 'FCC_A1+FCC_A1#2+HCP_A3');
    expect(inv, JSON.stringify(doc.invariants)).toBeDefined();
    const t = doc.transitions.find((q) => Math.abs(q.T - inv!.T) < 1e-9)!;
    expect(t).toMatchObject({
      phases_before: ['FCC_A1', 'HCP_A3'],
      phases_after: ['FCC_A1#2', 'HCP_A3'],
      appearing: ['FCC_A1#2'],
      disappearing: ['FCC_A1'],
    });
    // the same monotectoid, crossed at X(ZN)=0.4 by a change of the number of FCC sets
    const at04 = scanLine(job(alznT(500, 600, 11)), new JobControl(new SharedArrayBuffer(16))).transitions.find((q) =>
      q.appearing.includes('FCC_A1#2'),
    )!;
    expect(Math.abs(inv!.T - at04.T)).toBeLessThan(0.02);
    // independent point equilibria 0.05 K either side: the FCC set at each side is the one the invariant names
    const db = openDatabase(ALZN);
    const fccAt = (T: number) => {
      const r = equilibrium({
        database: db,
        components: ['AL', 'ZN', 'VA'],
        conditions: { T, P: 101325, X: { ZN: 0.8 } },
      });
      expect(names(labels(r))).toEqual(['FCC_A1', 'HCP_A3']);
      return r.phases.find((p) => p.name === 'FCC_A1')!.x.ZN;
    };
    expect(fccAt(inv!.T - 0.05)).toBeCloseTo(inv!.compositions.FCC_A1!.x.ZN, 2);
    expect(fccAt(inv!.T + 0.05)).toBeCloseTo(inv!.compositions['FCC_A1#2']!.x.ZN, 2);
    expect(inv!.compositions['FCC_A1#2']!.x.ZN - inv!.compositions.FCC_A1!.x.ZN).toBeGreaterThan(0.3);
    // result.csv: the invariants crossed, with those compositions, on every row of the default columns
    const csv = readFileSync(path.join(j.taskDir, 'result', 'result.csv'), 'utf8')
      .trim()
      .split('\r\n');
    const col = csv[0].split(',').indexOf('invariants_crossed');
    expect(col).toBeGreaterThan(0);
    const zn = (ph: string) => inv!.compositions[ph]!.x.ZN.toFixed(4).replace(/0+$/, '');
    const text = `${Number(inv!.T.toFixed(2))} K: FCC_A1 (AL ${inv!.compositions.FCC_A1!.x.AL.toFixed(4).replace(/0+$/, '')}, ZN ${zn('FCC_A1')})`;
    for (const row of csv.slice(1)) expect(row).toContain(text);
  });

  it('an isothermal composition scan (800 K): FCC_A1 / FCC_A1+LIQUID / LIQUID boundaries to 1e-5 in X(ZN)', () => {
    const scan = scanLine(
      job({
        components: ['AL', 'ZN'],
        temperature_start: 800,
        temperature_end: 800,
        points: 19,
        compositions_start: { ZN: 0.05 },
        compositions_end: { ZN: 0.95 },
      }),
      new JobControl(new SharedArrayBuffer(16)),
    );
    expect(scan.transitions.map((t) => t.appearing.concat(t.disappearing.map((d) => `-${d}`)))).toEqual([
      ['LIQUID'],
      ['-FCC_A1'],
    ]);
    for (const t of scan.transitions) expect(t.dx).toBeLessThanOrEqual(1e-5);
    // the two boundaries are the tie-line ends of the 800 K FCC+LIQUID field (validation notes: about 0.171 and 0.451)
    expect(scan.transitions[0].x.ZN).toBeCloseTo(0.171, 2);
    expect(scan.transitions[1].x.ZN).toBeCloseTo(0.451, 2);
    checkTransitions(scan, 2e-5 / 0.9);
  });

  it('a ternary Cr-Ti-V temperature scan (BCC miscibility gap, Laves, melting): transitions agree with point equilibria', () => {
    const scan = scanLine(
      job(
        {
          components: ['CR', 'TI', 'V'],
          temperature_start: 800,
          temperature_end: 2000,
          points: 25,
          compositions_start: { TI: 0.3, V: 0.3 },
          compositions_end: { TI: 0.3, V: 0.3 },
        },
        CRTIV,
      ),
      new JobControl(new SharedArrayBuffer(16)),
    );
    expect(scan.results.every((r) => r.converged)).toBe(true);
    const seq = [scan.transitions[0].phases_before.join('+'), ...scan.transitions.map((t) => t.phases_after.join('+'))];
    // the set that survives the closing of the BCC gap keeps its number (#2) up to melting
    expect(seq).toEqual(['BCC_A2+BCC_A2#2+LAVES_C15', 'BCC_A2#2+LAVES_C15', 'BCC_A2#2', 'BCC_A2#2+LIQUID', 'LIQUID']);
    checkTransitions(scan, 0.02 / 1200);
  });

  it('run() writes result.json (axis, points with s, transitions, table), result.csv and the phase-fraction preview', () => {
    const j = job({ ...alznT(500, 900, 41), thermo_outputs: ['T', 'NP(*)', 'Cp'] });
    const out = run(j, new JobControl(j.control));
    expect(out.summary).toMatch(
      /^41 points, 4 transitions: \+FCC_A1#2 -HCP_A3 at 550\.\d+ K, -FCC_A1 at 622\.\d+ K, \+LIQUID at 718\.\d+ K, -FCC_A1#2 at 812\.\d+ K$/,
    );
    for (const f of [
      'result/result.json',
      'result/result.csv',
      'preview/phase_fractions.svg',
      'preview/phase_fractions.png',
    ]) {
      expect(existsSync(path.join(j.taskDir, f)), f).toBe(true);
    }
    const doc = JSON.parse(
      readFileSync(path.join(j.taskDir, 'result', 'result.json'), 'utf8'),
    ) as LineCalculationResult;
    expect(doc.axis).toEqual({ variable: 'T', label: 'Temperature', unit: 'K' });
    expect(doc.points).toHaveLength(41);
    expect(doc.points[0].s).toBe(0);
    expect(doc.points[40].s).toBe(1);
    expect(doc.points[20].T).toBeCloseTo(700, 10);
    expect(doc.transitions).toHaveLength(4);
    expect(doc.transitions[0]).toMatchObject({ appearing: ['FCC_A1#2'], disappearing: ['HCP_A3'], x: { ZN: 0.4 } });
    expect(doc.table.columns.map((c) => c.name)).toEqual([
      'T',
      'P',
      'x(AL)',
      'x(ZN)',
      'NP(FCC_A1)',
      'NP(FCC_A1#2)',
      'NP(HCP_A3)',
      'NP(LIQUID)',
      'Cp',
    ]);
    // Cp column: equilibrium Cp, larger than the frozen one inside the two-phase field at 750 K
    const i750 = doc.points.findIndex((p) => p.T === 750);
    expect(doc.table.rows[i750][8]).toBe(doc.points[i750].Cp_equilibrium);
    expect(doc.points[i750].Cp_equilibrium!).toBeGreaterThan(doc.points[i750].CPM);
    const svg = readFileSync(path.join(j.taskDir, 'preview', 'phase_fractions.svg'), 'utf8');
    // the transition marks in display names (general family: fcc (A1)); two fcc sets, so the second keeps its number
    expect(svg).toContain('+fcc (A1)#2');
    expect(svg).toContain('Temperature (K)');
  });

  it('composition sets keep their numbers along a scan (the solver may swap them between points)', () => {
    const set = (setNumber: number, al: number, NP: number) => ({
      name: 'FCC_A1',
      setNumber,
      NP,
      x: { AL: al, ZN: 1 - al },
    });
    const res = (...phases: ReturnType<typeof set>[]) => ({ converged: true, phases }) as unknown as EquilibriumResult;
    const rs = [
      res(set(1, 0.6, 1)),
      res(set(1, 0.58, 0.9), set(2, 0.7, 0.1)),
      res(set(1, 0.72, 0.3), set(2, 0.55, 0.7)),
      res(set(2, 0.74, 0.4), set(1, 0.52, 0.6)),
      res(set(1, 0.5, 1)),
    ];
    relabelCompositionSets(rs);
    // set 1 is the one continuing the single phase (x(AL) near 0.6, then falling); set 2 the Al-rich one
    expect(rs.map((r) => r.phases.map((p) => `${p.setNumber}:${p.x.AL}`).sort())).toEqual([
      ['1:0.6'],
      ['1:0.58', '2:0.7'],
      ['1:0.55', '2:0.72'],
      ['1:0.52', '2:0.74'],
      ['1:0.5'],
    ]);
  });

  it('cancel stops a 20,000-point scan promptly (run in a worker thread, as in the service)', async () => {
    ensureBuilt();
    const control = new SharedArrayBuffer(16);
    const mod = path.join(ROOT, 'dist', 'worker', 'calculations', 'line_calculation.js');
    const protocol = path.join(ROOT, 'dist', 'worker', 'protocol.js');
    const code = `
      const { workerData, parentPort } = require('node:worker_threads');
      (async () => {
        const { run } = await import(workerData.mod);
        const { JobControl } = await import(workerData.protocol);
        try { run(workerData.job, new JobControl(workerData.job.control)); parentPort.postMessage('finished'); }
        catch (e) { parentPort.postMessage(e && e.name === 'CancelledError' ? 'cancelled' : 'error: ' + e.message); }
      })();`;
    const j = { ...job(alznT(300, 1290, 20_000)), control };
    const w = new Worker(code, { eval: true, workerData: { mod, protocol, job: j } });
    const done = new Promise<string>((resolve) => w.on('message', resolve));
    const ctl = new JobControl(control);
    // wait until the batch is running (it reports progress), then cancel
    while (ctl.getProgress() < 0.01) await new Promise((r) => setTimeout(r, 20));
    const t0 = performance.now();
    ctl.cancel();
    const msg = await done;
    const ms = performance.now() - t0;
    await w.terminate();
    console.log(
      `line_calculation cancel: stopped ${ms.toFixed(1)} ms after the cancel flag (progress was ${ctl.getProgress().toFixed(3)})`,
    );
    expect(msg).toBe('cancelled');
    expect(ms).toBeLessThan(1000);
  });
});
