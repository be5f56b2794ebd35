// Private types and steps of the equilibrium solver, shared by its translation units (solver/*.cpp); not
// part of the engine's interface (equilibrium.hpp is). The pipeline of one solve and where each step lives:
//
//   conditions.cpp   parse_conditions: EquilibriumSolver's Conditions -> linear rows (Conds)
//   sampling.cpp     make_info, sample_phase (grid of each phase, once per solver)
//   grid_energies.cpp prepare_TP (grid energies once per (T,P), kept from an earlier one within their bound)
//   hull.cpp         hull (lower convex hull by a revised simplex)
//   cold_start.cpp   cold_start (hull vertices -> sets)
//   warm_start.cpp   warm_sets, seed_metastable (a start from a neighbouring state), predict (line extrapolation)
//   newton_system.cpp linearize (per-set system), set_step, apply_step, relax_at_mu, overall, solve_global
//   feasibility.cpp  add_set (phase addition), assemblage_feasible (can the sets left meet the conditions)
//   assemblage_lp.cpp enter_least_assemblage (phase addition by a linear program over the sets, a retry's)
//   newton.cpp       newton: the iteration with phase changes
//   certify.cpp      certify: Newton, grid re-scan with the final μ and the basin check, until certified
//   grid_scan.cpp    scan_phase: one phase's grid re-scan, of the points earlier scans leave within reach
//   basins.cpp       check_basins: maxima of the driving force between the grid points
//   saddle.cpp       escape_saddle: a stable set at a saddle, and the state below it (for check_basins)
//   sublattice_symmetry.cpp  sublattice_permutations, symmetric_under: ordering variants (for check_basins)
//   results.cpp      fill_results (result, convergence verdict), dot_derivatives
//   batch.cpp        solve_batch over OpenMP threads
//   equilibrium.cpp  EquilibriumSolver: construction, solve, solve_impl (the pipeline in order)
//
// Conventions: C system elements in EquilibriumSolver::elements() order; site fractions y in
// PhaseModel::variables() order; a composition set's amount `aleph` is in formula units (NP = aleph * N_f
// moles of atoms); energies in J per formula unit (G_f) or per mole of atoms (GM, DF). Every step works on
// one Run (one solve on one thread) and the caller's EquilibriumSolver::Impl workspaces: nothing here is
// shared between threads except the immutable Grid.
// Failure modes: a step that cannot go on returns false with the Reason in `why` (becomes EquilibriumResult::reason
// and reason_code, converged = false); malformed conditions throw std::invalid_argument;
// cancellation throws pd::Cancelled (throw_if_cancelled, between phases of the grid work).
#pragma once

#include <algorithm>
#include <atomic>

#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "solver/equilibrium.hpp"
#include "solver/linalg.hpp"

