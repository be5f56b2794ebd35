// Evaluation of a compiled phase model (compiled_model.hpp): G and its exact derivatives over (T, P, y),
// moles and properties (formula sheet ../shared/design/calphad-formulas.md §0-§7; magnetic functions:
// Inden, Hillert and Jarl, Dinsdale 1991, Xiong et al. 2012, see docs/engine.md and magnetic.hpp). The grid
// energies from linear tables are point_tables.cpp.
#include "models/compiled_model.hpp"

#include <algorithm>
#include <cmath>

#include "io/errors.hpp"
#include "models/magnetic.hpp"

namespace pd::models {

namespace {

// A jet over at most four inputs (T and the magnetic sums T*, beta, T_N). The magnetic contribution is a
// function of these few quantities, so its chain rule is carried in this small space and taken to
// z = (T, P, y) once (compose) instead of one dense n x n jet per arithmetic operation.
struct SmallJet {
  double v = 0, g[4] = {}, h[16] = {};
};
SmallJet small_variable(int i, double v, double slope) {
  SmallJet s;
  s.v = v;
  s.g[i] = slope;
  return s;
}
SmallJet operator*(const SmallJet& a, const SmallJet& b) {
  SmallJet r;
  r.v = a.v * b.v;
  for (int i = 0; i < 4; ++i) r.g[i] = a.g[i] * b.v + a.v * b.g[i];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      r.h[i * 4 + j] = a.h[i * 4 + j] * b.v + a.v * b.h[i * 4 + j] + a.g[i] * b.g[j] + a.g[j] * b.g[i];
  return r;
}
SmallJet operator*(const SmallJet& a, double s) {
  SmallJet r = a;
  r.v *= s;
  for (double& x : r.g) x *= s;
  for (double& x : r.h) x *= s;
  return r;
}
SmallJet operator+(const SmallJet& a, const SmallJet& b) {
  SmallJet r = a;
  r.v += b.v;
  for (int i = 0; i < 4; ++i) r.g[i] += b.g[i];
  for (int i = 0; i < 16; ++i) r.h[i] += b.h[i];
  return r;
}
// f(a) given f, f', f'' at a.v
SmallJet apply(const SmallJet& a, double f0, double f1, double f2) {
  SmallJet r;
  r.v = f0;
  for (int i = 0; i < 4; ++i) r.g[i] = f1 * a.g[i];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) r.h[i * 4 + j] = f1 * a.h[i * 4 + j] + f2 * a.g[i] * a.g[j];
  return r;
}
SmallJet reciprocal(const SmallJet& a) { return apply(a, 1 / a.v, -1 / (a.v * a.v), 2 / (a.v * a.v * a.v)); }
// out = F(in[0..3]) over z by the chain rule: dF = sum_i F_i d in_i,
// d2F = sum_i F_i d2 in_i + sum_ij F_ij d in_i d in_j^T (in[i] null: F does not depend on input i).
void compose(const SmallJet& F, const Jet* const in[4], Jet& out) {
  const int n = out.n, ord = out.ord;
  out.v = F.v;
  if (ord < 1) return;
  for (int i = 0; i < 4; ++i)
    if (in[i] && F.g[i] != 0)
      for (int k = 0; k < n; ++k) out.g[k] += F.g[i] * in[i]->g[k];
  if (ord < 2) return;
  thread_local std::vector<double> w;
  w.resize(n);
  for (int i = 0; i < 4; ++i) {
    if (!in[i]) continue;
    if (F.g[i] != 0)
      for (size_t kl = 0; kl < out.h.size(); ++kl) out.h[kl] += F.g[i] * in[i]->h[kl];
    std::fill(w.begin(), w.end(), 0.0);
    bool any = false;
    for (int j = 0; j < 4; ++j) {
      const double fij = F.h[i * 4 + j];
      if (!in[j] || fij == 0) continue;
      any = true;
      for (int l = 0; l < n; ++l) w[l] += fij * in[j]->g[l];
    }
    if (!any) continue;
    const std::vector<double>& gi = in[i]->g;
    for (int k = 0; k < n; ++k) {
      if (gi[k] == 0) continue;
      double* row = &out.h[size_t(k) * n];
      for (int l = 0; l < n; ++l) row[l] += gi[k] * w[l];
    }
  }
}

// the jets of one point in CompiledModel::compute
struct PointJets {
  Jet G, I, Nf, Tj, tc, bm, nt, mag;
  Jet extra, a, b, c, d, e;  // the Einstein and two-state terms and their intermediates
};
PointJets& per_thread_jets() {
  thread_local PointJets jets;
  return jets;
}

// IHJ (3.2)-(3.6): the afm rule on the (partitioned) sums w.tc, w.bm; the term into w.mag, false where the model
// has none (T* = 0 or β <= -1). Inputs of the small jet: 0 = T, 1 = the sum TC, 2 = the sum BMAGN.
bool ihj_jet(PointJets& w, double T, int n, int ord, const MagneticType& type, CompiledModel::Parts& o) {
  const magnetic::IhjOrdering r = magnetic::ihj_ordering(w.tc.v, w.bm.v, type.afm);
  const SmallJet ts = small_variable(1, r.tstar, r.dtstar);
  const SmallJet be = small_variable(2, r.beta, r.dbeta);
  o.Tstar = ts.v;
  o.beta = be.v;
  if (!(ts.v != 0 && be.v > -1)) return false;
  Jet& mag = w.mag;
  if (ord == 0) {
    mag.reset(n, ord);
    mag.v = magnetic::ihj_value(T, ts.v, be.v, type.p);
    return true;
  }
  const SmallJet Ts = small_variable(0, T, 1.0);
  SmallJet tau = Ts * reciprocal(ts);
  double f, f1, f2;
  magnetic::ihj(tau.v, type.p, f, f1, f2);
  SmallJet fj = apply(tau, f, f1, f2);
  SmallJet lb = apply(be, std::log1p(be.v), 1 / (1 + be.v), -1 / ((1 + be.v) * (1 + be.v)));
  const Jet* in[4] = {&w.Tj, &w.tc, &w.bm, nullptr};
  mag.reset(n, ord);
  compose(Ts * lb * fj * R, in, mag);
  return true;
}

// Xiong (3.7)-(3.9): f(tau_C) + f(tau_N), beta used directly (w.tc, w.nt, w.bm); the term into w.mag, false where
// the model has none (β <= -1). Inputs of the small jet: 0 = T, 1 = TC, 2 = NT, 3 = BMAGN.
bool xiong_jet(PointJets& w, double T, int n, int ord, double p, CompiledModel::Parts& o) {
  const Jet &tc = w.tc, &bm = w.bm, &nt = w.nt;
  o.Tstar = tc.v;
  o.beta = bm.v;
  if (!(bm.v > -1)) return false;
  Jet& mag = w.mag;
  if (ord == 0) {
    mag.reset(n, ord);
    mag.v = magnetic::xiong_value(T, tc.v, nt.v, bm.v, p);
    return true;
  }
  const SmallJet Ts = small_variable(0, T, 1.0);
  SmallJet fsum;
  for (int i : {1, 2}) {
    const double crit = i == 1 ? tc.v : nt.v;
    if (crit == 0) continue;  // tau = 1e10 -> f ~ 0
    SmallJet tau = Ts * reciprocal(small_variable(i, crit, 1.0));
    double f, f1, f2;
    magnetic::xiong(tau.v, p, f, f1, f2);
    fsum = fsum + apply(tau, f, f1, f2);
  }
  const SmallJet b = small_variable(3, bm.v, 1.0);
  SmallJet lb = apply(b, std::log1p(bm.v), 1 / (1 + bm.v), -1 / ((1 + bm.v) * (1 + bm.v)));
  const Jet* in[4] = {&w.Tj, &w.tc, &w.nt, &w.bm};
  mag.reset(n, ord);
  compose(Ts * lb * fsum * R, in, mag);
  return true;
}

// The magnetic term of a magnetic model into w.mag (false where it has none), T* and β of the point into o.
bool magnetic_jet(const CompiledModel& model, const CompiledModel::StateImpl& st, const double* y, int n, int ord,
                  PointJets& w, CompiledModel::Parts& o) {
  Jet &tc = w.tc, &bm = w.bm;
  tc.reset(n, ord);
  bm.reset(n, ord);
  model.TC_.eval(st.c, y, tc);
  model.BM_.eval(st.c, y, bm);
  if (model.mag_->afm != 0) return ihj_jet(w, st.T, n, ord, *model.mag_, o);
  Jet& nt = w.nt;
  nt.reset(n, ord);
  model.NT_.eval(st.c, y, nt);
  return xiong_jet(w, st.T, n, ord, model.mag_->p, o);
}

// §4.1 Einstein: theta = exp(sum of THETA (ln theta)); 1.5 R theta + 3 R T ln(1 - exp(-theta/T)), into w.extra
// (in w's jets, by the operations of theta / Tj = theta * (1 / Tj) and theta (1.5 R) + (Tj g) (3 R))
void einstein_jet(const CompiledModel& model, const CompiledModel::StateImpl& st, const double* y, int n, int ord,
                  PointJets& w) {
  const Jet& Tj = w.Tj;
  Jet &lt = w.a, &theta = w.b, &inv_T = w.c, &u = w.d, &g = w.e;
  lt.reset(n, ord);
  model.THETA_.eval(st.c, y, lt);
  double th = std::exp(lt.v);
  models::apply_into(lt, th, th, th, theta);
  models::reciprocal_into(Tj, inv_T);
  models::multiply_into(theta, inv_T, u);
  double em = std::expm1(u.v);  // e^u - 1
  models::apply_into(u, std::log(-std::expm1(-u.v)), 1 / em, -(em + 1) / (em * em), g);
  Jet& Tg = lt;  // lt is no longer needed
  models::multiply_into(Tj, g, Tg);
  Tg *= 3 * R;
  Jet& extra = w.extra;
  extra = theta;
  extra *= 1.5 * R;
  extra += Tg;
}

// §4.2 two-state: -R T ln(1 + exp(-GD/(R T))), softplus evaluated stably, added to w.extra (has_extra: the
// Einstein term is there) or put there
// (x = (GD / Tj) (-1 / R), as GD * (1 / Tj) scaled, and two = (Tj s) (-R))
void two_state_jet(const CompiledModel& model, const CompiledModel::StateImpl& st, const double* y, int n, int ord,
                   bool has_extra, PointJets& w) {
  const Jet& Tj = w.Tj;
  Jet &gd = w.a, &inv_T = w.c, &x = w.d, &s = w.e, &two = w.b;
  gd.reset(n, ord);
  model.GD_.eval(st.c, y, gd);
  models::reciprocal_into(Tj, inv_T);
  models::multiply_into(gd, inv_T, x);
  x *= -1.0 / R;
  double sp = std::max(x.v, 0.0) + std::log1p(std::exp(-std::fabs(x.v)));
  double sg = 1 / (1 + std::exp(-x.v));
  models::apply_into(x, sp, sg, sg * (1 - sg), s);
  models::multiply_into(Tj, s, two);
  two *= -R;
  if (has_extra)
    w.extra += two;
  else
    std::swap(w.extra, two);
}

// §6.2 volume: V0/N_f * exp(VA) * (P - 101325) into o.Vnm and o.vol (added to GM), nothing if VK != 0 (pycalphad)
void volume_term(const CompiledModel& model, const CompiledModel::StateImpl& st, const double* y, int n, int ord,
                 const Jet& Nf, Jet& GM, CompiledModel::Parts& o) {
  Jet inv = models::reciprocal(Nf);
  Jet v0(n, ord), va(n, ord), vk(n, ord);
  model.V0_.eval(st.c, y, v0);
  model.VA_.eval(st.c, y, va);
  model.VK_.eval(st.c, y, vk);
  double e = std::exp(va.v);
  o.Vnm = v0 * inv * models::apply(va, e, e, e);
  if (vk.v == 0) {
    Jet dp = Jet::variable(n, ord, 1, st.P - kP0);
    o.vol = o.Vnm * dp;
    GM += o.vol;
    o.hasVol = true;
  }
}

}  // namespace

