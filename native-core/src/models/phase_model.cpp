// Gibbs-energy models of one phase (formula sheet ../shared/design/calphad-formulas.md §0-§7).
// Each phase is compiled once into flat term lists (poly.hpp) over its site-fraction variables:
//   G   : reference (1.1) + excess (2.1-2.5) terms, with the order-disorder bracket (5.2) folded in
//   ID  : ideal configurational terms R T a_s y ln y (1.2, 7.3)
//   NF  : N_f (1.3, 7.1), MA : M_A per element (1.4)
//   TC, BM, NT, THETA, GD, V0, VA, VK : raw RK sums of the physical parameters (§3, §4, §6), partitioned
//   as in (5.3) for an ordered phase.
// The nonlinear parts (magnetic f(tau), Einstein, two-state, 1/N_f, volume) are applied with dense
// second-order jets (chain rule) on top.
#include "models/phase_model.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "models/poly.hpp"

namespace pd {
namespace {
using models::Affine;
using models::Factor;
using models::Jet;
using models::Poly;
using models::Term;

constexpr double R = kGasConstant;
constexpr double kP0 = 101325.0;  // §6.2 reference pressure of the volume term

std::string key_of(const Parameter& p) {
  std::ostringstream os;
  os << p.type << '|' << p.phase << '|' << p.order << '|';
  for (const auto& s : p.constituents) {
    for (const auto& c : s) os << c << ',';
    os << ':';
  }
  return os.str();
}

// §5.5: permutations of the first four sublattices for options F (all 24) and B (8: inside the pairs
// {0,1}, {2,3} and swapping the pairs).
std::vector<std::array<int, 4>> symmetry_perms(char option) {
  std::vector<std::array<int, 4>> out;
  if (option == 'F') {
    std::array<int, 4> p{0, 1, 2, 3};
    do out.push_back(p); while (std::next_permutation(p.begin(), p.end()));
  } else {
    for (int swapPairs = 0; swapPairs < 2; ++swapPairs)
      for (int s01 = 0; s01 < 2; ++s01)
        for (int s23 = 0; s23 < 2; ++s23) {
          std::array<int, 4> a{s01 ? 1 : 0, s01 ? 0 : 1, s23 ? 3 : 2, s23 ? 2 : 3};
          if (swapPairs) a = {a[2], a[3], a[0], a[1]};
          out.push_back(a);
        }
  }
  return out;
}

char symmetry_option(const PhaseDef& ph) {
  if (ph.disordered_part.empty()) return 0;  // only the ordered phase of a DIS_PART pair (§5.5)
  if (ph.site_ratios.size() < 4) return 0;
  for (char c : ph.options) {
    char u = char(std::toupper(static_cast<unsigned char>(c)));
    if (u == 'F' || u == 'B') return u;
  }
  return 0;
}

}  // namespace

std::vector<Parameter> expanded_parameters(const Database& db) {
  std::vector<Parameter> out = db.parameters();
  std::set<std::string> present;
  for (const auto& p : out) present.insert(key_of(p));
  const size_t n0 = out.size();
  for (size_t k = 0; k < n0; ++k) {
    if ((k & 255) == 0) throw_if_cancelled();  // a large database has tens of thousands of parameters
    const PhaseDef* ph = db.phase(out[k].phase);
    if (!ph) continue;
    char opt = symmetry_option(*ph);
    if (!opt || out[k].constituents.size() < 4) continue;
    for (const auto& perm : symmetry_perms(opt)) {
      Parameter q = out[k];
      for (int s = 0; s < 4; ++s) q.constituents[s] = out[k].constituents[perm[s]];
      std::string key = key_of(q);
      if (present.insert(key).second) out.push_back(q);
    }
  }
  return out;
}

namespace {

// Maps a (sublattice, species) of some phase's parameter array to an affine form of the variables.
struct View {
  // per sublattice: species -> affine; order of keys is irrelevant
  std::vector<std::map<std::string, Affine>> sub;
};

Affine var_affine(int idx) { Affine a; a.lin.push_back({idx, 1.0}); return a; }
Affine sum_affine(const std::map<std::string, Affine>& m) {
  Affine r;
  std::map<int, double> acc;
  for (const auto& [_, a] : m) {
    r.c0 += a.c0;
    for (const auto& [i, c] : a.lin) acc[i] += c;
  }
  for (const auto& [i, c] : acc) r.lin.push_back({i, c});
  return r;
}
Affine lin_comb(const Affine& a, double ca, const Affine& b, double cb) {
  std::map<int, double> acc;
  for (const auto& [i, c] : a.lin) acc[i] += ca * c;
  for (const auto& [i, c] : b.lin) acc[i] += cb * c;
  Affine r; r.c0 = ca * a.c0 + cb * b.c0;
  for (const auto& [i, c] : acc) if (c != 0) r.lin.push_back({i, c});
  return r;
}

class CompiledModel final : public PhaseModel {
 public:
  struct StateImpl : State {
    std::vector<TPJet> c;
  };

  std::string name_, file_;
  std::vector<std::string> elements_;
  std::vector<SiteVariable> vars_;
  std::vector<LinearConstraint> constraints_;
  int nsub_ = 0;
  bool charged_ = false, ionic_ = false, gas_ = false, liquid_ = false;
  std::vector<ExprId> exprs_;  // coef index 2 + k
  const Database* db_ = nullptr;
  std::shared_ptr<const Database> keep_;  // not owned when built from a reference
  Poly G_, ID_, NF_, TC_, BM_, NT_, THETA_, GD_, V0_, VA_, VK_;
  std::vector<Poly> MA_;
  std::optional<MagneticType> mag_;

