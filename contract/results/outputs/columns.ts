// The result table of equilibrium points for a task's output names: each name expanded into concrete columns
// (`*` over the components and over the phase labels met), each column a name, a unit and a value of a point.
import { elementsOf } from '../../phases.js';
import { GAS_CONSTANT, phaseLabel, type EquilibriumPoint, type ResultTable } from '../common.js';
import { KNOWN_OUTPUT_NAMES } from './vocabulary.js';
import { outputName, outputUnit, parseOutputName, PHASE_FIELDS, type Fn, type OutputSpec } from './names.js';

/**
 * A point of a table: an EquilibriumPoint, with the equilibrium Cp when the calculation computed it and the
 * alloy's liquidus and solidus (point_calculation).
 */
export type TablePoint = EquilibriumPoint & {
  Cp_equilibrium?: number | null;
  T_liquidus?: number | null;
  T_solidus?: number | null;
  /** the end of the alloy's Scheil path from its liquidus, K */
  T_scheil_end?: number | null;
  /** the solvus of each phase named by a T_solvus(PHASE) output, K (null: none in range) */
  T_solvus?: Record<string, number | null>;
  /** T0 of each pair named by a T0(PHASE1,PHASE2) output, keyed "PHASE1,PHASE2", K (null: none in range) */
  T0?: Record<string, number | null>;
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

type Value = Column['value'];

function splitLabel(label: string): { name: string; set: number } {
  const i = label.indexOf('#');
  return i < 0 ? { name: label, set: 1 } : { name: label.slice(0, i), set: Number(label.slice(i + 1)) };
}

/** Stable phase labels of one point, sorted. */
export function stableLabels(p: EquilibriumPoint): string[] {
  return p.phases.map(phaseLabel).sort();
}

/** "FCC_A1+LIQUID" */
export function phaseSetName(p: EquilibriumPoint): string {
  return stableLabels(p).join('+');
}

function labelsMet(points: readonly TablePoint[]): string[] {
  const s = new Set<string>();
  for (const p of points) for (const q of p.phases) s.add(phaseLabel(q));
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

/** Columns of one value per point (the column is named as the output is spelled). */
const SCALAR_VALUES: Partial<Record<Fn, Value>> = {
  T: (p) => p.T,
  P: (p) => p.P,
  phase_name: (p) => phaseSetName(p),
  converged: (p) => (p.converged ? 1 : 0),
  G: (p) => p.GM,
  H: (p) => p.HM,
  S: (p) => p.SM,
  // Equilibrium Cp (dH/dT with phase amounts changing) when the calculation derived it, else frozen.
  Cp: (p) => (typeof p.Cp_equilibrium === 'number' ? p.Cp_equilibrium : p.CPM),
  Cp_frozen: (p) => p.CPM,
  GMF: (p) => p.GM_formation ?? null,
  VM: (p) => p.VM ?? null,
  T_liquidus: (p) => p.T_liquidus ?? null,
  T_solidus: (p) => p.T_solidus ?? null,
  T_scheil_end: (p) => p.T_scheil_end ?? null,
  invariants_crossed: (p) => p.invariants_crossed ?? null,
};

/** Columns of one value per element (the column is named fn(EL)). */
const ELEMENT_VALUES: Partial<Record<Fn, (e: string) => Value>> = {
  x: (e) => (p) => p.x[e] ?? null,
  w: (e) => (p) => p.w?.[e] ?? null,
  mur: (e) => (p) => p.MUR?.[e] ?? null,
  acr: (e) => (p) => p.ACR?.[e] ?? null,
  mu: (e) => (p) => p.MU[e] ?? null,
  // a = exp(mu / RT), mu referred to the SER of the database (so a is relative to SER, not to a pure phase)
  ac: (e) => (p) => (typeof p.MU[e] === 'number' ? Math.exp(p.MU[e] / (GAS_CONSTANT * p.T)) : null),
};

/** One output name being expanded: the parsed name, its unit, the points and the checks of its arguments. */
class Expansion {
  readonly unit: string;
  constructor(
    readonly o: OutputSpec,
    private readonly n: string,
    readonly points: readonly TablePoint[],
    private readonly els: string[],
    private readonly knownPhases: Set<string> | null,
  ) {
    this.unit = outputUnit(o);
  }

  /** The element arguments: every component for '*', else the named one (which must be a component). */
  elements(): string[] {
    const { o, els } = this;
    if (o.element === '*') return els;
    if (!els.includes(o.element!))
      throw new Error(`output '${this.n}': ${o.element} is not one of the components ${els.join(', ')}`);
    return [o.element!];
  }

  /** The second element argument (DC, DI): every component for '*', else the named one. */
  elements2(): string[] {
    const { o, els } = this;
    if (o.element2 === '*') return els;
    if (!els.includes(o.element2!))
      throw new Error(`output '${this.n}': ${o.element2} is not one of the components ${els.join(', ')}`);
    return [o.element2!];
  }

  /** The phase arguments: `all()` for '*', else the named label (whose phase the database must define). */
  phases(all: () => string[] = () => labelsMet(this.points)): string[] {
    const o = this.o;
    if (o.phase === '*') return all();
    return [this.known(o.phase!)];
  }

  /** A named phase argument, which the database must define for these components. */
  known(label: string): string {
    const { name } = splitLabel(label);
    if (this.knownPhases && !this.knownPhases.has(name)) {
      throw new Error(
        `output '${this.n}': ${name} is not a phase of the database for these components (${[...this.knownPhases].join(', ')})`,
      );
    }
    return label;
  }

  column(name: string, value: Value): Column {
    return { name, unit: this.unit, value };
  }
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
  for (const n of names) {
    const o = parseOutputName(n);
    if (typeof o === 'string') throw new Error(`${o}; known: ${KNOWN_OUTPUT_NAMES}`);
    for (const c of columnsOf(new Expansion(o, n, points, els, knownPhases))) {
      if (!seen.has(c.name)) {
        seen.add(c.name);
        cols.push(c);
      }
    }
  }
  return cols;
}

/** The columns of one output name, in order. */
function columnsOf(x: Expansion): Column[] {
  const fn = x.o.fn;
  const scalar = SCALAR_VALUES[fn];
  if (scalar) return [x.column(outputName(x.o), scalar)];
  const perElement = ELEMENT_VALUES[fn];
  if (perElement) return x.elements().map((e) => x.column(`${fn}(${e})`, perElement(e)));
  if (PHASE_FIELDS[fn]) return phaseFieldColumns(x);
  switch (fn) {
    case 'NP':
      return x.phases().map((l) => x.column(`NP(${l})`, (p) => findSet(p, l)?.amount ?? 0));
    case 'GM':
      return x.phases().map((l) => x.column(`GM(${l})`, (p) => findSet(p, l)?.GM ?? null));
    case 'xph':
      return x
        .phases()
        .flatMap((l) => x.elements().map((e) => x.column(`x(${l},${e})`, (p) => findSet(p, l)?.x[e] ?? null)));
    case 'wph':
      return x
        .phases()
        .flatMap((l) => x.elements().map((e) => x.column(`w(${l},${e})`, (p) => findSet(p, l)?.w?.[e] ?? null)));
    case 'y':
      return x.phases().flatMap((l) => siteFractionColumns(x, l));
    case 'DF':
      return x.phases(() => phaseNamesMet(x.points)).map((l) => drivingForceColumn(x, l));
    case 'T_solvus':
      return x.phases().map((l) => x.column(`T_solvus(${l})`, (p) => p.T_solvus?.[l] ?? null));
    case 'MOB':
    case 'DT':
      return diffusionColumns(x, (l, e) =>
        x.column(outputName({ fn, phase: l, element: e }), (p) => {
          const d = findSet(p, l)?.diffusion;
          return (fn === 'MOB' ? d?.mobility[e] : d?.tracer[e]) ?? null;
        }),
      );
    case 'DC':
    case 'DI': {
      const cols = diffusionColumns(x, (l, e) =>
        x.elements2().map((e2) =>
          x.column(outputName({ fn, phase: l, element: e, element2: e2 }), (p) => {
            const d = findSet(p, l)?.diffusion;
            return (fn === 'DC' ? d?.chemical : d?.intrinsic)?.[e]?.[e2] ?? null;
          }),
        ),
      );
      // '*' leaves out the pairs with the dependent element, empty at every point
      const expanded = x.o.element === '*' || x.o.element2 === '*';
      return expanded ? cols.filter((c) => x.points.some((p) => c.value(p) !== null)) : cols;
    }
    case 'T0': {
      const pair = `${x.known(x.o.phase!)},${x.known(x.o.phase2!)}`;
      return [x.column(`T0(${pair})`, (p) => p.T0?.[pair] ?? null)];
    }
    default:
      return [];
  }
}

/** A field of the stable set (GM_formation, VM, TC, BMAGN, DOO, ordered, structure) of each phase label. */
function phaseFieldColumns(x: Expansion): Column[] {
  const fn = x.o.fn;
  const get = PHASE_FIELDS[fn]!;
  // '*': the labels met whose set carries the quantity somewhere (e.g. TC of the magnetic phases only)
  const withField = () =>
    labelsMet(x.points).filter((l) =>
      x.points.some((p) => {
        const q = findSet(p, l);
        return !!q && get(q) !== undefined;
      }),
    );
  return x.phases(withField).map((l) =>
    x.column(outputName({ fn, phase: l }), (p) => {
      const q = findSet(p, l);
      return q ? (get(q) ?? null) : null;
    }),
  );
}

/** The columns of a diffusion output per phase label ('*': the labels with diffusion data) and element. */
function diffusionColumns(x: Expansion, make: (label: string, element: string) => Column | Column[]): Column[] {
  const withData = () => labelsMet(x.points).filter((l) => x.points.some((p) => !!findSet(p, l)?.diffusion));
  return x.phases(withData).flatMap((l) => x.elements().flatMap((e) => make(l, e)));
}

/** y(PHASE,s,SPECIES) of a label, or for y(PHASE,*) every constituent of every sublattice the points show. */
function siteFractionColumns(x: Expansion, l: string): Column[] {
  const y = (s: number, sp: string) =>
    x.column(`y(${l},${s},${sp})`, (p) => findSet(p, l)?.site_fractions[s]?.[sp] ?? null);
  if (x.o.sublattice !== '*') return [y(x.o.sublattice as number, x.o.species!)];
  // constituents per sublattice, from the points where the label is stable
  const layout: string[][] = [];
  for (const p of x.points) {
    const sf = findSet(p, l)?.site_fractions;
    if (!sf) continue;
    sf.forEach((sub, s) => {
      const have = (layout[s] ??= []);
      for (const sp of Object.keys(sub)) if (!have.includes(sp)) have.push(sp);
    });
  }
  return layout.flatMap((sps, s) => sps.map((sp) => y(s, sp)));
}

/** DF(PHASE): 0 where the label is stable, the driving force where its first set is metastable, else empty. */
function drivingForceColumn(x: Expansion, l: string): Column {
  const { name, set } = splitLabel(l);
  return x.column(`DF(${l})`, (p) => {
    if (findSet(p, l)) return 0;
    if (set === 1) {
      const m = p.metastable.find((q) => q.name === name);
      if (m) return m.driving_force;
    }
    return null;
  });
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
