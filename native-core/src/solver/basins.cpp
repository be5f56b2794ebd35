// Maxima of the driving force between the sampled points of phases with several basins.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <limits>
#include <stdexcept>

#include "solver/solver_internal.hpp"

namespace pd::solver::detail {

// Local maxima of the driving force missed by the grid (our addition to §8.7, after the grid re-scan of
// §8.5 finds no point above the tangent hyperplane). For a phase with several basins (PhaseInfo::
// several_basins) a narrow one - an ordered state with antisite atoms, a B2 with constitutional vacancies -
// can fall between the sampled points: no point lies above the hyperplane although the phase's relaxed
// maximum does, and the metastable set relaxed from the single best point sits in another basin (e.g.
// alni_tough_chempot, 1560.7 K, X(NI) = 0.8369: the best B2 grid point has DF = -518 J/mol, its basin's
// maximum +191 J/mol; the cold start gave L12 + L12#2, 170 J/mol above B2 + L12). Here the phase is relaxed
// at the final μ (Newton on G_f - μ·M, §9.2) from its best mutually distant grid points within a window of
// the hyperplane; a new maximum with DF > kDFAdd gets a composition set (returns true: solve again), and a
// phase without a stable set keeps its best maximum as its metastable set (its reported DF is the largest
// found). The relaxations of a phase stop once two in a row end in known maxima (the starts are taken best
// first; ordering variants of one state count as known: same DF and composition). If Newton then fails
// with the new set, the caller keeps the converged state from before.
//
// A start from which the driving force rises all the way to a maximum that a relaxation has ended in lies in
// that maximum's basin and is not relaxed (uphill_to_known): the best grid points around a disordered set are
// slightly ordered states of its own basin, and an ordered basin behind them was never tried (Ni-Pt, 760.4 K,
// x(PT) = 0.196: the L12 maximum, 0.7 J/mol above the tangent of the single A1, came after three of them; 894.5
// K, x(PT) = 0.443: L10, 21.6 J/mol, after four). A set Newton converged to is not taken for a maximum before a
// relaxation ends in it: it can be a saddle (the A2 state of B2_BCC next to its second-order transition, Al-Fe
// at 1539.6 K, x(FE) = 0.6575, where B2 is 0.26 J/mol lower and a straight path from a B2 grid point to A2
// rises), nor when it is a minimum of G - μ·M: a single set inside a narrow miscibility gap is one (Cr-Fe,
// crfe_bcc_magnetic, 852.44 K, x(FE) = 0.8631: the path from a start far away rises at every grid point to that
// set, but the relaxation from it ends in the basin of x = 0.8645 next to the set and adds the gap, 1.2 mJ/mol
// lower). A relaxation that ends in another ordering variant of a known state does not count as ending in a
// known maximum. Solution phases with one mixing sublattice have one basin per miscibility gap of their excess
// energy, but a magnetic contribution can add a narrow one where the Curie temperature changes steeply with
// composition (a magnetically induced miscibility gap: Nishizawa, Hasebe and Ko, Acta Metall. 27 (1979) 817):
// Co-Cr at 723.9 K, x(CR) = 0.015 has HCP + HCP (ferromagnetic, x = 0.007) 2 J/mol below the FCC + HCP found
// from the grid, whose points miss that basin. Those phases get the window kWindow where that can happen
// (magnetic_basin_possible). Every other phase is checked too, within a window of the grid's interpolation
// error (smooth_window): a basin as wide as the excess energy makes it still has its maximum between two grid
// points, up to that much above the better of them, and next to a stable phase of nearly the same energy that
// decides the assemblage (COST507, Fe-Mg at 1791.48 K, x(MG) = 0.4975: the best grid point of the Fe-rich
// liquid has DF = -0.44 J/mol and its basin's maximum +0.76 J/mol, while the grid gave BCC + LIQUID, 0.39
// J/mol above LIQUID + LIQUID; Cu-Fe at 1120 K, x(FE) = 0.4983, with the FCC's magnetic terms far below T:
// the Fe-rich FCC at -3.3 and +6.1 J/mol).
namespace {

// The phase's magnetic contribution can make a basin narrower than its grid at this temperature: some grid
// point carries a magnetic moment with an ordering temperature T* above T / kAboveOrdering. The contribution
// changes sharply with composition only where T is near T*(x) (a magnetically induced miscibility gap ends
// close to the Curie temperature: Nishizawa, Hasebe and Ko, Acta Metall. 27 (1979) 817). Above T*, the
// Inden-Hillert-Jarl term R T ln(1+β) f(τ) (Inden, Proc. CALPHAD V (1976); Hillert and Jarl, Calphad 2 (1978)
// 227), τ = T/T*(x), adds to the curvature in composition -R ln(1+β) [2τ^-3 + (2/3)τ^-13 + (2/5)τ^-23]
// T*'(x)² / (D T) and a term in T*''(x): smooth powers of τ, at τ = 1.2 some 40% of the value at T*. There the
// phase is like any solution phase with one basin per miscibility gap of its excess energy (checked within the
// smooth window of check_basins). The largest T* of the grid points is computed once per (T,P), from the grid's
// linear tables where it has them.
bool magnetic_basin_possible(const Run& run, size_t p) {
  constexpr double kAboveOrdering = 1.2;
  const PhaseModel& model = *run.phases[p];
  if (!model.magnetic()) return false;
  double& highest = run.im.ordering_T_max[p];
  if (std::isnan(highest)) {
    const PhaseGrid& g = run.grid.ph[p];
    const PhaseModel::State& state = *run.im.states[p];
    if (g.table) {
      highest = model.magnetic_ordering_temperature_max(state, *g.table);
    } else {
      highest = 0;  // a grid without a table keeps its site fractions in double (sampling.cpp, sample_phase)
      for (size_t k = 0; k < g.np; ++k)
        highest = std::max(highest, model.magnetic_ordering_temperature(state, &g.Y[k * g.m]));
    }
  }
  return run.cd.T < kAboveOrdering * highest;
}

}  // namespace

double df_at(const Run& run, size_t p, const double* y, EnergyResult& e, MolesResult& mo) {
  run.phases[p]->energy(*run.im.states[p], y, 0, e);
  run.phases[p]->moles(y, 0, mo);
  if (!(mo.Nf > 1e-12)) return -std::numeric_limits<double>::infinity();
  double df = -e.GM;
  for (int A = 0; A < run.C; ++A) df += run.mu[A] * mo.M[A] / mo.Nf;
  return df;
}

namespace {

// A start lies in the basin of a maximum of its phase (one a relaxation has ended in) when the driving force
// rises along the straight path from it to that maximum, tested at points no further apart than an eighth of
// the way (a coarser test takes a start across a narrow barrier for one in the basin, the second ionic liquid of
// Cu-O at 1610 K): its relaxation would end there, so it is not tried. A start in another basin has a dip of the
// driving force on the way. With fixed site ratios the contents M and N_f are linear in y: along the path they
// are interpolated between its ends, and only the energy is evaluated at each point. The points are the
// eighths, or, on a phase with one degree of freedom (PhaseGrid::line_order not empty; the start is grid point
// `start`), the grid points on the path, whose driving forces df_all are known, with evaluated points only where
// two of them lie further apart than an eighth. There the walk ends at a grid point found uphill to the same
// maximum as a start before (rises_from[point] == that maximum): the rest of the path is that start's path,
// tested at points an eighth of its own, shorter, length apart. A start found uphill is recorded in rises_from.
struct ContentsAt {  // μ·M and N_f of a maximum's site fractions, computed once per check of a phase
  const CompSet* k;
  double mu_M, Nf;
};
bool uphill_to_known(const Run& run, size_t p, const double* y0, double df0, const std::vector<const CompSet*>& maxima,
                     size_t start, const std::vector<double>& df_all, std::vector<const CompSet*>& rises_from,
                     std::vector<ContentsAt>& contents_at, std::vector<double>& ymid, EnergyResult& e, MolesResult& mo,
                     const CompSet** rose_to) {
  constexpr double kEighth = 0.125;
  constexpr double kSame = 1e-12;  // grid points closer than this in t are one point
  const PhaseGrid& grid = run.grid.ph[p];
  const int m = grid.m, C = run.C;
  const PhaseInfo& pi = run.im.info[p];
  const bool linear_contents = !pi.variable_ratios;
  ymid.resize(m);
  double mu_M0 = 0, Nf0 = 0;  // μ·M and N_f at y0, once a point is evaluated
  bool at_y0 = false;
  for (const CompSet* k : maxima) {
    double mu_Mk = 0, Nfk = 0;
    bool at_k = false;
    // the driving force at fraction t of the way from y0 to the maximum
    auto df_along = [&](double t) {
      for (int i = 0; i < m; ++i) ymid[i] = (1 - t) * y0[i] + t * k->y[i];
      if (!linear_contents) return df_at(run, p, ymid.data(), e, mo);
      if (!at_y0) {
        run.phases[p]->moles(y0, 0, mo);
        for (int A = 0; A < C; ++A) mu_M0 += run.mu[A] * mo.M[A];
        Nf0 = mo.Nf;
        at_y0 = true;
      }
      if (!at_k) {
        auto known =
            std::find_if(contents_at.begin(), contents_at.end(), [&](const ContentsAt& c) { return c.k == k; });
        if (known == contents_at.end()) {
          run.phases[p]->moles(k->y.data(), 0, mo);
          double mu_M = 0;
          for (int A = 0; A < C; ++A) mu_M += run.mu[A] * mo.M[A];
          contents_at.push_back({k, mu_M, mo.Nf});
          known = contents_at.end() - 1;
        }
        mu_Mk = known->mu_M;
        Nfk = known->Nf;
        at_k = true;
      }
      const double Nf = (1 - t) * Nf0 + t * Nfk;
      double GM;
      run.phases[p]->energies(*run.im.states[p], ymid.data(), 1, &GM);
      return Nf > 1e-12 ? ((1 - t) * mu_M0 + t * mu_Mk) / Nf - GM : -std::numeric_limits<double>::infinity();
    };
    double prev_t = 0, prev = df0;
    // the path rises at the evaluated points strictly between prev_t and t (as many as keep them an eighth apart)
    auto rises_to = [&](double t) {
      const int n = static_cast<int>(std::ceil((t - prev_t) / kEighth - 1e-9)) - 1;
      const double from = prev_t;
      for (int j = 1; j <= n; ++j) {
        const double tj = from + (t - from) * j / (n + 1);
        const double df = df_along(tj);
        if (!(df > prev)) return false;
        prev_t = tj;
        prev = df;
      }
      return true;
    };
    bool rising = true;
    if (!grid.line_order.empty()) {
      bool joined = false;  // the walk reached a start found uphill to k before
      double s_max = 0;
      for (int i = 0; i < m; ++i) s_max += pi.Z[i] * k->y[i];
      const double s0 = grid.line_s[start];
      const long dir = s_max > s0 ? 1 : -1;
      const long np = static_cast<long>(grid.line_order.size());
      for (long r = static_cast<long>(grid.line_rank[start]) + dir; rising && r >= 0 && r < np; r += dir) {
        const size_t g = grid.line_order[r];
        const double t = (grid.line_s[g] - s0) / (s_max - s0);
        if (!(t < 1 - kSame)) break;  // at or past the maximum
        if (t - prev_t <= kSame) continue;
        rising = rises_to(t) && df_all[g] > prev;
        prev_t = t;
        prev = df_all[g];
        joined = rising && rises_from[g] == k;
        if (joined) break;
      }
      // the last point tested lies within an eighth of the maximum, as with the eighths alone
      rising = rising && (joined || rises_to(1));
      if (rising) rises_from[start] = k;
    } else {
      rising = rises_to(1);
    }
    if (rising) {
      *rose_to = k;
      return true;
    }
  }
  return false;
}

constexpr int kStarts = 6;          // relaxations per phase and solve, at most
constexpr int kKnownInARow = 2;     // ... stopping once this many in a row end in known maxima
constexpr size_t kCandidates = 64;  // best grid points considered
constexpr double kApart = 0.1;      // starts differ by this much in some site fraction
constexpr double kWindow = 2000;    // J/mol of atoms: grid points further below the hyperplane are not tried

// ydist(a, b, m) < tol, stopping at the first site fraction that differs by tol or more
bool within(const double* a, const double* b, int m, double tol) {
  for (int i = 0; i < m; ++i)
    if (!(std::fabs(a[i] - b[i]) < tol)) return false;
  return true;
}

double ydist(const double* a, const double* b, int m) {
  double d = 0;
  for (int i = 0; i < m; ++i) d = std::max(d, std::fabs(a[i] - b[i]));
  return d;
}

// the same maximum up to symmetry: equal driving force and composition
bool same_state(const CompSet& a, double dfa, const CompSet& b, double dfb, int C) {
  if (std::fabs(dfa - dfb) > 1e-3) return false;
  for (int A = 0; A < C; ++A)
    if (std::fabs(a.mo.M[A] / a.Nf - b.mo.M[A] / b.Nf) > 1e-5) return false;
  return true;
}

using Candidate = std::pair<double, size_t>;  // a grid point's driving force and index

// the heap's order: best first, of equal ones the lower grid index
bool worse(const Candidate& a, const Candidate& b) {
  return a.first < b.first || (a.first == b.first && a.second > b.second);
}

// The workspaces of one check, shared by its phases.
struct BasinWork {
  std::vector<Candidate> cand;
  std::vector<const CompSet*> rises_from;  // per grid point of a one-dimensional phase: the maximum it rises to
  std::vector<ContentsAt> contents_at;     // of the maxima a path has been tested to
  std::vector<double> ymid;                // uphill_to_known's workspaces
  EnergyResult e_mid;
  MolesResult mo_mid;
};

// The basin check of one phase p: its candidates (take_candidates), its known maxima (know_sets), the relaxations
// from its best grid points (search) and what comes of them (conclude).
class PhaseBasins {
 public:
  PhaseBasins(Run& run, size_t p, BasinWork& work)
      : run_(run), p_(p), pi_(run.im.info[p]), g_(run.grid.ph[p]), m_(g_.m), work_(work) {}

