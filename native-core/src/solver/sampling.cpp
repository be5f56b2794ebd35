// Sampling grids of the phases (§8.7); their energies at one (T,P) are grid_energies.cpp's. See solver_internal.hpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <stdexcept>

#include "solver/solver_internal.hpp"

namespace pd::solver::detail {

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
  // Several basins: two mixing sublattices (ordering, constitutional vacancies), or one sublattice mixing
  // three or more species, whose composition space of two or more dimensions the grid samples sparsely while
  // ternary and higher excess terms can open a gap anywhere in it (COST507's liquid at 1267 K in
  // Al-Cu-Fe-Mg-Mn-Si-Zn: a second liquid of Mg-Mn-Zn, 420 J/mol above the tangent of the answer, between the
  // grid points).
  int mixing = 0;
  bool three_species = false;
  for (const auto& sl : pi.subl) {
    mixing += sl.size() >= 2;
    int species = 0;
    for (int i : sl) species += vars[i].species != "VA";
    three_species |= species >= 3;
  }
  pi.several_basins = mixing >= 2 || three_species;
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
  for (int r = 0; r < pi.k; ++r) {
    const size_t before = basis.size();
    add_orthonormal(std::vector<double>(pi.J.begin() + r * pi.m, pi.J.begin() + (r + 1) * pi.m), 1e-10);
    if (basis.size() == before) continue;  // a combination of the rows before it
    pi.Jr.insert(pi.Jr.end(), pi.J.begin() + r * pi.m, pi.J.begin() + (r + 1) * pi.m);
    pi.rhsr.push_back(pi.rhs[r]);
    ++pi.kr;
  }
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

namespace {

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

// Pairs of end members above which the lines between end members that differ on two or more sublattices
// are sampled sparsely (sample_phase); the same count above which the dilute-end points are left out.
constexpr size_t kSparseDiagonalPairs = 400;
// Points on the faces of one mixing sublattice, per phase (see sample_phase).
const size_t kFacePointsMax = 10000;

const int kPrimes[] = {2,  3,  5,  7,  11, 13,  17,  19,  23,  29,  31,  37,  41,  43,  47,  53,  59,  61,  67,  71,
                       73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173};

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

}  // namespace

namespace {

// End members: one constituent per sublattice, every combination (at most 20000).
std::vector<std::vector<double>> end_members(const PhaseInfo& pi) {
  std::vector<std::vector<double>> ends;
  std::vector<int> idx(pi.subl.size(), 0);
  size_t count = 1;
  for (const auto& s : pi.subl) count *= std::max<size_t>(1, s.size());
  count = std::min<size_t>(count, 20000);
  for (size_t c = 0; c < count; ++c) {
    std::vector<double> y(pi.m, 0.0);
    for (size_t s = 0; s < pi.subl.size(); ++s)
      if (!pi.subl[s].empty()) y[pi.subl[s][idx[s]]] = 1.0;
    ends.push_back(y);
    for (size_t s = 0; s < pi.subl.size(); ++s) {
      if (++idx[s] < static_cast<int>(pi.subl[s].size())) break;
      idx[s] = 0;
    }
  }
  return ends;
}

// Charged phases: keep only neutral points (§8.7): neutral end members plus the neutral mixture of
// every (positive, negative) pair; every convex combination of neutral points is neutral again.
std::vector<std::vector<double>> neutral_points(const PhaseInfo& pi, const std::vector<std::vector<double>>& ends) {
  const int m = pi.m;
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
  return neutral;
}

// What the end members tell of the phase: its distinct end-member compositions (PhaseGrid::Xv: sorted, neighbours
// within 1e-9 merged; only the pure-vacancy configuration, without atoms, has none), whether it has a pure-vacancy
// end member (N_f can reach 0), and the fewest atoms of an end member that has any.
struct EndMemberSummary {
  bool has_vacuum = false;
  double nf_end_min = std::numeric_limits<double>::infinity();
};
EndMemberSummary end_member_compositions(const PhaseModel& pm, const std::vector<std::vector<double>>& ends, int C,
                                         PhaseGrid& g) {
  EndMemberSummary sum;
  MolesResult mo;
  std::vector<std::vector<double>> xe;
  for (const auto& e : ends) {
    pm.moles(e.data(), 0, mo);
    if (!(mo.Nf > 1e-10)) {
      sum.has_vacuum = true;
      continue;
    }
    sum.nf_end_min = std::min(sum.nf_end_min, mo.Nf);
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
  return sum;
}

// Lines between pairs of end members (pdens points each, capped to ~90000 points), appended to pts.
void pair_lines(const PhaseInfo& pi, const std::vector<std::vector<double>>& ends, int pdens,
                std::vector<double>& pts) {
  const int m = pi.m;
  size_t E = ends.size();
  size_t pairs = E * (E - 1) / 2;
  if (pairs == 0) return;
  int per = pdens;
  if (pairs * per > 90000) per = std::max<int>(3, static_cast<int>(90000 / pairs));
  size_t stride = pairs > 5000 ? pairs / 5000 + 1 : 1;
  // Many end members (five or more constituents on each of two mixing sublattices, e.g. BCC_B2 or the
  // Laves phases of a 7-component alloy): most pairs differ on several sublattices, and their lines cross
  // the interior of the constitution space that the quasi-random points below already cover. Those
  // diagonals get a quarter of the points; the edges (pairs differing on one sublattice: binary mixing on
  // that sublattice, where gaps and dilute minima lie) keep the full density. Smaller phases are unchanged.
  // (ordered phases of ternaries and quaternaries, e.g. a 4-sublattice FCC of three or four elements,
  // keep every line: their partially ordered states lie on the diagonals)
  bool wide_sublattices = true;
  for (const auto& sl : pi.subl)
    if (sl.size() >= 2 && sl.size() < 5) wide_sublattices = false;
  const bool sparse_diagonals = !pi.charged && pairs > kSparseDiagonalPairs && wide_sublattices;
  const int per_diagonal = std::max(3, per / 4);
  // room for every line point at once (an upper bound; pages never written are never touched): growing
  // the array by doubling copied and faulted in the large grids several times over
  pts.reserve(pts.size() + (pairs / stride + 1) * static_cast<size_t>(per + 28) * m);
  size_t pc = 0;
  for (size_t a = 0; a < E; ++a) {
    throw_if_cancelled();
    for (size_t b = a + 1; b < E; ++b, ++pc) {
      if (pc % stride) continue;
      int along = per;
      if (sparse_diagonals) {
        // end members are one-hot per sublattice: two differing entries per differing sublattice
        int differing = 0;
        for (int i = 0; i < m; ++i) differing += ends[a][i] != ends[b][i];
        if (differing > 2) along = per_diagonal;
      }
      for (int j = 1; j < along; ++j) {
        double t = static_cast<double>(j) / along;
        for (int i = 0; i < m; ++i) pts.push_back(t * ends[a][i] + (1 - t) * ends[b][i]);
      }
      // extra points near both ends of the edge (dilute solutions, terminal miscibility-gap
      // minima closer to a pure end than the uniform spacing)
      if (pairs <= kSparseDiagonalPairs)
        for (int k = 3; k <= 16; ++k) {
          double t = std::pow(10.0, -0.5 * k);
          if (t >= 1.0 / per) continue;
          for (int i = 0; i < m; ++i) pts.push_back(t * ends[a][i] + (1 - t) * ends[b][i]);
          for (int i = 0; i < m; ++i) pts.push_back((1 - t) * ends[a][i] + t * ends[b][i]);
        }
    }
  }
}

// Faces of one mixing sublattice: every other sublattice held at one constituent, that sublattice quasi-random
// (pdens points per face). Pair lines give a face of two constituents only, and random interior points seldom
// have the other sublattices that pure: alcrni's B2 at 1273 K, Al on one sublattice and Al, Cr, Ni on the
// other, lies 75-125 J/mol below the states both grids found before.
void face_points(const PhaseInfo& pi, const std::vector<std::vector<double>>& ends, int pdens,
                 std::vector<double>& pts) {
  const size_t E = ends.size();
  if (pi.charged || pi.subl.size() < 2 || E < 2) return;
  size_t added = 0;
  for (size_t s = 0; s < pi.subl.size() && added < kFacePointsMax; ++s) {
    if (pi.subl[s].size() < 3) continue;
    const int first = pi.subl[s][0];
    for (size_t e = 0; e < E && added < kFacePointsMax; ++e) {
      if (ends[e][first] != 1.0) continue;  // one end member per choice of the other sublattices
      for (int r = 0; r < pdens && added < kFacePointsMax; ++r, ++added) {
        std::vector<double> y(ends[e]);
        double sum = 0;
        for (size_t k = 0; k < pi.subl[s].size(); ++k) {
          const double u = halton(static_cast<uint64_t>(r) + 1, kPrimes[k % 40]);
          y[pi.subl[s][k]] = -std::log(std::max(u, 1e-300));
          sum += y[pi.subl[s][k]];
        }
        for (int i : pi.subl[s]) y[i] /= sum;
        pts.insert(pts.end(), y.begin(), y.end());
      }
    }
  }
}

// Charged phases' interior points: random convex combinations of up to four neutral points.
void neutral_combinations(const PhaseInfo& pi, const std::vector<std::vector<double>>& ends, size_t nrand,
                          std::vector<double>& pts) {
  const int m = pi.m;
  const size_t E = ends.size();
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
}

// y normalised per sublattice.
void normalise_sublattices(const PhaseInfo& pi, std::vector<double>& y) {
  for (const auto& s : pi.subl) {
    double sum = 0;
    for (int i : s) sum += y[i];
    for (int i : s) y[i] /= sum;
  }
}

// Sublattices with the same constituents (order-disorder models, e.g. B2 (AL,NI,VA)0.5(AL,NI,VA)0.5):
// the disordered states (equal site fractions on them) form a thin subspace that random interior
// points almost never hit, so every random point also gets a disordered twin (appended before them all).
void disordered_twins(const PhaseModel& pm, const PhaseInfo& pi, size_t nrand, std::vector<double>& pts) {
  const int m = pi.m;
  std::vector<int> twin_of(pi.subl.size(), -1);
  const auto& vars = pm.variables();
  for (size_t s = 1; s < pi.subl.size(); ++s)
    for (size_t t = 0; t < s && twin_of[s] < 0; ++t) {
      if (pi.subl[s].size() != pi.subl[t].size() || pi.subl[s].size() < 2) continue;
      bool same = true;
      for (size_t k = 0; k < pi.subl[s].size(); ++k) same &= vars[pi.subl[s][k]].species == vars[pi.subl[t][k]].species;
      if (same) twin_of[s] = static_cast<int>(twin_of[t] >= 0 ? twin_of[t] : static_cast<int>(t));
    }
  bool has_twins = std::any_of(twin_of.begin(), twin_of.end(), [](int v) { return v >= 0; });
  for (size_t r = 0; r < nrand && has_twins; ++r) {
    std::vector<double> y(m);
    for (int i = 0; i < m; ++i) y[i] = -std::log(std::max(halton(r + 1, kPrimes[(i + 7) % 40]), 1e-300));
    for (size_t s = 0; s < pi.subl.size(); ++s)
      if (twin_of[s] >= 0)
        for (size_t k = 0; k < pi.subl[s].size(); ++k) y[pi.subl[s][k]] = y[pi.subl[twin_of[s]][k]];
    normalise_sublattices(pi, y);
    pts.insert(pts.end(), y.begin(), y.end());
  }
}

// Quasi-random interior points (§8.7): Halton u, t = -ln u, normalised per sublattice (uniform on
// each simplex); for charged phases random convex combinations of the neutral points instead.
void interior_points(const PhaseModel& pm, const PhaseInfo& pi, const std::vector<std::vector<double>>& ends, int pdens,
                     std::vector<double>& pts) {
  const int m = pi.m;
  int dof = 0;
  for (const auto& s : pi.subl) dof += static_cast<int>(s.size()) - 1;
  if (pi.charged) dof = std::max(0, dof - 1);
  // Interior points: pdens per degree of freedom as in §8.7, times 8 when the space has two or more
  // dimensions (a ternary's shallow miscibility gap or an ordered region is missed at pdens*dof points,
  // cases pyc-eq-crfeni-shallow-bcc-gap and pyc-eq-issue43-fcc-gp), capped at 30000.
  size_t nrand = static_cast<size_t>(pdens) * std::max(0, dof) * (pi.charged ? 4 : 1) * (dof >= 2 ? 8 : 1);
  nrand = std::min<size_t>(nrand, 30000);
  pts.reserve(pts.size() + 2 * nrand * m);
  if (pi.charged) {
    if (ends.size() >= 2) neutral_combinations(pi, ends, nrand, pts);
    return;
  }
  disordered_twins(pm, pi, nrand, pts);
  for (size_t r = 0; r < nrand; ++r) {
    std::vector<double> y(m);
    for (int i = 0; i < m; ++i) {
      double u = halton(r + 1, kPrimes[i % 40]);
      y[i] = -std::log(std::max(u, 1e-300));
    }
    normalise_sublattices(pi, y);
    pts.insert(pts.end(), y.begin(), y.end());
  }
}

// The grids of a system of at least this many elements keep their site fractions and largest table in float
// (PhaseGrid::Yf): a 7-component steel's 130 phases sample 600,000 points, 150 MB in double, while a system of a few
// elements, whose grid takes a few MB, keeps every value exact.
constexpr int kSinglePrecisionElements = 6;

// The points kept (floored at kYMin, with atoms above the phase's vacancy floor) into g.Y with their compositions
// g.X; a large phase constrained by its site sums alone also keeps them rounded to float in g.Yf, and each point is
// that row renormalised (PhaseGrid::point). Points close to the pure-vacancy configuration (N_f -> 0) are not sampled: their amount in formula units
// NP/N_f explodes and they carry no information a point with more atoms does not (§1.4, §8.7).
void keep_points(const PhaseModel& pm, const PhaseInfo& pi, int C, const std::vector<std::vector<double>>& ends,
                 const EndMemberSummary& em, std::vector<double>& pts, PhaseGrid& g) {
  const int m = pi.m;
  g.m = m;
  size_t n = m ? pts.size() / m : 0;
  MolesResult mo;
  double nf_max = 0;
  throw_if_cancelled();
  if (!pi.variable_ratios && !pi.charged) {
    // N_f is linear in y with fixed site ratios, and every point is a convex combination of end members
    // (per sublattice): its largest value is an end member's
    for (const auto& e : ends) {
      pm.moles(e.data(), 0, mo);
      nf_max = std::max(nf_max, mo.Nf);
    }
  } else {
    for (size_t p = 0; p < n; ++p) {
      pm.moles(&pts[p * m], 0, mo);
      nf_max = std::max(nf_max, mo.Nf);
    }
  }
  // A phase that can be emptied of atoms keeps at least half the atoms of its emptiest end member (an ordered
  // sublattice may be vacant, the crystal may not); others only leave out the near-empty grid points.
  const bool single = !pi.charged && !pi.variable_ratios && C >= kSinglePrecisionElements;
  if (single) {
    g.site_sums = pi.subl;
    g.Yf.reserve(n * m);
  }
  g.Y.reserve(n * m);
  g.X.reserve(n * C);
  g.nf_floor =
      em.has_vacuum && std::isfinite(em.nf_end_min) ? kVacantFloorRatio * em.nf_end_min : kNfFloorRatio * nf_max;
  for (size_t p = 0; p < n; ++p) {
    double* y = &pts[p * m];
    if (!pi.charged)
      floor_renormalise(y, pi);
    else
      for (int i = 0; i < m; ++i) y[i] = std::max(y[i], kYMin);
    const size_t rounded = g.Yf.size();
    if (single) {
      for (int i = 0; i < m; ++i) g.Yf.push_back(static_cast<float>(y[i]));
      g.point(g.np, y);  // the row as point() will read it
    }
    pm.moles(y, 0, mo);
    if (!(mo.Nf > 1e-10) || mo.Nf < g.nf_floor) {
      g.Yf.resize(rounded);
      continue;
    }
    g.Y.insert(g.Y.end(), y, y + m);
    for (int A = 0; A < C; ++A) g.X.push_back(mo.M[A] / mo.Nf);
    ++g.np;
  }
}

// A phase with one degree of freedom: its points' coordinate along the line, their order along it and each one's
// rank in that order (PhaseGrid::line_s, line_order, line_rank).
void line_coordinates(const PhaseInfo& pi, PhaseGrid& g) {
  const int m = pi.m;
  g.line_s.resize(g.np);
  for (size_t k = 0; k < g.np; ++k) {
    double v = 0;
    for (int i = 0; i < m; ++i) v += pi.Z[i] * g.Y[k * m + i];
    g.line_s[k] = v;
  }
  g.line_order.resize(g.np);
  for (size_t k = 0; k < g.np; ++k) g.line_order[k] = k;
  std::sort(g.line_order.begin(), g.line_order.end(), [&](size_t a, size_t b) { return g.line_s[a] < g.line_s[b]; });
  g.line_rank.resize(g.np);
  for (size_t r = 0; r < g.np; ++r) g.line_rank[g.line_order[r]] = r;
}

}  // namespace

// The grid of one phase, its points in this order: end members, lines between pairs of them, faces of one mixing
// sublattice, quasi-random interior points; then floored, with their compositions, and tabulated.
PhaseGrid sample_phase(const PhaseModel& pm, const PhaseInfo& pi, int C, int pdens) {
  std::vector<std::vector<double>> ends = end_members(pi);
  if (pi.charged) ends = neutral_points(pi, ends);
  std::vector<double> pts;  // rows of m
  for (auto& e : ends) pts.insert(pts.end(), e.begin(), e.end());
  PhaseGrid g;
  const EndMemberSummary em = end_member_compositions(pm, ends, C, g);
  pair_lines(pi, ends, pdens, pts);
  face_points(pi, ends, pdens, pts);
  interior_points(pm, pi, ends, pdens, pts);
  keep_points(pm, pi, C, ends, em, pts, g);
  throw_if_cancelled();
  // single precision for a phase constrained by its site sums alone: an ionic phase's grid keeps double, as the
  // hull's degenerate planes of neutral compositions (an oxide's O = 0.6) need its energies exact to cycle-free
  // pivots, and such grids are small
  if (g.np) g.table = pm.compile_points(g.Y.data(), g.np, !g.Yf.empty());
  if (pi.nz == 1 && !pi.variable_ratios) line_coordinates(pi, g);
  // the energies of a phase without a table are computed from Y at every (T, P)
  if (g.table && !g.Yf.empty())
    std::vector<double>().swap(g.Y);
  else
    std::vector<float>().swap(g.Yf);
  return g;
}

}  // namespace pd::solver::detail
