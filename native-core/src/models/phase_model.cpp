// Compiler of the Gibbs-energy models of one phase (formula sheet ../shared/design/calphad-formulas.md §0-§7):
// PhaseModel::build turns a phase's parameters into the flat term lists (poly.hpp) of a CompiledModel
// (compiled_model.hpp, evaluated in compiled_model.cpp) over its site-fraction variables:
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

namespace {

// Maps a (sublattice, species) of some phase's parameter array to an affine form of the variables.
struct View {
  // per sublattice: species -> affine; order of keys is irrelevant
  std::vector<std::map<std::string, Affine>> sub;
};

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

using models::CompiledModel;

// ---------------------------------------------------------------------------------------------
// Compiler

struct Builder {
  const Database& db;
  const PhaseDef& ph;
  CompiledModel& M;
  std::map<std::string, std::vector<const Parameter*>> groups;  // (type, array) -> orders present

  std::string where(const Parameter* p = nullptr) const {
    std::string s = "phase " + ph.name + " of " + db.file_name();
    if (p) s += " (line " + std::to_string(p->line) + ")";
    return s;
  }
  [[noreturn]] void fail(const std::string& what, const Parameter* p = nullptr) const {
    throw CoreError(ErrorCode::Model, what + " in " + where(p));
  }

  static std::string group_key(const Parameter& p) {
    std::string k = p.type + "|";
    for (const auto& s : p.constituents) {
      for (const auto& c : s) k += c + ",";
      k += ":";
    }
    return k;
  }

  // One coefficient per distinct expression: the B/F symmetry copies of a parameter (§5.5) share their
  // expression, so they share the prepared value (fewer evaluations per (T,P), narrower PointSet tables).
  std::map<ExprId, int> coef_of_expr;
  int coef_index(const Parameter& p) {
    auto it = coef_of_expr.find(p.expr);
    if (it != coef_of_expr.end()) return it->second;
    M.exprs_.push_back(p.expr);
    const int k = int(M.exprs_.size()) + 1;
    coef_of_expr.emplace(p.expr, k);
    return k;
  }

  double charge(const std::string& sp) const {
    auto it = db.species().find(sp);
    return it == db.species().end() ? 0 : it->second.charge;
  }

