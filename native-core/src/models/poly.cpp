// Evaluation of compiled term sums (see poly.hpp): value, and exact gradient/Hessian by the product
// rule over the factors of each term. Factors are affine in y, or s(u) = u ln u (§1.3), so
// d f_j = d1_j * lin_j and d2 f_j = d2_j * lin_j lin_j^T.
#include "models/poly.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace pd::models {
namespace {
constexpr double kYlnyCut = 1e-15;  // §1.3: y ln y := 0 for y <= 1e-15 (pycalphad MIN_SITE_FRACTION/10)

inline void factor_value(const Factor& f, const double* y, double& v, double& d1, double& d2) {
  double u = f.a.eval(y);
  if (!f.entropy) {
    v = u;
    d1 = 1;
    d2 = 0;
    return;
  }
  if (u <= kYlnyCut) {
    v = 0;
    d1 = 0;
    d2 = 0;
    return;
  }
  double l = std::log(u);
  v = u * l;
  d1 = l + 1;
  d2 = 1 / u;
}
}  // namespace

void Poly::consolidate() {
  // canonical key of a term: coefficient index, then its factors sorted, each as (entropy, c0, lin sorted)
  auto factor_key = [](const Factor& f) {
    std::vector<double> k{f.entropy ? 1.0 : 0.0, f.a.c0, static_cast<double>(f.a.lin.size())};
    auto lin = f.a.lin;
    std::sort(lin.begin(), lin.end());
    for (const auto& [i, a] : lin) {
      k.push_back(i);
      k.push_back(a);
    }
    return k;
  };
  std::map<std::vector<double>, size_t> index;
  std::vector<Term> out;
  out.reserve(terms.size());
  for (Term& t : terms) {
    std::vector<std::vector<double>> fk;
    fk.reserve(t.f.size());
    for (const Factor& f : t.f) fk.push_back(factor_key(f));
    std::sort(fk.begin(), fk.end());
    std::vector<double> key{static_cast<double>(t.coef), static_cast<double>(t.f.size())};
    for (const auto& k : fk) key.insert(key.end(), k.begin(), k.end());
    auto [it, fresh] = index.emplace(std::move(key), out.size());
    if (fresh)
      out.push_back(std::move(t));
    else
      out[it->second].scale += t.scale;
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](const Term& t) { return t.scale == 0; }), out.end());
  terms.swap(out);
  // distinct factors
  std::map<std::vector<double>, int> kind_index;
  kinds_.clear();
  kind_of_.clear();
  term_begin_.assign(1, 0);
  for (const Term& t : terms) {
    for (const Factor& f : t.f) {
      auto [it, fresh] = kind_index.emplace(factor_key(f), static_cast<int>(kinds_.size()));
      if (fresh) kinds_.push_back(f);
      kind_of_.push_back(it->second);
    }
    term_begin_.push_back(static_cast<int>(kind_of_.size()));
  }
  max_factors_ = 0;
  for (size_t ti = 0; ti < terms.size(); ++ti)
    max_factors_ = std::max(max_factors_, term_begin_[ti + 1] - term_begin_[ti]);
  std::vector<std::vector<int>> by_kind(kinds_.size());
  std::map<std::pair<int, int>, std::vector<int>> by_pair;
  for (size_t ti = 0; ti < terms.size(); ++ti) {
    const int b = term_begin_[ti], e = term_begin_[ti + 1];
    if (e - b < 3) continue;
    for (int i = b; i < e; ++i) {
      by_kind[kind_of_[i]].push_back(int(ti));
      for (int j = i + 1; j < e; ++j)
        by_pair[{std::min(kind_of_[i], kind_of_[j]), std::max(kind_of_[i], kind_of_[j])}].push_back(int(ti));
    }
  }
  by_kind_begin_.assign(1, 0);
  by_kind_term_.clear();
  for (const auto& list : by_kind) {
    by_kind_term_.insert(by_kind_term_.end(), list.begin(), list.end());
    by_kind_begin_.push_back(int(by_kind_term_.size()));
  }
  pair_a_.clear();
  pair_b_.clear();
  pair_begin_.assign(1, 0);
  pair_term_.clear();
  for (const auto& [ab, list] : by_pair) {
    pair_a_.push_back(ab.first);
    pair_b_.push_back(ab.second);
    pair_term_.insert(pair_term_.end(), list.begin(), list.end());
    pair_begin_.push_back(int(pair_term_.size()));
  }
  compiled_ = true;
}

