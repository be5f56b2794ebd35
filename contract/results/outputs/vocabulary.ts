// The outputs vocabulary of thermo_outputs / outputs_list_template (service spec
// "task_config"): which quantities a result table holds, their units, the order of the columns, and
// the table built from equilibrium points (contract/results/outputs/: this file the documented names; names.ts
// reads a name, selection.ts chooses a task's names, columns.ts builds the table). Pure TypeScript without node:
// imports, so the renderer and the zod schemas of contract/tasks/ import it too.
//
// Units: K, Pa, J/mol of atoms (system and phase energies), J/(mol K), J/mol of element (chemical
// potentials), mole fractions; NP in moles of atoms of the phase per mole of atoms of the system.
//
// A PHASE argument is a phase *label* as in phase_name and in the transitions of a line: NAME is the
// first composition set of the phase, NAME#2 the second set of a miscibility gap (phaseLabel() in
// common.ts). So NP(FCC_A1) is the amount of the first FCC_A1 set; the total over a gap is
// NP(FCC_A1) + NP(FCC_A1#2). `*` expands over the components (elements, without VA) or over the
// phase labels met in the result (sorted by name, then composition set).
export interface KnownOutput {
  /** the name as written in thermo_outputs (PHASE, EL, S, SPECIES are placeholders) */
  name: string;
  unit: string;
  description: string;
}

