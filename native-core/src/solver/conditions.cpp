// Conditions of one solve: T, P and the C-1 composition or potential conditions as linear rows (§8.1).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "solver/solver_internal.hpp"
#include <sstream>

namespace pd::solver::detail {

// Diagnostic traces on stderr for developers: PD_SOLVER_DEBUG=1|2|3 (read once).
int debug_level() {
  static const int level = [] {
    const char* v = std::getenv("PD_SOLVER_DEBUG");
    return v ? std::max(0, std::atoi(v)) : 0;
  }();
  return level;
}

double mass_balance_tolerance(const Conds& cd) {
  double tol = 1e-9;
  for (double v : cd.b)
    if (v != 0) tol = std::min(tol, 1e-4 * std::fabs(v));
  return std::max(tol, 1e-10);
}

Conds parse_conditions(const Conditions& c, const std::vector<std::string>& el, const std::vector<double>& masses) {
  const int C = static_cast<int>(el.size());
  Conds cd;
  cd.T = c.T;
  cd.P = c.P;
  if (!(c.T > 0) || !std::isfinite(c.T)) throw std::invalid_argument("T must be a positive number of kelvin");
  if (!(c.P > 0) || !std::isfinite(c.P)) throw std::invalid_argument("P must be a positive number of pascal");
  cd.fixed.assign(C, 0);
  cd.mufix.assign(C, 0.0);
  std::vector<char> used(C, 0);
  if (static_cast<int>(c.conds.size()) != C - 1) {
    std::ostringstream os;
    os << "a system of " << C << " elements needs " << C - 1
       << " composition/potential conditions (one element is dependent), got " << c.conds.size();
    throw std::invalid_argument(os.str());
  }
  double xsum = 0;
  bool allx = true;
  for (const auto& k : c.conds) {
    int A = static_cast<int>(std::find(el.begin(), el.end(), k.element) - el.begin());
    if (A >= C) throw std::invalid_argument("condition on " + k.element + ", which is not a system element");
    if (used[A]) throw std::invalid_argument("two conditions on " + k.element);
    used[A] = 1;
    if (!std::isfinite(k.value)) throw std::invalid_argument("condition on " + k.element + " is not a finite number");
    if (k.kind == Condition::MU) {
      cd.fixed[A] = 1;
      cd.mufix[A] = k.value;
      continue;
    }
    if (k.value < 0 || k.value > 1)
      throw std::invalid_argument("fraction condition on " + k.element + " must be within [0, 1]");
    double v = std::min(std::max(k.value, kXClamp), 1 - kXClamp);  // §10 clamp
    std::vector<double> a(C, 0.0);
    if (k.kind == Condition::X) {
      a[A] = 1;
      cd.b.push_back(v);
      xsum += v;
    } else {
      // W(A) = w  ->  sum_B (δ_AB - w) m_B x_B = 0  (§8.1)
      allx = false;
      for (int B = 0; B < C; ++B) {
        if (!(masses[B] > 0)) throw std::invalid_argument("mass fraction condition needs the molar mass of " + el[B]);
        a[B] = ((A == B ? 1.0 : 0.0) - v) * masses[B];
      }
      cd.b.push_back(0.0);
    }
    cd.a.push_back(a);
    cd.row_element.push_back(A);
    cd.row_is_x.push_back(k.kind == Condition::X);
  }
  if (allx && xsum >= 1.0 - 1e-12) throw std::invalid_argument("the mole fraction conditions sum to 1 or more");
  for (int A = 0; A < C; ++A)
    if (!cd.fixed[A]) cd.free_el.push_back(A);
  return cd;
}

}  // namespace pd::solver::detail