  const std::string& name() const override { return name_; }
  const std::vector<std::string>& elements() const override { return elements_; }
  const std::vector<SiteVariable>& variables() const override { return vars_; }
  const std::vector<LinearConstraint>& constraints() const override { return constraints_; }
  int num_sublattices() const override { return nsub_; }
  bool is_charged() const override { return charged_; }
  bool is_ionic_liquid() const override { return ionic_; }
  bool is_gas() const override { return gas_; }
  bool is_liquid() const override { return liquid_; }

  std::unique_ptr<State> prepare(double T, double P) const override {
    auto st = std::make_unique<StateImpl>();
    st->T = T; st->P = P;
    st->c.resize(2 + exprs_.size());
    st->c[0] = TPJet{1, 0, 0, 0, 0, 0};
    st->c[1] = TPJet{R * T, R, 0, 0, 0, 0};
    auto ctx = db_->make_context(T, P);
    for (size_t k = 0; k < exprs_.size(); ++k) st->c[2 + k] = db_->evaluate(exprs_[k], *ctx);
    return st;
  }

  struct Parts {
    Jet GM, Sf, ID, Nf, magGM, Vnm, vol;
    bool hasVol = false;
    double Tstar = 0, beta = 0;
  };

  // §3.2 IHJ f(tau) with first and second derivatives. Integer powers by multiplication (std::pow was
  // a fifth of a scan's time on magnetic phases with large sampled grids); the same polynomials.
  static void ihj(double tau, double p, double& f, double& f1, double& f2) {
    const double A = 518.0 / 1125.0 + (11692.0 / 15975.0) * (1.0 / p - 1.0);
    if (tau <= 1) {
      const double a = 79.0 / (140.0 * p), K = (474.0 / 497.0) * (1.0 / p - 1.0);
      const double t2 = tau * tau, t3 = t2 * tau, t6 = t3 * t3, t7 = t6 * tau, t8 = t7 * tau, t9 = t8 * tau;
      const double t13 = t6 * t7, t14 = t13 * tau, t15 = t14 * tau;
      f = 1 - (a / tau + K * (t3 / 6 + t9 / 135 + t15 / 600)) / A;
      f1 = -(-a / t2 + K * (t2 / 2 + t8 / 15 + t14 / 40)) / A;
      f2 = -(2 * a / t3 + K * (tau + 8 * t7 / 15 + 14 * t13 / 40)) / A;
    } else {
      const double u = 1 / tau, u2 = u * u, u5 = u2 * u2 * u, u6 = u5 * u, u7 = u6 * u;
      const double u15 = u5 * u5 * u5, u16 = u15 * u, u17 = u16 * u, u25 = u15 * u5 * u5, u26 = u25 * u, u27 = u26 * u;
      f = -(u5 / 10 + u15 / 315 + u25 / 1500) / A;
      f1 = -(-u6 / 2 - u16 * 15 / 315 - u26 * 25 / 1500) / A;
      f2 = -(3 * u7 + u17 * 240 / 315 + u27 * 650 / 1500) / A;
    }
  }
  // §3.3 Xiong et al. f(tau), the paper's parenthesisation (tau^21/1617 inside the (1/p-1) factor).
  static void xiong(double tau, double p, double& f, double& f1, double& f2) {
    const double D = 0.33471979 + 0.49649686 * (1.0 / p - 1.0);
    if (tau <= 0) { f = f1 = f2 = 0; return; }
    if (tau <= 1) {
      const double a = 0.38438376 / p, K = 0.63570895 * (1.0 / p - 1.0);
      const double t2 = tau * tau, t3 = t2 * tau, t6 = t3 * t3, t7 = t6 * tau, t8 = t7 * tau, t9 = t8 * tau;
      const double t13 = t6 * t7, t14 = t13 * tau, t15 = t14 * tau, t19 = t13 * t6, t20 = t19 * tau, t21 = t20 * tau;
      f = 1 - (a / tau + K * (t3 / 6 + t9 / 135 + t15 / 600 + t21 / 1617)) / D;
      f1 = -(-a / t2 + K * (t2 / 2 + t8 / 15 + t14 / 40 + t20 * 21 / 1617)) / D;
      f2 = -(2 * a / t3 + K * (tau + 8 * t7 / 15 + 14 * t13 / 40 + t19 * 420 / 1617)) / D;
    } else {
      const double u = 1 / tau, u2 = u * u, u7 = u2 * u2 * u2 * u, u8 = u7 * u, u9 = u8 * u;
      const double u14 = u7 * u7, u21 = u14 * u7, u22 = u21 * u, u23 = u22 * u, u35 = u21 * u14, u36 = u35 * u, u37 = u36 * u;
      const double u49 = u35 * u14, u50 = u49 * u, u51 = u50 * u;
      f = -(u7 / 21 + u21 / 630 + u35 / 2975 + u49 / 8232) / D;
      f1 = -(-u8 / 3 - u22 / 30 - u36 / 85 - u50 * 49 / 8232) / D;
      f2 = -(u9 * 8 / 3 + u23 * 22 / 30 + u37 * 36 / 85 + u51 * 2450 / 8232) / D;
    }
  }

