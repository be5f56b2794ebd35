// The linear systems of one Newton iteration: per composition set (§8.2) and global (§8.3, §9.4).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "solver/solver_internal.hpp"

namespace pd::solver::detail {

void reduced_hessian(const double* H, size_t ld, int m, const std::vector<double>& Z, int nz, std::vector<double>& HZ,
                     std::vector<double>& Hr) {
  HZ.assign(static_cast<size_t>(m) * nz, 0.0);
  Hr.assign(static_cast<size_t>(nz) * nz, 0.0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      const double h = H[i * ld + j];
      if (h == 0) continue;
      for (int c = 0; c < nz; ++c) HZ[i * nz + c] += h * Z[j * nz + c];
    }
  for (int a = 0; a < nz; ++a)
    for (int b = 0; b < nz; ++b) {
      double v = 0;
      for (int i = 0; i < m; ++i) v += Z[i * nz + a] * HZ[i * nz + b];
      Hr[a * nz + b] = v;
    }
}

namespace {

// W = Hessian of the Lagrangian (8.1) in y: ∂²G_f/∂y² - sum_A μ_A ∂²M_A/∂y². The second term is zero
// for constant site ratios; for the ionic liquid (§7.1, P and Q depend on y) M_A is quadratic in y and
// leaving it out (as §8.2 notes pycalphad did before its PR #715) makes Δy of (8.3) the Newton step of
// the wrong function: with μ ~ -1e5 J/mol the missing curvature is larger than the ideal-mixing one, and
// two liquid sets of a miscibility gap oscillated without converging. μ is the current estimate (the
// step (8.3) stays linear in the new μ; the product μ·∂M/∂y is linearised at the current μ and y).
void lagrangian_hessian(const PhaseInfo& pi, const CompSet& s, int C, std::vector<double>& W) {
  const int m = pi.m, n = m + 2;
  W.assign(static_cast<size_t>(m) * m, 0.0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) W[i * m + j] = s.e.d2Gf[(2 + i) * n + 2 + j];
  if (pi.variable_ratios && !s.mo.d2M.empty())
    for (int A = 0; A < C; ++A) {
      const double muA = s.mu0[A];
      if (muA == 0) continue;
      const double* d2 = &s.mo.d2M[static_cast<size_t>(A) * m * m];
      for (int ij = 0; ij < m * m; ++ij) W[ij] -= muA * d2[ij];
    }
}

// The shift δ added to the diagonal of W that makes it positive definite on the null space of the site constraints
// (0 when it is): a Newton step towards a maximum is never wanted.
//
// The shift starts from the smallest diagonal entry, not the largest: a constituent at y ~ 1e-14 puts
// R T / y ~ 1e18 on the diagonal, and a shift relative to that (1e9 J/mol and more) flattened every
// other direction as well, so that the set's composition no longer answered μ in (8.3) (the Newton
// system then asked for μ of 1e8..1e12 J/mol: a single ionic-liquid set started inside its miscibility
// gap, cuo.tdb 1514 K). Starting small and growing by 4 keeps the shift within 4-16 times the most
// negative eigenvalue of the reduced Hessian, whatever the spread of its diagonal.
double positive_definite_shift(EquilibriumSolver::Impl& im, const PhaseInfo& pi, const std::vector<double>& W) {
  double delta = 0;
  if (pi.nz <= 0) return delta;
  const int nz = pi.nz;
  reduced_hessian(W.data(), pi.m, pi.m, pi.Z, nz, im.rhs, im.Hr);
  double scale = std::numeric_limits<double>::infinity();
  for (int a = 0; a < nz; ++a) scale = std::min(scale, std::fabs(im.Hr[a * nz + a]));
  scale = std::isfinite(scale) ? std::max(scale, 1.0) : 1.0;
  std::vector<double>& trial = im.trial;  // workspace: no allocation per call
  trial = im.Hr;
  if (!cholesky(trial.data(), nz)) {
    delta = std::min(1e-9 * scale, 1.0);
    for (int tries = 0; tries < 64; ++tries, delta *= 4) {
      trial = im.Hr;
      for (int a = 0; a < nz; ++a) trial[a * nz + a] += delta;
      if (cholesky(trial.data(), nz)) break;
    }
    delta *= 4;  // keep a margin so the step stays moderate
  }
  return delta;
}

// Φ = [[W + δ I, J_r^T], [J_r, 0]] factored into im.Phi, im.piv; false when it is singular.
bool factor_kkt(EquilibriumSolver::Impl& im, const PhaseInfo& pi, const std::vector<double>& W, double delta) {
  const int m = pi.m, k = pi.kr, K = m + k;
  im.Phi.assign(static_cast<size_t>(K) * K, 0.0);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) im.Phi[i * K + j] = W[i * m + j];
    im.Phi[i * K + i] += delta;
  }
  for (int r = 0; r < k; ++r)
    for (int i = 0; i < m; ++i) {
      im.Phi[(m + r) * K + i] = pi.Jr[r * m + i];
      im.Phi[i * K + m + r] = pi.Jr[r * m + i];
    }
  im.piv.assign(K, 0);
  return lu_factor(im.Phi.data(), K, im.piv.data());
}

