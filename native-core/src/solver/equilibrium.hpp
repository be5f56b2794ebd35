// Global equilibrium solver (../shared/design/calphad-formulas.md §8, §9).
//
// Pipeline for one condition set: sampled grid of every phase (§8.7, prepared once per phase, energies
// once per (T,P)) -> lower convex hull by a revised-simplex hyperplane iteration (§8.7) -> Newton on
// the Lagrangian with the chemical potentials as multipliers (§8.2-8.4) with phase addition/removal
// (§8.5) -> re-scan of the grid with the final μ (outer loop of §8.5) -> derived quantities (§9).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/errors.hpp"
#include "models/phase_model.hpp"

namespace pd::solver {

struct Condition {
  enum Kind { X, W, MU };
  Kind kind = X;
  std::string element;  // upper case
  double value = 0;
};

struct Conditions {
  double T = 298.15, P = 101325;
  std::vector<Condition> conds;  // C-1 of them (X/W/MU); N = 1 implied
};

struct SolverOptions {
  int pdens = 60;            // sampling density per phase (§8.7)
  int max_iterations = 400;  // Newton iterations per inner solve
  int max_outer = 10;        // grid re-scans (§8.5)
  // At most one composition set per phase (validation "isolated" quantities: no miscibility-gap split).
  bool single_set = false;
  // Dot derivatives to compute after convergence (§9.4), e.g. "HM.T", "MU(AL).X(ZN)", "NP(FCC_A1).T",
  // "X(LIQUID,AL).T", "GM.X(TI)", "SM.T".
  std::vector<std::string> derivatives;
  // Warm start (opt-in): in solve_batch each condition after the first
  // of a thread's contiguous chunk starts Newton from the previous converged result of that chunk instead
  // of the convex hull (§8.7), extrapolated linearly from the two previous states when the conditions
  // advance in equal steps; the grid re-scan with the final μ (§8.5 outer loop) still certifies the
  // answer, and a warm start that does not converge is redone from the cold start.
  bool warm_start = false;
};

struct CompSetResult {
  std::string phase;
  int phase_index = 0;
  int set_number = 1;     // 1, 2, ... per phase (miscibility gap = several)
  double NP = 0;          // moles of atoms (sum over stable sets = 1)
  std::vector<double> x;  // per system element
  std::vector<double> y;  // site fractions, order of PhaseModel::variables()
  double GM = 0, HM = 0, SM = 0, CPM = 0;
  double DF = 0;  // driving force (§9.2); 0 for stable sets
};

struct EquilibriumResult {
  bool converged = false;
  // "converged" or why not (the text result files keep); a converged result found with phases left out
  // (without_vacant_phases) says so after "converged; "
  std::string reason;
  // Why not, for code to read (io/errors.hpp): NoEquilibrium when no equilibrium exists at the conditions (a phase
  // whose Gibbs energy per mole of atoms has no lower bound there, a composition no allowed phase can take),
  // NotConverged when the solver did not find it, Cancelled for a batch's condition not reached, the exception's
  // code (error_code_of) for one that threw. Unset when converged.
  std::optional<ErrorCode> reason_code;
  // The phase (index in EquilibriumSolver::phases()) whose stable set ran into its pure-vacancy configuration, when
  // that is why the result is NoEquilibrium; -1 otherwise. solve() then solves again without it (without_vacant_phases).
  int vacant_phase = -1;
  int iterations = 0;
  std::vector<std::string> elements;
  std::vector<CompSetResult> stable;
  std::vector<CompSetResult> metastable;  // best relaxed set of each non-stable phase, DF (§9.2)
  std::vector<double> mu;                 // per element, J/mol
  std::vector<double> x;                  // overall mole fractions
  double GM = 0, HM = 0, SM = 0, CPM = 0;
  std::vector<std::pair<std::string, double>> derivatives;
  double mass_balance_error = 0;  // max |sum NP x - x_condition| (and |sum NP - 1|)
  // A local equilibrium (WarmStart::local): Newton converged among the start's composition sets, with neither the grid
  // re-scan nor the basin check behind it, so `converged` says less than it says otherwise (see WarmStart::local).
  bool local = false;
};

// The state a solve ends in, used as the starting point of a neighbouring solve (warm start): every
// composition set (stable ones with their amount in moles of atoms, metastable ones relaxed at the final
// μ) and the chemical potentials. Built by solve() or from a previous EquilibriumResult.
struct WarmStart {
  struct Set {
    int phase_index = 0;
    bool stable = false;
    double NP = 0;          // moles of atoms (stable sets)
    std::vector<double> y;  // site fractions, order of PhaseModel::variables()
  };
  std::vector<Set> sets;
  std::vector<double> mu;  // per system element
  // Solve from it to a local equilibrium only: Newton among its sets (each may become stable or not), without the grid
  // energies at the new (T,P), the grid re-scan (§8.5) or the basin check. For a caller that certifies the states it
  // keeps and only steers by this one (the liquidus search's step towards its bracket: its amount of liquid and slope
  // where the neighbouring state's phases still hold); a phase the re-scan would have added is missing from it. A
  // solver that holds no grid energies yet, or a Newton that does not converge, gives the certified answer instead
  // (EquilibriumResult::local says which).
  bool local = false;
  bool valid() const { return !sets.empty() && !mu.empty(); }
  // From a converged result (stable and metastable sets); invalid (empty) if it did not converge.
  static WarmStart from_result(const EquilibriumResult& r);
};

struct Grid;  // sampled site fractions of every phase (independent of T, P)

class EquilibriumSolver {
 public:
  // `phases` must all have the same elements() (the system elements); masses[A] in g/mol (for W).
  EquilibriumSolver(std::vector<std::shared_ptr<const PhaseModel>> phases, std::vector<double> masses,
                    SolverOptions options = {});
  // A copy sharing the (immutable) grid but with its own (T,P) caches: one per thread.
  EquilibriumSolver(const EquilibriumSolver& other);
  ~EquilibriumSolver();

