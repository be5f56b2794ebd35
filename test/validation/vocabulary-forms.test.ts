// Every condition, quantity and phrase form that shared/validation/README.md defines, one case or entry per
// form, on the closed-form test databases of test/validation/tdb: the runner must read each form (no entry
// unsupported) and reach the hand-calculated value. The expected values below are the closed forms written
// in the databases' headers (docs/validation.md), evaluated here with R = 8.3145:
//   lens_ideal.tdb: ideal LIQUID and SOLID of A and B, G(SOLID,i) = 0, G(LIQUID,A) = 10000 - 10T,
//     G(LIQUID,B) = 15000 - 10T; the two-phase tie-line at T has x(SOLID,B) = (1 - kA)/(kB - kA) and
//     x(LIQUID,B) = kB x(SOLID,B) with ki = exp(-G(LIQUID,i)/RT); REG regular (L0 = -5000 + 2T, V0);
//     BCC_A2 magnetic; ORD two sublattices.
//   congruent_gap.tdb: GAP regular with L0 = +20000 (miscibility gap below 1202.7 K).
//   eutectic_ideal.tdb: ideal LIQUID of A, B, C and the pure solids ALPHA, BETA, GAMMA (every melting point
//     below 1600 K; below the ternary eutectic every inner composition holds the three solids).
// Forms of the README covered by the project's own cases rather than here (they need a mapped diagram):
// three_phase_regions_include, invariants_include (own-map-*), the literature quantities (own-lit-*), the
// relation and conversion kinds; the Scheil keywords are the own case's, written with a remark; the isolated
// phase of a real database is checked by the shared cases' pycalphad values under the other spellings.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runValidation } from '../../worker/validation/runner.js';
import type { ExpectedEntry, ValidationCase } from '../../worker/validation/types.js';
import { SHARED_CASES, SHARED_TDB_DIR } from '../support/shared.js';

const R = 8.3145;
const TDB = (f: string) => path.join(__dirname, 'tdb', f);
const LENS = TDB('lens_ideal.tdb');

/** The lens tie-line at T (closed form above). */
function tieLine(T: number): { xs: number; xl: number } {
  const kA = Math.exp(-(10000 - 10 * T) / (R * T));
  const kB = Math.exp(-(15000 - 10 * T) / (R * T));
  const xs = (1 - kA) / (kB - kA);
  return { xs, xl: kB * xs };
}
const ideal = (x: number) => x * Math.log(x) + (1 - x) * Math.log(1 - x);

const TIGHT = { rtol: 1e-9, atol: 1e-6 };
/** finite-difference derivatives of the runner against the closed form's */
const FD = { rtol: 1e-5, atol: 1e-6 };
const v = (quantity: string, value: unknown, extra: Partial<ExpectedEntry> = {}): ExpectedEntry => ({
  quantity,
  value,
  tolerance: TIGHT,
  ...extra,
});
const eq = (compare: string) => ({ compare }) as Partial<ExpectedEntry>;

function lensCase(id: string, kind: string, conditions: Record<string, unknown>, expected: ExpectedEntry[]) {
  return { id, kind, tdb: LENS, components: ['A', 'B'], phases: ['LIQUID', 'SOLID'], conditions, expected };
}

// ------------------------------------------------------------------------------------------ conditions

const T1 = 1200;
const RT1 = R * T1;
const G_SOLID_HALF = RT1 * ideal(0.5);

