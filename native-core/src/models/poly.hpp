// Compiled polynomial-like sums over the site fractions of one phase, and dense second-order jets
// over z = (T, P, y...). Every CEF/Redlich-Kister quantity of formula sheet §1-§2 and §7 is a sum of
// terms  c(T,P) * prod_j f_j(y), where each factor f_j is an affine form of y (a site fraction, a '*'
// sum, an RK difference y_A - y_B, a Muggianu v_k (2.3), a quasi fraction x_i (5.1), the ionic-liquid Q
// (7.1)) or the entropy function s(u) = u ln u of an affine form (1.2). This gives exact gradients and
// Hessians by the product rule without a general AD engine (the "polynomial part" of the design).
#pragma once

#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "io/database.hpp"

namespace pd::models {

struct Affine {
  double c0 = 0;
  std::vector<std::pair<int, double>> lin;  // (y index, coefficient)
  double eval(const double* y) const {
    double s = c0;
    for (const auto& [k, a] : lin) s += a * y[k];
    return s;
  }
};

struct Factor {
  Affine a;
  bool entropy = false;  // value s(a) = a ln a with the 1e-15 cut-off of §1.3, else the affine value
};

struct Term {
  int coef = 0;      // index into the prepared TPJet array (0 = constant 1, 1 = R*T)
  double scale = 1;  // sign/multiplicity
  std::vector<Factor> f;
};

// Dense jet over n = m + 2 variables; order 0/1/2 selects what is carried.
struct Jet {
  double v = 0;
  std::vector<double> g, h;
  int n = 0, ord = 0;
  Jet() = default;
  Jet(int n_, int ord_) : n(n_), ord(ord_) {
    if (ord >= 1) g.assign(n, 0.0);
    if (ord >= 2) h.assign(size_t(n) * n, 0.0);
  }
  // Zero of size n and order ord, keeping the storage already held (scratch jets reused from call to call).
  void reset(int n_, int ord_) {
    n = n_;
    ord = ord_;
    v = 0;
    zero(g, ord >= 1 ? size_t(n) : 0);
    zero(h, ord >= 2 ? size_t(n) * n : 0);
  }
  // v = n zeros (what assign(n, 0.0) does, as one memset: the jets of a small phase are reset some ten times
  // per energy evaluation)
  static void zero(std::vector<double>& v, size_t n) {
    v.resize(n);
    if (n) std::memset(v.data(), 0, n * sizeof(double));
  }
  static Jet constant(int n, int ord, double c) {
    Jet j(n, ord);
    j.v = c;
    return j;
  }
  static Jet variable(int n, int ord, int idx, double val) {
    Jet j(n, ord);
    j.v = val;
    if (ord >= 1) j.g[idx] = 1.0;
    return j;
  }
};

inline Jet operator+(const Jet& a, const Jet& b) {
  Jet r = a;
  r.v += b.v;
  for (size_t i = 0; i < r.g.size(); ++i) r.g[i] += b.g[i];
  for (size_t i = 0; i < r.h.size(); ++i) r.h[i] += b.h[i];
  return r;
}
inline Jet operator-(const Jet& a, const Jet& b) {
  Jet r = a;
  r.v -= b.v;
  for (size_t i = 0; i < r.g.size(); ++i) r.g[i] -= b.g[i];
  for (size_t i = 0; i < r.h.size(); ++i) r.h[i] -= b.h[i];
  return r;
}
inline Jet& operator*=(Jet& a, double s) {
  a.v *= s;
  for (auto& x : a.g) x *= s;
  for (auto& x : a.h) x *= s;
  return a;
}
inline Jet operator*(const Jet& a, double s) {
  Jet r = a;
  r *= s;
  return r;
}
// The "_into" forms write a result into r, keeping the storage r holds (scratch jets reused from call to call);
// every entry of r is written. r must not be a or b.
inline void shape_like(const Jet& a, Jet& r) {
  r.n = a.n;
  r.ord = a.ord;
  r.g.resize(a.ord >= 1 ? a.n : 0);
  r.h.resize(a.ord >= 2 ? size_t(a.n) * a.n : 0);
}
inline void multiply_into(const Jet& a, const Jet& b, Jet& r) {
  shape_like(a, r);
  r.v = a.v * b.v;
  if (a.ord >= 1)
    for (int i = 0; i < a.n; ++i) r.g[i] = a.g[i] * b.v + a.v * b.g[i];
  if (a.ord >= 2)
    for (int i = 0; i < a.n; ++i)
      for (int j = 0; j < a.n; ++j) {
        size_t k = size_t(i) * a.n + j;
        r.h[k] = a.h[k] * b.v + a.v * b.h[k] + a.g[i] * b.g[j] + a.g[j] * b.g[i];
      }
}
inline Jet operator*(const Jet& a, const Jet& b) {
  Jet r;
  multiply_into(a, b, r);
  return r;
}
// f(a) given f, f', f'' at a.v (chain rule).
inline void apply_into(const Jet& a, double f0, double f1, double f2, Jet& r) {
  shape_like(a, r);
  r.v = f0;
  if (a.ord >= 1)
    for (int i = 0; i < a.n; ++i) r.g[i] = f1 * a.g[i];
  if (a.ord >= 2)
    for (int i = 0; i < a.n; ++i)
      for (int j = 0; j < a.n; ++j) {
        size_t k = size_t(i) * a.n + j;
        r.h[k] = f1 * a.h[k] + f2 * a.g[i] * a.g[j];
      }
}
inline Jet apply(const Jet& a, double f0, double f1, double f2) {
  Jet r;
  apply_into(a, f0, f1, f2, r);
  return r;
}
inline Jet& operator+=(Jet& a, const Jet& b) {
  a.v += b.v;
  for (size_t i = 0; i < a.g.size(); ++i) a.g[i] += b.g[i];
  for (size_t i = 0; i < a.h.size(); ++i) a.h[i] += b.h[i];
  return a;
}
// a := a / b by the quotient rule without temporaries: q = a/b, dq = (da - q db)/b,
// d2q = (d2a - dq db^T - db dq^T - q d2b)/b.
inline void divide_in_place(Jet& a, const Jet& b) {
  const double q = a.v / b.v, ib = 1 / b.v;
  a.v = q;
  if (a.ord >= 1)
    for (int i = 0; i < a.n; ++i) a.g[i] = (a.g[i] - q * b.g[i]) * ib;
  if (a.ord >= 2)
    for (int i = 0; i < a.n; ++i)
      for (int j = 0; j < a.n; ++j) {
        size_t k = size_t(i) * a.n + j;
        a.h[k] = (a.h[k] - a.g[i] * b.g[j] - b.g[i] * a.g[j] - q * b.h[k]) * ib;
      }
}
inline void reciprocal_into(const Jet& a, Jet& r) {
  apply_into(a, 1 / a.v, -1 / (a.v * a.v), 2 / (a.v * a.v * a.v), r);
}
inline Jet reciprocal(const Jet& a) {
  Jet r;
  reciprocal_into(a, r);
  return r;
}
inline Jet operator/(const Jet& a, const Jet& b) { return a * reciprocal(b); }

// Sum of terms; evaluation adds into a jet over z = (T, P, y).
class Poly {
 public:
  std::vector<Term> terms;
  bool empty() const { return terms.empty(); }
  void add(Term t) {
    terms.push_back(std::move(t));
    compiled_ = false;
  }
  void append(const Poly& o, double s) {
    for (Term t : o.terms) {
      t.scale *= s;
      terms.push_back(std::move(t));
    }
    compiled_ = false;
  }
  // Merges terms with the same coefficient and the same factors (in any order) by adding their scales,
  // and drops terms whose scale becomes 0. The ordered part of an order-disorder phase evaluated at the
  // quasi fractions (5.2) repeats every B/F symmetry copy (§5.5) of a parameter as the same product of
  // x factors: BCC_4SL of Al-Fe_sundman2009 has ~10x fewer terms afterwards. Exact up to summation order.
  // Also lists the distinct factors u_q (affine forms or their entropy s(u)) so that eval() works in
  // u-space: per term only the products of factor values (k^2 per term instead of k^2 times the lengths
  // of the affine forms), then one chain rule g_y = A^T g_u, H_y = A^T H_u A for the whole sum. The
  // quasi fractions of an ordered phase are affine forms over every substitutional sublattice (4 entries
  // each in a 4-sublattice FCC/BCC), so this is where an order-disorder Hessian spends its time.
  void consolidate();
  double value(const std::vector<TPJet>& c, const double* y) const;
  // B[t.coef] += t.scale * prod f(y) for every term: value() = sum_k c[k].v * B[k] (PointSet tables).
  void accumulate_basis(const double* y, double* B) const;
  void eval(const std::vector<TPJet>& c, const double* y, Jet& out) const;
  // The value alone, the same number as eval() into a jet of order 0 (by the same operations), without one.
  double eval_value(const std::vector<TPJet>& c, const double* y) const;

