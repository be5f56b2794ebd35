// Maxima of the driving force between the sampled points of phases with several basins.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "solver/solver_internal.hpp"

namespace pd::solver::detail {

// Local maxima of the driving force missed by the grid (our addition to §8.7, after the grid re-scan of
// §8.5 finds no point above the tangent hyperplane). For a phase with several basins (PhaseInfo::
// several_basins) a narrow one - an ordered state with antisite atoms, a B2 with constitutional vacancies -
// can fall between the sampled points: no point lies above the hyperplane although the phase's relaxed
// maximum does, and the metastable set relaxed from the single best point sits in another basin (e.g.
// alni_tough_chempot, 1560.7 K, X(NI) = 0.8369: the best B2 grid point has DF = -518 J/mol, its basin's
// maximum +191 J/mol; the cold start gave L12 + L12#2, 170 J/mol above B2 + L12). Here the phase is relaxed
// at the final μ (Newton on G_f - μ·M, §9.2) from its best mutually distant grid points within a window of
// the hyperplane; a new maximum with DF > kDFAdd gets a composition set (returns true: solve again), and a
// phase without a stable set keeps its best maximum as its metastable set (its reported DF is the largest
// found). The relaxations of a phase stop once two in a row end in known maxima (the starts are taken best
// first; ordering variants of one state count as known: same DF and composition). If Newton then fails
// with the new set, the caller keeps the converged state from before.
//
// A start from which the driving force rises all the way to a maximum that a relaxation has ended in lies in
// that maximum's basin and is not relaxed (uphill_to_known): the best grid points around a disordered set are
// slightly ordered states of its own basin, and an ordered basin behind them was never tried (Ni-Pt, 760.4 K,
// x(PT) = 0.196: the L12 maximum, 0.7 J/mol above the tangent of the single A1, came after three of them; 894.5
// K, x(PT) = 0.443: L10, 21.6 J/mol, after four). A set Newton converged to is not taken for a maximum before a
// relaxation ends in it: it can be a saddle (the A2 state of B2_BCC next to its second-order transition, Al-Fe
// at 1539.6 K, x(FE) = 0.6575, where B2 is 0.26 J/mol lower and a straight path from a B2 grid point to A2
// rises), nor when it is a minimum of G - μ·M: a single set inside a narrow miscibility gap is one (Cr-Fe,
// crfe_bcc_magnetic, 852.44 K, x(FE) = 0.8631: the path from a start far away rises at every grid point to that
// set, but the relaxation from it ends in the basin of x = 0.8645 next to the set and adds the gap, 1.2 mJ/mol
// lower). A relaxation that ends in another ordering variant of a known state does not count as ending in a
// known maximum. Solution phases with one mixing sublattice have one basin per miscibility gap of their excess
// energy, but a magnetic contribution can add a narrow one where the Curie temperature changes steeply with
// composition (a magnetically induced miscibility gap: Nishizawa, Hasebe and Ko, Acta Metall. 27 (1979) 817):
// Co-Cr at 723.9 K, x(CR) = 0.015 has HCP + HCP (ferromagnetic, x = 0.007) 2 J/mol below the FCC + HCP found
// from the grid, whose points miss that basin. Those phases get the window kWindow where that can happen
// (magnetic_basin_possible). Every other phase is checked too, within a window of the grid's interpolation
// error (smooth_window): a basin as wide as the excess energy makes it still has its maximum between two grid
// points, up to that much above the better of them, and next to a stable phase of nearly the same energy that
// decides the assemblage (COST507, Fe-Mg at 1791.48 K, x(MG) = 0.4975: the best grid point of the Fe-rich
// liquid has DF = -0.44 J/mol and its basin's maximum +0.76 J/mol, while the grid gave BCC + LIQUID, 0.39
// J/mol above LIQUID + LIQUID; Cu-Fe at 1120 K, x(FE) = 0.4983, with the FCC's magnetic terms far below T:
// the Fe-rich FCC at -3.3 and +6.1 J/mol).
namespace {

// The phase's magnetic contribution can make a basin narrower than its grid at this temperature: some grid
// point carries a magnetic moment with an ordering temperature T* above T / kAboveOrdering. The contribution
// changes sharply with composition only where T is near T*(x) (a magnetically induced miscibility gap ends
// close to the Curie temperature: Nishizawa, Hasebe and Ko, Acta Metall. 27 (1979) 817). Above T*, the
// Inden-Hillert-Jarl term R T ln(1+β) f(τ) (Inden, Proc. CALPHAD V (1976); Hillert and Jarl, Calphad 2 (1978)
// 227), τ = T/T*(x), adds to the curvature in composition -R ln(1+β) [2τ^-3 + (2/3)τ^-13 + (2/5)τ^-23]
// T*'(x)² / (D T) and a term in T*''(x): smooth powers of τ, at τ = 1.2 some 40% of the value at T*. There the
// phase is like any solution phase with one basin per miscibility gap of its excess energy (checked within the
// smooth window of check_basins). The largest T* of the grid points is computed once per (T,P), from the grid's
// linear tables where it has them.
bool magnetic_basin_possible(const Run& run, size_t p) {
  constexpr double kAboveOrdering = 1.2;
  const PhaseModel& model = *run.phases[p];
  if (!model.magnetic()) return false;
  double& highest = run.im.ordering_T_max[p];
  if (std::isnan(highest)) {
    const PhaseGrid& g = run.grid.ph[p];
    const PhaseModel::State& state = *run.im.states[p];
    if (g.table) {
      highest = model.magnetic_ordering_temperature_max(state, *g.table);
    } else {
      highest = 0;
      for (size_t k = 0; k < g.np; ++k)
        highest = std::max(highest, model.magnetic_ordering_temperature(state, &g.Y[k * g.m]));
    }
  }
  return run.cd.T < kAboveOrdering * highest;
}

// The driving force of the phase at site fractions y and the final μ, J/mol of atoms (-inf without atoms).
double df_at(const Run& run, size_t p, const double* y, EnergyResult& e, MolesResult& mo) {
  run.phases[p]->energy(*run.im.states[p], y, 0, e);
  run.phases[p]->moles(y, 0, mo);
  if (!(mo.Nf > 1e-12)) return -std::numeric_limits<double>::infinity();
  double df = -e.GM;
  for (int A = 0; A < run.C; ++A) df += run.mu[A] * mo.M[A] / mo.Nf;
  return df;
}

// A start lies in the basin of a maximum of its phase (one a relaxation has ended in) when the driving force
// rises along the straight path from it to that maximum, tested at points no further apart than an eighth of
// the way (a coarser test takes a start across a narrow barrier for one in the basin, the second ionic liquid of
// Cu-O at 1610 K): its relaxation would end there, so it is not tried. A start in another basin has a dip of the
// driving force on the way. With fixed site ratios the contents M and N_f are linear in y: along the path they
// are interpolated between its ends, and only the energy is evaluated at each point. The points are the
// eighths, or, on a phase with one degree of freedom (PhaseGrid::line_order not empty; the start is grid point
// `start`), the grid points on the path, whose driving forces df_all are known, with evaluated points only where
// two of them lie further apart than an eighth. There the walk ends at a grid point found uphill to the same
// maximum as a start before (rises_from[point] == that maximum): the rest of the path is that start's path,
// tested at points an eighth of its own, shorter, length apart. A start found uphill is recorded in rises_from.
struct ContentsAt {  // μ·M and N_f of a maximum's site fractions, computed once per check of a phase
  const CompSet* k;
  double mu_M, Nf;
};
bool uphill_to_known(const Run& run, size_t p, const double* y0, double df0, const std::vector<const CompSet*>& maxima,
                     size_t start, const std::vector<double>& df_all, std::vector<const CompSet*>& rises_from,
                     std::vector<ContentsAt>& contents_at, std::vector<double>& ymid, EnergyResult& e, MolesResult& mo,
                     const CompSet** rose_to) {
  constexpr double kEighth = 0.125;
  constexpr double kSame = 1e-12;  // grid points closer than this in t are one point
  const PhaseGrid& grid = run.grid.ph[p];
  const int m = grid.m, C = run.C;
  const PhaseInfo& pi = run.im.info[p];
  const bool linear_contents = !pi.variable_ratios;
  ymid.resize(m);
  double mu_M0 = 0, Nf0 = 0;  // μ·M and N_f at y0, once a point is evaluated
  bool at_y0 = false;
  for (const CompSet* k : maxima) {
    double mu_Mk = 0, Nfk = 0;
    bool at_k = false;
    // the driving force at fraction t of the way from y0 to the maximum
    auto df_along = [&](double t) {
      for (int i = 0; i < m; ++i) ymid[i] = (1 - t) * y0[i] + t * k->y[i];
      if (!linear_contents) return df_at(run, p, ymid.data(), e, mo);
      if (!at_y0) {
        run.phases[p]->moles(y0, 0, mo);
        for (int A = 0; A < C; ++A) mu_M0 += run.mu[A] * mo.M[A];
        Nf0 = mo.Nf;
        at_y0 = true;
      }
      if (!at_k) {
        auto known =
            std::find_if(contents_at.begin(), contents_at.end(), [&](const ContentsAt& c) { return c.k == k; });
        if (known == contents_at.end()) {
          run.phases[p]->moles(k->y.data(), 0, mo);
          double mu_M = 0;
          for (int A = 0; A < C; ++A) mu_M += run.mu[A] * mo.M[A];
          contents_at.push_back({k, mu_M, mo.Nf});
          known = contents_at.end() - 1;
        }
        mu_Mk = known->mu_M;
        Nfk = known->Nf;
        at_k = true;
      }
      const double Nf = (1 - t) * Nf0 + t * Nfk;
      double GM;
      run.phases[p]->energies(*run.im.states[p], ymid.data(), 1, &GM);
      return Nf > 1e-12 ? ((1 - t) * mu_M0 + t * mu_Mk) / Nf - GM : -std::numeric_limits<double>::infinity();
    };
    double prev_t = 0, prev = df0;
    // the path rises at the evaluated points strictly between prev_t and t (as many as keep them an eighth apart)
    auto rises_to = [&](double t) {
      const int n = static_cast<int>(std::ceil((t - prev_t) / kEighth - 1e-9)) - 1;
      const double from = prev_t;
      for (int j = 1; j <= n; ++j) {
        const double tj = from + (t - from) * j / (n + 1);
        const double df = df_along(tj);
        if (!(df > prev)) return false;
        prev_t = tj;
        prev = df;
      }
      return true;
    };
    bool rising = true;
    if (!grid.line_order.empty()) {
      bool joined = false;  // the walk reached a start found uphill to k before
      double s_max = 0;
      for (int i = 0; i < m; ++i) s_max += pi.Z[i] * k->y[i];
      const double s0 = grid.line_s[start];
      const long dir = s_max > s0 ? 1 : -1;
      const long np = static_cast<long>(grid.line_order.size());
      for (long r = static_cast<long>(grid.line_rank[start]) + dir; rising && r >= 0 && r < np; r += dir) {
        const size_t g = grid.line_order[r];
        const double t = (grid.line_s[g] - s0) / (s_max - s0);
        if (!(t < 1 - kSame)) break;  // at or past the maximum
        if (t - prev_t <= kSame) continue;
        rising = rises_to(t) && df_all[g] > prev;
        prev_t = t;
        prev = df_all[g];
        joined = rising && rises_from[g] == k;
        if (joined) break;
      }
      // the last point tested lies within an eighth of the maximum, as with the eighths alone
      rising = rising && (joined || rises_to(1));
      if (rising) rises_from[start] = k;
    } else {
      rising = rises_to(1);
    }
    if (rising) {
      *rose_to = k;
      return true;
    }
  }
  return false;
}

// The lowest eigenvalue of the symmetric n x n matrix A (row-major, destroyed) and its unit eigenvector
// (cyclic Jacobi rotations; n is the null-space dimension of one phase's site constraints, a few to ~20).
double lowest_eigenpair(std::vector<double>& A, int n, std::vector<double>& vec) {
  std::vector<double> V(static_cast<size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i) V[i * n + i] = 1;
  for (int sweep = 0; sweep < 60; ++sweep) {
    double off = 0, diag = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) (i == j ? diag : off) += A[i * n + j] * A[i * n + j];
    if (!(off > 1e-28 * diag)) break;
    for (int p = 0; p < n - 1; ++p)
      for (int q = p + 1; q < n; ++q) {
        const double apq = A[p * n + q];
        if (apq == 0) continue;
        const double theta = (A[q * n + q] - A[p * n + p]) / (2 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) {
          const double akp = A[k * n + p], akq = A[k * n + q];
          A[k * n + p] = c * akp - s * akq;
          A[k * n + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; ++k) {
          const double apk = A[p * n + k], aqk = A[q * n + k];
          A[p * n + k] = c * apk - s * aqk;
          A[q * n + k] = s * apk + c * aqk;
        }
        for (int k = 0; k < n; ++k) {
          const double vkp = V[k * n + p], vkq = V[k * n + q];
          V[k * n + p] = c * vkp - s * vkq;
          V[k * n + q] = s * vkp + c * vkq;
        }
      }
  }
  int j = 0;
  for (int i = 1; i < n; ++i)
    if (A[i * n + i] < A[j * n + j]) j = i;
  vec.assign(n, 0.0);
  for (int k = 0; k < n; ++k) vec[k] = V[k * n + j];
  return A[j * n + j];
}

// A stable set that Newton converged to can be a saddle of G_f - μ·M rather than its minimum: a disordered
// state is a stationary point of G by symmetry on both sides of a second-order ordering transition, and where
// its reduced Hessian has a negative eigenvalue (below the transition) an ordered state lies lower, so close
// to the disordered one in site fractions (the L10 ordering of Ni-rich fcc in alnifcc4sl: at 480 K, x(NI) =
// 0.985, sublattice pairs 0.019 apart and 1.1 J/mol below the A1 saddle) that no grid point lies in its basin
// apart from the set's own neighbours. Here the set's reduced Hessian (the null space of its site constraints,
// PhaseInfo::Z) is tested; where it is not positive definite, the driving force is searched along the
// eigenvector of its lowest eigenvalue (both ways, steps halving from the largest that keeps the site
// fractions in range) and the set relaxed at μ from the best point (Newton with the Hessian shifted to
// positive definite, linearize(), goes uphill in DF). Returns false when the set is a minimum or no point
// above the tangent is found; `minimum` tells whether the set is a minimum (its reduced Hessian positive
// definite).
bool escape_saddle(Run& run, size_t p, const CompSet& s, CompSet& out, bool& minimum) {
  const PhaseInfo& pi = run.im.info[p];
  const int m = pi.m, nz = pi.nz, n = m + 2;
  minimum = false;
  if (nz < 1 || pi.variable_ratios) return false;
  EnergyResult e;
  // the Hessian at s.y: the one of the set's last linearisation when that was at s.y (Newton linearises every set
  // at its final site fractions before it returns a converged state)
  const bool linearised_here = s.ylin == s.y && s.e.d2Gf.size() >= static_cast<size_t>(n) * n;
  if (!linearised_here) run.phases[p]->energy(*run.im.states[p], s.y.data(), 2, e);
  const std::vector<double>& d2Gf = linearised_here ? s.e.d2Gf : e.d2Gf;
  std::vector<double> HZ(static_cast<size_t>(m) * nz, 0.0), Hr(static_cast<size_t>(nz) * nz, 0.0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      const double h = d2Gf[(2 + i) * n + 2 + j];
      if (h != 0)
        for (int c = 0; c < nz; ++c) HZ[i * nz + c] += h * pi.Z[j * nz + c];
    }
  for (int a = 0; a < nz; ++a)
    for (int b = 0; b < nz; ++b) {
      double v = 0;
      for (int i = 0; i < m; ++i) v += pi.Z[i * nz + a] * HZ[i * nz + b];
      Hr[a * nz + b] = v;
    }
  std::vector<double> trial = Hr;
  minimum = cholesky(trial.data(), nz);
  if (minimum) return false;
  std::vector<double> u;
  if (!(lowest_eigenpair(Hr, nz, u) < 0)) return false;
  std::vector<double> v(m, 0.0);
  for (int i = 0; i < m; ++i)
    for (int c = 0; c < nz; ++c) v[i] += pi.Z[i * nz + c] * u[c];
  constexpr double kYFloor = 1e-12;
  MolesResult mo;
  std::vector<double> y(m), ybest;
  double best = kDFAdd;
  for (const double sign : {1.0, -1.0}) {
    double tmax = std::numeric_limits<double>::infinity();
    for (int i = 0; i < m; ++i) {
      const double d = sign * v[i];
      if (d < -1e-14)
        tmax = std::min(tmax, (s.y[i] - kYFloor) / -d);
      else if (d > 1e-14)
        tmax = std::min(tmax, (1 - kYFloor - s.y[i]) / d);
    }
    if (!std::isfinite(tmax) || !(tmax > 0)) continue;
    for (double t = 0.9 * tmax; t > 1e-8 * tmax; t *= 0.5) {
      for (int i = 0; i < m; ++i) y[i] = s.y[i] + sign * t * v[i];
      const double df = df_at(run, p, y.data(), e, mo);
      if (df > best) {
        best = df;
        ybest = y;
      }
    }
  }
  if (ybest.empty()) return false;
  out = CompSet();
  out.phase = static_cast<int>(p);
  out.y = std::move(ybest);
  relax_at_mu(run, out, 1e-7, false);  // linearised by check_basins if it is the phase's best
  out.DF = driving_force(run, out);
  if (debug_level() >= 2)
    std::fprintf(stderr, "saddle of %s: best DF on its descent line %.4g, relaxed DF %.4g\n",
                 run.phases[p]->name().c_str(), best, out.DF);
  return std::isfinite(out.DF) && out.DF > kDFAdd && !at_vacancy_floor(run, out);
}

// Permutations of a phase's equivalent sublattices (the same constituents in the same order), as maps of the
// site-fraction indices (variable i goes to sigma[i]); the identity left out, none beyond kMaxPerms. Whether
// the model is invariant under one is tested by symmetric_under.
std::vector<std::vector<int>> sublattice_permutations(const PhaseModel& pm, const PhaseInfo& pi) {
  constexpr size_t kMaxPerms = 48;
  const auto& vars = pm.variables();
  const int ns = static_cast<int>(pi.subl.size());
  auto same_constituents = [&](int a, int b) {
    if (pi.subl[a].size() != pi.subl[b].size()) return false;
    for (size_t j = 0; j < pi.subl[a].size(); ++j)
      if (vars[pi.subl[a][j]].species != vars[pi.subl[b][j]].species) return false;
    return true;
  };
  std::vector<std::vector<int>> out;
  std::vector<int> perm(ns);
  for (int a = 0; a < ns; ++a) perm[a] = a;
  // all permutations of the sublattice indices (ns is small: the mixing sublattices of one phase), kept
  // where each sublattice goes to an equivalent one
  if (ns > 8) return out;
  do {
    bool ok = true, identity = true;
    for (int a = 0; a < ns && ok; ++a) {
      ok = pi.subl[a].size() >= 2 ? same_constituents(a, perm[a]) : perm[a] == a;
      identity &= perm[a] == a;
    }
    if (!ok || identity) continue;
    std::vector<int> sigma(pi.m);
    for (int a = 0; a < ns; ++a)
      for (size_t j = 0; j < pi.subl[a].size(); ++j) sigma[pi.subl[a][j]] = pi.subl[perm[a]][j];
    out.push_back(std::move(sigma));
    if (out.size() > kMaxPerms) return {};
  } while (std::next_permutation(perm.begin(), perm.end()));
  return out;
}

// The model of phase p at the current (T, P) is invariant under sigma: energy and contents agree at a generic
// interior point and its image (an asymmetric parameter shows there; rounding is far below the tolerance).
bool symmetric_under(const Run& run, size_t p, const std::vector<int>& sigma) {
  const PhaseInfo& pi = run.im.info[p];
  std::vector<double> y(pi.m), ys(pi.m);
  uint32_t seed = 12345;
  for (const auto& sl : pi.subl) {
    double sum = 0;
    for (int i : sl) {
      seed = seed * 1664525u + 1013904223u;
      y[i] = 0.2 + 0.8 * (seed >> 8) / 16777216.0;
      sum += y[i];
    }
    for (int i : sl) y[i] /= sum;
  }
  for (int i = 0; i < pi.m; ++i) ys[sigma[i]] = y[i];
  EnergyResult e1, e2;
  MolesResult m1, m2;
  run.phases[p]->energy(*run.im.states[p], y.data(), 0, e1);
  run.phases[p]->energy(*run.im.states[p], ys.data(), 0, e2);
  run.phases[p]->moles(y.data(), 0, m1);
  run.phases[p]->moles(ys.data(), 0, m2);
  if (!std::isfinite(e1.GM) || !(std::fabs(e1.GM - e2.GM) <= 1e-7 + 1e-12 * std::fabs(e1.GM))) return false;
  if (!(std::fabs(m1.Nf - m2.Nf) <= 1e-12 * std::fabs(m1.Nf))) return false;
  for (int A = 0; A < run.C; ++A)
    if (!(std::fabs(m1.M[A] - m2.M[A]) <= 1e-12 * std::fabs(m1.Nf))) return false;
  return true;
}

}  // namespace

// One pass without branches (the compiler vectorises it), each point's sum taken -G + Σ μ_A x_A in the order of A.
void grid_df(const double* gG, const double* X, const double* mu, int C, size_t np, std::vector<double>& df) {
  df.resize(np);
  double* out = df.data();
  for (size_t k = 0; k < np; ++k) out[k] = -gG[k];
  for (int A = 0; A < C; ++A) {
    const double muA = mu[A];
    for (size_t k = 0; k < np; ++k) out[k] += muA * X[k * C + A];
  }
}

bool check_basins(Run& run, int pdens, double& added_df, int& added_phase) {
  constexpr int kStarts = 6;          // relaxations per phase and solve, at most
  constexpr int kKnownInARow = 2;     // ... stopping once this many in a row end in known maxima
  constexpr size_t kCandidates = 64;  // best grid points considered
  constexpr double kApart = 0.1;      // starts differ by this much in some site fraction
  constexpr double kWindow = 2000;    // J/mol of atoms: grid points further below the hyperplane are not tried
  // ... on a phase without narrow basins: a basin's maximum lies within half a grid spacing h = 1/pdens of a
  // grid point and at most G'' h² / 8 above it. The ideal mixing term gives at most R T / (8 pdens) (its
  // curvature R T / x at x = h; the log-spaced points nearer the ends err less); twice that leaves as much again
  // for an excess energy whose curvature is up to R T pdens.
  const double smooth_window = kGasConstant * run.cd.T / (4.0 * std::max(pdens, 1));
  const int C = run.C;
  bool added = false;
  added_df = 0;  // the largest driving force of a set added, and its phase
  added_phase = -1;
  std::vector<std::pair<double, size_t>> cand;
  std::vector<const CompSet*> rises_from;  // per grid point of a one-dimensional phase: the maximum it rises to
  std::vector<ContentsAt> contents_at;     // of the maxima a path has been tested to
  std::vector<double> ymid;                // uphill_to_known's workspaces
  EnergyResult e_mid;
  MolesResult mo_mid;
  // ydist(a, b, m) < tol, stopping at the first site fraction that differs by tol or more
  auto within = [](const double* a, const double* b, int m, double tol) {
    for (int i = 0; i < m; ++i)
      if (!(std::fabs(a[i] - b[i]) < tol)) return false;
    return true;
  };
  auto ydist = [](const double* a, const double* b, int m) {
    double d = 0;
    for (int i = 0; i < m; ++i) d = std::max(d, std::fabs(a[i] - b[i]));
    return d;
  };
  // the same maximum up to symmetry: equal driving force and composition
  auto same_state = [&](const CompSet& a, double dfa, const CompSet& b, double dfb) {
    if (std::fabs(dfa - dfb) > 1e-3) return false;
    for (int A = 0; A < C; ++A)
      if (std::fabs(a.mo.M[A] / a.Nf - b.mo.M[A] / b.Nf) > 1e-5) return false;
    return true;
  };
  for (size_t p = 0; p < run.phases.size(); ++p) {
    const PhaseInfo& pi = run.im.info[p];
    const PhaseGrid& g = run.grid.ph[p];
    if (pi.charged || g.np == 0) continue;
    if (run.single_set) {
      bool stable = false;
      for (const auto& s : run.sets) stable |= s.stable && s.phase == static_cast<int>(p);
      if (stable) continue;
    }
    const double window = pi.several_basins || magnetic_basin_possible(run, p) ? kWindow : smooth_window;
    const int m = g.m;
    std::vector<const double*> sets_of_phase;
    for (const auto& s : run.sets)
      if (s.phase == static_cast<int>(p)) sets_of_phase.push_back(s.y.data());
    // Grid points next to the phase's own sets are left out before the best are chosen: around a stable
    // disordered set the best points all lie in its own basin, and an ordered basin a little further down
    // (Ni-Pt, 712.5 K, x(PT) = 0.174: L12 0.68 J/mol below the tangent of the single FCC) would never be tried.
    cand.clear();
    const std::vector<double>& df_all = run.im.grid_df[p];  // the driving force of every grid point of the phase
    if (!g.line_order.empty()) rises_from.assign(g.np, nullptr);
    contents_at.clear();
    {
      // the points within the window first, in a loop of its own (most of a phase's grid lies below it)
      const double* df = df_all.data();
      const double lowest = -window;
      for (size_t k = 0, np = g.np; k < np; ++k)
        if (df[k] > lowest) cand.emplace_back(df[k], k);
    }
    if (!sets_of_phase.empty())
      cand.erase(std::remove_if(cand.begin(), cand.end(),
                                [&](const std::pair<double, size_t>& c) {
                                  const double* yk = &g.Y[c.second * m];
                                  return std::any_of(sets_of_phase.begin(), sets_of_phase.end(),
                                                     [&](const double* t) { return within(t, yk, m, kApart); });
                                }),
                 cand.end());
    // taken best first (of equal ones the lower grid index), and rarely more than a few: a heap gives the
    // next on demand
    auto worse = [](const std::pair<double, size_t>& a, const std::pair<double, size_t>& b) {
      return a.first < b.first || (a.first == b.first && a.second > b.second);
    };
    std::make_heap(cand.begin(), cand.end(), worse);
    size_t heap_end = cand.size();
    std::vector<const double*> taken;  // the phase's sets and the starts used
    std::vector<const CompSet*> known;
    std::vector<const CompSet*> reached;  // the known maxima a relaxation has ended in
    for (const auto& s : run.sets)
      if (s.phase == static_cast<int>(p)) {
        taken.push_back(s.y.data());
        known.push_back(&s);
      }
    std::vector<CompSet> found, variants;      // new maxima; ordering variants of known ones
    found.reserve(kStarts + run.sets.size());  // `known` points into both
    variants.reserve(kCandidates);             // at most one per candidate taken
    // stable sets at a saddle (escape_saddle): the state below them is a new maximum
    std::vector<const CompSet*> minima;  // stable sets of the phase that are minima of G - μ·M (not saddles)
    for (const auto& s : run.sets) {
      CompSet below;
      bool minimum = false;
      if (s.phase != static_cast<int>(p) || !s.stable) continue;
      const bool escaped = escape_saddle(run, p, s, below, minimum);
      if (minimum) minima.push_back(&s);
      if (!escaped) continue;
      if (ydist(below.y.data(), s.y.data(), m) < 10 * kCompTol) continue;
      found.push_back(std::move(below));
      known.push_back(&found.back());
      reached.push_back(&found.back());
    }
    // Starts relaxed so far, and where they ended: a start that is an earlier one with its equivalent
    // sublattices permuted (the ordering variants of a grid point: three of the four L12 variants of a
    // 4-sublattice fcc are starts) ends in the same permutation of that one's maximum when the model is
    // invariant under it, which is taken without relaxing (perms: the phase's sublattice permutations, found
    // when first needed; perm_ok: per permutation 0 untested, 1 the model is invariant, -1 not).
    struct RelaxedStart {
      const double* y0;
      double df0;
      std::vector<double> y;
    };
    std::vector<RelaxedStart> relaxed;
    std::vector<std::vector<int>> perms;
    std::vector<signed char> perm_ok;
    bool perms_made = false;
    std::vector<double> ys_perm;
    // the index of a permutation under which the model is invariant and which maps the start `from` (DF
    // df_from) onto y0 (DF df0); -1 if there is none
    auto symmetry_between = [&](const double* from, double df_from, const double* y0, double df0) -> int {
      if (!(std::fabs(df_from - df0) <= 1e-9 * (1 + std::fabs(df0)))) return -1;
      if (!perms_made) {
        perms = sublattice_permutations(*run.phases[p], pi);
        perm_ok.assign(perms.size(), 0);
        perms_made = true;
      }
      for (size_t q = 0; q < perms.size(); ++q) {
        const std::vector<int>& sigma = perms[q];
        bool image = true;
        for (int i = 0; i < m && image; ++i) image = std::fabs(y0[sigma[i]] - from[i]) <= 1e-13;
        if (!image) continue;
        if (perm_ok[q] == 0) perm_ok[q] = symmetric_under(run, p, sigma) ? 1 : -1;
        if (perm_ok[q] > 0) return static_cast<int>(q);
      }
      return -1;
    };
    auto permuted_start = [&](const double* y0, double df0) -> const std::vector<double>* {
      for (const RelaxedStart& r : relaxed) {
        const int q = symmetry_between(r.y0, r.df0, y0, df0);
        if (q < 0) continue;
        ys_perm.assign(m, 0.0);
        for (int i = 0; i < m; ++i) ys_perm[perms[q][i]] = r.y[i];
        return &ys_perm;
      }
      return nullptr;
    };
    // Starts found uphill to a known maximum (uphill_to_known), with that maximum: a start that is one of them
    // with its sublattices permuted rises the same way to the permuted maximum, and where a relaxation has
    // ended in that one too (within 1e-6 in every site fraction) the start is left out without evaluating the
    // path (the ordering variants of a grid point around an ordered set).
    struct UphillStart {
      const double* y0;
      double df0;
      const CompSet* to;
    };
    std::vector<UphillStart> uphill;
    auto uphill_by_symmetry = [&](const double* y0, double df0) {
      for (const UphillStart& u : uphill) {
        const int q = symmetry_between(u.y0, u.df0, y0, df0);
        if (q < 0) continue;
        ys_perm.assign(m, 0.0);
        for (int i = 0; i < m; ++i) ys_perm[perms[q][i]] = u.to->y[i];
        for (const CompSet* k : reached)
          if (ydist(k->y.data(), ys_perm.data(), m) < 1e-6) return true;
      }
      return false;
    };
    std::vector<const CompSet*> ends;
    int starts = 0, known_in_a_row = 0;
    for (size_t c = 0; c < kCandidates && heap_end > 0 && starts < kStarts && known_in_a_row < kKnownInARow; ++c) {
      std::pop_heap(cand.begin(), cand.begin() + heap_end, worse);
      const auto [df0, k0] = cand[--heap_end];
      const double* y0 = &g.Y[k0 * m];
      if (std::any_of(taken.begin(), taken.end(), [&](const double* t) { return within(t, y0, m, kApart); })) continue;
      if (uphill_by_symmetry(y0, df0)) {
        if (debug_level() >= 3)
          std::fprintf(stderr, "basin %s start DF %.3f uphill by symmetry\n", run.phases[p]->name().c_str(), df0);
        continue;
      }
      const CompSet* rose_to = nullptr;
      if (uphill_to_known(run, p, y0, df0, reached, k0, df_all, rises_from, contents_at, ymid, e_mid, mo_mid,
                          &rose_to)) {
        uphill.push_back({y0, df0, rose_to});
        continue;
      }
      taken.push_back(y0);
      CompSet s;
      s.phase = static_cast<int>(p);
      const std::vector<double>* ys = permuted_start(y0, df0);
      if (ys) {
        s.y = *ys;
        run.phases[p]->energy(*run.im.states[p], s.y.data(), 0, s.e);
        run.phases[p]->moles(s.y.data(), 0, s.mo);
        s.Gf = s.e.Gf;
        s.GM = s.e.GM;
        s.Nf = s.mo.Nf;
      } else {
        s.y.assign(y0, y0 + m);
        // to tell a new maximum from a known one and its sign: Newton's final refinement is not needed here
        // (a set that is added is refined by the next pass), nor its linearisation unless it is the best found
        // a relaxation that comes next to a stable minimum or a maximum a relaxation has ended in ends there
        ends.assign(minima.begin(), minima.end());
        ends.insert(ends.end(), reached.begin(), reached.end());
        relax_at_mu(run, s, 1e-7, false, &ends);
        relaxed.push_back({y0, df0, s.y});
        ++starts;  // only relaxations count: a permuted start costs one energy (the ordering variants of one grid
                   // point used up the starts of Ni-Pt's 4-sublattice FCC_L12 before another basin was tried)
      }
      s.DF = driving_force(run, s);
      if (debug_level() >= 2)
        std::fprintf(stderr, "basin %s start DF %.3f relaxed DF %.3f%s\n", run.phases[p]->name().c_str(), df0, s.DF,
                     ys ? " (a permuted start)" : "");
      if (!std::isfinite(s.DF) || at_vacancy_floor(run, s)) continue;
      bool is_known = false, is_variant = false;
      for (const CompSet* k : known) {
        const bool same_y = ydist(k->y.data(), s.y.data(), m) < 10 * kCompTol;
        if (same_y && std::find(reached.begin(), reached.end(), k) == reached.end()) reached.push_back(k);
        is_known |= same_y;
        is_variant |= !same_y && same_state(*k, k->stable ? 0.0 : k->DF, s, s.DF);
      }
      if (is_known) {
        ++known_in_a_row;
        continue;
      }
      if (is_variant) {
        // another ordering variant of a known state (the sublattices permuted): known from now on, so that
        // the starts in its basin are left out, but not a sign that the phase has no other basin (around an
        // ordered L12 set the best grid points are its other variants; Ni-Pt, 760.4 K, x(PT) = 0.636: L10,
        // 1.4 J/mol above the tangent, comes after two of them)
        variants.push_back(std::move(s));
        known.push_back(&variants.back());
        reached.push_back(&variants.back());
        continue;
      }
      known_in_a_row = 0;
      found.push_back(std::move(s));
      known.push_back(&found.back());
      reached.push_back(&found.back());
    }
    if (found.empty()) continue;
    auto best =
        std::max_element(found.begin(), found.end(), [](const CompSet& a, const CompSet& b) { return a.DF < b.DF; });
    linearize(run, *best, false);
    if (best->DF > kDFAdd) {
      if (debug_level() >= 1) std::fprintf(stderr, "basin of %s with DF %g\n", run.phases[p]->name().c_str(), best->DF);
      if (best->DF > added_df) {
        added_df = best->DF;
        added_phase = static_cast<int>(p);
      }
      run.sets.push_back(std::move(*best));
      added = true;
      continue;
    }
    // nothing to add: a phase without a stable set reports its best maximum
    CompSet* meta = nullptr;
    bool has_stable = false;
    for (auto& s : run.sets)
      if (s.phase == static_cast<int>(p)) {
        has_stable |= s.stable;
        if (!s.stable && (!meta || s.DF > meta->DF)) meta = &s;
      }
    if (!has_stable && meta && best->DF > meta->DF + 1e-9) *meta = std::move(*best);
  }
  return added;
}

}  // namespace pd::solver::detail
