// Helpers of the tests that map a binary diagram on the window where a field was once drawn wrong.
import path from 'node:path';
import { openDatabase } from '../../worker/core/database.js';
import { mapBinary, type BinaryDiagram } from '../../worker/mapping/binary.js';
import { SHARED_TDB_DIR } from '../support/shared.js';

/** The diagram of two elements of a shared database between two temperatures, on 2 threads. */
export const mapWindow = (file: string, components: [string, string], T: [number, number]) =>
  mapBinary({ database: openDatabase(path.join(SHARED_TDB_DIR, file)), components, T, threads: 2 });

/** The two-phase regions of phases a and b (one set of each). */
export const field = (d: BinaryDiagram, a: string, b: string) =>
  d.regions.filter((r) => new Set(r.phases).size === 2 && r.phases.includes(a) && r.phases.includes(b));

/** Lowest and highest temperature of a region's tie-lines. */
export const span = (r: BinaryDiagram['regions'][number]) => [r.tielines[0].T, r.tielines[r.tielines.length - 1].T];
