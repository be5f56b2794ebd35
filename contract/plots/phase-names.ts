// Display names of phases in figures, legends and tables: what a paper prints (γ, α, Fe₃C, γ′, L) for what the
// database spells (FCC_A1, BCC_A2, CEMENTITE_D011, the L12 state of FCC_L12, LIQUID). result.json and result.csv keep
// the database's names, which scripts match; a display name is added beside them, never in their place.
//
// A name map is keyed by the database's phase name (FCC_A1) and, for a phase with an order-disorder description,
// by PHASE:STRUCTURE for each of its states (FCC_L12:L12, FCC_L12:A1, BCC_B2:B2, BCC_B2:A2). The defaults
// (defaultDisplayName) depend on the database's family: a steel database names the iron phases as metallurgists do
// (γ austenite, α ferrite, ε, Fe₃C, γ′), an aluminium one the aluminium solid solution α-Al, and the other
// databases the lattice (fcc, bcc, hcp); a user's names for one database (stored with it) take precedence.
//
// Composition-set numbers: NAME#2 is the second set of a miscibility gap. A field label keeps a set's number only
// where two sets with one display name coexist in the field (α + α#2 of the Fe-Cr gap); a field holding one set of
// a phase is labelled without it (the bcc field of Fe-Cr reads α, not BCC_A2#2).

/** Display names of one database: phase name or PHASE:STRUCTURE -> display name. */
export type PhaseDisplayNames = Record<string, string>;

/** Longest display name the API stores, characters; a phase key is at most 64 (TDB names are shorter). */
export const DISPLAY_NAME_MAX = 40;
export const PHASE_KEY_MAX = 64;
/** Most names stored for one database (mf-steel.tdb defines about 330 phases). */
export const DISPLAY_NAMES_MAX = 2000;

export type DatabaseFamily = 'steel' | 'aluminium' | 'general';

/** The family of a bundled database by its catalog code: MF Steel and MatCalc mc_fe are steel, mc_al and COST 507 light alloys. */
export function databaseFamily(code: string | null | undefined): DatabaseFamily {
  const c = (code ?? '').toUpperCase();
  if (/^MF_STEEL|^MC_FE|STEEL|^TCFE/.test(c)) return 'steel';
  if (/^MC_AL|^COST507|^TCAL/.test(c)) return 'aluminium';
  return 'general';
}

const SUBSCRIPT = '₀₁₂₃₄₅₆₇₈₉';
function subscript(digits: string): string {
  return [...digits].map((d) => SUBSCRIPT[Number(d)]).join('');
}

const ELEMENTS = new Set(
  (
    'H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr ' +
    'Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir ' +
    'Pt Au Hg Tl Pb Bi Th U M'
  ).split(' '),
);

/**
 * A stoichiometric formula with subscripts (AL13FE4 -> Al₁₃Fe₄, M23C6 -> M₂₃C₆), or null when the name does not
 * read as one without doubt: it must hold a digit and split into element symbols (M for a metal), two-letter symbols
 * tried first (ALN -> AlN).
 */
export function formulaName(name: string): string | null {
  if (!/\d/.test(name) || !/^[A-Z0-9]+$/.test(name)) return null;
  const parts: string[] = [];
  let i = 0;
  while (i < name.length) {
    const two = name[i]! + (name[i + 1] ?? '').toLowerCase();
    const one = name[i]!;
    const sym = ELEMENTS.has(two) && /[A-Z]/.test(name[i + 1] ?? '') ? two : ELEMENTS.has(one) ? one : null;
    if (!sym) return null;
    i += sym.length;
    const digits = /^\d*/.exec(name.slice(i))![0];
    i += digits.length;
    parts.push(sym + subscript(digits));
  }
  return parts.join('');
}

const GREEK: Record<string, string> = {
  ALPHA: 'α',
  BETA: 'β',
  GAMMA: 'γ',
  DELTA: 'δ',
  EPS: 'ε',
  EPSILON: 'ε',
  ZETA: 'ζ',
  ETA: 'η',
  THETA: 'θ',
  KAPPA: 'κ',
  MU: 'μ',
  PI: 'π',
  SIGMA: 'σ',
  TAU: 'τ',
  PHI: 'φ',
  CHI: 'χ',
  KSI: 'ξ',
  OMEGA: 'ω',
};

/** Structure names as printed: Strukturbericht symbols with their subscripts (L12 -> L1₂, D03 -> D0₃). */
const STRUCTURE: Record<string, string> = {
  L12: 'L1₂',
  L10: 'L1₀',
  D03: 'D0₃',
  L21: 'L2₁',
  D019: 'D0₁₉',
  B2: 'B2',
  B32: 'B32',
};

