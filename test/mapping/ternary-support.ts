// Checks a mapped ternary section against independent point equilibria on both sides of its boundaries.
import { baseName } from '../../contract/phases.js';
import { equilibriumBatch } from '../../worker/core/equilibrium.js';
import type { NativeDatabase } from '../../worker/core/native.js';
import { dist3, fromPlane, toPlane, type TernarySection, type Vec3 } from '../../worker/mapping/ternary.js';

export interface SideProbe {
  x: Vec3;
  expect: 'inside' | 'outside';
  region: string;
  phase: string;
  found: string[];
}

/**
 * For every other tie-line of every region (its first and last left out: they end on triangles and edges), a point
 * `delta` (plane units) inside the region beyond each end must give the region's two phases, and a point `delta`
 * outside must give the end's phase without the other one. Points closer than `margin` to a triangle corner, a
 * critical point or the triangle's edges are left out (several fields meet there). The middle of every region (also
 * one of only two tie-lines, between line compounds) must give its two phases.
 */
export function probeBoundaries(
  s: TernarySection,
  db: NativeDatabase,
  opts: { delta?: number; margin?: number; phases?: string[]; pdens?: number } = {},
): { probes: SideProbe[]; failures: SideProbe[]; notConverged: number; narrowFields: SideProbe[] } {
  const delta = opts.delta ?? 0.004;
  const margin = opts.margin ?? 0.02;
  const comps = s.components;
  const corners = [...s.triangles.flatMap((t) => t.corners), ...s.criticalPoints.map((c) => c.x)];
  const probes: Omit<SideProbe, 'found'>[] = [];
  for (const r of s.regions) {
    for (let k = 1; k < r.tielines.length - 1; k += 2) {
      const t = r.tielines[k]!;
      const len = dist3(t.x[0], t.x[1]);
      if (len < 8 * delta) continue;
      for (const e of [0, 1] as const) {
        const a = toPlane(t.x[e]),
          b = toPlane(t.x[1 - e]!);
        const u: [number, number] = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
        for (const [side, sgn] of [
          ['inside', 1],
          ['outside', -1],
        ] as const) {
          const x = fromPlane([a[0] + sgn * delta * u[0], a[1] + sgn * delta * u[1]]);
          if (x.some((v) => v < margin / 2)) continue;
          if (corners.some((c) => dist3(c, x) < margin)) continue;
          probes.push({ x, expect: side, region: r.phases.join('+'), phase: r.phases[e]! });
        }
      }
    }
  }
  // the middle of every region (between its two middle tie-lines, halfway along): the region's two phases
  for (const r of s.regions) {
    if (r.tielines.length < 2) continue;
    const k = Math.floor((r.tielines.length - 1) / 2);
    const [t0, t1] = [r.tielines[k]!, r.tielines[k + 1]!];
    // near a critical point the gap is too shallow for a point equilibrium to resolve (as for the side probes)
    if (dist3(t0.x[0], t0.x[1]) < 8 * delta || dist3(t1.x[0], t1.x[1]) < 8 * delta) continue;
    const x = [0, 1, 2].map((q) => (t0.x[0][q]! + t0.x[1][q]! + t1.x[0][q]! + t1.x[1][q]!) / 4) as Vec3;
    if (corners.some((c) => dist3(c, x) < margin / 4)) continue;
    probes.push({ x, expect: 'inside', region: r.phases.join('+'), phase: r.phases[0] });
  }
  const elements = new Set(db.info().elements.map((e) => e.name));
  const rs = equilibriumBatch({
    database: db,
    components: elements.has('VA') ? [...comps, 'VA'] : [...comps],
    phases: opts.phases,
    conditions: probes.map((p) => ({ T: s.T, P: s.P, X: { [comps[1]]: p.x[1], [comps[2]]: p.x[2] } })),
    threads: 2,
    options: opts.pdens ? { pdens: opts.pdens } : undefined,
  });
  const out: SideProbe[] = probes.map((p, i) => ({
    ...p,
    found: rs[i]!.converged ? rs[i]!.phases.filter((q) => q.NP > 1e-9).map((q) => q.name) : ['not converged'],
  }));
  // Outside a boundary, two sets of the end's phase within NARROW of each other and of the probe are not the
  // region's tie-line but a field of their own, narrower than the seed grid and the self-check's sampling: two
  // ordered states of one phase next to a boundary (alnipt at 1273 K: two L12 variants 0.007 apart beside the
  // gamma' boundary, docs/calculations.md). They are reported apart, as a field the section does not draw.
  const NARROW = 0.01;
  const narrow = new Set(
    out.flatMap((p, i) => {
      const sets = rs[i]!.converged ? rs[i]!.phases.filter((q) => q.NP > 1e-9) : [];
      const xs = sets.map((q) => comps.map((c) => q.x[c] ?? 0) as Vec3);
      return p.expect === 'outside' &&
        sets.length === 2 &&
        sets.every((q) => q.name === baseName(p.phase)) &&
        dist3(xs[0]!, xs[1]!) < NARROW &&
        xs.every((x) => dist3(x, p.x) < NARROW)
        ? [p]
        : [];
    }),
  );
  // a point the solver cannot converge says nothing about the map: counted apart, not a failure
  const failures = out
    .filter((p) => p.found[0] !== 'not converged' && !narrow.has(p))
    .filter((p) => {
      const want = p.region.split('+').map(baseName).sort().join('+');
      const got = [...p.found].sort().join('+');
      if (p.expect === 'inside') return got !== want;
      // outside: the end's phase alone (or with a third phase of a neighbouring field), never the region's pair
      return got === want || !p.found.includes(baseName(p.phase));
    });
  return {
    probes: out,
    failures,
    notConverged: out.filter((p) => p.found[0] === 'not converged').length,
    narrowFields: [...narrow],
  };
}
