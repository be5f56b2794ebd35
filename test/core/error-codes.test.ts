// The core's codes are listed once, in native-core/src/io/errors.hpp (kErrorCodes): worker/core/
// error-codes.generated.ts is made from that list.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, HEADER_FILE, generatedModule, parseErrorCodes } from '../../scripts/error-codes.js';
import { CORE_ERROR_CODES } from '../../worker/core/errors.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the list of error codes', () => {
  it(`${GENERATED_FILE} is what ${HEADER_FILE} gives (regenerate: npm run build && node dist/scripts/error-codes.js)`, () => {
    const header = readFileSync(path.join(ROOT, HEADER_FILE), 'utf8');
    expect(readFileSync(path.join(ROOT, GENERATED_FILE), 'utf8')).toBe(generatedModule(parseErrorCodes(header)));
  });

  it('every code of the enum is in the list once, with a meaning', () => {
    const header = readFileSync(path.join(ROOT, HEADER_FILE), 'utf8');
    const enumBody = /enum class ErrorCode \{([^}]*)\}/.exec(header)![1]!;
    const members = enumBody
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const entries = parseErrorCodes(header);
    expect(entries.length).toBe(members.length);
    expect(new Set(entries.map((e) => e.name)).size).toBe(entries.length);
    for (const e of entries) expect(e.meaning.length, e.name).toBeGreaterThan(10);
    expect([...CORE_ERROR_CODES]).toEqual(entries.map((e) => e.name));
  });

  it('a malformed entry is refused, not skipped', () => {
    expect(() => parseErrorCodes('kErrorCodes[] = {\n    {ErrorCode::File, "PD_FILE"},\n};')).toThrow(
      /not of the form/,
    );
  });
});