 private:
  void eval_compiled(const std::vector<TPJet>& c, const double* y, Jet& out) const;
  // The steps of eval_compiled at order >= 1 over the factor values and sums of one evaluation (poly.cpp).
  struct Sums;
  void term_products(const std::vector<TPJet>& c, int ord, Sums& s) const;
  void invertible_lists(int ord, Sums& s) const;
  void gradient_to_y(Jet& out, const Sums& s) const;
  void diagonal_hessian_to_y(Jet& out, const Sums& s) const;
  void hessian_to_y(Jet& out, Sums& s) const;
  // sum over terms of scale * c.v * the product of its factors' values val (per distinct factor)
  double values_only(const std::vector<TPJet>& c, const double* val) const;
  // values_only of the factor values at y, kept on the stack (at most kValuesOnStack distinct factors)
  double values_on_stack(const std::vector<TPJet>& c, const double* y) const;
  // distinct factors up to which a value-only evaluation keeps their values on the stack
  static constexpr size_t kValuesOnStack = 256;
  bool compiled_ = false;
  std::vector<Factor> kinds_;              // distinct factors
  std::vector<int> kind_of_, term_begin_;  // per term: its factors' kind indices (flattened)
  // The terms of three or more factors listed by factor (once per occurrence) and by pair of factor
  // positions (the pair's kinds a <= b): eval() sums c P per list and scales by 1/u_a (1/u_b) once, where
  // none of a term's factors is 0 (a sum per list entry instead of a scattered update per term).
  std::vector<int> by_kind_begin_, by_kind_term_;
  std::vector<int> pair_a_, pair_b_, pair_begin_, pair_term_;
  int max_factors_ = 0;  // 0 or 1 (ideal mixing, N_f, ...): the Hessian over the factors is diagonal
};

}  // namespace pd::models