  // Builds the term of a CEF parameter (§1.2, §2) under the given view. Returns false when the
  // parameter does not apply (inactive constituent, L end member).
  bool cef_term(const Parameter& p, const View& v, int coef, double scale, Term& t) {
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

  Poly* target(const std::string& type) {
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

  void add_params(const std::vector<const Parameter*>& ps, const View& v, double scale) {
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
};

std::vector<const Parameter*> phase_params(const std::vector<Parameter>& all, const std::string& phase) {
  std::vector<const Parameter*> out;
  for (const auto& p : all)
    if (p.phase == phase) out.push_back(&p);
  return out;
}

}  // namespace

std::shared_ptr<const PhaseModel> PhaseModel::build(const Database& db, const std::string& phase_in,
                                                    const std::vector<std::string>& components) {
  std::string phase = phase_in;
  for (auto& ch : phase) ch = char(std::toupper(static_cast<unsigned char>(ch)));
  const PhaseDef* ph = db.phase(phase);
  if (!ph) throw CoreError(ErrorCode::Model, "unknown phase " + phase + " in " + db.file_name());
  if (!ph->refusal.empty()) throw CoreError(ErrorCode::Model, ph->refusal);
  std::set<std::string> comps;
  for (auto c : components) {
    for (auto& ch : c) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    comps.insert(c);
  }
  auto M = std::make_shared<CompiledModel>();
  M->name_ = phase;
  M->file_ = db.file_name();
  M->db_ = &db;
  for (const auto& c : comps)
    if (c != "VA") M->elements_.push_back(c);
  std::string opts;
  for (char c : ph->options) opts += char(std::toupper(static_cast<unsigned char>(c)));
  M->gas_ = opts.find('G') != std::string::npos;
  M->liquid_ = opts.find('L') != std::string::npos || opts.find('Y') != std::string::npos ||
               phase.find("LIQ") != std::string::npos;
  M->ionic_ = opts.find('Y') != std::string::npos;
  if (opts.find('A') != std::string::npos)
    throw CoreError(ErrorCode::Model,
                    "aqueous model (phase option A) is not supported: phase " + phase + " of " + db.file_name());

  auto active = [&](const std::string& sp) {
    if (sp == "VA") return comps.count("VA") > 0;
    auto it = db.species().find(sp);
    if (it == db.species().end()) return false;
    if (it->second.composition.empty()) return false;
    for (const auto& [el, n] : it->second.composition)
      if (!comps.count(el)) return false;
    return true;
  };
  auto atoms = [&](const std::string& sp) {
    auto it = db.species().find(sp);
    double n = 0;
    if (it != db.species().end())
      for (const auto& [el, k] : it->second.composition) n += k;
    return n;
  };
  auto charge = [&](const std::string& sp) {
    auto it = db.species().find(sp);
    return it == db.species().end() ? 0.0 : it->second.charge;
  };

  const size_t nsub = ph->constituents.size();
  if (nsub != ph->site_ratios.size())
    throw CoreError(ErrorCode::Model,
                    "phase " + phase + " of " + db.file_name() + ": CONSTITUENT and PHASE sublattice counts differ");
  M->nsub_ = int(nsub);
  // active constituents per sublattice, sorted (§2.1); ionic-liquid anion order: charged, VA, neutral
  std::vector<std::vector<std::string>> act(nsub);
  for (size_t s = 0; s < nsub; ++s) {
    for (const auto& c : ph->constituents[s])
      if (active(c)) act[s].push_back(c);
    std::sort(act[s].begin(), act[s].end());
    act[s].erase(std::unique(act[s].begin(), act[s].end()), act[s].end());
    if (act[s].empty()) return nullptr;
  }
  {
    bool allva = true;
    for (const auto& s : act)
      for (const auto& c : s)
        if (c != "VA") allva = false;
    if (allva) return nullptr;
  }
  std::vector<std::map<std::string, int>> vidx(nsub);
  for (size_t s = 0; s < nsub; ++s)
    for (const auto& c : act[s]) {
      vidx[s][c] = int(M->vars_.size());
      M->vars_.push_back(SiteVariable{int(s), c});
    }
  const int m = int(M->vars_.size());
  for (size_t s = 0; s < nsub; ++s) {
    LinearConstraint lc;
    lc.coeff.assign(m, 0);
    for (const auto& [c, k] : vidx[s]) lc.coeff[k] = 1;
    lc.rhs = 1;
    lc.kind = "site_sum";
    M->constraints_.push_back(lc);
  }

  // Only this phase's parameters and its disordered part's are used below: expanding those alone (not the
  // whole database for every phase) keeps building the models of a large database linear in its size.
  std::vector<Parameter> own;
  for (const auto& p : db.parameters())
    if (p.phase == phase || p.phase == ph->disordered_part) own.push_back(p);
  const std::vector<Parameter> allp = with_symmetry_copies(std::move(own), db);
  Builder B{db, *ph, *M, {}, {}};
  for (const auto& p : allp)
    if (p.phase == phase || p.phase == ph->disordered_part) B.groups[Builder::group_key(p) + p.phase].push_back(&p);
  // group lookup uses the key without the phase suffix; rebuild per phase below
  auto regroup = [&](const std::string& ph_name) {
    B.groups.clear();
    for (const auto& p : allp)
      if (p.phase == ph_name) B.groups[Builder::group_key(p)].push_back(&p);
  };

  auto unit = [](double s) {
    Term t;
    t.coef = 0;
    t.scale = s;
    return t;
  };
  const size_t C = M->elements_.size();
  M->MA_.assign(C, Poly{});

  if (M->ionic_) {
    // §7 two-sublattice ionic liquid (C+)_P (A-, Va, B0)_Q
    if (nsub != 2)
      throw CoreError(ErrorCode::Model, "ionic liquid " + phase + " of " + db.file_name() + " needs two sublattices");
    auto anion_rank = [&](const std::string& c) { return c == "VA" ? 1 : (charge(c) != 0 ? 0 : 2); };
    Affine Q;
    for (const auto& c : act[0]) Q.lin.push_back({vidx[0][c], charge(c)});
    Affine yVa;
    bool hasVa = vidx[1].count("VA") > 0;
    if (hasVa) yVa = var_affine(vidx[1]["VA"]);
    // P = sum_j |q_j| y_j + Q y_Va, expanded into terms (7.1); used in the ideal term, N_f and M_A
    auto add_P_times = [&](Poly& poly, int coef, double scale, const Factor& f) {
      for (const auto& c : act[1]) {
        double q = charge(c);
        if (q < 0) {
          Term t;
          t.coef = coef;
          t.scale = scale * -q;
          t.f = {Factor{var_affine(vidx[1][c]), false}, f};
          poly.add(t);
        }
      }
      if (hasVa) {
        Term t;
        t.coef = coef;
        t.scale = scale;
        t.f = {Factor{Q, false}, Factor{yVa, false}, f};
        poly.add(t);
      }
    };
    auto add_Q_times = [&](Poly& poly, int coef, double scale, const Factor& f) {
      Term t;
      t.coef = coef;
      t.scale = scale;
      t.f = {Factor{Q, false}, f};
      poly.add(t);
    };
    for (const auto& c : act[0]) {
      add_P_times(M->ID_, 1, 1, Factor{var_affine(vidx[0][c]), true});
      add_P_times(M->NF_, 0, atoms(c), Factor{var_affine(vidx[0][c]), false});
      auto it = db.species().find(c);
      for (size_t a = 0; a < C; ++a) {
        auto e = it->second.composition.find(M->elements_[a]);
        if (e != it->second.composition.end())
          add_P_times(M->MA_[a], 0, e->second, Factor{var_affine(vidx[0][c]), false});
      }
    }
    for (const auto& c : act[1]) {
      add_Q_times(M->ID_, 1, 1, Factor{var_affine(vidx[1][c]), true});
      if (c == "VA") continue;
      add_Q_times(M->NF_, 0, atoms(c), Factor{var_affine(vidx[1][c]), false});
      auto it = db.species().find(c);
      for (size_t a = 0; a < C; ++a) {
        auto e = it->second.composition.find(M->elements_[a]);
        if (e != it->second.composition.end())
          add_Q_times(M->MA_[a], 0, e->second, Factor{var_affine(vidx[1][c]), false});
      }
    }
    // parameters (7.2)/(7.4)
    regroup(phase);
    for (const Parameter* pp : phase_params(allp, phase)) {
      Poly* tp = B.target(pp->type);
      if (!tp) continue;
      Parameter p = *pp;
      if (p.constituents.size() == 1) p.constituents = {{"*"}, p.constituents[0]};  // neutral-only: anion sublattice
      if (p.constituents.size() != 2) continue;
      bool ok = true;
      for (size_t s = 0; s < 2; ++s)
        for (const auto& c : p.constituents[s])
          if (c != "*" && !vidx[s].count(c)) ok = false;
      if (!ok) continue;
      std::stable_sort(p.constituents[1].begin(), p.constituents[1].end(),
                       [&](const std::string& a, const std::string& b) {
                         int ra = anion_rank(a), rb = anion_rank(b);
                         return ra != rb ? ra < rb : a < b;
                       });
      bool anion = false, va = false;
      for (const auto& c : p.constituents[1]) {
        if (c != "*" && charge(c) < 0) anion = true;
        if (c == "VA") va = true;
      }
      View v;
      v.sub.resize(2);
      for (size_t s = 0; s < 2; ++s)
        for (const auto& [c, k] : vidx[s]) v.sub[s][c] = var_affine(k);
      Term t;
      Parameter q = p;
      if (!anion && !va) q.constituents[0] = {"*"};  // neutral terms: cation irrelevant (7.2, 7.4)
      if (!B.cef_term(q, v, -1, 1.0, t)) continue;
      if (!anion && !va) {
        // drop the cation '*' factor (it is the first factor), multiply by Q
        t.f.erase(t.f.begin());
        t.f.push_back(Factor{Q, false});
      } else if (!anion && va) {
        t.f.push_back(Factor{Q, false});
        if (q.constituents[0].size() >= 2) t.f.push_back(Factor{yVa, false});  // L_{i1,i2:Va}: y_Va^2
      }
      t.coef = B.coef_index(*pp);
      tp->add(std::move(t));
    }
  } else {
    // fixed site ratios: N_f and M_A (1.3)/(1.4); electroneutrality (7.5) for charged species
    LinearConstraint ch;
    ch.coeff.assign(m, 0);
    ch.rhs = 0;
    ch.kind = "charge";
    for (size_t s = 0; s < nsub; ++s)
      for (const auto& [c, k] : vidx[s]) {
        const double a = ph->site_ratios[s];
        double q = charge(c);
        if (q != 0) {
          ch.coeff[k] = a * q;
          M->charged_ = true;
        }
        Term t = unit(a * atoms(c));
        t.f = {Factor{var_affine(k), false}};
        if (t.scale != 0) M->NF_.add(t);
        auto it = db.species().find(c);
        if (it != db.species().end())
          for (size_t e = 0; e < C; ++e) {
            auto f = it->second.composition.find(M->elements_[e]);
            if (f == it->second.composition.end()) continue;
            Term te = unit(a * f->second);
            te.f = {Factor{var_affine(k), false}};
            M->MA_[e].add(te);
          }
      }
    if (M->charged_) M->constraints_.push_back(ch);

    auto ideal_of = [&](const std::vector<double>& ratios, const View& v, double scale) {
      for (size_t s = 0; s < v.sub.size(); ++s)
        for (const auto& [c, a] : v.sub[s]) {
          Term t;
          t.coef = 1;
          t.scale = scale * ratios[s];
          t.f = {Factor{a, true}};
          M->ID_.add(t);
        }
    };
    View vy;
    vy.sub.resize(nsub);
    for (size_t s = 0; s < nsub; ++s)
      for (const auto& [c, k] : vidx[s]) vy.sub[s][c] = var_affine(k);

    const PhaseDef* dis = ph->disordered_part.empty() ? nullptr : db.phase(ph->disordered_part);
    M->mag_ = ph->magnetic;
    if (!dis) {
      regroup(phase);
      B.add_params(phase_params(allp, phase), vy, 1.0);
      ideal_of(ph->site_ratios, vy, 1.0);
    } else {
      // §5.2 order-disorder: identify substitutional sublattices by the declared constituent set
      std::set<std::string> D0(dis->constituents.at(0).begin(), dis->constituents.at(0).end());
      std::vector<size_t> S;
      for (size_t s = 0; s < nsub; ++s) {
        std::set<std::string> cs(ph->constituents[s].begin(), ph->constituents[s].end());
        if (cs == D0) S.push_back(s);
      }
      const size_t nS = S.size(), ndis = dis->constituents.size();
      bool okS = nS >= 1 && nsub - nS == ndis - 1;
      for (size_t k = 0; okS && k < nS; ++k) okS = S[k] == k;
      double sumA = 0;
      for (size_t s : S) sumA += ph->site_ratios[s];
      if (okS && std::fabs(sumA - dis->site_ratios[0]) > 1e-9) okS = false;
      for (size_t k = 1; okS && k < ndis; ++k)
        if (std::fabs(dis->site_ratios[k] - ph->site_ratios[k + nS - 1]) > 1e-9) okS = false;
      if (!okS)
        throw CoreError(ErrorCode::Model, "order-disorder model (DIS_PART " + dis->name +
                                              "): sublattices or site ratios of phase " + phase +
                                              " do not match its disordered part in " + db.file_name());
      // x_i (5.1), VA included
      std::map<std::string, Affine> x;
      for (size_t s : S)
        for (const auto& [c, k] : vidx[s]) {
          Affine& a = x[c];
          a.lin.push_back({k, ph->site_ratios[s] / sumA});
        }
      View vyp = vy, vdis;
      for (size_t s : S) vyp.sub[s] = x;
      vdis.sub.resize(ndis);
      vdis.sub[0] = x;
      for (size_t k = 1; k < ndis; ++k) vdis.sub[k] = vy.sub[k + nS - 1];
      regroup(phase);
      auto ordp = phase_params(allp, phase);
      B.add_params(ordp, vy, 1.0);
      B.add_params(ordp, vyp, -1.0);
      ideal_of(ph->site_ratios, vy, 1.0);
      ideal_of(ph->site_ratios, vyp, -1.0);
      regroup(dis->name);
      B.add_params(phase_params(allp, dis->name), vdis, 1.0);
      ideal_of(dis->site_ratios, vdis, 1.0);
      if (dis->magnetic) M->mag_ = dis->magnetic;
    }
  }
  for (Poly* p :
       {&M->G_, &M->ID_, &M->NF_, &M->TC_, &M->BM_, &M->NT_, &M->THETA_, &M->GD_, &M->V0_, &M->VA_, &M->VK_}) {
    throw_if_cancelled();
    p->consolidate();
  }
  for (Poly& p : M->MA_) p.consolidate();
  if (M->mag_ && M->mag_->afm != 0 && M->mag_->p <= 0)
    throw CoreError(ErrorCode::Model,
                    "magnetic model with structure factor p <= 0: phase " + phase + " of " + db.file_name());
  return M;
}

}  // namespace pd