// The set's steps from the factored Φ: the base step dy0, the μ columns cA (need_mu) and the T column cT (need_T).
void solve_steps(EquilibriumSolver::Impl& im, const PhaseInfo& pi, CompSet& s, int C, bool need_T, bool need_mu) {
  const int m = pi.m, k = pi.kr, n = m + 2, K = m + k;
  std::vector<double>& b = im.bvec;
  b.assign(K, 0.0);
  // base step: Φ [Δy; -λ] = [-(g - sum_A μ0_A ∂M_A/∂y); -r], i.e. c_G of (8.3) taken at the current μ0
  // instead of μ = 0; then Δy = dy0 + sum_A c_A (μ_A - μ0_A). Same step, but near convergence dy0 and the
  // μ-terms are small instead of two numbers of order |g|/|H| (tens) that cancel: the rounding of those
  // (cond(Φ) times eps times tens) was the floor under which Newton could not bring Δy and Δℵ when two
  // sets of one phase are close (near a critical point the global system amplifies it past the 1e-10 test).
  for (int i = 0; i < m; ++i) {
    double gi = s.e.dGf[2 + i];
    for (int A = 0; A < C; ++A) gi -= s.mu0[A] * s.mo.dM[A * m + i];
    b[i] = -gi;
  }
  for (int r = 0; r < k; ++r) {
    double v = -pi.rhsr[r];
    for (int i = 0; i < m; ++i) v += pi.Jr[r * m + i] * s.y[i];
    b[m + r] = -v;
  }
  lu_solve(im.Phi.data(), K, im.piv.data(), b.data());
  for (int i = 0; i < m; ++i) s.dy0[i] = b[i];
  // A step at μ = μ0 (a relaxation at fixed μ) is dy0 itself: the columns cA multiply μ - μ0 = 0 there
  for (int A = 0; A < C && need_mu; ++A) {
    b.assign(K, 0.0);
    for (int i = 0; i < m; ++i) b[i] = s.mo.dM[A * m + i];
    lu_solve(im.Phi.data(), K, im.piv.data(), b.data());
    for (int i = 0; i < m; ++i) s.cA[A * m + i] = b[i];
  }
  if (need_T) {
    b.assign(K, 0.0);
    for (int i = 0; i < m; ++i) b[i] = -s.e.d2Gf[(2 + i) * n + 0];
    lu_solve(im.Phi.data(), K, im.piv.data(), b.data());
    for (int i = 0; i < m; ++i) s.cT[i] = b[i];
  }
}

}  // namespace

