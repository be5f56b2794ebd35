// Internal to models/: the pieces PhaseModel::build (phase_model.cpp) compiles a phase's Gibbs energy with. A View
// maps the constituents of a parameter's array to affine forms of the phase's variables (the site fractions, or the
// disordered fractions (5.1) of an order-disorder pair); a TermBuilder turns a CEF parameter into a term of the flat
// lists (poly.hpp); a ModelParts holds the phase being compiled. phase_model_ionic.cpp compiles the ionic liquid.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "models/compiled_model.hpp"
#include "models/poly.hpp"

namespace pd::models {

// Maps a (sublattice, species) of some phase's parameter array to an affine form of the variables.
struct View {
  // per sublattice: species -> affine; order of keys is irrelevant
  std::vector<std::map<std::string, Affine>> sub;
};

Affine var_affine(int idx);
Affine sum_affine(const std::map<std::string, Affine>& m);
Affine lin_comb(const Affine& a, double ca, const Affine& b, double cb);

// The parameters of `phase` among `all`, in order.
std::vector<const Parameter*> phase_params(const std::vector<Parameter>& all, const std::string& phase);

// Builds the terms of CEF parameters (§1.2, §2) into the term lists of a CompiledModel.
struct TermBuilder {
  const Database& db;
  const PhaseDef& ph;
  CompiledModel& M;
  std::map<std::string, std::vector<const Parameter*>> groups;  // (type, array) -> orders present
  // One coefficient per distinct expression: the B/F symmetry copies of a parameter (§5.5) share their
  // expression, so they share the prepared value (fewer evaluations per (T,P), narrower PointSet tables).
  std::map<ExprId, int> coef_of_expr;

  std::string where(const Parameter* p = nullptr) const;
  [[noreturn]] void fail(const std::string& what, const Parameter* p = nullptr) const;
  static std::string group_key(const Parameter& p);
  // The parameters of one phase grouped by (type, array), for the ternary rule of cef_term.
  void group(const std::vector<Parameter>& all, const std::string& phase);
  int coef_index(const Parameter& p);
  // The term of a CEF parameter under the given view. Returns false when the parameter does not apply (inactive
  // constituent, L end member).
  bool cef_term(const Parameter& p, const View& v, int coef, double scale, Term& t);
  // The term list a parameter type adds to; nullptr for parameters that are no energy (mobilities MQ, MF, ...).
  Poly* target(const std::string& type);
  void add_params(const std::vector<const Parameter*>& ps, const View& v, double scale);
};

// One phase's model being compiled: its active constituents, its variables, the parameters it uses.
struct ModelParts {
  const Database& db;
  const PhaseDef& ph;
  std::shared_ptr<CompiledModel> M;
  std::set<std::string> comps;
  std::vector<std::vector<std::string>> act;     // active constituents per sublattice, sorted (§2.1)
  std::vector<std::map<std::string, int>> vidx;  // per sublattice: active constituent -> variable index
  std::vector<Parameter> allp;                   // this phase's and its DIS_PART phase's, with the B/F copies (§5.5)
  TermBuilder terms;

  ModelParts(const Database& d, const PhaseDef& p)
      : db(d), ph(p), M(std::make_shared<CompiledModel>()), terms{d, p, *M, {}, {}} {}
  bool active(const std::string& sp) const;
  double atoms(const std::string& sp) const;  // atoms in one formula of the species
  double charge(const std::string& sp) const;
};

// The views of an order-disorder pair (§5.2-5.4) beside the site-fraction view: the ordered phase's sublattices
// with the disordered fractions x_i (5.1) on its merged sublattices (`ordered_at_x`), and the DIS_PART phase's
// sublattices at x_i and the interstitial site fractions (`disordered`).
struct OrderDisorderViews {
  View ordered_at_x;
  View disordered;
};
// The phase of that name (any case), or CoreError (ErrorCode::Model) for an unknown or refused phase.
const PhaseDef& usable_phase(const Database& db, const std::string& name);
View site_fraction_view(const ModelParts& P);
OrderDisorderViews order_disorder_views(const ModelParts& P, const PhaseDef& dis, const View& vy);
// The model's kind, elements and variables (phase_model.cpp); nullptr when the phase cannot form from the components.
std::shared_ptr<CompiledModel> start_model(ModelParts& P, const std::vector<std::string>& components);

// §7: the two-sublattice ionic liquid (C+)_P (A-, Va, B0)_Q (phase_model_ionic.cpp).
void compile_ionic_liquid(ModelParts& P);

}  // namespace pd::models