namespace pd::solver {

namespace detail {
inline constexpr double kYMin = 1e-14;    // MIN_SITE_FRACTION (§10)
inline constexpr double kXClamp = 1e-10;  // condition clamp (§10)
inline constexpr double kFakeG = 1e10;    // fake hull points (§8.7)
inline constexpr double kDFAdd = 1e-5;    // J/mol of atoms, add a metastable set (§8.5)
inline constexpr double kDFGrid = 1e-4;   // J/mol of atoms, grid re-scan (§8.5)
inline constexpr double kCompTol = 1e-4;  // COMP_DIFFERENCE_TOL (§10)
inline constexpr double kNfFloorRatio =
    0.02;  // PhaseGrid::nf_floor relative to the most atoms per formula unit sampled
inline constexpr double kVacantFloorRatio = 0.5;
inline constexpr double kVacantFloorMargin =
    1e-3;  // relative: metastable sets are held this far above the floor  // ... of a phase with a pure-vacancy end member: relative to the emptiest end member with atoms
}  // namespace detail

// Sampling (§8.7): the grid of one phase.
struct PhaseGrid {
  int m = 0;
  size_t np = 0;
  // Site fractions of the points, np * m: in double (Y), or in float (Yf) for a phase whose energies come from a table
  // and whose only constraints are its site sums (a large multi-sublattice phase's grid is mostly its site
  // fractions and table). Point k is then its row of Yf renormalised per sublattice (site_sums), which point() gives:
  // its energies, composition and table were computed there, so the rounding moves the point, never its values.
  std::vector<double> Y;
  std::vector<float> Yf;
  std::vector<std::vector<int>> site_sums;
  // point k's site fractions: a pointer into Y, or buf (m values) filled from Yf and renormalised
  const double* point(size_t k, double* buf) const {
    if (Yf.empty()) return &Y[k * m];
    for (int i = 0; i < m; ++i) buf[i] = Yf[k * m + i];
    for (const auto& s : site_sums) {
      double sum = 0;
      for (int i : s) sum += buf[i];
      for (int i : s) buf[i] /= sum;
    }
    return buf;
  }
  // point k's site fractions into y (resized to m)
  void copy_point(size_t k, std::vector<double>& y) const {
    y.resize(m);
    const double* from = point(k, y.data());
    if (from != y.data()) std::copy_n(from, m, y.data());
  }
  // A phase whose site fractions have one degree of freedom (PhaseInfo::nz = 1, fixed site ratios: a binary
  // solution on one mixing sublattice): its points lie on one line in y, at the coordinate s = Z.y (line_s);
  // line_order lists them by s, line_rank gives each point's place in that list. The basin check's uphill
  // test reads the grid along the line (basins.cpp). Empty for other phases.
  std::vector<double> line_s;
  std::vector<size_t> line_order, line_rank;
  // np * C (mole fractions per mole of atoms), in double: the hull's linear program meets conditions that lie exactly
  // on a plane of compositions (an oxide's O = 0.6, M23C6's C = 6/29), which rounded compositions would leave
  std::vector<double> X;
  // Distinct compositions of the phase's end members (neutral end members and neutral pair mixtures for
  // charged phases, §8.7), nv * C: every composition the phase can take is a convex combination of them.
  // With fixed site ratios x = M(y)/N_f(y), M and N_f linear in y, maps the vertices of the constituent
  // polytope onto the vertices of the composition range; in the two-sublattice ionic liquid (§7.1) the
  // contents M(y) are a combination of the end members' contents with weights >= 0 (products of site
  // fractions: y_C y_A for C:A, y_C y_Va Q for C:Va, Q y_B for neutrals). Used by newton() to tell whether
  // a stable assemblage can still meet the linear conditions when a set leaves (§8.5).
  size_t nv = 0;
  std::vector<double> Xv;
  // GM of the points as a linear table in the parameter values (PhaseModel::compile_points): grid
  // energies at a new (T,P) are then a matrix-vector product; null = evaluate point by point.
  std::shared_ptr<const PhaseModel::PointSet> table;
  // Fewest atoms per formula unit a state of the phase may hold (0 when N_f cannot approach 0): the grid
  // leaves out points closer to the pure-vacancy configuration, and the solver rejects such states too.
  // Near it G_M = G_f / N_f falls without bound whenever G(VA:...:VA) = 0, as the configurational entropy of a
  // few atoms spread over a vacant lattice grows like -R ln N_f (e.g. alcocrni's BCC_B2 in Co-rich
  // systems above 1800 K): the "minimum" there is an artefact of the model, not a phase.
  double nf_floor = 0;
};

struct Grid {
  std::vector<PhaseGrid> ph;
  size_t total = 0;
  // The grid energies at the last (T,P) any solver sharing this grid computed (prepare_TP): the per-thread
  // copies of a batch start with empty caches, and a large grid's energies cost about a second per copy.
  mutable std::mutex energies_mutex;
  mutable double energies_T = std::numeric_limits<double>::quiet_NaN(), energies_P = energies_T;
  mutable std::vector<std::vector<double>> energies;
  // The points (global index over the phases in order) sorted by composition cell, phase by phase: the order
  // in which hull() lays out its columns (sort_for_hull)
  std::vector<uint32_t> hull_order;
};

namespace detail {

// Static per-phase data: constraint matrix and an orthonormal basis of its null space (used to test
// the reduced Hessian for positive definiteness, §12 item 10).
struct PhaseInfo {
  int m = 0, k = 0, nz = 0;
  std::vector<double> J, rhs;  // k x m
  // The linearly independent rows of J (kr of them, in order) and their right-hand sides: the per-set KKT matrix
  // of linearize needs constraints of full row rank. A dependent row (the charge balance of an ionic phase whose
  // sublattices each hold ions of one charge, implied by the site sums: CORUNDUM (AL+3)2(VA)1(O-2)3 of Al-O)
  // makes that matrix singular; elimination then divides by a rounding-sized pivot, and the step it returns is
  // rounding noise times 1e16.
  int kr = 0;
  std::vector<double> Jr, rhsr;        // kr x m
  std::vector<std::vector<int>> subl;  // variable indices per sublattice
  std::vector<double> Z;               // m x nz (row-major)
  bool charged = false;
  // two or more sublattices mixing two or more constituents each (ordered and compound-energy phases):
  // their driving force has several local maxima (ordering variants, constitutional vacancies), see
  // check_basins (basins.cpp)
  bool several_basins = false;
  // site ratios that depend on y (two-sublattice ionic liquid, §7.1): M_A(y) is not linear, so the
  // Hessian of the Lagrangian in the per-set matrix carries -sum_A μ_A ∂²M_A/∂y² (§8.2 note)
  bool variable_ratios = false;
};

// Parsed conditions: linear rows sum_A a_A x_A = b plus fixed chemical potentials.
struct Conds {
  double T = 0, P = 0;
  std::vector<std::vector<double>> a;  // nx rows of C
  std::vector<double> b;
  std::vector<int> row_element;  // element of each X/W row
  std::vector<char> row_is_x;
  std::vector<char> fixed;    // per element
  std::vector<double> mufix;  // per element
  std::vector<int> free_el;   // elements with free μ
};

struct CompSet {
  int phase = 0;
  std::vector<double> y, ynew;
  double aleph = 0;
  bool stable = false;
  int removed = 0, added = 0;
  // linearisation at y
  EnergyResult e;
  MolesResult mo;
  double Gf = 0, GM = 0, Nf = 0, DF = 0;
  std::vector<double> dy0, cA, cT, dy;
  std::vector<double> mu0;  // μ at which dy0 was computed (linearize): Δy = dy0 + sum_A cA_A (μ_A - μ0_A)
  // newton(): the state before the last step (site fractions, amount), to go back along it (backtrack)
  std::vector<double> yprev;
  double alprev = 0;
  bool stepped = false;  // took the last step as a stable set
  int gap_halvings = 0;  // newton(): iterations in a row in which this gap set limited the amounts' step
  // y of the last linearize(): while y is unchanged, e, mo, Gf and Nf still hold and the driving force at a new
  // μ needs no model evaluation; so do dy0 and the columns it computed (lin_mu: cA, lin_T: cT), which give the
  // step at any μ (set_step), so that a set that has not moved is not linearised again (linearize_if_moved)
  std::vector<double> ylin;
  bool lin_mu = false, lin_T = false;
  bool idle = false;  // newton(): a metastable set far below the tangent, neither linearised nor stepped
  // newton() with Run::delay_changes: the iteration at which the set last entered the stable assemblage (add_set),
  // and whether its amount came out negative in the last step (removal_delayed)
  int entered_at = -1000000;
  bool negative_before = false;
};

// Everything one solve needs, bundled so helper functions stay short.
struct Run {
  const std::vector<std::shared_ptr<const PhaseModel>>& phases;
  const Grid& grid;
  EquilibriumSolver::Impl& im;
  const Conds& cd;
  int C;
  std::vector<CompSet> sets;
  std::vector<double> mu;
  int iterations = 0;
  bool single_set = false;
  bool limit_amounts = false;  // newton(): no set's amount beyond the atoms of the system in one step
  bool delay_changes = false;  // newton(): phase changes delayed as OpenCalphad delays them (removal_delayed), a
                               // phase entering again enters the assemblage of least G over the sets
                               // (enter_least_assemblage), a stable set inside a spinodal split (split_set_at_saddle)
  // Per phase, 1 = left out of the stable assemblage (EquilibriumSolver::without_vacant_phases): no hull vertex, no
  // candidate, no set from the grid re-scan or the basin check; its metastable set is still relaxed and reported.
  // Empty: every phase may enter.
  const std::vector<char>& left_out;
  // linearize_if_moved reuses a set's linearisation while it holds; false (PHASEDESK_SOLVER_RELINEARIZE, tests) makes
  // it linearise every time, as before that economy
  bool keep_linearizations = true;
  // scan_phase's test switches: every point at every re-scan (PHASEDESK_SOLVER_CURRENT_GRIDS), each spared re-scan
  // checked against the whole scan (PHASEDESK_SOLVER_CHECK_SCANS)
  bool every_point_scanned = false, check_scans = false;
};

// Phase p may not enter the stable assemblage of this run (Run::left_out).
inline bool left_out(const Run& run, int p) {
  return !run.left_out.empty() && run.left_out[static_cast<size_t>(p)] != 0;
}

// A vertex of the lower convex hull (hull.cpp): a grid point of a phase, or a fake point e_A (phase -1,
// point = element A), with its fraction f of the overall composition.
struct HullVertex {
  int phase;     // -1 = fake
  size_t point;  // index in the phase grid
  double f;
};

// Diagnostic traces on stderr for developers: PD_SOLVER_DEBUG=1|2|3 (read once).
int debug_level();

// conditions.cpp
Conds parse_conditions(const Conditions& c, const std::vector<std::string>& el, const std::vector<double>& masses);

// The largest residual of the conditions a converged answer may keep (the result's mass balance): 1e-9, and
// at most 1e-4 of the smallest non-zero condition value so that a dilute condition keeps its relative accuracy,
// but never below 1e-10. Newton stops below 2e-11 where it can; the rest of the margin is for states whose last
// digits the site-fraction floor decides (newton.cpp, the stalled residual). pycalphad bounds its allowed mass
// residual the same way (at most 1e-8, and a tenth of the smallest condition).
double mass_balance_tolerance(const Conds& cd);

// sampling.cpp
PhaseInfo make_info(const PhaseModel& pm);
PhaseGrid sample_phase(const PhaseModel& pm, const PhaseInfo& pi, int C, int pdens);
// grid_energies.cpp
void prepare_TP(const std::vector<std::shared_ptr<const PhaseModel>>& phases, const Grid& grid,
                EquilibriumSolver::Impl& im, double T, double P);
// A local solve's (T,P) (WarmStart::local): the models' states only, the grid energies left of the states they are of
// (the next prepare_TP carries them from there); false when the solver holds no grid energies yet.
bool prepare_models_only(const std::vector<std::shared_ptr<const PhaseModel>>& phases, EquilibriumSolver::Impl& im,
                         double T, double P);

// Why a step could not go on: the text of EquilibriumResult::reason and its code (reason_code).
struct Reason {
  std::string text;
  ErrorCode code = ErrorCode::NotConverged;
  int vacant_phase = -1;  // the phase whose stable set ran into its pure-vacancy configuration (pure_vacancy_reason)
};

// The two answers that no equilibrium exists at the conditions (not that the solver failed to find one), with the
// code ErrorCode::NoEquilibrium: a phase whose Gibbs energy per mole of atoms has no lower bound (newton.cpp), and a
// composition no allowed phase can take (cold_start.cpp). Their texts carry these phrases.
inline constexpr const char* kNoLowerBound = "no equilibrium exists";
inline constexpr const char* kOutOfReach = "cannot be reached with the allowed phases";
// The reason given for a stable set that runs into its phase's pure-vacancy configuration (N_f -> 0 with G_f < 0:
// G_M = G_f / N_f has no lower bound), newton.cpp.
Reason pure_vacancy_reason(const Run& run, const CompSet& s);
// A stable set with fewer atoms per formula unit than this is on its way to that configuration: no condensed state.
inline constexpr double kCondensedNfMin = 1e-4;

// hull.cpp: false with `why` when no hull is found
bool hull(Run& run, std::vector<HullVertex>& verts, Reason& why);
void sort_for_hull(Grid& grid, int C);
// cold_start.cpp: false with `why` when no hull is found or the conditions are out of reach
bool cold_start(Run& run, const std::vector<std::string>& elements, bool single_set, Reason& why);

// warm_start.cpp
bool warm_sets(Run& run, const WarmStart& w);
void seed_metastable(Run& run);
bool predict(const WarmStart& a, const Conditions& ca, const WarmStart& b, const Conditions& cb, const Conditions& c,
             WarmStart& out);

// newton_system.cpp
// need_mu = false leaves the μ columns cA at zero: enough for a step at the μ of the linearisation (relaxations)
void linearize(Run& run, CompSet& s, bool need_T, bool need_mu = true);
// linearize() unless the set's last linearisation still holds: its site fractions have not moved since (T and P are
// fixed within a run), it has the columns asked for, and its step at the current μ follows from it (the μ columns,
// or the same μ). A phase whose site ratios vary has a Hessian that depends on μ (lagrangian_hessian): only at the
// same μ. The same linearisation again would differ only in rounding (dy0 taken at the new μ instead of through cA).
void linearize_if_moved(Run& run, CompSet& s, bool need_T, bool need_mu = true);
// How many times, in this process, linearize() ran (for tests of linearize_if_moved's economy)
std::atomic<uint64_t>& linearization_count();
void set_step(const Run& run, CompSet& s, const std::vector<double>& mu, double dT);
double driving_force(const Run& run, const CompSet& s);
double apply_step(CompSet& s, double sigma0);
void keep_above_vacancy_floor(const Run& run, CompSet& s, const std::vector<double>& yold);
bool at_vacancy_floor(const Run& run, const CompSet& s);
const CompSet* relax_at_mu(Run& run, CompSet& s, double tol, bool linearize_end = true,
                           const std::vector<const CompSet*>* maxima = nullptr);
void overall(const Run& run, std::vector<double>& x, double& N);
bool solve_global(Run& run, int mode, int xrow, std::vector<double>& dmu, std::vector<double>& dal, double& dT);
// The reduced Hessian Hr = Z^T H Z (nz x nz) of the m x m matrix H (row i at H + i * ld) on the null space Z (m x nz,
// PhaseInfo::Z) of a phase's site constraints (§12 item 10); HZ: workspace, H Z (m x nz).
void reduced_hessian(const double* H, size_t ld, int m, const std::vector<double>& Z, int nz, std::vector<double>& HZ,
                     std::vector<double>& Hr);

// feasibility.cpp
void add_set(Run& run, int q);
bool assemblage_feasible(const Run& run, const std::vector<char>& keep);

// assemblage_lp.cpp: with Run::delay_changes, the assemblage of least G over the sets as they are, the candidate set in
// it; false when that is no other than the current one
bool enter_least_assemblage(Run& run, int candidate);

// newton.cpp
bool newton(Run& run, int max_it, Reason& why);

// certify.cpp: true when the state in `run` is the certified equilibrium; false with `why` otherwise
bool certify(Run& run, const SolverOptions& options, bool warm, Reason& why);

// basins.cpp
// The driving force of phase p at site fractions y and the final μ, J/mol of atoms (-inf without atoms).
double df_at(const Run& run, size_t p, const double* y, EnergyResult& e, MolesResult& mo);
// grid_energies.cpp: the grid energies of phase p at the solver's (T,P) when they are of an earlier one; of every phase
// (the hull reads them all)
void refresh_grid_energies(const Run& run, size_t p);
void refresh_grid_energies(const Run& run);
// grid_scan.cpp: phase p's grid re-scan at run.mu into dfs (Impl::grid_df): no point (kSkipped: every point lies below
// the hyperplane by more than kStaleGridMargin, and with `need_best` none can beat the phase's sets), the points of its
// shallower depth tiers (kNear: the others lie that far below) or every point (kWhole). The points not scanned keep the values of
// an earlier scan, all below -kStaleGridMargin as well.
enum class GridScan : char { kSkipped, kNear, kWhole };
// The largest driving force among the points a scan computed, and the first point with it (-inf, 0: none); with a
// window >= 0 also the points whose driving force came within it of the largest so far, in the grid's order (a
// superset of those within it of the largest: certify.cpp's exact_best_point reads only those).
struct ScanTop {
  double df = -std::numeric_limits<double>::infinity();
  size_t at = 0;
  double window = -1;
  std::vector<uint32_t>* near = nullptr;
  void take(double d, size_t k) {
    if (d > df) {
      df = d;
      at = k;
    }
    if (window >= 0 && d >= df - window) near->push_back(static_cast<uint32_t>(k));
  }
  void restart() {
    df = -std::numeric_limits<double>::infinity();
    at = 0;
    if (near) near->clear();
  }
};
// The driving force of each of np grid points (energies gG, compositions X, C per point) at μ, into df (and top).
void grid_df(const double* gG, const double* X, const double* mu, int C, size_t np, std::vector<double>& df,
             ScanTop& top);
// `top`: the points scanned taken (restarted first; not set when kSkipped)
GridScan scan_phase(Run& run, size_t p, std::vector<double>& dfs, bool need_best, ScanTop& top);
// How many times, in this process, a phase's re-scan at current energies was left out or kept to its near list (for
// tests of the economy)
std::atomic<uint64_t>& spared_scan_count();
// ... and how many points such a re-scan left out within kStaleGridMargin of the hyperplane, checked under
// PHASEDESK_SOLVER_CHECK_SCANS (0 unless the economy is wrong)
std::atomic<uint64_t>& spared_scan_violations();
// J/mol of atoms: a phase whose grid points all lie further below the tangent hyperplane, by their bound, keeps
// energies of an earlier (T,P); beyond the basin check's widest window (basins.cpp, kWindow), so that the check
// reads no point such energies could misplace
inline constexpr double kStaleGridMargin = 2500;
// How many times, in this process, a phase's grid kept energies of an earlier (T,P) (for tests of the economy)
std::atomic<uint64_t>& stale_grid_count();
// Relaxes phases from their best grid points at the μ of the last grid re-scan (its driving forces, Impl::grid_df).
bool check_basins(Run& run, int pdens, double& added_df, int& added_phase);
// saddle.cpp: the state below a stable set of phase p at a saddle of G_f - μ·M (see there)
bool escape_saddle(Run& run, size_t p, const CompSet& s, CompSet& out, bool& minimum);
// sublattice_symmetry.cpp: permutations of phase p's equivalent sublattices (maps of the site-fraction indices), and
// whether the model at the current (T, P) is invariant under one
std::vector<std::vector<int>> sublattice_permutations(const PhaseModel& pm, const PhaseInfo& pi);
bool symmetric_under(const Run& run, size_t p, const std::vector<int>& sigma);

// results.cpp
void fill_results(Run& run, const Conditions& c, const SolverOptions& options, bool ok, const Reason& why,
                  EquilibriumResult& res);
void dot_derivatives(Run& run, const Conditions& c, const std::vector<std::string>& elements,
                     const std::vector<std::string>& requests, EquilibriumResult& res);

}  // namespace detail

// (T,P) caches and workspaces of one solver (one thread).
struct EquilibriumSolver::Impl {
  std::vector<detail::PhaseInfo> info;
  double T = std::numeric_limits<double>::quiet_NaN(), P = T;
  std::vector<std::unique_ptr<PhaseModel::State>> states;
  std::vector<std::vector<double>> gridG;  // GM of each grid point at (T,P), or of an earlier (T,P): see grid_bound
  // A phase of a large grid that was far below the tangent hyperplane at the last re-scan keeps the energies of
  // the (T,P) of grid_states while the model bounds their change (PhaseModel::energy_change_bound) by grid_bound
  // (0: current); the re-scan computes them anew when the bound could bring a point within reach, and the hull
  // always does (grid_energies.cpp, stale_grid_phase).
  std::vector<std::unique_ptr<PhaseModel::State>> grid_states;
  std::vector<double> grid_bound;
  // per phase how far its grid energies may lie from the model's at (T,P) by the rounding of its table
  // (PhaseModel::energy_rounding_bound): the re-scan takes the model's own value of a point that close to a decision
  std::vector<double> grid_rounding;
  // per phase the largest driving force of its grid points, at their energies, at the μ of its last re-scan
  // (grid_df_mu): at another μ no point's is larger by more than the largest increase of a μ_A
  std::vector<double> grid_df_max;
  std::vector<std::vector<double>> grid_df_mu;
  // per phase the depth tier of each grid point at its last whole re-scan and how many points each tier holds, how
  // much any driving force may have grown since (inf: no such scan at these energies), and the tiers its last re-scan
  // scanned (grid_scan.cpp)
  std::vector<std::vector<uint8_t>> grid_tier;
  std::vector<std::vector<uint32_t>> grid_tier_count;
  std::vector<double> grid_scan_drift;
  std::vector<uint8_t> grid_scan_tiers;
  // per phase what its last re-scan scanned (the basin check reads only those points), and the largest driving force
  // among those points from the grid energies (each of grid_df is at most the phase's rounding above it)
  std::vector<detail::GridScan> grid_scan;
  std::vector<double> grid_scan_top;
  // per phase the driving force of each grid point at the μ of the last grid re-scan (certify.cpp), which the basin
  // check that follows it reads at that μ
  std::vector<std::vector<double>> grid_df;
  // per phase the largest magnetic ordering temperature of its grid points at (T,P), NaN until the basin check
  // first asks (magnetic_basin_possible)
  std::vector<double> ordering_T_max;
  // workspaces
  std::vector<uint32_t> grid_near;  // the re-scan's points near a phase's best (ScanTop::near)
  std::vector<double> Phi, rhs, Hr, A, bvec, sol;
  std::vector<double> W;                      // linearize's Hessian of the Lagrangian in y (§8.2)
  std::vector<double> trial, grhs, gx;        // linearize's Cholesky trial, solve_global's right side and x
  std::vector<int> gst;                       // solve_global's stable sets
  std::vector<double> hull_cols, hull_costs;  // hull's columns of the blocks priced, and costs of every grid point
  std::vector<int32_t> hull_block_slot;       // per block its columns' place in hull_cols (-1: not laid out)
  // ... stored in the order of Grid::hull_order (so that a block of them spans a small range of every column
  // and its reduced costs can be bounded, see hull()); per block the range of each column row, the smallest
  // cost and the largest |cost|
  std::vector<double> hull_block_lo, hull_block_hi, hull_block_cmin, hull_block_cmax;
  // ... computed for these (T, P), condition rows and fixed potentials (reused while they repeat)
  double hull_T = std::numeric_limits<double>::quiet_NaN(), hull_P = hull_T;
  std::vector<std::vector<double>> hull_a;
  std::vector<char> hull_fixed;
  std::vector<double> hull_mufix;
  std::vector<char> hull_left_out;  // ... and these phases left out (Run::left_out)
  std::vector<int> piv;
  LstsqWork lw;
  // hull()'s simplex: the phases' first global grid indices, the pricing bounds per block and the basis with its
  // factors (S = number of condition rows + 1, a few), kept so that a cold start of a small system allocates none
  struct HullWork {
    std::vector<size_t> offs;
    std::vector<double> blk_min, blk_drift, blk_bound, blk_margin, pi_prev;
    std::vector<uint32_t> blk_seq;
    std::vector<detail::HullVertex> basis;
    std::vector<double> bx, bc, rhs, B, LU, BT, f, pi, d, col;  // bx: S x C, the basis' compositions
    std::vector<int> piv, piv2;
  } hull;
};

namespace detail {

// Calls f(k) for each grid point of phase p (np points) its last re-scan scanned (scan_phase), in the grid's order.
template <class F>
void for_each_scanned_point(const EquilibriumSolver::Impl& im, size_t p, size_t np, F&& f) {
  switch (im.grid_scan[p]) {
    case GridScan::kSkipped:
      return;
    case GridScan::kNear: {
      const uint8_t* tier = im.grid_tier[p].data();
      const uint8_t tiers = im.grid_scan_tiers[p];
      for (size_t k = 0; k < np; ++k)
        if (tier[k] < tiers) f(k);
      return;
    }
    case GridScan::kWhole:
      for (size_t k = 0; k < np; ++k) f(k);
      return;
  }
}

}  // namespace detail

}  // namespace pd::solver
