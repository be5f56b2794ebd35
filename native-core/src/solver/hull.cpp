// Lower convex hull of the sampled points (§8.7) and the cold start built from its vertices.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "solver/solver_internal.hpp"
#include <functional>
#include <numeric>

namespace pd::solver::detail {

// --------------------------------------------------------------------------------------------
// Lower convex hull by a revised simplex on the sampled points (§8.7). Rows: sum f = 1 and each linear
// condition; columns: grid points (per mole of atoms) and fake points e_A of the free elements.

// The order of the grid points in hull()'s columns (Grid::hull_order): phase by phase (a phase far above the
// tangent is then skipped block by block), and within a phase by cells of a uniform partition of the first
// C - 1 mole fractions (2^L per fraction, a few dozen points of the grid per cell on average) numbered along a
// Z-order curve (the bits of the cell coordinates interleaved), so that consecutive cells, and so the points
// of one block, lie close together in every direction. Once per grid: solver copies share it.
void sort_for_hull(Grid& grid, int C) {
  const size_t total = grid.total;
  const int D = std::max(1, C - 1);
  const double cells = std::max(1.0, static_cast<double>(total) / 32);
  const int L = std::max(1, std::min(63 / D, static_cast<int>(std::ceil(std::log2(cells) / D))));
  const uint64_t nb = uint64_t(1) << L;
  std::vector<std::pair<uint64_t, uint32_t>> key;  // (cell, global index)
  key.reserve(total);
  grid.hull_order.clear();
  grid.hull_order.reserve(total);
  uint32_t k = 0;
  for (const PhaseGrid& g : grid.ph) {
    key.clear();
    for (size_t q = 0; q < g.np; ++q, ++k) {
      uint64_t kk = 0;
      for (int A = 0; A < std::min(C - 1, D); ++A) {
        const double x = g.X[q * C + A];
        const uint64_t cell =
            std::isfinite(x) ? std::min<uint64_t>(nb - 1, static_cast<uint64_t>(std::max(0.0, x) * nb)) : 0;
        for (int bit = 0; bit < L; ++bit) kk |= ((cell >> bit) & 1u) << (bit * D + A);
      }
      key.emplace_back(kk, k);
    }
    std::sort(key.begin(), key.end());
    for (const auto& e : key) grid.hull_order.push_back(e.second);
  }
}

bool hull(Run& run, std::vector<HullVertex>& verts, std::string& why) {
  const Conds& cd = run.cd;
  const int C = run.C;
  const int S = 1 + static_cast<int>(cd.a.size());
  const int nfree = static_cast<int>(cd.free_el.size());
  if (S != nfree) {
    why = "phase rule: conditions do not match the number of free chemical potentials";
    return false;
  }
  auto column = [&](const double* x, double* col) {
    col[0] = 1;
    for (int r = 0; r + 1 < S; ++r) {
      double s = 0;
      for (int A = 0; A < C; ++A) s += cd.a[r][A] * x[A];
      col[r + 1] = s;
    }
  };
  auto cost_of = [&](const double* x, double G) {
    double c = G;
    for (int A = 0; A < C; ++A)
      if (cd.fixed[A]) c -= cd.mufix[A] * x[A];
    return c;
  };
  // Cost and rows a_c·x of every grid point (the constant first row of the column (1, a_c·x) left out), block
  // by block and in a block row after row (cost at cols[b * S * kHullBlock + j], row r at
  // cols[(b * S + r) * kHullBlock + j] for position i = b * kHullBlock + j), so that the pricing below runs over
  // contiguous memory;
  // non-finite energies never enter. They depend only on the grid energies (T, P), the condition rows and the
  // fixed potentials, so a solve at the same (T, P) with the same kinds of conditions (a scan in composition,
  // or the same point again) reuses them. Position i holds grid point Grid::hull_order[i]: the points sorted by
  // composition cell, so that each block of kHullBlock positions spans a small range of every row, which bounds
  // the reduced costs of the whole block (pricing below).
  constexpr size_t kHullBlock = 64;
  std::vector<double>& cols = run.im.hull_cols;  // workspaces kept between solves
  std::vector<double>& costs = run.im.hull_costs;
  const size_t total = run.grid.total;
  const int R = S - 1;
  const size_t nblk = (total + kHullBlock - 1) / kHullBlock;
  auto& im = run.im;
  auto& w = im.hull;
  std::vector<size_t>& offs = w.offs;  // first global index of each phase
  offs.assign(run.grid.ph.size() + 1, 0);
  for (size_t p = 0; p < run.grid.ph.size(); ++p) offs[p + 1] = offs[p] + run.grid.ph[p].np;
  const std::vector<uint32_t>& order = run.grid.hull_order;
  if (order.size() != total) {
    why = "the grid has no hull order (sort_for_hull)";
    return false;
  }
  const bool reuse = im.hull_T == cd.T && im.hull_P == cd.P && im.hull_a == cd.a && im.hull_fixed == cd.fixed &&
                     im.hull_mufix == cd.mufix && costs.size() == total && cols.size() == nblk * S * kHullBlock &&
                     im.hull_block_cmin.size() == nblk;
  if (!reuse) {
    cols.assign(nblk * S * kHullBlock, 0.0);
    costs.resize(total);
    im.hull_block_lo.assign(nblk * R, std::numeric_limits<double>::infinity());
    im.hull_block_hi.assign(nblk * R, -std::numeric_limits<double>::infinity());
    im.hull_block_cmin.assign(nblk, std::numeric_limits<double>::infinity());
    im.hull_block_cmax.assign(nblk, 0.0);
    std::vector<double>& col = w.col;
    col.assign(S, 0.0);
    size_t p = 0;  // the phase of position i: hull_order keeps the phases in order, each one's points together
    for (size_t i = 0; i < total; ++i) {
      const size_t k = order[i];
      if (k < offs[p] || k >= offs[p + 1])
        p = static_cast<size_t>(std::upper_bound(offs.begin(), offs.end(), k) - offs.begin()) - 1;
      const size_t q = k - offs[p];
      const PhaseGrid& g = run.grid.ph[p];
      const double G = run.im.gridG[p][q];
      const size_t b = i / kHullBlock;
      column(&g.X[q * C], col.data());
      for (int r = 1; r < S; ++r) cols[(b * S + r) * kHullBlock + i % kHullBlock] = col[r];
      costs[i] = std::isfinite(G) ? cost_of(&g.X[q * C], G) : std::numeric_limits<double>::infinity();
      cols[b * S * kHullBlock + i % kHullBlock] = costs[i];
    }
    // per block the range of each row and of the finite costs, from the block's contiguous rows
    for (size_t b = 0; b < nblk; ++b) {
      const size_t n = std::min(kHullBlock, total - b * kHullBlock);
      for (int r = 1; r < S; ++r) {
        const double* cr = &cols[(b * S + r) * kHullBlock];
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (size_t j = 0; j < n; ++j) {
          lo = std::min(lo, cr[j]);
          hi = std::max(hi, cr[j]);
        }
        im.hull_block_lo[b * R + r - 1] = lo;
        im.hull_block_hi[b * R + r - 1] = hi;
      }
      const double* co = &costs[b * kHullBlock];
      double cmin = std::numeric_limits<double>::infinity(), cmax = 0;
      for (size_t j = 0; j < n; ++j)
        if (std::isfinite(co[j])) {
          cmin = std::min(cmin, co[j]);
          cmax = std::max(cmax, std::fabs(co[j]));
        }
      im.hull_block_cmin[b] = cmin;
      im.hull_block_cmax[b] = cmax;
    }
    im.hull_T = cd.T;
    im.hull_P = cd.P;
    im.hull_a = cd.a;
    im.hull_fixed = cd.fixed;
    im.hull_mufix = cd.mufix;
  }
  // Pricing bounds: per block the smallest reduced cost when it was last priced, and how far the reduced
  // costs may have moved since (the change of π times the block's range of each row).
  std::vector<double>&blk_min = w.blk_min, &blk_drift = w.blk_drift, &pi_prev = w.pi_prev;
  std::vector<double>&blk_bound = w.blk_bound, &blk_margin = w.blk_margin;
  std::vector<uint32_t>& blk_seq = w.blk_seq;
  blk_min.assign(nblk, -std::numeric_limits<double>::infinity());
  blk_drift.assign(nblk, 0.0);
  pi_prev.clear();
  blk_bound.assign(nblk, 0.0);
  blk_margin.assign(nblk, 0.0);
  blk_seq.assign(nblk, 0);
  size_t priced = 0;  // blocks priced (debug trace)
  std::vector<HullVertex>& basis = w.basis;
  std::vector<double>&bx = w.bx, &bc = w.bc;  // bx: row j the composition of basis point j
  basis.assign(S, HullVertex{});
  bx.assign(static_cast<size_t>(S) * C, 0.0);
  bc.assign(S, 0.0);
  for (int j = 0; j < S; ++j) {
    basis[j] = {-1, static_cast<size_t>(cd.free_el[j]), 0.0};
    bx[j * C + cd.free_el[j]] = 1;
    bc[j] = kFakeG;
  }
  std::vector<double>&rhs = w.rhs, &B = w.B, &LU = w.LU, &BT = w.BT, &f = w.f, &pi = w.pi, &d = w.d, &col = w.col;
  std::vector<int>&piv = w.piv, &piv2 = w.piv2;
  for (auto* v : {&rhs, &f, &pi, &d, &col}) v->assign(S, 0.0);
  for (auto* v : {&B, &LU, &BT}) v->assign(static_cast<size_t>(S) * S, 0.0);
  piv.assign(S, 0);
  piv2.assign(S, 0);
  rhs[0] = 1;
  for (int r = 0; r + 1 < S; ++r) rhs[r + 1] = cd.b[r];
  // Anti-cycling. At a degenerate vertex (a basis point at zero fraction: compounds of one composition, an element at
  // 0.001 of six) the most negative reduced cost can enter and leave in a cycle of pivots that do not move, and with an
  // ill-conditioned basis rounding makes reduced costs of -1e-7 where they are zero (costs and π of 1e5 J/mol, six
  // components): a point and its twin of the same composition then replace each other for ever (Al-C-Cr-Mo-Nb-Ta,
  // 693.2 K; 97 of 200 random points ended at the iteration limit). A basis point never enters again, and after
  // kDegenerateRun pivots in a row that lower the objective by less than its rounding, Bland's rule (Bland, Math.
  // Oper. Res. 2 (1977) 103) chooses until one lowers it more: the entering point is the one of the smallest grid
  // index whose reduced cost is negative beyond the rounding of its block's terms (every block priced), and of the
  // tied leaving ones the one of the smallest index (the fake points after the grid). Bland's rule cannot cycle.
  constexpr int kDegenerateRun = 50;
  int degenerate_run = 0;
  bool bland = false;
  auto var_index = [&](const HullVertex& v) { return v.phase < 0 ? total + v.point : offs[v.phase] + v.point; };
  auto basic = [&](size_t k) {
    return std::any_of(basis.begin(), basis.end(), [&](const HullVertex& v) { return var_index(v) == k; });
  };
  for (int it = 0; it < 1000; ++it) {
    for (int j = 0; j < S; ++j) {
      column(&bx[j * C], col.data());
      for (int i = 0; i < S; ++i) B[i * S + j] = col[i];
    }
    LU = B;
    if (!lu_factor(LU.data(), S, piv.data())) {
      why = "degenerate simplex in the convex hull";
      return false;
    }
    f = rhs;
    lu_solve(LU.data(), S, piv.data(), f.data());
    // π: B^T π = c_B (transpose solve via a second factorisation; S is tiny)
    for (int i = 0; i < S; ++i)
      for (int j = 0; j < S; ++j) BT[i * S + j] = B[j * S + i];
    lu_factor(BT.data(), S, piv2.data());
    pi = bc;
    lu_solve(BT.data(), S, piv2.data(), pi.data());
    // most negative reduced cost over every grid point (columns and costs precomputed above), block by block
    // (a block stays in the first-level cache): the reduced costs of a block row after row (loops the compiler
    // vectorises), then the smallest one below -1e-8, the first grid point of it on a tie. Each block has a lower
    // bound of its reduced costs: its smallest cost less the largest π·column over its ranges, and its
    // smallest reduced cost when last priced less the largest change since. The block of the smallest bound is
    // priced first, then the others in order, and a block whose bound stays above the best found is not priced: none of its points can
    // be chosen, so the pivots are those of pricing every point.
    double best = -1e-8;
    int bp = -1;
    size_t bq = 0;
    {
      for (size_t b = 0; b < nblk; ++b) {
        const double* lo = &im.hull_block_lo[b * R];
        const double* hi = &im.hull_block_hi[b * R];
        if (!pi_prev.empty()) {
          double c = pi[0] - pi_prev[0], h = 0;
          for (int r = 1; r < S; ++r) {
            const double dr = pi[r] - pi_prev[r];
            c += dr * 0.5 * (lo[r - 1] + hi[r - 1]);
            h += std::fabs(dr) * 0.5 * (hi[r - 1] - lo[r - 1]);
          }
          blk_drift[b] += std::fabs(c) + h;
        }
        double bound = im.hull_block_cmin[b] - pi[0];
        double scale = im.hull_block_cmax[b] + std::fabs(pi[0]) + blk_drift[b];
        for (int r = 1; r < S; ++r) {
          bound -= std::max(pi[r] * lo[r - 1], pi[r] * hi[r - 1]);
          scale += std::fabs(pi[r]) * std::max(std::fabs(lo[r - 1]), std::fabs(hi[r - 1]));
        }
        blk_bound[b] = std::max(bound, blk_min[b] - blk_drift[b]);
        blk_margin[b] = 1e-9 * scale;
        if (!(blk_bound[b] == blk_bound[b])) blk_bound[b] = -std::numeric_limits<double>::infinity();  // NaN: price it
      }
      pi_prev = pi;
      // the block of the smallest bound first (it sets a low best at once), then the others in order
      // (no block at all when no phase can hold the system's elements: only the fake points price)
      size_t first = 0;
      for (size_t b = 1; b < nblk; ++b)
        if (blk_bound[b] < blk_bound[first]) first = b;
      if (nblk) blk_seq[0] = static_cast<uint32_t>(first);
      for (size_t b = 0, j = 1; b < nblk; ++b)
        if (b != first) blk_seq[j++] = static_cast<uint32_t>(b);
      double red[kHullBlock];
      size_t bk = total;
      for (const uint32_t b : blk_seq) {
        if (!bland && blk_bound[b] > best + blk_margin[b]) continue;
        const size_t k0 = b * kHullBlock;
        const size_t n = std::min(kHullBlock, total - k0);
        const double* co = &cols[b * S * kHullBlock];
        const double pi0 = pi[0];
        for (size_t q = 0; q < n; ++q) red[q] = co[q] - pi0;
        for (int r = 1; r < S; ++r) {
          const double pr = pi[r];
          const double* cr = &cols[(b * S + r) * kHullBlock];
          for (size_t q = 0; q < n; ++q) red[q] -= pr * cr[q];
        }
        // the smallest in four independent minima (one chain of n dependent minsd waits on each one's latency)
        double m4[4] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                        std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
        size_t q4 = 0;
        for (; q4 + 4 <= n; q4 += 4)
          for (int l = 0; l < 4; ++l) m4[l] = red[q4 + l] < m4[l] ? red[q4 + l] : m4[l];
        for (; q4 < n; ++q4) m4[0] = red[q4] < m4[0] ? red[q4] : m4[0];
        double bmin = std::min(std::min(m4[0], m4[1]), std::min(m4[2], m4[3]));
        // a basis point does not enter again; Bland's rule after a run of pivots that do not move (above)
        if (bland) {
          const double negative = -std::max(1e-8, blk_margin[b]);
          for (size_t q = 0; q < n; ++q)
            if (red[q] < negative && (bk == total || order[k0 + q] < order[bk]) && !basic(order[k0 + q])) {
              bk = k0 + q;
              best = red[q];
            }
        } else if (bmin < best || (bmin == best && bk < total)) {
          for (size_t q = 0; q < n; ++q)
            if (!(red[q] < best || (red[q] == best && bk < total && order[k0 + q] < order[bk])))
              continue;
            else if (!basic(order[k0 + q])) {
              best = red[q];
              bk = k0 + q;
            }
        }
        blk_min[b] = bmin;
        blk_drift[b] = 0;
        ++priced;
      }
      if (bk < total) {
        const size_t k = order[bk];
        bp = static_cast<int>(std::upper_bound(offs.begin(), offs.end(), k) - offs.begin()) - 1;
        bq = k - offs[bp];
      }
    }
    if (bp < 0) {
      if (debug_level() >= 1)
        std::fprintf(stderr, "hull: %d simplex iterations over %zu grid points (%zu of %zu blocks priced)\n", it + 1,
                     run.grid.total, priced, static_cast<size_t>(it + 1) * nblk);
      verts.clear();
      for (int j = 0; j < S; ++j) verts.push_back({basis[j].phase, basis[j].point, f[j]});
      // μ of the free elements from π (x-rows expressed per element, §8.7 step 2)
      run.mu.assign(C, 0.0);
      for (int A = 0; A < C; ++A) {
        if (cd.fixed[A]) {
          run.mu[A] = cd.mufix[A];
          continue;
        }
        double v = pi[0];
        for (int r = 0; r + 1 < S; ++r) v += pi[r + 1] * cd.a[r][A];
        run.mu[A] = v;
      }
      return true;
    }
    const double* xq = &run.grid.ph[bp].X[bq * C];
    column(xq, d.data());
    lu_solve(LU.data(), S, piv.data(), d.data());
    int leave = -1;
    double theta = std::numeric_limits<double>::infinity();
    for (int j = 0; j < S; ++j)
      if (d[j] > 1e-12) {
        double t = std::max(f[j], 0.0) / d[j];
        if (t < theta || (bland && t == theta && var_index(basis[j]) < var_index(basis[leave]))) {
          theta = t;
          leave = j;
        }
      }
    if (leave < 0) {
      why = "unbounded convex hull problem";
      return false;
    }
    double objective = 0;  // Σ f_j c_j of the basis before the pivot
    for (int j = 0; j < S; ++j) objective += std::max(f[j], 0.0) * bc[j];
    if (theta * -best > 1e-12 * (1 + std::fabs(objective))) {
      degenerate_run = 0;
      bland = false;
    } else if (++degenerate_run >= kDegenerateRun) {
      bland = true;
    }
    basis[leave] = {bp, bq, 0.0};
    std::copy(xq, xq + C, &bx[static_cast<size_t>(leave) * C]);
    bc[leave] = cost_of(xq, run.im.gridG[bp][bq]);
  }
  why = "convex hull iteration limit";
  return false;
}

// The cold start (§8.7): the hull's vertices become the stable composition sets and the hull's μ the first
// estimate; every other phase gets a metastable set at its grid point of largest driving force.
bool cold_start(Run& run, const std::vector<std::string>& elements, bool single_set, std::string& why) {
  const int C = run.C;
  const Conds& cd = run.cd;
  std::vector<HullVertex> verts;
  if (!hull(run, verts, why)) {
    why = "starting point failed: " + why;
    return false;
  }
  if (debug_level() >= 1) {
    std::fprintf(stderr, "hull mu");
    for (double v : run.mu) std::fprintf(stderr, " %.6f", v);
    std::fprintf(stderr, "\n");
    for (const auto& v : verts) {
      std::fprintf(stderr, "  vertex %s f=%.6e", v.phase < 0 ? "fake" : run.phases[v.phase]->name().c_str(), v.f);
      if (v.phase >= 0) {
        const PhaseGrid& g = run.grid.ph[v.phase];
        std::fprintf(stderr, " G=%.6f x:", run.im.gridG[v.phase][v.point]);
        for (int A = 0; A < C; ++A) std::fprintf(stderr, " %.6f", g.X[v.point * C + A]);
        std::fprintf(stderr, " y:");
        for (int k = 0; k < g.m; ++k) std::fprintf(stderr, " %.6f", g.Y[v.point * g.m + k]);
      }
      std::fprintf(stderr, "\n");
    }
  }
  // A fake vertex left in a degenerate final basis (amount ~0) makes μ of the order of the fake energy
  // (1e10); refit μ (minimum norm) to the real vertices so the Newton corrections start from sane values.
  if (std::any_of(verts.begin(), verts.end(), [](const HullVertex& v) { return v.phase < 0; })) {
    std::vector<double> A, b, sol(C, 0.0);
    int rows = 0;
    for (const auto& v : verts)
      if (v.phase >= 0) {
        const double* x = &run.grid.ph[v.phase].X[v.point * C];
        A.insert(A.end(), x, x + C);
        b.push_back(run.im.gridG[v.phase][v.point]);
        ++rows;
      }
    if (rows > 0) {
      LstsqWork lw;
      lstsq(A.data(), rows, C, b.data(), sol.data(), lw, 1e-12);
      for (int E = 0; E < C; ++E)
        if (!cd.fixed[E]) run.mu[E] = sol[E];
    }
  }
  for (const auto& v : verts)
    if (v.phase < 0 && v.f > 1e-9) {
      why = "the conditions " + std::string(kOutOfReach) + " (element " + elements[v.point] +
            " is in none of them, or the composition is outside their range)";
      return false;
    }
  // Hull vertices -> composition sets; vertices of one phase in one convex basin are merged (their
  // midpoint lies on or below the hyperplane), otherwise they start a miscibility gap (§8.7 step 3).
  std::vector<HullVertex> real;
  for (const auto& v : verts)
    if (v.phase >= 0 && v.f > 1e-14) real.push_back(v);
  if (real.empty()) {
    for (const auto& v : verts)
      if (v.phase >= 0) real.push_back(v);
    for (auto& v : real) v.f = 1.0 / real.size();
  }
  // The midpoint test above only sees a barrier higher than the chord between the two sampled vertices.
  // Vertices a grid step outside a shallow miscibility gap have a chord well above the common tangent, and
  // for variable site ratios (ionic liquid, §7.1) the y-midpoint is not even the composition midpoint: the
  // two liquids of cuo.tdb at 1514 K, X(O) = 0.25 (vertices x(O) = 0.095 and 0.338) passed it, were merged
  // into one set inside the spinodal, and Newton cycled between that saddle and an added second set. So a
  // pair that passes is confirmed by relaxing both vertices at the hull's μ (Newton on G_f - μ·M, the
  // relaxation of §9.2): one basin ends in one state; two distinct end states are two composition sets
  // (§8.7 step 3: several vertices of one phase = candidate miscibility gap).
  // Each vertex is relaxed once (μ does not change here) however many pairs it is tested in.
  std::vector<CompSet> relaxed(real.size());
  auto relaxed_vertex = [&](size_t i) -> const CompSet& {
    CompSet& s = relaxed[i];
    if (s.y.empty()) {
      const int p = real[i].phase;
      const int m = run.grid.ph[p].m;
      s.phase = p;
      s.y.assign(&run.grid.ph[p].Y[real[i].point * m], &run.grid.ph[p].Y[real[i].point * m] + m);
      relax_at_mu(run, s, 1e-9);
    }
    return s;
  };
  auto same_basin = [&](size_t i, size_t j) {
    const CompSet* s[2] = {&relaxed_vertex(i), &relaxed_vertex(j)};
    double dx = 0;
    for (int A = 0; A < C; ++A) dx = std::max(dx, std::fabs(s[0]->mo.M[A] / s[0]->Nf - s[1]->mo.M[A] / s[1]->Nf));
    if (debug_level() >= 1) std::fprintf(stderr, "  relaxed at the hull mu: composition difference %.3e\n", dx);
    return !(dx > 10 * kCompTol);
  };
  std::vector<int> parent(real.size());
  std::iota(parent.begin(), parent.end(), 0);
  std::function<int(int)> find = [&](int i) { return parent[i] == i ? i : parent[i] = find(parent[i]); };
  {
    EnergyResult e;
    MolesResult mo;
    for (size_t i = 0; i < real.size(); ++i)
      for (size_t j = i + 1; j < real.size(); ++j) {
        if (real[i].phase != real[j].phase) continue;
        if (single_set) {
          parent[find(static_cast<int>(i))] = find(static_cast<int>(j));
          continue;
        }
        if (find(static_cast<int>(i)) == find(static_cast<int>(j))) continue;  // joined through other vertices
        const int p = real[i].phase;
        const int m = run.grid.ph[p].m;
        std::vector<double> ym(m);
        const double* yi = &run.grid.ph[p].Y[real[i].point * m];
        const double* yj = &run.grid.ph[p].Y[real[j].point * m];
        auto dist = [&](const double* y) {
          run.phases[p]->energy(*run.im.states[p], y, 0, e);
          run.phases[p]->moles(y, 0, mo);
          double d = e.Gf;
          for (int A = 0; A < C; ++A) d -= run.mu[A] * mo.M[A];
          return d;
        };
        for (int k = 0; k < m; ++k) ym[k] = 0.5 * (yi[k] + yj[k]);
        double dm = dist(ym.data()), di = dist(yi), dj = dist(yj);
        if (debug_level() >= 1)
          std::fprintf(stderr, "  merge test %s: d(mid) %.6f d(i) %.6f d(j) %.6f (J per formula unit)\n",
                       run.phases[p]->name().c_str(), dm, di, dj);
        if (dm <= 0.5 * (di + dj) + 1e-3 && same_basin(i, j))
          parent[find(static_cast<int>(i))] = find(static_cast<int>(j));
      }
  }
  for (size_t i = 0; i < real.size(); ++i) {
    if (find(static_cast<int>(i)) != static_cast<int>(i)) continue;
    const int p = real[i].phase;
    const int m = run.grid.ph[p].m;
    CompSet s;
    s.phase = p;
    s.y.assign(m, 0.0);
    double ftot = 0;
    for (size_t j = 0; j < real.size(); ++j)
      if (find(static_cast<int>(j)) == static_cast<int>(i)) ftot += real[j].f;
    for (size_t j = 0; j < real.size(); ++j)
      if (find(static_cast<int>(j)) == static_cast<int>(i)) {
        const double* y = &run.grid.ph[p].Y[real[j].point * m];
        double w = ftot > 0 ? real[j].f / ftot : 1.0;
        for (int k = 0; k < m; ++k) s.y[k] += w * y[k];
      }
    s.stable = true;
    s.aleph = std::max(ftot, 1e-6);  // NP for now
    run.sets.push_back(std::move(s));
  }
  {
    double tot = 0;
    for (auto& s : run.sets) tot += s.aleph;
    MolesResult mo;
    for (auto& s : run.sets) {
      run.phases[s.phase]->moles(s.y.data(), 0, mo);
      s.aleph = s.aleph / tot / mo.Nf;  // NP -> formula units
    }
  }
  // every other phase gets a metastable set at its grid point of largest driving force
  seed_metastable(run);
  return true;
}

}  // namespace pd::solver::detail