  void compute(const State& state, const double* y, int ord, Parts& o, bool want_parts) const {
    const auto& st = static_cast<const StateImpl&>(state);
    const int n = int(vars_.size()) + 2;
    const double T = st.T, P = st.P;
    Jet G(n, ord), I(n, ord), Nf(n, ord);
    G_.eval(st.c, y, G);
    ID_.eval(st.c, y, I);
    NF_.eval(st.c, y, Nf);
    const bool needT = (mag_ && !TC_.empty()) || !THETA_.empty() || !GD_.empty();
    Jet Tj = needT ? Jet::variable(n, ord, 0, T) : Jet();
    Jet mag;  // empty unless the phase is magnetic
    bool hasMag = false, hasExtra = false;
    o.Tstar = 0; o.beta = 0;
    if (mag_ && !TC_.empty()) {
      Jet tc(n, ord), bm(n, ord);
      TC_.eval(st.c, y, tc);
      BM_.eval(st.c, y, bm);
      const double afm = mag_->afm, p = mag_->p;
      if (afm != 0) {
        // IHJ (3.2)-(3.6): afm rule on the (partitioned) sums
        Jet ts = tc.v > 0 ? tc : tc * (1.0 / afm);
        Jet be = bm.v > 0 ? bm : bm * (1.0 / afm);
        o.Tstar = ts.v; o.beta = be.v;
        if (ts.v != 0 && be.v > -1) {
          Jet tau = Tj / ts;
          double f, f1, f2;
          ihj(tau.v, p, f, f1, f2);
          Jet fj = models::apply(tau, f, f1, f2);
          Jet lb = models::apply(be, std::log1p(be.v), 1 / (1 + be.v), -1 / ((1 + be.v) * (1 + be.v)));
          mag = Tj * lb * fj * R;
          hasMag = true;
        }
      } else {
        // Xiong (3.7)-(3.9): f(tau_C) + f(tau_N), beta used directly
        Jet nt(n, ord);
        NT_.eval(st.c, y, nt);
        o.Tstar = tc.v; o.beta = bm.v;
        if (bm.v > -1) {
          Jet fsum(n, ord);
          for (const Jet* crit : {&tc, &nt}) {
            if (crit->v == 0) continue;  // tau = 1e10 -> f ~ 0
            Jet tau = Tj / *crit;
            double f, f1, f2;
            xiong(tau.v, p, f, f1, f2);
            fsum = fsum + models::apply(tau, f, f1, f2);
          }
          Jet lb = models::apply(bm, std::log1p(bm.v), 1 / (1 + bm.v), -1 / ((1 + bm.v) * (1 + bm.v)));
          mag = Tj * lb * fsum * R;
          hasMag = true;
        }
      }
    }
    Jet extra;
    if (!THETA_.empty()) {
      // §4.1 Einstein: theta = exp(sum of THETA (ln theta)); 1.5 R theta + 3 R T ln(1 - exp(-theta/T))
      Jet lt(n, ord);
      THETA_.eval(st.c, y, lt);
      double th = std::exp(lt.v);
      Jet theta = models::apply(lt, th, th, th);
      Jet u = theta / Tj;
      double em = std::expm1(u.v);  // e^u - 1
      Jet g = models::apply(u, std::log(-std::expm1(-u.v)), 1 / em, -(em + 1) / (em * em));
      extra = theta * (1.5 * R) + Tj * g * (3 * R);
      hasExtra = true;
    }
    if (!GD_.empty()) {
      // §4.2 two-state: -R T ln(1 + exp(-GD/(R T))), softplus evaluated stably
      Jet gd(n, ord);
      GD_.eval(st.c, y, gd);
      Jet x = (gd / Tj) * (-1.0 / R);
      double sp = std::max(x.v, 0.0) + std::log1p(std::exp(-std::fabs(x.v)));
      double sg = 1 / (1 + std::exp(-x.v));
      Jet s = models::apply(x, sp, sg, sg * (1 - sg));
      Jet two = Tj * s * (-R);
      if (hasExtra) extra += two; else extra = std::move(two);
      hasExtra = true;
    }
    // Sum per formula unit (0.1), then G_M = S / N_f with the quotient rule done in place.
    Jet& S = G;
    S += I;
    if (hasMag) S += mag;
    if (hasExtra) S += extra;
    o.Sf = S;  // G_f without the volume term
    Jet GM = std::move(S);
    models::divide_in_place(GM, Nf);
    // §6.2 volume: V0/N_f * exp(VA) * (P - 101325), nothing if VK != 0 (pycalphad)
    o.hasVol = false;
    if (!V0_.empty()) {
      Jet inv = models::reciprocal(Nf);
      Jet v0(n, ord), va(n, ord), vk(n, ord);
      V0_.eval(st.c, y, v0);
      VA_.eval(st.c, y, va);
      VK_.eval(st.c, y, vk);
      double e = std::exp(va.v);
      o.Vnm = v0 * inv * models::apply(va, e, e, e);
      if (vk.v == 0) {
        Jet dp = Jet::variable(n, ord, 1, P - kP0);
        o.vol = o.Vnm * dp;
        GM += o.vol;
        o.hasVol = true;
      }
    } else {
      o.Vnm = Jet(n, 0);
    }
    o.GM = std::move(GM);
    o.Nf = std::move(Nf);
    if (want_parts) {
      o.ID = I;
      models::divide_in_place(o.ID, o.Nf);
      o.magGM = hasMag ? mag : Jet(n, ord);
      models::divide_in_place(o.magGM, o.Nf);
    }
  }

  void energy(const State& state, const double* y, int derivative_order, EnergyResult& out) const override {
    Parts p;
    compute(state, y, derivative_order, p, false);
    // G_f = N_f G_M = S_f + N_f G_vol
    if (p.hasVol) p.Sf += p.vol * p.Nf;
    out.GM = p.GM.v; out.Gf = p.Sf.v;
    out.dGM = std::move(p.GM.g); out.d2GM = std::move(p.GM.h);
    out.dGf = std::move(p.Sf.g); out.d2Gf = std::move(p.Sf.h);
  }

