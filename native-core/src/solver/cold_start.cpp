// The cold start (§8.7): the vertices of the lower convex hull (hull.cpp) become the first composition sets.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "solver/solver_internal.hpp"

namespace pd::solver::detail {

namespace {

void trace_vertices(const Run& run, const std::vector<HullVertex>& verts) {
  const int C = run.C;
  std::fprintf(stderr, "hull mu");
  for (double v : run.mu) std::fprintf(stderr, " %.6f", v);
  std::fprintf(stderr, "\n");
  for (const auto& v : verts) {
    std::fprintf(stderr, "  vertex %s f=%.6e", v.phase < 0 ? "fake" : run.phases[v.phase]->name().c_str(), v.f);
    if (v.phase >= 0) {
      const PhaseGrid& g = run.grid.ph[v.phase];
      std::fprintf(stderr, " G=%.6f x:", run.im.gridG[v.phase][v.point]);
      for (int A = 0; A < C; ++A) std::fprintf(stderr, " %.6f", g.X[v.point * C + A]);
      std::fprintf(stderr, " y:");
      std::vector<double> buf(g.m);
      const double* y = g.point(v.point, buf.data());
      for (int k = 0; k < g.m; ++k) std::fprintf(stderr, " %.6f", y[k]);
    }
    std::fprintf(stderr, "\n");
  }
}

// A fake vertex left in a degenerate final basis (amount ~0) makes μ of the order of the fake energy
// (1e10); refit μ (minimum norm) to the real vertices so the Newton corrections start from sane values.
void refit_mu_to_real_vertices(Run& run, const std::vector<HullVertex>& verts) {
  const int C = run.C;
  if (!std::any_of(verts.begin(), verts.end(), [](const HullVertex& v) { return v.phase < 0; })) return;
  std::vector<double> A, b, sol(C, 0.0);
  int rows = 0;
  for (const auto& v : verts)
    if (v.phase >= 0) {
      const double* x = &run.grid.ph[v.phase].X[v.point * C];
      A.insert(A.end(), x, x + C);
      b.push_back(run.im.gridG[v.phase][v.point]);
      ++rows;
    }
  if (rows > 0) {
    LstsqWork lw;
    lstsq(A.data(), rows, C, b.data(), sol.data(), lw, 1e-12);
    for (int E = 0; E < C; ++E)
      if (!run.cd.fixed[E]) run.mu[E] = sol[E];
  }
}

// The vertices of real phases that take part (all of them, in equal parts, when none has a fraction above 1e-14).
std::vector<HullVertex> real_vertices(const std::vector<HullVertex>& verts) {
  std::vector<HullVertex> real;
  for (const auto& v : verts)
    if (v.phase >= 0 && v.f > 1e-14) real.push_back(v);
  if (real.empty()) {
    for (const auto& v : verts)
      if (v.phase >= 0) real.push_back(v);
    for (auto& v : real) v.f = 1.0 / real.size();
  }
  return real;
}

int find_root(std::vector<int>& parent, int i) { return parent[i] == i ? i : parent[i] = find_root(parent, parent[i]); }

// Joins vertices of one phase into groups (union-find: parent) that become one composition set each.
//
// Vertices of one phase in one convex basin are merged (their midpoint lies on or below the hyperplane),
// otherwise they start a miscibility gap (§8.7 step 3). The midpoint test only sees a barrier higher than the
// chord between the two sampled vertices. Vertices a grid step outside a shallow miscibility gap have a chord well
// above the common tangent, and for variable site ratios (ionic liquid, §7.1) the y-midpoint is not even the
// composition midpoint: the two liquids of cuo.tdb at 1514 K, X(O) = 0.25 (vertices x(O) = 0.095 and 0.338) passed
// it, were merged into one set inside the spinodal, and Newton cycled between that saddle and an added second set.
// So a pair that passes is confirmed by relaxing both vertices at the hull's μ (Newton on G_f - μ·M, the relaxation
// of §9.2): one basin ends in one state; two distinct end states are two composition sets (§8.7 step 3: several
// vertices of one phase = candidate miscibility gap). Each vertex is relaxed once (μ does not change here) however
// many pairs it is tested in.
class VertexMerger {
 public:
  VertexMerger(Run& run, const std::vector<HullVertex>& real)
      : run_(run), real_(real), relaxed_(real.size()), parent_(real.size()) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }

  // single_set: every vertex of a phase in one group
  std::vector<int>& merge(bool single_set) {
    for (size_t i = 0; i < real_.size(); ++i)
      for (size_t j = i + 1; j < real_.size(); ++j) {
        if (real_[i].phase != real_[j].phase) continue;
        if (single_set) {
          join(i, j);
          continue;
        }
        if (root(i) == root(j)) continue;  // joined through other vertices
        if (below_chord(i, j) && same_basin(i, j)) join(i, j);
      }
    return parent_;
  }

 private:
  int root(size_t i) { return find_root(parent_, static_cast<int>(i)); }
  void join(size_t i, size_t j) { parent_[root(i)] = root(j); }

