// Certification of a Newton answer (§8.5 outer loop and our basin check): the grid is re-scanned with the final
// μ, and phases with several basins are relaxed from their best grid points, until no sampled point and no
// relaxed maximum lies above the tangent hyperplane.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "solver/solver_internal.hpp"

namespace pd::solver::detail {

namespace {

// The driving force of grid point k of phase p at run.mu with the model's own energy at its site fractions (the
// grid's energies may differ from it by the rounding of the phase's table, Impl::grid_rounding).
double exact_grid_df(const Run& run, size_t p, size_t k) {
  const PhaseGrid& g = run.grid.ph[p];
  thread_local std::vector<double> buf;
  buf.resize(g.m);
  double G = 0;
  run.phases[p]->energies(*run.im.states[p], g.point(k, buf.data()), 1, &G);
  double s = -G;
  for (int A = 0; A < run.C; ++A) s += run.mu[A] * g.X[k * run.C + A];
  return s;
}

// The best grid point of phase p by the model's own energies, into best and at: only the points whose driving
// force from the table lies within twice its rounding of the table's best can be it (each of those is taken anew
// into dfs).
// `near`: the scanned points that can lie that close to it, in the grid's order (ScanTop::near with kNearWindow).
void exact_best_point(const Run& run, size_t p, double rounding, const std::vector<uint32_t>& near,
                      std::vector<double>& dfs, double& best, size_t& at) {
  if (!(rounding > 0) || !std::isfinite(best)) return;
  const double from = best - 2 * rounding;
  best = -std::numeric_limits<double>::infinity();
  for (const uint32_t k : near) {
    if (!(dfs[k] >= from)) continue;
    dfs[k] = exact_grid_df(run, p, k);
    if (dfs[k] > best) {
      best = dfs[k];
      at = k;
    }
  }
}

// PHASEDESK_SOLVER_CHECK_SCANS (tests): the pass newton_and_rescan leaves out on the scan's top is checked against the
// points scanned: none may lie above the top, and with a window every point exact_best_point reads (within two
// roundings of the top) must be listed.
void check_top(const Run& run, size_t p, const ScanTop& top, double rounding) {
  if (!run.check_scans) return;
  const std::vector<double>& dfs = run.im.grid_df[p];
  for_each_scanned_point(run.im, p, dfs.size(), [&](size_t k) {
    const bool listed = top.window < 0 || !(dfs[k] >= top.df - 2 * rounding) ||
                        std::binary_search(top.near->begin(), top.near->end(), static_cast<uint32_t>(k));
    if (dfs[k] > top.df || !listed) spared_scan_violations().fetch_add(1);
  });
}

// The window of table driving forces, in roundings, within which the scan lists the points exact_best_point may read:
// its best lies within one rounding of the table's largest (the pass of newton_and_rescan may have taken a point's
// own value), and it reads the points within two roundings of it, each up to one rounding off its table value.
constexpr double kNearWindow = 4;

// Phase p has no stable set and a set held at its vacancy floor (PhaseGrid::nf_floor): the sets the grid re-scan gives
// it relax towards its pure-vacancy configuration, where its Gibbs energy per mole of atoms has no lower bound (the
// hull vertices of alcocrni's BCC_B2 beside a Co-Cr liquid above 2200 K), so no re-scan covers its grid points.
bool relaxes_to_vacancy_floor(const Run& run, int p) {
  bool at_floor = false;
  for (const auto& s : run.sets) {
    if (s.phase != p) continue;
    if (s.stable) return false;
    at_floor |= at_vacancy_floor(run, s);
  }
  return at_floor;
}

// Newton from the sets in `run`, then the grid re-scan with the final μ (§8.5 outer loop): a sampled point above
// the tangent hyperplane (by more than kDFGrid) that no set of its phase covers gets a set and Newton runs
// again, at most options.max_outer times. After a warm start (branch_checked false) the metastable sets also
// get one comparison with the best grid point of their phase at the final μ (pbest, pq: workspaces).
bool newton_and_rescan(Run& run, const SolverOptions& options, bool& branch_checked, std::vector<double>& pbest,
                       std::vector<size_t>& pq, Reason& why) {
  const int C = run.C;
  bool ok = false;
  for (int outer = 0; outer <= options.max_outer; ++outer) {
    ok = newton(run, options.max_iterations, why);
    if (!ok) break;
    // scan the grid with the final μ for points below the tangent hyperplane
    int bp = -1;
    size_t bq = 0;
    double bdf = kDFGrid;
    if (!branch_checked) {
      pbest.assign(run.phases.size(), -std::numeric_limits<double>::infinity());
      pq.assign(run.phases.size(), 0);
    }
    run.im.grid_df.resize(run.phases.size());
    run.im.grid_scan.resize(run.phases.size(), GridScan::kWhole);
    run.im.grid_scan_top.resize(run.phases.size(), std::numeric_limits<double>::infinity());
    for (size_t p = 0; p < run.phases.size(); ++p) {
      const PhaseGrid& g = run.grid.ph[p];
      std::vector<double>& dfs = run.im.grid_df[p];  // kept for check_basins, which runs at this μ
      if (left_out(run, static_cast<int>(p))) {
        dfs.clear();
        run.im.grid_scan[p] = GridScan::kSkipped;
        continue;
      }
      const double rounding = run.im.grid_rounding[p];
      ScanTop top;
      if (!branch_checked && rounding > 0) {
        top.window = kNearWindow * rounding;
        top.near = &run.im.grid_near;
      }
      run.im.grid_scan[p] = scan_phase(run, p, dfs, !branch_checked, top);
      if (run.im.grid_scan[p] == GridScan::kSkipped)
        continue;  // far below the hyperplane at any energies it may have now
      run.im.grid_scan_top[p] = top.df;
      if (!(top.df + rounding > bdf)) {
        // no point within the table's rounding of the best so far (a converged state's usual case): the pass below
        // would only find the phase's best point, which the scan has found
        check_top(run, p, top, rounding);
        if (!branch_checked && top.df > pbest[p]) {
          pbest[p] = top.df;
          pq[p] = top.at;
        }
        if (!branch_checked) exact_best_point(run, p, rounding, run.im.grid_near, dfs, pbest[p], pq[p]);
        continue;
      }
      for_each_scanned_point(run.im, p, g.np, [&](size_t k) {
        // a point the table's rounding may put above the best so far gets the model's own value
        if (rounding > 0 && dfs[k] + rounding > bdf) dfs[k] = exact_grid_df(run, p, k);
        const double df = dfs[k];
        if (!branch_checked && df > pbest[p]) {
          pbest[p] = df;
          pq[p] = k;
        }
        if (!(df > bdf)) return;
        bool near = false;
        if (options.single_set)
          for (const auto& s : run.sets) near |= s.phase == static_cast<int>(p) && s.stable;
        for (const auto& s : run.sets) {
          if (s.phase != static_cast<int>(p)) continue;
          double d = 0;
          for (int A = 0; A < C; ++A) d = std::max(d, std::fabs(g.X[k * C + A] - s.mo.M[A] / s.Nf));
          if (d <= kCompTol && (s.stable || s.DF >= df - 1e-6)) near = true;
        }
        if (!near) {
          bdf = df;
          bp = static_cast<int>(p);
          bq = k;
        }
      });
      if (!branch_checked) exact_best_point(run, p, rounding, run.im.grid_near, dfs, pbest[p], pq[p]);
    }
    if (bp < 0 && !branch_checked) {
      // Warm start, once: the metastable sets came relaxed from the previous condition and may sit on a
      // lower local maximum of their driving force (§9.2) than a fresh seed at the final μ finds. A phase
      // without a stable set whose best grid point beats its relaxed set(s) gets a set there, and Newton
      // relaxes it (the best set of each phase is reported).
      branch_checked = true;
      bool added = false;
      for (size_t p = 0; p < run.phases.size(); ++p) {
        if (!std::isfinite(pbest[p])) continue;
        bool has_stable = false;
        double have = -std::numeric_limits<double>::infinity();
        for (const auto& s : run.sets)
          if (s.phase == static_cast<int>(p)) {
            has_stable |= s.stable;
            have = std::max(have, s.DF);
          }
        if (has_stable || !(pbest[p] > have + kDFGrid)) continue;
        const PhaseGrid& g = run.grid.ph[p];
        CompSet s;
        s.phase = static_cast<int>(p);
        g.copy_point(pq[p], s.y);
        run.sets.push_back(std::move(s));
        added = true;
      }
      if (added) continue;
    }
    if (bp < 0) break;
    if (outer == options.max_outer) {
      ok = false;
      std::ostringstream os;
      os << "a sampled point of " << run.phases[bp]->name() << " stays below the tangent hyperplane by " << bdf
         << " J/mol after " << options.max_outer << " re-scans";
      why = {os.str()};
      if (relaxes_to_vacancy_floor(run, bp)) why.vacant_phase = bp;
      break;
    }
    CompSet s;
    s.phase = bp;
    const PhaseGrid& g = run.grid.ph[bp];
    g.copy_point(bq, s.y);
    run.sets.push_back(std::move(s));
  }
  return ok;
}

// Gibbs energy of the stable sets, J per the system's moles of atoms (formula units times G per formula unit).
double stable_gibbs_energy(const Run& run) {
  double g = 0;
  for (const auto& s : run.sets)
    if (s.stable) g += s.aleph * s.Gf;
  return g;
}

// A stable set holding less than this fraction of the atoms beside a stable set of the same phase is a candidate
// for removal (drop_negligible_twin).
constexpr double kNegligibleTwin = 1e-6;

// A second set of a phase at a negligible amount, a little off the first one's composition: a certified state
// (within kDFGrid of the minimum) that is not the equilibrium's assemblage. A warm start from a two-phase field
// next to an ordered compound leaves one at its stoichiometry: the other ordering variant of L1_0 AlTi at
// x(Ti) = 0.49995 with 1.6e-8 of the atoms (mc_al at 335 K), 3e-4 J/mol above the single set. Newton without it
// decides: the state without the set is kept when it converges, passes the grid re-scan and has no higher Gibbs
// energy; a set at the edge of a real miscibility gap keeps its place (the state without it is higher). The phase
// rule does not tell these apart: both have two sets at one composition within tolerance.
void drop_negligible_twin(Run& run, const SolverOptions& options) {
  double total = 0;
  for (const auto& s : run.sets)
    if (s.stable) total += s.aleph * s.Nf;
  int ghost = -1;
  for (size_t i = 0; i < run.sets.size() && ghost < 0; ++i) {
    const CompSet& s = run.sets[i];
    if (!s.stable || !(s.aleph * s.Nf < kNegligibleTwin * total)) continue;
    for (size_t j = 0; j < run.sets.size(); ++j)
      if (j != i && run.sets[j].stable && run.sets[j].phase == s.phase) ghost = static_cast<int>(i);
  }
  if (ghost < 0) return;
  const std::vector<CompSet> before = run.sets;
  const std::vector<double> mu_before = run.mu;
  const double g_before = stable_gibbs_energy(run);
  run.sets.erase(run.sets.begin() + ghost);
  bool branch_checked = true;
  std::vector<double> pbest;
  std::vector<size_t> pq;
  Reason why;
  const bool ok = newton_and_rescan(run, options, branch_checked, pbest, pq, why);
  if (ok && stable_gibbs_energy(run) <= g_before + 1e-9 * std::fabs(g_before)) return;
  run.sets = before;
  run.mu = mu_before;
}

}  // namespace

// Newton and the grid re-scans (newton_and_rescan), then check_basins; a new basin means one more pass (at
// most three checks). Returns true when the state in `run` is certified; false with `why` otherwise.
bool certify(Run& run, const SolverOptions& options, bool warm, Reason& why) {
  bool ok = false;
  bool branch_checked = !warm;
  std::vector<double> pbest;  // warm start: per phase the largest grid driving force at the final μ
  std::vector<size_t> pq;
  // passes: Newton + grid re-scans, then the basins of phases with several sublattices (check_basins);
  // a new basin means one more pass (at most three checks)
  std::vector<CompSet> certified;  // the converged state before a basin was added
  std::vector<double> certified_mu;
  double basin_df = 0;  // the added basin's driving force, J/mol of atoms
  int basin_phase = -1;
  constexpr double kBasinKeep = 1.0;
  for (int pass = 0;; ++pass) {
    ok = newton_and_rescan(run, options, branch_checked, pbest, pq, why);
    if (!ok && !certified.empty()) {
      // A basin found by check_basins could not be added: Newton fails with it. Next to a critical point,
      // where the new set nearly coincides with an existing one, its driving force is a fraction of a J/mol
      // and the state before, certified by the grid re-scan as every answer without the basin check, stands
      // (within that much of the minimum). A basin well above the tangent means the state before is not the
      // equilibrium: not converged, and the reason says which phase.
      if (basin_df > kBasinKeep) {
        std::ostringstream os;
        os << "phase " << run.phases[basin_phase]->name() << " has a state " << basin_df
           << " J/mol below the tangent of the equilibrium found (a basin between the sampled points), and the"
              " iteration does not converge with it ("
           << why.text << ")";
        why.text = os.str();  // the code of the failure inside it
        break;
      }
      run.sets = std::move(certified);
      run.mu = certified_mu;
      ok = true;
      break;
    }
    if (ok) drop_negligible_twin(run, options);
    if (!ok || pass >= 3) break;
    const size_t before = run.sets.size();
    if (!check_basins(run, options.pdens, basin_df, basin_phase)) break;
    certified.assign(run.sets.begin(), run.sets.begin() + before);
    certified_mu = run.mu;
  }
  return ok;
}

}  // namespace pd::solver::detail