  using PhaseModel::energies;
  void energies(const State& state, const double* Y, size_t npoints, double* GM) const override {
    const size_t m = vars_.size();
    Parts p;
    for (size_t k = 0; k < npoints; ++k) {
      compute(state, Y + k * m, 0, p, false);
      GM[k] = p.GM.v;
    }
  }

  // One Poly (or a sum of Polys) tabulated over a PointSet: at point k the value is
  // sum_j B[k * cols.size() + j] * c[cols[j]].v (the parameter columns the terms use).
  struct LinearTable {
    std::vector<int> cols;
    std::vector<double> B;
    bool empty() const { return cols.empty(); }
    double at(size_t k, const double* cv) const {
      const size_t nc = cols.size();
      const double* row = B.data() + k * nc;
      double s = 0;
      for (size_t j = 0; j < nc; ++j) s += row[j] * cv[j];
      return s;
    }
    void gather(const std::vector<TPJet>& c, std::vector<double>& cv) const {
      cv.resize(cols.size());
      for (size_t j = 0; j < cols.size(); ++j) cv[j] = c[cols[j]].v;
    }
  };
  struct PointSetImpl final : PointSet {
    size_t np = 0;
    LinearTable S, NF, TC, BM, NT;  // S = reference + excess + ideal mixing, per formula unit
  };

  static void tabulate(std::initializer_list<const Poly*> polys, const double* Y, size_t np, size_t m,
                       size_t ncoef, LinearTable& out) {
    std::vector<char> used(ncoef, 0);
    for (const Poly* poly : polys)
      for (const Term& t : poly->terms) used[t.coef] = 1;
    std::vector<int> col_of(ncoef, -1);
    for (size_t k = 0; k < ncoef; ++k)
      if (used[k]) { col_of[k] = int(out.cols.size()); out.cols.push_back(int(k)); }
    const size_t nc = out.cols.size();
    out.B.assign(np * nc, 0.0);
    std::vector<double> dense(ncoef);
    for (size_t p = 0; p < np; ++p) {
      std::fill(dense.begin(), dense.end(), 0.0);
      for (const Poly* poly : polys) poly->accumulate_basis(Y + p * m, dense.data());
      for (size_t j = 0; j < nc; ++j) out.B[p * nc + j] = dense[out.cols[j]];
    }
  }

  std::unique_ptr<const PointSet> compile_points(const double* Y, size_t npoints) const override {
    // Einstein, two-state and volume terms are nonlinear in their parameters: no table for them.
    if (!THETA_.empty() || !GD_.empty() || !V0_.empty()) return nullptr;
    const size_t m = vars_.size(), ncoef = 2 + exprs_.size();
    auto cols = [&](std::initializer_list<const Poly*> polys) {
      std::vector<char> used(ncoef, 0);
      for (const Poly* poly : polys)
        for (const Term& t : poly->terms) used[t.coef] = 1;
      return size_t(std::count(used.begin(), used.end(), 1));
    };
    const bool magnetic = mag_ && !TC_.empty();
    size_t width = cols({&G_, &ID_}) + cols({&NF_});
    if (magnetic) width += cols({&TC_}) + cols({&BM_}) + cols({&NT_});
    if (double(width) * double(npoints) > 1.6e7) return nullptr;  // keep each table under ~128 MB
    auto ps = std::make_unique<PointSetImpl>();
    ps->np = npoints;
    tabulate({&G_, &ID_}, Y, npoints, m, ncoef, ps->S);
    throw_if_cancelled();
    tabulate({&NF_}, Y, npoints, m, ncoef, ps->NF);
    if (magnetic) {
      throw_if_cancelled();
      tabulate({&TC_}, Y, npoints, m, ncoef, ps->TC);
      tabulate({&BM_}, Y, npoints, m, ncoef, ps->BM);
      if (mag_->afm == 0) tabulate({&NT_}, Y, npoints, m, ncoef, ps->NT);
    }
    return ps;
  }

  // Same value as compute(..., ord 0) at each point of the set (magnetic term of §3.2-§3.9 as scalars).
  void energies(const State& state, const PointSet& points, double* GM) const override {
    const auto& st = static_cast<const StateImpl&>(state);
    const auto& q = static_cast<const PointSetImpl&>(points);
    const double T = st.T;
    std::vector<double> cS, cN, cTC, cBM, cNT;
    q.S.gather(st.c, cS);
    q.NF.gather(st.c, cN);
    const bool magnetic = mag_ && !TC_.empty();
    if (magnetic) { q.TC.gather(st.c, cTC); q.BM.gather(st.c, cBM); q.NT.gather(st.c, cNT); }
    for (size_t k = 0; k < q.np; ++k) {
      double S = q.S.at(k, cS.data());
      if (magnetic) {
        const double tc = q.TC.at(k, cTC.data()), bm = q.BM.at(k, cBM.data());
        const double afm = mag_->afm, p = mag_->p;
        double f, f1, f2;
        if (afm != 0) {
          const double ts = tc > 0 ? tc : tc * (1.0 / afm), be = bm > 0 ? bm : bm * (1.0 / afm);
          if (ts != 0 && be > -1) {
            ihj(T / ts, p, f, f1, f2);
            S += T * std::log1p(be) * f * R;
          }
        } else if (bm > -1) {
          const double nt = q.NT.empty() ? 0.0 : q.NT.at(k, cNT.data());
          double fsum = 0;
          for (double crit : {tc, nt}) {
            if (crit == 0) continue;
            xiong(T / crit, p, f, f1, f2);
            fsum += f;
          }
          S += T * std::log1p(bm) * fsum * R;
        }
      }
      GM[k] = S / q.NF.at(k, cN.data());
    }
  }

