// The three ageing treatments of the aging task's speed goals, as task_configs without their database (each names the
// shared TDB file it runs on): one definition for the tests, `npm run bench:aging` and the e2e.
//   alzr: Al-0.4Zr (at. %) held 500 h at 723.15 K, Al3Zr on dislocations (kawin_AlScZr.tdb);
//   nialcr: Ni-9.8Al-8.3Cr (at. %) held 1e6 s at 1073 K, gamma-prime in gamma (kawin_NiCrAl.tdb);
//   6xxx: Al-0.72Mg-0.57Si (at. %; 0.65 Mg, 0.59 Si mass %, inside AA6005A's ranges), 16 h at 175 °C, a 1 h ramp to
//   250 °C and 8 h there (25 h in all, the treatment of kawin's Al-Mg-Si example), with the five metastable
//   precipitates of kawin_AlMgSi.tdb competing (beta'', beta', B', U1, U2). Interfacial energies: beta'' 0.084 J/m^2, the others 0.18 J/m^2, and V_m = 1e-5 m^3/mol for every phase,
//   as in the Al-Mg-Si example of kawin (Ury, Perez, Miller, Ng and Lenosky, Acta Mater. 255 (2023) 118988), on the
//   thermodynamics and mobilities of Povoden-Karadeniz, Lang, Warczok, Falahati, Jun and Kozeschnik, Calphad 43
//   (2013) 94; bulk nucleation.
import type { z } from 'zod';
import type { agingSchema } from './aging.js';

type AgingTaskConfig = Omit<z.input<typeof agingSchema>, 'tdb_code'>;

export interface AgingExample {
  name: 'alzr' | 'nialcr' | '6xxx';
  what: string;
  /** the file name of the database in the shared TDB folder */
  tdb: string;
  /** the speed goal of the whole task, s */
  goal: number;
  config: AgingTaskConfig;
}

const hours = (h: number) => h * 3600;
const C = (celsius: number) => celsius + 273.15;

/** The 6xxx schedule: 16 h at 175 °C, a 1 h ramp to 250 °C, 8 h at 250 °C. */
export const AGING_6XXX_SCHEDULE = [
  { time: 0, temperature: C(175) },
  { time: hours(16), temperature: C(175) },
  { time: hours(17), temperature: C(250) },
  { time: hours(25), temperature: C(250) },
];

/** beta'' (MG5SI6_B_DP) and the four phases it competes with, with their interfacial energies (J/m^2). */
export const AGING_6XXX_PHASES: Record<string, number> = {
  MG5SI6_B_DP: 0.084,
  MGSI_B_P: 0.18,
  B_PRIME_L: 0.18,
  U1_PHASE: 0.18,
  U2_PHASE: 0.18,
};

type Condition = AgingTaskConfig['condition'];

/** An ageing treatment at 1 atm of an fcc matrix. */
const fccAging = (condition: Omit<Condition, 'pressure' | 'matrix_phase'>): AgingTaskConfig => ({
  task_type: 'aging',
  condition: { ...condition, pressure: 101325, matrix_phase: 'FCC_A1' } as Condition,
});

export const AGING_EXAMPLES: readonly AgingExample[] = [
  {
    name: 'alzr',
    what: 'Al-0.4Zr (at. %) at 723.15 K for 500 h, Al3Zr on dislocations',
    tdb: 'kawin_AlScZr.tdb',
    goal: 2,
    config: fccAging({
      components: ['AL', 'ZR'],
      compositions: { ZR: 0.004 },
      matrix_lattice_parameter: 4.05e-10,
      temperature: 723.15,
      end_time: hours(500),
      precipitates: [{ phase: 'AL3ZR', interfacial_energy: 0.1, nucleation_site: 'dislocations' }],
      dislocation_density: 1e15,
    }),
  },
  {
    name: 'nialcr',
    what: 'Ni-9.8Al-8.3Cr (at. %) at 1073 K for 1e6 s, gamma-prime in gamma',
    tdb: 'kawin_NiCrAl.tdb',
    goal: 10,
    config: fccAging({
      components: ['NI', 'AL', 'CR'],
      compositions: { AL: 0.098, CR: 0.083 },
      matrix_lattice_parameter: 3.52e-10,
      temperature: 1073,
      end_time: 1e6,
      precipitates: [{ phase: 'FCC_L12', interfacial_energy: 0.023 }],
    }),
  },
  {
    name: '6xxx',
    what: "Al-0.72Mg-0.57Si (at. %): 16 h at 175 °C, 1 h ramp, 8 h at 250 °C; beta'', beta', B', U1, U2",
    tdb: 'kawin_AlMgSi.tdb',
    goal: 30,
    config: fccAging({
      components: ['AL', 'MG', 'SI'],
      compositions: { MG: 0.0072, SI: 0.0057 },
      matrix_molar_volume: 1e-5,
      schedule: AGING_6XXX_SCHEDULE,
      precipitates: Object.entries(AGING_6XXX_PHASES).map(([phase, gamma]) => ({
        phase,
        interfacial_energy: gamma,
        molar_volume: 1e-5,
      })),
      output_times: [hours(16), hours(25)],
    }),
  },
];

export function agingExample(name: AgingExample['name']): AgingExample {
  return AGING_EXAMPLES.find((e) => e.name === name)!;
}
