// Output names as thermo_outputs and outputs_list_template write them (contract/results/outputs/vocabulary.ts):
// read into a function with its phase, element, sublattice and species arguments, spelled canonically, with
// their units, and checked.
import { elementsOf } from '../../phases.js';
import type { PhaseRecord } from '../common.js';
import { KNOWN_OUTPUT_NAMES } from './vocabulary.js';

/** The function of an output name: what its column holds. */
export type Fn =
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
  | 'T_solvus'
  | 'T0'
  | 'T_scheil_end'
  | 'invariants_crossed'
  | 'MOB'
  | 'DT'
  | 'DC'
  | 'DI';

/** Phase functions whose value is a field of the stable set (PHASE may be *: the labels met that have it). */
export const PHASE_FIELDS: Partial<Record<Fn, (q: PhaseRecord) => number | string | null | undefined>> = {
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
  /** the second phase of T0(PHASE1,PHASE2) */
  phase2?: string;
  element?: string;
  /** the second element of DC(PHASE,EL1,EL2) and DI(PHASE,EL1,EL2): the one whose gradient drives the flux */
  element2?: string;
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
  T_SCHEIL_END: 'T_scheil_end',
  INVARIANTS_CROSSED: 'invariants_crossed',
};
const ELEMENT_RE = /^(?:\*|[A-Z][A-Z0-9_]*)$/;
const PHASE_RE = /^(?:\*|[A-Z0-9_]+(?:#[1-9][0-9]*)?)$/;
const SPECIES_RE = /^[A-Z0-9_+\-/]+$/;

/**
 * Parses one output name (function names case-insensitive, arguments upper-cased); a string is the
 * reason it is not an output name.
 */
export function parseOutputName(raw: string): OutputSpec | string {
  if (typeof raw !== 'string') return 'not a string';
  const s = raw.trim();
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?$/.exec(s);
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
    case 'MOB':
    case 'DT':
      if (args.length === 2 && ph(args[0]) && el(args[1])) return { fn: fname, phase: args[0], element: args[1] };
      break;
    case 'DC':
    case 'DI':
      if (args.length === 3 && ph(args[0]) && el(args[1]) && el(args[2]))
        return { fn: fname, phase: args[0], element: args[1], element2: args[2] };
      break;
    case 'T_SOLVUS':
      // one named phase: each is a search of its own (no '*'), over all its composition sets (no '#')
      if (args.length === 1 && /^[A-Z0-9_]+$/.test(args[0])) return { fn: 'T_solvus', phase: args[0] };
      break;
    case 'T0':
      // two different named phases, each alone at the alloy's composition
      if (args.length === 2 && args.every((a) => /^[A-Z0-9_]+$/.test(a)) && args[0] !== args[1])
        return { fn: 'T0', phase: args[0], phase2: args[1] };
      break;
    default:
      if (PHASE_FUNCTIONS[fname] && args.length === 1 && ph(args[0]))
        return { fn: PHASE_FUNCTIONS[fname], phase: args[0] };
  }
  return `unknown output '${raw}'`;
}

/** Whether an output name of one of these functions is among the names. */
export function asksFor(names: readonly string[], ...fns: Fn[]): boolean {
  return names.some((n) => {
    const o = parseOutputName(n);
    return typeof o !== 'string' && fns.includes(o.fn);
  });
}

/** The phases whose solvus the output names ask for (T_solvus(PHASE)), in order, each once. */
export function solvusPhases(names: readonly string[]): string[] {
  const out: string[] = [];
  for (const n of names) {
    const o = parseOutputName(n);
    if (typeof o !== 'string' && o.fn === 'T_solvus' && !out.includes(o.phase!)) out.push(o.phase!);
  }
  return out;
}

/** The phase pairs whose T0 the output names ask for (T0(PHASE1,PHASE2)), in order, each once. */
export function tZeroPairs(names: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (const n of names) {
    const o = parseOutputName(n);
    if (typeof o !== 'string' && o.fn === 'T0' && !out.some(([a, b]) => a === o.phase && b === o.phase2))
      out.push([o.phase!, o.phase2!]);
  }
  return out;
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
    case 'T_solvus':
      return `T_solvus(${o.phase})`;
    case 'T0':
      return `T0(${o.phase},${o.phase2})`;
    case 'x':
    case 'w':
      return `${o.fn}(${o.element})`;
    case 'xph':
      return `x(${o.phase},${o.element})`;
    case 'MOB':
    case 'DT':
      return `${o.fn}(${o.phase},${o.element})`;
    case 'DC':
    case 'DI':
      return `${o.fn}(${o.phase},${o.element},${o.element2})`;
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
    case 'T_solvus':
    case 'T0':
    case 'T_scheil_end':
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
    case 'MOB':
      return 'm^2 mol/(J s)';
    case 'DT':
    case 'DC':
    case 'DI':
      return 'm^2/s';
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
    if (typeof r === 'string') continue;
    for (const e of [r.element, r.element2])
      if (e && e !== '*' && !els.includes(e))
        return `output '${n}': ${e} is not one of the components ${els.join(', ')}`;
  }
  return null;
}
