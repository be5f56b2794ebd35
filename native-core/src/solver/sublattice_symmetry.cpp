// Symmetries of a phase model under permutations of its equivalent sublattices (check_basins, basins.cpp: the
// ordering variants of one state).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "solver/solver_internal.hpp"

namespace pd::solver::detail {

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

}  // namespace pd::solver::detail