const conditionCases = [
  lensCase('T, P, N', 'equilibrium', { T: T1, P: 101325, N: 1, 'X(B)': 0.5 }, [v('GM', G_SOLID_HALF)]),
  lensCase('P and N absent', 'equilibrium', { T: T1, 'X(B)': 0.5 }, [v('GM', G_SOLID_HALF)]),
  // masses A 20, B 30: W(B) = 0.6 is X(B) = 0.5
  lensCase('W(EL)', 'equilibrium', { T: T1, 'W(B)': 0.6 }, [v('X(B)', 0.5), v('GM', G_SOLID_HALF)]),
  lensCase('MU(EL)', 'equilibrium', { T: T1, 'MU(B)': RT1 * Math.log(0.5) }, [v('X(B)', 0.5)]),
  lensCase('Y(PHASE,s,SPECIES)', 'equilibrium', { T: T1, 'Y(SOLID,0,B)': 0.5 }, [
    v('X(B)', 0.5, { tolerance: { rtol: 0, atol: 1e-8 } }),
  ]),
  lensCase('explicit list', 'equilibrium', { T: T1, 'X(B)': [0.5, 0.6] }, [v('GM', [G_SOLID_HALF, RT1 * ideal(0.6)])]),
  lensCase('min-max-step range', 'equilibrium', { T: T1, 'X(B)': { min: 0.5, max: 0.75, step: 0.1 } }, [
    v(
      'GM',
      [0.5, 0.6, 0.7].map((x) => RT1 * ideal(x)),
    ),
  ]),
  // a Y condition beside a mass fraction or a potential (TEST: ideal, one sublattice, G = 0, so Y = X;
  // masses A 12.011, B = C 55.847): W(B) = 0.5 with X(C) = 0.2 gives X(B) = 0.5 (12.011*0.8 + 55.847*0.2) /
  // (55.847 - 0.5 (55.847 - 12.011)); MU(B) = RT ln 0.3 gives X(B) = 0.3
  {
    id: 'Y beside W',
    kind: 'equilibrium',
    tdb: 'pycalphad_inline_ideal_ABC.tdb',
    components: ['A', 'B', 'C'],
    phases: ['TEST'],
    conditions: { T: 1000, 'W(B)': 0.5, 'Y(TEST,0,C)': 0.2 },
    expected: [
      v('X(C)', 0.2, { tolerance: { rtol: 0, atol: 1e-8 } }),
      v('X(B)', (0.5 * (12.011 * 0.8 + 55.847 * 0.2)) / (55.847 - 0.5 * (55.847 - 12.011)), {
        tolerance: { rtol: 0, atol: 1e-8 },
      }),
    ],
  },
  {
    id: 'Y beside MU',
    kind: 'equilibrium',
    tdb: 'pycalphad_inline_ideal_ABC.tdb',
    components: ['A', 'B', 'C'],
    phases: ['TEST'],
    conditions: { T: 1000, 'MU(B)': R * 1000 * Math.log(0.3), 'Y(TEST,0,C)': 0.2 },
    expected: [
      v('X(C)', 0.2, { tolerance: { rtol: 0, atol: 1e-8 } }),
      v('X(A)', 0.5, { tolerance: { rtol: 0, atol: 1e-8 } }),
    ],
  },
  // phases the database does not define are ignored; VA listed for a database without it too
  {
    ...lensCase('undefined phases ignored', 'equilibrium', { T: T1, 'X(B)': 0.5 }, [v('GM', G_SOLID_HALF)]),
    phases: ['LIQUID', 'SOLID', 'FCC_A1', 'SIGMA'],
  },
  {
    id: 'VA of a database without it ignored',
    kind: 'equilibrium',
    tdb: 'pycalphad_inline_ideal_ABC.tdb',
    components: ['A', 'B', 'C', 'VA'],
    phases: ['TEST'],
    conditions: { T: 1000, 'X(B)': 0.3, 'X(C)': 0.2 },
    expected: [v('MU(A)', R * 1000 * Math.log(0.5))],
  },
  // a condition of 0 is evaluated as 1e-10 (pure A solid at 600 K, B dilute in SOLID)
  lensCase('fraction 0 clamped to 1e-10', 'equilibrium', { T: 600, 'X(B)': 0 }, [
    v('MU(B)', R * 600 * Math.log(1e-10), { tolerance: { rtol: 1e-6, atol: 0 } }),
  ]),
  // the mass fraction too: W(B) = 1e-10 is X(B) = (1e-10/30) / ((1 - 1e-10)/20 + 1e-10/30)
  lensCase('mass fraction 0 clamped to 1e-10', 'equilibrium', { T: 600, 'W(B)': 0 }, [
    v('MU(B)', R * 600 * Math.log(1e-10 / 30 / ((1 - 1e-10) / 20 + 1e-10 / 30)), {
      tolerance: { rtol: 1e-6, atol: 0 },
    }),
  ]),
];

// --------------------------------------------------------------------------------------- quantities

const X2 = 0.4; // inside the lens at T1
const tl = tieLine(T1);
const npS = (X2 - tl.xl) / (tl.xs - tl.xl);
const muA = RT1 * Math.log(1 - tl.xs);
const muB = RT1 * Math.log(tl.xs);
const gm2 = (1 - X2) * muA + X2 * muB;
const hm2 = (1 - npS) * ((1 - tl.xl) * 10000 + tl.xl * 15000);
const gmLiquid = (1 - tl.xl) * muA + tl.xl * muB;
const wLiquidB = (30 * tl.xl) / (20 * (1 - tl.xl) + 30 * tl.xl);
const dNpSdT = (() => {
  const h = 1e-3;
  const np = (T: number) => {
    const t = tieLine(T);
    return (X2 - t.xl) / (t.xs - t.xl);
  };
  return (np(T1 + h) - np(T1 - h)) / (2 * h);
})();