double Poly::value(const std::vector<TPJet>& c, const double* y) const {
  double s = 0;
  for (const Term& t : terms) {
    double p = c[t.coef].v * t.scale;
    for (const Factor& f : t.f) {
      if (p == 0) break;
      double v, d1, d2;
      factor_value(f, y, v, d1, d2);
      p *= v;
    }
    s += p;
  }
  return s;
}

void Poly::accumulate_basis(const double* y, double* B) const {
  if (compiled_) {
    // each distinct factor once per point (a factor recurs in many terms; entropy factors take a logarithm),
    // then the products in the order of each term's factors
    const size_t nk = kinds_.size();
    thread_local std::vector<double> val;  // per-thread scratch (tables are built from OpenMP threads too)
    val.resize(nk);
    for (size_t q = 0; q < nk; ++q) {
      double d1, d2;
      factor_value(kinds_[q], y, val[q], d1, d2);
    }
    for (size_t ti = 0; ti < terms.size(); ++ti) {
      double p = terms[ti].scale;
      for (int j = term_begin_[ti]; j < term_begin_[ti + 1] && p != 0; ++j) p *= val[kind_of_[j]];
      B[terms[ti].coef] += p;
    }
    return;
  }
  for (const Term& t : terms) {
    double p = t.scale;
    for (const Factor& f : t.f) {
      if (p == 0) break;
      double v, d1, d2;
      factor_value(f, y, v, d1, d2);
      p *= v;
    }
    B[t.coef] += p;
  }
}

double Poly::eval_value(const std::vector<TPJet>& c, const double* y) const {
  if (!compiled_) throw std::logic_error("Poly evaluated before consolidate()");
  if (kinds_.size() > kValuesOnStack) {
    Jet out(0, 0);
    eval_compiled(c, y, out);
    return out.v;
  }
  return 0.0 + values_on_stack(c, y);  // as eval_compiled adds it to the zero of a reset jet
}

double Poly::values_on_stack(const std::vector<TPJet>& c, const double* y) const {
  double val[kValuesOnStack];
  for (size_t q = 0; q < kinds_.size(); ++q) {
    double d1, d2;
    factor_value(kinds_[q], y, val[q], d1, d2);
  }
  return values_only(c, val);
}

void Poly::eval(const std::vector<TPJet>& c, const double* y, Jet& out) const {
  // every Poly of a phase model is consolidated when the model is built (PhaseModel::build)
  if (!compiled_) throw std::logic_error("Poly evaluated before consolidate()");
  eval_compiled(c, y, out);
}

double Poly::values_only(const std::vector<TPJet>& c, const double* val) const {
  double sv = 0;
  for (size_t ti = 0; ti < terms.size(); ++ti) {
    const double cv = terms[ti].scale * c[terms[ti].coef].v;
    if (cv == 0) continue;
    double P = cv;
    for (int j = term_begin_[ti]; j < term_begin_[ti + 1] && P != 0; ++j) P *= val[kind_of_[j]];
    sv += P;
  }
  return sv;
}

// The steps of eval_compiled are compiled into it: as calls of their own they cost about 240 more instructions per
// evaluation (callgrind, FCC_L12 of alnifcc4sl at orders 0-2: 2.7 % of the time in Poly), a tenth of a small Poly's.
#if defined(__GNUC__)
#define PD_EVAL_STEP __attribute__((always_inline)) inline
#else
#define PD_EVAL_STEP inline
#endif

