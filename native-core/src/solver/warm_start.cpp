// Warm starts: composition sets and μ from a neighbouring converged state, and the line predictor.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "solver/solver_internal.hpp"

namespace pd::solver {

WarmStart WarmStart::from_result(const EquilibriumResult& r) {
  WarmStart w;
  if (!r.converged) return w;
  for (const auto& s : r.stable) w.sets.push_back({s.phase_index, true, s.NP, s.y});
  for (const auto& s : r.metastable) w.sets.push_back({s.phase_index, false, 0.0, s.y});
  w.mu = r.mu;
  return w;
}

namespace detail {

// Warm start (SolverOptions::warm_start): composition sets and μ from the converged state of a
// neighbouring condition instead of the hull (§8.7). Stable sets keep their site fractions and amounts
// (renormalised to N = 1, converted to formula units as in §8.5), metastable sets their relaxed site
// fractions (checked against the grid once more at the final μ, see solve_impl); every phase without a
// set gets one from seed_metastable at the previous μ. Returns false if the state does not fit.
bool warm_sets(Run& run, const WarmStart& w) {
  const int C = run.C;
  if (static_cast<int>(w.mu.size()) != C) return false;
  double tot = 0;
  for (const auto& ws : w.sets) {
    if (ws.phase_index < 0 || ws.phase_index >= static_cast<int>(run.phases.size())) return false;
    if (static_cast<int>(ws.y.size()) != run.grid.ph[ws.phase_index].m) return false;
    for (double v : ws.y)
      if (!std::isfinite(v)) return false;
    if (ws.stable) {
      if (!(ws.NP >= 0) || !std::isfinite(ws.NP)) return false;
      tot += std::max(ws.NP, 1e-10);
    }
  }
  if (!(tot > 0)) return false;
  // more stable sets than the phase rule allows (a start from other conditions, e.g. with fixed μ)
  int nstable = 0;
  for (const auto& ws : w.sets) nstable += ws.stable;
  if (nstable > static_cast<int>(run.cd.free_el.size())) return false;
  for (double v : w.mu)
    if (!std::isfinite(v)) return false;
  run.mu = w.mu;
  for (int A = 0; A < C; ++A)
    if (run.cd.fixed[A]) run.mu[A] = run.cd.mufix[A];
  MolesResult mo;
  if (run.single_set) {
    // a state with a miscibility gap (computed without single_set) does not fit a single-set solve
    std::vector<int> n(run.phases.size(), 0);
    for (const auto& ws : w.sets)
      if (ws.stable && ++n[ws.phase_index] > 1) return false;
  }
  for (const auto& ws : w.sets) {
    CompSet s;
    s.phase = ws.phase_index;
    s.y = ws.y;
    for (double& v : s.y) v = std::min(1.0, std::max(v, kYMin));
    s.stable = ws.stable;
    if (s.stable) {
      run.phases[s.phase]->moles(s.y.data(), 0, mo);
      if (!(mo.Nf > 1e-10)) return false;
      s.aleph = std::max(ws.NP, 1e-10) / tot / mo.Nf;
    }
    run.sets.push_back(std::move(s));
  }
  return true;
}

// Gives every phase without a composition set a metastable one at its grid point of largest driving force
// at the current μ (as the cold start does with the hull's μ, §8.5 "before the first solve").
void seed_metastable(Run& run) {
  const int C = run.C;
  std::vector<int> used(run.phases.size(), 0);
  for (const auto& s : run.sets) used[s.phase] = 1;
  for (size_t p = 0; p < run.phases.size(); ++p) {
    const PhaseGrid& g = run.grid.ph[p];
    if (used[p] || g.np == 0) continue;
    double best = -std::numeric_limits<double>::infinity();
    size_t q = 0;
    const double* gG = run.im.gridG[p].data();  // local pointers: the loop keeps df in a register
    const double* gX = g.X.data();
    const double* mu = run.mu.data();
    for (size_t k = 0; k < g.np; ++k) {
      double df = -gG[k];
      for (int A = 0; A < C; ++A) df += mu[A] * gX[k * C + A];
      if (df > best && std::isfinite(df)) {
        best = df;
        q = k;
      }
    }
    if (!std::isfinite(best)) continue;
    CompSet s;
    s.phase = static_cast<int>(p);
    g.copy_point(q, s.y);
    run.sets.push_back(std::move(s));
  }
}

// Linear predictor along a line (warm start): when the conditions of three consecutive points lie on a
// line (c - b = alpha (b - a), e.g. equal temperature steps), the state of the next point is extrapolated
// from the two previous converged states with the same composition sets: y, amounts and μ move by alpha
// times their last change. Newton then starts about one order of convergence closer (one iteration
// fewer); the answer is certified and, if need be, redone cold exactly as for a plain warm start.
bool predict(const WarmStart& a, const Conditions& ca, const WarmStart& b, const Conditions& cb, const Conditions& c,
             WarmStart& out) {
  if (ca.conds.size() != c.conds.size() || cb.conds.size() != c.conds.size()) return false;
  std::vector<double> d0{cb.T - ca.T, cb.P - ca.P}, d1{c.T - cb.T, c.P - cb.P};
  for (size_t k = 0; k < c.conds.size(); ++k) {
    if (ca.conds[k].kind != c.conds[k].kind || cb.conds[k].kind != c.conds[k].kind ||
        ca.conds[k].element != c.conds[k].element || cb.conds[k].element != c.conds[k].element)
      return false;
    d0.push_back(cb.conds[k].value - ca.conds[k].value);
    d1.push_back(c.conds[k].value - cb.conds[k].value);
  }
  double dd = 0, d01 = 0, n1 = 0;
  for (size_t k = 0; k < d0.size(); ++k) {
    dd += d0[k] * d0[k];
    d01 += d0[k] * d1[k];
    n1 = std::max(n1, std::fabs(d1[k]));
  }
  if (!(dd > 0) || !(n1 > 0)) return false;
  const double alpha = d01 / dd;
  if (!(alpha > 0) || alpha > 2) return false;
  for (size_t k = 0; k < d0.size(); ++k)
    if (std::fabs(d1[k] - alpha * d0[k]) > 1e-9 * n1) return false;
  if (a.sets.size() != b.sets.size() || a.mu.size() != b.mu.size()) return false;
  for (size_t k = 0; k < a.sets.size(); ++k)
    if (a.sets[k].phase_index != b.sets[k].phase_index || a.sets[k].stable != b.sets[k].stable ||
        a.sets[k].y.size() != b.sets[k].y.size())
      return false;
  out = b;
  for (size_t k = 0; k < out.sets.size(); ++k) {
    auto& s = out.sets[k];
    for (size_t i = 0; i < s.y.size(); ++i)
      s.y[i] = std::min(1.0, std::max(kYMin, b.sets[k].y[i] + alpha * (b.sets[k].y[i] - a.sets[k].y[i])));
    if (s.stable) s.NP = std::max(1e-10, b.sets[k].NP + alpha * (b.sets[k].NP - a.sets[k].NP));
  }
  for (size_t A = 0; A < out.mu.size(); ++A) out.mu[A] = b.mu[A] + alpha * (b.mu[A] - a.mu[A]);
  return true;
}

}  // namespace detail
}  // namespace pd::solver
