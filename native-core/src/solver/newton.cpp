// Newton iteration on the Lagrangian with phase changes (§8.3-§8.5), step by step.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "solver/solver_internal.hpp"

namespace pd::solver::detail {

namespace {

// Largest residual of the size row (N = 1) and of the linear conditions (scaled per row); x: the overall
// composition.
double condition_residual(const Run& run, std::vector<double>& x) {
  double N;
  overall(run, x, N);
  double res = std::fabs(N - 1);
  for (size_t c = 0; c < run.cd.a.size(); ++c) {
    double r = -run.cd.b[c], sc = 0;
    for (int E = 0; E < run.C; ++E) {
      r += run.cd.a[c][E] * x[E];
      sc = std::max(sc, std::fabs(run.cd.a[c][E]));
    }
    res = std::max(res, std::fabs(r) / std::max(sc, 1.0));
  }
  return res;
}

// Step length σ_ℵ of the amounts (and of the stable sets' site fractions) that keeps every set of a
// miscibility gap at a positive amount.
// Two stable sets of one phase (a miscibility gap) are one state split in two: while they move to the
// two sides of the gap the linear model of the amounts is poor (one set crosses the other's spinodal),
// and removing a set because one full step would make its amount negative threw the gap away: the
// other set then converged to the saddle point inside the gap, re-adding a set from the grid cycled the
// same way (cuo.tdb, two ionic liquids at 1550-1600 K). For such a set the step is shortened instead, as
// pycalphad does for every set (§8.4 step 1: one σ_ℵ for all amounts, none below zero; here the set goes
// half way to zero, and the stable sets' site fractions take the same σ); a gap set whose amount is
// already below 1e-10 and still falling leaves as before.
// A set that has set σ_ℵ in kGapHalvings iterations in a row, its amount halved each time while a full step
// would still take it below zero, is leaving the gap: it is no longer spared and leaves by the ordinary rule
// (§8.5). Halving it down to 1e-10 took some thirty iterations, during which the other sets crawled at
// half steps (Al-Co-Cr-Ni, 1523 K: two BCC_B2 sets, one of them vanishing); a set that is needed recovers
// within a few halvings.
constexpr int kGapHalvings = 8;

double gap_step_limit(Run& run, const std::vector<double>& dal) {
  double sig_al = 1.0;
  for (size_t i = 0; i < run.sets.size(); ++i) {
    CompSet& s = run.sets[i];
    const bool limits = s.stable && !(s.aleph + dal[i] > 1e-14) && !(s.aleph < 1e-10);
    if (!limits) {
      s.gap_halvings = 0;
      continue;
    }
    bool gap = false;
    for (size_t j = 0; j < run.sets.size(); ++j) gap |= j != i && run.sets[j].stable && run.sets[j].phase == s.phase;
    if (!gap || s.gap_halvings >= kGapHalvings) {
      s.gap_halvings = 0;
      continue;
    }
    ++s.gap_halvings;
    sig_al = std::min(sig_al, 0.5 * s.aleph / -dal[i]);
  }
  return sig_al;
}

// Amounts that meet the conditions are non-negative and add up to the atoms of the system, N, so no set holds more
// than N. A step that takes one beyond N lies outside the range of the linear model, typically the first step after
// a phase entered with a large driving force (Cr-Fe-Nb at 1916.5 K: LIQUID added to BCC_A2 + LAVES_C14 was to take
// 11 moles of atoms in a one-mole system; the two others left and the iteration cycled between assemblages). With
// Run::limit_amounts (a retry, equilibrium.cpp) the amounts' step, and the stable sets' site-fraction step with it, is
// shortened so that no set goes beyond N.
double overshoot_step_limit(const Run& run, const std::vector<double>& dal) {
  double N = 0;
  for (const auto& s : run.sets)
    if (s.stable) N += s.aleph * s.Nf;
  double sig = 1.0;
  for (size_t i = 0; i < run.sets.size(); ++i) {
    const CompSet& s = run.sets[i];
    if (!s.stable || !(dal[i] > 0)) continue;
    const double now = s.aleph * s.Nf, step = dal[i] * s.Nf;
    if (now + step > N && N > now) sig = std::min(sig, (N - now) / step);
  }
  return sig;
}

// What newton() does when a set would leave an assemblage that cannot meet the conditions without it.
// A set leaves when one step makes its amount negative, but only if the sets left behind can still meet
// the linear conditions (assemblage_feasible). Otherwise its amount is needed, and the negative value
// comes from an overshoot of the previous step: near a congruent melting point (cuo.tdb, oxide liquid +
// Cu2O at 1500 K, X(O) = 0.33) two tie lines from the compound touch the liquid curve, at x(O) = 0.320
// and 0.337; one full step took the new liquid set from x(O) = 0.315 to 0.334, past the overall
// composition, so the lever rule asked for a negative liquid amount; the liquid left, the stoichiometric
// Cu2O alone could not reach X(O) = 0.33, and Newton ran to its iteration limit (shortening only the
// amounts' step, §8.4 step 1, is not enough either: the liquid then converges to the other tie line,
// where no amounts >= 0 meet the conditions). So the last step is taken back half way (a backtracking
// line search on the step of §8.4: y and ℵ of the stable sets go to the midpoint of their last step)
// and Newton continues from there. Without a step to go back along (just after a phase change) or after
// kMaxBacktracks, the amounts' step is shortened instead as §8.4 step 1 does (one σ_ℵ for all amounts,
// none below zero; here the set goes half way to zero), and a set already below 1e-10 stays at that tiny
// amount (σ_ℵ would freeze every other amount). The check runs only when a set would leave; an ordinary
// removal (the rest can take the amount over) is unchanged.
// Returns true when the last step was halved (no step in this iteration); otherwise `sig_amt` may shorten
// the amounts' step and `hold` marks the sets kept at a tiny amount.
bool guard_infeasible_removal(Run& run, const std::vector<double>& dal, double sig_al, int nstable, int since_change,
                              bool have_prev, int& backtracks, const std::vector<double>& mu_prev,
                              std::vector<char>& hold, double& sig_amt) {
  constexpr int kMaxBacktracks = 40;
  thread_local std::vector<char> keep;  // per-thread workspace (every iteration)
  bool backtrack = false;
  keep.assign(run.sets.size(), 0);
  bool leaving = false;
  int left = 0;
  for (size_t i = 0; i < run.sets.size(); ++i) {
    const CompSet& s = run.sets[i];
    if (!s.stable) continue;
    if (!(s.aleph + sig_al * dal[i] > 1e-14))
      leaving = true;
    else {
      keep[i] = 1;
      ++left;
    }
  }
  if (leaving && nstable > 1 && since_change >= 1 && left > 0 && !assemblage_feasible(run, keep)) {
    if (have_prev && backtracks < kMaxBacktracks) {
      backtrack = true;
      ++backtracks;
      for (auto& s : run.sets) {
        if (!s.stable || !s.stepped || s.yprev.size() != s.y.size()) continue;
        for (size_t k = 0; k < s.y.size(); ++k) s.y[k] = s.yprev[k] + 0.5 * (s.y[k] - s.yprev[k]);
        s.aleph = s.alprev + 0.5 * (s.aleph - s.alprev);
      }
      if (mu_prev.size() == run.mu.size()) run.mu = mu_prev;
    } else {
      for (size_t i = 0; i < run.sets.size(); ++i) {
        const CompSet& s = run.sets[i];
        if (!s.stable || keep[i]) continue;
        if (s.aleph >= 1e-10)
          sig_amt = std::min(sig_amt, 0.5 * s.aleph / -(sig_al * dal[i]));
        else
          hold[i] = 1;
      }
    }
    if (debug_level() >= 1)
      std::fprintf(stderr, "removal would leave an infeasible assemblage: %s (sigma %.3e)\n",
                   backtrack ? "last step halved" : "amounts damped", sig_amt);
  }
  return backtrack;
}

// Newton's step after a phase enters with a driving force of a few hundred J/mol can move the chemical potentials by
// kJ/mol; one or two of the sets then come out with a negative amount and leave, and the set that entered leaves in
// the next step, so that the iteration returns to the state it came from and the phase enters again (AISI 304 on
// mf-steel at 1100 K: BCC_A2 entering FCC_A1 + M23C6_D84 + SIGMA2_D8B, DF 426 J/mol, left after one step every time;
// Fe-20.4Cr-17.1Ni at 1073 K: SIGMA2_D8B entering FCC_A1 + BCC_A2, DF 91 J/mol, took BCC_A2 and then itself out).
// With Run::delay_changes (a retry, equilibrium.cpp) a removal waits as in OpenCalphad's minimizer (Sundman, Lu and
// Ohtani, Comput. Mater. Sci. 101 (2015) 127; its meq_sameset and meq_phaseset): a set that entered less than
// kMinIterationsStable iterations ago is not removed, and a set whose amount comes out negative is first held at zero
// amount and leaves only when it comes out negative in the next iteration too. Returns true when the set stays.
constexpr int kMinIterationsStable = 4;

bool removal_delayed(const Run& run, CompSet& s) {
  if (!run.delay_changes) return false;
  const bool delay = run.iterations - s.entered_at < kMinIterationsStable || !s.negative_before;
  s.negative_before = true;
  return delay;
}

// The amounts' step (§8.4-§8.5): a stable set whose amount would become negative leaves (`changed`), one held
// (guard_infeasible_removal) stays at a tiny amount. maxdal: the largest change in moles of atoms. Returns
// false with `why` when a set runs into its pure-vacancy configuration.
bool step_amounts(Run& run, const std::vector<double>& dal, const std::vector<char>& hold, int& nstable,
                  int since_change, double& maxdal, bool& changed, Reason& why) {
  for (size_t i = 0; i < run.sets.size(); ++i) {
    CompSet& s = run.sets[i];
    if (!s.stable) continue;
    s.alprev = s.aleph;
    double na = s.aleph + dal[i];
    maxdal = std::max(maxdal, std::fabs(dal[i]) * s.Nf);
    if (hold[i] && !(na > 1e-14)) {
      na = std::max(s.aleph, 1e-13);   // kept at a tiny amount (see guard_infeasible_removal)
      maxdal = std::max(maxdal, 1.0);  // not converged while a needed set is held at the bound
    }
    const bool leaves = !(na > 1e-14) && nstable > 1 && since_change >= 1;
    if (leaves && removal_delayed(run, s)) {
      s.aleph = 1e-16;                 // at zero amount, still on the tangent (a stable set)
      maxdal = std::max(maxdal, 1.0);  // not converged while it is held there
      continue;
    }
    s.negative_before = false;
    if (leaves) {
      s.stable = false;
      s.aleph = 0;
      s.removed++;
      --nstable;
      changed = true;
    } else {
      s.aleph = std::max(na, 1e-16);
    }
    // 1 mole of atoms in more than 1e8 formula units: the set runs into the pure-vacancy configuration
    // (N_f -> 0). With G_f < 0 there G_M = G_f / N_f has no lower bound (a model without Gibbs parameters,
    // e.g. pycalphad_inline_V_O_gas_halite's HALITE): no equilibrium exists; say so instead of iterating on.
    if (s.aleph > 1e8) {
      why = pure_vacancy_reason(run, s);
      return false;
    }
  }
  return true;
}

// The site-fraction step of every set at the new μ (8.3): stable sets with σ_ℵ, metastable ones in full.
void step_site_fractions(Run& run, const std::vector<double>& mu, double sig_al, double& maxdy, double& maxdy_meta) {
  for (auto& s : run.sets) {
    if (s.idle) {
      s.stepped = false;
      continue;
    }
    set_step(run, s, mu, 0.0);
    s.stepped = s.stable;
    if (s.stable) s.yprev.assign(s.y.begin(), s.y.end());
    double d = apply_step(s, s.stable ? sig_al : 1.0);
    if (debug_level() >= 3) {
      std::fprintf(stderr, "  %s y:", run.phases[s.phase]->name().c_str());
      for (size_t k = 0; k < s.y.size(); ++k) std::fprintf(stderr, " %.9f(%.3e,%.3e)", s.y[k], s.dy[k], s.dy0[k]);
      std::fprintf(stderr, "\n");
    }
    if (s.stable)
      maxdy = std::max(maxdy, d);
    else
      maxdy_meta = std::max(maxdy_meta, d);
  }
}

// Merges sets of one phase that have become the same (§8.5), keeping a stable one. Returns true if any merged.
bool merge_coincident_sets(Run& run) {
  bool changed = false;
  for (size_t i = 0; i < run.sets.size(); ++i)
    for (size_t j = i + 1; j < run.sets.size(); ++j) {
      CompSet& a = run.sets[i];
      CompSet& b = run.sets[j];
      if (a.phase != b.phase || (!a.stable && !b.stable)) continue;
      double dy = 0;
      for (size_t k = 0; k < a.y.size(); ++k) dy = std::max(dy, std::fabs(a.y[k] - b.y[k]));
      if (dy > kCompTol) continue;
      if (!a.stable) std::swap(a, b);  // keep the stable one at i
      if (b.stable) a.aleph += b.aleph;
      run.sets.erase(run.sets.begin() + j);
      --j;
      changed = true;
    }
  return changed;
}

// The stable assemblage has converged: the metastable sets finish relaxing at fixed μ (§9.2), every set is
// linearised at its final y, and the metastable set with the largest driving force above kDFAdd is returned
// (-1: none, the equilibrium is found).
int converged_candidate(Run& run, double maxdy_meta) {
  // Sets left idle during the iteration (far below the tangent, see newton) relax here from where they were
  // left; each set stops once its own step is below 1e-10.
  thread_local std::vector<char> relaxed;  // per-thread workspace
  relaxed.assign(run.sets.size(), 0);
  for (auto& s : run.sets)
    if (s.idle) maxdy_meta = std::numeric_limits<double>::infinity();
  for (int r = 0; r < 60 && maxdy_meta > 1e-10; ++r) {
    maxdy_meta = 0;
    for (size_t i = 0; i < run.sets.size(); ++i) {
      CompSet& s = run.sets[i];
      if (s.stable || relaxed[i]) continue;
      // with the μ columns: the set's last linearisation is then its final one (below), and it holds in the next
      // Newton iteration too unless the set moves
      linearize_if_moved(run, s, false);
      set_step(run, s, run.mu, 0.0);
      s.yprev.assign(s.y.begin(), s.y.end());
      const double moved = apply_step(s, 1.0);
      keep_above_vacancy_floor(run, s, s.yprev);
      relaxed[i] = !(moved > 1e-10);
      // a step that small is no step (the set is relaxed): the set stays where it was linearised
      if (relaxed[i]) s.y.swap(s.yprev);
      maxdy_meta = std::max(maxdy_meta, moved);
    }
  }
  for (auto& s : run.sets) s.idle = false;
  for (auto& s : run.sets) linearize_if_moved(run, s, false);
  // candidate with the largest driving force per mole of atoms
  int best = -1;
  double bdf = kDFAdd;
  for (size_t i = 0; i < run.sets.size(); ++i) {
    CompSet& s = run.sets[i];
    s.DF = s.stable ? 0.0 : driving_force(run, s);
    bool phase_present = false;
    if (run.single_set)
      for (const auto& o : run.sets) phase_present |= o.stable && o.phase == s.phase;
    // a metastable set held at the phase's vacancy floor is no candidate (PhaseGrid::nf_floor), nor one of a phase
    // left out of this run
    const bool vacant = !s.stable && (at_vacancy_floor(run, s) || left_out(run, s.phase));
    if (!s.stable && !phase_present && !vacant && s.added < 6 && s.DF > bdf) {
      bdf = s.DF;
      best = static_cast<int>(i);
    }
  }
  if (best >= 0 && debug_level() >= 1)
    std::fprintf(stderr, "add %s DF %g\n", run.phases[run.sets[best].phase]->name().c_str(), bdf);
  return best;
}

// Two stable sets of one phase whose midpoint lies below their chord at the current μ are no miscibility gap:
// at a gap's equilibrium the chord is the common tangent and every state between the two sets lies above it.
// Such a pair arises when both start on a manifold the iteration cannot leave, e.g. two disordered hull
// vertices of an ordering phase where G is concave along the disordered states (alcfe_b2's B2_BCC at 689.7 K,
// x(FE) = 0.2417: vertices at 0.2333 and 0.25, 7.8 J per formula unit below the chord between them); Newton
// then moves the two sets towards each other by 1e-5 per iteration and runs to its limit. Merged into one set
// (amount-weighted site fractions) the state converges, and the basin check looks for the ordered one. Only
// applied to a run that has not converged after kCreepIterations since its last phase change, so a run that
// converges is unchanged. Returns true if a pair was merged.
constexpr int kCreepIterations = 40;

bool merge_pairs_below_chord(Run& run) {
  EnergyResult e;
  MolesResult mo;
  auto dist = [&](int p, const double* y) {
    run.phases[p]->energy(*run.im.states[p], y, 0, e);
    run.phases[p]->moles(y, 0, mo);
    double d = e.Gf;
    for (int A = 0; A < run.C; ++A) d -= run.mu[A] * mo.M[A];
    return d;
  };
  for (size_t i = 0; i < run.sets.size(); ++i)
    for (size_t j = i + 1; j < run.sets.size(); ++j) {
      CompSet& a = run.sets[i];
      CompSet& b = run.sets[j];
      if (a.phase != b.phase || !a.stable || !b.stable) continue;
      std::vector<double> ym(a.y.size());
      for (size_t k = 0; k < ym.size(); ++k) ym[k] = 0.5 * (a.y[k] + b.y[k]);
      const double dm = dist(a.phase, ym.data()), da = dist(a.phase, a.y.data()), db = dist(a.phase, b.y.data());
      if (!(dm < 0.5 * (da + db) - 1e-3)) continue;
      if (debug_level() >= 1)
        std::fprintf(stderr, "merge %s sets below their chord: d(mid) %.6f d %.6f %.6f\n",
                     run.phases[a.phase]->name().c_str(), dm, da, db);
      const double w = a.aleph + b.aleph;
      for (size_t k = 0; k < a.y.size(); ++k) a.y[k] = (a.aleph * a.y[k] + b.aleph * b.y[k]) / w;
      a.aleph = w;
      run.sets.erase(run.sets.begin() + static_cast<long>(j));
      return true;
    }
  return false;
}

// A stable set whose reduced Hessian is not positive definite lies inside a spinodal of its phase: a saddle of G, not
// a minimum, and Newton with the Hessian shifted to positive definite (linearize) creeps towards it by a few per cent
// of the distance per iteration (a LIQUID of mf-steel's Fe-Cr-Ni-Mo-Mn-Si-C-N at 1649 K, x(C) = 0.34, shifted by
// 1.3e5 J/mol in every iteration: still moving at the iteration limit, where LIQUID + LIQUID is 400 J/mol lower).
// A phase inside its spinodal decomposes (Lukas, Fries and Sundman, Computational Thermodynamics, 2007, ch. 6: the
// stability of a solution phase against a miscibility gap): with Run::delay_changes, a run that has not converged
// kCreepIterations after its last phase change takes the state below such a set along the eigenvector of the
// lowest eigenvalue (escape_saddle) as a second set of the phase. Returns true if one entered.
bool split_set_at_saddle(Run& run) {
  for (size_t i = 0; i < run.sets.size(); ++i) {
    if (!run.sets[i].stable) continue;
    CompSet below;
    bool minimum = false;
    const size_t p = static_cast<size_t>(run.sets[i].phase);
    if (!escape_saddle(run, p, run.sets[i], below, minimum)) continue;
    if (debug_level() >= 1)
      std::fprintf(stderr, "split %s at a saddle: DF %g\n", run.phases[p]->name().c_str(), below.DF);
    linearize(run, below, false);
    run.sets.push_back(std::move(below));
    add_set(run, static_cast<int>(run.sets.size()) - 1);
    return true;
  }
  return false;
}

// The candidate enters beside the stable sets (add_set). With Run::delay_changes a phase that enters again, the
// iteration having come back to an assemblage it left, enters the assemblage of least G over the sets as they are
// instead (assemblage_lp.cpp): a cycle of assemblages each reached by adding a phase ends there.
void enter_candidate(Run& run, int candidate) {
  const bool again = run.delay_changes && run.sets[candidate].added > 0;
  if (!again || !enter_least_assemblage(run, candidate)) add_set(run, candidate);
}

// The reason of a Newton run that reached its iteration limit; it says so when the stable sets left cannot
// meet the conditions at all (assemblage_feasible).
Reason iteration_limit_reason(const Run& run) {
  // A stable set on its way to the pure-vacancy configuration (see step_amounts) that the iteration limit
  // stopped before 1e8 formula units: fewer than 1e-4 atoms per formula unit is no condensed state either
  // (pycalphad_inline_V_O_gas_halite at X(V) = 1e-6: HALITE at 1.2e6 formula units after 400 iterations).
  for (const auto& s : run.sets)
    if (s.stable && s.aleph > 1e4) return pure_vacancy_reason(run, s);
  Reason why{"Newton iteration limit reached"};
  std::vector<char> keep(run.sets.size(), 0);
  std::string names;
  for (size_t i = 0; i < run.sets.size(); ++i)
    if (run.sets[i].stable) {
      keep[i] = 1;
      names += (names.empty() ? "" : " + ") + run.phases[run.sets[i].phase]->name();
    }
  if (!names.empty() && !assemblage_feasible(run, keep))
    why.text += " (the stable phases " + names + " cannot meet the composition conditions)";
  return why;
}

}  // namespace

Reason pure_vacancy_reason(const Run& run, const CompSet& s) {
  return {"phase " + run.phases[s.phase]->name() +
              " runs into its pure-vacancy configuration (its Gibbs energy per mole of atoms has no lower bound "
              "there): " +
              std::string(kNoLowerBound) + " with this phase",
          ErrorCode::NoEquilibrium, s.phase};
}

// Newton iteration on the Lagrangian with phase changes (§8.3-§8.5). Returns true when converged.
bool newton(Run& run, int max_it, Reason& why) {
  std::vector<double> mu, dal;
  int since_change = 0;
  std::vector<double> x;
  std::vector<double> mu_prev;
  bool have_prev = false;  // the stable sets took the last step together (no phase change since)
  int backtracks = 0;
  // A metastable set whose driving force lies more than kIdleDF below the tangent cannot become a candidate in
  // this iteration (candidates are chosen only when the stable sets have converged, converged_candidate): it is
  // left idle, neither linearised nor stepped, until the μ of a later iteration brings it within kIdleDF; its
  // driving force at a new μ comes from the energy and moles of its last linearisation (y unchanged). The
  // relaxation of these sets (§9.2) is finished at the converged μ, from where they were left (the starting
  // point only: the same maximum was reached in every comparison on random points of four systems, with the
  // bound as low as 100 J/mol). In a many-phase system most sets are far below (Al-Co-Cr-Ni at 1523 K: 19 of
  // 22 by more than 1 kJ/mol), and their model evaluations were most of Newton's time.
  const double kIdleDF = std::max(200.0, 0.02 * 8.314462618 * run.cd.T);  // J/mol of atoms
  // The condition residual is converged below 2e-11. At a state on the model's site-fraction floor (kYMin) it
  // can stall above that: at the exact composition of a stoichiometric state (femns's ionic liquid
  // (MN+2)(S-2,VA,S) at X(S) = 0.5, the BETA phase of parameter_filter_test at X(C) = 0.5, CORUNDUM + GAS of
  // alfeo at 336 K) the potentials are not unique (any μ between the tangents of the two sides holds), the
  // defect fractions that would fix the last 1e-11..1e-10 of the composition lie below the floor, and Newton
  // repeated the same state to its iteration limit. A residual that has not fallen for kStallIterations while
  // the amounts and site fractions are still is accepted within the result's mass-balance tolerance.
  constexpr int kStallIterations = 5;
  const double kStalledResidual = mass_balance_tolerance(run.cd);
  double res_best = std::numeric_limits<double>::infinity();
  int res_stalled = 0;
  for (int it = 0; it < max_it; ++it, ++run.iterations, ++since_change) {
    const bool mu_known = run.mu.size() == static_cast<size_t>(run.C) &&
                          std::all_of(run.mu.begin(), run.mu.end(), [](double v) { return std::isfinite(v); });
    for (auto& s : run.sets) {
      s.idle = false;
      if (!s.stable && mu_known && s.ylin == s.y && driving_force(run, s) < -kIdleDF) {
        s.idle = true;
        continue;
      }
      linearize_if_moved(run, s, false);
      if (!s.stable && mu_known && driving_force(run, s) < -kIdleDF) s.idle = true;
    }
    const double res = condition_residual(run, x);
    double dT;
    if (!solve_global(run, 0, -1, mu, dal, dT)) {
      why = {"non-finite values in the Newton system (model energies NaN/Inf)"};
      return false;
    }
    mu_prev.swap(run.mu);
    run.mu = mu;
    // relative change of μ in this step: at round-off (1e-10 of |μ|), μ is as exact as the linear algebra
    // can give it (see the convergence test below)
    double dmu_rel = 0;
    if (mu_prev.size() == mu.size())
      for (size_t A = 0; A < mu.size(); ++A)
        dmu_rel = std::max(dmu_rel, std::fabs(mu[A] - mu_prev[A]) / std::max(1.0, std::fabs(mu[A])));
    else
      dmu_rel = 1;
    double maxdal = 0, maxdy = 0, maxdy_meta = 0;
    int nstable = 0;
    for (auto& s : run.sets) nstable += s.stable;
    bool changed = false;
    const double sig_al = run.limit_amounts ? std::min(gap_step_limit(run, dal), overshoot_step_limit(run, dal))
                                            : gap_step_limit(run, dal);
    thread_local std::vector<char> hold;  // per-thread workspace (every iteration)
    hold.assign(run.sets.size(), 0);
    double sig_amt = 1.0;  // amounts only
    if (guard_infeasible_removal(run, dal, sig_al, nstable, since_change, have_prev, backtracks, mu_prev, hold,
                                 sig_amt))
      continue;  // no step in this iteration; linearise again at the midpoint
    if (sig_al * sig_amt < 1)
      for (double& v : dal) v *= sig_al * sig_amt;
    if (!step_amounts(run, dal, hold, nstable, since_change, maxdal, changed, why)) return false;
    step_site_fractions(run, mu, sig_al, maxdy, maxdy_meta);
    changed |= merge_coincident_sets(run);
    if (debug_level() >= 1) {
      std::fprintf(stderr, "it %d res %.3e dal %.3e dy %.3e dymeta %.3e mu", run.iterations, res, maxdal, maxdy,
                   maxdy_meta);
      for (double v : run.mu) std::fprintf(stderr, " %.6f", v);
      for (auto& s : run.sets)
        std::fprintf(stderr, " | %s%s a=%.3e y0=%.6f xlast=%.5f", run.phases[s.phase]->name().c_str(),
                     s.stable ? "*" : "", s.aleph, s.y.empty() ? 0.0 : s.y[0],
                     s.Nf > 0 ? s.mo.M[run.C - 1] / s.Nf : 0.0);
      std::fprintf(stderr, "\n");
    }
    if (!changed && since_change >= kCreepIterations && since_change % 20 == 0) {
      changed = merge_pairs_below_chord(run);
      if (!changed && run.delay_changes) changed = split_set_at_saddle(run);
    }
    have_prev = !changed;
    if (changed) {
      since_change = 0;
      res_best = std::numeric_limits<double>::infinity();
      res_stalled = 0;
      continue;
    }
    // Converged: residuals, site fractions and amounts still (§8.5). The amounts of two phases that differ
    // only in a dilute element (X(CU) = 1.3e-7 in Mg, LIQUID + HCP_A3 at the melting point) follow x of that
    // element, i.e. exp(μ/RT): μ at its round-off (2e-10 relative, from the least-squares solve) moves them by
    // a few 1e-9 from one iteration to the next, forever. Amounts still within 1e-7 while μ changes only at
    // round-off level are therefore converged too.
    const bool amounts_still = maxdal < 1e-10 || (maxdal < 1e-7 && dmu_rel < 1e-9);
    if (res < 0.9 * res_best) {
      res_best = res;
      res_stalled = 0;
    } else {
      ++res_stalled;
    }
    const bool res_converged = res < 2e-11 || (res < kStalledResidual && res_stalled >= kStallIterations);
    if (res_converged && amounts_still && maxdy < 1e-10 && since_change >= 1) {
      const int best = converged_candidate(run, maxdy_meta);
      if (best < 0) return true;
      enter_candidate(run, best);
      since_change = 0;
      have_prev = false;
    }
  }
  why = iteration_limit_reason(run);
  return false;
}

}  // namespace pd::solver::detail