  void moles(const double* y, int derivative_order, MolesResult& out) const override {
    const int m = int(vars_.size()), n = m + 2;
    std::vector<TPJet> c(1, TPJet{1, 0, 0, 0, 0, 0});
    const size_t C = elements_.size();
    out.M.assign(C, 0);
    out.dM.assign(derivative_order >= 1 ? C * m : 0, 0);
    out.d2M.assign(derivative_order >= 2 ? C * m * m : 0, 0);
    out.Nf = 0;
    for (size_t a = 0; a < C; ++a) {
      Jet j(n, derivative_order);
      MA_[a].eval(c, y, j);
      out.M[a] = j.v;
      out.Nf += j.v;
      if (derivative_order >= 1)
        for (int k = 0; k < m; ++k) out.dM[a * m + k] = j.g[2 + k];
      if (derivative_order >= 2)
        for (int k = 0; k < m; ++k)
          for (int l = 0; l < m; ++l) out.d2M[(a * m + k) * m + l] = j.h[size_t(2 + k) * n + 2 + l];
    }
  }

  PhaseProperties properties(const State& state, const double* y) const override {
    Parts p;
    compute(state, y, 1, p, true);
    PhaseProperties r;
    r.TC = p.Tstar;
    r.BMAGN = p.beta;
    r.Nf = p.Nf.v;
    r.BMAGN_per_atom = p.Nf.v != 0 ? p.beta / p.Nf.v : 0;
    r.VM = p.Vnm.v + p.magGM.g[1];  // (6.3)
    r.GM_NO_IDMIX = p.GM.v - p.ID.v;
    return r;
  }
};

// ---------------------------------------------------------------------------------------------
// Compiler

struct Builder {
  const Database& db;
  const PhaseDef& ph;
  CompiledModel& M;
  std::map<std::string, std::vector<const Parameter*>> groups;  // (type, array) -> orders present

  std::string where(const Parameter* p = nullptr) const {
    std::string s = "phase " + ph.name + " of " + db.file_name();
    if (p) s += " (line " + std::to_string(p->line) + ")";
    return s;
  }
  [[noreturn]] void fail(const std::string& what, const Parameter* p = nullptr) const {
    throw CoreError(ErrorCode::Model, what + " in " + where(p));
  }

  static std::string group_key(const Parameter& p) {
    std::string k = p.type + "|";
    for (const auto& s : p.constituents) {
      for (const auto& c : s) k += c + ",";
      k += ":";
    }
    return k;
  }

  // One coefficient per distinct expression: the B/F symmetry copies of a parameter (§5.5) share their
  // expression, so they share the prepared value (fewer evaluations per (T,P), narrower PointSet tables).
  std::map<ExprId, int> coef_of_expr;
  int coef_index(const Parameter& p) {
    auto it = coef_of_expr.find(p.expr);
    if (it != coef_of_expr.end()) return it->second;
    M.exprs_.push_back(p.expr);
    const int k = int(M.exprs_.size()) + 1;
    coef_of_expr.emplace(p.expr, k);
    return k;
  }

  double charge(const std::string& sp) const {
    auto it = db.species().find(sp);
    return it == db.species().end() ? 0 : it->second.charge;
  }

  // Builds the term of a CEF parameter (§1.2, §2) under the given view. Returns false when the
  // parameter does not apply (inactive constituent, L end member).
  bool cef_term(const Parameter& p, const View& v, int coef, double scale, Term& t) {
    if (p.constituents.size() != v.sub.size()) return false;
    std::vector<int> mixing;
    for (size_t s = 0; s < p.constituents.size(); ++s) {
      const auto& arr = p.constituents[s];
      if (arr.empty()) return false;
      for (const auto& c : arr)
        if (c != "*" && !v.sub[s].count(c)) return false;
      if (arr.size() > 1) mixing.push_back(int(s));
    }
    if (mixing.empty() && p.type == "G" && (p.written_as_l || p.order != 0)) return false;
    t = Term{};
    t.coef = coef; t.scale = scale;
    for (size_t s = 0; s < p.constituents.size(); ++s)
      for (const auto& c : p.constituents[s])
        t.f.push_back(Factor{c == "*" ? sum_affine(v.sub[s]) : v.sub[s].at(c), false});
    auto aff = [&](int s, const std::string& c) { return c == "*" ? sum_affine(v.sub[s]) : v.sub[s].at(c); };
    const int nu = p.order;
    if (mixing.size() == 1) {
      const int s = mixing[0];
      const auto& arr = p.constituents[s];
      if (arr.size() == 2) {  // (2.2)
        Affine d = lin_comb(aff(s, arr[0]), 1, aff(s, arr[1]), -1);
        for (int k = 0; k < nu; ++k) t.f.push_back(Factor{d, false});
      } else if (arr.size() == 3) {  // (2.3)/(2.4) Muggianu
        if (nu > 2) fail("ternary interaction of order > 2", &p);
        bool lone = true;
        for (const Parameter* q : groups[group_key(p)]) if (q->order != 0) lone = false;
        if (!lone) {
          Affine sum3 = lin_comb(lin_comb(aff(s, arr[0]), 1, aff(s, arr[1]), 1), 1, aff(s, arr[2]), 1);
          Affine vk = lin_comb(aff(s, arr[nu]), 1, sum3, -1.0 / 3);
          vk.c0 += 1.0 / 3;
          t.f.push_back(Factor{vk, false});
        }
      } else if (nu > 0) {
        fail("interaction of order > 0 with four or more constituents on one sublattice", &p);
      }
    } else if (mixing.size() == 2) {  // (2.5) reciprocal: 1 -> later, 2 -> earlier sublattice
      // Order 0 is a plain product for any number of constituents (a lone order-0 ternary collapses
      // to the product, (2.4)); only order > 0 needs exactly two constituents per mixing sublattice.
      if (nu > 0)
        for (int s : mixing)
          if (p.constituents[s].size() != 2) fail("cross interaction of order > 0 with three or more constituents", &p);
      if (nu > 2) fail("reciprocal interaction of order > 2", &p);
      if (nu > 0) {
        int s = nu == 1 ? mixing[1] : mixing[0];
        const auto& arr = p.constituents[s];
        t.f.push_back(Factor{lin_comb(aff(s, arr[0]), 1, aff(s, arr[1]), -1), false});
      }
    } else if (mixing.size() > 2) {
      if (nu > 0) fail("interaction on three or more sublattices of order > 0", &p);
    }
    if (t.f.size() > 60) fail("parameter with too many factors", &p);
    return true;
  }