// The factor values and sums of one eval_compiled, in the per-thread scratch (evaluated from OpenMP threads; one
// thread_local, as each is looked up by a call in a shared library). buf: factor values and derivatives, u-space
// gradient (with the v, T and P parts of the coefficients), the curvature of the entropy factors (diagonal) and the
// Hessian of the products, accumulated on one side only (H[qi][qj] for the pair i < j of a term) and made
// symmetric once at the end; T: per-term products on the invertible path; HA: H_u A.
struct Poly::Sums {
  struct Scratch {
    std::vector<double> buf, T, HA;
  };
  size_t nk = 0;
  bool pairs = false;  // order 2 and terms of two or more factors: else no H, the u-space Hessian is diag(Hd)
  bool lists = false;  // terms of three or more factors: the invertible path (else nothing uses inv, invd1, Tv, Tt, Tp)
  double* val;
  double* d1;
  double* d2;
  double* gv;                                                // d(sum c.v s P)/du_q
  double* gt;                                                // the same with c.t (-> d2/dT du)
  double* gp;                                                // and c.p
  double* Hd;                                                // c.v part of s P'' of the entropy factors
  double* inv;                                               // 1 / val (0 where val is 0 or too small to invert safely)
  double* invd1;                                             // d1 / val
  double* H;                                                 // nk x nk, c.v part, pairs of distinct factor positions
  double *Tv = nullptr, *Tt = nullptr, *Tp = nullptr;        // per term: c.v P, c.t P, c.p P (the invertible path)
  double sv = 0, st = 0, sp = 0, stt = 0, stp = 0, spp = 0;  // the T,P part (written to out once at the end)
  Scratch& scratch;

  explicit Sums(Scratch& s) : scratch(s) {}
};

void Poly::eval_compiled(const std::vector<TPJet>& c, const double* y, Jet& out) const {
  const int ord = out.ord;
  const size_t nk = kinds_.size();
  if (ord < 1 && nk <= kValuesOnStack) {
    // values only (grid energies and single points evaluated point by point): each factor once, then the
    // products; on the stack, without the per-thread scratch
    out.v += values_on_stack(c, y);
    return;
  }
  thread_local Sums::Scratch scratch;
  Sums s(scratch);
  s.nk = nk;
  s.pairs = ord >= 2 && max_factors_ >= 2;
  s.lists = max_factors_ >= 3;
  std::vector<double>& buf = scratch.buf;
  const size_t width = nk * (9 + (s.pairs ? nk : 0));
  if (buf.size() < width) buf.resize(width);
  s.val = buf.data();
  s.d1 = s.val + nk;
  s.d2 = s.d1 + nk;
  s.gv = s.d2 + nk;
  s.gt = s.gv + nk;
  s.gp = s.gt + nk;
  s.Hd = s.gp + nk;
  s.inv = s.Hd + nk;
  s.invd1 = s.inv + nk;
  s.H = s.invd1 + nk;
  // gv, gt, gp, Hd and H are sums; the other parts are written before they are read
  if (ord >= 1) {
    std::fill(s.gv, s.inv, 0.0);
    if (s.pairs) std::fill(s.H, s.H + nk * nk, 0.0);
  }
  for (size_t q = 0; q < nk; ++q) factor_value(kinds_[q], y, s.val[q], s.d1[q], s.d2[q]);
  if (ord < 1) {
    out.v += values_only(c, s.val);
    return;
  }
  if (s.lists)
    for (size_t q = 0; q < nk; ++q) {
      s.inv[q] = std::fabs(s.val[q]) > 1e-250 ? 1 / s.val[q] : 0.0;
      s.invd1[q] = s.inv[q] * s.d1[q];
    }
  term_products(c, ord, s);
  if (s.lists) invertible_lists(ord, s);
  out.v += s.sv;
  out.g[0] += s.st;
  out.g[1] += s.sp;
  if (ord >= 2) {
    const int n = out.n;
    out.h[0] += s.stt;
    out.h[1] += s.stp;
    out.h[size_t(n)] += s.stp;
    out.h[size_t(n) + 1] += s.spp;
  }
  if (s.pairs)
    for (size_t q = 0; q < nk; ++q) {
      double* Hq = s.H + q * nk;
      Hq[q] = 2 * Hq[q] + s.Hd[q];
      for (size_t r = q + 1; r < nk; ++r) Hq[r] = s.H[r * nk + q] = Hq[r] + s.H[r * nk + q];
    }
  gradient_to_y(out, s);
  if (ord < 2) return;
  if (!s.pairs)
    diagonal_hessian_to_y(out, s);
  else
    hessian_to_y(out, s);
}

