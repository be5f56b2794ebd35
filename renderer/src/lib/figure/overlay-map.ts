// Overlay points placed on a composition axis: a point's column must name the axis element (or, in a binary, the
// other component, whose fraction is 1 − the axis one) in the axis's basis (mole or mass); otherwise the points are
// not drawn and the reason says what to change. Temperatures stay in kelvin here: the view shifts them to °C.
import type { OverlayPoints } from './overlay-csv.js';

export interface CompositionAxis {
  /** the element of the axis (any case) */
  element: string;
  basis: 'x' | 'w';
  /** a binary's other component: its fraction is 1 − the axis element's */
  other?: string;
}

export interface PlacedPoint {
  /** fraction of the axis element */
  x: number;
  /** kelvin */
  T: number;
  label: string | null;
}

const BASIS_NAME = { x: 'mole', w: 'mass' } as const;

/** The points on the axis, or the reason they cannot be placed on it. */
export function pointsOnAxis(p: OverlayPoints, axis: CompositionAxis): { points: PlacedPoint[] } | { problem: string } {
  const c = p.composition;
  if (!c)
    return {
      problem: `column "${p.valueColumn}" is not a composition: name it x(${axis.element}) or w(${axis.element})`,
    };
  const el = axis.element.toUpperCase();
  const complement = axis.other !== undefined && c.element === axis.other.toUpperCase();
  if (c.element !== el && !complement)
    return { problem: `column "${p.valueColumn}" is a fraction of ${c.element}; the axis is ${el}` };
  if (c.basis !== axis.basis)
    return {
      problem: `column "${p.valueColumn}" holds ${BASIS_NAME[c.basis]} fractions; the axis is in ${BASIS_NAME[axis.basis]} fractions`,
    };
  return { points: p.points.map((q) => ({ x: complement ? 1 - q.value : q.value, T: q.T, label: q.label })) };
}

/** Marker shapes (SVG path data about the origin, about 8 px across), one per distinct label, in order. */
export const MARKER_SHAPES = [
  'M-4,0a4,4 0 1,0 8,0a4,4 0 1,0 -8,0z',
  'M-3.6,-3.6h7.2v7.2h-7.2z',
  'M0,-4.6l4.2,7.6h-8.4z',
  'M0,-4.8l4.4,4.8l-4.4,4.8l-4.4,-4.8z',
  'M0,4.6l4.2,-7.6h-8.4z',
  'M-4,-4l8,8m0,-8l-8,8',
] as const;

/** The distinct labels of the points in order of first appearance (null: the points without a label). */
export function labelKinds(points: { label: string | null }[]): (string | null)[] {
  return [...new Set(points.map((p) => p.label))];
}
