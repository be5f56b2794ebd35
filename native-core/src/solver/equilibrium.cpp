// Global equilibrium solver: construction (grids) and one solve as the pipeline of steps declared in
// solver_internal.hpp; see equilibrium.hpp and ../shared/design/calphad-formulas.md §8-§9.
#include "solver/equilibrium.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "solver/solver_internal.hpp"

namespace pd::solver {

using namespace detail;

EquilibriumSolver::EquilibriumSolver(std::vector<std::shared_ptr<const PhaseModel>> phases, std::vector<double> masses,
                                     SolverOptions options)
    : phases_(std::move(phases)), masses_(std::move(masses)), options_(std::move(options)), impl_(new Impl) {
  if (phases_.empty()) throw std::invalid_argument("no phase can form from the given components");
  elements_ = phases_[0]->elements();
  for (const auto& p : phases_)
    if (p->elements() != elements_) throw std::invalid_argument("phase models disagree on the system elements");
  const int C = static_cast<int>(elements_.size());
  if (C < 1) throw std::invalid_argument("no elements");
  auto grid = std::make_shared<Grid>();
  for (const auto& p : phases_) {
    // Sampling a large system's grids takes seconds: a cancelled call stops between phases and inside
    // sample_phase (the caller sees pd::Cancelled; nothing half-built is kept).
    throw_if_cancelled();
    impl_->info.push_back(make_info(*p));
    grid->ph.push_back(sample_phase(*p, impl_->info.back(), C, options_.pdens));
    grid->total += grid->ph.back().np;
  }
  sort_for_hull(*grid, C);
  grid_ = grid;
}

EquilibriumSolver::EquilibriumSolver(const EquilibriumSolver& o)
    : phases_(o.phases_),
      elements_(o.elements_),
      masses_(o.masses_),
      options_(o.options_),
      grid_(o.grid_),
      impl_(new Impl) {
  impl_->info = o.impl_->info;
}

EquilibriumSolver::~EquilibriumSolver() = default;

size_t EquilibriumSolver::grid_points() const { return grid_->total; }

EquilibriumResult EquilibriumSolver::solve(const Conditions& c) { return solve(c, nullptr, nullptr); }

// At the exact composition of a stoichiometric phase the hull can give that phase alone where it is not stable
// (its grid points lie above the true tangent by less than the grid misses it by). Its chemical potentials are then
// not unique, and the phases that replace it enter one at a time: each takes no amount at that composition, leaves,
// and the next one enters (cuo.tdb, 1386.45 K, X(O) = 0.5: CUO alone; IONIC_LIQ and GAS in turn until the
// iteration limit, while IONIC_LIQ + GAS lies 43 J/mol lower). A hair away from that composition the cold start
// converges, and its sets start Newton at the composition asked for, where the certification checks the answer
// as any other.
EquilibriumResult EquilibriumSolver::from_nearby(const Conditions& c, EquilibriumResult failed) {
  constexpr double kNearbyDX = 1e-6;
  Conditions nearby = c;
  bool moved = false;
  for (Condition& k : nearby.conds)
    if (k.kind == Condition::X) {
      k.value += k.value > 2 * kNearbyDX ? -kNearbyDX : kNearbyDX;
      moved = true;
    }
  if (!moved) return failed;
  try {
    const EquilibriumResult near = solve_impl(nearby, nullptr);
    if (!near.converged) return failed;
    const WarmStart start = WarmStart::from_result(near);
    if (!start.valid()) return failed;
    EquilibriumResult res = solve_impl(c, &start);
    return res.converged ? res : failed;
  } catch (const Cancelled&) {
    throw;
  } catch (const std::exception&) {
    return failed;  // the shifted conditions are no answer to give; the first reason stands
  }
}

// Newton's first step after a phase enters with a driving force of several hundred J/mol can move one amount far
// beyond the atoms of the system; the sets that should stay then leave and the iteration cycles between assemblages
// (Cr-Fe-Nb at 1916.5 K: LIQUID added to BCC_A2 + LAVES_C14 was to take 11 moles of atoms in a one-mole system).
// Limiting that step in every solve changed the path, and with it the answer, at 4 % of random points (once to a
// state 8 J/mol above the one found without it, which the certification passed: Al-Ni-Pt at 723.6 K); so it is
// the last retry of a cold start that did not converge, and every answer found without it stays as it was.
EquilibriumResult EquilibriumSolver::with_amounts_limited(const Conditions& c, EquilibriumResult failed) {
  EquilibriumResult res = solve_impl(c, nullptr, Newton::AmountsLimited);
  return res.converged ? res : failed;
}

// A phase that enters with a driving force of a few hundred J/mol can leave again in Newton's next step, taking others
// with it, and the iteration returns to the state it came from: the same phase enters again, until the iteration
// limit or until its set has entered six times (then the answer is not converged: a metastable phase with a positive
// driving force). AISI 304 on mf-steel at 1100 K failed so (BCC_A2, 426 J/mol), also with the amounts limited; with
// the phase changes delayed as OpenCalphad delays them (newton.cpp, removal_delayed) it converges to FCC_A1 + BCC_A2 +
// M23C6_D84, 86 J/mol lower. Where several assemblages follow each other in a cycle, a phase that enters again
// enters the assemblage of least G over the sets as they are (newton.cpp, enter_candidate). The last retry of a cold
// start that did not converge, so that every answer found without it stays as it was.
EquilibriumResult EquilibriumSolver::with_phase_changes_delayed(const Conditions& c, EquilibriumResult failed) {
  EquilibriumResult res = solve_impl(c, nullptr, Newton::ChangesDelayed);
  return res.converged ? res : failed;
}

// A cold start's path depends on where the hull puts the sets: a phase that enters a many-phase assemblage with a
// driving force of a few hundred J/mol can take Newton into a cycle of removals that would leave the conditions out
// of reach, with the amounts limited and with the changes delayed too (mf-steel, Fe-Si-Mo-N-Mn-C-Cr-Ni at 841 K,
// x(Si) = 0.36: BCC_A2 entering five silicides, carbides and nitrides at 205 J/mol), while a kelvin away the hull's
// vertices lie otherwise and Newton converges (there, or in one of its retries). Its state then starts Newton at the
// temperature asked for, where the certification checks the answer as any other: the continuation in T that a step
// calculation makes, taken back by a kelvin or ten.
EquilibriumResult EquilibriumSolver::from_nearby_temperature(const Conditions& c, EquilibriumResult failed) {
  constexpr double kShifts[] = {1, -1, 10, -10};
  for (double dT : kShifts) {
    Conditions nearby = c;
    nearby.T = c.T + dT;
    if (!(nearby.T > 0)) continue;
    try {
      const EquilibriumResult near = cold_solve_here(nearby);
      if (!near.converged) continue;
      const WarmStart start = WarmStart::from_result(near);
      if (!start.valid()) continue;
      EquilibriumResult res = solve_impl(c, &start);
      if (res.converged) return res;
    } catch (const Cancelled&) {
      throw;
    } catch (const std::exception&) {
      continue;  // the shifted conditions are no answer to give; the first reason stands
    }
  }
  return failed;
}

EquilibriumResult EquilibriumSolver::solve(const Conditions& c, const WarmStart* start, WarmStart* end) {
  EquilibriumResult res;
  bool done = false;
  if (start && start->valid()) {
    try {
      res = solve_impl(c, start);
      done = res.converged;  // otherwise redo from the hull: a warm start never makes an answer worse
    } catch (const std::invalid_argument&) {
      throw;  // malformed conditions: the cold start would say the same
    } catch (const std::exception&) {
      done = false;
    }
  }
  if (!done) {
    res = cold_solve(c);
    if (!res.converged && res.vacant_phase >= 0) res = without_vacant_phases(c, std::move(res));
  }
  if (end) *end = WarmStart::from_result(res);
  return res;
}

EquilibriumResult EquilibriumSolver::cold_solve_here(const Conditions& c) {
  EquilibriumResult res = solve_impl(c, nullptr);
  // the retries, for a failure to find the equilibrium (an answer that none exists is not retried)
  if (!res.converged && res.reason_code != ErrorCode::NoEquilibrium) {
    res = from_nearby(c, std::move(res));
    if (!res.converged) res = with_amounts_limited(c, std::move(res));
    if (!res.converged) res = with_phase_changes_delayed(c, std::move(res));
  }
  return res;
}

EquilibriumResult EquilibriumSolver::cold_solve(const Conditions& c) {
  EquilibriumResult res = cold_solve_here(c);
  if (!res.converged && res.reason_code != ErrorCode::NoEquilibrium) res = from_nearby_temperature(c, std::move(res));
  return res;
}

namespace {

// Every element the mole-fraction conditions give a positive amount has at least half of it in the stable phases of
// `res` (true for conditions on mass fractions or potentials, which this does not read): an answer without the only
// phase that can take an element (V-O at X(V) = 1e-9 without HALITE: GAS holds O only) misses that element by less
// than the mass-balance tolerance, and is still no answer.
bool holds_every_element(const Conditions& c, const EquilibriumResult& res) {
  std::vector<double> want(res.elements.size(), 0.0);
  double rest = 1;
  std::vector<char> given(res.elements.size(), 0);
  for (const Condition& k : c.conds) {
    if (k.kind != Condition::X) return true;
    const auto it = std::find(res.elements.begin(), res.elements.end(), k.element);
    if (it == res.elements.end()) return true;
    const size_t A = static_cast<size_t>(it - res.elements.begin());
    want[A] = k.value;
    given[A] = 1;
    rest -= k.value;
  }
  size_t free = 0;
  for (size_t A = 0; A < want.size(); ++A)
    if (!given[A] && res.elements[A] != "VA") {
      want[A] = rest;
      ++free;
    }
  if (free != 1 || res.x.size() != want.size()) return true;
  for (size_t A = 0; A < want.size(); ++A)
    if (want[A] > 0 && !(res.x[A] >= 0.5 * want[A])) return false;
  return true;
}

}  // namespace

// A phase whose Gibbs energy per mole of atoms falls without bound towards its pure-vacancy configuration (G(VA:VA)
// = 0 and the configurational entropy of a few atoms on a vacant lattice, PhaseGrid::nf_floor) takes the whole system
// there when its hull vertex is the lowest: alcocrni's BCC_B2 at 2159.71 K, x(Cr) = 0.0823, from a grid point with
// three quarters of its sites vacant, while the liquid is the equilibrium of every state with atoms on the lattice.
// Such a state is an artefact of the model, not a phase (metastable sets are held above that floor and do not
// enter): the phase is left out of the stable assemblage, and the equilibrium of the other phases is the answer when
// it converges and the phase's relaxed set (held at its floor) does not contradict it; the reason names it.
EquilibriumResult EquilibriumSolver::without_vacant_phases(const Conditions& c, EquilibriumResult failed) {
  struct Restore {
    std::vector<char>& mask;
    ~Restore() { mask.clear(); }
  } restore{left_out_};
  left_out_.assign(phases_.size(), 0);
  std::string names;
  EquilibriumResult res = failed;
  while (!res.converged && res.vacant_phase >= 0 && !left_out_[static_cast<size_t>(res.vacant_phase)]) {
    left_out_[static_cast<size_t>(res.vacant_phase)] = 1;
    names += (names.empty() ? "" : ", ") + phases_[static_cast<size_t>(res.vacant_phase)]->name();
    res = cold_solve(c);
    if (detail::debug_level() >= 1) std::fprintf(stderr, "without %s: %s\n", names.c_str(), res.reason.c_str());
  }
  if (!res.converged || !holds_every_element(c, res)) return failed;
  res.reason = "converged; left out: " + names +
               " (runs into its pure-vacancy configuration, where its Gibbs energy per mole of atoms has no lower "
               "bound)";
  return res;
}

EquilibriumResult EquilibriumSolver::solve_impl(const Conditions& c, const WarmStart* start, Newton mode) {
  EquilibriumResult res;
  res.elements = elements_;
  const int C = static_cast<int>(elements_.size());
  Conds cd = parse_conditions(c, elements_, masses_);
  const bool local = start && start->local && prepare_models_only(phases_, *impl_, c.T, c.P);
  if (!local) prepare_TP(phases_, *grid_, *impl_, c.T, c.P);
  Run run{phases_,
          *grid_,
          *impl_,
          cd,
          C,
          {},
          {},
          0,
          options_.single_set,
          mode == Newton::AmountsLimited,
          mode == Newton::ChangesDelayed,
          left_out_};
  // the test switches, read at each solve (not in the loops), so that a test may switch them in its process
  run.keep_linearizations = std::getenv("PHASEDESK_SOLVER_RELINEARIZE") == nullptr;
  run.every_point_scanned = std::getenv("PHASEDESK_SOLVER_CURRENT_GRIDS") != nullptr;
  run.check_scans = std::getenv("PHASEDESK_SOLVER_CHECK_SCANS") != nullptr;
  Reason why;
  const bool warm = start != nullptr;
  if (warm) {
    if (!warm_sets(run, *start)) {
      res.reason = "warm start does not fit this system";
      res.reason_code = ErrorCode::NotConverged;
      return res;
    }
    seed_metastable(run);
  } else if (!cold_start(run, elements_, options_.single_set, why)) {
    res.reason = why.text;
    res.reason_code = why.code;
    return res;
  }
  const bool ok = local ? newton(run, options_.max_iterations, why) : certify(run, options_, warm, why);
  fill_results(run, c, options_, ok, why, res);
  res.local = local && res.converged;
  if (res.converged && !options_.derivatives.empty()) dot_derivatives(run, c, elements_, options_.derivatives, res);
  return res;
}

}  // namespace pd::solver