// --------------------------------------------------------------------------------------------
// Per-composition-set linearisation (§8.2): Φ = [[H, J^T],[J, 0]] with H regularised on the null
// space of J when not positive definite there (a Newton step towards a maximum is never wanted).
void linearize(Run& run, CompSet& s, bool need_T, bool need_mu) {
  linearization_count().fetch_add(1, std::memory_order_relaxed);
  const PhaseModel& pm = *run.phases[s.phase];
  const PhaseInfo& pi = run.im.info[s.phase];
  auto& im = run.im;
  const int m = pi.m, C = run.C;
  pm.energy(*im.states[s.phase], s.y.data(), 2, s.e);
  pm.moles(s.y.data(), pi.variable_ratios ? 2 : 1, s.mo);
  s.Gf = s.e.Gf;
  s.GM = s.e.GM;
  s.Nf = s.mo.Nf;
  s.ylin.assign(s.y.begin(), s.y.end());
  s.dy0.assign(m, 0.0);
  s.cA.assign(static_cast<size_t>(C) * m, 0.0);
  s.mu0.assign(C, 0.0);  // the μ of the base step dy0 (solve_steps)
  if (run.mu.size() == static_cast<size_t>(C))
    for (int A = 0; A < C; ++A)
      if (std::isfinite(run.mu[A])) s.mu0[A] = run.mu[A];
  s.cT.assign(m, 0.0);
  s.lin_T = need_T;
  s.lin_mu = need_mu;
  if (m == 0) return;
  lagrangian_hessian(pi, s, C, im.W);
  const double delta = positive_definite_shift(im, pi, im.W);
  if (delta > 0 && s.stable && debug_level() >= 2)
    std::fprintf(stderr, "  shift %s by %g\n", run.phases[s.phase]->name().c_str(), delta);
  // singular (e.g. NaN energies): leave zero steps; the caller sees no progress and reports it
  if (!factor_kkt(im, pi, im.W, delta)) return;
  solve_steps(im, pi, s, C, need_T, need_mu);
}

std::atomic<uint64_t>& linearization_count() {
  static std::atomic<uint64_t> count{0};
  return count;
}

void linearize_if_moved(Run& run, CompSet& s, bool need_T, bool need_mu) {
  if (!run.keep_linearizations || s.ylin != s.y || (need_T && !s.lin_T)) return linearize(run, s, need_T, need_mu);
  const bool same_mu = s.mu0 == run.mu;
  if ((need_mu && !s.lin_mu) || (!same_mu && (!s.lin_mu || run.im.info[s.phase].variable_ratios)))
    linearize(run, s, need_T, need_mu);
}

// Δy of a set for given μ (8.3).
void set_step(const Run& run, CompSet& s, const std::vector<double>& mu, double dT) {
  const int m = static_cast<int>(s.y.size());
  s.dy = s.dy0;
  for (int A = 0; A < run.C; ++A) {
    const double d = mu[A] - (s.mu0.empty() ? 0.0 : s.mu0[A]);
    for (int i = 0; i < m; ++i) s.dy[i] += s.cA[A * m + i] * d;
  }
  if (dT != 0)
    for (int i = 0; i < m; ++i) s.dy[i] += s.cT[i] * dT;
}

// Driving force per mole of atoms (9.2) at the current linearisation.
double driving_force(const Run& run, const CompSet& s) {
  double muM = 0;
  for (int A = 0; A < run.C; ++A) muM += run.mu[A] * s.mo.M[A];
  return (muM - s.Gf) / s.Nf;
}

// Applies Δy with back-tracking to the bounds and clipping (§8.4 step 3). Returns max |change|.
double apply_step(CompSet& s, double sigma0) {
  const int m = static_cast<int>(s.y.size());
  double sigma = sigma0;
  for (int h = 0; h < 70; ++h) {
    bool ok = true;
    for (int i = 0; i < m && ok; ++i) {
      double v = s.y[i] + sigma * s.dy[i];
      if (v > 1 + 1e-11 || v < kYMin - 1e-11 || !std::isfinite(v)) ok = false;
    }
    if (ok) break;
    sigma *= 0.5;
  }
  // Convergence measure: the absolute change, and the relative change scaled so that a dilute site
  // fraction creeping up from 1e-14 (Newton on y ln y moves it by a factor per step, i.e. by a tiny
  // absolute amount) is not mistaken for convergence. A change within the rounding of a sublattice's sum
  // (kYRoundoff) is no change, however dilute the fraction: the sublattice and electroneutrality rows pass
  // the rounding of the majority constituents' steps on to the minority ones. In alfeo's CORUNDUM next to a
  // metal ((AL+3,FE+2,FE+3)2(FE+3,VA)1(O-2)3 at low oxygen potential) electroneutrality with the sublattice
  // sums leaves -2 y(FE+2) + 3 y(FE+3, interstitial) = 0 for two defects at y ~ 1e-14, which moved by 1e-16
  // (a relative 1e-2) in every iteration, and Newton ran to its iteration limit on a converged state.
  constexpr double kYRoundoff = 8 * std::numeric_limits<double>::epsilon();
  double mx = 0;
  for (int i = 0; i < m; ++i) {
    double old = s.y[i];
    double v = old + sigma * s.dy[i];
    if (!std::isfinite(v)) v = old;
    if (v > 1) v = 1;
    if (v < kYMin) v = std::max(old / 100, kYMin);
    mx = std::max(mx, std::fabs(v - old));
    if (std::fabs(v - old) > kYRoundoff) mx = std::max(mx, 1e-4 * std::fabs(v - old) / std::max(old, kYMin));
    s.y[i] = v;
  }
  return mx;
}