// Products without one or two of a term's factors. Where none of its factors is 0 (invertible), they are
// P / u_a and P / (u_a u_b): per term only c P, summed over the by-kind and by-pair lists after the loop
// and scaled there by 1/u (the same values to a few ulps, invertible_lists). Otherwise, and for terms of one or two
// factors, from vals (the term's factor values), pre[j] = prod_{l<j} vals[l] and
// suf[j] = prod_{l>=j} vals[l]: the product without position j is pre[j] suf[j+1] and without
// positions i < j pre[i] (prod_{i<l<j} vals[l]) suf[j+1], every derivative in O(k^2) without divisions.
PD_EVAL_STEP void Poly::term_products(const std::vector<TPJet>& c, int ord, Sums& s) const {
  const size_t nk = s.nk;
  const double* val = s.val;
  const double* d1 = s.d1;
  const double* d2 = s.d2;
  const double* inv = s.inv;
  double* gv = s.gv;
  double* gt = s.gt;
  double* gp = s.gp;
  double* Hd = s.Hd;
  double* H = s.H;
  // the sums of the T,P part in registers
  double sv = 0, st = 0, sp = 0, stt = 0, stp = 0, spp = 0;
  double vals[64], pre[65], suf[65];
  std::vector<double>& Tbuf = s.scratch.T;
  if (s.lists) Tbuf.assign(3 * terms.size(), 0.0);
  double* Tv = Tbuf.data();
  double* Tt = Tv + terms.size();
  double* Tp = Tt + terms.size();
  for (size_t ti = 0; ti < terms.size(); ++ti) {
    const Term& t = terms[ti];
    const int* kq = &kind_of_[term_begin_[ti]];
    const size_t k = static_cast<size_t>(term_begin_[ti + 1] - term_begin_[ti]);
    if (k > 64) continue;  // never produced by the compiler (checked at build)
    const TPJet& cj = c[t.coef];
    const double sc = t.scale;
    double P = 1;
    bool invertible = k >= 3;
    for (size_t j = 0; j < k; ++j) {
      P *= (vals[j] = val[kq[j]]);
      invertible = invertible && inv[kq[j]] != 0;
    }
    sv += sc * cj.v * P;
    st += sc * cj.t * P;
    sp += sc * cj.p * P;
    if (ord >= 2) {
      stt += sc * cj.tt * P;
      stp += sc * cj.tp * P;
      spp += sc * cj.pp * P;
    }
    const double cvs = sc * cj.v, cts = sc * cj.t, cps = sc * cj.p;
    if (k >= 3) {
      // by the lists when invertible; otherwise 0 there and by the positions here
      Tv[ti] = invertible ? cvs * P : 0.0;
      Tt[ti] = invertible ? cts * P : 0.0;
      Tp[ti] = invertible ? cps * P : 0.0;
      if (invertible) continue;
    }
    pre[0] = 1;
    for (size_t j = 0; j < k; ++j) pre[j + 1] = pre[j] * vals[j];
    suf[k] = 1;
    for (size_t j = k; j-- > 0;) suf[j] = suf[j + 1] * vals[j];
    for (size_t j = 0; j < k; ++j) {
      const double w = pre[j] * suf[j + 1] * d1[kq[j]];
      gv[kq[j]] += cvs * w;
      gt[kq[j]] += cts * w;
      gp[kq[j]] += cps * w;
    }
    if (ord < 2 || cvs == 0) continue;
    for (size_t i = 0; i < k; ++i) {
      const int qi = kq[i];
      Hd[qi] += cvs * pre[i] * suf[i + 1] * d2[qi];
      double run = cvs * d1[qi] * pre[i];  // times the values strictly between i and j
      for (size_t j = i + 1; j < k; ++j) {
        H[size_t(qi) * nk + kq[j]] += run * suf[j + 1] * d1[kq[j]];
        run *= vals[j];
      }
    }
  }
  s.Tv = Tv;
  s.Tt = Tt;
  s.Tp = Tp;
  s.sv = sv;
  s.st = st;
  s.sp = sp;
  s.stt = stt;
  s.stp = stp;
  s.spp = spp;
}

