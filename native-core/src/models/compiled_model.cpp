// Evaluation of a compiled phase model (compiled_model.hpp): G and its exact derivatives over (T, P, y),
// grid energies from linear tables, moles and properties (formula sheet ../shared/design/calphad-formulas.md
// §0-§7; magnetic functions: Inden, Hillert and Jarl, Dinsdale 1991, Xiong et al. 2012, see docs/engine.md).
#include "models/compiled_model.hpp"

#include <algorithm>
#include <cmath>

#include "io/errors.hpp"

namespace pd::models {

namespace {

// §3.2 IHJ f(tau) with first and second derivatives. Integer powers by multiplication (std::pow was
// a fifth of a scan's time on magnetic phases with large sampled grids); the same polynomials.
// kDerivatives = false: f only (the grid energies), f1 and f2 left unset.
template <bool kDerivatives = true>
void ihj(double tau, double p, double& f, double& f1, double& f2) {
  const double A = 518.0 / 1125.0 + (11692.0 / 15975.0) * (1.0 / p - 1.0);
  if (tau <= 1) {
    const double a = 79.0 / (140.0 * p), K = (474.0 / 497.0) * (1.0 / p - 1.0);
    const double t2 = tau * tau, t3 = t2 * tau, t6 = t3 * t3, t7 = t6 * tau, t8 = t7 * tau, t9 = t8 * tau;
    const double t13 = t6 * t7, t14 = t13 * tau, t15 = t14 * tau;
    f = 1 - (a / tau + K * (t3 / 6 + t9 / 135 + t15 / 600)) / A;
    if constexpr (!kDerivatives) return;
    f1 = -(-a / t2 + K * (t2 / 2 + t8 / 15 + t14 / 40)) / A;
    f2 = -(2 * a / t3 + K * (tau + 8 * t7 / 15 + 14 * t13 / 40)) / A;
  } else {
    const double u = 1 / tau, u2 = u * u, u5 = u2 * u2 * u, u6 = u5 * u, u7 = u6 * u;
    const double u15 = u5 * u5 * u5, u16 = u15 * u, u17 = u16 * u, u25 = u15 * u5 * u5, u26 = u25 * u, u27 = u26 * u;
    f = -(u5 / 10 + u15 / 315 + u25 / 1500) / A;
    if constexpr (!kDerivatives) return;
    f1 = -(-u6 / 2 - u16 * 15 / 315 - u26 * 25 / 1500) / A;
    f2 = -(3 * u7 + u17 * 240 / 315 + u27 * 650 / 1500) / A;
  }
}
// §3.3 Xiong et al. f(tau), the paper's parenthesisation (tau^21/1617 inside the (1/p-1) factor).
template <bool kDerivatives = true>
void xiong(double tau, double p, double& f, double& f1, double& f2) {
  const double D = 0.33471979 + 0.49649686 * (1.0 / p - 1.0);
  if (tau <= 0) {
    f = f1 = f2 = 0;
    return;
  }
  if (tau <= 1) {
    const double a = 0.38438376 / p, K = 0.63570895 * (1.0 / p - 1.0);
    const double t2 = tau * tau, t3 = t2 * tau, t6 = t3 * t3, t7 = t6 * tau, t8 = t7 * tau, t9 = t8 * tau;
    const double t13 = t6 * t7, t14 = t13 * tau, t15 = t14 * tau, t19 = t13 * t6, t20 = t19 * tau, t21 = t20 * tau;
    f = 1 - (a / tau + K * (t3 / 6 + t9 / 135 + t15 / 600 + t21 / 1617)) / D;
    if constexpr (!kDerivatives) return;
    f1 = -(-a / t2 + K * (t2 / 2 + t8 / 15 + t14 / 40 + t20 * 21 / 1617)) / D;
    f2 = -(2 * a / t3 + K * (tau + 8 * t7 / 15 + 14 * t13 / 40 + t19 * 420 / 1617)) / D;
  } else {
    const double u = 1 / tau, u2 = u * u, u7 = u2 * u2 * u2 * u, u8 = u7 * u, u9 = u8 * u;
    const double u14 = u7 * u7, u21 = u14 * u7, u22 = u21 * u, u23 = u22 * u, u35 = u21 * u14, u36 = u35 * u,
                 u37 = u36 * u;
    const double u49 = u35 * u14, u50 = u49 * u, u51 = u50 * u;
    f = -(u7 / 21 + u21 / 630 + u35 / 2975 + u49 / 8232) / D;
    if constexpr (!kDerivatives) return;
    f1 = -(-u8 / 3 - u22 / 30 - u36 / 85 - u50 * 49 / 8232) / D;
    f2 = -(u9 * 8 / 3 + u23 * 22 / 30 + u37 * 36 / 85 + u51 * 2450 / 8232) / D;
  }
}

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

void tabulate(std::initializer_list<const Poly*> polys, const double* Y, size_t np, size_t m, size_t ncoef,
              CompiledModel::LinearTable& out) {
  std::vector<char> used(ncoef, 0);
  for (const Poly* poly : polys)
    for (const Term& t : poly->terms) used[t.coef] = 1;
  std::vector<int> col_of(ncoef, -1);
  for (size_t k = 0; k < ncoef; ++k)
    if (used[k]) {
      col_of[k] = int(out.cols.size());
      out.cols.push_back(int(k));
    }
  const size_t nc = out.cols.size(), kB = CompiledModel::LinearTable::kBlock;
  const size_t nblocks = (np + kB - 1) / kB;
  out.B.assign(nblocks * nc * kB, 0.0);
  std::vector<double> dense(ncoef);
  for (size_t p = 0; p < np; ++p) {
    std::fill(dense.begin(), dense.end(), 0.0);
    for (const Poly* poly : polys) poly->accumulate_basis(Y + p * m, dense.data());
    double* Bb = out.B.data() + (p / kB) * nc * kB + p % kB;
    for (size_t j = 0; j < nc; ++j) Bb[j * kB] = dense[out.cols[j]];
  }
}

}  // namespace

// The kBlock sums over the columns stay in registers and are added in pairs (SSE2). GCC's loop
// vectoriser would rather vectorise over the columns (the loop with the unknown trip count), which
// costs a shuffle per product: twice the time per point with the table in the L3 cache.
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-vectorize")))
#endif
void CompiledModel::LinearTable::block_values(size_t block, const double* cv, double* out) const {
  const size_t nc = cols.size();
  const double* Bb = B.data() + block * nc * kBlock;
  double s[kBlock] = {};
  for (size_t j = 0; j < nc; ++j) {
    const double c = cv[j];
    const double* col = Bb + j * kBlock;
    for (size_t i = 0; i < kBlock; ++i) s[i] += col[i] * c;
  }
  for (size_t i = 0; i < kBlock; ++i) out[i] = s[i];
}

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

namespace {
// The magnetic term's value alone (§3.2 IHJ with the partitioned T* and beta; §3.3 Xiong with T_C, T_N and beta),
// by the same operations as the value of the small jets in CompiledModel::compute.
double ihj_value(double T, double tstar, double beta, double p) {
  double f, f1, f2;
  ihj<false>(T * (1 / tstar), p, f, f1, f2);
  return T * std::log1p(beta) * f * R;
}
double xiong_value(double T, double tc, double nt, double beta, double p) {
  double fsum = 0;
  for (double crit : {tc, nt}) {
    if (crit == 0) continue;
    double f, f1, f2;
    xiong<false>(T * (1 / crit), p, f, f1, f2);
    fsum = fsum + f;
  }
  return T * std::log1p(beta) * fsum * R;
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
}  // namespace

void CompiledModel::compute(const State& state, const double* y, int ord, Parts& o, bool want_parts) const {
  const auto& st = static_cast<const StateImpl&>(state);
  const int n = int(vars_.size()) + 2;
  const double T = st.T, P = st.P;
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
  bool hasMag = false, hasExtra = false;
  o.Tstar = 0;
  o.beta = 0;
  if (mag_ && !TC_.empty()) {
    Jet &tc = w.tc, &bm = w.bm;
    tc.reset(n, ord);
    bm.reset(n, ord);
    TC_.eval(st.c, y, tc);
    BM_.eval(st.c, y, bm);
    const double afm = mag_->afm, p = mag_->p;
    if (afm != 0) {
      // IHJ (3.2)-(3.6): afm rule on the (partitioned) sums
      // inputs of the small jet: 0 = T, 1 = the sum TC, 2 = the sum BMAGN
      const double tscale = tc.v > 0 ? 1.0 : 1.0 / afm, bscale = bm.v > 0 ? 1.0 : 1.0 / afm;
      const SmallJet ts = small_variable(1, tc.v > 0 ? tc.v : tc.v * (1.0 / afm), tscale);
      const SmallJet be = small_variable(2, bm.v > 0 ? bm.v : bm.v * (1.0 / afm), bscale);
      o.Tstar = ts.v;
      o.beta = be.v;
      if (ts.v != 0 && be.v > -1 && ord == 0) {
        mag.reset(n, ord);
        mag.v = ihj_value(T, ts.v, be.v, p);
        hasMag = true;
      } else if (ts.v != 0 && be.v > -1) {
        const SmallJet Ts = small_variable(0, T, 1.0);
        SmallJet tau = Ts * reciprocal(ts);
        double f, f1, f2;
        ihj(tau.v, p, f, f1, f2);
        SmallJet fj = apply(tau, f, f1, f2);
        SmallJet lb = apply(be, std::log1p(be.v), 1 / (1 + be.v), -1 / ((1 + be.v) * (1 + be.v)));
        const Jet* in[4] = {&Tj, &tc, &bm, nullptr};
        mag.reset(n, ord);
        compose(Ts * lb * fj * R, in, mag);
        hasMag = true;
      }
    } else {
      // Xiong (3.7)-(3.9): f(tau_C) + f(tau_N), beta used directly
      Jet& nt = w.nt;
      nt.reset(n, ord);
      NT_.eval(st.c, y, nt);
      o.Tstar = tc.v;
      o.beta = bm.v;
      if (bm.v > -1 && ord == 0) {
        mag.reset(n, ord);
        mag.v = xiong_value(T, tc.v, nt.v, bm.v, p);
        hasMag = true;
      } else if (bm.v > -1) {
        // inputs of the small jet: 0 = T, 1 = TC, 2 = NT, 3 = BMAGN
        const SmallJet Ts = small_variable(0, T, 1.0);
        SmallJet fsum;
        for (int i : {1, 2}) {
          const double crit = i == 1 ? tc.v : nt.v;
          if (crit == 0) continue;  // tau = 1e10 -> f ~ 0
          SmallJet tau = Ts * reciprocal(small_variable(i, crit, 1.0));
          double f, f1, f2;
          xiong(tau.v, p, f, f1, f2);
          fsum = fsum + apply(tau, f, f1, f2);
        }
        const SmallJet b = small_variable(3, bm.v, 1.0);
        SmallJet lb = apply(b, std::log1p(bm.v), 1 / (1 + bm.v), -1 / ((1 + bm.v) * (1 + bm.v)));
        const Jet* in[4] = {&Tj, &tc, &nt, &bm};
        mag.reset(n, ord);
        compose(Ts * lb * fsum * R, in, mag);
        hasMag = true;
      }
    }
  }
  Jet& extra = w.extra;  // set only if the phase has Einstein or two-state terms
  if (!THETA_.empty()) {
    // §4.1 Einstein: theta = exp(sum of THETA (ln theta)); 1.5 R theta + 3 R T ln(1 - exp(-theta/T))
    // (in w's jets, by the operations of theta / Tj = theta * (1 / Tj) and theta (1.5 R) + (Tj g) (3 R))
    Jet &lt = w.a, &theta = w.b, &inv_T = w.c, &u = w.d, &g = w.e;
    lt.reset(n, ord);
    THETA_.eval(st.c, y, lt);
    double th = std::exp(lt.v);
    models::apply_into(lt, th, th, th, theta);
    models::reciprocal_into(Tj, inv_T);
    models::multiply_into(theta, inv_T, u);
    double em = std::expm1(u.v);  // e^u - 1
    models::apply_into(u, std::log(-std::expm1(-u.v)), 1 / em, -(em + 1) / (em * em), g);
    Jet& Tg = lt;  // lt is no longer needed
    models::multiply_into(Tj, g, Tg);
    Tg *= 3 * R;
    extra = theta;
    extra *= 1.5 * R;
    extra += Tg;
    hasExtra = true;
  }
  if (!GD_.empty()) {
    // §4.2 two-state: -R T ln(1 + exp(-GD/(R T))), softplus evaluated stably
    // (x = (GD / Tj) (-1 / R), as GD * (1 / Tj) scaled, and two = (Tj s) (-R))
    Jet &gd = w.a, &inv_T = w.c, &x = w.d, &s = w.e, &two = w.b;
    gd.reset(n, ord);
    GD_.eval(st.c, y, gd);
    models::reciprocal_into(Tj, inv_T);
    models::multiply_into(gd, inv_T, x);
    x *= -1.0 / R;
    double sp = std::max(x.v, 0.0) + std::log1p(std::exp(-std::fabs(x.v)));
    double sg = 1 / (1 + std::exp(-x.v));
    models::apply_into(x, sp, sg, sg * (1 - sg), s);
    models::multiply_into(Tj, s, two);
    two *= -R;
    if (hasExtra)
      extra += two;
    else
      std::swap(extra, two);
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
    o.Vnm.reset(n, 0);
  }
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
  const double T = st.T;
  // the order of compute(): S = G + I (+ the magnetic term)
  double S = G_.eval_value(st.c, y);
  S += ID_.eval_value(st.c, y);
  Nf = NF_.eval_value(st.c, y);
  if (mag_ && !TC_.empty()) {
    const double tc = TC_.eval_value(st.c, y), bm = BM_.eval_value(st.c, y);
    const double afm = mag_->afm, p = mag_->p;
    if (afm != 0) {
      const double ts = tc > 0 ? tc : tc * (1.0 / afm), be = bm > 0 ? bm : bm * (1.0 / afm);
      if (ts != 0 && be > -1) S += ihj_value(T, ts, be, p);
    } else {
      const double nt = NT_.eval_value(st.c, y);
      if (bm > -1) S += xiong_value(T, tc, nt, bm, p);
    }
  }
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

std::unique_ptr<const PhaseModel::PointSet> CompiledModel::compile_points(const double* Y, size_t npoints) const {
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

void CompiledModel::energies(const State& state, const PointSet& points, double* GM) const {
  const auto& st = static_cast<const StateImpl&>(state);
  const auto& q = static_cast<const PointSetImpl&>(points);
  const double T = st.T;
  std::vector<double> cS, cN, cTC, cBM, cNT;
  q.S.gather(st.c, cS);
  q.NF.gather(st.c, cN);
  const bool magnetic = mag_ && !TC_.empty();
  if (magnetic) {
    q.TC.gather(st.c, cTC);
    q.BM.gather(st.c, cBM);
    q.NT.gather(st.c, cNT);
  }
  // Columns of S with equal values at this (T,P): one column of their sum (the same sum up to rounding)
  const size_t nc = cS.size();
  std::vector<int> group_of;
  std::vector<double> cG;
  if (nc >= 8) {  // a narrower table is summed as it is: grouping its columns would cost more than it saves
    group_of.assign(nc, -1);
    for (size_t j = 0; j < nc; ++j) {
      if (cS[j] == 0) continue;
      for (size_t l = 0; l < j && group_of[j] < 0; ++l)
        if (group_of[l] >= 0 && cS[l] == cS[j]) group_of[j] = group_of[l];
      if (group_of[j] < 0) {
        group_of[j] = int(cG.size());
        cG.push_back(cS[j]);
      }
    }
  }
  std::shared_ptr<const MergedColumns> merged;
  if (!group_of.empty() && cG.size() < nc) {
    {
      std::lock_guard<std::mutex> lock(q.merged_mutex);
      merged = q.merged;
    }
    if (!merged || merged->group_of != group_of) {
      auto fresh = std::make_shared<MergedColumns>();
      fresh->group_of = group_of;
      LinearTable& t = fresh->table;
      const size_t ng = cG.size(), kB = LinearTable::kBlock, nblocks = (q.np + kB - 1) / kB;
      t.cols.assign(ng, -1);
      for (size_t j = 0; j < nc; ++j)
        if (group_of[j] >= 0 && t.cols[group_of[j]] < 0) t.cols[group_of[j]] = q.S.cols[j];
      t.B.assign(nblocks * ng * kB, 0.0);
      for (size_t b = 0; b < nblocks; ++b)
        for (size_t j = 0; j < nc; ++j) {
          if (group_of[j] < 0) continue;
          const double* from = q.S.B.data() + (b * nc + j) * kB;
          double* to = t.B.data() + (b * ng + group_of[j]) * kB;
          for (size_t i = 0; i < kB; ++i) to[i] += from[i];
        }
      merged = std::move(fresh);
      std::lock_guard<std::mutex> lock(q.merged_mutex);
      q.merged = merged;
    }
  }
  const LinearTable& S = merged ? merged->table : q.S;
  const double* cSv = merged ? cG.data() : cS.data();
  constexpr size_t kB = LinearTable::kBlock;
  double Sb[kB], Nb[kB], TCb[kB], BMb[kB], NTb[kB] = {};
  for (size_t k = 0; k < q.np; ++k) {
    const size_t i = k % kB;
    if (i == 0) {
      S.block_values(k / kB, cSv, Sb);
      q.NF.block_values(k / kB, cN.data(), Nb);
      if (magnetic) {
        q.TC.block_values(k / kB, cTC.data(), TCb);
        q.BM.block_values(k / kB, cBM.data(), BMb);
        if (!q.NT.empty()) q.NT.block_values(k / kB, cNT.data(), NTb);
      }
    }
    double S = Sb[i];
    if (magnetic) {
      const double tc = TCb[i], bm = BMb[i];
      const double afm = mag_->afm, p = mag_->p;
      double f, f1, f2;
      if (afm != 0) {
        const double ts = tc > 0 ? tc : tc * (1.0 / afm), be = bm > 0 ? bm : bm * (1.0 / afm);
        if (ts != 0 && be > -1) {
          ihj<false>(T / ts, p, f, f1, f2);
          S += T * std::log1p(be) * f * R;
        }
      } else if (bm > -1) {
        const double nt = NTb[i];
        double fsum = 0;
        for (double crit : {tc, nt}) {
          if (crit == 0) continue;
          xiong<false>(T / crit, p, f, f1, f2);
          fsum += f;
        }
        S += T * std::log1p(bm) * fsum * R;
      }
    }
    GM[k] = S / Nb[i];
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
    const double ts = tc > 0 ? tc : tc * (1.0 / afm), be = bm > 0 ? bm : bm * (1.0 / afm);
    return be != 0 && be > -1 ? ts : 0;
  }
  return bm != 0 && bm > -1 ? std::max(tc, nt) : 0;
}

double CompiledModel::magnetic_ordering_temperature(const State& state, const double* y) const {
  if (!magnetic()) return 0;
  const auto& st = static_cast<const StateImpl&>(state);
  return ordering_temperature_of(TC_.eval_value(st.c, y), BM_.eval_value(st.c, y),
                                 mag_->afm == 0 ? NT_.eval_value(st.c, y) : 0.0);
}

double CompiledModel::magnetic_ordering_temperature_max(const State& state, const PointSet& points) const {
  if (!magnetic()) return 0;
  const auto& st = static_cast<const StateImpl&>(state);
  const auto& q = static_cast<const PointSetImpl&>(points);
  std::vector<double> cTC, cBM, cNT;
  q.TC.gather(st.c, cTC);
  q.BM.gather(st.c, cBM);
  q.NT.gather(st.c, cNT);
  constexpr size_t kB = LinearTable::kBlock;
  double TCb[kB], BMb[kB], NTb[kB] = {};
  double best = 0;
  for (size_t k = 0; k < q.np; ++k) {
    const size_t i = k % kB;
    if (i == 0) {
      q.TC.block_values(k / kB, cTC.data(), TCb);
      q.BM.block_values(k / kB, cBM.data(), BMb);
      if (!q.NT.empty()) q.NT.block_values(k / kB, cNT.data(), NTb);
    }
    best = std::max(best, ordering_temperature_of(TCb[i], BMb[i], NTb[i]));
  }
  return best;
}

}  // namespace pd::models
