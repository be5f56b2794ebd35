// The outputs vocabulary of thermo_outputs / outputs_list_template (service spec
// "task_config"): which quantities a result table holds, their units, the order of the columns, and
// the table built from equilibrium points. Pure TypeScript without node: imports, so the renderer and
// the zod schemas of contract/tasks/ import it too.
//
// Units: K, Pa, J/mol of atoms (system and phase energies), J/(mol K), J/mol of element (chemical
// potentials), mole fractions; NP in moles of atoms of the phase per mole of atoms of the system.
//
// A PHASE argument is a phase *label* as in phase_name and in the transitions of a line: NAME is the
// first composition set of the phase, NAME#2 the second set of a miscibility gap (phaseLabel() in
// common.ts). So NP(FCC_A1) is the amount of the first FCC_A1 set; the total over a gap is
// NP(FCC_A1) + NP(FCC_A1#2). `*` expands over the components (elements, without VA) or over the
// phase labels met in the result (sorted by name, then composition set).
import { elementsOf } from '../phases.js';
import type { EquilibriumPoint, PhaseRecord, ResultTable } from './common.js';

/**
 * Gas constant used for activities, the one of the calculation core (native-core/src/io/database.hpp
 * kGasConstant = 8.3145, pycalphad's value; formula sheet §10).
 */
export const GAS_CONSTANT = 8.3145;

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
    name: 'invariants_crossed',
    unit: '',
    description:
      'the invariants a line crosses, each "T K: PHASE (EL x, ...) + ..." with the mole fractions of its C + 1 phases, joined by "; " (line_calculation; the same text on every row)',
  },
];

type Fn =
  | 'T'
  | 'P'
  | 'phase_name'
  | 'converged'
  | 'NP'
  | 'x'
  | 'xph'
  | 'y'
  | 'G'
  | 'H'
  | 'S'
  | 'Cp'
  | 'Cp_frozen'
  | 'GM'
  | 'mu'
  | 'ac'
  | 'DF'
  | 'w'
  | 'wph'
  | 'mur'
  | 'acr'
  | 'GMF'
  | 'GMFph'
  | 'VM'
  | 'VMph'
  | 'TC'
  | 'BMAGN'
  | 'DOO'
  | 'ordered'
  | 'structure'
  | 'T_liquidus'
  | 'T_solidus'
  | 'invariants_crossed';

/** Phase functions whose value is a field of the stable set (PHASE may be *: the labels met that have it). */
const PHASE_FIELDS: Partial<Record<Fn, (q: PhaseRecord) => number | string | null | undefined>> = {
  GMFph: (q) => q.GM_formation,
  VMph: (q) => q.VM,
  TC: (q) => q.TC,
  BMAGN: (q) => q.BMAGN,
  DOO: (q) => q.degree_of_ordering,
  ordered: (q) => (q.ordering ? (q.ordering.ordered ? 1 : 0) : undefined),
  structure: (q) => q.ordering?.label,
};
const PHASE_FUNCTIONS: Record<string, Fn> = {
  GM_FORMATION: 'GMFph',
  VM: 'VMph',
  TC: 'TC',
  BMAGN: 'BMAGN',
  BM: 'BMAGN',
  DOO: 'DOO',
  DEGREE_OF_ORDERING: 'DOO',
  ORDERED: 'ordered',
  STRUCTURE: 'structure',
};

/** A parsed output name. `phase`/`element` may be '*'. */
export interface OutputSpec {
  fn: Fn;
  phase?: string;
  element?: string;
  sublattice?: number | '*';
  species?: string;
}