// A metastable set's step that would take it below its phase's vacancy floor (PhaseGrid::nf_floor) is cut back
// to end just above the floor: beyond it the driving force of such a phase grows without bound (an artefact of
// G(VA:...:VA) = 0, see PhaseGrid), so a relaxation left free would run there. N_f is linear in y for fixed
// site ratios, so the cut is exact; the ionic liquid (variable ratios) has no pure-vacancy end member.
void keep_above_vacancy_floor(const Run& run, CompSet& s, const std::vector<double>& yold) {
  const double floor = run.grid.ph[s.phase].nf_floor;
  if (!(floor > 0) || run.im.info[s.phase].variable_ratios) return;
  MolesResult mo;
  run.phases[s.phase]->moles(s.y.data(), 0, mo);
  const double nf_new = mo.Nf;
  const double target = floor * (1 + kVacantFloorMargin);
  if (nf_new >= target) return;
  run.phases[s.phase]->moles(yold.data(), 0, mo);
  const double nf_old = mo.Nf;
  if (!(nf_old > target)) return;
  const double t = (nf_old - target) / (nf_old - nf_new);
  for (size_t i = 0; i < s.y.size(); ++i) s.y[i] = yold[i] + t * (s.y[i] - yold[i]);
}

// The set lies at its phase's vacancy floor (within the margin kept by keep_above_vacancy_floor): it cannot
// enter the equilibrium, and its driving force there is no evidence against the equilibrium found.
bool at_vacancy_floor(const Run& run, const CompSet& s) {
  return s.Nf < run.grid.ph[s.phase].nf_floor * (1 + 2 * kVacantFloorMargin);
}

namespace {

// The driving force (J/mol of atoms) of set s's phase at site fractions y and the current μ.
double df_at_y(const Run& run, const CompSet& s, const double* y, EnergyResult& e, MolesResult& mo) {
  run.phases[s.phase]->energy(*run.im.states[s.phase], y, 0, e);
  run.phases[s.phase]->moles(y, 0, mo);
  if (!(mo.Nf > 1e-12)) return -std::numeric_limits<double>::infinity();
  double muM = 0;
  for (int A = 0; A < run.C; ++A) muM += run.mu[A] * mo.M[A];
  return (muM - e.Gf) / mo.Nf;
}

// A constituent far below its maximum's value creeps up under Newton's step: near y = 0 the Hessian is
// dominated by RT/y, so the step of y ln y multiplies y by 1 + ln(y*/y) only (from the floor 1e-14 to 1e-3 that
// is ten steps: most of a basin start's relaxation). The same step read in ln y (where RT/y is constant) gives
// the target itself, y* = y exp(Δy/y). For constituents below kDilute whose step more than triples them, s.y
// (after the plain step from yold) is lifted to that target (at most kLiftCap, the majority constituent of the
// sublattice giving way), kept only where the driving force there exceeds the plain step's: the relaxation
// ends at the same maximum in fewer steps. Returns true when s.y was lifted. Fixed site ratios without charge
// only (the sublattice sums are then the only constraints).
bool lift_dilute(const Run& run, CompSet& s, const std::vector<double>& yold, std::vector<double>& ylift) {
  constexpr double kDilute = 1e-6, kLiftCap = 1e-3;
  const PhaseInfo& pi = run.im.info[s.phase];
  if (pi.charged || pi.variable_ratios) return false;
  bool lifted = false;
  ylift.assign(s.y.begin(), s.y.end());
  for (const auto& sl : pi.subl) {
    if (sl.size() < 2) continue;
    int major = sl[0];
    for (int i : sl)
      if (s.y[i] > s.y[major]) major = i;
    double gain = 0;
    for (int i : sl) {
      if (i == major || !(yold[i] < kDilute) || !(s.y[i] > 3 * yold[i])) continue;
      const double r = (s.y[i] - yold[i]) / yold[i];
      const double target = std::min(yold[i] * std::exp(std::min(r, 60.0)), kLiftCap);
      if (!(target > s.y[i])) continue;
      gain += target - s.y[i];
      ylift[i] = target;
    }
    if (gain == 0) continue;
    if (!(ylift[major] - gain > 0.5 * ylift[major])) return false;
    ylift[major] -= gain;
    lifted = true;
  }
  if (!lifted) return false;
  const double floor = run.grid.ph[s.phase].nf_floor;
  EnergyResult e;
  MolesResult mo;
  const double df_lift = df_at_y(run, s, ylift.data(), e, mo);
  if (floor > 0 && !(mo.Nf > floor * (1 + kVacantFloorMargin))) return false;
  if (!(df_lift > df_at_y(run, s, s.y.data(), e, mo))) return false;
  s.y.swap(ylift);
  return true;
}

}  // namespace