  // Grid points next to the phase's own sets are left out before the best are chosen: around a stable
  // disordered set the best points all lie in its own basin, and an ordered basin a little further down
  // (Ni-Pt, 712.5 K, x(PT) = 0.174: L12 0.68 J/mol below the tangent of the single FCC) would never be tried.
  // On a phase with one degree of freedom the grid tells the set's own basin: a point from which the driving
  // force falls somewhere on the way to the set lies in another basin and stays a candidate (a magnetically
  // induced gap narrower than kApart next to a stable set: Co-W of mc_fe_v2.059 at 1180.72 K, x(W) = 0.1385, the
  // Co-rich fcc at 0.027, 1.4 J/mol above the tangent of fcc at 0.053 + CO3MO, whose grid points lie below it).
  // The others within `window` of the hyperplane are taken best first (of equal ones the lower grid index), and
  // rarely more than a few: a heap gives the next on demand.
  void take_candidates(double window) {
    std::vector<const double*> sets_of_phase;
    for (const auto& s : run_.sets)
      if (s.phase == phase()) sets_of_phase.push_back(s.y.data());
    std::vector<Candidate>& cand = work_.cand;
    cand.clear();
    if (!g_.line_order.empty()) work_.rises_from.assign(g_.np, nullptr);
    work_.contents_at.clear();
    {
      // the points within the window first, in a loop of its own (most of a phase's grid lies below it; the points
      // the re-scan left out lie below it all)
      const double* df = df_all().data();
      const double lowest = -window;
      // none when the re-scan's largest lies below it by more than the rounding of the values taken exactly
      // (checked under PHASEDESK_SOLVER_CHECK_SCANS)
      const bool none = !(run_.im.grid_scan_top[p_] + run_.im.grid_rounding[p_] > lowest);
      if (!none || run_.check_scans)
        for_each_scanned_point(run_.im, p_, g_.np, [&](size_t k) {
          if (!(df[k] > lowest)) return;
          if (none) spared_scan_violations().fetch_add(1);
          cand.emplace_back(df[k], k);
        });
    }
    const int m = m_;
    std::vector<double> buf(m);
    if (!sets_of_phase.empty())
      cand.erase(std::remove_if(cand.begin(), cand.end(),
                                [&](const Candidate& c) {
                                  const double* yk = g_.point(c.second, buf.data());
                                  return std::any_of(sets_of_phase.begin(), sets_of_phase.end(), [&](const double* t) {
                                    return within(t, yk, m, kApart) && !dip_between(c.second, t);
                                  });
                                }),
                 cand.end());
    std::make_heap(cand.begin(), cand.end(), worse);
    heap_end_ = cand.size();
  }

