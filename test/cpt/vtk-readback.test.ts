// binary_cpt_diagram end to end on a small Al-Zn grid: the VTK zip read back by independent readers
// (JSZip for the archive, written by fflate; fast-xml-parser for the VTK XML; Kitware's vtk.js
// XMLPolyDataReader for the .vtp files, vtk.js has no RectilinearGrid reader), its arrays compared
// with point equilibria at sampled grid nodes, the bisected boundaries checked by equilibria on
// both sides, tie-lines against point equilibria, and the result.json / result.csv / preview files.
import { beforeAll, describe, expect, it } from 'vitest';
import { parsedJob } from '../support/jobs.js';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import JSZip from 'jszip';
import { XMLParser } from 'fast-xml-parser';
import vtkXMLPolyDataReader from '@kitware/vtk.js/IO/XML/XMLPolyDataReader.js';
import { run, BISECTION_STEPS, VTK_ZIP_NAME } from '../../worker/calculations/binary_cpt_diagram.js';
import { openDatabase } from '../../worker/core/database.js';
import { equilibrium, type EquilibriumResult } from '../../worker/core/equilibrium.js';
import { CONTROL_BYTES, JobControl } from '../../worker/protocol.js';
import type { BinaryCptResult } from '../../contract/results/binary_cpt_diagram.js';
import { seededRandom } from '../support/random.js';

const TDB = resolve(__dirname, '../../databases/alzn_mey1993.tdb');
const condition = {
  components: ['AL', 'ZN'],
  x_component: 'ZN',
  composition_start: 0.05,
  composition_end: 0.95,
  composition_step: 0.1,
  temperature_start: 500,
  temperature_end: 950,
  temperature_step: 50,
  pressure_start: 1e5,
  pressure_end: 1e9,
  pressure_points: 3,
  pressure_scale: 'log',
  include_tielines: true,
  tieline_stride: 2,
};

interface XmlArray {
  '#text'?: string;
  '@_Name': string;
  '@_type': string;
  '@_NumberOfComponents'?: string;
}
type Xml = Record<string, any>;

const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  isArray: (n) => n === 'DataArray' || n === 'DataSet',
});
function values(a: XmlArray): number[] {
  const t = (a['#text'] ?? '').trim();
  return t ? t.split(/\s+/).map(Number) : [];
}
function arrayByName(section: Xml | undefined, name: string): number[] {
  const a = (section?.DataArray as XmlArray[] | undefined)?.find((d) => d['@_Name'] === name);
  if (!a) throw new Error(`array ${name} missing`);
  return values(a);
}

function labelOf(r: EquilibriumResult): string | null {
  if (!r.converged) return null;
  return r.phases
    .map((p) => (p.setNumber > 1 ? `${p.name}#${p.setNumber}` : p.name))
    .sort()
    .join('+');
}

let dir: string;
let doc: BinaryCptResult;
let files: Record<string, string>;
let grid: Xml, bounds: Xml, ties: Xml;
const db = openDatabase(TDB);
const solve = (x: number, T: number, P: number) =>
  equilibrium({ database: db, components: ['AL', 'ZN', 'VA'], conditions: { T, P, X: { ZN: x } } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cpt-test-'));
  const control = new JobControl(new SharedArrayBuffer(CONTROL_BYTES));
  const out = run(
    parsedJob('binary_cpt_diagram', {
      taskUuid: 't',
      ompThreads: 2,
      taskDir: dir,
      control: control.buffer,
      config: {
        tdb_file: TDB,
        condition,
        ui_metadata: {
          axis_config: {
            x: { variable: 'temperature' },
            y: { variable: 'composition', component: 'ZN' },
            z: { variable: 'pressure' },
          },
        },
      },
    }),
    control,
  );
  expect(out.summary).toMatch(/10x10x3 grid/);
  doc = JSON.parse(readFileSync(join(dir, 'result', 'result.json'), 'utf8')) as BinaryCptResult;
  // independent reader of the archive (written with fflate)
  const zip = await JSZip.loadAsync(readFileSync(join(dir, 'vtk', VTK_ZIP_NAME)));
  files = {};
  for (const name of Object.keys(zip.files))
    if (!zip.files[name]!.dir) files[name] = await zip.file(name)!.async('string');
  grid = parser.parse(files['cpt_diagram/grid.vtr']!).VTKFile;
  bounds = parser.parse(files['cpt_diagram/boundaries.vtp']!).VTKFile;
  ties = parser.parse(files['cpt_diagram/tielines.vtp']!).VTKFile;
});

