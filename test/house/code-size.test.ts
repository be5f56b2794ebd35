// The size caps of the source tree (scripts/code-size.ts): no function over 120 lines, no file over 600 lines in
// contract/, main/, worker/, renderer/src and native-core/src. Prints the longest of each, so a change that grows
// one is seen before it reaches the cap.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FILE_LINE_CAP, FUNCTION_LINE_CAP, formatReport, measureTree, overCaps } from '../../scripts/code-size.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('size caps', () => {
  it(`no function over ${FUNCTION_LINE_CAP} lines, no file over ${FILE_LINE_CAP} lines`, async () => {
    const report = await measureTree(ROOT);
    console.log(formatReport(report, 5));
    expect(report.functions.length).toBeGreaterThan(1000);
    expect(overCaps(report)).toEqual([]);
  }, 120_000);

  it('measures what it claims: a long function and a long file are found', async () => {
    const { measureSource } = await import('../../scripts/code-size.js');
    const body = Array.from({ length: 130 }, (_, i) => `  x += ${i};`).join('\n');
    const ts = measureSource('long.ts', `export function long(x: number) {\n${body}\n  return x;\n}\n`);
    expect(ts.functions[0]).toMatchObject({ name: 'long', lines: 133 });
    const cpp = await import('../../scripts/code-size.js').then((m) =>
      m.measureCppSource('long.cpp', `int long_one(int x) {\n${body}\n  return x;\n}\n`),
    );
    expect(cpp.functions[0]).toMatchObject({ name: 'long_one', lines: 133 });
  });
});