  // The phase's sets are known maxima (the grid points next to them left out by take_candidates); a stable set at
  // a saddle (escape_saddle) has a new maximum below it, one a relaxation has ended in.
  void know_sets() {
    for (const auto& s : run_.sets)
      if (s.phase == phase()) known_.push_back(&s);
    found_.reserve(kStarts + run_.sets.size());  // `known_` points into both
    variants_.reserve(kCandidates);              // at most one per candidate taken
    for (const auto& s : run_.sets) {
      CompSet below;
      bool minimum = false;
      if (s.phase != phase() || !s.stable) continue;
      const bool escaped = escape_saddle(run_, p_, s, below, minimum);
      if (minimum) minima_.push_back(&s);
      if (!escaped) continue;
      if (ydist(below.y.data(), s.y.data(), m_) < 10 * kCompTol) continue;
      found_.push_back(std::move(below));
      known_.push_back(&found_.back());
      reached_.push_back(&found_.back());
    }
  }

  // Relaxes from the candidates best first, until kStarts relaxations, kKnownInARow in a row that end in known
  // maxima, or kCandidates candidates.
  void search() {
    for (size_t c = 0; c < kCandidates && heap_end_ > 0 && starts_ < kStarts && known_in_a_row_ < kKnownInARow; ++c) {
      std::pop_heap(work_.cand.begin(), work_.cand.begin() + heap_end_, worse);
      const auto [df0, k0] = work_.cand[--heap_end_];
      const double* y0 = start_point(k0);
      if (left_out(y0, df0, k0)) continue;
      taken_.push_back(y0);
      bool permuted = false;
      CompSet s = relaxed_from(y0, df0, permuted);
      s.DF = driving_force(run_, s);
      if (debug_level() >= 2)
        std::fprintf(stderr, "basin %s start DF %.3f relaxed DF %.3f%s\n", name(), df0, s.DF,
                     permuted ? " (a permuted start)" : "");
      if (!std::isfinite(s.DF) || at_vacancy_floor(run_, s)) continue;
      record(std::move(s));
    }
  }

