// The magnetic contribution's functions of one point (formula sheet ../shared/design/calphad-formulas.md §3.2-§3.9):
// f(τ) of Inden, Hillert and Jarl and of Xiong et al. (2012), the antiferromagnetic factor rule of the first, and the
// term's value alone. Internal to models/ (compiled_model.cpp, point_tables.cpp); inline, as the grid energies
// evaluate them point by point.
#pragma once

#include <cmath>

#include "models/compiled_model.hpp"

namespace pd::models::magnetic {

// §3.2 IHJ f(tau) with first and second derivatives. Integer powers by multiplication (std::pow was
// a fifth of a scan's time on magnetic phases with large sampled grids); the same polynomials.
// kDerivatives = false: f only (the grid energies), f1 and f2 left unset.
template <bool kDerivatives = true>
inline void ihj(double tau, double p, double& f, double& f1, double& f2) {
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
inline void xiong(double tau, double p, double& f, double& f1, double& f2) {
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

// The IHJ model's ordering temperature T* and β from the sums T_C and BMAGN of its parameters (§3.2-§3.6, Inden,
// Proc. CALPHAD V (1976); Hillert and Jarl, Calphad 2 (1978) 227): a negative sum describes antiferromagnetism and
// is divided by the structure's factor afm (-1 for bcc, -3 for the others: T_N = T_C / afm); dtstar and dbeta are
// the slopes dT*/dT_C and dβ/dBMAGN.
struct IhjOrdering {
  double tstar, dtstar, beta, dbeta;
};
inline IhjOrdering ihj_ordering(double tc, double bm, double afm) {
  const double dtstar = tc > 0 ? 1.0 : 1.0 / afm, dbeta = bm > 0 ? 1.0 : 1.0 / afm;
  return {tc > 0 ? tc : tc * (1.0 / afm), dtstar, bm > 0 ? bm : bm * (1.0 / afm), dbeta};
}

// τ = T / T* formed as the grid tables form it (kDivide: T / T*) or as the small jets of CompiledModel::compute do
// (kTimesReciprocal: T * (1 / T*), so that the value of one point agrees with its jets to the last bit). The two
// differ in the last bit, and the answers found on a grid of magnetic phases depend on it (crfe_bcc_magnetic's
// binary diagram): each path keeps its own.
enum class Tau { kDivide, kTimesReciprocal };
template <Tau kTau>
inline double reduced_temperature(double T, double tstar) {
  if constexpr (kTau == Tau::kDivide)
    return T / tstar;
  else
    return T * (1 / tstar);
}

// The magnetic term's value alone (§3.2 IHJ with the partitioned T* and beta; §3.3 Xiong with T_C, T_N and beta).
template <Tau kTau = Tau::kTimesReciprocal>
inline double ihj_value(double T, double tstar, double beta, double p) {
  double f, f1, f2;
  ihj<false>(reduced_temperature<kTau>(T, tstar), p, f, f1, f2);
  return T * std::log1p(beta) * f * R;
}
template <Tau kTau = Tau::kTimesReciprocal>
inline double xiong_value(double T, double tc, double nt, double beta, double p) {
  double fsum = 0;
  for (double crit : {tc, nt}) {
    if (crit == 0) continue;
    double f, f1, f2;
    xiong<false>(reduced_temperature<kTau>(T, crit), p, f, f1, f2);
    fsum = fsum + f;
  }
  return T * std::log1p(beta) * fsum * R;
}

// The magnetic term at the sums T_C, BMAGN and (Xiong's model, afm = 0) T_N added to S, where the model has one
// (IHJ: T* != 0 and β > -1; Xiong: β > -1).
template <Tau kTau>
inline void add_value(const MagneticType& type, double T, double tc, double bm, double nt, double& S) {
  if (type.afm != 0) {
    const IhjOrdering o = ihj_ordering(tc, bm, type.afm);
    if (o.tstar != 0 && o.beta > -1) S += ihj_value<kTau>(T, o.tstar, o.beta, type.p);
  } else if (bm > -1) {
    S += xiong_value<kTau>(T, tc, nt, bm, type.p);
  }
}

}  // namespace pd::models::magnetic
