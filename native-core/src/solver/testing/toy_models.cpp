// TEST-ONLY toy phase models (see toy_models.hpp). A small generic compound-energy-formalism evaluator
// (§1.1-§1.4 of the formula sheet: end members, ideal mixing, N_f normalisation) plus regular binary
// interactions, with exact first and second derivatives in (T, P, y).
#include "solver/testing/toy_models.hpp"

#include <cmath>
#include <stdexcept>

namespace pd::solver::testing {
namespace {

constexpr double R = pd::kGasConstant;

struct Interaction {
  int a, b;  // variable indices (same sublattice)
  double L0, L1;
};

class ToyCEF : public PhaseModel {
 public:
  std::string name_;
  std::vector<std::string> elements_;
  std::vector<SiteVariable> vars_;
  std::vector<int> var_el_;    // element index or -1 (VA)
  std::vector<double> ratio_;  // per sublattice
  std::vector<std::vector<int>> subl_;
  std::vector<LinearConstraint> cons_;
  std::vector<std::vector<int>> ends_;  // end members: one variable per sublattice
  std::vector<G0> g0_;
  std::vector<Interaction> inter_;

  const std::string& name() const override { return name_; }
  const std::vector<std::string>& elements() const override { return elements_; }
  const std::vector<SiteVariable>& variables() const override { return vars_; }
  const std::vector<LinearConstraint>& constraints() const override { return cons_; }
  int num_sublattices() const override { return static_cast<int>(subl_.size()); }
  bool is_charged() const override { return false; }
  bool is_ionic_liquid() const override { return false; }
  bool is_gas() const override { return false; }
  bool is_liquid() const override { return false; }

  struct St : State {};
  std::unique_ptr<State> prepare(double T, double P) const override {
    auto s = std::make_unique<St>();
    s->T = T;
    s->P = P;
    return s;
  }

  void finish() {
    for (size_t s = 0; s < subl_.size(); ++s) {
      LinearConstraint c;
      c.coeff.assign(vars_.size(), 0.0);
      for (int i : subl_[s]) c.coeff[i] = 1;
      c.rhs = 1;
      c.kind = "site_sum";
      cons_.push_back(c);
    }
    // every end member (product over sublattices)
    std::vector<int> idx(subl_.size(), 0);
    for (;;) {
      std::vector<int> e(subl_.size());
      for (size_t s = 0; s < subl_.size(); ++s) e[s] = subl_[s][idx[s]];
      ends_.push_back(e);
      size_t s = 0;
      for (; s < subl_.size(); ++s) {
        if (++idx[s] < static_cast<int>(subl_[s].size())) break;
        idx[s] = 0;
      }
      if (s == subl_.size()) break;
    }
    if (g0_.size() != ends_.size()) throw std::invalid_argument("toy model: one G0 per end member needed");
  }

  void energy(const State& st, const double* y, int order, EnergyResult& out) const override {
    const int m = static_cast<int>(vars_.size()), n = m + 2;
    const double T = st.T;
    double G = 0;
    std::vector<double> g(n, 0.0), h(static_cast<size_t>(n) * n, 0.0);
    for (size_t e = 0; e < ends_.size(); ++e) {
      const G0& p = g0_[e];
      double v = p.a + p.b * T + p.c * T * std::log(T);
      double vt = p.b + p.c * (std::log(T) + 1);
      double vtt = p.c / T;
      double prod = 1;
      for (int k : ends_[e]) prod *= y[k];
      G += v * prod;
      g[0] += vt * prod;
      h[0] += vtt * prod;
      for (size_t s = 0; s < ends_[e].size(); ++s) {
        int k = ends_[e][s];
        double pk = 1;
        for (size_t t = 0; t < ends_[e].size(); ++t)
          if (t != s) pk *= y[ends_[e][t]];
        g[2 + k] += v * pk;
        h[(2 + k) * n] += vt * pk;
        h[2 + k] += vt * pk;
        for (size_t t = 0; t < ends_[e].size(); ++t) {
          if (t == s) continue;
          int l = ends_[e][t];
          double pkl = 1;
          for (size_t u = 0; u < ends_[e].size(); ++u)
            if (u != s && u != t) pkl *= y[ends_[e][u]];
          h[(2 + k) * n + 2 + l] += v * pkl;
        }
      }
    }
    for (size_t s = 0; s < subl_.size(); ++s)
      for (int k : subl_[s]) {
        double yk = y[k];
        if (yk <= 1e-15) continue;  // y ln y := 0 (§1.3)
        double a = ratio_[s];
        G += R * T * a * yk * std::log(yk);
        g[0] += R * a * yk * std::log(yk);
        g[2 + k] += R * T * a * (std::log(yk) + 1);
        h[(2 + k) * n] += R * a * (std::log(yk) + 1);
        h[2 + k] += R * a * (std::log(yk) + 1);
        h[(2 + k) * n + 2 + k] += R * T * a / yk;
      }
    for (const auto& it : inter_) {
      double L = it.L0 + it.L1 * T;
      G += L * y[it.a] * y[it.b];
      g[0] += it.L1 * y[it.a] * y[it.b];
      g[2 + it.a] += L * y[it.b];
      g[2 + it.b] += L * y[it.a];
      h[(2 + it.a) * n] += it.L1 * y[it.b];
      h[2 + it.a] += it.L1 * y[it.b];
      h[(2 + it.b) * n] += it.L1 * y[it.a];
      h[2 + it.b] += it.L1 * y[it.a];
      h[(2 + it.a) * n + 2 + it.b] += L;
      h[(2 + it.b) * n + 2 + it.a] += L;
    }
    // per mole of atoms: GM = Gf / N_f (0.1)
    double Nf = 0;
    std::vector<double> dN(n, 0.0);
    for (size_t s = 0; s < subl_.size(); ++s)
      for (int k : subl_[s])
        if (var_el_[k] >= 0) {
          Nf += ratio_[s] * y[k];
          dN[2 + k] = ratio_[s];
        }
    out.Gf = G;
    out.GM = G / Nf;
    if (order >= 1) {
      out.dGf = g;
      out.dGM.assign(n, 0.0);
      for (int i = 0; i < n; ++i) out.dGM[i] = g[i] / Nf - G * dN[i] / (Nf * Nf);
    }
    if (order >= 2) {
      out.d2Gf = h;
      out.d2GM.assign(static_cast<size_t>(n) * n, 0.0);
      // d2(G/N) with N linear: h/N - (g_i dN_j + g_j dN_i)/N^2 + 2 G dN_i dN_j / N^3
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          out.d2GM[i * n + j] =
              h[i * n + j] / Nf - (g[i] * dN[j] + g[j] * dN[i]) / (Nf * Nf) + 2 * G * dN[i] * dN[j] / (Nf * Nf * Nf);
    }
  }