  // The best new maximum, linearised: a set of its own when its driving force exceeds kDFAdd (returns true; the
  // largest such driving force of the check and its phase in added_df, added_phase); otherwise it replaces the
  // metastable set of a phase without a stable set when it is better.
  bool conclude(double& added_df, int& added_phase) {
    if (found_.empty()) return false;
    auto best =
        std::max_element(found_.begin(), found_.end(), [](const CompSet& a, const CompSet& b) { return a.DF < b.DF; });
    linearize(run_, *best, false);
    if (best->DF > kDFAdd) {
      if (debug_level() >= 1) std::fprintf(stderr, "basin of %s with DF %g\n", name(), best->DF);
      if (best->DF > added_df) {
        added_df = best->DF;
        added_phase = phase();
      }
      run_.sets.push_back(std::move(*best));
      return true;
    }
    // nothing to add: a phase without a stable set reports its best maximum
    CompSet* meta = nullptr;
    bool has_stable = false;
    for (auto& s : run_.sets)
      if (s.phase == phase()) {
        has_stable |= s.stable;
        if (!s.stable && (!meta || s.DF > meta->DF)) meta = &s;
      }
    if (!has_stable && meta && best->DF > meta->DF + 1e-9) *meta = std::move(*best);
    return false;
  }

 private:
  int phase() const { return static_cast<int>(p_); }

