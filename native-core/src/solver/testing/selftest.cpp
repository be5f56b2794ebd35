// TEST-ONLY: self tests of the equilibrium solver on toy models with known answers, plus property
// checks (mass balance, NP >= 0, equal chemical potentials, no point below the tangent hyperplane)
// over pseudo-random conditions, plus finite-difference checks of the dot derivatives (§9.4).
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>

#include "solver/equilibrium.hpp"
#include "solver/testing/toy_models.hpp"

namespace pd::solver::testing {
namespace {

struct Report {
  int passed = 0, failed = 0, verbose = 0;
  std::vector<std::string> msgs;
  void check(bool ok, const std::string& what) {
    if (ok)
      ++passed;
    else {
      ++failed;
      msgs.push_back("FAIL " + what);
    }
    if (verbose) std::fprintf(stderr, "%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  }
};

std::string fmt(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

Conditions conds_x(double T, const std::vector<std::pair<std::string, double>>& xs) {
  Conditions c;
  c.T = T;
  c.P = 101325;
  for (const auto& [e, v] : xs) c.conds.push_back({Condition::X, e, v});
  return c;
}

// Property checks of one result: converged, mass balance, NP >= 0, one tangent hyperplane, and no random point of
// any phase below it.
void properties(Report& rep, EquilibriumSolver& s, const Conditions& c, const EquilibriumResult& r,
                const std::string& tag) {
  rep.check(r.converged, tag + " converged (" + r.reason + ")");
  if (!r.converged) return;
  const int C = static_cast<int>(r.elements.size());
  double np = 0;
  std::vector<double> x(C, 0.0);
  bool nonneg = true;
  double worst_mu = 0;
  for (const auto& st : r.stable) {
    np += st.NP;
    nonneg &= st.NP >= 0;
    double mux = 0;
    for (int A = 0; A < C; ++A) {
      x[A] += st.NP * st.x[A];
      mux += r.mu[A] * st.x[A];
    }
    worst_mu = std::max(worst_mu, std::fabs(mux - st.GM));
  }
  double mb = std::fabs(np - 1);
  for (const auto& k : c.conds)
    if (k.kind == Condition::X) {
      int A = static_cast<int>(std::find(r.elements.begin(), r.elements.end(), k.element) - r.elements.begin());
      mb = std::max(mb, std::fabs(x[A] - std::min(std::max(k.value, 1e-10), 1 - 1e-10)));
    }
  rep.check(mb <= 1e-10, tag + " mass balance " + fmt(mb));
  rep.check(nonneg, tag + " NP >= 0");
  rep.check(worst_mu <= 1e-6, tag + " GM = sum mu x in every stable set, worst " + fmt(worst_mu));
  // no point of any phase below the tangent hyperplane: independent random sampling of every phase
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> U(1e-9, 1.0);
  double worst = -1e300;
  std::string where;
  for (const auto& ph : s.phases()) {
    auto st = ph->prepare(c.T, c.P);
    const auto& vars = ph->variables();
    const int m = static_cast<int>(vars.size());
    int ns = 0;
    for (const auto& v : vars) ns = std::max(ns, v.sublattice + 1);
    std::vector<double> y(m);
    EnergyResult e;
    MolesResult mo;
    for (int p = 0; p < 3000; ++p) {
      for (int i = 0; i < m; ++i) y[i] = -std::log(U(rng)) * (p % 3 == 0 ? 1.0 : std::pow(U(rng), 8));
      for (int sl = 0; sl < ns; ++sl) {
        double sum = 0;
        for (int i = 0; i < m; ++i)
          if (vars[i].sublattice == sl) sum += y[i];
        for (int i = 0; i < m; ++i)
          if (vars[i].sublattice == sl) y[i] = std::max(y[i] / sum, 1e-14);
      }
      ph->moles(y.data(), 0, mo);
      if (mo.Nf < 1e-9) continue;
      ph->energy(*st, y.data(), 0, e);
      double df = -e.GM;
      for (int A = 0; A < C; ++A) df += r.mu[A] * mo.M[A] / mo.Nf;
      if (df > worst) {
        worst = df;
        where = ph->name();
      }
    }
  }
  rep.check(worst <= 1e-4,
            tag + " global minimum: max driving force of random points " + fmt(worst) + " (" + where + ")");
}

// 1. Symmetric miscibility gap (regular solution), exact binodal.
void regular_solution_gap(Report& rep) {
  const double Rg = pd::kGasConstant;
  std::vector<std::string> el = {"A", "B"};
  double L = 20000;
  auto alpha = make_substitutional("ALPHA", el, {"A", "B"}, {G0{0, 0, 0}, G0{0, 0, 0}}, {0, L, 0, 0}, {});
  EquilibriumSolver s({alpha}, {10, 30});
  double T = 800;
  auto c = conds_x(T, {{"B", 0.5}});
  auto r = s.solve(c);
  properties(rep, s, c, r, "gap x=0.5");
  // binodal: ln(x/(1-x)) = -L(1-2x)/(RT), solve by bisection on (0, 0.5)
  double lo = 1e-12, hi = 0.4999;
  for (int i = 0; i < 200; ++i) {
    double mid = 0.5 * (lo + hi);
    double f = std::log(mid / (1 - mid)) + L * (1 - 2 * mid) / (Rg * T);
    (f > 0 ? hi : lo) = mid;
  }
  double xb = 0.5 * (lo + hi);
  rep.check(r.stable.size() == 2,
            "gap x=0.5: two composition sets of ALPHA (got " + std::to_string(r.stable.size()) + ")");
  if (r.stable.size() == 2) {
    double x1 = std::min(r.stable[0].x[1], r.stable[1].x[1]);
    double x2 = std::max(r.stable[0].x[1], r.stable[1].x[1]);
    rep.check(std::fabs(x1 - xb) < 1e-8 && std::fabs(x2 - (1 - xb)) < 1e-8,
              "gap binodal " + fmt(x1) + " " + fmt(x2) + " exact " + fmt(xb));
    rep.check(r.stable[0].set_number + r.stable[1].set_number == 3, "gap set numbers 1 and 2");
  }
  // single phase outside the gap, analytic μ_B = RT ln x + L (1-x)^2
  auto c2 = conds_x(T, {{"B", 0.03}});
  auto r2 = s.solve(c2);
  properties(rep, s, c2, r2, "gap x=0.03");
  rep.check(r2.stable.size() == 1, "x=0.03 single phase");
  double muB = Rg * T * std::log(0.03) + L * 0.97 * 0.97;
  rep.check(std::fabs(r2.mu[1] - muB) < 1e-6, "x=0.03 mu(B) " + fmt(r2.mu[1]) + " analytic " + fmt(muB));
  // dot derivatives against analytic values: MU(A).X(B) = -x_B d2G/dx2, HM.T = 0 (G0 has no c term)
  s.options().derivatives = {"MU(A).X(B)", "HM.T", "GM.X(B)"};
  auto r3 = s.solve(c2);
  double g2 = Rg * T / (0.03 * 0.97) - 2 * L;
  for (auto& [k, v] : r3.derivatives) {
    if (k == "MU(A).X(B)")
      rep.check(std::fabs(v - (-0.03 * g2)) < 1e-6 * std::fabs(g2),
                "MU(A).X(B) " + fmt(v) + " analytic " + fmt(-0.03 * g2));
    if (k == "GM.X(B)") rep.check(std::fabs(v - (r3.mu[1] - r3.mu[0])) < 1e-6, "GM.X(B) = mu_B - mu_A " + fmt(v));
    if (k == "HM.T") rep.check(std::fabs(v) < 1e-8, "HM.T of a T-independent regular solution " + fmt(v));
  }
  s.options().derivatives.clear();
  // random conditions
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> U(0, 1);
  for (int k = 0; k < 20; ++k) {
    double x = U(rng), TT = 500 + 1000 * U(rng);
    auto ck = conds_x(TT, {{"B", x}});
    properties(rep, s, ck, s.solve(ck), "gap random T=" + fmt(TT) + " x=" + fmt(x));
  }
}

// The dot derivatives of the four-phase binary against finite differences: HM, SM and NP with T in a two-phase
// field, μ with X.
void derivatives_by_finite_differences(Report& rep, EquilibriumSolver& s) {
  double T = 700, x = 0.3;
  s.options().derivatives = {"HM.T", "MU(A).X(B)", "SM.T"};
  auto c0 = conds_x(T, {{"B", x}});
  auto r0 = s.solve(c0);
  properties(rep, s, c0, r0, "fd base");
  std::string names;
  for (auto& st : r0.stable) names += st.phase + " ";
  std::vector<std::string> nps;
  for (auto& st : r0.stable) nps.push_back("NP(" + st.phase + ")." + "T");
  s.options().derivatives.insert(s.options().derivatives.end(), nps.begin(), nps.end());
  r0 = s.solve(c0);
  s.options().derivatives.clear();
  double h = 1e-3;
  auto rp = s.solve(conds_x(T + h, {{"B", x}})), rm = s.solve(conds_x(T - h, {{"B", x}}));
  auto xp = s.solve(conds_x(T, {{"B", x + 1e-6}})), xm = s.solve(conds_x(T, {{"B", x - 1e-6}}));
  for (auto& [k, v] : r0.derivatives) {
    double fd = NAN;
    if (k == "HM.T") fd = (rp.HM - rm.HM) / (2 * h);
    if (k == "SM.T") fd = (rp.SM - rm.SM) / (2 * h);
    if (k == "MU(A).X(B)") fd = (xp.mu[0] - xm.mu[0]) / 2e-6;
    if (k.rfind("NP(", 0) == 0) {
      std::string ph = k.substr(3, k.find(')') - 3);
      double a = 0, b = 0;
      for (auto& st : rp.stable)
        if (st.phase == ph) a += st.NP;
      for (auto& st : rm.stable)
        if (st.phase == ph) b += st.NP;
      fd = (a - b) / (2 * h);
    }
    rep.check(std::fabs(v - fd) <= 1e-4 * std::max(1.0, std::fabs(fd)),
              "dot derivative " + k + " in [" + names + "] " + fmt(v) + " vs finite difference " + fmt(fd));
  }
}

// 2. Binary with liquid, asymmetric solid with gap, compound AB; derivatives by finite differences; a mass-fraction
// condition.
void binary_four_phases(Report& rep) {
  std::vector<std::string> el = {"A", "B"};
  auto liq =
      make_substitutional("LIQUID", el, {"A", "B"}, {G0{10000, -10, 0}, G0{12000, -10, 0}}, {0, -5000, 0, 0}, {});
  auto fcc = make_substitutional("FCC", el, {"A", "B"}, {G0{0, 0, 0}, G0{2000, 0, 0}}, {0, 18000, 0, 0}, {0, 0, 0, 0});
  auto ab = make_compound("AB", el, {{"A", 0.5}, {"B", 0.5}}, G0{-4500, 1.0, 0});
  auto bcc = make_substitutional("BCC", el, {"A", "B"}, {G0{3000, -1, 0}, G0{0, 0, 0}}, {0, 5000, 0, 0}, {});
  EquilibriumSolver s({liq, fcc, ab, bcc}, {10, 30});
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> U(0, 1);
  for (int k = 0; k < 40; ++k) {
    double x = U(rng), T = 300 + 1500 * U(rng);
    if (k == 0) x = 0.5, T = 600;
    auto ck = conds_x(T, {{"B", x}});
    properties(rep, s, ck, s.solve(ck), "4-phase random T=" + fmt(T) + " x=" + fmt(x));
  }
  derivatives_by_finite_differences(rep, s);
  // mass-fraction condition
  Conditions cw;
  cw.T = 900;
  cw.conds.push_back({Condition::W, "B", 0.4});
  auto rw = s.solve(cw);
  rep.check(rw.converged, "W(B)=0.4 converged (" + rw.reason + ")");
  double wB = rw.x[1] * 30 / (rw.x[0] * 10 + rw.x[1] * 30);
  rep.check(std::fabs(wB - 0.4) < 1e-10, "W(B)=0.4 reproduced: " + fmt(wB));
}

// 3. Ideal ternary: μ_A = G0_A + RT ln x_A; a fixed-μ condition reproduces X.
void ideal_ternary(Report& rep) {
  const double Rg = pd::kGasConstant;
  std::vector<std::string> el = {"A", "B", "C"};
  auto id = make_substitutional("IDEAL", el, {"A", "B", "C"}, {G0{-1000, 0, 0}, G0{500, -2, 0}, G0{0, 1, 0}}, {}, {});
  EquilibriumSolver s({id}, {1, 2, 3});
  double T = 1000;
  auto c = conds_x(T, {{"B", 0.2}, {"C", 0.5}});
  auto r = s.solve(c);
  properties(rep, s, c, r, "ideal ternary");
  double g0[3] = {-1000, 500 - 2 * T, T};
  double xs[3] = {0.3, 0.2, 0.5};
  double worst = 0;
  for (int A = 0; A < 3; ++A) worst = std::max(worst, std::fabs(r.mu[A] - (g0[A] + Rg * T * std::log(xs[A]))));
  rep.check(worst < 1e-7, "ideal ternary mu exact, worst " + fmt(worst));
  Conditions cm;
  cm.T = T;
  cm.conds.push_back({Condition::MU, "B", g0[1] + Rg * T * std::log(0.2)});
  cm.conds.push_back({Condition::X, "C", 0.5});
  auto rm = s.solve(cm);
  rep.check(rm.converged && std::fabs(rm.x[1] - 0.2) < 1e-8,
            "MU(B) condition gives X(B)=0.2: " + fmt(rm.x.empty() ? NAN : rm.x[1]) + " " + rm.reason);
}

// A batch over 2 threads equals the serial results, and its cancel flag stops it.
void batch_and_cancel(Report& rep, EquilibriumSolver& s) {
  std::vector<Conditions> cs;
  for (int k = 0; k < 30; ++k) cs.push_back(conds_x(500 + 30 * k, {{"B", 0.2}, {"C", 0.1 + 0.01 * k}}));
  int32_t cancel = 0;
  double progress = 0;
  auto br = s.solve_batch(cs, 2, &cancel, &progress);
  bool same = progress == 1.0;
  for (size_t k = 0; k < cs.size(); ++k) {
    auto r = s.solve(cs[k]);
    same &= r.converged == br[k].converged && std::fabs(r.GM - br[k].GM) < 1e-8;
  }
  rep.check(same, "batch (2 threads) equals serial results, progress " + fmt(progress));
  cancel = 1;
  auto bc = s.solve_batch(cs, 2, &cancel, nullptr);
  bool allc = true;
  for (auto& r : bc) allc &= !r.converged && r.reason == "cancelled";
  rep.check(allc, "cancel flag stops a batch");
}

// 4. Ternary with an interstitial phase (N_f varies) and a compound; batches.
void interstitial_ternary(Report& rep) {
  std::vector<std::string> el = {"A", "B", "C"};
  auto liq = make_substitutional("LIQUID", el, {"A", "B", "C"}, {G0{8000, -8, 0}, G0{9000, -8, 0}, G0{15000, -5, 0}},
                                 {0, -8000, 2000, 0, 0, -3000, 0, 0, 0}, {});
  auto fcc = make_interstitial("FCC", el, "A", "B", "C", G0{-30000, 5, 0}, G0{-20000, 6, 0}, G0{0, 0, 0},
                               G0{1000, 0, 0}, 15000);
  auto cmp = make_compound("A2C", el, {{"A", 2}, {"C", 1}}, G0{-18000, 2, 0});
  EquilibriumSolver s({liq, fcc, cmp}, {10, 20, 12});
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> U(0, 1);
  for (int k = 0; k < 40; ++k) {
    double a = U(rng), b = U(rng), cc = U(rng);
    double sum = a + b + cc;
    double T = 400 + 1400 * U(rng);
    auto ck = conds_x(T, {{"B", b / sum}, {"C", cc / sum}});
    properties(rep, s, ck, s.solve(ck), "ternary random T=" + fmt(T) + " xB=" + fmt(b / sum) + " xC=" + fmt(cc / sum));
  }
  batch_and_cancel(rep, s);
}

// The report as JSON: {"passed": n, "failed": n, "messages": [...]}.
std::string report_json(const Report& rep) {
  std::ostringstream os;
  os << "{\"passed\":" << rep.passed << ",\"failed\":" << rep.failed << ",\"messages\":[";
  for (size_t i = 0; i < rep.msgs.size(); ++i) {
    std::string m = rep.msgs[i];
    std::string esc;
    for (char ch : m) {
      if (ch == '"' || ch == '\\') esc += '\\';
      esc += ch;
    }
    os << (i ? "," : "") << "\"" << esc << "\"";
  }
  os << "]}";
  return os.str();
}

}  // namespace

std::string run_self_test(int verbose) {
  Report rep;
  rep.verbose = verbose;
  regular_solution_gap(rep);
  binary_four_phases(rep);
  ideal_ternary(rep);
  interstitial_ternary(rep);
  return report_json(rep);
}

}  // namespace pd::solver::testing
