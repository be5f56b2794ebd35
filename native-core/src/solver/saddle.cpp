// Stable sets at a saddle of G_f - μ·M (check_basins, basins.cpp): the state below them along the direction of
// negative curvature.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "solver/solver_internal.hpp"

namespace pd::solver::detail {

namespace {

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

}  // namespace

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
  std::vector<double> HZ, Hr;
  reduced_hessian(&d2Gf[2 * static_cast<size_t>(n) + 2], n, m, pi.Z, nz, HZ, Hr);
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

}  // namespace pd::solver::detail
