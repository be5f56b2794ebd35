// Compiler of the Gibbs-energy models of one phase (formula sheet ../shared/design/calphad-formulas.md §0-§7):
// PhaseModel::build turns a phase's parameters into the flat term lists (poly.hpp) of a CompiledModel
// (compiled_model.hpp, evaluated in compiled_model.cpp) over its site-fraction variables (the terms of one
// parameter: phase_model_terms.cpp; the ionic liquid: phase_model_ionic.cpp):
//   G   : reference (1.1) + excess (2.1-2.5) terms, with the order-disorder bracket (5.2) folded in
//   ID  : ideal configurational terms R T a_s y ln y (1.2, 7.3)
//   NF  : N_f (1.3, 7.1), MA : M_A per element (1.4)
//   TC, BM, NT, THETA, GD, V0, VA, VK : raw RK sums of the physical parameters (§3, §4, §6), partitioned
//   as in (5.3) for an ordered phase.
#include "models/phase_model.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "models/compiled_model.hpp"
#include "models/phase_model_terms.hpp"
#include "models/poly.hpp"

namespace pd {
namespace {
using models::Affine;
using models::Factor;
using models::Jet;
using models::Poly;
using models::Term;

std::string key_of(const Parameter& p) {
  std::ostringstream os;
  os << p.type << '|' << p.phase << '|' << p.order << '|';
  for (const auto& s : p.constituents) {
    for (const auto& c : s) os << c << ',';
    os << ':';
  }
  return os.str();
}

// §5.5: permutations of the first four sublattices for options F (all 24) and B (8: inside the pairs
// {0,1}, {2,3} and swapping the pairs).
std::vector<std::array<int, 4>> symmetry_perms(char option) {
  std::vector<std::array<int, 4>> out;
  if (option == 'F') {
    std::array<int, 4> p{0, 1, 2, 3};
    do out.push_back(p);
    while (std::next_permutation(p.begin(), p.end()));
  } else {
    for (int swapPairs = 0; swapPairs < 2; ++swapPairs)
      for (int s01 = 0; s01 < 2; ++s01)
        for (int s23 = 0; s23 < 2; ++s23) {
          std::array<int, 4> a{s01 ? 1 : 0, s01 ? 0 : 1, s23 ? 3 : 2, s23 ? 2 : 3};
          if (swapPairs) a = {a[2], a[3], a[0], a[1]};
          out.push_back(a);
        }
  }
  return out;
}

char symmetry_option(const PhaseDef& ph) {
  if (ph.disordered_part.empty()) return 0;  // only the ordered phase of a DIS_PART pair (§5.5)
  if (ph.site_ratios.size() < 4) return 0;
  for (char c : ph.options) {
    char u = char(std::toupper(static_cast<unsigned char>(c)));
    if (u == 'F' || u == 'B') return u;
  }
  return 0;
}

}  // namespace

namespace {

// `out` (parameters of the database) with the B/F symmetry copies of each appended (§5.5). A copy only
// depends on its own parameter and phase, so expanding the parameters of some phases gives exactly the
// entries of those phases in the expansion of the whole database, in the same order.
std::vector<Parameter> with_symmetry_copies(std::vector<Parameter> out, const Database& db) {
  std::set<std::string> present;
  for (const auto& p : out) present.insert(key_of(p));
  const size_t n0 = out.size();
  for (size_t k = 0; k < n0; ++k) {
    if ((k & 255) == 0) throw_if_cancelled();  // a large database has tens of thousands of parameters
    const PhaseDef* ph = db.phase(out[k].phase);
    if (!ph) continue;
    char opt = symmetry_option(*ph);
    if (!opt || out[k].constituents.size() < 4) continue;
    for (const auto& perm : symmetry_perms(opt)) {
      Parameter q = out[k];
      for (int s = 0; s < 4; ++s) q.constituents[s] = out[k].constituents[perm[s]];
      std::string key = key_of(q);
      if (present.insert(key).second) out.push_back(q);
    }
  }
  return out;
}

}  // namespace

std::vector<Parameter> expanded_parameters(const Database& db) { return with_symmetry_copies(db.parameters(), db); }

namespace models {
namespace {

// The site-fraction variables of the active constituents, sublattice after sublattice (§1.1, §2.1), and their
// site-sum constraints. False when the phase cannot form from the components.
bool make_variables(ModelParts& P) {
  CompiledModel& M = *P.M;
  const size_t nsub = P.ph.constituents.size();
  P.act.assign(nsub, {});
  for (size_t s = 0; s < nsub; ++s) {
    for (const auto& c : P.ph.constituents[s])
      if (P.active(c)) P.act[s].push_back(c);
    std::sort(P.act[s].begin(), P.act[s].end());
    P.act[s].erase(std::unique(P.act[s].begin(), P.act[s].end()), P.act[s].end());
    if (P.act[s].empty()) return false;
  }
  bool allva = true;
  for (const auto& s : P.act)
    for (const auto& c : s)
      if (c != "VA") allva = false;
  if (allva) return false;
  P.vidx.assign(nsub, {});
  for (size_t s = 0; s < nsub; ++s)
    for (const auto& c : P.act[s]) {
      P.vidx[s][c] = int(M.vars_.size());
      M.vars_.push_back(SiteVariable{int(s), c});
    }
  const int m = int(M.vars_.size());
  for (size_t s = 0; s < nsub; ++s) {
    LinearConstraint lc;
    lc.coeff.assign(m, 0);
    for (const auto& [c, k] : P.vidx[s]) lc.coeff[k] = 1;
    lc.rhs = 1;
    lc.kind = "site_sum";
    M.constraints_.push_back(lc);
  }
  return true;
}

Term unit_term(double scale) {
  Term t;
  t.coef = 0;
  t.scale = scale;
  return t;
}

// Fixed site ratios: N_f and M_A (1.3)/(1.4); electroneutrality (7.5) for charged species.
void fixed_site_moles(ModelParts& P) {
  CompiledModel& M = *P.M;
  const size_t C = M.elements_.size();
  LinearConstraint ch;
  ch.coeff.assign(M.vars_.size(), 0);
  ch.rhs = 0;
  ch.kind = "charge";
  for (size_t s = 0; s < P.vidx.size(); ++s)
    for (const auto& [c, k] : P.vidx[s]) {
      const double a = P.ph.site_ratios[s];
      double q = P.charge(c);
      if (q != 0) {
        ch.coeff[k] = a * q;
        M.charged_ = true;
      }
      Term t = unit_term(a * P.atoms(c));
      t.f = {Factor{var_affine(k), false}};
      if (t.scale != 0) M.NF_.add(t);
      auto it = P.db.species().find(c);
      if (it != P.db.species().end())
        for (size_t e = 0; e < C; ++e) {
          auto f = it->second.composition.find(M.elements_[e]);
          if (f == it->second.composition.end()) continue;
          Term te = unit_term(a * f->second);
          te.f = {Factor{var_affine(k), false}};
          M.MA_[e].add(te);
        }
    }
  if (M.charged_) M.constraints_.push_back(ch);
}

// The ideal configurational terms R T sum_s a_s sum_i y_i ln y_i (1.2) of a view, times scale.
void add_ideal(CompiledModel& M, const std::vector<double>& ratios, const View& v, double scale) {
  for (size_t s = 0; s < v.sub.size(); ++s)
    for (const auto& [c, a] : v.sub[s]) {
      Term t;
      t.coef = 1;
      t.scale = scale * ratios[s];
      t.f = {Factor{a, true}};
      M.ID_.add(t);
    }
}

}  // namespace

View site_fraction_view(const ModelParts& P) {
  View vy;
  vy.sub.resize(P.vidx.size());
  for (size_t s = 0; s < P.vidx.size(); ++s)
    for (const auto& [c, k] : P.vidx[s]) vy.sub[s][c] = var_affine(k);
  return vy;
}

// §5.2-5.4 order-disorder partitioning: G = G^DIS(y^DIS) + G^ORD(y) - G^ORD(y'), where the first sublattices of the
// ordered phase (order_disorder_layout: those that merge into sublattice 1 of the DIS_PART phase) are replaced by
// the disordered fractions x_i (5.1) and the interstitial sublattices keep their own site fractions. A constituent
// absent from some merged sublattices has no site fraction there (Thermo-Calc's rule, database.hpp).
OrderDisorderViews order_disorder_views(const ModelParts& P, const PhaseDef& dis, const View& vy) {
  const OrderDisorderLayout layout = order_disorder_layout(P.ph, dis);
  if (!layout.mismatch.empty())
    throw CoreError(ErrorCode::Model, "order-disorder model of phase " + P.ph.name + " in " + P.db.file_name() +
                                          " does not map: " + layout.mismatch);
  const size_t nS = layout.ordering_sublattices, ndis = dis.constituents.size();
  double sumA = 0;
  for (size_t s = 0; s < nS; ++s) sumA += P.ph.site_ratios[s];
  // x_i (5.1), VA included
  std::map<std::string, Affine> x;
  for (size_t s = 0; s < nS; ++s)
    for (const auto& [c, k] : P.vidx[s]) {
      Affine& a = x[c];
      a.lin.push_back({k, P.ph.site_ratios[s] / sumA});
    }
  OrderDisorderViews v{vy, {}};
  for (size_t s = 0; s < nS; ++s) v.ordered_at_x.sub[s] = x;
  v.disordered.sub.resize(ndis);
  v.disordered.sub[0] = x;
  for (size_t k = 1; k < ndis; ++k) v.disordered.sub[k] = vy.sub[k + nS - 1];
  return v;
}

namespace {

void compile_order_disorder(ModelParts& P, const PhaseDef& dis, const View& vy) {
  const OrderDisorderViews views = order_disorder_views(P, dis, vy);
  const View &vyp = views.ordered_at_x, &vdis = views.disordered;
  CompiledModel& M = *P.M;
  P.terms.group(P.allp, P.ph.name);
  auto ordp = phase_params(P.allp, P.ph.name);
  P.terms.add_params(ordp, vy, 1.0);
  P.terms.add_params(ordp, vyp, -1.0);
  add_ideal(M, P.ph.site_ratios, vy, 1.0);
  add_ideal(M, P.ph.site_ratios, vyp, -1.0);
  P.terms.group(P.allp, dis.name);
  P.terms.add_params(phase_params(P.allp, dis.name), vdis, 1.0);
  add_ideal(M, dis.site_ratios, vdis, 1.0);
  if (dis.magnetic) M.mag_ = dis.magnetic;
}

// A phase with fixed site ratios: its own parameters, or the order-disorder partition with its DIS_PART phase.
void compile_fixed_site_ratios(ModelParts& P) {
  fixed_site_moles(P);
  const View vy = site_fraction_view(P);
  CompiledModel& M = *P.M;
  M.mag_ = P.ph.magnetic;
  if (P.ph.disordered_part.empty()) {
    P.terms.group(P.allp, P.ph.name);
    P.terms.add_params(phase_params(P.allp, P.ph.name), vy, 1.0);
    add_ideal(M, P.ph.site_ratios, vy, 1.0);
    return;
  }
  const PhaseDef* dis = P.db.phase(P.ph.disordered_part);
  if (!dis || !dis->refusal.empty())
    throw CoreError(ErrorCode::Model, "order-disorder model of phase " + P.ph.name + " in " + P.db.file_name() +
                                          ": its DIS_PART phase " + P.ph.disordered_part +
                                          (dis ? " is refused (" + dis->refusal + ")" : " is not defined"));
  compile_order_disorder(P, *dis, vy);
}

}  // namespace

// The model's kind, elements and variables; nullptr when the phase cannot form from the components.
std::shared_ptr<CompiledModel> start_model(ModelParts& P, const std::vector<std::string>& components) {
  for (auto c : components) {
    for (auto& ch : c) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    P.comps.insert(c);
  }
  CompiledModel& M = *P.M;
  M.name_ = P.ph.name;
  M.file_ = P.db.file_name();
  M.db_ = &P.db;
  for (const auto& c : P.comps)
    if (c != "VA") M.elements_.push_back(c);
  std::string opts;
  for (char c : P.ph.options) opts += char(std::toupper(static_cast<unsigned char>(c)));
  M.gas_ = opts.find('G') != std::string::npos;
  M.liquid_ = opts.find('L') != std::string::npos || opts.find('Y') != std::string::npos ||
              P.ph.name.find("LIQ") != std::string::npos;
  M.ionic_ = opts.find('Y') != std::string::npos;
  if (opts.find('A') != std::string::npos)
    throw CoreError(ErrorCode::Model,
                    "aqueous model (phase option A) is not supported: phase " + P.ph.name + " of " + P.db.file_name());
  if (P.ph.constituents.size() != P.ph.site_ratios.size())
    throw CoreError(ErrorCode::Model, "phase " + P.ph.name + " of " + P.db.file_name() +
                                          ": CONSTITUENT and PHASE sublattice counts differ");
  M.nsub_ = int(P.ph.constituents.size());
  if (!make_variables(P)) return nullptr;
  return P.M;
}

}  // namespace models

namespace models {
const PhaseDef& usable_phase(const Database& db, const std::string& name) {
  std::string phase = name;
  for (auto& ch : phase) ch = char(std::toupper(static_cast<unsigned char>(ch)));
  const PhaseDef* ph = db.phase(phase);
  if (!ph) throw CoreError(ErrorCode::Model, "unknown phase " + phase + " in " + db.file_name());
  if (!ph->refusal.empty()) throw CoreError(ErrorCode::Model, ph->refusal);
  return *ph;
}
}  // namespace models

std::shared_ptr<const PhaseModel> PhaseModel::build(const Database& db, const std::string& phase_in,
                                                    const std::vector<std::string>& components) {
  const PhaseDef* ph = &models::usable_phase(db, phase_in);
  const std::string& phase = ph->name;
  models::ModelParts P(db, *ph);
  if (!models::start_model(P, components)) return nullptr;
  // Only this phase's parameters and its disordered part's are used: expanding those alone (not the whole database
  // for every phase) keeps building the models of a large database linear in its size.
  std::vector<Parameter> own;
  for (const auto& p : db.parameters())
    if (p.phase == phase || p.phase == ph->disordered_part) own.push_back(p);
  P.allp = with_symmetry_copies(std::move(own), db);
  models::CompiledModel& M = *P.M;
  M.MA_.assign(M.elements_.size(), models::Poly{});
  if (M.ionic_)
    models::compile_ionic_liquid(P);
  else
    models::compile_fixed_site_ratios(P);
  for (models::Poly* p : {&M.G_, &M.ID_, &M.NF_, &M.TC_, &M.BM_, &M.NT_, &M.THETA_, &M.GD_, &M.V0_, &M.VA_, &M.VK_}) {
    throw_if_cancelled();
    p->consolidate();
  }
  for (models::Poly& p : M.MA_) p.consolidate();
  if (M.mag_ && M.mag_->afm != 0 && M.mag_->p <= 0)
    throw CoreError(ErrorCode::Model,
                    "magnetic model with structure factor p <= 0: phase " + phase + " of " + db.file_name());
  return P.M;
}

}  // namespace pd