const SCALARS: Record<string, Fn> = {
  T: 'T',
  P: 'P',
  PHASE_NAME: 'phase_name',
  CONVERGED: 'converged',
  G: 'G',
  GM: 'G',
  H: 'H',
  HM: 'H',
  S: 'S',
  SM: 'S',
  CP: 'Cp',
  CPM: 'Cp',
  CP_FROZEN: 'Cp_frozen',
  GM_FORMATION: 'GMF',
  VM: 'VM',
  T_LIQUIDUS: 'T_liquidus',
  T_SOLIDUS: 'T_solidus',
  INVARIANTS_CROSSED: 'invariants_crossed',
};
const ELEMENT_RE = /^(?:\*|[A-Z][A-Z0-9_]*)$/;
const PHASE_RE = /^(?:\*|[A-Z0-9_]+(?:#[1-9][0-9]*)?)$/;
const SPECIES_RE = /^[A-Z0-9_+\-/]+$/;

export const KNOWN_OUTPUT_NAMES: string = KNOWN_OUTPUTS.map((o) => o.name).join(', ');

/**
 * Parses one output name (function names case-insensitive, arguments upper-cased); a string is the
 * reason it is not an output name.
 */
export function parseOutputName(raw: string): OutputSpec | string {
  if (typeof raw !== 'string') return 'not a string';
  const s = raw.trim();
  const m = /^([A-Za-z_]+)\s*(?:\((.*)\))?$/.exec(s);
  if (!m) return `unknown output '${raw}'`;
  const fname = m[1].toUpperCase();
  if (m[2] === undefined) {
    const fn = SCALARS[fname];
    return fn ? { fn } : `unknown output '${raw}'`;
  }
  const args = m[2].split(',').map((a) => a.trim().toUpperCase());
  if (args.some((a) => a === '')) return `unknown output '${raw}'`;
  const el = (a: string) => ELEMENT_RE.test(a);
  const ph = (a: string) => PHASE_RE.test(a);
  switch (fname) {
    case 'NP':
    case 'GM':
    case 'DF':
      if (args.length === 1 && ph(args[0]))
        return { fn: fname === 'NP' ? 'NP' : fname === 'GM' ? 'GM' : 'DF', phase: args[0] };
      break;
    case 'X':
    case 'W': {
      const [overall, inPhase] = fname === 'X' ? (['x', 'xph'] as const) : (['w', 'wph'] as const);
      if (args.length === 1 && el(args[0])) return { fn: overall, element: args[0] };
      if (args.length === 2 && ph(args[0]) && el(args[1])) return { fn: inPhase, phase: args[0], element: args[1] };
      break;
    }
    case 'MUR':
    case 'ACR':
      if (args.length === 1 && el(args[0])) return { fn: fname === 'MUR' ? 'mur' : 'acr', element: args[0] };
      break;
    case 'Y':
      if (args.length === 2 && ph(args[0]) && args[1] === '*') return { fn: 'y', phase: args[0], sublattice: '*' };
      if (args.length === 3 && ph(args[0]) && /^[0-9]+$/.test(args[1]) && SPECIES_RE.test(args[2])) {
        return { fn: 'y', phase: args[0], sublattice: Number(args[1]), species: args[2] };
      }
      break;
    case 'MU':
    case 'AC':
      if (args.length === 1 && el(args[0])) return { fn: fname === 'MU' ? 'mu' : 'ac', element: args[0] };
      break;
    default:
      if (PHASE_FUNCTIONS[fname] && args.length === 1 && ph(args[0]))
        return { fn: PHASE_FUNCTIONS[fname], phase: args[0] };
  }
  return `unknown output '${raw}'`;
}

/** Canonical spelling of a parsed name (the column name). */
export function outputName(o: OutputSpec): string {
  switch (o.fn) {
    case 'NP':
    case 'GM':
    case 'DF':
    case 'TC':
    case 'BMAGN':
    case 'DOO':
    case 'ordered':
    case 'structure':
      return `${o.fn}(${o.phase})`;
    case 'GMF':
      return 'GM_formation';
    case 'GMFph':
      return `GM_formation(${o.phase})`;
    case 'VMph':
      return `VM(${o.phase})`;
    case 'x':
    case 'w':
      return `${o.fn}(${o.element})`;
    case 'xph':
      return `x(${o.phase},${o.element})`;
    case 'wph':
      return `w(${o.phase},${o.element})`;
    case 'mur':
    case 'acr':
      return `${o.fn}(${o.element})`;
    case 'y':
      return o.sublattice === '*' ? `y(${o.phase},*)` : `y(${o.phase},${o.sublattice},${o.species})`;
    case 'mu':
    case 'ac':
      return `${o.fn}(${o.element})`;
    default:
      return o.fn;
  }
}

export function outputUnit(o: OutputSpec): string {
  switch (o.fn) {
    case 'T':
    case 'TC':
    case 'T_liquidus':
    case 'T_solidus':
      return 'K';
    case 'P':
      return 'Pa';
    case 'NP':
      return 'mol/mol';
    case 'G':
    case 'H':
    case 'GM':
    case 'mu':
    case 'DF':
    case 'mur':
    case 'GMF':
    case 'GMFph':
      return 'J/mol';
    case 'S':
    case 'Cp':
    case 'Cp_frozen':
      return 'J/(mol K)';
    case 'VM':
    case 'VMph':
      return 'm^3/mol';
    case 'BMAGN':
      return 'Bohr magnetons';
    case 'x':
    case 'xph':
    case 'y':
    case 'ac':
    case 'w':
    case 'wph':
    case 'acr':
    case 'DOO':
      return '-';
    default:
      return '';
  }
}

/**
 * null when every name is a known output, else the message for the first unknown one:
 * "unknown output 'FOO'; known: T, P, ...". (The zod schemas prefix it with the field path.)
 */
export function validateOutputs(names: readonly unknown[]): string | null {
  for (const n of names) {
    const r = parseOutputName(n as string);
    if (typeof r === 'string') return `${r}; known: ${KNOWN_OUTPUT_NAMES}`;
  }
  return null;
}

/**
 * null when every element argument of the names is one of the components (VA excluded), else a
 * message. Phase arguments are checked against the database at run time (resolveColumns).
 */
export function checkOutputElements(names: readonly string[], components: readonly string[]): string | null {
  const els = elementsOf(components);
  for (const n of names) {
    const r = parseOutputName(n);
    if (typeof r === 'string' || !r.element || r.element === '*') continue;
    if (!els.includes(r.element)) return `output '${n}': ${r.element} is not one of the components ${els.join(', ')}`;
  }
  return null;
}

export type OutputTaskType = 'point_calculation' | 'line_calculation' | 'thermodynamic_properties_next';

/** Columns when a task names neither thermo_outputs nor outputs_list_template. */
export const DEFAULT_OUTPUTS: Record<OutputTaskType, readonly string[]> = {
  point_calculation: [
    'T',
    'P',
    'phase_name',
    'converged',
    'NP(*)',
    'x(*)',
    'w(*)',
    'x(*,*)',
    'w(*,*)',
    'G',
    'H',
    'S',
    'Cp',
    'mu(*)',
    'ac(*)',
    'acr(*)',
    'GM_formation',
    'T_liquidus',
    'T_solidus',
  ],
  line_calculation: ['T', 'P', 'phase_name', 'converged', 'NP(*)', 'x(*)', 'w(*)', 'G', 'H', 'S', 'mu(*)'],
  thermodynamic_properties_next: ['T', 'phase_name', 'converged', 'G', 'H', 'S', 'Cp', 'Cp_frozen', 'mu(*)'],
};

/**
 * The ordered output names of a task: outputs_list_template in order, then the thermo_outputs
 * entries not already in it ("custom outputs are appended at its end"); duplicates (compared in
 * canonical spelling) are dropped. Neither given (or both empty): the task type's default.
 */
export function selectOutputs(
  taskType: OutputTaskType,
  template?: readonly string[],
  custom?: readonly string[],
): string[] {
  const all = [...(template ?? []), ...(custom ?? [])];
  if (all.length === 0) return [...DEFAULT_OUTPUTS[taskType]];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const n of all) {
    const r = parseOutputName(n);
    const key = typeof r === 'string' ? n : outputName(r);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(n);
  }
  return out;
}

/**
 * A point of a table: an EquilibriumPoint, with the equilibrium Cp when the calculation computed it and the
 * alloy's liquidus and solidus (point_calculation).
 */
export type TablePoint = EquilibriumPoint & {
  Cp_equilibrium?: number | null;
  T_liquidus?: number | null;
  T_solidus?: number | null;
  invariants_crossed?: string | null;
};

export interface TableContext {
  /** components of the task (VA and /- are ignored) */
  components: readonly string[];
  /** phases of the database usable with the components: explicit PHASE arguments must name one of them */
  phases?: readonly string[];
}

/** One concrete column: its name, unit and value extractor. */
export interface Column {
  name: string;
  unit: string;
  value(p: TablePoint): number | string | null;
}

function labelOf(name: string, set: number): string {
  return set > 1 ? `${name}#${set}` : name;
}

function splitLabel(label: string): { name: string; set: number } {
  const i = label.indexOf('#');
  return i < 0 ? { name: label, set: 1 } : { name: label.slice(0, i), set: Number(label.slice(i + 1)) };
}

/** Stable phase labels of one point, sorted. */
export function stableLabels(p: EquilibriumPoint): string[] {
  return p.phases.map((q) => labelOf(q.name, q.composition_set)).sort();
}

/** "FCC_A1+LIQUID" */
export function phaseSetName(p: EquilibriumPoint): string {
  return stableLabels(p).join('+');
}

function labelsMet(points: readonly TablePoint[]): string[] {
  const s = new Set<string>();
  for (const p of points) for (const q of p.phases) s.add(labelOf(q.name, q.composition_set));
  return [...s].sort((a, b) => {
    const A = splitLabel(a),
      B = splitLabel(b);
    return A.name === B.name ? A.set - B.set : A.name < B.name ? -1 : 1;
  });
}

function phaseNamesMet(points: readonly TablePoint[]): string[] {
  const s = new Set<string>();
  for (const p of points) {
    for (const q of p.phases) s.add(q.name);
    for (const q of p.metastable) s.add(q.name);
  }
  return [...s].sort();
}

function findSet(p: TablePoint, label: string) {
  const { name, set } = splitLabel(label);
  return p.phases.find((q) => q.name === name && q.composition_set === set);
}

/**
 * Expands output names into concrete columns over the points (`*` over components and phase labels
 * met). Throws an Error naming the output for an unknown name, a non-component element or a phase
 * the database does not define for these components.
 */
export function resolveColumns(names: readonly string[], points: readonly TablePoint[], ctx: TableContext): Column[] {
  const els = elementsOf(ctx.components);
  const knownPhases = ctx.phases ? new Set(ctx.phases.map((p) => p.toUpperCase())) : null;
  const cols: Column[] = [];
  const seen = new Set<string>();
  const push = (c: Column) => {
    if (!seen.has(c.name)) {
      seen.add(c.name);
      cols.push(c);
    }
  };
  for (const n of names) {
    const o = parseOutputName(n);
    if (typeof o === 'string') throw new Error(`${o}; known: ${KNOWN_OUTPUT_NAMES}`);
    const elArgs = (): string[] => {
      if (o.element === '*') return els;
      if (!els.includes(o.element!))
        throw new Error(`output '${n}': ${o.element} is not one of the components ${els.join(', ')}`);
      return [o.element!];
    };
    const phArgs = (all: () => string[]): string[] => {
      if (o.phase === '*') return all();
      const { name } = splitLabel(o.phase!);
      if (knownPhases && !knownPhases.has(name)) {
        throw new Error(
          `output '${n}': ${name} is not a phase of the database for these components (${[...knownPhases].join(', ')})`,
        );
      }
      return [o.phase!];
    };
    const unit = outputUnit(o);
    switch (o.fn) {
      case 'T':
        push({ name: 'T', unit, value: (p) => p.T });
        break;
      case 'P':
        push({ name: 'P', unit, value: (p) => p.P });
        break;
      case 'phase_name':
        push({ name: 'phase_name', unit, value: (p) => phaseSetName(p) });
        break;
      case 'converged':
        push({ name: 'converged', unit, value: (p) => (p.converged ? 1 : 0) });
        break;
      case 'G':
        push({ name: 'G', unit, value: (p) => p.GM });
        break;
      case 'H':
        push({ name: 'H', unit, value: (p) => p.HM });
        break;
      case 'S':
        push({ name: 'S', unit, value: (p) => p.SM });
        break;
      // Equilibrium Cp (dH/dT with phase amounts changing) when the calculation derived it, else frozen.
      case 'Cp':
        push({ name: 'Cp', unit, value: (p) => (typeof p.Cp_equilibrium === 'number' ? p.Cp_equilibrium : p.CPM) });
        break;
      case 'Cp_frozen':
        push({ name: 'Cp_frozen', unit, value: (p) => p.CPM });
        break;
      case 'x':
        for (const e of elArgs()) push({ name: `x(${e})`, unit, value: (p) => p.x[e] ?? null });
        break;
      case 'w':
        for (const e of elArgs()) push({ name: `w(${e})`, unit, value: (p) => p.w?.[e] ?? null });
        break;
      case 'wph':
        for (const l of phArgs(() => labelsMet(points))) {
          for (const e of elArgs()) push({ name: `w(${l},${e})`, unit, value: (p) => findSet(p, l)?.w?.[e] ?? null });
        }
        break;
      case 'mur':
      case 'acr': {
        const field = o.fn === 'mur' ? 'MUR' : 'ACR';
        for (const e of elArgs()) push({ name: `${o.fn}(${e})`, unit, value: (p) => p[field]?.[e] ?? null });
        break;
      }
      case 'GMF':
        push({ name: 'GM_formation', unit, value: (p) => p.GM_formation ?? null });
        break;
      case 'VM':
        push({ name: 'VM', unit, value: (p) => p.VM ?? null });
        break;
      case 'T_liquidus':
        push({ name: 'T_liquidus', unit, value: (p) => p.T_liquidus ?? null });
        break;
      case 'T_solidus':
        push({ name: 'T_solidus', unit, value: (p) => p.T_solidus ?? null });
        break;
      case 'invariants_crossed':
        push({ name: 'invariants_crossed', unit, value: (p) => p.invariants_crossed ?? null });
        break;
      case 'GMFph':
      case 'VMph':
      case 'TC':
      case 'BMAGN':
      case 'DOO':
      case 'ordered':
      case 'structure': {
        const get = PHASE_FIELDS[o.fn]!;
        // '*': the labels met whose set carries the quantity somewhere (e.g. TC of the magnetic phases only)
        const withField = () =>
          labelsMet(points).filter((l) =>
            points.some((p) => {
              const q = findSet(p, l);
              return !!q && get(q) !== undefined;
            }),
          );
        for (const l of phArgs(withField)) {
          push({
            name: outputName({ fn: o.fn, phase: l }),
            unit,
            value: (p) => {
              const q = findSet(p, l);
              return q ? (get(q) ?? null) : null;
            },
          });
        }
        break;
      }
      case 'mu':
        for (const e of elArgs()) push({ name: `mu(${e})`, unit, value: (p) => p.MU[e] ?? null });
        break;
      case 'ac':
        // a = exp(mu / RT), mu referred to the SER of the database (so a is relative to SER, not to a pure phase)
        for (const e of elArgs()) {
          push({
            name: `ac(${e})`,
            unit,
            value: (p) => (typeof p.MU[e] === 'number' ? Math.exp(p.MU[e] / (GAS_CONSTANT * p.T)) : null),
          });
        }
        break;
      case 'NP':
        for (const l of phArgs(() => labelsMet(points)))
          push({ name: `NP(${l})`, unit, value: (p) => findSet(p, l)?.amount ?? 0 });
        break;
      case 'GM':
        for (const l of phArgs(() => labelsMet(points)))
          push({ name: `GM(${l})`, unit, value: (p) => findSet(p, l)?.GM ?? null });
        break;
      case 'xph':
        for (const l of phArgs(() => labelsMet(points))) {
          for (const e of elArgs()) push({ name: `x(${l},${e})`, unit, value: (p) => findSet(p, l)?.x[e] ?? null });
        }
        break;
      case 'y':
        for (const l of phArgs(() => labelsMet(points))) {
          if (o.sublattice === '*') {
            // constituents per sublattice, from the points where the label is stable
            const layout: string[][] = [];
            for (const p of points) {
              const sf = findSet(p, l)?.site_fractions;
              if (!sf) continue;
              sf.forEach((sub, s) => {
                const have = (layout[s] ??= []);
                for (const sp of Object.keys(sub)) if (!have.includes(sp)) have.push(sp);
              });
            }
            layout.forEach((sps, s) => {
              for (const sp of sps)
                push({
                  name: `y(${l},${s},${sp})`,
                  unit,
                  value: (p) => findSet(p, l)?.site_fractions[s]?.[sp] ?? null,
                });
            });
          } else {
            const s = o.sublattice as number,
              sp = o.species!;
            push({ name: `y(${l},${s},${sp})`, unit, value: (p) => findSet(p, l)?.site_fractions[s]?.[sp] ?? null });
          }
        }
        break;
      case 'DF':
        for (const l of phArgs(() => phaseNamesMet(points))) {
          const { name, set } = splitLabel(l);
          push({
            name: `DF(${l})`,
            unit,
            value: (p) => {
              if (findSet(p, l)) return 0;
              if (set === 1) {
                const m = p.metastable.find((q) => q.name === name);
                if (m) return m.driving_force;
              }
              return null;
            },
          });
        }
        break;
    }
  }
  return cols;
}

/** The result table of the points for the output names (see resolveColumns). */
export function buildTable(points: readonly TablePoint[], names: readonly string[], ctx: TableContext): ResultTable {
  const cols = resolveColumns(names, points, ctx);
  return {
    columns: cols.map((c) => ({ name: c.name, unit: c.unit })),
    rows: points.map((p) =>
      cols.map((c) => {
        const v = c.value(p);
        return typeof v === 'number' && !Number.isFinite(v) ? null : v;
      }),
    ),
  };
}
