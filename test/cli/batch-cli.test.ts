// `phasedesk batch TABLE.csv` through the real CLI (dist/main/cli.js): the options become an equilibrium_batch
// task_config, validated as POST /task validates it (a bad row is exit code 2 naming row and column), and the rows
// are written as the service writes them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../service/helpers.js';
import writeXlsxFile from 'write-excel-file/node';
import { splitList } from '../../main/cli/batch.js';
import { sheetToCsv } from '../../contract/tasks/batch-csv.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'phasedesk-batch-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const table = (name: string, text: string) => {
  const f = path.join(tmp, name);
  writeFileSync(f, text);
  return f;
};
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, 'dist', 'main', 'cli.js'), 'batch', ...args], { encoding: 'utf8' });

describe('phasedesk batch', () => {
  it('a table in mass percent with the balance element, at two temperatures, on a bundled database', () => {
    ensureBuilt();
    const csv = table('alloys.csv', 'label,ZN\nlow,5\nhigh,60\n');
    const out = path.join(tmp, 'out');
    const r = cli(
      csv,
      '--db',
      'alzn_mey1993',
      '--balance',
      'AL',
      '--unit',
      'mass_percent',
      '--temperatures',
      '600,800',
      '--outputs',
      'phase_name,NP(*),x(*,*)',
      '--out',
      out,
      '--threads',
      '1',
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('4 row(s): 4 ok, 0 not converged, 0 failed');
    const lines = readFileSync(path.join(out, 'result', 'result.csv'), 'utf8')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(
      /^row,label,status,reason,input_T \[K\],input_P \[Pa\],input_x\(ZN\) \[mol\/mol\],input_x\(AL\)/,
    );
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 5).join(','))).toEqual([
      '1,low,ok,,600',
      '2,low,ok,,800',
      '3,high,ok,,600',
      '4,high,ok,,800',
    ]);
    const doc = JSON.parse(readFileSync(path.join(out, 'result', 'result.json'), 'utf8'));
    expect(doc.config.tdb_code).toBe('alzn_mey1993');
    expect(doc.columns.map((c: { name: string }) => c.name)).toContain('x(LIQUID,ZN)');
  });

  it("a workbook's first sheet is read as the same table (read-excel-file); a file that is no workbook is bad input", async () => {
    ensureBuilt();
    const xlsx = path.join(tmp, 'alloys.xlsx');
    const cell = (value: string | number) => ({ value });
    await writeXlsxFile(
      [
        [cell('label'), cell('ZN')],
        [cell('low'), cell(5)],
        [cell('high'), cell(60)],
      ],
      { sheet: 'alloys' },
    ).toFile(xlsx);
    const args = ['--db', 'ALZN_MEY1993', '--balance', 'AL', '--unit', 'mass_percent', '--temperatures', '600'];
    const fromCsv = cli(table('same.csv', 'label,ZN\nlow,5\nhigh,60\n'), ...args, '--out', path.join(tmp, 'c'));
    const fromXlsx = cli(xlsx, ...args, '--out', path.join(tmp, 'x'));
    expect(fromXlsx.status, fromXlsx.stderr).toBe(0);
    const rows = (dir: string) =>
      readFileSync(path.join(tmp, dir, 'result', 'rows.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { label: string; input: unknown; values: unknown });
    expect(rows('x')).toEqual(rows('c'));
    expect(fromCsv.stdout).toBe(fromXlsx.stdout);
    const notBook = cli(table('fake.xlsx', 'ZN\n0.1\n'), ...args, '--out', path.join(tmp, 'f'));
    expect(notBook.status).toBe(2);
    expect(notBook.stderr).toContain('as a workbook (.xlsx)');
  });

  it('bad input is exit code 2 naming the row and the column, or the missing option', () => {
    const bad = table('bad.csv', 'ZN,T\n0.1,600\n0.2,warm\n');
    const r = cli(bad, '--db', 'ALZN_MEY1993', '--balance', 'AL', '--out', path.join(tmp, 'bad'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      "phasedesk batch: task_config.condition.table.csv: row 2 (line 3), column T: must be a number (got 'warm')",
    );
    const noDb = cli(bad, '--out', path.join(tmp, 'bad'));
    expect(noDb.status).toBe(2);
    expect(noDb.stderr).toContain('give one of --tdb FILE and --db CODE');
    const unknown = cli(bad, '--db', 'NOPE', '--out', path.join(tmp, 'bad'));
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/--db NOPE: not in the bundled catalog \(.*COST507/);
    expect(cli('--help').stdout).toMatch(/^usage: phasedesk batch TABLE\.csv\|TABLE\.xlsx/);
  });

  it('100,000 rows stream to disk: the whole batch runs in a 48 MB JavaScript heap', () => {
    // the rows' JSON Lines alone are 46 MB; a batch that kept its rows (as objects, several times that) would end
    // with a heap out of memory, so memory does not grow with the number of rows
    const compositions = Array.from({ length: 400 }, (_, i) => ({ ZN: Number((0.01 + (0.98 * i) / 399).toFixed(6)) }));
    const temperatures = Array.from({ length: 250 }, (_, i) => 400 + 2 * i);
    const config = path.join(tmp, 'b100k.json');
    writeFileSync(
      config,
      JSON.stringify({
        task_type: 'equilibrium_batch',
        tdb_code: 'ALZN_MEY1993',
        condition: { components: ['AL', 'ZN'], pressure: 101325, product: { compositions, temperatures } },
      }),
    );
    const out = path.join(tmp, 'b100k');
    const r = spawnSync(
      process.execPath,
      [
        '--max-old-space-size=48',
        path.join(ROOT, 'dist', 'main', 'cli.js'),
        'calc',
        config,
        '--db',
        'ALZN_MEY1993',
        '--out',
        out,
      ],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(path.join(out, 'result', 'result.json'), 'utf8'));
    expect(doc.counts).toEqual({ rows: 100000, done: 100000, ok: 100000, not_converged: 0, failed: 0 });
    // a spreadsheet of this size is not built in memory: result.csv only, and result.json says so
    expect(doc.files.xlsx).toBeUndefined();
    expect(doc.quantity_notes).toContain('result.xlsx: not written for more than 50000 rows (result.csv has them all)');
    const csv = readFileSync(path.join(out, 'result', 'result.csv'), 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(csv.length).toBe(100001);
    expect(csv.at(-1)).toMatch(/^100000,,ok,,898,/);
  }, 300_000);

  it('lists split at the commas outside parentheses', () => {
    expect(splitList('NP(*), x(*,*),G ,T_liquidus,')).toEqual(['NP(*)', 'x(*,*)', 'G', 'T_liquidus']);
  });

  it('a sheet as CSV: quoted where needed, dates as ISO text, empty rows left out, every record as wide as the widest', () => {
    const csv = sheetToCsv([
      ['label', 'ZN', 'T'],
      ['a, "quoted"', 0.1, null],
      [],
      [null, 1e-7, new Date('2026-01-02T00:00:00Z')],
      ['x'],
    ]);
    expect(csv.split('\n')).toEqual(['label,ZN,T', '"a, ""quoted""",0.1,', ',1e-7,2026-01-02T00:00:00.000Z', 'x,,']);
  });
});
