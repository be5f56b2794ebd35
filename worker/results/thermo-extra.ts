// Quantities a researcher asks for beyond the equilibrium itself (docs/calculations.md "Further quantities"),
// added to the points of point, line and properties results:
//  - per stable phase: TC and BMAGN (magnetic phases only: a MAGNETIC type definition or TC/BMAGN parameters),
//    VM (phases with volume parameters V0/VA/VC/VK only), the degree of ordering (pycalphad's definition,
//    worker/system/phase-properties.ts; phases with one constituent on two or more sublattices) and GM_formation;
//  - per point: VM of the system (when every stable phase has one), GM_formation, and MUR/ACR, the chemical
//    potential and activity of each element relative to its reference state at the point's T and P;
//  - per stable phase with kinetic parameters (MQ, MF, DQ, DF): mobilities, tracer, intrinsic and chemical
//    diffusivities (worker/system/diffusion.ts).
// Reference state of an element (condition.reference_states {EL: PHASE}, else the ELEMENT line's reference
// phase when the database defines it and the phase holds the pure element, else SER): GM of the pure element in
// that phase alone (one composition set) at T, P. MUR = MU - G_ref, ACR = exp(MUR / RT) (Thermo-Calc's
// reference-state convention), GM_formation = GM - sum_i x_i G_ref,i. With SER, G_ref = 0.
import { basename } from 'node:path';
import { GAS_CONSTANT, type EquilibriumPoint } from '../../contract/results/common.js';
import { equilibrium, type EquilibriumResult, type PhaseState } from '../core/equilibrium.js';
import { PhaseModel } from '../core/models.js';
import type { NativeDatabase, NativeDatabaseInfo } from '../core/native.js';

import { diffusionPhase, phaseDiffusion, type DiffusionPhase } from '../system/diffusion.js';
import { degreeOfOrdering } from '../system/phase-properties.js';

export const SER = 'SER';
const MAGNETIC_PARAMETERS = new Set(['TC', 'BMAGN', 'NT']);
const VOLUME_PARAMETERS = new Set(['V0', 'VA', 'VC', 'VK']);
const KINETIC_PARAMETERS = new Set(['MQ', 'MF', 'DQ', 'DF']);

interface PhaseTraits {
  magnetic: boolean;
  volume: boolean;
  ordering: boolean;
  model: PhaseModel | null;
  /** the phase's kinetic parameters, when the database has some (mobilities and diffusivities) */
  diffusion: DiffusionPhase | null;
}

/** Adds the further quantities to result points of one system (one instance per calculation). */
export class ThermoExtras {
  private readonly info: NativeDatabaseInfo;
  private readonly traits = new Map<string, PhaseTraits>();
  private readonly gref = new Map<string, number>();
  /** resolved reference state of each element: a phase name or 'SER' */
  readonly references: Record<string, string> = {};
  /** what the result leaves out and why (also in the task's logs) */
  readonly notes: string[] = [];
  private readonly withoutVolume = new Set<string>();

  constructor(
    private readonly db: NativeDatabase,
    private readonly components: string[],
    private readonly elements: string[],
    given: Record<string, unknown> | undefined,
    sampleT = 1000,
    sampleP = 101325,
  ) {
    this.info = db.info();
    const phases = new Set(this.info.phases.map((p) => p.name.toUpperCase()));
    const named = Object.fromEntries(
      Object.entries(given ?? {}).map(([k, v]) => [k.toUpperCase(), String(v).toUpperCase()]),
    );
    for (const k of Object.keys(named)) {
      if (!elements.includes(k))
        throw new Error(`condition.reference_states.${k}: ${k} is not one of the components ${elements.join(', ')}`);
    }
    for (const el of elements) {
      const ph = named[el];
      if (ph !== undefined) {
        if (ph === SER) {
          this.references[el] = SER;
          continue;
        }
        if (!phases.has(ph))
          throw new Error(`condition.reference_states.${el}: ${ph} is not a phase of ${basename(this.info.file)}`);
        // a reference phase that cannot hold the pure element is an input error, said at once
        this.referenceGM(el, ph, sampleT, sampleP, `condition.reference_states.${el}`);
        this.references[el] = ph;
        continue;
      }
      const ser = this.info.elements.find((e) => e.name.toUpperCase() === el)?.referencePhase?.toUpperCase() ?? '';
      let ok = false;
      if (phases.has(ser)) {
        try {
          this.referenceGM(el, ser, sampleT, sampleP, '');
          ok = true;
        } catch {
          ok = false;
        }
      }
      this.references[el] = ok ? ser : SER;
      if (!ok)
        this.notes.push(
          `reference state of ${el}: SER (the ELEMENT line names no phase of the database that holds pure ${el}${ser ? `: ${ser}` : ''})`,
        );
    }
  }