const quantityCases = [
  lensCase('two-phase equilibrium quantities', 'equilibrium', { T: T1, P: 101325, 'X(B)': X2 }, [
    v('GM', gm2),
    v('MU(A)', muA),
    v('MU(B)', muB),
    v('HM', hm2),
    v('SM', (hm2 - gm2) / T1),
    v('VM', 0, { tolerance: { rtol: 0, atol: 1e-15 } }),
    v('NP(SOLID)', npS),
    v('NP(SOLID#*)', [npS]),
    v('X(SOLID,B)', tl.xs),
    v('X(SOLID#*,B)', [tl.xs]),
    v('W(LIQUID,B)', wLiquidB),
    v('Y(SOLID)', [{ A: 1 - tl.xs, B: tl.xs }]),
    v('stable_phases', ['LIQUID', 'SOLID'], eq('set_equal')),
    v('number_of_stable_phases', 2, eq('equal')),
    // references: the ELEMENT lines' SOLID, G = 0
    v('GM_FORMATION', gm2),
    v('GM_FORMATION(LIQUID)', gmLiquid),
    v(
      'NP_sorted_nonzero',
      [npS, 1 - npS].sort((a, b) => a - b),
      eq('sorted'),
    ),
    v('X_overall_from_phases', { A: 1 - X2, B: X2 }),
    v('mass_balance_error', 1e-9, eq('less_than')),
    v('net_charge(SOLID)', 0, { tolerance: { rtol: 0, atol: 1e-12 } }),
    v(
      'composition_sets',
      [
        { X: { A: 1 - tl.xs, B: tl.xs }, NP: npS, GM: RT1 * ideal(tl.xs) },
        { X: { A: 1 - tl.xl, B: tl.xl }, NP: 1 - npS, GM: gmLiquid },
      ],
      eq('unordered'),
    ),
    v('DF(SOLID)', 0, { tolerance: { rtol: 0, atol: 1e-6 } }),
    // "A.B": the total derivative along the equilibrium (the tie-line moves with T)
    v('NP(SOLID).T', dNpSdT, { tolerance: FD }),
    v('MU(B).T', R * Math.log(tl.xs) + (R * T1 * ((tieLine(T1 + 1e-3).xs - tieLine(T1 - 1e-3).xs) / 2e-3)) / tl.xs, {
      tolerance: FD,
    }),
  ]),
  // single LIQUID at 1600 K: HM = 12500 (ideal), MU(A) = 10000 - 10T + RT ln x(A)
  lensCase('derivatives A.B', 'derivative', { T: 1600, 'X(B)': 0.5 }, [
    v('HM.T', 0, { tolerance: { rtol: 0, atol: 1e-4 } }),
    v('MU(A).T', -10 + R * Math.log(0.5), { tolerance: FD }),
    v('MU(A).X(B)', (-R * 1600) / 0.5, { tolerance: FD }),
    v('GM.T', -10 + R * ideal(0.5), { tolerance: FD }),
  ]),
  // W(B) = 0.6 is X(B) = 0.5; dX(B)/dW(B) = (1/30) / D - (W/30)(1/30 - 1/20) / D^2 with D = (1 - W)/20 + W/30
  lensCase('derivative by a mass fraction', 'derivative', { T: 1600, 'W(B)': 0.6 }, [
    v('MU(A).W(B)', ((-R * 1600) / 0.5) * (1 / 30 / 0.04 - ((0.6 / 30) * (1 / 30 - 1 / 20)) / 0.04 ** 2), {
      tolerance: FD,
    }),
  ]),
];

