// Global equilibrium solver; see equilibrium.hpp and ../shared/design/calphad-formulas.md §8-§9.
#include "solver/equilibrium.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "solver/linalg.hpp"

namespace pd::solver {

namespace {
constexpr double kYMin = 1e-14;        // MIN_SITE_FRACTION (§10)
constexpr double kXClamp = 1e-10;      // condition clamp (§10)
constexpr double kFakeG = 1e10;        // fake hull points (§8.7)
constexpr double kDFAdd = 1e-5;        // J/mol of atoms, add a metastable set (§8.5)
constexpr double kDFGrid = 1e-4;       // J/mol of atoms, grid re-scan (§8.5)
constexpr double kCompTol = 1e-4;      // COMP_DIFFERENCE_TOL (§10)
constexpr double kNfFloorRatio = 0.02; // PhaseGrid::nf_floor relative to the most atoms per formula unit sampled
constexpr double kVacantFloorRatio = 0.5;
constexpr double kVacantFloorMargin = 1e-3;  // relative: metastable sets are held this far above the floor  // ... of a phase with a pure-vacancy end member: relative to the emptiest end member with atoms
}  // namespace

// ---------------------------------------------------------------------------------------------
// Sampling (§8.7)

struct PhaseGrid {
  int m = 0;
  size_t np = 0;
  std::vector<double> Y;  // np * m
  std::vector<double> X;  // np * C (mole fractions per mole of atoms)
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
};

namespace {

// Static per-phase data: constraint matrix and an orthonormal basis of its null space (used to test
// the reduced Hessian for positive definiteness, §12 item 10).
struct PhaseInfo {
  int m = 0, k = 0, nz = 0;
  std::vector<double> J, rhs;            // k x m
  std::vector<std::vector<int>> subl;    // variable indices per sublattice
  std::vector<double> Z;                 // m x nz (row-major)
  bool charged = false;
  // two or more sublattices mixing two or more constituents each (ordered and compound-energy phases):
  // their driving force has several local maxima (ordering variants, constitutional vacancies), see
  // check_basins in solver_core.inc
  bool several_basins = false;
  // site ratios that depend on y (two-sublattice ionic liquid, §7.1): M_A(y) is not linear, so the
  // Hessian of the Lagrangian in the per-set matrix carries -sum_A μ_A ∂²M_A/∂y² (§8.2 note)
  bool variable_ratios = false;
};

PhaseInfo make_info(const PhaseModel& pm) {
  PhaseInfo pi;
  const auto& vars = pm.variables();
  pi.m = static_cast<int>(vars.size());
  const auto& cons = pm.constraints();
  pi.k = static_cast<int>(cons.size());
  pi.J.assign(static_cast<size_t>(pi.k) * pi.m, 0.0);
  pi.rhs.assign(pi.k, 0.0);
  for (int r = 0; r < pi.k; ++r) {
    if (static_cast<int>(cons[r].coeff.size()) != pi.m)
      throw std::runtime_error("phase " + pm.name() + ": constraint length differs from the number of variables");
    for (int i = 0; i < pi.m; ++i) pi.J[r * pi.m + i] = cons[r].coeff[i];
    pi.rhs[r] = cons[r].rhs;
    if (cons[r].kind == "charge") pi.charged = true;
  }
  int ns = 0;
  for (const auto& v : vars) ns = std::max(ns, v.sublattice + 1);
  pi.subl.assign(ns, {});
  for (int i = 0; i < pi.m; ++i) pi.subl[vars[i].sublattice].push_back(i);
  int mixing = 0;
  for (const auto& sl : pi.subl) mixing += sl.size() >= 2;
  pi.several_basins = mixing >= 2;
  pi.variable_ratios = pm.is_ionic_liquid();
  // Orthonormal basis Q of the row space of J (modified Gram-Schmidt), then the complement.
  std::vector<std::vector<double>> basis;
  // Adds v to the basis after removing its components along the basis (two passes of modified
  // Gram-Schmidt for stability), unless what is left is shorter than `min_norm`.
  auto add_orthonormal = [&](std::vector<double> v, double min_norm) {
    for (int pass = 0; pass < 2; ++pass)
      for (const auto& q : basis) {
        double d = 0;
        for (int i = 0; i < pi.m; ++i) d += q[i] * v[i];
        for (int i = 0; i < pi.m; ++i) v[i] -= d * q[i];
      }
    double nn = 0;
    for (double a : v) nn += a * a;
    nn = std::sqrt(nn);
    if (nn > min_norm) {
      for (double& a : v) a /= nn;
      basis.push_back(std::move(v));
    }
  };
  for (int r = 0; r < pi.k; ++r)
    add_orthonormal(std::vector<double>(pi.J.begin() + r * pi.m, pi.J.begin() + (r + 1) * pi.m), 1e-10);
  size_t nrow = basis.size();
  for (int e = 0; e < pi.m && static_cast<int>(basis.size()) < pi.m; ++e) {
    std::vector<double> v(pi.m, 0.0);
    v[e] = 1;
    add_orthonormal(std::move(v), 1e-6);
  }
  pi.nz = static_cast<int>(basis.size() - nrow);
  pi.Z.assign(static_cast<size_t>(pi.m) * pi.nz, 0.0);
  for (int j = 0; j < pi.nz; ++j)
    for (int i = 0; i < pi.m; ++i) pi.Z[i * pi.nz + j] = basis[nrow + j][i];
  return pi;
}

// Halton radical inverse in base b.
double halton(uint64_t i, int b) {
  double f = 1, r = 0;
  while (i > 0) {
    f /= b;
    r += f * static_cast<double>(i % b);
    i /= b;
  }
  return r;
}

const int kPrimes[] = {2,  3,  5,  7,  11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79,
                       83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173};

// Replaces zeros by kYMin and renormalises each sublattice (§8.7 end members).
void floor_renormalise(double* y, const PhaseInfo& pi) {
  for (const auto& s : pi.subl) {
    double sum = 0;
    for (int i : s) {
      if (y[i] < kYMin) y[i] = kYMin;
      sum += y[i];
    }
    for (int i : s) y[i] /= sum;
  }
}

PhaseGrid sample_phase(const PhaseModel& pm, const PhaseInfo& pi, int C, int pdens) {
  const int m = pi.m;
  std::vector<double> pts;  // rows of m
  // End members (product over sublattices).
  std::vector<std::vector<double>> ends;
  {
    std::vector<int> idx(pi.subl.size(), 0);
    size_t count = 1;
    for (const auto& s : pi.subl) count *= std::max<size_t>(1, s.size());
    count = std::min<size_t>(count, 20000);
    for (size_t c = 0; c < count; ++c) {
      std::vector<double> y(m, 0.0);
      for (size_t s = 0; s < pi.subl.size(); ++s)
        if (!pi.subl[s].empty()) y[pi.subl[s][idx[s]]] = 1.0;
      ends.push_back(y);
      for (size_t s = 0; s < pi.subl.size(); ++s) {
        if (++idx[s] < static_cast<int>(pi.subl[s].size())) break;
        idx[s] = 0;
      }
    }
  }
  // Charged phases: keep only neutral points (§8.7): neutral end members plus the neutral mixture of
  // every (positive, negative) pair; every convex combination of neutral points is neutral again.
  if (pi.charged) {
    std::vector<std::vector<double>> neutral;
    std::vector<double> q(ends.size());
    for (size_t e = 0; e < ends.size(); ++e) {
      double worst = 0;
      for (int r = 0; r < pi.k; ++r) {
        double s = -pi.rhs[r];
        for (int i = 0; i < m; ++i) s += pi.J[r * m + i] * ends[e][i];
        // site-sum rows are satisfied by construction; take the charge row's residual
        if (std::fabs(s) > std::fabs(worst)) worst = s;
      }
      q[e] = worst;
    }
    for (size_t e = 0; e < ends.size(); ++e)
      if (std::fabs(q[e]) < 1e-12) neutral.push_back(ends[e]);
    for (size_t a = 0; a < ends.size(); ++a)
      for (size_t b = 0; b < ends.size(); ++b)
        if (q[a] > 1e-12 && q[b] < -1e-12 && neutral.size() < 20000) {
          double t = -q[b] / (q[a] - q[b]);
          std::vector<double> y(m);
          for (int i = 0; i < m; ++i) y[i] = t * ends[a][i] + (1 - t) * ends[b][i];
          neutral.push_back(y);
        }
    ends.swap(neutral);
  }
  for (auto& e : ends) pts.insert(pts.end(), e.begin(), e.end());
  PhaseGrid g;
  bool has_vacuum = false;  // the phase has a pure-vacancy end member (N_f can reach 0)
  double nf_end_min = std::numeric_limits<double>::infinity();  // fewest atoms of an end member that has any
  {
    // distinct end-member compositions (PhaseGrid::Xv): sorted, neighbours within 1e-9 merged; only the
    // pure-vacancy configuration (no atoms) has none
    MolesResult mo;
    std::vector<std::vector<double>> xe;
    for (const auto& e : ends) {
      pm.moles(e.data(), 0, mo);
      if (!(mo.Nf > 1e-10)) {
        has_vacuum = true;
        continue;
      }
      nf_end_min = std::min(nf_end_min, mo.Nf);
      std::vector<double> x(C);
      for (int A = 0; A < C; ++A) x[A] = mo.M[A] / mo.Nf;
      xe.push_back(std::move(x));
    }
    std::sort(xe.begin(), xe.end());
    for (const auto& x : xe) {
      double d = 1;
      if (g.nv) {
        d = 0;
        for (int A = 0; A < C; ++A) d = std::max(d, std::fabs(x[A] - g.Xv[(g.nv - 1) * C + A]));
      }
      if (d <= 1e-9) continue;
      g.Xv.insert(g.Xv.end(), x.begin(), x.end());
      ++g.nv;
    }
  }
  // Lines between pairs of end members (pdens points each, capped to ~90000 points).
  size_t E = ends.size();
  size_t pairs = E * (E - 1) / 2;
  if (pairs > 0) {
    int per = pdens;
    if (pairs * per > 90000) per = std::max<int>(3, static_cast<int>(90000 / pairs));
    size_t stride = pairs > 5000 ? pairs / 5000 + 1 : 1;
    size_t pc = 0;
    for (size_t a = 0; a < E; ++a) {
      throw_if_cancelled();
      for (size_t b = a + 1; b < E; ++b, ++pc) {
        if (pc % stride) continue;
        for (int j = 1; j < per; ++j) {
          double t = static_cast<double>(j) / per;
          for (int i = 0; i < m; ++i) pts.push_back(t * ends[a][i] + (1 - t) * ends[b][i]);
        }
        // extra points near both ends of the edge (dilute solutions, terminal miscibility-gap
        // minima closer to a pure end than the uniform spacing; issue 4 "extra points near the pure ends")
        if (pairs <= 400)
          for (int k = 3; k <= 16; ++k) {
            double t = std::pow(10.0, -0.5 * k);
            if (t >= 1.0 / per) continue;
            for (int i = 0; i < m; ++i) pts.push_back(t * ends[a][i] + (1 - t) * ends[b][i]);
            for (int i = 0; i < m; ++i) pts.push_back((1 - t) * ends[a][i] + t * ends[b][i]);
          }
      }
    }
  }
  // Quasi-random interior points (§8.7): Halton u, t = -ln u, normalised per sublattice (uniform on
  // each simplex); for charged phases random convex combinations of the neutral points instead.
  int dof = 0;
  for (const auto& s : pi.subl) dof += static_cast<int>(s.size()) - 1;
  if (pi.charged) dof = std::max(0, dof - 1);
  // Interior points: pdens per degree of freedom as in §8.7, times 8 when the space has two or more
  // dimensions (a ternary's shallow miscibility gap or an ordered region is missed at pdens*dof points,
  // cases pyc-eq-crfeni-shallow-bcc-gap and pyc-eq-issue43-fcc-gp), capped at 30000.
  size_t nrand = static_cast<size_t>(pdens) * std::max(0, dof) * (pi.charged ? 4 : 1) * (dof >= 2 ? 8 : 1);
  nrand = std::min<size_t>(nrand, 30000);
  if (pi.charged && E >= 2) {
    for (size_t r = 0; r < nrand; ++r) {
      int nk = std::min<int>(static_cast<int>(E), 4);
      std::vector<double> y(m, 0.0);
      double wsum = 0;
      for (int kk = 0; kk < nk; ++kk) {
        size_t pick = static_cast<size_t>(halton(r + 1, kPrimes[2 * kk]) * E) % E;
        double w = -std::log(std::max(1e-300, halton(r + 1, kPrimes[2 * kk + 1])));
        wsum += w;
        for (int i = 0; i < m; ++i) y[i] += w * ends[pick][i];
      }
      for (double& v : y) v /= wsum;
      pts.insert(pts.end(), y.begin(), y.end());
    }
  } else if (!pi.charged) {
    // Sublattices with the same constituents (order-disorder models, e.g. B2 (AL,NI,VA)0.5(AL,NI,VA)0.5):
    // the disordered states (equal site fractions on them) form a thin subspace that random interior
    // points almost never hit, so every random point also gets a disordered twin.
    std::vector<int> twin_of(pi.subl.size(), -1);
    const auto& vars = pm.variables();
    for (size_t s = 1; s < pi.subl.size(); ++s)
      for (size_t t = 0; t < s && twin_of[s] < 0; ++t) {
        if (pi.subl[s].size() != pi.subl[t].size() || pi.subl[s].size() < 2) continue;
        bool same = true;
        for (size_t k = 0; k < pi.subl[s].size(); ++k)
          same &= vars[pi.subl[s][k]].species == vars[pi.subl[t][k]].species;
        if (same) twin_of[s] = static_cast<int>(twin_of[t] >= 0 ? twin_of[t] : static_cast<int>(t));
      }
    bool has_twins = std::any_of(twin_of.begin(), twin_of.end(), [](int v) { return v >= 0; });
    for (size_t r = 0; r < nrand && has_twins; ++r) {
      std::vector<double> y(m);
      for (int i = 0; i < m; ++i) y[i] = -std::log(std::max(halton(r + 1, kPrimes[(i + 7) % 40]), 1e-300));
      for (size_t s = 0; s < pi.subl.size(); ++s)
        if (twin_of[s] >= 0)
          for (size_t k = 0; k < pi.subl[s].size(); ++k) y[pi.subl[s][k]] = y[pi.subl[twin_of[s]][k]];
      for (const auto& sl : pi.subl) {
        double sum = 0;
        for (int i : sl) sum += y[i];
        for (int i : sl) y[i] /= sum;
      }
      pts.insert(pts.end(), y.begin(), y.end());
    }
    for (size_t r = 0; r < nrand; ++r) {
      std::vector<double> y(m);
      for (int i = 0; i < m; ++i) {
        double u = halton(r + 1, kPrimes[i % 40]);
        y[i] = -std::log(std::max(u, 1e-300));
      }
      for (const auto& s : pi.subl) {
        double sum = 0;
        for (int i : s) sum += y[i];
        for (int i : s) y[i] /= sum;
      }
      pts.insert(pts.end(), y.begin(), y.end());
    }
  }
  // Floor, composition, drop pure-vacancy points.
  g.m = m;
  size_t n = m ? pts.size() / m : 0;
  MolesResult mo;
  // Points close to the pure-vacancy configuration (N_f -> 0) are not sampled: their amount in formula
  // units NP/N_f explodes and they carry no information a point with more atoms does not (§1.4, §8.7).
  double nf_max = 0;
  throw_if_cancelled();
  for (size_t p = 0; p < n; ++p) {
    pm.moles(&pts[p * m], 0, mo);
    nf_max = std::max(nf_max, mo.Nf);
  }
  // A phase that can be emptied of atoms keeps at least half the atoms of its emptiest end member (an ordered
  // sublattice may be vacant, the crystal may not); others only leave out the near-empty grid points.
  g.nf_floor = has_vacuum && std::isfinite(nf_end_min) ? kVacantFloorRatio * nf_end_min : kNfFloorRatio * nf_max;
  for (size_t p = 0; p < n; ++p) {
    double* y = &pts[p * m];
    if (!pi.charged) floor_renormalise(y, pi);
    else
      for (int i = 0; i < m; ++i) y[i] = std::max(y[i], kYMin);
    pm.moles(y, 0, mo);
    if (!(mo.Nf > 1e-10) || mo.Nf < g.nf_floor) continue;
    g.Y.insert(g.Y.end(), y, y + m);
    for (int A = 0; A < C; ++A) g.X.push_back(mo.M[A] / mo.Nf);
    ++g.np;
  }
  throw_if_cancelled();
  if (g.np) g.table = pm.compile_points(g.Y.data(), g.np);
  return g;
}

// Parsed conditions: linear rows sum_A a_A x_A = b plus fixed chemical potentials.
struct Conds {
  double T = 0, P = 0;
  std::vector<std::vector<double>> a;  // nx rows of C
  std::vector<double> b;
  std::vector<int> row_element;        // element of each X/W row
  std::vector<char> row_is_x;
  std::vector<char> fixed;             // per element
  std::vector<double> mufix;           // per element
  std::vector<int> free_el;            // elements with free μ
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
};

}  // namespace

// ---------------------------------------------------------------------------------------------

struct EquilibriumSolver::Impl {
  std::vector<PhaseInfo> info;
  double T = std::numeric_limits<double>::quiet_NaN(), P = T;
  std::vector<std::unique_ptr<PhaseModel::State>> states;
  std::vector<std::vector<double>> gridG;  // GM of each grid point at (T,P)
  // workspaces
  std::vector<double> Phi, rhs, Hr, A, bvec, sol;
  std::vector<double> W;                // linearize's Hessian of the Lagrangian in y (§8.2)
  std::vector<double> trial, grhs, gx;  // linearize's Cholesky trial, solve_global's right side and x
  std::vector<int> gst;                 // solve_global's stable sets
  std::vector<double> hull_cols, hull_costs;  // hull's columns and costs of every grid point
  std::vector<int> piv;
  LstsqWork lw;
};

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
  grid_ = grid;
}

EquilibriumSolver::EquilibriumSolver(const EquilibriumSolver& o)
    : phases_(o.phases_), elements_(o.elements_), masses_(o.masses_), options_(o.options_), grid_(o.grid_),
      impl_(new Impl) {
  impl_->info = o.impl_->info;
}

EquilibriumSolver::~EquilibriumSolver() = default;

size_t EquilibriumSolver::grid_points() const { return grid_->total; }

namespace {

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
};

}  // namespace

}  // namespace pd::solver

// The bulk of the algorithm lives in solver_core.inc to keep this file readable.
#include "solver/solver_core.inc"