  // G_f - μ·M at site fractions y of phase p (J per formula unit)
  double distance(int p, const double* y) {
    run_.phases[p]->energy(*run_.im.states[p], y, 0, e_);
    run_.phases[p]->moles(y, 0, mo_);
    double d = e_.Gf;
    for (int A = 0; A < run_.C; ++A) d -= run_.mu[A] * mo_.M[A];
    return d;
  }

  // the midpoint of vertices i and j lies on or below their chord
  bool below_chord(size_t i, size_t j) {
    const int p = real_[i].phase;
    const int m = run_.grid.ph[p].m;
    std::vector<double> ym(m), bi(m), bj(m);
    const double* yi = run_.grid.ph[p].point(real_[i].point, bi.data());
    const double* yj = run_.grid.ph[p].point(real_[j].point, bj.data());
    for (int k = 0; k < m; ++k) ym[k] = 0.5 * (yi[k] + yj[k]);
    double dm = distance(p, ym.data()), di = distance(p, yi), dj = distance(p, yj);
    if (debug_level() >= 1)
      std::fprintf(stderr, "  merge test %s: d(mid) %.6f d(i) %.6f d(j) %.6f (J per formula unit)\n",
                   run_.phases[p]->name().c_str(), dm, di, dj);
    return dm <= 0.5 * (di + dj) + 1e-3;
  }

  const CompSet& relaxed_vertex(size_t i) {
    CompSet& s = relaxed_[i];
    if (s.y.empty()) {
      const int p = real_[i].phase;
      s.phase = p;
      run_.grid.ph[p].copy_point(real_[i].point, s.y);
      relax_at_mu(run_, s, 1e-9);
    }
    return s;
  }

  bool same_basin(size_t i, size_t j) {
    const CompSet* s[2] = {&relaxed_vertex(i), &relaxed_vertex(j)};
    double dx = 0;
    for (int A = 0; A < run_.C; ++A) dx = std::max(dx, std::fabs(s[0]->mo.M[A] / s[0]->Nf - s[1]->mo.M[A] / s[1]->Nf));
    if (debug_level() >= 1) std::fprintf(stderr, "  relaxed at the hull mu: composition difference %.3e\n", dx);
    return !(dx > 10 * kCompTol);
  }

  Run& run_;
  const std::vector<HullVertex>& real_;
  std::vector<CompSet> relaxed_;
  std::vector<int> parent_;
  EnergyResult e_;
  MolesResult mo_;
};

// One stable set per group of vertices: site fractions the fraction-weighted mean of its vertices', amount their
// total fraction; then the amounts from moles of atoms to formula units.
void sets_from_groups(Run& run, const std::vector<HullVertex>& real, std::vector<int>& parent) {
  for (size_t i = 0; i < real.size(); ++i) {
    if (find_root(parent, static_cast<int>(i)) != static_cast<int>(i)) continue;
    const int p = real[i].phase;
    const int m = run.grid.ph[p].m;
    CompSet s;
    s.phase = p;
    s.y.assign(m, 0.0);
    std::vector<double> buf(m);
    double ftot = 0;
    for (size_t j = 0; j < real.size(); ++j)
      if (find_root(parent, static_cast<int>(j)) == static_cast<int>(i)) ftot += real[j].f;
    for (size_t j = 0; j < real.size(); ++j)
      if (find_root(parent, static_cast<int>(j)) == static_cast<int>(i)) {
        const double* y = run.grid.ph[p].point(real[j].point, buf.data());
        double w = ftot > 0 ? real[j].f / ftot : 1.0;
        for (int k = 0; k < m; ++k) s.y[k] += w * y[k];
      }
    s.stable = true;
    s.aleph = std::max(ftot, 1e-6);  // NP for now
    run.sets.push_back(std::move(s));
  }
  double tot = 0;
  for (auto& s : run.sets) tot += s.aleph;
  MolesResult mo;
  for (auto& s : run.sets) {
    run.phases[s.phase]->moles(s.y.data(), 0, mo);
    s.aleph = s.aleph / tot / mo.Nf;  // NP -> formula units
  }
}

}  // namespace

// The cold start (§8.7): the hull's vertices become the stable composition sets and the hull's μ the first
// estimate; every other phase gets a metastable set at its grid point of largest driving force.
bool cold_start(Run& run, const std::vector<std::string>& elements, bool single_set, Reason& why) {
  std::vector<HullVertex> verts;
  refresh_grid_energies(run);
  if (!hull(run, verts, why)) {
    why.text = "starting point failed: " + why.text;
    return false;
  }
  if (debug_level() >= 1) trace_vertices(run, verts);
  refit_mu_to_real_vertices(run, verts);
  for (const auto& v : verts)
    if (v.phase < 0 && v.f > 1e-9) {
      why = {"the conditions " + std::string(kOutOfReach) + " (element " + elements[v.point] +
                 " is in none of them, or the composition is outside their range)",
             ErrorCode::NoEquilibrium};
      return false;
    }
  const std::vector<HullVertex> real = real_vertices(verts);
  VertexMerger merger(run, real);
  sets_from_groups(run, real, merger.merge(single_set));
  // every other phase gets a metastable set at its grid point of largest driving force
  seed_metastable(run);
  return true;
}

}  // namespace pd::solver::detail