  Poly* target(const std::string& type) {
    if (type == "G") return &M.G_;
    if (type == "TC") return &M.TC_;
    if (type == "BMAGN" || type == "BM") return &M.BM_;
    if (type == "NT") return &M.NT_;
    if (type == "THETA") return &M.THETA_;
    if (type == "GD") return &M.GD_;
    if (type == "V0") return &M.V0_;
    if (type == "VA") return &M.VA_;
    if (type == "VK") return &M.VK_;
    return nullptr;  // mobility and other non-Gibbs parameter kinds (MQ, MF, DQ, ...): not energy
  }

  void add_params(const std::vector<const Parameter*>& ps, const View& v, double scale) {
    for (const Parameter* p : ps) {
      throw_if_cancelled();  // a phase of thousands of parameters takes long to compile
      Poly* tp = target(p->type);
      if (!tp) continue;
      Term t;
      if (!cef_term(*p, v, -1, scale, t)) continue;
      t.coef = coef_index(*p);
      tp->add(std::move(t));
    }
  }
};

std::vector<const Parameter*> phase_params(const std::vector<Parameter>& all, const std::string& phase) {
  std::vector<const Parameter*> out;
  for (const auto& p : all)
    if (p.phase == phase) out.push_back(&p);
  return out;
}

}  // namespace

std::shared_ptr<const PhaseModel> PhaseModel::build(const Database& db, const std::string& phase_in,
                                                    const std::vector<std::string>& components) {
  std::string phase = phase_in;
  for (auto& ch : phase) ch = char(std::toupper(static_cast<unsigned char>(ch)));
  const PhaseDef* ph = db.phase(phase);
  if (!ph) throw CoreError(ErrorCode::Model, "unknown phase " + phase + " in " + db.file_name());
  if (!ph->refusal.empty()) throw CoreError(ErrorCode::Model, ph->refusal);
  std::set<std::string> comps;
  for (auto c : components) {
    for (auto& ch : c) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    comps.insert(c);
  }
  auto M = std::make_shared<CompiledModel>();
  M->name_ = phase;
  M->file_ = db.file_name();
  M->db_ = &db;
  for (const auto& c : comps) if (c != "VA") M->elements_.push_back(c);
  std::string opts;
  for (char c : ph->options) opts += char(std::toupper(static_cast<unsigned char>(c)));
  M->gas_ = opts.find('G') != std::string::npos;
  M->liquid_ = opts.find('L') != std::string::npos || opts.find('Y') != std::string::npos ||
               phase.find("LIQ") != std::string::npos;
  M->ionic_ = opts.find('Y') != std::string::npos;
  if (opts.find('A') != std::string::npos)
    throw CoreError(ErrorCode::Model, "aqueous model (phase option A) is not supported: phase " + phase + " of " + db.file_name());

  auto active = [&](const std::string& sp) {
    if (sp == "VA") return comps.count("VA") > 0;
    auto it = db.species().find(sp);
    if (it == db.species().end()) return false;
    if (it->second.composition.empty()) return false;
    for (const auto& [el, n] : it->second.composition)
      if (!comps.count(el)) return false;
    return true;
  };
  auto atoms = [&](const std::string& sp) {
    auto it = db.species().find(sp);
    double n = 0;
    if (it != db.species().end())
      for (const auto& [el, k] : it->second.composition) n += k;
    return n;
  };
  auto charge = [&](const std::string& sp) {
    auto it = db.species().find(sp);
    return it == db.species().end() ? 0.0 : it->second.charge;
  };

  const size_t nsub = ph->constituents.size();
  if (nsub != ph->site_ratios.size())
    throw CoreError(ErrorCode::Model, "phase " + phase + " of " + db.file_name() + ": CONSTITUENT and PHASE sublattice counts differ");
  M->nsub_ = int(nsub);
  // active constituents per sublattice, sorted (§2.1); ionic-liquid anion order: charged, VA, neutral
  std::vector<std::vector<std::string>> act(nsub);
  for (size_t s = 0; s < nsub; ++s) {
    for (const auto& c : ph->constituents[s])
      if (active(c)) act[s].push_back(c);
    std::sort(act[s].begin(), act[s].end());
    act[s].erase(std::unique(act[s].begin(), act[s].end()), act[s].end());
    if (act[s].empty()) return nullptr;
  }
  {
    bool allva = true;
    for (const auto& s : act)
      for (const auto& c : s) if (c != "VA") allva = false;
    if (allva) return nullptr;
  }
  std::vector<std::map<std::string, int>> vidx(nsub);
  for (size_t s = 0; s < nsub; ++s)
    for (const auto& c : act[s]) {
      vidx[s][c] = int(M->vars_.size());
      M->vars_.push_back(SiteVariable{int(s), c});
    }
  const int m = int(M->vars_.size());
  for (size_t s = 0; s < nsub; ++s) {
    LinearConstraint lc;
    lc.coeff.assign(m, 0);
    for (const auto& [c, k] : vidx[s]) lc.coeff[k] = 1;
    lc.rhs = 1; lc.kind = "site_sum";
    M->constraints_.push_back(lc);
  }

  const std::vector<Parameter> allp = expanded_parameters(db);
  Builder B{db, *ph, *M, {}};
  for (const auto& p : allp)
    if (p.phase == phase || p.phase == ph->disordered_part) B.groups[Builder::group_key(p) + p.phase].push_back(&p);
  // group lookup uses the key without the phase suffix; rebuild per phase below
  auto regroup = [&](const std::string& ph_name) {
    B.groups.clear();
    for (const auto& p : allp)
      if (p.phase == ph_name) B.groups[Builder::group_key(p)].push_back(&p);
  };

  auto unit = [](double s) { Term t; t.coef = 0; t.scale = s; return t; };
  const size_t C = M->elements_.size();
  M->MA_.assign(C, Poly{});

  if (M->ionic_) {
    // §7 two-sublattice ionic liquid (C+)_P (A-, Va, B0)_Q
    if (nsub != 2) throw CoreError(ErrorCode::Model, "ionic liquid " + phase + " of " + db.file_name() + " needs two sublattices");
    auto anion_rank = [&](const std::string& c) { return c == "VA" ? 1 : (charge(c) != 0 ? 0 : 2); };
    Affine Q;
    for (const auto& c : act[0]) Q.lin.push_back({vidx[0][c], charge(c)});
    Affine yVa;
    bool hasVa = vidx[1].count("VA") > 0;
    if (hasVa) yVa = var_affine(vidx[1]["VA"]);
    // P = sum_j |q_j| y_j + Q y_Va, expanded into terms (7.1); used in the ideal term, N_f and M_A
    auto add_P_times = [&](Poly& poly, int coef, double scale, const Factor& f) {
      for (const auto& c : act[1]) {
        double q = charge(c);
        if (q < 0) { Term t; t.coef = coef; t.scale = scale * -q; t.f = {Factor{var_affine(vidx[1][c]), false}, f}; poly.add(t); }
      }
      if (hasVa) { Term t; t.coef = coef; t.scale = scale; t.f = {Factor{Q, false}, Factor{yVa, false}, f}; poly.add(t); }
    };
    auto add_Q_times = [&](Poly& poly, int coef, double scale, const Factor& f) {
      Term t; t.coef = coef; t.scale = scale; t.f = {Factor{Q, false}, f}; poly.add(t);
    };
    for (const auto& c : act[0]) {
      add_P_times(M->ID_, 1, 1, Factor{var_affine(vidx[0][c]), true});
      add_P_times(M->NF_, 0, atoms(c), Factor{var_affine(vidx[0][c]), false});
      auto it = db.species().find(c);
      for (size_t a = 0; a < C; ++a) {
        auto e = it->second.composition.find(M->elements_[a]);
        if (e != it->second.composition.end()) add_P_times(M->MA_[a], 0, e->second, Factor{var_affine(vidx[0][c]), false});
      }
    }
    for (const auto& c : act[1]) {
      add_Q_times(M->ID_, 1, 1, Factor{var_affine(vidx[1][c]), true});
      if (c == "VA") continue;
      add_Q_times(M->NF_, 0, atoms(c), Factor{var_affine(vidx[1][c]), false});
      auto it = db.species().find(c);
      for (size_t a = 0; a < C; ++a) {
        auto e = it->second.composition.find(M->elements_[a]);
        if (e != it->second.composition.end()) add_Q_times(M->MA_[a], 0, e->second, Factor{var_affine(vidx[1][c]), false});
      }
    }
    // parameters (7.2)/(7.4)
    regroup(phase);
    for (const Parameter* pp : phase_params(allp, phase)) {
      Poly* tp = B.target(pp->type);
      if (!tp) continue;
      Parameter p = *pp;
      if (p.constituents.size() == 1) p.constituents = {{"*"}, p.constituents[0]};  // neutral-only: anion sublattice
      if (p.constituents.size() != 2) continue;
      bool ok = true;
      for (size_t s = 0; s < 2; ++s)
        for (const auto& c : p.constituents[s]) if (c != "*" && !vidx[s].count(c)) ok = false;
      if (!ok) continue;
      std::stable_sort(p.constituents[1].begin(), p.constituents[1].end(), [&](const std::string& a, const std::string& b) {
        int ra = anion_rank(a), rb = anion_rank(b);
        return ra != rb ? ra < rb : a < b;
      });
      bool anion = false, va = false;
      for (const auto& c : p.constituents[1]) {
        if (c != "*" && charge(c) < 0) anion = true;
        if (c == "VA") va = true;
      }
      View v;
      v.sub.resize(2);
      for (size_t s = 0; s < 2; ++s)
        for (const auto& [c, k] : vidx[s]) v.sub[s][c] = var_affine(k);
      Term t;
      Parameter q = p;
      if (!anion && !va) q.constituents[0] = {"*"};  // neutral terms: cation irrelevant (7.2, 7.4)
      if (!B.cef_term(q, v, -1, 1.0, t)) continue;
      if (!anion && !va) {
        // drop the cation '*' factor (it is the first factor), multiply by Q
        t.f.erase(t.f.begin());
        t.f.push_back(Factor{Q, false});
      } else if (!anion && va) {
        t.f.push_back(Factor{Q, false});
        if (q.constituents[0].size() >= 2) t.f.push_back(Factor{yVa, false});  // L_{i1,i2:Va}: y_Va^2
      }
      t.coef = B.coef_index(*pp);
      tp->add(std::move(t));
    }
  } else {
    // fixed site ratios: N_f and M_A (1.3)/(1.4); electroneutrality (7.5) for charged species
    LinearConstraint ch;
    ch.coeff.assign(m, 0); ch.rhs = 0; ch.kind = "charge";
    for (size_t s = 0; s < nsub; ++s)
      for (const auto& [c, k] : vidx[s]) {
        const double a = ph->site_ratios[s];
        double q = charge(c);
        if (q != 0) { ch.coeff[k] = a * q; M->charged_ = true; }
        Term t = unit(a * atoms(c));
        t.f = {Factor{var_affine(k), false}};
        if (t.scale != 0) M->NF_.add(t);
        auto it = db.species().find(c);
        if (it != db.species().end())
          for (size_t e = 0; e < C; ++e) {
            auto f = it->second.composition.find(M->elements_[e]);
            if (f == it->second.composition.end()) continue;
            Term te = unit(a * f->second);
            te.f = {Factor{var_affine(k), false}};
            M->MA_[e].add(te);
          }
      }
    if (M->charged_) M->constraints_.push_back(ch);

    auto ideal_of = [&](const std::vector<double>& ratios, const View& v, double scale) {
      for (size_t s = 0; s < v.sub.size(); ++s)
        for (const auto& [c, a] : v.sub[s]) {
          Term t; t.coef = 1; t.scale = scale * ratios[s];
          t.f = {Factor{a, true}};
          M->ID_.add(t);
        }
    };
    View vy;
    vy.sub.resize(nsub);
    for (size_t s = 0; s < nsub; ++s)
      for (const auto& [c, k] : vidx[s]) vy.sub[s][c] = var_affine(k);

    const PhaseDef* dis = ph->disordered_part.empty() ? nullptr : db.phase(ph->disordered_part);
    M->mag_ = ph->magnetic;
    if (!dis) {
      regroup(phase);
      B.add_params(phase_params(allp, phase), vy, 1.0);
      ideal_of(ph->site_ratios, vy, 1.0);
    } else {
      // §5.2 order-disorder: identify substitutional sublattices by the declared constituent set
      std::set<std::string> D0(dis->constituents.at(0).begin(), dis->constituents.at(0).end());
      std::vector<size_t> S;
      for (size_t s = 0; s < nsub; ++s) {
        std::set<std::string> cs(ph->constituents[s].begin(), ph->constituents[s].end());
        if (cs == D0) S.push_back(s);
      }
      const size_t nS = S.size(), ndis = dis->constituents.size();
      bool okS = nS >= 1 && nsub - nS == ndis - 1;
      for (size_t k = 0; okS && k < nS; ++k) okS = S[k] == k;
      double sumA = 0;
      for (size_t s : S) sumA += ph->site_ratios[s];
      if (okS && std::fabs(sumA - dis->site_ratios[0]) > 1e-9) okS = false;
      for (size_t k = 1; okS && k < ndis; ++k)
        if (std::fabs(dis->site_ratios[k] - ph->site_ratios[k + nS - 1]) > 1e-9) okS = false;
      if (!okS)
        throw CoreError(ErrorCode::Model, "order-disorder model (DIS_PART " + dis->name + "): sublattices or site ratios of phase " +
                                 phase + " do not match its disordered part in " + db.file_name());
      // x_i (5.1), VA included
      std::map<std::string, Affine> x;
      for (size_t s : S)
        for (const auto& [c, k] : vidx[s]) {
          Affine& a = x[c];
          a.lin.push_back({k, ph->site_ratios[s] / sumA});
        }
      View vyp = vy, vdis;
      for (size_t s : S) vyp.sub[s] = x;
      vdis.sub.resize(ndis);
      vdis.sub[0] = x;
      for (size_t k = 1; k < ndis; ++k) vdis.sub[k] = vy.sub[k + nS - 1];
      regroup(phase);
      auto ordp = phase_params(allp, phase);
      B.add_params(ordp, vy, 1.0);
      B.add_params(ordp, vyp, -1.0);
      ideal_of(ph->site_ratios, vy, 1.0);
      ideal_of(ph->site_ratios, vyp, -1.0);
      regroup(dis->name);
      B.add_params(phase_params(allp, dis->name), vdis, 1.0);
      ideal_of(dis->site_ratios, vdis, 1.0);
      if (dis->magnetic) M->mag_ = dis->magnetic;
    }
  }
  for (Poly* p : {&M->G_, &M->ID_, &M->NF_, &M->TC_, &M->BM_, &M->NT_, &M->THETA_, &M->GD_, &M->V0_, &M->VA_, &M->VK_}) {
    throw_if_cancelled();
    p->consolidate();
  }
  for (Poly& p : M->MA_) p.consolidate();
  if (M->mag_ && M->mag_->afm != 0 && M->mag_->p <= 0)
    throw CoreError(ErrorCode::Model, "magnetic model with structure factor p <= 0: phase " + phase + " of " + db.file_name());
  return M;
}

}  // namespace pd