// Relaxes set `s` at the current μ (Newton on G_f - μ·M, the relaxation of a metastable set of §9.2) until
// a step moves no site fraction by more than `tol` (at most 40 steps), and linearises it at the end; with
// linearize_end false only its energy and contents there (Gf, GM, Nf, mo.M: its driving force), as for a
// basin start that is compared and then dropped, unless it wins (the caller linearises the winner).
// `maxima` (optional): maxima of the phase that relaxations have ended in; once a step below kSmallStep (in
// Newton's quadratic range, the next one would be about its square) leaves s within kNear of one of them in
// every site fraction, s ends there: the steps that would only refine it are left out, and that maximum is
// returned (s keeps the energy and contents of its last linearisation). nullptr otherwise.
const CompSet* relax_at_mu(Run& run, CompSet& s, double tol, bool linearize_end,
                           const std::vector<const CompSet*>* maxima) {
  constexpr double kNear = 1e-5, kSmallStep = 1e-4;
  std::vector<double> yold, ylift;
  for (int its = 0; its < 40; ++its) {
    linearize(run, s, false, false);  // a step at the μ of the linearisation: the μ columns are not needed
    set_step(run, s, run.mu, 0.0);
    yold.assign(s.y.begin(), s.y.end());
    const double moved = apply_step(s, 1.0);
    keep_above_vacancy_floor(run, s, yold);
    if (lift_dilute(run, s, yold, ylift)) continue;
    if (maxima && moved < kSmallStep && moved >= tol)
      for (const CompSet* k : *maxima) {
        bool near = k->y.size() == s.y.size();
        for (size_t i = 0; i < s.y.size() && near; ++i) near = std::fabs(s.y[i] - k->y[i]) < kNear;
        if (near) {
          if (debug_level() >= 3)
            std::fprintf(stderr, "relaxation of %s ends in a known maximum after %d steps\n",
                         run.phases[s.phase]->name().c_str(), its + 1);
          return k;
        }
      }
    if (moved < tol) {
      if (debug_level() >= 3)
        std::fprintf(stderr, "relaxed %s in %d steps\n", run.phases[s.phase]->name().c_str(), its + 1);
      break;
    }
  }
  if (linearize_end) {
    linearize(run, s, false);
    return nullptr;
  }
  run.phases[s.phase]->energy(*run.im.states[s.phase], s.y.data(), 0, s.e);
  run.phases[s.phase]->moles(s.y.data(), 0, s.mo);
  s.Gf = s.e.Gf;
  s.GM = s.e.GM;
  s.Nf = s.mo.Nf;
  return nullptr;
}

// Overall composition and residuals of the linear conditions.
void overall(const Run& run, std::vector<double>& x, double& N) {
  x.assign(run.C, 0.0);
  N = 0;
  for (const auto& s : run.sets)
    if (s.stable)
      for (int A = 0; A < run.C; ++A) {
        x[A] += s.aleph * s.mo.M[A];
        N += s.aleph * s.mo.M[A];
      }
  if (N > 0)
    for (double& v : x) v /= N;
}

