// Closing the regions of a ternary section (core/skeleton.ts, stage 4): a region traced twice (from seeds on both
// sides of a thin triangle) is kept once, and of two fields that share area the one whose tangent plane lies higher
// is dropped or cut back to the other's edge.
//
// Overlapping fields: the point solver's answer can be metastable (a basin its sampling grid misses, reached by a
// warm start or not), and two such answers give fields that share area. Of two tangent planes over one composition
// the lower is the stable one: the field of the higher plane is dropped (a region only for its tie-lines inside the
// triangle; it then ends on the triangle's edge).
import { baseName } from '../../../contract/phases.js';
import { dropTwins } from '../core/continuation.js';
import type { MapLedger } from '../core/ledger.js';
import { triangleEdge, type SectionFields } from './fields.js';
import {
  mid,
  overlapsBetween,
  polygonDepth,
  sortedBases,
  tielineInside,
  toPlane,
  type TernaryEndKind,
  type TernaryTriangle,
} from './geometry.js';
import { GM_TOL } from './solver.js';

/** Of two traces of one region, the one with fewer tie-lines goes (of two as long, the later one). */
export function dropTwinRegions(fields: SectionFields): void {
  const { regions, regionPolys } = fields;
  dropTwins(
    regions.length,
    (i) => {
      const r = regions[i]!;
      const twin = regions.findIndex(
        (o, k) =>
          k !== i &&
          o.tielines.length >= r.tielines.length &&
          sortedBases(o.phases) === sortedBases(r.phases) &&
          r.tielines.filter((t) => polygonDepth(toPlane(mid(t.x[0], t.x[1])), regionPolys[k]!) > -1e-4).length >=
            0.6 * r.tielines.length,
      );
      return twin >= 0 && !(regions[twin]!.tielines.length === r.tielines.length && twin > i) ? twin : -1;
    },
    (i) => fields.removeRegion(i),
  );
}

/** Resolves overlapping fields, one overlap at a time (eight passes at most). */
export function resolveOverlaps(fields: SectionFields, ledger: MapLedger): void {
  for (let pass = 0; pass < 8; pass++) {
    const found = overlapsBetween(fields).find((o) => {
      const gt = fields.planeG(fields.potentials.get(fields.triangles[o.triangle]!), o.x);
      const go = fields.planeG(
        fields.potentials.get(
          o.kind === 'triangles' ? fields.triangles[o.other]! : fields.regions[o.other]!.tielines[o.tieline]!,
        ),
        o.x,
      );
      return Number.isFinite(gt) && Number.isFinite(go) && Math.abs(gt - go) > GM_TOL;
    });
    if (!found) break;
    if (found.kind === 'triangles') dropHigherTriangle(fields, ledger, found);
    else resolveTriangleRegion(fields, ledger, found);
  }
}

type Overlap = ReturnType<typeof overlapsBetween>[number];

function dropHigherTriangle(fields: SectionFields, ledger: MapLedger, found: Overlap): void {
  const { triangles } = fields;
  const gt = fields.planeG(fields.potentials.get(triangles[found.triangle]!), found.x);
  const other = triangles[found.other]!;
  const drop = fields.planeG(fields.potentials.get(other), found.x) > gt ? found.other : found.triangle;
  ledger.log(
    `three-phase triangle ${triangles[drop]!.phases.join('+')} dropped: it overlaps ${triangles[drop === found.other ? found.triangle : found.other]!.phases.join('+')}, ` +
      `whose tangent plane lies lower (the point solver's answer there was metastable)`,
  );
  triangles.splice(drop, 1);
}

/** A triangle and a region overlap: the triangle goes when the region's plane lies lower, else the region is cut. */
function resolveTriangleRegion(fields: SectionFields, ledger: MapLedger, found: Overlap): void {
  const tri = fields.triangles[found.triangle]!;
  const gt = fields.planeG(fields.potentials.get(tri), found.x);
  const r = fields.regions[found.other]!;
  if (fields.planeG(fields.potentials.get(r.tielines[found.tieline]!), found.x) < gt) {
    ledger.log(
      `three-phase triangle ${tri.phases.join('+')} dropped: it overlaps the two-phase region ${r.phases.join('+')}, whose tangent plane lies lower`,
    );
    fields.triangles.splice(found.triangle, 1);
    return;
  }
  cutRegionAtTriangle(fields, ledger, found.other, tri);
}

/** Keeps the longest run of the region's tie-lines outside the triangle; the run ends on the triangle's edge. */
function cutRegionAtTriangle(fields: SectionFields, ledger: MapLedger, index: number, tri: TernaryTriangle): void {
  const r = fields.regions[index]!;
  const poly = tri.corners.map(toPlane);
  const keep = r.tielines.map((t) => !tielineInside(t, poly));
  let best: [number, number] = [0, -1];
  for (let a = 0; a < keep.length; a++) {
    if (!keep[a]) continue;
    let b = a;
    while (b + 1 < keep.length && keep[b + 1]) b++;
    if (b - a > best[1] - best[0]) best = [a, b];
    a = b;
  }
  ledger.log(
    `two-phase region ${r.phases.join('+')}: ${keep.filter((k) => !k).length} tie-lines inside the triangle ${tri.phases.join('+')} dropped (their tangent planes lie higher)`,
  );
  if (best[1] - best[0] < 1) {
    fields.removeRegion(index);
    return;
  }
  const bases = r.phases.map(baseName) as [string, string];
  const tielines = r.tielines.slice(best[0], best[1] + 1);
  const ends: [TernaryEndKind, TernaryEndKind] = [...r.ends];
  if (best[0] > 0) {
    const edge = triangleEdge(tri, tielines[0]!, bases);
    if (edge) tielines.unshift(edge);
    ends[0] = 'three_phase';
  }
  if (best[1] < r.tielines.length - 1) {
    const edge = triangleEdge(tri, tielines[tielines.length - 1]!, bases);
    if (edge) tielines.push(edge);
    ends[1] = 'three_phase';
  }
  for (const t of tielines) if (!fields.potentials.has(t)) fields.potentials.set(t, fields.potentials.get(tri)!);
  fields.replaceRegion(index, { ...r, tielines, ends });
}
