// TEST-ONLY: PhaseModel::energy_change_bound against the real change of every grid point's energy between two
// temperatures, on a phase of a real database (the solver keeps a phase's grid at the energies of an earlier
// temperature while this bound says none of its points can have come within reach: it must never be smaller than
// the change).
#include "solver/testing/energy_bound_check.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "io/database.hpp"
#include "solver/solver_internal.hpp"

namespace pd::solver::testing {

EnergyBoundCheck check_energy_change_bound(const std::string& tdb_path, const std::string& phase,
                                           const std::vector<std::string>& components, double T0, double T1) {
  const std::shared_ptr<Database> db = Database::from_file(tdb_path);
  const std::shared_ptr<const PhaseModel> pm = PhaseModel::build(*db, phase, components);
  if (!pm) throw std::invalid_argument(phase + " cannot form from these components");
  int C = 0;
  for (const std::string& c : components) C += c == "VA" ? 0 : 1;
  const detail::PhaseInfo pi = detail::make_info(*pm);
  const PhaseGrid g = detail::sample_phase(*pm, pi, C, SolverOptions{}.pdens);
  EnergyBoundCheck out;
  out.points = g.np;
  out.magnetic = pm->magnetic();
  if (!g.table) return out;
  const auto s0 = pm->prepare(T0, 101325), s1 = pm->prepare(T1, 101325);
  std::vector<double> G0(g.np), G1(g.np);
  pm->energies(*s0, *g.table, G0.data());
  pm->energies(*s1, *g.table, G1.data());
  for (size_t k = 0; k < g.np; ++k)
    if (std::isfinite(G0[k]) && std::isfinite(G1[k]))
      out.largest_change = std::max(out.largest_change, std::fabs(G1[k] - G0[k]));
  out.bound = pm->energy_change_bound(*s0, *s1, *g.table);
  return out;
}

WarmSequence warm_sequence(const std::string& tdb_path, const std::vector<std::string>& phases,
                           const std::vector<std::string>& components, const std::vector<std::string>& x_elements,
                           const std::vector<double>& x_values, const std::vector<double>& temperatures) {
  const std::shared_ptr<Database> db = Database::from_file(tdb_path);
  std::vector<std::shared_ptr<const PhaseModel>> models;
  for (const std::string& phase : phases)
    if (auto pm = PhaseModel::build(*db, phase, components)) models.push_back(pm);
  if (models.empty()) throw std::invalid_argument("no phase can form from these components");
  EquilibriumSolver solver(models, std::vector<double>(models.front()->elements().size(), 1.0));
  const uint64_t stale_before = detail::stale_grid_count().load();
  const uint64_t spared_before = detail::spared_scan_count().load();
  const uint64_t violations_before = detail::spared_scan_violations().load();
  const uint64_t linearizations_before = detail::linearization_count().load();
  WarmSequence out;
  WarmStart state;
  bool have_state = false;
  for (double T : temperatures) {
    Conditions c;
    c.T = T;
    for (size_t i = 0; i < x_elements.size(); ++i) c.conds.push_back({Condition::X, x_elements[i], x_values[i]});
    WarmStart end;
    const EquilibriumResult r = solver.solve(c, have_state ? &state : nullptr, &end);
    have_state = r.converged;
    if (have_state) state = end;
    WarmSequence::Point p;
    p.converged = r.converged;
    for (const CompSetResult& s : r.stable) {
      p.phases.push_back(s.phase);
      p.amounts.push_back(s.NP);
    }
    p.mu = r.mu;
    p.GM = r.GM;
    out.points.push_back(std::move(p));
  }
  out.stale_grids = detail::stale_grid_count().load() - stale_before;
  out.spared_scans = detail::spared_scan_count().load() - spared_before;
  out.spared_scan_violations = detail::spared_scan_violations().load() - violations_before;
  out.linearizations = detail::linearization_count().load() - linearizations_before;
  return out;
}

}  // namespace pd::solver::testing