type Lattice = 'fcc' | 'bcc' | 'hcp';
/** The lattice of a solution phase by its name (FCC_A1, BCC_B2, HCP_A3, L12_FCC), or null. */
function latticeOf(name: string): Lattice | null {
  if (/FCC|(^|_)(A1|L12|L10)($|_)/.test(name)) return 'fcc';
  if (/BCC|(^|_)(A2|B2|D03|L21)($|_)/.test(name)) return 'bcc';
  if (/HCP|(^|_)(A3|D019)($|_)/.test(name)) return 'hcp';
  return null;
}
const DISORDERED_STRUCTURE: Record<Lattice, string> = { fcc: 'A1', bcc: 'A2', hcp: 'A3' };

/** The disordered solution of a lattice as the family names it: γ / α / ε in steels, α-Al in aluminium alloys. */
function solutionName(lattice: Lattice, family: DatabaseFamily): string {
  if (family === 'steel') return { fcc: 'γ', bcc: 'α', hcp: 'ε' }[lattice];
  if (family === 'aluminium' && lattice === 'fcc') return 'α-Al';
  return `${lattice} (${DISORDERED_STRUCTURE[lattice]})`;
}

/** Named phases of steel databases whose names say nothing to a reader's eye, or say it in capitals. */
const STEEL_NAMES: Record<string, string> = {
  CEMENTITE: 'Fe₃C',
  CEMENTITE_D011: 'Fe₃C',
  GRAPHITE: 'graphite',
  GRAPHITE_A9: 'graphite',
  LAVES_PHASE: 'Laves',
  MU_PHASE: 'μ',
  CHI_A12: 'χ',
  SIGMA: 'σ',
  SIGMA_D8B: 'σ',
  G_PHASE: 'G',
  KSI_CARBIDE: 'κ',
  M6C_E93: 'M₆C',
  M7C3_D101: 'M₇C₃',
  M23C6_D84: 'M₂₃C₆',
  MC_ETA: 'MC (η)',
  MC_SHP: 'MC (hex)',
};

/** Named phases of aluminium databases (COST 507, MatCalc mc_al) by the letters the precipitation literature uses. */
const ALUMINIUM_NAMES: Record<string, string> = {
  ALCU_THETA: 'θ (Al₂Cu)',
  THETA_AL2CU: 'θ (Al₂Cu)',
  SPHASE: 'S (Al₂CuMg)',
  S_PHASE: 'S (Al₂CuMg)',
  ALMG_BETA: 'β (Al₃Mg₂)',
  BETA_AL3MG2: 'β (Al₃Mg₂)',
  ALMG_GAMMA: 'γ (Al₁₂Mg₁₇)',
  G_AL12MG17: 'γ (Al₁₂Mg₁₇)',
  MG2SI_B: 'β (Mg₂Si)',
  MGZN2: 'η (MgZn₂)',
};

/** A readable default for any other name: a formula, a Greek letter, or the name with its structure suffix apart. */
function readableName(name: string): string {
  const formula = formulaName(name);
  if (formula) return formula;
  const [head, ...rest] = name.split('_');
  const headFormula = formulaName(head!);
  const tail = rest.join('_');
  if (headFormula && tail) return `${headFormula} (${GREEK[tail] ?? tail})`;
  if (GREEK[name]) return GREEK[name];
  const tailFormula = formulaName(tail);
  if (GREEK[head!] && tailFormula) return `${GREEK[head!]} (${tailFormula})`;
  if (GREEK[head!] && /^(PHASE|[A-Z]\d+[A-Z]?)$/.test(tail)) return GREEK[head!];
  return name;
}

/**
 * The default display name of a phase, or of one state of it (`structure`: the Strukturbericht symbol of an
 * ordering state, as worker/system/ordering.ts classifies it), for a database of `family`.
 */
export function defaultDisplayName(phase: string, family: DatabaseFamily, structure?: string): string {
  const name = phase.toUpperCase();
  if (/^(LIQUID|LIQ|IONIC_LIQ)/.test(name)) return 'L';
  if (name === 'GAS' || name === 'O1_GAS') return 'gas';
  const lattice = latticeOf(name);
  if (structure === 'ordered') return `${readableName(name)} (ordered)`;
  if (structure && lattice) {
    if (structure === DISORDERED_STRUCTURE[lattice] || structure === 'disordered') return solutionName(lattice, family);
    if (family === 'steel' && lattice === 'fcc' && structure === 'L12') return 'γ′';
    return STRUCTURE[structure] ?? structure;
  }
  if (family === 'steel' && STEEL_NAMES[name]) return STEEL_NAMES[name];
  if (family === 'aluminium' && ALUMINIUM_NAMES[name]) return ALUMINIUM_NAMES[name];
  if (/^(FCC|BCC|HCP)_(A1|A2|A3)$/.test(name) && lattice) return solutionName(lattice, family);
  return readableName(name);
}

