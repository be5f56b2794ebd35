// The assemblage a phase enters into, chosen as the lowest one over the composition sets as they are (a linear
// program), for newton() with Run::delay_changes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "solver/solver_internal.hpp"

namespace pd::solver::detail {

namespace {

// A dense simplex tableau for min c·f subject to A f = b, f >= 0 with S rows and n variables: n is the number of
// composition sets of a solve (one or a few per phase, a few hundred at most) and S the number of condition rows plus
// one, so a dense tableau is small. hull() solves the same kind of program over the grid points with a revised simplex
// laid out for the grid's blocks (hull.cpp); this one runs over the sets, once per phase change of a retry.
struct Tableau {
  int S = 0, n = 0, W = 0;   // W: the n variables, S artificials, the right-hand side
  std::vector<double> T;     // S x W, row-major
  std::vector<int> basis;    // the basic column of each row
  std::vector<double> cost;  // per column but the right-hand side
};

Tableau start_tableau(const std::vector<double>& A, const std::vector<double>& b, int S, int n) {
  Tableau t;
  t.S = S;
  t.n = n;
  t.W = n + S + 1;
  t.T.assign(static_cast<size_t>(S) * t.W, 0.0);
  for (int r = 0; r < S; ++r) {
    const double sign = b[r] < 0 ? -1.0 : 1.0;
    for (int j = 0; j < n; ++j) t.T[r * t.W + j] = sign * A[r * n + j];
    t.T[r * t.W + n + r] = 1;
    t.T[r * t.W + t.W - 1] = sign * b[r];
  }
  t.basis.resize(S);
  for (int r = 0; r < S; ++r) t.basis[r] = n + r;
  t.cost.assign(t.W - 1, 0.0);
  return t;
}

// Bland's rule (Bland, Math. Oper. Res. 2 (1977) 103; it cannot cycle): the first of the first `columns` columns
// whose reduced cost is below -tol; -1 when none (optimal).
int entering_column(const Tableau& t, int columns, double tol) {
  for (int j = 0; j < columns; ++j) {
    double d = t.cost[j];
    for (int r = 0; r < t.S; ++r) d -= t.cost[t.basis[r]] * t.T[r * t.W + j];
    if (d < -tol) return j;
  }
  return -1;
}

// The row of the smallest ratio, of tied rows the one of the smallest basic column (Bland). With hold_artificials an
// artificial still basic (at zero after phase 1) leaves at any non-zero entry with ratio zero, so that it stays at
// zero. -1 when the column is unbounded (cannot happen with the row of the sums, but never loop on it).
int leaving_row(const Tableau& t, int enter, bool hold_artificials) {
  int leave = -1;
  double ratio = std::numeric_limits<double>::infinity();
  for (int r = 0; r < t.S; ++r) {
    const double a = t.T[r * t.W + enter];
    const bool held = hold_artificials && t.basis[r] >= t.n;
    if (held ? !(std::fabs(a) > 1e-12) : !(a > 1e-12)) continue;
    const double q = held ? 0.0 : t.T[r * t.W + t.W - 1] / a;
    if (q < ratio - 1e-14 || (q <= ratio + 1e-14 && leave >= 0 && t.basis[r] < t.basis[leave])) {
      ratio = q;
      leave = r;
    }
  }
  return leave;
}

void pivot(Tableau& t, int leave, int enter) {
  const int W = t.W;
  const double piv = t.T[leave * W + enter];
  for (int j = 0; j < W; ++j) t.T[leave * W + j] /= piv;
  for (int r = 0; r < t.S; ++r) {
    const double m = t.T[r * W + enter];
    if (r == leave || m == 0) continue;
    for (int j = 0; j < W; ++j) t.T[r * W + j] -= m * t.T[leave * W + j];
  }
  t.basis[leave] = enter;
}

// Pivots until optimal over the first `columns` columns; false when unbounded or at the pivot limit.
bool pivot_to_optimum(Tableau& t, int columns, double tol, bool hold_artificials) {
  for (int pivots = 0; pivots < 50 * (t.n + t.S); ++pivots) {
    const int enter = entering_column(t, columns, tol);
    if (enter < 0) return true;
    const int leave = leaving_row(t, enter, hold_artificials);
    if (leave < 0) return false;
    pivot(t, leave, enter);
  }
  return false;
}

// min c·f subject to A f = b, f >= 0 (A: S x n, row-major) by the two-phase simplex: phase 1 minimises the sum of
// the artificials, phase 2 c over the variables with the artificials held at zero. `f` the solution; false when
// infeasible or at the pivot limit.
bool simplex(const std::vector<double>& A, const std::vector<double>& b, const std::vector<double>& c, int S, int n,
             std::vector<double>& f) {
  Tableau t = start_tableau(A, b, S, n);
  for (int r = 0; r < S; ++r) t.cost[n + r] = 1;
  if (!pivot_to_optimum(t, n, 1e-11, false)) return false;
  double infeasibility = 0;
  for (int r = 0; r < S; ++r)
    if (t.basis[r] >= n) infeasibility += t.T[r * t.W + t.W - 1];
  if (infeasibility > 1e-9) return false;
  double scale = 1;
  for (double v : c) scale = std::max(scale, std::fabs(v));
  std::fill(t.cost.begin(), t.cost.end(), 0.0);
  std::copy(c.begin(), c.end(), t.cost.begin());
  if (!pivot_to_optimum(t, n, 1e-11 * scale, true)) return false;
  f.assign(n, 0.0);
  for (int r = 0; r < S; ++r)
    if (t.basis[r] < n) f[t.basis[r]] = std::max(0.0, t.T[r * t.W + t.W - 1]);
  return true;
}

// The sets the program runs over: the stable ones, the candidate and the metastable sets that could enter
// (converged_candidate's rule: fewer than six entries, not at the vacancy floor nor left out, one set per phase when
// single_set).
std::vector<int> program_columns(const Run& run, int candidate) {
  std::vector<int> cols;
  for (size_t i = 0; i < run.sets.size(); ++i) {
    const CompSet& s = run.sets[i];
    if (!(s.Nf > 0) || !std::isfinite(s.GM)) continue;
    const bool usable = s.stable || static_cast<int>(i) == candidate ||
                        (s.added < 6 && !at_vacancy_floor(run, s) && !left_out(run, s.phase) && !run.single_set);
    if (usable) cols.push_back(static_cast<int>(i));
  }
  return cols;
}

// The new assemblage: the sets with a positive amount in f (moles of atoms) stable at that amount, the others not.
void take_assemblage(Run& run, const std::vector<int>& cols, const std::vector<double>& f) {
  for (size_t j = 0; j < cols.size(); ++j) {
    CompSet& s = run.sets[cols[j]];
    const bool in = f[j] > 1e-12;
    if (in && !s.stable) {
      s.added++;
      s.entered_at = run.iterations;
      s.negative_before = false;
    } else if (!in && s.stable) {
      s.removed++;
    }
    s.stable = in;
    s.aleph = in ? f[j] / s.Nf : 0;
  }
  if (debug_level() >= 1) {
    std::fprintf(stderr, "least assemblage over the sets:");
    for (const auto& s : run.sets)
      if (s.stable) std::fprintf(stderr, " %s %.4g", run.phases[s.phase]->name().c_str(), s.aleph * s.Nf);
    std::fprintf(stderr, "\n");
  }
}

}  // namespace

// Newton's step after a phase enters an assemblage below the phase rule's limit is a linearisation around a state the
// new phase is far from; where the phase that should leave to make room for it is not the one whose amount first
// comes out negative, the iteration goes to another converged assemblage, higher in G, and several such steps can
// form a cycle (mf-steel, Fe-Cr-Ni-Mo-Mn-Si-C-N at 1249 K: four assemblages of five and six phases, each
// reached by adding a phase with a positive driving force to the one before, 22 to 180 J/mol higher in G than that,
// the fourth leading back to the first). The Gibbs energy at fixed compositions of the sets is linear in their
// amounts, so the assemblage of least G over the sets as they are, with the candidate at its relaxed composition, is
// a linear program (the hull's, §8.7, over the sets instead of the grid points: Emelianenko, Liu and Du, Comput. Mater.
// Sci. 35 (2006) 61); the current assemblage is one of its feasible points, and the candidate's positive driving
// force makes the optimum lower. newton() with Run::delay_changes starts from that optimum when a phase enters again:
// its sets enter with its amounts and the others leave. Only for linear conditions without fixed potentials (N = 1:
// the amounts are the fractions); false (add_set then decides) when the program has no better answer than the current
// assemblage or the candidate is not in it.
bool enter_least_assemblage(Run& run, int candidate) {
  const Conds& cd = run.cd;
  const int C = run.C;
  if (static_cast<int>(cd.free_el.size()) != C) return false;
  const int S = 1 + static_cast<int>(cd.a.size());
  const std::vector<int> cols = program_columns(run, candidate);
  const int n = static_cast<int>(cols.size());
  // rows: the sum of the fractions (moles of atoms) = 1 and each condition row; cost: GM - μ·x = -DF per mole of
  // atoms (μ·x of the overall composition is the same at every feasible point)
  std::vector<double> A(static_cast<size_t>(S) * n), b(S), c(n), f;
  b[0] = 1;
  for (int r = 1; r < S; ++r) b[r] = cd.b[r - 1];
  for (int j = 0; j < n; ++j) {
    const CompSet& s = run.sets[cols[j]];
    A[j] = 1;
    double muX = 0;
    for (int E = 0; E < C; ++E) muX += run.mu[E] * s.mo.M[E] / s.Nf;
    c[j] = s.GM - muX;
    for (int r = 1; r < S; ++r) {
      double v = 0;
      for (int E = 0; E < C; ++E) v += cd.a[r - 1][E] * s.mo.M[E] / s.Nf;
      A[r * n + j] = v;
    }
  }
  if (!simplex(A, b, c, S, n, f)) return false;
  bool candidate_in = false, changed = false;
  for (int j = 0; j < n; ++j) {
    const bool in = f[j] > 1e-12;
    candidate_in |= in && cols[j] == candidate;
    changed |= in != run.sets[cols[j]].stable;
  }
  if (!candidate_in || !changed) return false;
  take_assemblage(run, cols, f);
  return true;
}

}  // namespace pd::solver::detail