  // On a phase with one degree of freedom: the driving force of the grid points from point k towards the set of
  // site fractions y falls somewhere before it reaches the set (k lies in another basin). False on other phases.
  bool dip_between(size_t k, const double* y) const {
    if (g_.line_order.empty()) return false;
    double s_set = 0;
    for (int i = 0; i < m_; ++i) s_set += pi_.Z[i] * y[i];
    const double s0 = g_.line_s[k];
    const long dir = s_set > s0 ? 1 : -1;
    const long np = static_cast<long>(g_.line_order.size());
    const std::vector<double>& df = df_all();
    double prev = df[k];
    for (long r = static_cast<long>(g_.line_rank[k]) + dir; r >= 0 && r < np; r += dir) {
      const size_t g = g_.line_order[r];
      if ((g_.line_s[g] - s_set) * dir >= 0) break;  // at or past the set
      if (df[g] < prev) return true;
      prev = df[g];
    }
    return false;
  }
  const char* name() const { return run_.phases[p_]->name().c_str(); }
  // the driving force of every grid point of the phase at the μ of the last grid re-scan
  const std::vector<double>& df_all() const { return run_.im.grid_df[p_]; }

  // Grid point k's site fractions, kept while the search runs (starts and their records point at them).
  const double* start_point(size_t k) { return g_.point(k, start_points_.emplace_back(m_).data()); }

