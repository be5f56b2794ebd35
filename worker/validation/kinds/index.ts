// Registry of validation kinds: one small map. Another kind is added by writing
// worker/validation/kinds/<kind>.ts and one line here. Kinds absent from the map are reported as
// "unsupported" by the runner (never skipped silently).
import type { KindHandler } from '../types.js';
import { conversion } from './conversion.js';
import { database } from './database.js';
import { relation } from './relation.js';
import { step } from './step.js';
import { scheil } from './scheil.js';
import { map } from './map.js';
import { pointKind } from './point.js';
import { boundary } from './boundary.js';
import { invariant } from './invariant.js';
import { literature } from './literature.js';

export const kinds: Record<string, KindHandler> = {
  property: pointKind('property'),
  relation,
  database,
  conversion,
  equilibrium: pointKind('equilibrium'),
  derivative: pointKind('equilibrium'),
  metastable: pointKind('equilibrium', true),
  step,
  scheil,
  map,
  boundary,
  invariant,
  literature,
};
