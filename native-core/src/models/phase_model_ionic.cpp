// The two-sublattice ionic liquid (C+)_P (A-, Va, B0)_Q (formula sheet §7; Hillert et al., Metall. Trans. A 16 (1985)
// 261; Sundman, Calphad 15 (1991) 109): the ideal term, N_f and M_A with the variable site ratios P and Q (7.1),
// and the parameters (7.2)/(7.4). Part of PhaseModel::build (phase_model.cpp).
#include <algorithm>

#include "models/phase_model_terms.hpp"

namespace pd::models {

namespace {

// The site ratios of the ionic liquid as affine forms: Q = sum_i q_i y_i over the cations, and y_Va (P = sum_j |q_j|
// y_j + Q y_Va over the anion sublattice, expanded into terms by add_P_times).
struct IonicSites {
  Affine Q, yVa;
  bool hasVa = false;
};

// poly += scale * P * f, expanded into terms (7.1)
void add_P_times(ModelParts& P, const IonicSites& sites, Poly& poly, int coef, double scale, const Factor& f) {
  for (const auto& c : P.act[1]) {
    double q = P.charge(c);
    if (q < 0) {
      Term t;
      t.coef = coef;
      t.scale = scale * -q;
      t.f = {Factor{var_affine(P.vidx[1][c]), false}, f};
      poly.add(t);
    }
  }
  if (sites.hasVa) {
    Term t;
    t.coef = coef;
    t.scale = scale;
    t.f = {Factor{sites.Q, false}, Factor{sites.yVa, false}, f};
    poly.add(t);
  }
}

// poly += scale * Q * f
void add_Q_times(const IonicSites& sites, Poly& poly, int coef, double scale, const Factor& f) {
  Term t;
  t.coef = coef;
  t.scale = scale;
  t.f = {Factor{sites.Q, false}, f};
  poly.add(t);
}

// The ideal term, N_f and M_A: cations on P sites, anions, vacancies and neutrals on Q sites.
void ionic_liquid_moles(ModelParts& P, const IonicSites& sites) {
  CompiledModel& M = *P.M;
  const size_t C = M.elements_.size();
  for (const auto& c : P.act[0]) {
    add_P_times(P, sites, M.ID_, 1, 1, Factor{var_affine(P.vidx[0][c]), true});
    add_P_times(P, sites, M.NF_, 0, P.atoms(c), Factor{var_affine(P.vidx[0][c]), false});
    auto it = P.db.species().find(c);
    for (size_t a = 0; a < C; ++a) {
      auto e = it->second.composition.find(M.elements_[a]);
      if (e != it->second.composition.end())
        add_P_times(P, sites, M.MA_[a], 0, e->second, Factor{var_affine(P.vidx[0][c]), false});
    }
  }
  for (const auto& c : P.act[1]) {
    add_Q_times(sites, M.ID_, 1, 1, Factor{var_affine(P.vidx[1][c]), true});
    if (c == "VA") continue;
    add_Q_times(sites, M.NF_, 0, P.atoms(c), Factor{var_affine(P.vidx[1][c]), false});
    auto it = P.db.species().find(c);
    for (size_t a = 0; a < C; ++a) {
      auto e = it->second.composition.find(M.elements_[a]);
      if (e != it->second.composition.end())
        add_Q_times(sites, M.MA_[a], 0, e->second, Factor{var_affine(P.vidx[1][c]), false});
    }
  }
}

// One parameter (7.2)/(7.4): the anion sublattice ordered charged, VA, neutral; neutral terms without the cation
// and multiplied by Q, vacancy terms by Q (and y_Va again for L_{i1,i2:Va}).
void add_ionic_parameter(ModelParts& P, const IonicSites& sites, const Parameter& pp, Poly& poly) {
  auto anion_rank = [&](const std::string& c) { return c == "VA" ? 1 : (P.charge(c) != 0 ? 0 : 2); };
  Parameter p = pp;
  if (p.constituents.size() == 1) p.constituents = {{"*"}, p.constituents[0]};  // neutral-only: anion sublattice
  if (p.constituents.size() != 2) return;
  for (size_t s = 0; s < 2; ++s)
    for (const auto& c : p.constituents[s])
      if (c != "*" && !P.vidx[s].count(c)) return;
  std::stable_sort(p.constituents[1].begin(), p.constituents[1].end(), [&](const std::string& a, const std::string& b) {
    int ra = anion_rank(a), rb = anion_rank(b);
    return ra != rb ? ra < rb : a < b;
  });
  bool anion = false, va = false;
  for (const auto& c : p.constituents[1]) {
    if (c != "*" && P.charge(c) < 0) anion = true;
    if (c == "VA") va = true;
  }
  View v;
  v.sub.resize(2);
  for (size_t s = 0; s < 2; ++s)
    for (const auto& [c, k] : P.vidx[s]) v.sub[s][c] = var_affine(k);
  Term t;
  Parameter q = p;
  if (!anion && !va) q.constituents[0] = {"*"};  // neutral terms: cation irrelevant (7.2, 7.4)
  if (!P.terms.cef_term(q, v, -1, 1.0, t)) return;
  if (!anion && !va) {
    // drop the cation '*' factor (it is the first factor), multiply by Q
    t.f.erase(t.f.begin());
    t.f.push_back(Factor{sites.Q, false});
  } else if (!anion && va) {
    t.f.push_back(Factor{sites.Q, false});
    if (q.constituents[0].size() >= 2) t.f.push_back(Factor{sites.yVa, false});  // L_{i1,i2:Va}: y_Va^2
  }
  t.coef = P.terms.coef_index(pp);
  poly.add(std::move(t));
}

}  // namespace

void compile_ionic_liquid(ModelParts& P) {
  if (P.act.size() != 2)
    throw CoreError(ErrorCode::Model,
                    "ionic liquid " + P.ph.name + " of " + P.db.file_name() + " needs two sublattices");
  IonicSites sites;
  for (const auto& c : P.act[0]) sites.Q.lin.push_back({P.vidx[0][c], P.charge(c)});
  sites.hasVa = P.vidx[1].count("VA") > 0;
  if (sites.hasVa) sites.yVa = var_affine(P.vidx[1]["VA"]);
  ionic_liquid_moles(P, sites);
  P.terms.group(P.allp, P.ph.name);
  for (const Parameter* pp : phase_params(P.allp, P.ph.name)) {
    Poly* tp = P.terms.target(pp->type);
    if (tp) add_ionic_parameter(P, sites, *pp, *tp);
  }
}

}  // namespace pd::models
