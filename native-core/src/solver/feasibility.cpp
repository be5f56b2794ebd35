// Phase addition (§8.5) and the feasibility of an assemblage after a removal.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "solver/solver_internal.hpp"

namespace pd::solver::detail {

namespace {
// Two sets of different phases whose mole fractions all differ by less than this are taken for one composition
// when the second one enters (add_set).
constexpr double kCoincidentPhases = 0.01;
}  // namespace

// Adds metastable set `q` to the stable assemblage. If the phase rule is saturated, the set leaving
// is chosen by a simplex ratio test on the phase amounts (atoms), which keeps them non-negative.
void add_set(Run& run, int q) {
  const Conds& cd = run.cd;
  const int C = run.C;
  std::vector<int> st;
  for (size_t i = 0; i < run.sets.size(); ++i)
    if (run.sets[i].stable) st.push_back(static_cast<int>(i));
  const int S = static_cast<int>(cd.free_el.size());
  CompSet& sq = run.sets[q];
  sq.added++;
  sq.entered_at = run.iterations;
  sq.negative_before = false;
  auto column = [&](const CompSet& s, double* col) {
    col[0] = 1;
    for (int r = 0; r + 1 < S; ++r) {
      double v = 0;
      for (int A = 0; A < C; ++A) v += cd.a[r][A] * s.mo.M[A] / s.Nf;
      col[r + 1] = v;
    }
  };
  if (static_cast<int>(st.size()) == S && S > 0) {
    std::vector<double> B(S * S), d(S), f(S);
    std::vector<int> piv(S);
    for (int j = 0; j < S; ++j) {
      column(run.sets[st[j]], d.data());
      for (int i = 0; i < S; ++i) B[i * S + j] = d[i];
      f[j] = run.sets[st[j]].aleph * run.sets[st[j]].Nf;
    }
    column(sq, d.data());
    if (lu_factor(B.data(), S, piv.data())) {
      lu_solve(B.data(), S, piv.data(), d.data());
      int leave = -1;
      double theta = std::numeric_limits<double>::infinity();
      for (int j = 0; j < S; ++j)
        if (d[j] > 1e-12 && f[j] / d[j] < theta) {
          theta = f[j] / d[j];
          leave = j;
        }
      if (leave >= 0) {
        for (int j = 0; j < S; ++j) {
          CompSet& s = run.sets[st[j]];
          double np = f[j] - theta * d[j];
          if (j == leave) {
            s.stable = false;
            s.aleph = 0;
            s.removed++;
          } else {
            s.aleph = std::max(np, 1e-10) / s.Nf;
          }
        }
        sq.stable = true;
        sq.aleph = std::max(theta, 1e-6) / sq.Nf;
        return;
      }
    }
  }
  // Below saturation, a set entering for the first time at the composition of a stable set of another phase takes
  // that set's place. With both, their columns all but coincide and the amounts are all but undetermined: Newton's
  // next step moves them by orders of magnitude and the iteration leaves the solution (Cr-Ti-V, crtiv_ghosh, 1093.6
  // K, x(TI) = 0.2156, x(V) = 0.1652: LAVES_C15 entered next to LAVES_C36 of BCC_A2 + LAVES_C36, 0.001 apart, and
  // one step gave it 13 moles of atoms in a one-mole system, until LIQUID was stable at 1094 K). The set that leaves
  // comes back in the usual way if it still lies above the tangent; the second time a set enters, it is added below.
  if (sq.added == 1) {
    int nearest = -1;
    double nearest_d = kCoincidentPhases;
    for (int j : st) {
      const CompSet& sj = run.sets[j];
      if (sj.phase == sq.phase) continue;  // sets of one phase: merge_coincident_sets
      double d = 0;
      for (int A = 0; A < C; ++A) d = std::max(d, std::fabs(sq.mo.M[A] / sq.Nf - sj.mo.M[A] / sj.Nf));
      if (d < nearest_d) {
        nearest_d = d;
        nearest = j;
      }
    }
    // ... when the sets then present can meet the conditions (near the congruent melting of Cu2O the oxide liquid
    // and Cu2O lie 0.005 apart, and Cu2O alone cannot take X(O) = 0.34)
    std::vector<char> keep;
    if (nearest >= 0) {
      keep.assign(run.sets.size(), 0);
      for (int j : st) keep[j] = j != nearest;
      keep[q] = 1;
    }
    if (nearest >= 0 && assemblage_feasible(run, keep)) {
      CompSet& sj = run.sets[nearest];
      sq.stable = true;
      sq.aleph = sj.aleph * sj.Nf / sq.Nf;
      sj.stable = false;
      sj.aleph = 0;
      sj.removed++;
      return;
    }
  }
  sq.stable = true;
  sq.aleph = 1e-6 / sq.Nf;
}

namespace {

// Non-negative least squares (Lawson & Hanson, "Solving Least Squares Problems", 1974, ch. 23): the
// smallest |A f - b| over f >= 0 for the rows x cols row-major A. Returns that residual (2-norm).
double nnls_residual(const std::vector<double>& A, int rows, int cols, const std::vector<double>& b) {
  std::vector<double> f(cols, 0.0), z(cols, 0.0), r(b), Ap, zp;
  std::vector<char> in(cols, 0);
  std::vector<int> idx;
  LstsqWork lw;
  auto residual = [&]() {
    double nr = 0;
    for (int i = 0; i < rows; ++i) {
      double v = b[i];
      for (int j = 0; j < cols; ++j) v -= A[i * cols + j] * f[j];
      r[i] = v;
      nr += v * v;
    }
    return std::sqrt(nr);
  };
  double nr = residual();
  for (int outer = 0; outer < 3 * cols + 3 && nr > 0; ++outer) {
    // the column with the steepest descent of |A f - b|^2 among those held at zero
    int t = -1;
    double wmax = 1e-13 * std::max(1.0, nr);
    for (int j = 0; j < cols; ++j) {
      if (in[j]) continue;
      double w = 0;
      for (int i = 0; i < rows; ++i) w += A[i * cols + j] * r[i];
      if (w > wmax) {
        wmax = w;
        t = j;
      }
    }
    if (t < 0) break;
    in[t] = 1;
    for (int inner = 0; inner < 3 * cols + 3; ++inner) {
      idx.clear();
      for (int j = 0; j < cols; ++j)
        if (in[j]) idx.push_back(j);
      const int k = static_cast<int>(idx.size());
      Ap.assign(static_cast<size_t>(rows) * k, 0.0);
      for (int i = 0; i < rows; ++i)
        for (int a = 0; a < k; ++a) Ap[i * k + a] = A[i * cols + idx[a]];
      zp.assign(k, 0.0);
      lstsq(Ap.data(), rows, k, b.data(), zp.data(), lw, 1e-12);
      std::fill(z.begin(), z.end(), 0.0);
      bool positive = true;
      for (int a = 0; a < k; ++a) {
        z[idx[a]] = zp[a];
        positive &= zp[a] > 0;
      }
      if (positive) {
        f = z;
        break;
      }
      // step from f towards z until the first passive coefficient reaches zero
      double alpha = 1;
      for (int j : idx)
        if (z[j] <= 0) alpha = std::min(alpha, f[j] / std::max(f[j] - z[j], 1e-300));
      for (int j : idx) {
        f[j] += alpha * (z[j] - f[j]);
        if (f[j] <= 1e-15) {
          f[j] = 0;
          in[j] = 0;
        }
      }
    }
    const double nr_new = residual();
    if (!(nr_new < nr)) {  // no progress (degenerate columns): stop with the best found
      nr = std::min(nr, nr_new);
      break;
    }
    nr = nr_new;
  }
  return nr;
}

}  // namespace

// Can the stable sets marked in `keep` meet the linear conditions (8.5) with some amounts >= 0 and site
// fractions anywhere in their phases? I.e. is the overall composition, in the space of the condition rows,
// a convex combination of compositions those phases can take (the convex hulls of their end-member
// compositions, PhaseGrid::Xv)? Conditions on μ do not restrict the composition. A set leaving a
// feasible assemblage is an ordinary phase change; leaving an infeasible one (e.g. only a stoichiometric
// phase of another composition) strands Newton at a residual it cannot remove (§8.5's removal rule assumes
// that the sets left behind can take the amount over).
bool assemblage_feasible(const Run& run, const std::vector<char>& keep) {
  const Conds& cd = run.cd;
  const int C = run.C;
  const int nx = static_cast<int>(cd.a.size());
  if (nx == 0) return true;
  std::vector<char> phase_in(run.phases.size(), 0);
  for (size_t i = 0; i < run.sets.size(); ++i)
    if (keep[i]) phase_in[run.sets[i].phase] = 1;
  int cols = 0;
  for (size_t p = 0; p < run.phases.size(); ++p)
    if (phase_in[p]) cols += static_cast<int>(run.grid.ph[p].nv);
  if (cols == 0) return false;
  const int rows = nx + 1;
  std::vector<double> A(static_cast<size_t>(rows) * cols, 0.0), b(rows, 0.0);
  b[0] = 1;  // sum of the fractions (moles of atoms) = 1
  std::vector<double> scale(nx, 1.0);
  for (int c = 0; c < nx; ++c) {
    double sc = 0;
    for (int E = 0; E < C; ++E) sc = std::max(sc, std::fabs(cd.a[c][E]));
    scale[c] = sc > 0 ? 1.0 / sc : 1.0;
    b[c + 1] = cd.b[c] * scale[c];
  }
  int col = 0;
  for (size_t p = 0; p < run.phases.size(); ++p) {
    if (!phase_in[p]) continue;
    const PhaseGrid& g = run.grid.ph[p];
    for (size_t v = 0; v < g.nv; ++v, ++col) {
      A[col] = 1;
      for (int c = 0; c < nx; ++c) {
        double val = 0;
        for (int E = 0; E < C; ++E) val += cd.a[c][E] * g.Xv[v * C + E];
        A[(c + 1) * cols + col] = val * scale[c];
      }
    }
  }
  // below Newton's mass-balance tolerance (2e-11): a residual the sets cannot remove is not met
  return nnls_residual(A, rows, cols, b) <= 1e-12;
}

}  // namespace pd::solver::detail