std::unique_ptr<PhaseModel::State> CompiledModel::prepare(double T, double P) const {
  auto st = std::make_unique<StateImpl>();
  st->T = T;
  st->P = P;
  st->c.resize(2 + exprs_.size());
  st->c[0] = TPJet{1, 0, 0, 0, 0, 0};
  st->c[1] = TPJet{R * T, R, 0, 0, 0, 0};
  auto ctx = db_->make_context(T, P);
  for (size_t k = 0; k < exprs_.size(); ++k) st->c[2 + k] = db_->evaluate(exprs_[k], *ctx);
  return st;
}

void CompiledModel::compute(const State& state, const double* y, int ord, Parts& o, bool want_parts) const {
  const auto& st = static_cast<const StateImpl&>(state);
  const int n = int(vars_.size()) + 2;
  const double T = st.T;
  // The jets of this point in per-thread scratch that keeps its storage from call to call: at order 2 each
  // holds an n x n Hessian, and allocating them took a tenth of a small system's equilibrium. At order 0 they
  // hold no vectors: a local set, without the lookup of a thread_local.
  PointJets local;
  PointJets& w = ord >= 1 ? per_thread_jets() : local;
  Jet &G = w.G, &I = w.I, &Nf = w.Nf;
  G.reset(n, ord);
  I.reset(n, ord);
  Nf.reset(n, ord);
  G_.eval(st.c, y, G);
  ID_.eval(st.c, y, I);
  NF_.eval(st.c, y, Nf);
  const bool needT = (mag_ && !TC_.empty()) || !THETA_.empty() || !GD_.empty();
  Jet& Tj = w.Tj;
  if (needT) {
    Tj.reset(n, ord);
    Tj.v = T;
    if (ord >= 1) Tj.g[0] = 1.0;
  }
  Jet& mag = w.mag;  // set only if the phase is magnetic
  o.Tstar = 0;
  o.beta = 0;
  const bool hasMag = mag_ && !TC_.empty() && magnetic_jet(*this, st, y, n, ord, w, o);
  bool hasExtra = false;
  Jet& extra = w.extra;  // set only if the phase has Einstein or two-state terms
  if (!THETA_.empty()) {
    einstein_jet(*this, st, y, n, ord, w);
    hasExtra = true;
  }
  if (!GD_.empty()) {
    two_state_jet(*this, st, y, n, ord, hasExtra, w);
    hasExtra = true;
  }
  // Sum per formula unit (0.1), then G_M = S / N_f with the quotient rule done in place.
  Jet& S = G;
  S += I;
  if (hasMag) S += mag;
  if (hasExtra) S += extra;
  o.Sf = S;  // G_f without the volume term
  // swapped rather than moved: both the scratch and o keep storage for the next call
  std::swap(o.GM, S);
  Jet& GM = o.GM;
  models::divide_in_place(GM, Nf);
  o.hasVol = false;
  if (!V0_.empty())
    volume_term(*this, st, y, n, ord, Nf, GM, o);
  else
    o.Vnm.reset(n, 0);
  std::swap(o.Nf, Nf);
  if (want_parts) {
    o.ID = I;
    models::divide_in_place(o.ID, o.Nf);
    o.magGM = hasMag ? mag : Jet(n, ord);
    models::divide_in_place(o.magGM, o.Nf);
  }
}