namespace {

// The global linear system of one call of solve_global: its sizes, mode and workspaces.
struct GlobalSystem {
  const Run& run;
  const bool newton, Tfree;    // mode 0; mode 1 (T a variable)
  const std::vector<int>& st;  // the stable sets
  const int P, nf, nx, nU;     // stable sets, free elements, condition rows, unknowns
  std::vector<double>& A;      // nR x nU
  std::vector<double>& rhs;
  const std::vector<double>& x;    // the overall composition
  const double N;                  // ... and the moles of atoms
  const std::vector<double>& ref;  // the μ the Newton mode's corrections are taken from
};

// (a) the stable rows (8.4): G_f of each stable set against μ·M.
void stable_rows(const GlobalSystem& gs, int& row) {
  const Run& run = gs.run;
  const Conds& cd = run.cd;
  for (int a = 0; a < gs.P; ++a, ++row) {
    const CompSet& s = run.sets[gs.st[a]];
    double r = gs.newton ? s.Gf : 0.0;
    for (int j = 0; j < gs.nf; ++j) gs.A[row * gs.nU + j] = s.mo.M[cd.free_el[j]];
    if (gs.newton)
      for (int E = 0; E < run.C; ++E) r -= s.mo.M[E] * gs.ref[E];  // free: corrections to ref; fixed: ref = the value
    if (gs.Tfree) gs.A[row * gs.nU + gs.nf + gs.P] = -s.e.dGf[0];
    gs.rhs[row] = r;
  }
}

// Stable set a's terms in condition row c (the size row when c = nx): v Δℵ and w·Δy, Δy expanded in the unknowns
// (its μ and T columns); in the Newton mode Δy's part at μ = ref is taken from the right side r.
void set_in_balance_row(const GlobalSystem& gs, int row, int c, int a, double& r) {
  const Run& run = gs.run;
  const Conds& cd = run.cd;
  const int C = run.C;
  const bool size_row = c == gs.nx;
  const double N = gs.N;
  const std::vector<double>& x = gs.x;
  const CompSet& s = run.sets[gs.st[a]];
  const int m = static_cast<int>(s.y.size());
  // w_k and v
  double v = 0;
  if (size_row)
    v = s.Nf;
  else
    for (int E = 0; E < C; ++E) v += cd.a[c][E] * (s.mo.M[E] - x[E] * s.Nf) / N;
  gs.A[row * gs.nU + gs.nf + a] = v;
  for (int i = 0; i < m; ++i) {
    double w = 0;
    if (size_row) {
      for (int E = 0; E < C; ++E) w += s.mo.dM[E * m + i];
      w *= s.aleph;
    } else {
      double dN = 0;
      for (int E = 0; E < C; ++E) dN += s.mo.dM[E * m + i];
      for (int E = 0; E < C; ++E) w += cd.a[c][E] * (s.mo.dM[E * m + i] - x[E] * dN);
      w *= s.aleph / N;
    }
    if (w == 0) continue;
    if (gs.newton) {
      // Δy at μ = ref (set_step): dy0 + sum_E c_E (ref_E - μ0_E); μ0 = ref after newton's linearize
      double dyr = s.dy0[i];
      for (int E = 0; E < C; ++E)
        if (gs.ref[E] != s.mu0[E]) dyr += s.cA[E * m + i] * (gs.ref[E] - s.mu0[E]);
      r -= w * dyr;
    }
    for (int j = 0; j < gs.nf; ++j) gs.A[row * gs.nU + j] += w * s.cA[cd.free_el[j] * m + i];
    if (gs.Tfree) gs.A[row * gs.nU + gs.nf + gs.P] += w * s.cT[i];
  }
}

// (b) the condition rows (8.5) and (c) the size row (8.6): both are sum_α [w^α·Δy^α + v^α Δℵ^α]. Their targets:
// the residuals (Newton mode), a unit change of condition row xrow (mode 2), else 0.
void balance_rows(const GlobalSystem& gs, int mode, int xrow, int& row) {
  const Conds& cd = gs.run.cd;
  for (int c = 0; c <= gs.nx; ++c, ++row) {
    const bool size_row = c == gs.nx;
    double target;
    if (size_row)
      target = gs.newton ? -(gs.N - 1) : 0.0;
    else {
      double res = -cd.b[c];
      for (int E = 0; E < gs.run.C; ++E) res += cd.a[c][E] * gs.x[E];
      target = gs.newton ? -res : (mode == 2 && c == xrow ? 1.0 : 0.0);
    }
    double r = target;
    for (int a = 0; a < gs.P; ++a) set_in_balance_row(gs, row, c, a, r);
    gs.rhs[row] = r;
  }
}

void trace_global(const std::vector<double>& A, const std::vector<double>& rhs, const std::vector<double>& sol, int nR,
                  int nU) {
  for (int i = 0; i < nR; ++i) {
    for (int j = 0; j < nU; ++j) std::fprintf(stderr, " %12.5e", A[i * nU + j]);
    std::fprintf(stderr, " | %12.5e\n", rhs[i]);
  }
  std::fprintf(stderr, "sol");
  for (int j = 0; j < nU; ++j) std::fprintf(stderr, " %12.5e", sol[j]);
  std::fprintf(stderr, "\n");
}

}  // namespace