  // A candidate is not relaxed when it lies next to a start taken, or uphill to a known maximum (by symmetry or
  // by its path, uphill_to_known).
  bool left_out(const double* y0, double df0, size_t k0) {
    if (std::any_of(taken_.begin(), taken_.end(), [&](const double* t) { return within(t, y0, m_, kApart); }))
      return true;
    if (uphill_by_symmetry(y0, df0)) {
      if (debug_level() >= 3) std::fprintf(stderr, "basin %s start DF %.3f uphill by symmetry\n", name(), df0);
      return true;
    }
    const CompSet* rose_to = nullptr;
    if (uphill_to_known(run_, p_, y0, df0, reached_, k0, df_all(), work_.rises_from, work_.contents_at, work_.ymid,
                        work_.e_mid, work_.mo_mid, &rose_to)) {
      uphill_.push_back({y0, df0, rose_to});
      return true;
    }
    return false;
  }

  // The maximum the start y0 ends in: the permuted end of an earlier start it is a permutation of (one energy), or
  // its relaxation at μ.
  CompSet relaxed_from(const double* y0, double df0, bool& permuted) {
    CompSet s;
    s.phase = phase();
    const std::vector<double>* ys = permuted_start(y0, df0);
    permuted = ys != nullptr;
    if (ys) {
      s.y = *ys;
      run_.phases[p_]->energy(*run_.im.states[p_], s.y.data(), 0, s.e);
      run_.phases[p_]->moles(s.y.data(), 0, s.mo);
      s.Gf = s.e.Gf;
      s.GM = s.e.GM;
      s.Nf = s.mo.Nf;
      return s;
    }
    s.y.assign(y0, y0 + m_);
    // to tell a new maximum from a known one and its sign: Newton's final refinement is not needed here
    // (a set that is added is refined by the next pass), nor its linearisation unless it is the best found
    // a relaxation that comes next to a stable minimum or a maximum a relaxation has ended in ends there
    ends_.assign(minima_.begin(), minima_.end());
    ends_.insert(ends_.end(), reached_.begin(), reached_.end());
    relax_at_mu(run_, s, 1e-7, false, &ends_);
    relaxed_.push_back({y0, df0, s.y});
    ++starts_;  // only relaxations count: a permuted start costs one energy (the ordering variants of one grid
                // point used up the starts of Ni-Pt's 4-sublattice FCC_L12 before another basin was tried)
    return s;
  }