void CompiledModel::energy(const State& state, const double* y, int derivative_order, EnergyResult& out) const {
  if (derivative_order == 0 && value_only_path()) {
    double Nf;
    out.Gf = gf_value(static_cast<const StateImpl&>(state), y, Nf);
    out.GM = out.Gf / Nf;
    out.dGM.clear();
    out.d2GM.clear();
    out.dGf.clear();
    out.d2Gf.clear();
    return;
  }
  // its jets keep their storage; swapped with out's vectors, which a caller that reuses its result hands back
  thread_local Parts p;
  compute(state, y, derivative_order, p, false);
  // G_f = N_f G_M = S_f + N_f G_vol
  if (p.hasVol) p.Sf += p.vol * p.Nf;
  out.GM = p.GM.v;
  out.Gf = p.Sf.v;
  std::swap(out.dGM, p.GM.g);
  std::swap(out.d2GM, p.GM.h);
  std::swap(out.dGf, p.Sf.g);
  std::swap(out.d2Gf, p.Sf.h);
}

double CompiledModel::gf_value(const StateImpl& st, const double* y, double& Nf) const {
  // the order of compute(): S = G + I (+ the magnetic term)
  double S = G_.eval_value(st.c, y);
  S += ID_.eval_value(st.c, y);
  Nf = NF_.eval_value(st.c, y);
  if (mag_ && !TC_.empty())
    magnetic::add_value<magnetic::Tau::kTimesReciprocal>(*mag_, st.T, TC_.eval_value(st.c, y), BM_.eval_value(st.c, y),
                                                         mag_->afm == 0 ? NT_.eval_value(st.c, y) : 0.0, S);
  return S;
}