// REG at y = (0.5, 0.5), T = 1000: GM = 0.5*1000 + 0.5*(2000 + T) + 0.25*(-5000 + 2T) + RT ln(1/2) + V (P - P0),
// V = 1.5e-5; BCC_A2: TC = 0.5*1000 - 0.5*300 + 0.25*200 = 400, BMAGN = 0.5*2.2 - 0.5*0.5 = 0.85;
// ORD (0.8, 0.2 : 0.2, 0.8): degree of ordering 0.6 (own-prop-lens-ordering-1's notes)
const propertyCases = [
  {
    id: 'property quantities',
    kind: 'property',
    tdb: LENS,
    components: ['A', 'B'],
    phases: ['REG', 'BCC_A2', 'ORD'],
    conditions: { T: 1000, P: 101325 },
    site_fractions: {
      REG: [{ A: 0.5, B: 0.5 }],
      BCC_A2: [{ A: 0.5, B: 0.5 }],
      ORD: [
        { A: 0.8, B: 0.2 },
        { A: 0.2, B: 0.8 },
      ],
    },
    expected: [
      v('GM', 1250 + R * 1000 * Math.log(0.5), { phase: 'REG' }),
      v('GM_NO_IDMIX', 1250, { phase: 'REG' }),
      v('HM', 250, { phase: 'REG' }),
      v('SM', R * Math.log(2) - 1, { phase: 'REG' }),
      v('VM', 1.5e-5, { phase: 'REG', tolerance: { rtol: 1e-12, atol: 0 } }),
      v('GM(P=1e10) - GM(P=101325)', 1.5e-5 * (1e10 - 101325), { phase: 'REG' }),
      v('GM_FORMATION', 1250 + R * 1000 * Math.log(0.5), { phase: 'REG' }),
      v('X(REG,B)', 0.5),
      v('TC', 400, { phase: 'BCC_A2' }),
      v('BMAGN', 0.85, { phase: 'BCC_A2' }),
      v('DEGREE_OF_ORDERING(ORD)', 0.6, { tolerance: { rtol: 0, atol: 1e-12 } }),
      v('net_charge(ORD)', 0, { tolerance: { rtol: 0, atol: 1e-12 } }),
    ],
  },
];

// ----------------------------------------------------------------------------- metastable and isolated

const G_LIQ_HALF = 0.5 * (10000 - 10 * T1) + 0.5 * (15000 - 10 * T1) + G_SOLID_HALF; // 500 - RT ln 2
const MU_A_LIQ = 10000 - 10 * T1 + RT1 * Math.log(0.5);
// ideal liquid: max over x of sum_i x_i (MU_i - G_i) - RT sum x ln x = RT ln sum_i exp((MU_i - G_i)/RT)
const DF_LIQ = RT1 * Math.log(0.5 * Math.exp(2000 / RT1) + 0.5 * Math.exp(-3000 / RT1));