  // A relaxed maximum: known (a relaxation ended in it), another ordering variant of a known one, or new.
  void record(CompSet&& s) {
    bool is_known = false, is_variant = false;
    for (const CompSet* k : known_) {
      const bool same_y = ydist(k->y.data(), s.y.data(), m_) < 10 * kCompTol;
      if (same_y && std::find(reached_.begin(), reached_.end(), k) == reached_.end()) reached_.push_back(k);
      is_known |= same_y;
      is_variant |= !same_y && same_state(*k, k->stable ? 0.0 : k->DF, s, s.DF, run_.C);
    }
    if (is_known) {
      ++known_in_a_row_;
      return;
    }
    if (is_variant) {
      // another ordering variant of a known state (the sublattices permuted): known from now on, so that
      // the starts in its basin are left out, but not a sign that the phase has no other basin (around an
      // ordered L12 set the best grid points are its other variants; Ni-Pt, 760.4 K, x(PT) = 0.636: L10,
      // 1.4 J/mol above the tangent, comes after two of them)
      variants_.push_back(std::move(s));
      known_.push_back(&variants_.back());
      reached_.push_back(&variants_.back());
      return;
    }
    known_in_a_row_ = 0;
    found_.push_back(std::move(s));
    known_.push_back(&found_.back());
    reached_.push_back(&found_.back());
  }

  // The index of a permutation under which the model is invariant and which maps the start `from` (DF
  // df_from) onto y0 (DF df0); -1 if there is none. The phase's sublattice permutations are found when first
  // needed; perm_ok_: per permutation 0 untested, 1 the model is invariant, -1 not.
  int symmetry_between(const double* from, double df_from, const double* y0, double df0) {
    if (!(std::fabs(df_from - df0) <= 1e-9 * (1 + std::fabs(df0)))) return -1;
    if (!perms_made_) {
      perms_ = sublattice_permutations(*run_.phases[p_], pi_);
      perm_ok_.assign(perms_.size(), 0);
      perms_made_ = true;
    }
    for (size_t q = 0; q < perms_.size(); ++q) {
      const std::vector<int>& sigma = perms_[q];
      bool image = true;
      for (int i = 0; i < m_ && image; ++i) image = std::fabs(y0[sigma[i]] - from[i]) <= 1e-13;
      if (!image) continue;
      if (perm_ok_[q] == 0) perm_ok_[q] = symmetric_under(run_, p_, sigma) ? 1 : -1;
      if (perm_ok_[q] > 0) return static_cast<int>(q);
    }
    return -1;
  }

  // A start that is an earlier one with its equivalent sublattices permuted (the ordering variants of a grid
  // point: three of the four L12 variants of a 4-sublattice fcc are starts) ends in the same permutation of that
  // one's maximum when the model is invariant under it, which is taken without relaxing: that end, or null.
  const std::vector<double>* permuted_start(const double* y0, double df0) {
    for (const RelaxedStart& r : relaxed_) {
      const int q = symmetry_between(r.y0, r.df0, y0, df0);
      if (q < 0) continue;
      ys_perm_.assign(m_, 0.0);
      for (int i = 0; i < m_; ++i) ys_perm_[perms_[q][i]] = r.y[i];
      return &ys_perm_;
    }
    return nullptr;
  }

