// The grid energies of the phases at one (T,P) (§8.7), kept from an earlier (T,P) while the model bounds their change
// well below the tangent hyperplane, and shared between the solvers of one grid. See solver_internal.hpp.
#include <cmath>
#include <cstdlib>
#include <limits>
#include <mutex>

#include "solver/solver_internal.hpp"

namespace pd::solver::detail {

namespace {

// Grids smaller than this are evaluated at every (T,P): keeping them costs more than it saves.
constexpr size_t kStaleGridPoints = 2000;

// Phase p's grid energies at im.states[p], with the state they are of. Its re-scan record (grid_scan.cpp) holds for
// them widened by `widen` (the bound of the energies' change from those it was of), or is dropped (inf).
void compute_grid_energies(const PhaseModel& pm, const PhaseGrid& g, EquilibriumSolver::Impl& im, size_t p,
                           double widen = std::numeric_limits<double>::infinity()) {
  im.gridG[p].assign(g.np, 0.0);
  if (g.np && g.table)
    pm.energies(*im.states[p], *g.table, im.gridG[p].data());
  else if (g.np)
    pm.energies(*im.states[p], g.Y.data(), g.np, im.gridG[p].data());
  im.grid_bound[p] = 0;
  im.grid_states[p] = g.np >= kStaleGridPoints && g.table ? pm.prepare(im.T, im.P) : nullptr;
  const bool carried = im.grid_states[p] && std::isfinite(widen);
  im.grid_df_max[p] = carried ? im.grid_df_max[p] + widen : std::numeric_limits<double>::infinity();
  im.grid_scan_drift[p] = carried ? im.grid_scan_drift[p] + widen : std::numeric_limits<double>::infinity();
}

// How far phase p's table energies at im.states[p] may lie from those it holds, of im.grid_states[p], given the
// model's bound of the change of its energies (`change`): the rounding of both tables added.
double held_energies_widening(const PhaseModel& pm, const PhaseGrid& g, const EquilibriumSolver::Impl& im, size_t p,
                              double change) {
  return change + pm.energy_rounding_bound(*im.grid_states[p], *g.table) + im.grid_rounding[p];
}

// Phase p may keep the energies of an earlier (T,P): its grid was far below the tangent hyperplane at the last
// re-scan, and stays so by the bound of the change of its energies since; sets im.grid_bound[p]. `change` receives
// that bound when the phase has a re-scan record (inf otherwise).
bool stale_grid_phase(const PhaseModel& pm, const PhaseGrid& g, EquilibriumSolver::Impl& im, size_t p, double& change) {
  change = std::numeric_limits<double>::infinity();
  // PHASEDESK_SOLVER_CURRENT_GRIDS: every grid at every (T,P) and every point at every re-scan (grid_scan.cpp), as
  // before these economies (tests compare the two; read at each call, so that a test may switch it in its process)
  if (std::getenv("PHASEDESK_SOLVER_CURRENT_GRIDS") != nullptr) return false;
  if (!im.grid_states[p] || !std::isfinite(im.grid_df_max[p])) return false;
  change = pm.energy_change_bound(*im.grid_states[p], *im.states[p], *g.table);
  if (!(im.grid_df_max[p] < -kStaleGridMargin)) return false;
  if (!(im.grid_df_max[p] + change + im.grid_rounding[p] < -kStaleGridMargin)) return false;
  im.grid_bound[p] = change;
  stale_grid_count().fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace

std::atomic<uint64_t>& stale_grid_count() {
  static std::atomic<uint64_t> count{0};
  return count;
}

void refresh_grid_energies(const Run& run, size_t p) {
  if (run.im.grid_bound[p] == 0) return;
  const PhaseModel& pm = *run.phases[p];
  const PhaseGrid& g = run.grid.ph[p];
  compute_grid_energies(pm, g, run.im, p, held_energies_widening(pm, g, run.im, p, run.im.grid_bound[p]));
}

void refresh_grid_energies(const Run& run) {
  for (size_t p = 0; p < run.phases.size(); ++p) refresh_grid_energies(run, p);
}

// (T,P)-dependent caches: prepared model states and the grid energies (§8.7), reused while T,P repeat. Energies are
// shared with the other solvers of the grid only when every phase's are current.
void prepare_TP(const std::vector<std::shared_ptr<const PhaseModel>>& phases, const Grid& grid,
                EquilibriumSolver::Impl& im, double T, double P) {
  if (im.T == T && im.P == P && im.states.size() == phases.size()) return;
  im.T = T;
  im.P = P;
  im.states.clear();
  // resize, not reassign: the energy arrays keep their storage from one (T,P) to the next (a line of
  // temperatures otherwise frees and re-allocates, page by page, a large block per condition)
  im.gridG.resize(phases.size());
  im.grid_states.resize(phases.size());
  im.grid_bound.resize(phases.size(), 0.0);
  im.grid_rounding.assign(phases.size(), 0.0);
  im.grid_df_max.resize(phases.size(), std::numeric_limits<double>::infinity());
  im.grid_df_mu.resize(phases.size());
  im.grid_tier.resize(phases.size());
  im.grid_tier_count.resize(phases.size());
  im.grid_scan_drift.resize(phases.size(), std::numeric_limits<double>::infinity());
  im.grid_scan_tiers.resize(phases.size(), 0);
  im.ordering_T_max.assign(phases.size(), std::numeric_limits<double>::quiet_NaN());
  bool shared = false;
  {
    std::lock_guard<std::mutex> lock(grid.energies_mutex);
    if (grid.energies_T == T && grid.energies_P == P && grid.energies.size() == phases.size()) {
      for (size_t p = 0; p < phases.size(); ++p) im.gridG[p].assign(grid.energies[p].begin(), grid.energies[p].end());
      shared = true;
    }
  }
  bool all_current = true;
  for (size_t p = 0; p < phases.size(); ++p) {
    throw_if_cancelled();  // the grid energies of a large system take a noticeable time per new (T,P)
    im.states.push_back(phases[p]->prepare(T, P));
    const PhaseGrid& g = grid.ph[p];
    if (g.np && g.table) im.grid_rounding[p] = phases[p]->energy_rounding_bound(*im.states[p], *g.table);
    if (shared) {  // the energies compute_grid_energies gives, computed by another thread
      im.grid_bound[p] = 0;
      im.grid_states[p] = g.np >= kStaleGridPoints && g.table ? phases[p]->prepare(T, P) : nullptr;
      im.grid_df_max[p] = std::numeric_limits<double>::infinity();
      im.grid_scan_drift[p] = std::numeric_limits<double>::infinity();
      continue;
    }
    double change = 0;
    if (stale_grid_phase(*phases[p], g, im, p, change)) {
      all_current = false;
      continue;
    }
    compute_grid_energies(*phases[p], g, im, p,
                          std::isfinite(change) ? held_energies_widening(*phases[p], g, im, p, change) : change);
  }
  if (!shared && all_current) {
    std::lock_guard<std::mutex> lock(grid.energies_mutex);
    grid.energies.resize(phases.size());
    for (size_t p = 0; p < phases.size(); ++p) grid.energies[p].assign(im.gridG[p].begin(), im.gridG[p].end());
    grid.energies_T = T;
    grid.energies_P = P;
  }
}

bool prepare_models_only(const std::vector<std::shared_ptr<const PhaseModel>>& phases, EquilibriumSolver::Impl& im,
                         double T, double P) {
  if (im.gridG.size() != phases.size()) return false;  // seed_metastable reads them
  if (im.T == T && im.P == P && im.states.size() == phases.size()) return true;
  im.states.clear();
  for (const auto& pm : phases) {
    throw_if_cancelled();
    im.states.push_back(pm->prepare(T, P));
  }
  // the grid energies are not of (T,P): the next prepare_TP, even at this (T,P), computes or carries them
  im.T = std::numeric_limits<double>::quiet_NaN();
  im.P = std::numeric_limits<double>::quiet_NaN();
  return true;
}

}  // namespace pd::solver::detail
