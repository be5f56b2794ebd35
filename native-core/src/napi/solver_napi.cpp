// Node-API binding of the equilibrium solver (native-core/src/solver, formula sheet §8-§9):
//   equilibrium(db, components, phases|null, conditions, options?) -> result object
//   equilibriumBatch(db, components, phases|null, conditions[], options?, threads, control?) -> results[]
//   solverSelfTest(verbose?) -> {passed, failed, messages}   (toy models, test only)
// conditions = {T, P?, X?: {EL: x}, W?: {EL: w}, MU?: {EL: J/mol}}; control = SharedArrayBuffer with
// Int32 index 0 = cancel flag (non-zero stops between equilibria) and a Float64 progress at byte 8.
// Every function goes through Guard() (napi/common.hpp): C++ exceptions become JS Errors.
#include <napi.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "io/database.hpp"
#include "models/phase_model.hpp"
#include "napi/common.hpp"
#include "napi/io_napi.hpp"
#include "solver/equilibrium.hpp"
#include "solver/testing/toy_models.hpp"

namespace pd::napi {
namespace {

std::string Upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> StringArray(Napi::Env env, const Napi::Value& v, const char* what) {
  return ArgStringArray(env, v, what, /*optional=*/true);
}

// Solvers are cached per thread (each piscina worker is its own thread) by database, components,
// phases and sampling density, so that models and the sampled grid are built once (issue 4 "warm").
struct CacheKey {
  const pd::Database* db;
  std::vector<std::string> comps, phases;
  int pdens;
  bool operator<(const CacheKey& o) const {
    return std::tie(db, comps, phases, pdens) < std::tie(o.db, o.comps, o.phases, o.pdens);
  }
};
struct CacheEntry {
  std::shared_ptr<const pd::Database> keep;  // keeps the database alive while cached
  std::shared_ptr<pd::solver::EquilibriumSolver> solver;
};
thread_local std::map<CacheKey, CacheEntry> tl_cache;

std::shared_ptr<pd::solver::EquilibriumSolver> GetSolver(std::shared_ptr<const pd::Database> db,
                                                          std::vector<std::string> comps,
                                                          std::vector<std::string> phases, int pdens) {
  std::sort(comps.begin(), comps.end());
  comps.erase(std::unique(comps.begin(), comps.end()), comps.end());
  std::vector<std::string> elements;
  for (const auto& c : comps)
    if (c != "VA") {
      if (!db->elements().count(c)) throw std::invalid_argument("component " + c + " is not an element of " + db->file_name());
      elements.push_back(c);
    }
  if (elements.empty()) throw std::invalid_argument("no element among the components");
  if (phases.empty()) phases = db->phases_for(elements);
  std::vector<std::string> sorted_phases = phases;
  std::sort(sorted_phases.begin(), sorted_phases.end());
  sorted_phases.erase(std::unique(sorted_phases.begin(), sorted_phases.end()), sorted_phases.end());
  CacheKey key{db.get(), comps, sorted_phases, pdens};
  auto it = tl_cache.find(key);
  if (it != tl_cache.end()) return it->second.solver;
  // Phases the database does not define, or that cannot form, are ignored (validation README); the
  // DIS_PART phase of an ordered phase in the list is not a separate candidate (§5.1, §12 item 6).
  std::set<std::string> listed(sorted_phases.begin(), sorted_phases.end());
  std::vector<std::shared_ptr<const pd::PhaseModel>> models;
  for (const auto& ph : sorted_phases) {
    const pd::PhaseDef* def = db->phase(ph);
    if (!def) continue;
    if (!def->ordered_parent.empty() && listed.count(Upper(def->ordered_parent))) continue;
    auto m = pd::PhaseModel::build(*db, ph, comps);
    if (m) models.push_back(m);
  }
  if (models.empty()) throw std::invalid_argument("none of the phases can form from the components");
  std::vector<double> masses;
  for (const auto& e : elements) masses.push_back(db->elements().at(e).mass);
  pd::solver::SolverOptions opt;
  opt.pdens = pdens;
  auto solver = std::make_shared<pd::solver::EquilibriumSolver>(models, masses, opt);
  if (tl_cache.size() >= 16) tl_cache.clear();
  tl_cache[key] = {db, solver};
  return solver;
}

pd::solver::Conditions ParseConditions(Napi::Env env, const Napi::Value& v) {
  if (!v.IsObject()) throw Napi::TypeError::New(env, "conditions must be an object {T, P, X?, W?, MU?}");
  auto o = v.As<Napi::Object>();
  pd::solver::Conditions c;
  if (!o.Get("T").IsNumber()) throw Napi::TypeError::New(env, "conditions.T must be a number (K)");
  c.T = o.Get("T").As<Napi::Number>().DoubleValue();
  c.P = o.Get("P").IsNumber() ? o.Get("P").As<Napi::Number>().DoubleValue() : 101325.0;
  if (o.Has("N") && o.Get("N").IsNumber() && o.Get("N").As<Napi::Number>().DoubleValue() != 1.0)
    throw Napi::Error::New(env, "only N = 1 is supported");
  const std::pair<const char*, pd::solver::Condition::Kind> kinds[] = {
      {"X", pd::solver::Condition::X}, {"W", pd::solver::Condition::W}, {"MU", pd::solver::Condition::MU}};
  for (const auto& [name, kind] : kinds) {
    Napi::Value m = o.Get(name);
    if (m.IsUndefined() || m.IsNull()) continue;
    if (!m.IsObject()) throw Napi::TypeError::New(env, std::string("conditions.") + name + " must be an object");
    auto mo = m.As<Napi::Object>();
    auto keys = mo.GetPropertyNames();
    for (uint32_t i = 0; i < keys.Length(); ++i) {
      std::string el = keys.Get(i).As<Napi::String>().Utf8Value();
      Napi::Value val = mo.Get(el);
      if (!val.IsNumber()) throw Napi::TypeError::New(env, std::string("conditions.") + name + "." + el + " must be a number");
      c.conds.push_back({kind, Upper(el), val.As<Napi::Number>().DoubleValue()});
    }
  }
  return c;
}

Napi::Object Composition(Napi::Env env, const std::vector<std::string>& el, const std::vector<double>& v) {
  auto o = Napi::Object::New(env);
  for (size_t i = 0; i < el.size() && i < v.size(); ++i) o.Set(el[i], Napi::Number::New(env, v[i]));
  return o;
}

Napi::Object ToJs(Napi::Env env, const pd::solver::EquilibriumResult& r, const pd::solver::Conditions& c) {
  auto o = Napi::Object::New(env);
  o.Set("converged", Napi::Boolean::New(env, r.converged));
  o.Set("reason", Napi::String::New(env, r.reason));
  o.Set("iterations", Napi::Number::New(env, r.iterations));
  o.Set("T", Napi::Number::New(env, c.T));
  o.Set("P", Napi::Number::New(env, c.P));
  auto els = Napi::Array::New(env, r.elements.size());
  for (size_t i = 0; i < r.elements.size(); ++i) els.Set(static_cast<uint32_t>(i), r.elements[i]);
  o.Set("elements", els);
  o.Set("GM", r.GM);
  o.Set("HM", r.HM);
  o.Set("SM", r.SM);
  o.Set("CPM", r.CPM);
  o.Set("massBalanceError", r.mass_balance_error);
  o.Set("mu", Composition(env, r.elements, r.mu));
  o.Set("x", Composition(env, r.elements, r.x));
  auto sets = [&](const std::vector<pd::solver::CompSetResult>& v, bool stable) {
    auto a = Napi::Array::New(env, v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      const auto& s = v[i];
      auto so = Napi::Object::New(env);
      so.Set("name", s.phase);
      if (stable) {
        so.Set("setNumber", s.set_number);
        so.Set("NP", s.NP);
      } else {
        so.Set("DF", s.DF);
      }
      so.Set("x", Composition(env, r.elements, s.x));
      auto y = Napi::Float64Array::New(env, s.y.size());
      for (size_t k = 0; k < s.y.size(); ++k) y[k] = s.y[k];
      so.Set("y", y);
      so.Set("GM", s.GM);
      so.Set("HM", s.HM);
      so.Set("SM", s.SM);
      so.Set("CPM", s.CPM);
      a.Set(static_cast<uint32_t>(i), so);
    }
    return a;
  };
  o.Set("phases", sets(r.stable, true));
  o.Set("metastable", sets(r.metastable, false));
  auto d = Napi::Object::New(env);
  for (const auto& [k, v] : r.derivatives) d.Set(k, v);
  o.Set("derivatives", d);
  return o;
}

struct Common {
  std::shared_ptr<pd::solver::EquilibriumSolver> solver;
  std::vector<std::string> derivatives;
  int max_iterations = 400;
  bool single_set = false;
  bool warm_start = false;
};

Common Prepare(const Napi::CallbackInfo& info, size_t opt_index) {
  Napi::Env env = info.Env();
  auto db = UnwrapDatabase(info[0]);
  auto comps = StringArray(env, info[1], "components");
  auto phases = StringArray(env, info[2], "phases");
  int pdens = 60;
  Common c;
  if (info.Length() > opt_index && info[opt_index].IsObject()) {
    auto o = info[opt_index].As<Napi::Object>();
    if (o.Get("pdens").IsNumber()) pdens = std::max(4, std::min(500, o.Get("pdens").As<Napi::Number>().Int32Value()));
    if (o.Get("maxIterations").IsNumber()) c.max_iterations = std::max(10, o.Get("maxIterations").As<Napi::Number>().Int32Value());
    c.derivatives = StringArray(env, o.Get("derivatives"), "options.derivatives");
    c.single_set = o.Get("singleSet").IsBoolean() && o.Get("singleSet").As<Napi::Boolean>().Value();
    c.warm_start = o.Get("warmStart").IsBoolean() && o.Get("warmStart").As<Napi::Boolean>().Value();
  }
  c.solver = GetSolver(db, comps, phases, pdens);
  return c;
}

Napi::Value Equilibrium(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Common cm = Prepare(info, 4);
  auto cond = ParseConditions(env, info[3]);
  cm.solver->options().derivatives = cm.derivatives;
  cm.solver->options().max_iterations = cm.max_iterations;
  cm.solver->options().single_set = cm.single_set;
  auto r = cm.solver->solve(cond);
  return ToJs(env, r, cond);
}

Napi::Value EquilibriumBatch(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Common cm = Prepare(info, 4);
  if (!info[3].IsArray()) throw Napi::TypeError::New(env, "expected an array of conditions");
  auto arr = info[3].As<Napi::Array>();
  std::vector<pd::solver::Conditions> conds;
  for (uint32_t i = 0; i < arr.Length(); ++i) conds.push_back(ParseConditions(env, arr.Get(i)));
  int threads = info.Length() > 5 && info[5].IsNumber() ? info[5].As<Napi::Number>().Int32Value() : 1;
  const volatile int32_t* cancel = nullptr;
  double* progress = nullptr;
  if (info.Length() > 6 && info[6].IsTypedArray()) {
    // a typed-array view (e.g. Int32Array over a SharedArrayBuffer): its data pointer is shared memory
    napi_typedarray_type type;
    size_t length = 0, offset = 0;
    void* data = nullptr;
    napi_value ab;
    if (napi_get_typedarray_info(env, info[6], &type, &length, &data, &ab, &offset) != napi_ok || !data ||
        info[6].As<Napi::TypedArray>().ByteLength() < 16)
      throw Napi::TypeError::New(env, "control must be a typed array view of at least 16 bytes");
    cancel = static_cast<const volatile int32_t*>(data);
    progress = reinterpret_cast<double*>(static_cast<char*>(data) + 8);
  } else if (info.Length() > 6 && info[6].IsArrayBuffer()) {
    auto ab = info[6].As<Napi::ArrayBuffer>();
    if (ab.ByteLength() >= 16) {
      cancel = static_cast<const volatile int32_t*>(ab.Data());
      progress = reinterpret_cast<double*>(static_cast<char*>(ab.Data()) + 8);
    }
  } else if (info.Length() > 6 && !info[6].IsUndefined() && !info[6].IsNull()) {
    // a SharedArrayBuffer is not an ArrayBuffer for node-addon-api; read its backing store via napi
    napi_value v = info[6];
    void* data = nullptr;
    size_t len = 0;
    bool is_sab = false;
#if NAPI_VERSION >= 8
    (void)is_sab;
#endif
    if (napi_get_arraybuffer_info(env, v, &data, &len) == napi_ok && len >= 16) {
      cancel = static_cast<const volatile int32_t*>(data);
      progress = reinterpret_cast<double*>(static_cast<char*>(data) + 8);
    } else {
      throw Napi::TypeError::New(env, "control must be a (Shared)ArrayBuffer of at least 16 bytes");
    }
  }
  cm.solver->options().derivatives = cm.derivatives;
  cm.solver->options().max_iterations = cm.max_iterations;
  cm.solver->options().single_set = cm.single_set;
  cm.solver->options().warm_start = cm.warm_start;
  auto rs = cm.solver->solve_batch(conds, threads, cancel, progress);
  auto out = Napi::Array::New(env, rs.size());
  for (size_t i = 0; i < rs.size(); ++i) out.Set(static_cast<uint32_t>(i), ToJs(env, rs[i], conds[i]));
  return out;
}

Napi::Value SelfTest(const Napi::CallbackInfo& info) {
  int verbose = info.Length() > 0 && info[0].IsBoolean() && info[0].As<Napi::Boolean>().Value() ? 1 : 0;
  std::string json = pd::solver::testing::run_self_test(verbose);
  Napi::Object JSON = info.Env().Global().Get("JSON").As<Napi::Object>();
  return JSON.Get("parse").As<Napi::Function>().Call(JSON, {Napi::String::New(info.Env(), json)});
}

}  // namespace

void RegisterSolver(Napi::Env env, Napi::Object exports) {
  Export<Equilibrium>(env, exports, "equilibrium");
  Export<EquilibriumBatch>(env, exports, "equilibriumBatch");
  Export<SelfTest>(env, exports, "solverSelfTest");
}

}  // namespace pd::napi