  // A start that is one found uphill to a known maximum with its sublattices permuted rises the same way to the
  // permuted maximum, and where a relaxation has ended in that one too (within 1e-6 in every site fraction) the
  // start is left out without evaluating the path (the ordering variants of a grid point around an ordered set).
  bool uphill_by_symmetry(const double* y0, double df0) {
    for (const UphillStart& u : uphill_) {
      const int q = symmetry_between(u.y0, u.df0, y0, df0);
      if (q < 0) continue;
      ys_perm_.assign(m_, 0.0);
      for (int i = 0; i < m_; ++i) ys_perm_[perms_[q][i]] = u.to->y[i];
      for (const CompSet* k : reached_)
        if (ydist(k->y.data(), ys_perm_.data(), m_) < 1e-6) return true;
    }
    return false;
  }

  struct RelaxedStart {  // a start relaxed, and where it ended
    const double* y0;
    double df0;
    std::vector<double> y;
  };
  struct UphillStart {  // a start found uphill to a known maximum, with that maximum
    const double* y0;
    double df0;
    const CompSet* to;
  };

  Run& run_;
  size_t p_;
  const PhaseInfo& pi_;
  const PhaseGrid& g_;
  int m_;
  BasinWork& work_;
  size_t heap_end_ = 0;
  std::vector<const double*> taken_;              // the starts used
  std::deque<std::vector<double>> start_points_;  // their site fractions (the grid's may be held in float)
  std::vector<const CompSet*> known_;
  std::vector<const CompSet*> reached_;    // the known maxima a relaxation has ended in
  std::vector<CompSet> found_, variants_;  // new maxima; ordering variants of known ones
  std::vector<const CompSet*> minima_;     // stable sets of the phase that are minima of G - μ·M (not saddles)
  std::vector<RelaxedStart> relaxed_;
  std::vector<std::vector<int>> perms_;
  std::vector<signed char> perm_ok_;
  bool perms_made_ = false;
  std::vector<double> ys_perm_;
  std::vector<UphillStart> uphill_;
  std::vector<const CompSet*> ends_;
  int starts_ = 0, known_in_a_row_ = 0;
};

}  // namespace

bool check_basins(Run& run, int pdens, double& added_df, int& added_phase) {
  // ... on a phase without narrow basins: a basin's maximum lies within half a grid spacing h = 1/pdens of a
  // grid point and at most G'' h² / 8 above it. The ideal mixing term gives at most R T / (8 pdens) (its
  // curvature R T / x at x = h; the log-spaced points nearer the ends err less); twice that leaves as much again
  // for an excess energy whose curvature is up to R T pdens.
  const double smooth_window = kGasConstant * run.cd.T / (4.0 * std::max(pdens, 1));
  bool added = false;
  added_df = 0;  // the largest driving force of a set added, and its phase
  added_phase = -1;
  BasinWork work;
  for (size_t p = 0; p < run.phases.size(); ++p) {
    const PhaseInfo& pi = run.im.info[p];
    if (pi.charged || run.grid.ph[p].np == 0 || left_out(run, static_cast<int>(p))) continue;
    if (run.single_set) {
      bool stable = false;
      for (const auto& s : run.sets) stable |= s.stable && s.phase == static_cast<int>(p);
      if (stable) continue;
    }
    const double window = pi.several_basins || magnetic_basin_possible(run, p) ? kWindow : smooth_window;
    PhaseBasins phase(run, p, work);
    phase.take_candidates(window);
    phase.know_sets();
    phase.search();
    added |= phase.conclude(added_df, added_phase);
  }
  return added;
}

}  // namespace pd::solver::detail