/** The key of a phase name or of one of its states in a name map. */
export function displayKey(phase: string, structure?: string): string {
  return structure ? `${phase}:${structure}` : phase;
}

/** One part of a field label: its phase, the state's structure if any, the set number if any. */
interface LabelPart {
  phase: string;
  structure?: string;
  set: number;
}

/** Reads "FCC_A1", "FCC_A1#2", "L12 (FCC_L12)", "B2 (B2)#2" or "BCC_4SL (ordered)" (worker/system/ordering.ts). */
export function parseLabelPart(text: string): LabelPart {
  const t = text.trim();
  const setMatch = /#(\d+)$/.exec(t);
  const set = setMatch ? Number(setMatch[1]) : 1;
  const body = setMatch ? t.slice(0, setMatch.index) : t;
  const state = /^(\S+) \(([A-Za-z0-9_]+)\)$/.exec(body);
  if (state) {
    const [, a, b] = state;
    return a === a!.toUpperCase() && (b === 'ordered' || b === 'disordered')
      ? { phase: a!, structure: b, set }
      : { phase: b!, structure: a, set };
  }
  return { phase: body, set };
}

/** The display name of one phase or state: the database's stored name, else the default. */
export function resolveDisplayName(
  names: PhaseDisplayNames,
  family: DatabaseFamily,
  phase: string,
  structure?: string,
): string {
  return names[displayKey(phase, structure)] ?? defaultDisplayName(phase, family, structure);
}

/** Display names of a database: its stored names over the defaults of its family. */
export interface DisplayNamer {
  family: DatabaseFamily;
  names: PhaseDisplayNames;
}

export function namerFor(code: string | null | undefined, names: PhaseDisplayNames = {}): DisplayNamer {
  return { family: databaseFamily(code), names };
}

/**
 * A field label (set or state labels joined by " + ") in display names. A set number stays only where two parts of
 * the field get the same display name (then the first is plain and the next #2, #3, ... in the label's order).
 */
export function displayFieldLabel(label: string, namer: DisplayNamer): string {
  const parts = label.split(' + ').map((p) => {
    const part = parseLabelPart(p);
    return resolveDisplayName(namer.names, namer.family, part.phase, part.structure);
  });
  const total = new Map<string, number>();
  for (const p of parts) total.set(p, (total.get(p) ?? 0) + 1);
  const seen = new Map<string, number>();
  return parts
    .map((p) => {
      if (total.get(p)! < 2) return p;
      const k = (seen.get(p) ?? 0) + 1;
      seen.set(p, k);
      return k === 1 ? p : `${p}#${k}`;
    })
    .join(' + ');
}

/** A reaction text ("LIQUID -> FCC_A1 + HCP_A3") with each phase token in its display name (set numbers kept). */
export function displayReaction(reaction: string, namer: DisplayNamer): string {
  return reaction.replace(/[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*(?:#\d+)?/g, (tok) => {
    const part = parseLabelPart(tok);
    if (!/[A-Z]{2}/.test(part.phase)) return tok;
    const name = resolveDisplayName(namer.names, namer.family, part.phase, part.structure);
    return part.set > 1 ? `${name}#${part.set}` : name;
  });
}

/** States a name map may name separately, by lattice: the disordered solution first, then the ordered structures. */
const STATES: Record<Lattice, string[]> = {
  fcc: ['A1', 'L12', 'L10'],
  bcc: ['A2', 'B2', 'D03', 'L21', 'B32'],
  hcp: ['A3', 'D019'],
};

/** A row of a database's name table: the key a name is stored under, its phase and state, the default name. */
export interface DisplayKey {
  key: string;
  phase: string;
  structure: string | null;
}

/**
 * The keys a database's names may use: each phase, and for each ordered phase of a lattice (FCC_L12, BCC_B2,
 * L12_FCC; not the plain solutions FCC_A1, BCC_A2, HCP_A3) each state of that lattice.
 */
export function displayKeysOf(phases: readonly string[]): DisplayKey[] {
  const out: DisplayKey[] = [];
  for (const phase of phases) {
    out.push({ key: phase, phase, structure: null });
    const lattice = latticeOf(phase.toUpperCase());
    if (!lattice || /^(FCC|BCC|HCP)_(A1|A2|A3)$/i.test(phase)) continue;
    for (const s of STATES[lattice]) out.push({ key: displayKey(phase, s), phase, structure: s });
  }
  return out;
}
