// Command line of the validation runner:
//   node dist/worker/validation/cli.js --cases FILE --report OUT.json [--tdb-dir DIR] [--kind K ...]
// Prints matched/total per kind and writes the full report (every case and expected entry with the
// computed value, the expected value and the verdict). Exit code 0 even with mismatches (a report,
// not a gate); 2 for bad arguments or an unreadable cases file.
import { writeFileSync } from 'node:fs';
import { formatSummary, runValidation } from './runner.js';

async function main(argv: string[]): Promise<number> {
  let cases: string | undefined;
  let report: string | undefined;
  let tdbDir: string | undefined;
  const kinds: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--cases') cases = next();
    else if (a === '--report') report = next();
    else if (a === '--tdb-dir') tdbDir = next();
    else if (a === '--kind') kinds.push(next());
    else if (a === '--help' || a === '-h') {
      console.log('usage: validate --cases FILE [--report OUT.json] [--tdb-dir DIR] [--kind KIND ...]');
      return 0;
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!cases) throw new Error('--cases FILE is required');
  const r = await runValidation(cases, { tdbDir, kinds: kinds.length ? kinds : undefined });
  console.log(formatSummary(r));
  if (report) {
    writeFileSync(report, JSON.stringify(r, null, 2));
    console.log(`report written to ${report}`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`validate: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