// The global linear system of §8.3 (mode 0: Newton step) or of §9.4 (mode 1: dT = 1; mode 2: unit
// change of the condition row `xrow`). Unknowns: μ of free elements, Δℵ of stable sets, [ΔT].
// Returns false if the system could not be solved.
bool solve_global(Run& run, int mode, int xrow, std::vector<double>& dmu, std::vector<double>& dal, double& dT) {
  const Conds& cd = run.cd;
  const int C = run.C;
  std::vector<int>& st = run.im.gst;  // workspaces (no allocation per Newton iteration)
  st.clear();
  for (size_t i = 0; i < run.sets.size(); ++i)
    if (run.sets[i].stable) st.push_back(static_cast<int>(i));
  const int P = static_cast<int>(st.size());
  const int nf = static_cast<int>(cd.free_el.size());
  const int nx = static_cast<int>(cd.a.size());
  const bool Tfree = mode == 1;
  const int nU = nf + P + (Tfree ? 1 : 0);
  const int nR = P + nx + 1 + (Tfree ? 1 : 0);
  auto& A = run.im.A;
  A.assign(static_cast<size_t>(nR) * nU, 0.0);
  std::vector<double>& rhs = run.im.grhs;
  rhs.assign(nR, 0.0);
  std::vector<double>& x = run.im.gx;
  double N;
  overall(run, x, N);
  const bool newton = mode == 0;
  // Newton mode solves for the chemical potentials as corrections to the current ones (ref): the
  // minimum-norm least-squares answer of a degenerate system (e.g. a single stoichiometric phase, where μ
  // is not unique) then stays at the previous μ instead of jumping (which made add/remove cycle), and the
  // right-hand sides are the small residuals themselves (G_f - μ·M, and Δy at μ = ref from dy0).
  thread_local std::vector<double> ref;  // per-thread workspace: solve_global runs every iteration
  ref.assign(C, 0.0);
  if (newton && run.mu.size() == static_cast<size_t>(C))
    for (int E = 0; E < C; ++E) ref[E] = std::isfinite(run.mu[E]) ? run.mu[E] : 0.0;
  if (newton)
    for (int E = 0; E < C; ++E)
      if (cd.fixed[E]) ref[E] = cd.mufix[E];
  const GlobalSystem gs{run, newton, Tfree, st, P, nf, nx, nU, A, rhs, x, N, ref};
  int row = 0;
  stable_rows(gs, row);
  balance_rows(gs, mode, xrow, row);
  if (Tfree) {
    A[row * nU + nf + P] = 1;
    rhs[row] = 1;
    ++row;
  }
  run.im.sol.assign(nU, 0.0);
  for (double v : A)
    if (!std::isfinite(v)) return false;
  for (double v : rhs)
    if (!std::isfinite(v)) return false;
  lstsq(A.data(), nR, nU, rhs.data(), run.im.sol.data(), run.im.lw, 1e-14);
  if (newton)
    for (int j = 0; j < nf; ++j) run.im.sol[j] += ref[cd.free_el[j]];
  if (debug_level() >= 2) trace_global(A, rhs, run.im.sol, nR, nU);
  dmu.assign(C, 0.0);
  for (int E = 0; E < C; ++E) dmu[E] = (cd.fixed[E] && newton) ? cd.mufix[E] : 0.0;
  for (int j = 0; j < nf; ++j) dmu[cd.free_el[j]] = run.im.sol[j];
  dal.assign(run.sets.size(), 0.0);
  for (int a = 0; a < P; ++a) dal[st[a]] = run.im.sol[nf + a];
  dT = Tfree ? run.im.sol[nf + P] : 0.0;
  return true;
}

}  // namespace pd::solver::detail
