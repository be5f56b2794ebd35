// Terms of the CEF parameters (§1.2, §2) under a View, for PhaseModel::build (phase_model_terms.hpp).
#include "models/phase_model_terms.hpp"

#include <utility>

namespace pd::models {

Affine var_affine(int idx) {
  Affine a;
  a.lin.push_back({idx, 1.0});
  return a;
}
Affine sum_affine(const std::map<std::string, Affine>& m) {
  Affine r;
  std::map<int, double> acc;
  for (const auto& [_, a] : m) {
    r.c0 += a.c0;
    for (const auto& [i, c] : a.lin) acc[i] += c;
  }
  for (const auto& [i, c] : acc) r.lin.push_back({i, c});
  return r;
}
Affine lin_comb(const Affine& a, double ca, const Affine& b, double cb) {
  std::map<int, double> acc;
  for (const auto& [i, c] : a.lin) acc[i] += ca * c;
  for (const auto& [i, c] : b.lin) acc[i] += cb * c;
  Affine r;
  r.c0 = ca * a.c0 + cb * b.c0;
  for (const auto& [i, c] : acc)
    if (c != 0) r.lin.push_back({i, c});
  return r;
}

std::vector<const Parameter*> phase_params(const std::vector<Parameter>& all, const std::string& phase) {
  std::vector<const Parameter*> out;
  for (const auto& p : all)
    if (p.phase == phase) out.push_back(&p);
  return out;
}

std::string TermBuilder::where(const Parameter* p) const {
  std::string s = "phase " + ph.name + " of " + db.file_name();
  if (p) s += " (line " + std::to_string(p->line) + ")";
  return s;
}
void TermBuilder::fail(const std::string& what, const Parameter* p) const {
  throw CoreError(ErrorCode::Model, what + " in " + where(p));
}
std::string TermBuilder::group_key(const Parameter& p) {
  std::string k = p.type + "|";
  for (const auto& s : p.constituents) {
    for (const auto& c : s) k += c + ",";
    k += ":";
  }
  return k;
}
void TermBuilder::group(const std::vector<Parameter>& all, const std::string& phase) {
  groups.clear();
  for (const auto& p : all)
    if (p.phase == phase) groups[group_key(p)].push_back(&p);
}

int TermBuilder::coef_index(const Parameter& p) {
  auto it = coef_of_expr.find(p.expr);
  if (it != coef_of_expr.end()) return it->second;
  M.exprs_.push_back(p.expr);
  const int k = int(M.exprs_.size()) + 1;
  coef_of_expr.emplace(p.expr, k);
  return k;
}
bool TermBuilder::cef_term(const Parameter& p, const View& v, int coef, double scale, Term& t) {
  if (p.constituents.size() != v.sub.size()) return false;
  std::vector<int> mixing;
  for (size_t s = 0; s < p.constituents.size(); ++s) {
    const auto& arr = p.constituents[s];
    if (arr.empty()) return false;
    for (const auto& c : arr)
      if (c != "*" && !v.sub[s].count(c)) return false;
    if (arr.size() > 1) mixing.push_back(int(s));
  }
  if (mixing.empty() && p.type == "G" && (p.written_as_l || p.order != 0)) return false;
  t = Term{};
  t.coef = coef;
  t.scale = scale;
  for (size_t s = 0; s < p.constituents.size(); ++s)
    for (const auto& c : p.constituents[s])
      t.f.push_back(Factor{c == "*" ? sum_affine(v.sub[s]) : v.sub[s].at(c), false});
  auto aff = [&](int s, const std::string& c) { return c == "*" ? sum_affine(v.sub[s]) : v.sub[s].at(c); };
  const int nu = p.order;
  if (mixing.size() == 1) {
    const int s = mixing[0];
    const auto& arr = p.constituents[s];
    if (arr.size() == 2) {  // (2.2)
      Affine d = lin_comb(aff(s, arr[0]), 1, aff(s, arr[1]), -1);
      for (int k = 0; k < nu; ++k) t.f.push_back(Factor{d, false});
    } else if (arr.size() == 3) {  // (2.3)/(2.4) Muggianu
      if (nu > 2) fail("ternary interaction of order > 2", &p);
      bool lone = true;
      for (const Parameter* q : groups[group_key(p)])
        if (q->order != 0) lone = false;
      if (!lone) {
        Affine sum3 = lin_comb(lin_comb(aff(s, arr[0]), 1, aff(s, arr[1]), 1), 1, aff(s, arr[2]), 1);
        Affine vk = lin_comb(aff(s, arr[nu]), 1, sum3, -1.0 / 3);
        vk.c0 += 1.0 / 3;
        t.f.push_back(Factor{vk, false});
      }
    } else if (nu > 0) {
      fail("interaction of order > 0 with four or more constituents on one sublattice", &p);
    }
  } else if (mixing.size() == 2) {  // (2.5) reciprocal: 1 -> later, 2 -> earlier sublattice
    // Order 0 is a plain product for any number of constituents (a lone order-0 ternary collapses
    // to the product, (2.4)); only order > 0 needs exactly two constituents per mixing sublattice.
    if (nu > 0)
      for (int s : mixing)
        if (p.constituents[s].size() != 2) fail("cross interaction of order > 0 with three or more constituents", &p);
    if (nu > 2) fail("reciprocal interaction of order > 2", &p);
    if (nu > 0) {
      int s = nu == 1 ? mixing[1] : mixing[0];
      const auto& arr = p.constituents[s];
      t.f.push_back(Factor{lin_comb(aff(s, arr[0]), 1, aff(s, arr[1]), -1), false});
    }
  } else if (mixing.size() > 2) {
    if (nu > 0) fail("interaction on three or more sublattices of order > 0", &p);
  }
  if (t.f.size() > 60) fail("parameter with too many factors", &p);
  return true;
}
Poly* TermBuilder::target(const std::string& type) {
  if (type == "G") return &M.G_;
  if (type == "TC") return &M.TC_;
  if (type == "BMAGN" || type == "BM") return &M.BM_;
  if (type == "NT") return &M.NT_;
  if (type == "THETA") return &M.THETA_;
  if (type == "GD") return &M.GD_;
  if (type == "V0") return &M.V0_;
  if (type == "VA") return &M.VA_;
  if (type == "VK") return &M.VK_;
  return nullptr;  // mobility and other non-Gibbs parameter kinds (MQ, MF, DQ, ...): not energy
}
void TermBuilder::add_params(const std::vector<const Parameter*>& ps, const View& v, double scale) {
  for (const Parameter* p : ps) {
    throw_if_cancelled();  // a phase of thousands of parameters takes long to compile
    Poly* tp = target(p->type);
    if (!tp) continue;
    Term t;
    if (!cef_term(*p, v, -1, scale, t)) continue;
    t.coef = coef_index(*p);
    tp->add(std::move(t));
  }
}
bool ModelParts::active(const std::string& sp) const {
  if (sp == "VA") return comps.count("VA") > 0;
  auto it = db.species().find(sp);
  if (it == db.species().end()) return false;
  if (it->second.composition.empty()) return false;
  for (const auto& [el, n] : it->second.composition)
    if (!comps.count(el)) return false;
  return true;
}

double ModelParts::atoms(const std::string& sp) const {
  auto it = db.species().find(sp);
  double n = 0;
  if (it != db.species().end())
    for (const auto& [el, k] : it->second.composition) n += k;
  return n;
}

double ModelParts::charge(const std::string& sp) const {
  auto it = db.species().find(sp);
  return it == db.species().end() ? 0.0 : it->second.charge;
}

}  // namespace pd::models
