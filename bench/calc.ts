// `npm run bench:calc`: wall times of the calculation task types, each printed as the
// median of several runs: 200-point line and property scans and Scheil with 1 K steps (binary and
// ternary), full binary phase diagrams for three databases, and a 20 x 50 x 10 CPT grid on 1 and all
// threads, ternary isothermal sections of every ternary system at two temperatures (ternary), four isopleths, one of
// 4 components (isopleth), two pseudo-binary sections (pseudo-binary), five liquidus projections (liquidus), (diagrams-all) one diagram of every shared binary database, (alloy-temperatures) the
// liquidus/solidus scan of a point calculation, (alloy7) the first equilibrium, a 200-point line and Scheil of the
// 7-component Al alloy of the speed goals, and (spinodal) what the spinodal adds to a binary diagram; (diagrams-work, only when named) the instructions of every shared binary
// diagram, counted under valgrind. Sections can be selected:
// `npm run bench:calc -- line diagrams`.
import { benchLine } from './calc/line.js';
import { benchPropertiesScheil } from './calc/properties-scheil.js';
import { benchAllDiagrams, benchDiagrams, benchDiagramsWork } from './calc/diagrams.js';
import { benchCpt } from './calc/cpt.js';
import { benchIsopleth, benchPseudoBinary } from './calc/isopleth.js';
import { benchTernary } from './calc/ternary.js';
import { benchAlloyTemperatures } from './calc/alloy-temperatures.js';
import { benchAlloy7 } from './calc/alloy7.js';
import { benchSpinodal } from './calc/spinodal.js';
import { benchLiquidus } from './calc/liquidus.js';

const SECTIONS: Record<string, () => Promise<string[]>> = {
  line: benchLine,
  'properties-scheil': benchPropertiesScheil,
  diagrams: benchDiagrams,
  'diagrams-all': benchAllDiagrams,
  'diagrams-work': benchDiagramsWork,
  cpt: benchCpt,
  isopleth: benchIsopleth,
  'pseudo-binary': benchPseudoBinary,
  ternary: benchTernary,
  liquidus: benchLiquidus,
  'alloy-temperatures': benchAlloyTemperatures,
  alloy7: benchAlloy7,
  spinodal: benchSpinodal,
};

/** Sections run only when named: diagrams-work runs under valgrind, some 50 times slower than natively. */
const NAMED_ONLY = new Set(['diagrams-work']);

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !(w in SECTIONS));
  if (unknown.length)
    throw new Error(`unknown section(s) ${unknown.join(', ')}; known: ${Object.keys(SECTIONS).join(', ')}`);
  for (const [name, run] of Object.entries(SECTIONS)) {
    if (wanted.length ? !wanted.includes(name) : NAMED_ONLY.has(name)) continue;
    console.log(`== ${name}`);
    for (const line of await run()) console.log(line);
  }
}

main().catch((e: unknown) => {
  console.error((e as Error).message);
  process.exit(1);
});