  const std::vector<std::string>& elements() const { return elements_; }
  const std::vector<std::shared_ptr<const PhaseModel>>& phases() const { return phases_; }
  SolverOptions& options() { return options_; }

  // Never throws for a non-converging case (converged = false, reason, reason_code); throws std::invalid_argument
  // for malformed conditions (unknown element, wrong number of conditions, X sum >= 1).
  EquilibriumResult solve(const Conditions& c);
  // Same, starting Newton from `start` when it is valid (warm start; falls back to the cold start of
  // solve(c) if that does not converge). When `end` is not null it receives the final state of a converged
  // solve (cleared otherwise), ready to warm-start the next condition.
  EquilibriumResult solve(const Conditions& c, const WarmStart* start, WarmStart* end);

  // Many independent condition sets over OpenMP threads. cancel (may be null): Int32 flag, non-zero =
  // stop; the remaining results get reason "cancelled". progress (may be null): fraction done.
  // first (may be null, used with options().warm_start): the state the first condition starts from,
  // e.g. the last result of the previous chunk of a scan. starts (may be null, without warm_start): one state per
  // condition to start from (an invalid one = the cold start), for independent searches solved side by side; thread
  // t of n then solves the contiguous block [size t / n, size (t + 1) / n) of the conditions, in order. The
  // first thread solves with this solver, the others with copies kept for the next batch (not thread-safe: one
  // batch or solve at a time per solver object).
  std::vector<EquilibriumResult> solve_batch(const std::vector<Conditions>& conds, int threads,
                                             const volatile int32_t* cancel, double* progress,
                                             const WarmStart* first = nullptr,
                                             const std::vector<WarmStart>* starts = nullptr);

  size_t grid_points() const;

  struct Impl;  // (T,P) caches and workspaces (public only so the implementation's helpers can name it)

 private:
  std::vector<std::shared_ptr<const PhaseModel>> phases_;
  std::vector<std::string> elements_;
  std::vector<double> masses_;
  SolverOptions options_;
  std::shared_ptr<const Grid> grid_;
  std::unique_ptr<Impl> impl_;  // (T,P)-dependent caches
  // The other threads' solvers of solve_batch, kept from one batch to the next: a fresh copy allocates and first
  // touches workspaces sized by the grid (milliseconds per call for a large grid) and starts with cold (T,P) caches.
  std::vector<std::unique_ptr<EquilibriumSolver>> team_;

  // How Newton runs: as it is, or in one of the cold start's retries with the amounts' step limited (a set holds at
  // most the atoms of the system, newton.cpp overshoot_step_limit) or with the phase changes delayed (newton.cpp,
  // removal_delayed, enter_candidate and split_set_at_saddle).
  enum class Newton { Plain, AmountsLimited, ChangesDelayed };
  // One solve from the hull (start = null) or from a warm start (no fallback).
  EquilibriumResult solve_impl(const Conditions& c, const WarmStart* start, Newton mode = Newton::Plain);
  // After a cold start that did not converge: the equilibrium a hair inside the composition range (every X
  // condition moved by kNearbyDX), and from its state a warm start at c. Returns `failed` unless that converges.
  EquilibriumResult from_nearby(const Conditions& c, EquilibriumResult failed);
  // After that: the cold start again with the amounts' step limited. Returns `failed` unless that converges.
  EquilibriumResult with_amounts_limited(const Conditions& c, EquilibriumResult failed);
  // After that: the cold start again with the phase changes delayed. Returns `failed` unless that converges.
  EquilibriumResult with_phase_changes_delayed(const Conditions& c, EquilibriumResult failed);
  // The cold start and the three retries above.
  EquilibriumResult cold_solve_here(const Conditions& c);
  // The last retry: cold_solve_here a kelvin or ten away, then Newton warm from its state at c's temperature.
  // Returns `failed` unless that converges.
  EquilibriumResult from_nearby_temperature(const Conditions& c, EquilibriumResult failed);
  // The cold start and its retries (cold_solve_here, then from_nearby_temperature).
  EquilibriumResult cold_solve(const Conditions& c);
  // After a result that no equilibrium exists because a stable set ran into its phase's pure-vacancy configuration:
  // the cold solve again with that phase left out of the stable assemblage (and so on for the next such phase).
  // Returns `failed` unless that converges.
  EquilibriumResult without_vacant_phases(const Conditions& c, EquilibriumResult failed);
  // Per phase, 1 = left out of the solves under way (Run::left_out); empty outside without_vacant_phases.
  std::vector<char> left_out_;
};

}  // namespace pd::solver
