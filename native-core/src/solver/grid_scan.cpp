// The grid re-scan of one phase (§8.5 outer loop) with what its earlier scans tell. A whole scan's record (per phase,
// of a large grid held with a table: EquilibriumSolver::Impl::grid_df_max, grid_tier, grid_scan_drift) bounds every
// point's driving force at the scan's μ and grid energies; at another μ no point's is larger by more than the largest
// increase of a μ_A (the grid's compositions are >= 0 and sum to 1), and at other energies by more than the model's
// bound of their change (PhaseModel::energy_change_bound) and the rounding of both tables. A phase whose bound keeps
// every point below the basin check's widest window is not scanned at all; one whose bound keeps the points of its
// deeper tiers there has only its shallower tiers scanned. Either way every decision the re-scan and the basin check
// take is the whole scan's: they read only points above that window.
#include <algorithm>
#include <cmath>
#include <limits>

#include "solver/solver_internal.hpp"

namespace pd::solver::detail {

namespace {

// A whole scan sorts a phase's points into depth tiers by their driving force: tier 0 within kNearDepth of the
// hyperplane, tier t >= 1 from kNearDepth + (t - 1) kTierWidth below it down by kTierWidth, the last one everything
// deeper. A later re-scan then scans the tiers that its drift may have lifted within reach, in the grid's order.
constexpr double kNearDepth = 2 * kStaleGridMargin;
constexpr double kTierWidth = kStaleGridMargin;
constexpr int kTiers = 16;

// The largest driving force a point of tier t (>= 1) had at the phase's last whole scan.
constexpr double tier_top(int t) { return -kNearDepth - (t - 1) * kTierWidth; }

uint8_t tier_of(double df) {
  if (!(df <= -kNearDepth)) return 0;
  const double t = 1 + std::floor((-kNearDepth - df) / kTierWidth);
  return static_cast<uint8_t>(std::min<double>(t, kTiers - 1));
}

// The largest increase of a μ_A from the μ of phase p's last scan.
double largest_mu_increase(const Run& run, size_t p) {
  const std::vector<double>& before = run.im.grid_df_mu[p];
  if (before.size() != run.mu.size()) return std::numeric_limits<double>::infinity();
  double up = 0;
  for (size_t A = 0; A < before.size(); ++A) up = std::max(up, run.mu[A] - before[A]);
  return up;
}

// The largest driving force of phase p's sets at the final μ (a stable set's is 0); -inf without a set.
double best_set_df(const Run& run, size_t p) {
  double have = -std::numeric_limits<double>::infinity();
  for (const auto& s : run.sets)
    if (s.phase == static_cast<int>(p)) have = std::max(have, s.stable ? 0.0 : s.DF);
  return have;
}

// The driving force of grid point k at run.mu from the grid energies gG (as grid_df).
inline double point_df(const Run& run, const double* gG, const PhaseGrid& g, size_t k) {
  const double* x = g.X.data() + k * run.C;
  double s = -gG[k];
  for (int A = 0; A < run.C; ++A) s += run.mu[A] * x[A];
  return s;
}

// Every point scanned; the record rebuilt from it.
void whole_scan(Run& run, size_t p, std::vector<double>& dfs, ScanTop& top) {
  EquilibriumSolver::Impl& im = run.im;
  const PhaseGrid& g = run.grid.ph[p];
  grid_df(im.gridG[p].data(), g.X.data(), run.mu.data(), run.C, g.np, dfs, top);
  std::vector<uint8_t>& tier = im.grid_tier[p];
  tier.resize(g.np);
  std::vector<uint32_t>& count = im.grid_tier_count[p];
  count.assign(kTiers, 0);
  for (size_t k = 0; k < g.np; ++k) {
    tier[k] = tier_of(dfs[k]);
    ++count[tier[k]];
  }
  im.grid_df_max[p] = top.df;
  im.grid_scan_drift[p] = 0;
  im.grid_df_mu[p] = run.mu;
}

// The tiers a re-scan must scan, lifted by `lift` (the drift since the last whole scan with the rise of μ, the bound of
// kept energies and the rounding): those below stay under -kStaleGridMargin (and, with `beaten`, under the phase's
// sets). 0 when a whole scan is due: every tier within reach, or the tiers to scan hold half of the points.
template <class Beaten>
int tiers_to_scan(const EquilibriumSolver::Impl& im, size_t p, size_t np, double lift, Beaten beaten) {
  size_t points = im.grid_tier_count[p][0];
  for (int t = 1; t < kTiers; ++t) {
    const double top = tier_top(t) + lift;
    if (top < -kStaleGridMargin && !beaten(top)) return 2 * points <= np ? t : 0;
    points += im.grid_tier_count[p][t];
  }
  return 0;
}

// The points of the tiers below `tiers` scanned, the others bounded by the record's drift: `rise` is the largest
// increase of a μ_A since the last scan.
void tier_scan(Run& run, size_t p, std::vector<double>& dfs, double rise, int tiers, ScanTop& top) {
  EquilibriumSolver::Impl& im = run.im;
  const PhaseGrid& g = run.grid.ph[p];
  const double* gG = im.gridG[p].data();
  const uint8_t* tier = im.grid_tier[p].data();
  im.grid_scan_drift[p] += rise;
  double highest = tier_top(tiers) + im.grid_scan_drift[p];
  for (size_t k = 0; k < g.np; ++k) {
    if (tier[k] >= tiers) continue;
    dfs[k] = point_df(run, gG, g, k);
    highest = std::max(highest, dfs[k]);
    top.take(dfs[k], k);
  }
  im.grid_df_max[p] = highest;
  im.grid_df_mu[p] = run.mu;
}

// PHASEDESK_SOLVER_CHECK_SCANS (tests): each re-scan spared at current energies is checked against the whole scan,
// and a point it left out that lies within kStaleGridMargin of the hyperplane is counted (spared_scan_violations).
void check_spared(Run& run, size_t p, GridScan kind) {
  if (!run.check_scans || run.im.grid_bound[p] != 0) return;
  const PhaseGrid& g = run.grid.ph[p];
  std::vector<double> all;
  ScanTop unused;
  grid_df(run.im.gridG[p].data(), g.X.data(), run.mu.data(), run.C, g.np, all, unused);
  for (size_t k = 0; k < g.np; ++k) {
    const bool scanned = kind == GridScan::kNear && run.im.grid_tier[p][k] < run.im.grid_scan_tiers[p];
    if (!scanned && !(all[k] < -kStaleGridMargin)) spared_scan_violations().fetch_add(1);
  }
}

}  // namespace

// Each point's sum taken -G + Σ μ_A x_A in the order of A, point after point: the compositions are read once (a pass
// per element, which vectorised the additions, read a large grid's compositions C times from memory: a steel's
// 600,000 points are 33 MB).
void grid_df(const double* gG, const double* X, const double* mu, int C, size_t np, std::vector<double>& df,
             ScanTop& top) {
  df.resize(np);
  double* out = df.data();
  for (size_t k = 0; k < np; ++k) {
    const double* x = X + k * C;
    double s = -gG[k];
    for (int A = 0; A < C; ++A) s += mu[A] * x[A];
    out[k] = s;
    top.take(s, k);
  }
}

GridScan scan_phase(Run& run, size_t p, std::vector<double>& dfs, bool need_best, ScanTop& top) {
  const PhaseGrid& g = run.grid.ph[p];
  EquilibriumSolver::Impl& im = run.im;
  const double rounding = im.grid_rounding[p];
  const bool kept = dfs.size() == g.np;  // the values of an earlier scan, which the skipped points keep
  // a warm start compares each phase's best point with its sets (newton_and_rescan): a point left out must not beat them
  const auto beaten = [&](double top) { return need_best && top > best_set_df(run, p); };
  const double reach = im.grid_df_max[p] + largest_mu_increase(run, p) + im.grid_bound[p] + rounding;
  if (reach < -kStaleGridMargin && kept && (im.grid_bound[p] > 0 || (!beaten(reach) && !run.every_point_scanned))) {
    if (im.grid_bound[p] == 0) spared_scan_count().fetch_add(1, std::memory_order_relaxed);
    check_spared(run, p, GridScan::kSkipped);
    return GridScan::kSkipped;
  }
  for (;;) {
    top.restart();
    if (!im.grid_states[p]) {  // a grid evaluated at every (T,P): no record
      grid_df(im.gridG[p].data(), g.X.data(), run.mu.data(), run.C, g.np, dfs, top);
      return GridScan::kWhole;
    }
    const double rise = largest_mu_increase(run, p);
    const double lift = im.grid_scan_drift[p] + rise + im.grid_bound[p] + rounding;
    const int tiers = kept && g.line_order.empty() && !run.every_point_scanned && std::isfinite(lift)
                          ? tiers_to_scan(im, p, g.np, lift, beaten)
                          : 0;
    const bool near = tiers > 0;
    im.grid_scan_tiers[p] = static_cast<uint8_t>(tiers);
    if (near) {
      tier_scan(run, p, dfs, rise, tiers, top);
      spared_scan_count().fetch_add(1, std::memory_order_relaxed);
      check_spared(run, p, GridScan::kNear);
    } else
      whole_scan(run, p, dfs, top);
    const GridScan kind = near ? GridScan::kNear : GridScan::kWhole;
    const double bound = im.grid_bound[p];
    if (bound == 0) return kind;
    if (im.grid_df_max[p] + bound + rounding < -kStaleGridMargin) return GridScan::kSkipped;
    refresh_grid_energies(run, p);
  }
}

std::atomic<uint64_t>& spared_scan_count() {
  static std::atomic<uint64_t> count{0};
  return count;
}

std::atomic<uint64_t>& spared_scan_violations() {
  static std::atomic<uint64_t> count{0};
  return count;
}

}  // namespace pd::solver::detail
