// The kinetic parameters of one phase compiled over its site fractions (mobility_model.hpp).
#include "models/mobility_model.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "models/compiled_model.hpp"
#include "models/phase_model_terms.hpp"

namespace pd {
namespace models {
namespace {

int kind_of(const std::string& type) {
  if (type == "MQ") return MobilityModel::MQ;
  if (type == "MF") return MobilityModel::MF;
  if (type == "DQ") return MobilityModel::DQ;
  if (type == "DF") return MobilityModel::DF;
  return -1;
}

// Jonsson's alpha: 0.3 for a bcc-type magnetic model (structure factor 0.4 of Inden-Hillert-Jarl, 0.37 of Xiong),
// 0 for every other (fcc and hcp mobilities are assessed without a magnetic factor).
double ferromagnetic_alpha(const std::optional<MagneticType>& mag) {
  if (!mag) return 0;
  return std::abs(mag->p - 0.4) < 1e-9 || std::abs(mag->p - 0.37) < 1e-9 ? 0.3 : 0.0;
}

class CompiledMobility final : public MobilityModel {
 public:
  std::shared_ptr<CompiledModel> parts;  // holds the variables and the coefficient expressions
  // per element of elements(), per kind
  std::vector<std::array<Poly, kKinds>> sums;
  std::vector<int> present;
  double alpha = 0, structure_p = 0;

  const std::vector<std::string>& elements() const override { return parts->elements_; }
  size_t variable_count() const override { return parts->vars_.size(); }

  Values evaluate(double T, double P, const double* y, double curie, bool has_moment) const override {
    std::vector<TPJet> c(2 + parts->exprs_.size());
    c[0] = TPJet{1, 0, 0, 0, 0, 0};
    c[1] = TPJet{R * T, R, 0, 0, 0, 0};
    auto ctx = parts->db_->make_context(T, P);
    for (size_t k = 0; k < parts->exprs_.size(); ++k) c[2 + k] = parts->db_->evaluate(parts->exprs_[k], *ctx);
    Values v;
    const size_t C = sums.size();
    for (auto& s : v.sums) s.assign(C, 0.0);
    v.present = present;
    v.alpha = alpha;
    v.magnetic_order = alpha > 0 && has_moment && curie > 0 ? magnetic_order_degree(T / curie, structure_p) : 0.0;
    const double nan = std::numeric_limits<double>::quiet_NaN(), RT = R * T;
    v.mobility.assign(C, nan);
    v.diffusivity.assign(C, nan);
    for (size_t e = 0; e < C; ++e) {
      for (int k = 0; k < kKinds; ++k) v.sums[k][e] = sums[e][k].empty() ? 0.0 : sums[e][k].eval_value(c, y);
      if (present[e] & 1)
        v.mobility[e] = std::exp(v.sums[MF][e] / RT + (1 + v.alpha * v.magnetic_order) * v.sums[MQ][e] / RT) / RT;
      if (present[e] & 2) v.diffusivity[e] = std::exp((v.sums[DF][e] + v.sums[DQ][e]) / RT);
    }
    return v;
  }
};

// Adds the kinetic parameters of `phase` among `params` for each element, under view `v` with weight `scale`.
void add_kinetic_terms(ModelParts& P, CompiledMobility& out, const std::vector<Parameter>& params,
                       const std::string& phase, const View& v, double scale) {
  const auto& els = P.M->elements_;
  for (size_t e = 0; e < els.size(); ++e) {
    std::vector<Parameter> own;
    for (const Parameter& p : params)
      if (p.phase == phase && p.phase_qualifier == els[e] && kind_of(p.type) >= 0) own.push_back(p);
    if (own.empty()) continue;
    P.terms.group(own, phase);  // the ternary rule of cef_term looks at the orders of one element's one kind
    for (const Parameter& p : own) {
      Term t;
      if (!P.terms.cef_term(p, v, -1, scale, t)) continue;
      t.coef = P.terms.coef_index(p);
      const int kind = kind_of(p.type);
      out.sums[e][kind].add(std::move(t));
      out.present[e] |= kind <= MobilityModel::MF ? 1 : 2;
    }
  }
}

}  // namespace
}  // namespace models

double magnetic_order_degree(double tau, double p) {
  if (!(tau > 0) || !(p > 0)) return tau > 0 ? 0.0 : 1.0;
  const double scale = 140 * p / 79;
  if (tau < 1) {
    const double t4 = std::pow(tau, 4);
    return 1 -
           scale * (474.0 / 497) * (1 / p - 1) * (t4 / 2 + t4 * std::pow(tau, 6) / 15 + t4 * std::pow(tau, 12) / 40);
  }
  return scale * (std::pow(tau, -4) / 2 + std::pow(tau, -14) / 21 + std::pow(tau, -24) / 60);
}

std::shared_ptr<const MobilityModel> MobilityModel::build(const Database& db, const std::string& phase_in,
                                                          const std::vector<std::string>& components) {
  const PhaseDef* ph = &models::usable_phase(db, phase_in);
  models::ModelParts P(db, *ph);
  if (!models::start_model(P, components)) return nullptr;
  auto out = std::make_shared<models::CompiledMobility>();
  out->parts = P.M;
  out->sums.resize(P.M->elements_.size());
  out->present.assign(P.M->elements_.size(), 0);
  const models::View vy = models::site_fraction_view(P);
  const PhaseDef* dis = ph->disordered_part.empty() ? nullptr : db.phase(ph->disordered_part);
  std::optional<MagneticType> mag = ph->magnetic;
  if (dis && dis->refusal.empty()) {
    const models::OrderDisorderViews views = models::order_disorder_views(P, *dis, vy);
    models::add_kinetic_terms(P, *out, db.parameters(), ph->name, vy, 1.0);
    models::add_kinetic_terms(P, *out, db.parameters(), ph->name, views.ordered_at_x, -1.0);
    models::add_kinetic_terms(P, *out, db.parameters(), dis->name, views.disordered, 1.0);
    if (dis->magnetic) mag = dis->magnetic;
  } else {
    models::add_kinetic_terms(P, *out, db.parameters(), ph->name, vy, 1.0);
  }
  bool any = false;
  for (size_t e = 0; e < out->sums.size(); ++e) {
    any |= out->present[e] != 0;
    for (auto& s : out->sums[e]) s.consolidate();
  }
  if (!any) return nullptr;
  out->alpha = models::ferromagnetic_alpha(mag);
  out->structure_p = mag ? mag->p : 0;
  return out;
}

}  // namespace pd