  /** GM of pure `el` in `phase` alone at T, P (J/mol); throws an Error starting with `field` when it has none. */
  private referenceGM(el: string, phase: string, T: number, P: number, field: string): number {
    if (phase === SER) return 0;
    const key = `${el}|${phase}|${T}|${P}`;
    const hit = this.gref.get(key);
    if (hit !== undefined) return hit;
    const comps = this.components.includes('VA') ? [el, 'VA'] : [el];
    let r: EquilibriumResult;
    try {
      r = equilibrium({
        database: this.db,
        components: comps,
        phases: [phase],
        conditions: { T, P },
        options: { singleSet: true },
      });
    } catch (e) {
      throw new Error(`${field ? `${field}: ` : ''}${phase} cannot hold pure ${el} (${(e as Error).message})`);
    }
    if (!r.converged || r.phases.length === 0)
      throw new Error(
        `${field ? `${field}: ` : ''}pure ${el} in ${phase} at ${T} K has no converged state (${r.reason || 'phase not formed'})`,
      );
    this.gref.set(key, r.GM);
    return r.GM;
  }

  private traitsOf(name: string): PhaseTraits {
    let t = this.traits.get(name);
    if (t) return t;
    const ph = this.info.phases.find((p) => p.name === name);
    const own = [name, ph?.disorderedPart ?? ''].filter(Boolean);
    const types = new Set(own.flatMap((n) => this.db.parameters(n).map((q) => q.type.toUpperCase())));
    const disordered = ph?.disorderedPart ? this.info.phases.find((p) => p.name === ph.disorderedPart) : undefined;
    const model = PhaseModel.build(this.db, name, this.components);
    // degree of ordering: some constituent with atoms on two or more sublattices
    const subl = new Map<string, Set<number>>();
    for (const v of model?.variables ?? [])
      if (v.species !== 'VA') subl.set(v.species, (subl.get(v.species) ?? new Set()).add(v.sublattice));
    t = {
      magnetic: !!ph?.magnetic || !!disordered?.magnetic || [...MAGNETIC_PARAMETERS].some((k) => types.has(k)),
      volume: [...VOLUME_PARAMETERS].some((k) => types.has(k)),
      ordering: !!model && !model.info.ionicLiquid && [...subl.values()].some((s) => s.size > 1),
      model,
      diffusion:
        model && [...KINETIC_PARAMETERS].some((k) => types.has(k))
          ? diffusionPhase(this.db, model, this.components)
          : null,
    };
    this.traits.set(name, t);
    if (!t.volume && !this.withoutVolume.has(name)) {
      this.withoutVolume.add(name);
      this.notes.push(`VM of ${name}: absent, the database has no volume parameters (V0, VA, VC, VK) for it`);
    }
    return t;
  }