const isolatedCases = [
  lensCase('metastable: DF, T0, roots, isolated', 'metastable', { T: T1, P: 101325, 'X(B)': 0.5 }, [
    v('DF(LIQUID)', DF_LIQ),
    // G(LIQUID) - G(SOLID) at x = 0.5 is 12500 - 10T; at T1 it is 5000 x - 2000
    v('T0(LIQUID,SOLID)', 1250, { tolerance: { rtol: 0, atol: 1e-6 } }),
    v('T at which GM(LIQUID)=GM(SOLID)', 1250, { tolerance: { rtol: 0, atol: 1e-6 } }),
    v('X(B) at which GM(LIQUID) = GM(SOLID)', 0.4, { tolerance: { rtol: 0, atol: 1e-9 } }),
    v('X(B) at which GM(LIQUID)=GM(SOLID) at T=1250', 0.5, { tolerance: { rtol: 0, atol: 1e-9 } }),
    // every spelling of "... isolated": LIQUID alone at x = 0.5 though SOLID is the stable phase
    v('GM of isolated LIQUID', G_LIQ_HALF),
    v('GM of isolated LIQUID (single composition set)', G_LIQ_HALF),
    v('GM of the isolated LIQUID', G_LIQ_HALF),
    v('GM of LIQUID isolated', G_LIQ_HALF),
    v('GM isolated LIQUID', G_LIQ_HALF),
    v('GM(LIQUID) isolated', G_LIQ_HALF),
    v('GM(LIQUID) isolated (single composition set)', G_LIQ_HALF),
    v('GM(LIQUID), isolated', G_LIQ_HALF),
    v('GM(LIQUID, isolated)', G_LIQ_HALF),
    v('isolated GM(LIQUID)', G_LIQ_HALF),
    v('GM isolated', G_LIQ_HALF, { phase: 'LIQUID' }),
    v('MU(A) isolated', MU_A_LIQ, { phase: 'LIQUID' }),
    v('MU(A) isolated (LIQUID)', MU_A_LIQ),
    v('MU(A) of isolated LIQUID', MU_A_LIQ),
    v('HM(LIQUID) isolated', 12500),
    v('X(LIQUID,B) isolated', 0.5, { tolerance: { rtol: 0, atol: 1e-12 } }),
    v('GM(LIQUID) isolated - GM(SOLID) isolated', 500),
    v('GM(LIQUID) isolated at T=1300', 12500 - 13000 + R * 1300 * ideal(0.5)),
    v('GM of isolated LIQUID at T=1300', 12500 - 13000 + R * 1300 * ideal(0.5)),
    v('GM(LIQUID).T isolated', -10 + R * ideal(0.5), { tolerance: FD }),
  ]),
  lensCase('isolated in an equilibrium case', 'equilibrium', { T: T1, 'X(B)': 0.5 }, [
    v('GM', G_SOLID_HALF),
    v('GM(LIQUID) isolated', G_LIQ_HALF),
    v('MU(A) isolated', MU_A_LIQ, { phase: 'LIQUID' }),
  ]),
  lensCase('extremum over the grid', 'metastable', { T: T1, 'X(B)': [0.1, 0.3, 0.5] }, [
    v('max_over_grid(GM(SOLID) isolated)', RT1 * ideal(0.1)),
    v('min_over_grid(GM of isolated SOLID)', RT1 * ideal(0.5)),
    // the stable equilibrium: LIQUID at x = 0.1 and 0.3 (left of the tie-line's 0.341), SOLID at 0.5
    v('max_over_grid(GM)', 0.9 * -2000 + 0.1 * 3000 + RT1 * ideal(0.1)),
  ]),
  // GAP alone as one set at x = 0.5 inside its miscibility gap: 0.25*20000 + RT ln(1/2), no splitting
  {
    id: 'isolated: no miscibility-gap splitting',
    kind: 'equilibrium',
    tdb: TDB('congruent_gap.tdb'),
    components: ['A', 'B'],
    phases: ['GAP'],
    conditions: { T: 800, 'X(B)': 0.5 },
    expected: [
      v('number_of_stable_phases', 2, eq('equal')),
      v('stable_phases', ['GAP', 'GAP'], eq('multiset_equal')),
      v('GM(GAP) isolated', 5000 + R * 800 * ideal(0.5)),
      v('GM of isolated GAP (single composition set)', 5000 + R * 800 * ideal(0.5)),
      v('MU(B) isolated', 5000 + R * 800 * Math.log(0.5)),
      v('number_of_stable_phases isolated', 1, eq('equal')),
    ],
  },
];

// ------------------------------------------------------------------------------ lines, maps and points

const stepMapCases = [
  lensCase('step along T', 'step', { T: { min: 1000, max: 1600, step: 50 }, P: 101325, 'X(B)': X2 }, [
    v('phase_regions_include', [['LIQUID'], ['LIQUID', 'SOLID'], ['SOLID']], eq('contains_sets')),
    v('two_phase_regions_include', [['LIQUID', 'SOLID']], eq('contains_sets')),
    v('boundaries_include', [['LIQUID', 'SOLID']], eq('contains_sets')),
    v('two_phase_regions_include (along T)', [['LIQUID', 'SOLID']], eq('contains_sets')),
    v('NP(SOLID) at T=1200', npS),
    v('number_of_stable_phases at T=1200', 2, eq('equal')),
  ]),
  lensCase(
    'number_of_stable_phases at a point of a binary map',
    'map',
    {
      T: { min: 1000, max: 1600, step: 100 },
      P: 101325,
      'X(B)': { min: 0, max: 1, step: 0.25 },
    },
    [
      v('number_of_stable_phases at T=1200, X(B)=0.4', 2, eq('equal')),
      v('number_of_stable_phases at T = 1200 K, X(B) = 0.4', 2, eq('equal')),
      v('number_of_stable_phases at T=1200 and X(B)=0.5', 1, eq('equal')),
      v('number_of_stable_phases at (T=1200; X(B)=0.5)', 1, eq('equal')),
      // the point's X(A) replaces the map's X(B) grid
      v('number_of_stable_phases at T=1200, X(A)=0.6', 2, eq('equal')),
      v('stable_phases at T=1600, X(B)=0.5', ['LIQUID'], eq('set_equal')),
    ],
  ),
  {
    id: 'number_of_stable_phases at a point of a ternary map',
    kind: 'map',
    tdb: TDB('eutectic_ideal.tdb'),
    components: ['A', 'B', 'C'],
    phases: ['LIQUID', 'ALPHA', 'BETA', 'GAMMA'],
    conditions: {
      T: 621.055,
      P: 101325,
      'X(B)': { min: 0.05, max: 0.951, step: 0.1 },
      'X(C)': { min: 0.05, max: 0.951, step: 0.1 },
    },
    expected: [
      v('number_of_stable_phases at X(B)=0.3, X(C)=0.3', 3, eq('equal')),
      v('number_of_stable_phases at X(A)=0.4, X(B)=0.3', 3, eq('equal')),
      v('number_of_stable_phases at X(A)=0.4, X(C)=0.3', 3, eq('equal')),
      v('number_of_stable_phases at X(A)=0.4, X(B)=0.3, X(C)=0.3', 3, eq('equal')),
      v('number_of_stable_phases at T=1600, X(A)=0.4, X(C)=0.3', 1, eq('equal')),
      v('number_of_stable_phases at T=1600 K; X(A)=0.4; X(B)=0.3', 1, eq('equal')),
      v('stable_phases at X(A)=0.4, X(B)=0.3', ['ALPHA', 'BETA', 'GAMMA'], eq('set_equal')),
    ],
  },
];