describe('binary_cpt_diagram result files', () => {
  it('result.json follows the agreed shape', () => {
    expect(doc.task_type).toBe('binary_cpt_diagram');
    expect(doc.x_component).toBe('ZN');
    expect(doc.axes.x).toEqual([0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95]);
    expect(doc.axes.T).toEqual([500, 550, 600, 650, 700, 750, 800, 850, 900, 950]);
    expect(doc.axes.P[0]).toBe(1e5);
    expect(doc.axes.P[2]).toBe(1e9);
    expect(doc.axes.P[1]).toBeCloseTo(1e7, 3);
    expect(doc.pressure_scale).toBe('log');
    expect(doc.labels).toHaveLength(300);
    expect(doc.phase_sets).toEqual(expect.arrayContaining(['FCC_A1', 'LIQUID', 'FCC_A1+LIQUID', 'FCC_A1+HCP_A3']));
    for (const r of doc.regions_per_pressure) expect(r.regions.reduce((s, g) => s + g.points, 0)).toBe(100);
    expect(doc.axis_config).toEqual({
      x: { variable: 'temperature' },
      y: { variable: 'composition', component: 'ZN' },
      z: { variable: 'pressure' },
    });
    expect(doc.vtk_files).toEqual([VTK_ZIP_NAME]);
    expect(doc.boundary_points.length).toBeGreaterThan(20);
    expect(doc.tielines.length).toBeGreaterThan(5);
    for (const t of doc.tielines) expect(doc.axes.T.indexOf(t.T) % 2).toBe(0);
    expect(doc.provenance.database.file_name).toBe('alzn_mey1993.tdb');
  });

  it('result.csv has one row per grid node, preview SVG and PNG exist', () => {
    const csv = readFileSync(join(dir, 'result', 'result.csv'), 'utf8')
      .trim()
      .split(/\r\n/);
    expect(csv).toHaveLength(301);
    expect(csv[0]).toMatch(/^x\(ZN\) \[-\],T \[K\],P \[Pa\],phase_set,label,converged,NP\(FCC_A1\)/);
    expect(existsSync(join(dir, 'preview', 'isobaric_sections.svg'))).toBe(true);
    expect(existsSync(join(dir, 'preview', 'isobaric_sections.png'))).toBe(true);
  });

  it('the zip holds the VTK files and a README naming every array', () => {
    expect(Object.keys(files).sort()).toEqual([
      'cpt_diagram/README.txt',
      'cpt_diagram/boundaries.vtp',
      'cpt_diagram/cpt_diagram.vtm',
      'cpt_diagram/grid.vtr',
      'cpt_diagram/tielines.vtp',
    ]);
    const readme = files['cpt_diagram/README.txt']!;
    for (const name of ['phase_set', 'converged', 'NP(FCC_A1)', 'NP(LIQUID)', 'between', 'P_Pa'])
      expect(readme).toContain(name);
    doc.phase_sets.forEach((s, i) => expect(readme).toContain(`  ${i}: ${s}\n`));
    const vtm = parser.parse(files['cpt_diagram/cpt_diagram.vtm']!).VTKFile;
    expect((vtm.vtkMultiBlockDataSet.DataSet as Xml[]).map((d) => d['@_file'])).toEqual([
      'grid.vtr',
      'boundaries.vtp',
      'tielines.vtp',
    ]);
  });

  it('grid.vtr: extent, coordinates (log10 P) and phase_set equal result.json', () => {
    expect(grid['@_type']).toBe('RectilinearGrid');
    const piece = grid.RectilinearGrid.Piece;
    expect(piece['@_Extent']).toBe('0 9 0 9 0 2');
    const [cx, cy, cz] = (piece.Coordinates.DataArray as XmlArray[]).map(values);
    expect(cx).toEqual(doc.axes.x);
    expect(cy).toEqual(doc.axes.T);
    cz!.forEach((z, i) => expect(z).toBeCloseTo(Math.log10(doc.axes.P[i]!), 12));
    expect(arrayByName(piece.PointData, 'phase_set')).toEqual(doc.labels);
    expect(arrayByName(piece.PointData, 'converged')).toEqual(doc.labels.map((l) => (l >= 0 ? 1 : 0)));
  });

  it('grid.vtr arrays agree with point equilibria at sampled grid nodes', () => {
    const pd = grid.RectilinearGrid.Piece.PointData;
    const names = (pd.DataArray as XmlArray[]).map((a) => a['@_Name']).filter((n) => n.startsWith('NP('));
    expect(names).toEqual(expect.arrayContaining(['NP(FCC_A1)', 'NP(HCP_A3)', 'NP(LIQUID)']));
    const arrays = Object.fromEntries(names.map((n) => [n, arrayByName(pd, n)]));
    const labels = arrayByName(pd, 'phase_set'),
      pPa = arrayByName(pd, 'P_Pa');
    const rand = seededRandom(61);
    for (let s = 0; s < 12; s++) {
      const n = Math.floor(rand() * 300);
      const iX = n % 10,
        iT = Math.floor(n / 10) % 10,
        iP = Math.floor(n / 100);
      expect(pPa[n]).toBeCloseTo(doc.axes.P[iP]!, 0);
      const r = solve(doc.axes.x[iX]!, doc.axes.T[iT]!, doc.axes.P[iP]!);
      const want = labelOf(r);
      expect(labels[n] === -1 ? null : doc.phase_sets[labels[n]!]).toBe(want);
      if (!want) continue;
      for (const name of names) {
        const label = name.slice(3, -1);
        const np = r.phases
          .filter((p) => (p.setNumber > 1 ? `${p.name}#${p.setNumber}` : p.name) === label)
          .reduce((a, p) => a + p.NP, 0);
        expect(Math.abs(arrays[name]![n]! - np), `${name} at node ${n}`).toBeLessThan(1e-5);
      }
    }
  });

  it('each bisected boundary point has its two phase sets on either side (1/128 of the step away)', () => {
    const rand = seededRandom(7);
    const axisOf = { x: doc.axes.x, T: doc.axes.T, P: doc.axes.P.map(Math.log10) };
    const pts = doc.boundary_points;
    for (let s = 0; s < 20; s++) {
      const b = pts[Math.floor(rand() * pts.length)]!;
      const ax = b.axis!;
      const values = axisOf[ax];
      const v = ax === 'x' ? b.x : ax === 'T' ? b.T : Math.log10(b.P);
      const i = values.findIndex((_, k) => k + 1 < values.length && values[k]! <= v && v <= values[k + 1]!);
      expect(i).toBeGreaterThanOrEqual(0);
      const half = (values[i + 1]! - values[i]!) / 2 ** (BISECTION_STEPS + 1);
      const at = (w: number) => {
        const x = ax === 'x' ? w : b.x,
          T = ax === 'T' ? w : b.T,
          P = ax === 'P' ? 10 ** w : b.P;
        return labelOf(solve(x, T, P));
      };
      expect(at(v - half), JSON.stringify(b)).toBe(b.between[0]);
      expect(at(v + half), JSON.stringify(b)).toBe(b.between[1]);
    }
  });

  it('boundaries.vtp: polygons over valid points inside the grid box, between indexes the pair table', () => {
    const piece = bounds.PolyData.Piece;
    const nPts = Number(piece['@_NumberOfPoints']),
      nPolys = Number(piece['@_NumberOfPolys']),
      nLines = Number(piece['@_NumberOfLines']);
    expect(nPolys).toBe(doc.surface!.polygons);
    expect(nPts).toBe(doc.surface!.vertices);
    expect(nLines).toBe(0);
    const pts = values((piece.Points.DataArray as XmlArray[])[0]!);
    expect(pts).toHaveLength(3 * nPts);
    for (let k = 0; k < nPts; k++) {
      expect(pts[3 * k]!).toBeGreaterThanOrEqual(0.05 - 1e-12);
      expect(pts[3 * k]!).toBeLessThanOrEqual(0.95 + 1e-12);
      expect(pts[3 * k + 1]!).toBeGreaterThanOrEqual(500);
      expect(pts[3 * k + 1]!).toBeLessThanOrEqual(950);
      expect(pts[3 * k + 2]!).toBeGreaterThanOrEqual(5 - 1e-12);
      expect(pts[3 * k + 2]!).toBeLessThanOrEqual(9 + 1e-12);
    }
    const conn = arrayByName(piece.Polys, 'connectivity'),
      offs = arrayByName(piece.Polys, 'offsets');
    expect(offs).toHaveLength(nPolys);
    expect(offs[offs.length - 1]).toBe(conn.length);
    for (const c of conn) {
      expect(c).toBeGreaterThanOrEqual(0);
      expect(c).toBeLessThan(nPts);
    }
    const between = arrayByName(piece.CellData, 'between'),
      a = arrayByName(piece.CellData, 'phase_set_a'),
      b = arrayByName(piece.CellData, 'phase_set_b');
    expect(between).toHaveLength(nPolys);
    const readme = files['cpt_diagram/README.txt']!;
    const pairLines = readme
      .slice(readme.indexOf('Pair table'))
      .split('\n')
      .slice(1)
      .filter((l) => /^ {2}\d+: /.test(l));
    between.forEach((p, k) => {
      expect(a[k]).not.toBe(b[k]);
      const [lo, hi] = [Math.min(a[k]!, b[k]!), Math.max(a[k]!, b[k]!)];
      expect(pairLines[p]).toBe(`  ${p}: ${doc.phase_sets[lo]} | ${doc.phase_sets[hi]}`);
    });
  });

  it('tielines.vtp: one line per tie-line; its ends are the phase compositions of a point equilibrium', () => {
    const piece = ties.PolyData.Piece;
    expect(Number(piece['@_NumberOfLines'])).toBe(doc.tielines.length);
    const pts = values((piece.Points.DataArray as XmlArray[])[0]!);
    const rand = seededRandom(3);
    for (let s = 0; s < 6; s++) {
      const k = Math.floor(rand() * doc.tielines.length);
      const t = doc.tielines[k]!;
      expect(pts[6 * k]).toBeCloseTo(t.x[0], 12);
      expect(pts[6 * k + 3]).toBeCloseTo(t.x[1], 12);
      expect(pts[6 * k + 1]).toBe(t.T);
      const r = solve(t.x_overall!, t.T, t.P);
      const xs = r.phases.map((p) => p.x.ZN!).sort((u, v) => u - v);
      expect(xs).toHaveLength(2);
      expect(xs[0]).toBeCloseTo(t.x[0], 6);
      expect(xs[1]).toBeCloseTo(t.x[1], 6);
    }
  });

  /**
   * The part of vtk.js's reader and poly data this test calls. Its declarations leave out the base classes'
   * methods (their extensionless imports do not resolve under NodeNext), and parseAsArrayBuffer returns
   * whether the file parsed although it is declared void.
   */
  interface PolyDataReader {
    parseAsArrayBuffer(content: ArrayBuffer): boolean;
    getOutputData(port: number): PolyData;
  }
  interface PolyData {
    getNumberOfPoints(): number;
    getBounds(): number[];
    getPolys(): { getNumberOfCells(): number };
    getLines(): { getNumberOfCells(): number };
    getCellData(): { getArrayByName(name: string): { getData(): unknown } };
  }

  it('Kitware vtk.js reads boundaries.vtp and tielines.vtp with the same polygons, lines and cell arrays', async () => {
    const zip = await JSZip.loadAsync(readFileSync(join(dir, 'vtk', VTK_ZIP_NAME)));
    const read = async (name: string) => {
      const buf = await zip.file(`cpt_diagram/${name}`)!.async('arraybuffer');
      const reader = vtkXMLPolyDataReader.newInstance() as unknown as PolyDataReader;
      expect(reader.parseAsArrayBuffer(buf)).toBe(true);
      return reader.getOutputData(0);
    };
    const b = await read('boundaries.vtp');
    expect(b.getNumberOfPoints()).toBe(doc.surface!.vertices);
    expect(b.getPolys().getNumberOfCells()).toBe(doc.surface!.polygons);
    const between = Array.from(b.getCellData().getArrayByName('between').getData() as ArrayLike<number>);
    expect(between).toEqual(arrayByName(bounds.PolyData.Piece.CellData, 'between'));
    const [x0, x1, y0, y1, z0, z1] = b.getBounds();
    expect(x0).toBeGreaterThanOrEqual(0.05 - 1e-12);
    expect(x1).toBeLessThanOrEqual(0.95 + 1e-12);
    expect(y0).toBeGreaterThanOrEqual(500);
    expect(y1).toBeLessThanOrEqual(950);
    expect(z0).toBeGreaterThanOrEqual(5 - 1e-12);
    expect(z1).toBeLessThanOrEqual(9 + 1e-12);
    const t = await read('tielines.vtp');
    expect(t.getLines().getNumberOfCells()).toBe(doc.tielines.length);
    const T = Array.from(t.getCellData().getArrayByName('T_K').getData() as ArrayLike<number>);
    expect(T).toEqual(doc.tielines.map((l) => l.T));
  });
});