/** Every documented output name, with its unit (README "Outputs"). */
export const KNOWN_OUTPUTS: readonly KnownOutput[] = [
  { name: 'T', unit: 'K', description: 'temperature' },
  { name: 'P', unit: 'Pa', description: 'pressure' },
  {
    name: 'phase_name',
    unit: '',
    description: 'stable phase labels (NAME or NAME#2 for a second composition set), sorted, joined by "+"',
  },
  { name: 'converged', unit: '', description: '1 when the solver certified the equilibrium, 0 when not' },
  {
    name: 'NP(*)',
    unit: 'mol/mol',
    description: 'amount of every stable phase label met (moles of atoms per mole of atoms of the system)',
  },
  { name: 'NP(PHASE)', unit: 'mol/mol', description: 'amount of one phase label; 0 when it is not stable' },
  { name: 'x(*)', unit: '-', description: 'overall mole fraction of every component' },
  { name: 'x(EL)', unit: '-', description: 'overall mole fraction of EL' },
  {
    name: 'x(PHASE,*)',
    unit: '-',
    description: 'mole fractions of every component in a stable phase (PHASE may be *)',
  },
  {
    name: 'x(PHASE,EL)',
    unit: '-',
    description: 'mole fraction of EL in a stable phase; empty when the phase is not stable',
  },
  {
    name: 'y(PHASE,*)',
    unit: '-',
    description:
      'site fractions of a stable phase, one column per sublattice S (from 0) and constituent: y(PHASE,S,SPECIES)',
  },
  { name: 'y(PHASE,S,SPECIES)', unit: '-', description: 'one site fraction of a stable phase' },
  { name: 'G', unit: 'J/mol', description: 'Gibbs energy of the system per mole of atoms (alias GM)' },
  { name: 'H', unit: 'J/mol', description: 'enthalpy of the system per mole of atoms (alias HM)' },
  { name: 'S', unit: 'J/(mol K)', description: 'entropy of the system per mole of atoms (alias SM)' },
  {
    name: 'Cp',
    unit: 'J/(mol K)',
    description:
      'heat capacity of the system per mole of atoms: the equilibrium Cp dH/dT (phase amounts changing) where the calculation computed it, otherwise the frozen-phase Cp',
  },
  {
    name: 'Cp_frozen',
    unit: 'J/(mol K)',
    description: 'frozen-phase heat capacity sum NP*CPM (phase amounts and compositions held fixed)',
  },
  {
    name: 'GM(PHASE)',
    unit: 'J/mol',
    description: 'Gibbs energy of a stable phase per mole of atoms (PHASE may be *)',
  },
  { name: 'mu(*)', unit: 'J/mol', description: 'chemical potential of every component' },
  {
    name: 'mu(EL)',
    unit: 'J/mol',
    description: 'chemical potential of EL per mole of EL, referred to the SER of the database',
  },
  { name: 'ac(*)', unit: '-', description: 'activity of every component' },
  {
    name: 'ac(EL)',
    unit: '-',
    description: 'activity exp(mu/RT) of EL relative to the SER reference state of the database (R = 8.3145)',
  },
  { name: 'DF(*)', unit: 'J/mol', description: 'driving force of every phase met (0 for stable phases)' },
  {
    name: 'DF(PHASE)',
    unit: 'J/mol',
    description: 'driving force of a phase: 0 when stable, < 0 when metastable; empty when not computed',
  },
  {
    name: 'w(*)',
    unit: '-',
    description: 'overall mass fraction of every component (molar masses of the ELEMENT lines)',
  },
  { name: 'w(EL)', unit: '-', description: 'overall mass fraction of EL' },
  {
    name: 'w(PHASE,*)',
    unit: '-',
    description: 'mass fractions of every component in a stable phase (PHASE may be *)',
  },
  {
    name: 'w(PHASE,EL)',
    unit: '-',
    description: 'mass fraction of EL in a stable phase; empty when the phase is not stable',
  },
  {
    name: 'mur(*)',
    unit: 'J/mol',
    description: 'chemical potential of every component relative to its reference state',
  },
  {
    name: 'mur(EL)',
    unit: 'J/mol',
    description:
      "chemical potential of EL relative to its reference state (condition.reference_states, else the ELEMENT line's phase) at the same T and P: MU - GM(pure EL in that phase)",
  },
  { name: 'acr(*)', unit: '-', description: 'activity of every component relative to its reference state' },
  { name: 'acr(EL)', unit: '-', description: 'activity exp(mur/RT) of EL relative to its reference state' },
  {
    name: 'GM_formation',
    unit: 'J/mol',
    description: 'Gibbs energy of formation of the system: GM - sum_i x_i GM(reference state of i), same T and P',
  },
  {
    name: 'GM_formation(PHASE)',
    unit: 'J/mol',
    description: 'Gibbs energy of formation of a stable phase against the reference states (PHASE may be *)',
  },
  {
    name: 'VM',
    unit: 'm^3/mol',
    description: 'molar volume of the system, sum NP*VM; empty unless every stable phase has volume data',
  },
  {
    name: 'VM(PHASE)',
    unit: 'm^3/mol',
    description: 'molar volume of a stable phase; empty when the database has no volume data for it',
  },
  {
    name: 'TC(PHASE)',
    unit: 'K',
    description: 'Curie/Neel temperature of a stable magnetic phase (PHASE may be *: the magnetic phases met)',
  },
  {
    name: 'BMAGN(PHASE)',
    unit: 'Bohr magnetons',
    description: 'mean magnetic moment per atom of a stable magnetic phase (PHASE may be *)',
  },
  {
    name: 'DOO(PHASE)',
    unit: '-',
    description: "degree of ordering of a stable phase (pycalphad's definition; 0 = disordered; PHASE may be *)",
  },
  {
    name: 'ordered(PHASE)',
    unit: '',
    description:
      '1 when the stable set of a phase with an order-disorder description is ordered, 0 when disordered (PHASE may be *)',
  },
  {
    name: 'structure(PHASE)',
    unit: '',
    description:
      'structure of a stable set of a phase with an order-disorder description, e.g. "A2 (BCC_B2)" (PHASE may be *)',
  },
  {
    name: 'T_liquidus',
    unit: 'K',
    description:
      "liquidus temperature of the alloy at the point's composition (point_calculation; line_calculation at fixed composition)",
  },
  {
    name: 'T_solidus',
    unit: 'K',
    description:
      "equilibrium solidus temperature of the alloy at the point's composition (point_calculation; line_calculation at fixed composition)",
  },
  {
    name: 'T_scheil_end',
    unit: 'K',
    description:
      "end of the alloy's Scheil-Gulliver solidification from its liquidus in 1 K steps (the last eutectic, or where the liquid is used up); T_liquidus - T_scheil_end is the Scheil freezing range (point_calculation, equilibrium_batch)",
  },
  {
    name: 'T_solvus(PHASE)',
    unit: 'K',
    description:
      "solvus of a phase at the point's composition: the temperature nearest the point's at which the phase appears or disappears, to 0.01 K (point_calculation, equilibrium_batch; empty when none lies in 200-4000 K)",
  },
  {
    name: 'T0(PHASE1,PHASE2)',
    unit: 'K',
    description:
      "the temperature nearest the point's at which the two phases, each alone at the point's composition, have equal Gibbs energy (the limit of a partitionless transformation, e.g. T0(FCC_A1,BCC_A2) of a steel), to 0.01 K (point_calculation, equilibrium_batch; empty when they do not cross in 200-4000 K)",
  },
  {
    name: 'invariants_crossed',
    unit: '',
    description:
      'the invariants a line crosses, each "T K: PHASE (EL x, ...) + ..." with the mole fractions of its C + 1 phases, joined by "; " (line_calculation; the same text on every row)',
  },
  {
    name: 'MOB(PHASE,EL)',
    unit: 'm^2 mol/(J s)',
    description:
      "atomic mobility of EL in a stable phase, M = exp(MF/RT) exp((1 + alpha xi) MQ/RT) / RT from the database's mobility parameters (Andersson and Agren 1992; Jonsson's magnetic factor in bcc); empty without mobility data for the phase",
  },
  {
    name: 'DT(PHASE,EL)',
    unit: 'm^2/s',
    description:
      'tracer diffusivity of EL in a stable phase, D* = RT M (or exp((DF + DQ)/RT) where the database gives a diffusivity directly)',
  },
  {
    name: 'DC(PHASE,EL1,EL2)',
    unit: 'm^2/s',
    description:
      "chemical (interdiffusion) coefficient D^n(EL1,EL2) in the volume-fixed frame of the substitutional elements, with the phase's major substitutional element n as the dependent one (the phase's diffusion.dependent in result.json); the thermodynamic factor from the phase's own Gibbs-energy Hessian",
  },
  {
    name: 'DI(PHASE,EL1,EL2)',
    unit: 'm^2/s',
    description:
      'intrinsic (lattice-fixed) diffusion coefficient of EL1 with respect to the gradient of EL2, same dependent n',
  },
];

export const KNOWN_OUTPUT_NAMES: string = KNOWN_OUTPUTS.map((o) => o.name).join(', ');