// The invertible terms: the product without the factor at one position is P / u_q, without two P / (u_a u_b).
PD_EVAL_STEP void Poly::invertible_lists(int ord, Sums& s) const {
  const size_t nk = s.nk;
  const double *Tv = s.Tv, *Tt = s.Tt, *Tp = s.Tp, *invd1 = s.invd1, *inv = s.inv, *d2 = s.d2;
  double *gv = s.gv, *gt = s.gt, *gp = s.gp, *Hd = s.Hd, *H = s.H;
  for (size_t q = 0; q < nk; ++q) {
    double sum_v = 0, sum_t = 0, sum_p = 0;
    for (int l = by_kind_begin_[q]; l < by_kind_begin_[q + 1]; ++l) {
      const int t = by_kind_term_[l];
      sum_v += Tv[t];
      sum_t += Tt[t];
      sum_p += Tp[t];
    }
    gv[q] += invd1[q] * sum_v;
    gt[q] += invd1[q] * sum_t;
    gp[q] += invd1[q] * sum_p;
    if (ord >= 2) Hd[q] += d2[q] * inv[q] * sum_v;
  }
  if (ord < 2) return;
  for (size_t pi = 0; pi < pair_a_.size(); ++pi) {
    // four partial sums: the lists are long (a pair of site fractions recurs in many terms)
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int l = pair_begin_[pi];
    const int e = pair_begin_[pi + 1];
    for (; l + 4 <= e; l += 4) {
      s0 += Tv[pair_term_[l]];
      s1 += Tv[pair_term_[l + 1]];
      s2 += Tv[pair_term_[l + 2]];
      s3 += Tv[pair_term_[l + 3]];
    }
    for (; l < e; ++l) s0 += Tv[pair_term_[l]];
    const double sum = (s0 + s1) + (s2 + s3);
    H[size_t(pair_a_[pi]) * nk + pair_b_[pi]] += sum * invd1[pair_a_[pi]] * invd1[pair_b_[pi]];
  }
}

// chain rule to y: u_q = c0_q + sum_(i,a) a y_i (the gradient, and the Hessian's mixed T and P rows at order 2)
PD_EVAL_STEP void Poly::gradient_to_y(Jet& out, const Sums& s) const {
  const int n = out.n, ord = out.ord;
  const double *gv = s.gv, *gt = s.gt, *gp = s.gp;
  for (size_t q = 0; q < s.nk; ++q)
    for (const auto& [idx, a] : kinds_[q].a.lin) {
      out.g[2 + idx] += gv[q] * a;
      if (ord >= 2) {
        out.h[size_t(0) * n + 2 + idx] += gt[q] * a;
        out.h[size_t(2 + idx) * n + 0] += gt[q] * a;
        out.h[size_t(1) * n + 2 + idx] += gp[q] * a;
        out.h[size_t(2 + idx) * n + 1] += gp[q] * a;
      }
    }
}

// H_y += A^T diag(Hd) A
PD_EVAL_STEP void Poly::diagonal_hessian_to_y(Jet& out, const Sums& s) const {
  const int n = out.n;
  for (size_t q = 0; q < s.nk; ++q) {
    if (s.Hd[q] == 0) continue;
    for (const auto& [a, ca] : kinds_[q].a.lin)
      for (const auto& [b, cb] : kinds_[q].a.lin) out.h[size_t(2 + a) * n + 2 + b] += ca * cb * s.Hd[q];
  }
}

// HA = H_u A (nk x m), then H_y += A^T HA
PD_EVAL_STEP void Poly::hessian_to_y(Jet& out, Sums& s) const {
  const int n = out.n, m = n - 2;
  const size_t nk = s.nk;
  const double* H = s.H;
  std::vector<double>& HA = s.scratch.HA;
  HA.assign(nk * static_cast<size_t>(m), 0.0);
  for (size_t q = 0; q < nk; ++q)
    for (size_t r = 0; r < nk; ++r) {
      const double h = H[q * nk + r];
      if (h == 0) continue;
      for (const auto& [b, cb] : kinds_[r].a.lin) HA[q * m + b] += h * cb;
    }
  for (size_t q = 0; q < nk; ++q)
    for (const auto& [a, ca] : kinds_[q].a.lin) {
      const double* row = &HA[q * m];
      double* hrow = &out.h[size_t(2 + a) * n + 2];
      for (int b = 0; b < m; ++b) hrow[b] += ca * row[b];
    }
}

}  // namespace pd::models