  /** Adds w-independent further quantities to `point` (converted from `r` by PointConverter, same order of phases). */
  enrich(point: EquilibriumPoint, r: EquilibriumResult): void {
    if (!r.converged) return;
    const T = r.T,
      P = r.P;
    const gref = Object.fromEntries(
      this.elements.map((el) => [el, this.referenceGM(el, this.references[el]!, T, P, '')]),
    );
    const formation = (x: Record<string, number>, gm: number) =>
      gm - this.elements.reduce((a, el) => a + (x[el] ?? 0) * gref[el]!, 0);
    let vmSystem = 0,
      vmComplete = r.phases.length > 0;
    r.phases.forEach((set, i) => {
      const rec = point.phases[i];
      if (!rec) return;
      const t = this.traitsOf(set.name);
      rec.GM_formation = formation(set.x, set.GM);
      if (!t.model) {
        vmComplete = false;
        return;
      }
      const props = t.model.properties(T, P, set.y);
      if (t.magnetic) {
        rec.TC = props.TC;
        rec.BMAGN = props.BMAGN_per_atom;
      }
      if (t.volume) {
        rec.VM = props.VM;
        vmSystem += set.NP * props.VM;
      } else vmComplete = false;
      if (t.ordering) rec.degree_of_ordering = degreeOfOrdering(this.info, t.model, set.y);
      if (t.diffusion) rec.diffusion = phaseDiffusion(t.diffusion, T, P, set.y, set.x);
    });
    if (vmComplete) point.VM = vmSystem;
    point.GM_formation = formation(r.x, r.GM);
    point.MUR = Object.fromEntries(
      this.elements.filter((el) => typeof r.mu[el] === 'number').map((el) => [el, r.mu[el]! - gref[el]!]),
    );
    point.ACR = Object.fromEntries(Object.entries(point.MUR).map(([el, v]) => [el, Math.exp(v / (GAS_CONSTANT * T))]));
  }

  /** GM of each element in its reference state at T, P (J/mol; 0 for SER). */
  referenceEnergies(T: number, P: number): Record<string, number> {
    return Object.fromEntries(this.elements.map((el) => [el, this.referenceGM(el, this.references[el]!, T, P, '')]));
  }

  /** Degree of ordering of any phase state (for metastable phases, Gibbs energy curves). */
  degreeOfOrdering(state: PhaseState): number | undefined {
    const t = this.traitsOf(state.name);
    return t.ordering && t.model ? degreeOfOrdering(this.info, t.model, state.y) : undefined;
  }
}

/** Result-document fields of the reference states and of what is absent (point, line, properties). */
export interface ReferenceFields {
  /** the reference state used for each element: a phase name or 'SER' */
  reference_states: Record<string, string>;
  /** quantities left out and why (e.g. VM of a phase without volume data) */
  quantity_notes: string[];
}

/** Adds the further quantities to the points of one calculation; returns the document fields. */
export function addFurtherQuantities(
  sys: { db: NativeDatabase; components: string[]; elements: string[] },
  cond: { reference_states?: Record<string, string> },
  pairs: { point: EquilibriumPoint; r: EquilibriumResult }[],
): ReferenceFields {
  const first = pairs.find((q) => q.r.converged)?.r;
  const extras = new ThermoExtras(
    sys.db,
    sys.components,
    sys.elements,
    cond.reference_states,
    first?.T ?? 1000,
    first?.P ?? 101325,
  );
  for (const { point, r } of pairs) extras.enrich(point, r);
  return { reference_states: { ...extras.references }, quantity_notes: [...extras.notes] };
}

/**
 * condition.chemical_potentials and activities (an open system) as the solver's MU conditions at T, P, J/mol: an
 * activity a against the element's reference state is MU = GM_ref + RT ln a (as acr is defined); `extras` is asked
 * for the reference energies only when there are activities.
 */
export function heldPotentials(
  cond: { chemical_potentials?: Record<string, number>; activities?: Record<string, number> },
  extras: () => ThermoExtras,
  T: number,
  P: number,
): Record<string, number> {
  const MU: Record<string, number> = {};
  for (const [k, v] of Object.entries(cond.chemical_potentials ?? {})) MU[k.toUpperCase()] = v;
  const activities = Object.entries(cond.activities ?? {});
  if (activities.length === 0) return MU;
  const refs = extras().referenceEnergies(T, P);
  for (const [k, a] of activities) MU[k.toUpperCase()] = refs[k.toUpperCase()]! + GAS_CONSTANT * T * Math.log(a);
  return MU;
}

/** ["MU(C)=-20000 J/mol", "a(C)=0.3"]: the potential conditions as given. */
export function potentialText(cond: {
  chemical_potentials?: Record<string, number>;
  activities?: Record<string, number>;
}): string[] {
  return [
    ...Object.entries(cond.chemical_potentials ?? {}).map(([e, v]) => `MU(${e.toUpperCase()})=${v} J/mol`),
    ...Object.entries(cond.activities ?? {}).map(([e, v]) => `a(${e.toUpperCase()})=${v}`),
  ];
}
