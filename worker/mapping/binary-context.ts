// What the steps of one binary map share (binary-strategy.ts and the modules it runs: seed-grid, scheduler,
// tracing): the point solver, the ordered phases, the ranges of the diagram and the log.
import type { BinarySolver } from './binary-solver.js';
import type { OrderModel } from './order-disorder.js';

export interface MapContext {
  solver: BinarySolver;
  order: OrderModel;
  Tlo: number;
  Thi: number;
  Xr: [number, number];
  /** largest continuation step in T, K */
  maxStep: number;
  log: (line: string) => void;
}
