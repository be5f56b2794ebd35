// The quantities of the property kind: one phase at the case's site fractions (or its only configuration), not
// an equilibrium.
import type { PointConditions } from './conditions.js';
import type { Atom } from './expression.js';
import { uniqueFeasiblePoint } from './feasible.js';
import { formationReference } from './references.js';
import {
  atomPhase,
  degreeOfOrdering,
  elementMasses,
  massFractions,
  phaseModel,
  stateTP,
  Unsupported,
  type Scope,
} from './scope.js';
import { netCharge, phaseX, siteFractionSpec } from '../system/phase-properties.js';

/** A quantity of one phase at the case's site fractions. */
export function propertyAtom(a: Atom, point: PointConditions, s: Scope): unknown {
  const { T, P } = stateTP(point);
  const sf = s.c.site_fractions ?? {};
  const phase =
    (a.name === 'X' || a.name === 'W') && a.args.length === 1
      ? (s.entry?.phase?.toUpperCase() ?? (Object.keys(sf).length === 1 ? Object.keys(sf)[0].toUpperCase() : null))
      : (atomPhase(a, s) ?? (Object.keys(sf).length === 1 ? Object.keys(sf)[0].toUpperCase() : null));
  if (!phase) throw new Unsupported(`no phase named for ${a.text}`);
  const model = phaseModel(s.db, phase, s.c.components);
  const specKey = Object.keys(sf).find((k) => k.toUpperCase() === phase);
  if (a.name === 'Y' && a.args.length <= 1) {
    if (specKey) return sf[specKey];
    const y = uniqueFeasiblePoint(model.variables.length, model.constraints);
    if (!y)
      throw new Unsupported(
        `Y(${phase}): no site fractions given and the constraint set of ${phase} is not a single point`,
      );
    return siteFractionSpec(model, y);
  }
  // without site fractions: the phase's only configuration, when its constraints allow one (e.g. a charged phase)
  let y: Float64Array;
  if (specKey) y = model.siteFractions(sf[specKey]);
  else {
    const only = uniqueFeasiblePoint(model.variables.length, model.constraints);
    if (!only) throw new Unsupported(`no site fractions given for ${phase}`);
    y = Float64Array.from(only);
  }
  const props = () => model.properties(T, P, y);
  switch (a.name) {
    case 'GM':
    case 'SM':
    case 'HM':
    case 'CPM':
    case 'TC':
    case 'VM':
    case 'GM_NO_IDMIX':
      return (props() as unknown as Record<string, number>)[a.name];
    case 'BMAGN':
      return props().BMAGN_per_atom;
    case 'GM_FORMATION':
      return props().GM - formationReference(s, phaseX(model, y), T, P);
    case 'DEGREE_OF_ORDERING':
    case 'DOO':
      return degreeOfOrdering(s.db, model, y);
    case 'NET_CHARGE':
      return netCharge(model, y);
    case 'X':
    case 'W': {
      const el = a.args[a.args.length - 1];
      let x = phaseX(model, y);
      if (a.name === 'W') x = massFractions(x, elementMasses(s.db));
      if (!(el in x)) throw new Unsupported(`${el} is not an element of ${phase}`);
      return x[el];
    }
    case 'Y': {
      const [, sub, sp] = a.args;
      const k = model.variables.findIndex((v) => v.sublattice === Number(sub) && v.species === sp);
      return k < 0 ? 0 : y[k];
    }
    default:
      throw new Unsupported(`property ${a.text}`);
  }
}