/** The own Scheil case (hand-calculated values in its notes) with a remark after each keyword quantity. */
function scheilWithRemarks(): Record<string, unknown> {
  const own = JSON.parse(readFileSync(path.join(__dirname, 'own-cases.json'), 'utf8')) as { cases: ValidationCase[] };
  const c = own.cases.find((x) => x.id === 'own-scheil-eutectic-ab')!;
  const keywords = ['first_solid_phase', 'T_first_solid', 'last_solid_phases', 'T_end'];
  return {
    ...c,
    id: 'Scheil keywords with a remark',
    tdb: TDB('eutectic_ideal.tdb'),
    expected: c.expected
      .filter((e) => keywords.includes(e.quantity))
      .map((e) => ({ ...e, quantity: `${e.quantity} (Scheil path)` })),
  };
}

/**
 * The shared cases with "... of isolated PHASE" entries, their quantities respelled in the README's other
 * forms ("GM(BCC_A2) isolated", "GM isolated" of the case's only phase, ...): the same pycalphad values.
 */
function sharedIsolatedRespelled(): ValidationCase[] {
  const shared = JSON.parse(readFileSync(SHARED_CASES, 'utf8')) as { cases: ValidationCase[] };
  const spellings: Record<string, string[]> = {
    'GM of isolated BCC_A2 (single composition set)': ['GM(BCC_A2) isolated', 'GM isolated', 'isolated GM(BCC_A2)'],
    'MU(PB) of isolated BCT_A5': ['MU(PB) isolated', 'MU(PB) isolated (BCT_A5)'],
    'MU(SN) of isolated BCT_A5': ['MU(SN) of BCT_A5 isolated'],
    'GM of isolated BCT_A5': ['GM(BCT_A5) isolated (single composition set)', 'GM(BCT_A5, isolated)'],
  };
  return shared.cases
    .filter((c) => c.expected.some((e) => e.quantity in spellings))
    .map((c) => ({
      ...c,
      id: `${c.id} respelled`,
      tdb: path.join(SHARED_TDB_DIR, c.tdb!),
      expected: c.expected.flatMap((e) => (spellings[e.quantity] ?? []).map((quantity) => ({ ...e, quantity }))),
    }));
}

describe('README vocabulary, form by form', () => {
  it('reads every form and reaches the closed-form value', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pd-forms-'));
    const file = path.join(dir, 'cases.json');
    const cases = [
      ...conditionCases,
      ...quantityCases,
      ...propertyCases,
      ...isolatedCases,
      ...stepMapCases,
      scheilWithRemarks(),
      ...sharedIsolatedRespelled(),
    ].map((c) => ({ description: c.id, ...c }) as ValidationCase);
    writeFileSync(file, JSON.stringify({ schema: 'calphad-validation-cases/1', cases }));
    const report = await runValidation(file, { tdbDir: SHARED_TDB_DIR });
    const misses = report.cases.flatMap((c) =>
      c.entries
        .filter((e) => e.verdict !== 'matched')
        .map(
          (e) =>
            `${c.id} | ${e.quantity}: ${e.verdict} computed=${JSON.stringify(e.computed)} expected=${JSON.stringify(e.expected)} ${e.message ?? ''}`,
        ),
    );
    expect(misses).toEqual([]);
    expect(report.cases.length).toBe(cases.length);
    expect(report.cases.filter((c) => c.id.endsWith('respelled')).length).toBe(2);
  });
});
