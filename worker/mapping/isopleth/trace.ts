// Mapping of an isopleth (vertical section): the zero-phase-fraction (ZPF) lines in the plane of the path
// parameter s (composition, 0..1 from composition_start to composition_end) and T.
//
// Method. The ZPF line of a phase P is the border of the part of the section where P is stable (Morral's
// zero-phase-fraction lines; J.E. Morral, H. Gupta, Scripta Metall. Mater. 25 (1991) 1393). It crosses the
// lines of the other phases (with a kink), so each phase's border is followed on its own, judged by one
// predicate: "P is among the stable phases". P is a composition-set label: NAME#2 means "at least two sets of NAME".
// 1. A coarse grid of resolution x resolution equilibria in (s, T) (OpenMP batches in chunks, so a cancel is
//    seen between chunks).
// 2. Every grid edge whose two ends disagree about P and that no line of P traced so far crosses seeds a line:
//    the crossing is located on the edge by bisection, then the line is followed both ways by continuation:
//    a step of length h along the tangent (scaled plane, both axes 0..1), then bisection across the line
//    (along its normal) until the bracket is within tolT in T and tolX in the axis fraction. The step grows
//    on straight stretches and halves where the line turns (more than 25 degrees) or is not bracketed, so
//    kinks and narrow features between grid nodes are kept where a line is followed. A line ends on the
//    border of the section or where it closes on itself. Tracing runs on one thread: each equilibrium depends
//    on the last, and starts Newton from a neighbour's result (about half the cost of a cold start, so two
//    cold equilibria on two threads take as long as two warm ones in a row).
// 3. Regions: connected grid nodes of one phase set get a label point; a phase set met only beside a line
//    (narrower than the grid) is labelled there. Horizontal runs shared by two or more lines at one T are
//    the invariant-like lines (n+1 phases of an n-component system meet at one temperature). The liquidus is
//    where a solid phase's line borders the field of liquid alone; the solidus is the liquid's own line.
// The isopleth is a strategy of the mapping skeleton (core/skeleton.ts; isopleth/strategy.ts): the line location and
// continuation of step 2 are the skeleton's (core/zpf-map.ts over core/zpf-line.ts and core/zpf-lines.ts), its
// regions isopleth/regions.ts, its invariant lines isopleth/invariants.ts.
import { runMapping } from '../core/skeleton.js';
import { phaseLabels } from '../core/zpf-map.js';
import { IsoplethStrategy } from './strategy.js';
import type { IsoplethMap, IsoplethSetup } from './types.js';

export { phaseLabels };
export type {
  InvariantLine,
  IsoplethMap,
  IsoplethSetup,
  LineEnd,
  LinePoint,
  NamedLine,
  RegionLabel,
  ZpfLine,
} from './types.js';

export function mapIsopleth(setup: IsoplethSetup): IsoplethMap {
  return runMapping(new IsoplethStrategy(setup));
}