  void energies(const State& st, const double* Y, size_t np, double* GM) const override {
    EnergyResult r;
    const size_t m = vars_.size();
    for (size_t p = 0; p < np; ++p) {
      energy(st, Y + p * m, 0, r);
      GM[p] = r.GM;
    }
  }

  void moles(const double* y, int order, MolesResult& out) const override {
    const int m = static_cast<int>(vars_.size());
    const int C = static_cast<int>(elements_.size());
    out.M.assign(C, 0.0);
    out.dM.assign(static_cast<size_t>(C) * m, 0.0);
    out.d2M.clear();
    out.Nf = 0;
    for (size_t s = 0; s < subl_.size(); ++s)
      for (int k : subl_[s])
        if (var_el_[k] >= 0) {
          out.M[var_el_[k]] += ratio_[s] * y[k];
          out.dM[var_el_[k] * m + k] += ratio_[s];
          out.Nf += ratio_[s] * y[k];
        }
  }

  PhaseProperties properties(const State& st, const double* y) const override { return {}; }
};

int element_index(const std::vector<std::string>& el, const std::string& e) {
  if (e == "VA") return -1;
  for (size_t i = 0; i < el.size(); ++i)
    if (el[i] == e) return static_cast<int>(i);
  throw std::invalid_argument("toy model: unknown element " + e);
}

}  // namespace

std::shared_ptr<const PhaseModel> make_substitutional(const std::string& name, const std::vector<std::string>& elements,
                                                      const std::vector<std::string>& constituents,
                                                      const std::vector<G0>& g0, const std::vector<double>& L0,
                                                      const std::vector<double>& L1) {
  auto p = std::make_shared<ToyCEF>();
  p->name_ = name;
  p->elements_ = elements;
  p->ratio_ = {1.0};
  p->subl_.resize(1);
  const int nc = static_cast<int>(constituents.size());
  for (int i = 0; i < nc; ++i) {
    p->vars_.push_back({0, constituents[i]});
    p->var_el_.push_back(element_index(elements, constituents[i]));
    p->subl_[0].push_back(i);
  }
  p->g0_ = g0;
  for (int i = 0; i < nc; ++i)
    for (int j = i + 1; j < nc; ++j) {
      double a = L0.empty() ? 0 : L0[i * nc + j], b = L1.empty() ? 0 : L1[i * nc + j];
      if (a != 0 || b != 0) p->inter_.push_back({i, j, a, b});
    }
  p->finish();
  return p;
}

std::shared_ptr<const PhaseModel> make_compound(const std::string& name, const std::vector<std::string>& elements,
                                                const std::vector<std::pair<std::string, double>> sublattices, G0 gm) {
  auto p = std::make_shared<ToyCEF>();
  p->name_ = name;
  p->elements_ = elements;
  double Nf = 0;
  for (size_t s = 0; s < sublattices.size(); ++s) {
    p->vars_.push_back({static_cast<int>(s), sublattices[s].first});
    p->var_el_.push_back(element_index(elements, sublattices[s].first));
    p->ratio_.push_back(sublattices[s].second);
    p->subl_.push_back({static_cast<int>(s)});
    if (p->var_el_.back() >= 0) Nf += sublattices[s].second;
  }
  p->g0_ = {G0{gm.a * Nf, gm.b * Nf, gm.c * Nf}};
  p->finish();
  return p;
}

std::shared_ptr<const PhaseModel> make_interstitial(const std::string& name, const std::vector<std::string>& elements,
                                                    const std::string& A, const std::string& B, const std::string& Cel,
                                                    G0 gAC, G0 gBC, G0 gAVA, G0 gBVA, double Lab) {
  auto p = std::make_shared<ToyCEF>();
  p->name_ = name;
  p->elements_ = elements;
  p->ratio_ = {1.0, 1.0};
  p->vars_ = {{0, A}, {0, B}, {1, Cel}, {1, "VA"}};
  p->var_el_ = {element_index(elements, A), element_index(elements, B), element_index(elements, Cel), -1};
  p->subl_ = {{0, 1}, {2, 3}};
  // end-member order of finish(): first sublattice fastest: A:C, B:C, A:VA, B:VA
  p->g0_ = {gAC, gBC, gAVA, gBVA};
  if (Lab != 0) p->inter_.push_back({0, 1, Lab, 0});
  p->finish();
  return p;
}

}  // namespace pd::solver::testing