void CompiledModel::energies(const State& state, const double* Y, size_t npoints, double* GM) const {
  const size_t m = vars_.size();
  if (value_only_path()) {
    const auto& st = static_cast<const StateImpl&>(state);
    for (size_t k = 0; k < npoints; ++k) {
      double Nf;
      const double Sf = gf_value(st, Y + k * m, Nf);
      GM[k] = Sf / Nf;
    }
    return;
  }
  Parts p;
  for (size_t k = 0; k < npoints; ++k) {
    compute(state, Y + k * m, 0, p, false);
    GM[k] = p.GM.v;
  }
}

void CompiledModel::moles(const double* y, int derivative_order, MolesResult& out) const {
  const int m = int(vars_.size()), n = m + 2;
  static const std::vector<TPJet> unit(1, TPJet{1, 0, 0, 0, 0, 0});  // every term's coefficient is 1
  // per-thread scratch that keeps its storage from call to call (moles runs on OpenMP threads, as often as the
  // energy: a jet allocated per element and call was most of a small phase's allocations)
  thread_local Jet j;
  const size_t C = elements_.size();
  Jet::zero(out.M, C);
  Jet::zero(out.dM, derivative_order >= 1 ? C * m : 0);
  Jet::zero(out.d2M, derivative_order >= 2 ? C * m * m : 0);
  out.Nf = 0;
  for (size_t a = 0; a < C; ++a) {
    j.reset(n, derivative_order);
    MA_[a].eval(unit, y, j);
    out.M[a] = j.v;
    out.Nf += j.v;
    if (derivative_order >= 1)
      for (int k = 0; k < m; ++k) out.dM[a * m + k] = j.g[2 + k];
    if (derivative_order >= 2)
      for (int k = 0; k < m; ++k)
        for (int l = 0; l < m; ++l) out.d2M[(a * m + k) * m + l] = j.h[size_t(2 + k) * n + 2 + l];
  }
}

PhaseProperties CompiledModel::properties(const State& state, const double* y) const {
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

double CompiledModel::ordering_temperature_of(double tc, double bm, double nt) const {
  const double afm = mag_->afm;
  if (afm != 0) {  // IHJ: the afm rule on the sums, as in compute()
    const magnetic::IhjOrdering o = magnetic::ihj_ordering(tc, bm, afm);
    return o.beta != 0 && o.beta > -1 ? o.tstar : 0;
  }
  return bm != 0 && bm > -1 ? std::max(tc, nt) : 0;
}

double CompiledModel::magnetic_ordering_temperature(const State& state, const double* y) const {
  if (!magnetic()) return 0;
  const auto& st = static_cast<const StateImpl&>(state);
  return ordering_temperature_of(TC_.eval_value(st.c, y), BM_.eval_value(st.c, y),
                                 mag_->afm == 0 ? NT_.eval_value(st.c, y) : 0.0);
}

}  // namespace pd::models
