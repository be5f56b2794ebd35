// Lower convex hull of the sampled points (§8.7); the cold start built from its vertices is cold_start.cpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "solver/solver_internal.hpp"

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

namespace {

// Cost and rows a_c·x of the grid points (the constant first row of the column (1, a_c·x) left out), block by
// block and in a block row after row (for the block in slot s, cost at cols[s * S * kHullBlock + j], row r at
// cols[(s * S + r) * kHullBlock + j] for position i = b * kHullBlock + j), so that the pricing runs over contiguous
// memory; non-finite energies never enter. A block's columns are laid out when it is first priced (block_columns):
// the bounds of choose_entering leave most blocks unpriced (a steel's hull prices a few hundred of its 9,000 blocks),
// whose columns would take 33 MB. They depend only on the grid energies (T, P), the condition rows and the fixed
// potentials, so a solve at the same (T, P) with the same kinds of conditions (a scan in composition, or the same
// point again) reuses them. Position i holds grid point Grid::hull_order[i]: the points sorted by composition cell,
// so that each block of kHullBlock positions spans a small range of every row, which bounds the reduced costs of the
// whole block (choose_entering).
constexpr size_t kHullBlock = 64;

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

// One hull() call: the sizes of its problem, the workspaces it runs in (EquilibriumSolver::Impl::HullWork) and the
// state of its anti-cycling rule.
struct Simplex {
  Run& run;
  const Conds& cd;
  EquilibriumSolver::Impl& im;
  EquilibriumSolver::Impl::HullWork& w;
  int C, S, R;         // elements; rows (sum f = 1 and each condition row); condition rows S - 1
  size_t total, nblk;  // grid points; blocks of kHullBlock positions
  int degenerate_run = 0;
  bool bland = false;
  size_t priced = 0;  // blocks priced (debug trace)
};

// The column (1, a_c·x) of a point of composition x.
void column(const Simplex& sx, const double* x, double* col) {
  col[0] = 1;
  for (int r = 0; r + 1 < sx.S; ++r) {
    double s = 0;
    for (int A = 0; A < sx.C; ++A) s += sx.cd.a[r][A] * x[A];
    col[r + 1] = s;
  }
}

// The cost of a point: its G less the part of the fixed chemical potentials.
double cost_of(const Simplex& sx, const double* x, double G) {
  double c = G;
  for (int A = 0; A < sx.C; ++A)
    if (sx.cd.fixed[A]) c -= sx.cd.mufix[A] * x[A];
  return c;
}

// The columns and costs in the workspaces are those of these (T, P), condition rows and fixed potentials.
bool columns_current(const Simplex& sx) {
  const EquilibriumSolver::Impl& im = sx.im;
  const Conds& cd = sx.cd;
  return im.hull_T == cd.T && im.hull_P == cd.P && im.hull_a == cd.a && im.hull_fixed == cd.fixed &&
         im.hull_mufix == cd.mufix && im.hull_left_out == sx.run.left_out && im.hull_costs.size() == sx.total &&
         im.hull_block_slot.size() == sx.nblk && im.hull_block_cmin.size() == sx.nblk;
}

// The grid point at position i of the hull's order: its phase p (found from `p`, the phase of the position before,
// as hull_order keeps each phase's points together) and its index q in the phase.
void point_at(const Simplex& sx, size_t i, size_t& p, size_t& q) {
  const std::vector<size_t>& offs = sx.w.offs;
  const size_t k = sx.run.grid.hull_order[i];
  if (k < offs[p] || k >= offs[p + 1])
    p = static_cast<size_t>(std::upper_bound(offs.begin(), offs.end(), k) - offs.begin()) - 1;
  q = k - offs[p];
}

// The costs of every grid point, the range of each row and of the finite costs per block, and what they were
// computed for; the blocks' columns are laid out as they are priced (block_columns).
void lay_out_columns(const Simplex& sx) {
  EquilibriumSolver::Impl& im = sx.im;
  const Grid& grid = sx.run.grid;
  const int S = sx.S, R = sx.R, C = sx.C;
  std::vector<double>& costs = im.hull_costs;  // workspaces kept between solves
  costs.resize(sx.total);
  im.hull_cols.clear();
  im.hull_block_slot.assign(sx.nblk, -1);
  im.hull_block_lo.assign(sx.nblk * R, std::numeric_limits<double>::infinity());
  im.hull_block_hi.assign(sx.nblk * R, -std::numeric_limits<double>::infinity());
  im.hull_block_cmin.assign(sx.nblk, std::numeric_limits<double>::infinity());
  im.hull_block_cmax.assign(sx.nblk, 0.0);
  std::vector<double>& col = sx.w.col;
  col.assign(S, 0.0);
  size_t p = 0, q = 0;
  for (size_t i = 0; i < sx.total; ++i) {
    point_at(sx, i, p, q);
    const PhaseGrid& g = grid.ph[p];
    const double G = im.gridG[p][q];
    const size_t b = i / kHullBlock;
    column(sx, &g.X[q * C], col.data());
    for (int r = 1; r < S; ++r) {
      double& lo = im.hull_block_lo[b * R + r - 1];
      double& hi = im.hull_block_hi[b * R + r - 1];
      lo = std::min(lo, col[r]);
      hi = std::max(hi, col[r]);
    }
    // a phase left out of the run has no vertex: its points cost as much as one whose energy is not finite
    const bool usable = std::isfinite(G) && !left_out(sx.run, static_cast<int>(p));
    costs[i] = usable ? cost_of(sx, &g.X[q * C], G) : std::numeric_limits<double>::infinity();
    if (std::isfinite(costs[i])) {
      im.hull_block_cmin[b] = std::min(im.hull_block_cmin[b], costs[i]);
      im.hull_block_cmax[b] = std::max(im.hull_block_cmax[b], std::fabs(costs[i]));
    }
  }
  im.hull_T = sx.cd.T;
  im.hull_P = sx.cd.P;
  im.hull_a = sx.cd.a;
  im.hull_fixed = sx.cd.fixed;
  im.hull_mufix = sx.cd.mufix;
  im.hull_left_out = sx.run.left_out;
}

// Block b's cost and rows (the layout above), laid out at its first pricing since lay_out_columns.
const double* block_columns(const Simplex& sx, size_t b) {
  EquilibriumSolver::Impl& im = sx.im;
  const int S = sx.S;
  const size_t width = static_cast<size_t>(S) * kHullBlock;
  int32_t& slot = im.hull_block_slot[b];
  if (slot >= 0) return &im.hull_cols[static_cast<size_t>(slot) * width];
  slot = static_cast<int32_t>(im.hull_cols.size() / width);
  im.hull_cols.resize(im.hull_cols.size() + width, 0.0);
  double* cols = &im.hull_cols[static_cast<size_t>(slot) * width];
  std::vector<double>& col = sx.w.col;
  col.assign(S, 0.0);
  size_t p = 0, q = 0;
  for (size_t i = b * kHullBlock; i < std::min(sx.total, (b + 1) * kHullBlock); ++i) {
    point_at(sx, i, p, q);
    column(sx, &sx.run.grid.ph[p].X[q * sx.C], col.data());
    for (int r = 1; r < S; ++r) cols[r * kHullBlock + i % kHullBlock] = col[r];
    cols[i % kHullBlock] = im.hull_costs[i];
  }
  return cols;
}

// The first basis: the fake points e_A of the free elements (§8.7), and the pricing bounds of no pricing yet.
void start_simplex(const Simplex& sx) {
  EquilibriumSolver::Impl::HullWork& w = sx.w;
  const Conds& cd = sx.cd;
  const int S = sx.S, C = sx.C;
  // Pricing bounds: per block the smallest reduced cost when it was last priced, and how far the reduced
  // costs may have moved since (the change of π times the block's range of each row).
  w.blk_min.assign(sx.nblk, -std::numeric_limits<double>::infinity());
  w.blk_drift.assign(sx.nblk, 0.0);
  w.pi_prev.clear();
  w.blk_bound.assign(sx.nblk, 0.0);
  w.blk_margin.assign(sx.nblk, 0.0);
  w.blk_seq.assign(sx.nblk, 0);
  w.basis.assign(S, HullVertex{});
  w.bx.assign(static_cast<size_t>(S) * C, 0.0);  // row j the composition of basis point j
  w.bc.assign(S, 0.0);
  for (int j = 0; j < S; ++j) {
    w.basis[j] = {-1, static_cast<size_t>(cd.free_el[j]), 0.0};
    w.bx[j * C + cd.free_el[j]] = 1;
    w.bc[j] = kFakeG;
  }
  for (auto* v : {&w.rhs, &w.f, &w.pi, &w.d, &w.col}) v->assign(S, 0.0);
  for (auto* v : {&w.B, &w.LU, &w.BT}) v->assign(static_cast<size_t>(S) * S, 0.0);
  w.piv.assign(S, 0);
  w.piv2.assign(S, 0);
  w.rhs[0] = 1;
  for (int r = 0; r + 1 < S; ++r) w.rhs[r + 1] = cd.b[r];
}

// The basis matrix B of the basis points' columns, its LU factors, the fractions f (B f = rhs) and π (B^T π = c_B,
// by a second factorisation: S is tiny). False when B is singular.
bool factor_basis(const Simplex& sx) {
  EquilibriumSolver::Impl::HullWork& w = sx.w;
  const int S = sx.S;
  for (int j = 0; j < S; ++j) {
    column(sx, &w.bx[j * sx.C], w.col.data());
    for (int i = 0; i < S; ++i) w.B[i * S + j] = w.col[i];
  }
  w.LU = w.B;
  if (!lu_factor(w.LU.data(), S, w.piv.data())) return false;
  w.f = w.rhs;
  lu_solve(w.LU.data(), S, w.piv.data(), w.f.data());
  for (int i = 0; i < S; ++i)
    for (int j = 0; j < S; ++j) w.BT[i * S + j] = w.B[j * S + i];
  lu_factor(w.BT.data(), S, w.piv2.data());
  w.pi = w.bc;
  lu_solve(w.BT.data(), S, w.piv2.data(), w.pi.data());
  return true;
}

// The variable index of a hull point: its global grid index, the fake points after the grid.
size_t var_index(const Simplex& sx, const HullVertex& v) {
  return v.phase < 0 ? sx.total + v.point : sx.w.offs[v.phase] + v.point;
}

bool basic(const Simplex& sx, size_t k) {
  return std::any_of(sx.w.basis.begin(), sx.w.basis.end(), [&](const HullVertex& v) { return var_index(sx, v) == k; });
}

// Each block's lower bound of its reduced costs at the new π: its smallest cost less the largest π·column over its
// ranges, and its smallest reduced cost when last priced less the largest change since; then the order in which
// the blocks are priced: the block of the smallest bound first (it sets a low best at once), then the others in
// order (no block at all when no phase can hold the system's elements: only the fake points price).
void bound_blocks(const Simplex& sx) {
  EquilibriumSolver::Impl::HullWork& w = sx.w;
  const std::vector<double>& pi = w.pi;
  const int S = sx.S, R = sx.R;
  const size_t nblk = sx.nblk;
  for (size_t b = 0; b < nblk; ++b) {
    const double* lo = &sx.im.hull_block_lo[b * R];
    const double* hi = &sx.im.hull_block_hi[b * R];
    if (!w.pi_prev.empty()) {
      double c = pi[0] - w.pi_prev[0], h = 0;
      for (int r = 1; r < S; ++r) {
        const double dr = pi[r] - w.pi_prev[r];
        c += dr * 0.5 * (lo[r - 1] + hi[r - 1]);
        h += std::fabs(dr) * 0.5 * (hi[r - 1] - lo[r - 1]);
      }
      w.blk_drift[b] += std::fabs(c) + h;
    }
    double bound = sx.im.hull_block_cmin[b] - pi[0];
    double scale = sx.im.hull_block_cmax[b] + std::fabs(pi[0]) + w.blk_drift[b];
    for (int r = 1; r < S; ++r) {
      bound -= std::max(pi[r] * lo[r - 1], pi[r] * hi[r - 1]);
      scale += std::fabs(pi[r]) * std::max(std::fabs(lo[r - 1]), std::fabs(hi[r - 1]));
    }
    w.blk_bound[b] = std::max(bound, w.blk_min[b] - w.blk_drift[b]);
    w.blk_margin[b] = 1e-9 * scale;
    if (!(w.blk_bound[b] == w.blk_bound[b]))
      w.blk_bound[b] = -std::numeric_limits<double>::infinity();  // NaN: price it
  }
  w.pi_prev = pi;
  size_t first = 0;
  for (size_t b = 1; b < nblk; ++b)
    if (w.blk_bound[b] < w.blk_bound[first]) first = b;
  if (nblk) w.blk_seq[0] = static_cast<uint32_t>(first);
  for (size_t b = 0, j = 1; b < nblk; ++b)
    if (b != first) w.blk_seq[j++] = static_cast<uint32_t>(b);
}

// Prices block b: the reduced costs of its points row after row (loops the compiler vectorises), their smallest,
// and the entering candidate (position bk, reduced cost best) updated from them.
void price_block(Simplex& sx, size_t b, double& best, size_t& bk) {
  EquilibriumSolver::Impl::HullWork& w = sx.w;
  const double* cols = block_columns(sx, b);
  const std::vector<uint32_t>& order = sx.run.grid.hull_order;
  const std::vector<double>& pi = w.pi;
  const int S = sx.S;
  const size_t total = sx.total;
  double red[kHullBlock];
  const size_t k0 = b * kHullBlock;
  const size_t n = std::min(kHullBlock, total - k0);
  const double* co = cols;
  const double pi0 = pi[0];
  for (size_t q = 0; q < n; ++q) red[q] = co[q] - pi0;
  for (int r = 1; r < S; ++r) {
    const double pr = pi[r];
    const double* cr = cols + static_cast<size_t>(r) * kHullBlock;
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
  // a basis point does not enter again; Bland's rule after a run of pivots that do not move (kDegenerateRun)
  if (sx.bland) {
    const double negative = -std::max(1e-8, w.blk_margin[b]);
    for (size_t q = 0; q < n; ++q)
      if (red[q] < negative && (bk == total || order[k0 + q] < order[bk]) && !basic(sx, order[k0 + q])) {
        bk = k0 + q;
        best = red[q];
      }
  } else if (bmin < best || (bmin == best && bk < total)) {
    for (size_t q = 0; q < n; ++q)
      if (!(red[q] < best || (red[q] == best && bk < total && order[k0 + q] < order[bk])))
        continue;
      else if (!basic(sx, order[k0 + q])) {
        best = red[q];
        bk = k0 + q;
      }
  }
  w.blk_min[b] = bmin;
  w.blk_drift[b] = 0;
  ++sx.priced;
}

// The entering point: the most negative reduced cost (below best = -1e-8 on entry) over every grid point (columns
// and costs laid out by lay_out_columns), the first grid point of it on a tie; its position, or total when none.
// Block by block (a block stays in the first-level cache), and a block whose bound stays above the best found is
// not priced: none of its points can be chosen, so the pivots are those of pricing every point.
size_t choose_entering(Simplex& sx, double& best) {
  bound_blocks(sx);
  size_t bk = sx.total;
  for (const uint32_t b : sx.w.blk_seq) {
    if (!sx.bland && sx.w.blk_bound[b] > best + sx.w.blk_margin[b]) continue;
    price_block(sx, b, best, bk);
  }
  return bk;
}

// The ratio test for the entering column d = B^-1 (1, a_c·x): the basis row that leaves (-1 when the problem is
// unbounded) and its step theta; of tied rows under Bland's rule the one of the smallest variable index.
int leaving_row(const Simplex& sx, double& theta) {
  const EquilibriumSolver::Impl::HullWork& w = sx.w;
  int leave = -1;
  theta = std::numeric_limits<double>::infinity();
  for (int j = 0; j < sx.S; ++j)
    if (w.d[j] > 1e-12) {
      double t = std::max(w.f[j], 0.0) / w.d[j];
      if (t < theta || (sx.bland && t == theta && var_index(sx, w.basis[j]) < var_index(sx, w.basis[leave]))) {
        theta = t;
        leave = j;
      }
    }
  return leave;
}

// Counts the pivots in a row that lower the objective Σ f_j c_j of the basis by less than its rounding, and
// switches Bland's rule on after kDegenerateRun of them, off after one that lowers it more.
void track_degeneracy(Simplex& sx, double theta, double best) {
  double objective = 0;  // Σ f_j c_j of the basis before the pivot
  for (int j = 0; j < sx.S; ++j) objective += std::max(sx.w.f[j], 0.0) * sx.w.bc[j];
  if (theta * -best > 1e-12 * (1 + std::fabs(objective))) {
    sx.degenerate_run = 0;
    sx.bland = false;
  } else if (++sx.degenerate_run >= kDegenerateRun) {
    sx.bland = true;
  }
}

// The hull found: the basis points with their fractions, and μ of the free elements from π (x-rows expressed per
// element, §8.7 step 2).
void hull_answer(const Simplex& sx, std::vector<HullVertex>& verts) {
  const EquilibriumSolver::Impl::HullWork& w = sx.w;
  const Conds& cd = sx.cd;
  const int C = sx.C, S = sx.S;
  verts.clear();
  for (int j = 0; j < S; ++j) verts.push_back({w.basis[j].phase, w.basis[j].point, w.f[j]});
  std::vector<double>& mu = sx.run.mu;
  mu.assign(C, 0.0);
  for (int A = 0; A < C; ++A) {
    if (cd.fixed[A]) {
      mu[A] = cd.mufix[A];
      continue;
    }
    double v = w.pi[0];
    for (int r = 0; r + 1 < S; ++r) v += w.pi[r + 1] * cd.a[r][A];
    mu[A] = v;
  }
}

// Revised simplex: rows sum f = 1 and each linear condition; columns the grid points (per mole of atoms) and the
// fake points e_A of the free elements. Each iteration factors the basis, prices the grid for the most negative
// reduced cost and pivots it in by the ratio test, until no point prices below -1e-8. On the columns of the
// workspaces, laid out anew unless current.
bool simplex_hull(Run& run, std::vector<HullVertex>& verts, Reason& why) {
  const Conds& cd = run.cd;
  const int S = 1 + static_cast<int>(cd.a.size());
  const int nfree = static_cast<int>(cd.free_el.size());
  if (S != nfree) {
    why = {"phase rule: conditions do not match the number of free chemical potentials"};
    return false;
  }
  const size_t total = run.grid.total;
  Simplex sx{run, cd, run.im, run.im.hull, run.C, S, S - 1, total, (total + kHullBlock - 1) / kHullBlock};
  std::vector<size_t>& offs = sx.w.offs;  // first global index of each phase
  offs.assign(run.grid.ph.size() + 1, 0);
  for (size_t p = 0; p < run.grid.ph.size(); ++p) offs[p + 1] = offs[p] + run.grid.ph[p].np;
  const std::vector<uint32_t>& order = run.grid.hull_order;
  if (order.size() != total) {
    why = {"the grid has no hull order (sort_for_hull)"};
    return false;
  }
  if (!columns_current(sx)) lay_out_columns(sx);
  start_simplex(sx);
  EquilibriumSolver::Impl::HullWork& w = sx.w;
  for (int it = 0; it < 1000; ++it) {
    if (!factor_basis(sx)) {
      why = {"degenerate simplex in the convex hull"};
      return false;
    }
    double best = -1e-8;
    const size_t bk = choose_entering(sx, best);
    if (bk == total) {
      if (debug_level() >= 1)
        std::fprintf(stderr, "hull: %d simplex iterations over %zu grid points (%zu of %zu blocks priced)\n", it + 1,
                     total, sx.priced, static_cast<size_t>(it + 1) * sx.nblk);
      hull_answer(sx, verts);
      return true;
    }
    const size_t k = order[bk];
    const int bp = static_cast<int>(std::upper_bound(offs.begin(), offs.end(), k) - offs.begin()) - 1;
    const size_t bq = k - offs[bp];
    const double* xq = &run.grid.ph[bp].X[bq * sx.C];
    column(sx, xq, w.d.data());
    lu_solve(w.LU.data(), S, w.piv.data(), w.d.data());
    double theta;
    const int leave = leaving_row(sx, theta);
    if (leave < 0) {
      why = {"unbounded convex hull problem"};
      return false;
    }
    track_degeneracy(sx, theta, best);
    w.basis[leave] = {bp, bq, 0.0};
    std::copy(xq, xq + sx.C, &w.bx[static_cast<size_t>(leave) * sx.C]);
    w.bc[leave] = cost_of(sx, xq, run.im.gridG[bp][bq]);
  }
  why = {"convex hull iteration limit"};
  return false;
}

// Costs and columns of more than this many bytes are released after each hull. They serve again only a cold start at
// the same (T, P) and kinds of conditions (a batch of compositions at one temperature), and a 7-component steel's
// costs of 600,000 grid points take 5 MB beside its grid, while the one cold start of a line, a Scheil path or a point
// calculation never reads them again. Smaller systems keep theirs.
constexpr size_t kKeptColumnBytes = size_t(4) << 20;

void release_columns(EquilibriumSolver::Impl& im) {
  for (std::vector<double>* v :
       {&im.hull_cols, &im.hull_costs, &im.hull_block_lo, &im.hull_block_hi, &im.hull_block_cmin, &im.hull_block_cmax})
    std::vector<double>().swap(*v);
  std::vector<int32_t>().swap(im.hull_block_slot);
}

}  // namespace

bool hull(Run& run, std::vector<HullVertex>& verts, Reason& why) {
  const bool found = simplex_hull(run, verts, why);
  if ((run.im.hull_cols.size() + run.im.hull_costs.size()) * sizeof(double) > kKeptColumnBytes) release_columns(run.im);
  return found;
}

}  // namespace pd::solver::detail
