// Node-API binding of the equilibrium solver (native-core/src/solver, formula sheet §8-§9):
//   equilibrium(db, components, phases|null, conditions, options?) -> result object
//   equilibriumBatch(db, components, phases|null, conditions[], options?, threads, control?) -> results[]
// conditions = {T, P?, X?: {EL: x}, W?: {EL: w}, MU?: {EL: J/mol}}; control = SharedArrayBuffer with
// Int32 index 0 = cancel flag (non-zero stops the batch: results not yet computed get reason 'cancelled';
// while the models and grids are built it throws PD_CANCELLED) and a Float64 progress at byte 8. Without a
// control block a call polls the flag set by setCancelFlag() on its thread (napi/common.hpp).
// Every function goes through Guard() (napi/common.hpp): C++ exceptions become JS Errors.
#include <napi.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "io/database.hpp"
#include "models/phase_model.hpp"
#include "napi/common.hpp"
#include "napi/io_napi.hpp"
#include "solver/equilibrium.hpp"

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
// phases and sampling density, so that models and the sampled grid are built once per thread.
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
      if (!db->elements().count(c))
        throw std::invalid_argument("component " + c + " is not an element of " + db->file_name());
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
  // DIS_PART phase of an ordered phase in the list is not a separate candidate (§5.1, §12 item 6) when the
  // ordered phase contains it: every constituent the disordered phase can take with these elements is also
  // on the ordered phase's corresponding sublattices (substitutional ones, then the interstitial ones in
  // order, §5.2). COST507's BCC_B2 (...)0.5(...)0.5(VA)3 does not contain BCC_A2 (...)1(B,C,N,VA)3 in
  // Al-N or Ti-C: left out, the nitride- and carbide-forming bcc solution disappeared from those systems
  // and the answer was up to 9 kJ/mol above the equilibrium (Al-N at 1528 K, X(N) = 0.7: ALN + LIQUID
  // instead of ALN + BCC_A2).
  std::set<std::string> listed(sorted_phases.begin(), sorted_phases.end());
  std::set<std::string> chosen(elements.begin(), elements.end());
  chosen.insert("VA");
  auto active = [&](const std::string& sp) {
    auto it = db->species().find(sp);
    if (it == db->species().end()) return false;
    for (const auto& [el, n] : it->second.composition)
      if (!chosen.count(el)) return false;
    return true;
  };
  auto contained_in = [&](const pd::PhaseDef& dis, const pd::PhaseDef& ord) {
    const size_t nd = dis.constituents.size(), no = ord.constituents.size();
    if (nd == 0 || no < nd) return true;  // not a layout of §5.2: the phase model reports it
    const size_t nsub = no - nd + 1;      // ordered sublattices that merge into the disordered sublattice 0
    auto has = [&](size_t o, const std::string& sp) {
      const auto& c = ord.constituents[o];
      return std::find(c.begin(), c.end(), sp) != c.end();
    };
    for (size_t k = 0; k < nd; ++k)
      for (const auto& sp : dis.constituents[k]) {
        if (!active(sp)) continue;
        if (k == 0) {
          for (size_t o = 0; o < nsub; ++o)
            if (!has(o, sp)) return false;
        } else if (!has(nsub + k - 1, sp)) {
          return false;
        }
      }
    return true;
  };
  std::vector<std::shared_ptr<const pd::PhaseModel>> models;
  for (const auto& ph : sorted_phases) {
    pd::throw_if_cancelled();
    const pd::PhaseDef* def = db->phase(ph);
    if (!def) continue;
    // any listed ordered phase that contains it: with BCC_B2 and BCC_4SL sharing BCC_A2 (MF Steel) and only
    // BCC_B2 listed, a BCC_A2 kept beside it made the disordered bcc two candidates of equal Gibbs energy, named
    // by whichever the solver met first
    const bool represented = std::any_of(def->ordered_parents.begin(), def->ordered_parents.end(), [&](const auto& o) {
      if (!listed.count(Upper(o))) return false;
      const pd::PhaseDef* parent = db->phase(Upper(o));
      return !parent || contained_in(*def, *parent);
    });
    if (represented) continue;
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
  // each property read once (a line of conditions is parsed point by point)
  Napi::Value T = o.Get("T"), P = o.Get("P"), N = o.Get("N");
  if (!T.IsNumber()) throw Napi::TypeError::New(env, "conditions.T must be a number (K)");
  c.T = T.As<Napi::Number>().DoubleValue();
  c.P = P.IsNumber() ? P.As<Napi::Number>().DoubleValue() : 101325.0;
  if (N.IsNumber() && N.As<Napi::Number>().DoubleValue() != 1.0) throw Napi::Error::New(env, "only N = 1 is supported");
  const std::pair<const char*, pd::solver::Condition::Kind> kinds[] = {
      {"X", pd::solver::Condition::X}, {"W", pd::solver::Condition::W}, {"MU", pd::solver::Condition::MU}};
  for (const auto& [name, kind] : kinds) {
    Napi::Value m = o.Get(name);
    if (m.IsUndefined() || m.IsNull()) continue;
    if (!m.IsObject()) throw Napi::TypeError::New(env, std::string("conditions.") + name + " must be an object");
    auto mo = m.As<Napi::Object>();
    auto keys = mo.GetPropertyNames();
    for (uint32_t i = 0; i < keys.Length(); ++i) {
      Napi::Value key = keys.Get(i);
      std::string el = key.As<Napi::String>().Utf8Value();
      Napi::Value val = mo.Get(key);
      if (!val.IsNumber())
        throw Napi::TypeError::New(env, std::string("conditions.") + name + "." + el + " must be a number");
      c.conds.push_back({kind, Upper(el), val.As<Napi::Number>().DoubleValue()});
    }
  }
  return c;
}

// Conversion of results to JS objects. A 200-point line makes ~5000 objects; setting their properties one
// by one from C++ (napi_set_named_property: a new key string and a hidden-class transition per property)
// took about as long as the solves themselves. Instead the results are packed into one Float64Array of
// numbers and one array of strings (repeated strings such as element and phase names created once), and a
// small JS function (kBuild, compiled once per environment) builds every object with object literals in a single call.
// The objects are exactly those the property-by-property code made: same keys in the same order, plain
// writable/enumerable/configurable data properties, `y` a Float64Array with a buffer of its own; a local equilibrium's
// (WarmStart::local) has one more key last, `local: true`.
//
// Layout per result. Numbers: converged (0 no, 1 yes, 2 yes as a local equilibrium, which gets `local: true`),
// iterations, T, P, GM, HM, SM, CPM, massBalanceError, mu and x (each: count, values), stable sets (count; each:
// setNumber, NP, x (count, values), y (count, values), GM, HM, SM, CPM), metastable sets (count; each: DF, x, y, GM,
// HM, SM, CPM), derivatives (count, values). Strings: reason, reason code ('' when converged: the property is then
// undefined), elements (count in the numbers), stable names, metastable names, derivative keys.
constexpr const char* kBuild = R"JS((function (N, S, count) {
  'use strict';
  let i = 0, j = 0;
  function comp(keys) {
    const n = N[i++];
    const o = {};
    for (let k = 0; k < n; k++) o[keys[k]] = N[i++];
    return o;
  }
  function vec() {
    const n = N[i++];
    const y = N.slice(i, i + n);
    i += n;
    return y;
  }
  const out = [];
  for (let r = 0; r < count; r++) {
    const status = N[i++], converged = status !== 0, iterations = N[i++], T = N[i++], P = N[i++];
    const GM = N[i++], HM = N[i++], SM = N[i++], CPM = N[i++], massBalanceError = N[i++];
    const reason = S[j++], reasonCode = S[j++] || undefined;
    const ne = N[i++];
    const elements = [];
    for (let k = 0; k < ne; k++) elements.push(S[j++]);
    const mu = comp(elements), x = comp(elements);
    const phases = [];
    for (let n = N[i++]; n > 0; n--) {
      const name = S[j++], setNumber = N[i++], NP = N[i++], xs = comp(elements), y = vec();
      phases.push({ name, setNumber, NP, x: xs, y, GM: N[i++], HM: N[i++], SM: N[i++], CPM: N[i++] });
    }
    const metastable = [];
    for (let n = N[i++]; n > 0; n--) {
      const name = S[j++], DF = N[i++], xs = comp(elements), y = vec();
      metastable.push({ name, DF, x: xs, y, GM: N[i++], HM: N[i++], SM: N[i++], CPM: N[i++] });
    }
    const derivatives = {};
    for (let n = N[i++]; n > 0; n--) derivatives[S[j++]] = N[i++];
    const result = { converged, reason, reasonCode, iterations, T, P, elements, GM, HM, SM, CPM, massBalanceError, mu,
      x, phases, metastable, derivatives };
    if (status === 2) result.local = true;
    out.push(result);
  }
  return out;
}))JS";

// Packs results (see the layout above) and builds the JS array of result objects.
class ResultWriter {
 public:
  explicit ResultWriter(napi_env env) : env_(env) {}

  void Add(const pd::solver::EquilibriumResult& r, const pd::solver::Conditions& c) {
    ++count_;
    N_.insert(N_.end(), {r.converged ? (r.local ? 2.0 : 1.0) : 0.0, static_cast<double>(r.iterations), c.T, c.P, r.GM,
                         r.HM, r.SM, r.CPM, r.mass_balance_error});
    S_.push_back(&r.reason);
    S_.push_back(&CodeName(r.reason_code));
    N_.push_back(static_cast<double>(r.elements.size()));
    for (const auto& e : r.elements) S_.push_back(&e);
    Comp(r.elements, r.mu);
    Comp(r.elements, r.x);
    for (int stable = 1; stable >= 0; --stable) {
      const auto& sets = stable ? r.stable : r.metastable;
      N_.push_back(static_cast<double>(sets.size()));
      for (const auto& s : sets) {
        S_.push_back(&s.phase);
        if (stable)
          N_.insert(N_.end(), {static_cast<double>(s.set_number), s.NP});
        else
          N_.push_back(s.DF);
        Comp(r.elements, s.x);
        N_.push_back(static_cast<double>(s.y.size()));
        N_.insert(N_.end(), s.y.begin(), s.y.end());
        N_.insert(N_.end(), {s.GM, s.HM, s.SM, s.CPM});
      }
    }
    N_.push_back(static_cast<double>(r.derivatives.size()));
    for (const auto& [k, v] : r.derivatives) {
      S_.push_back(&k);
      N_.push_back(v);
    }
  }

  // The results added so far (which must still be alive) as a JS array.
  napi_value Build() {
    napi_value ab, nums, strs, cnt, fn, out, undef;
    void* data = nullptr;
    Check(napi_create_arraybuffer(env_, N_.size() * sizeof(double), &data, &ab));
    if (!N_.empty()) std::memcpy(data, N_.data(), N_.size() * sizeof(double));
    Check(napi_create_typedarray(env_, napi_float64_array, N_.size(), ab, 0, &nums));
    Check(napi_create_array_with_length(env_, S_.size(), &strs));
    std::map<std::string, napi_value> interned;  // element and phase names, "converged", ...
    for (size_t k = 0; k < S_.size(); ++k) {
      auto it = interned.find(*S_[k]);
      if (it == interned.end()) {
        napi_value v;
        Check(napi_create_string_utf8(env_, S_[k]->data(), S_[k]->size(), &v));
        it = interned.emplace(*S_[k], v).first;
      }
      Check(napi_set_element(env_, strs, static_cast<uint32_t>(k), it->second));
    }
    Check(napi_create_double(env_, static_cast<double>(count_), &cnt));
    fn = BuildFunction();
    Check(napi_get_undefined(env_, &undef));
    napi_value args[3] = {nums, strs, cnt};
    Check(napi_call_function(env_, undef, fn, 3, args, &out));
    return out;
  }

 private:
  void Check(napi_status st) {
    if (st != napi_ok) throw Napi::Error::New(env_);
  }
  // kBuild compiled once per environment (each worker thread has its own): a function kept across calls
  // is optimised by V8 after a few lines instead of starting cold in the interpreter every call. The
  // reference is dropped by an environment clean-up hook when the environment ends.
  napi_value BuildFunction() {
    struct Cache {
      napi_env env;
      napi_ref fn;
    };
    thread_local std::vector<Cache> cache;
    for (const auto& c : cache)
      if (c.env == env_) {
        napi_value fn = nullptr;
        Check(napi_get_reference_value(env_, c.fn, &fn));
        if (!fn) throw Napi::Error::New(env_, "result builder was collected");  // cannot happen: strong reference
        return fn;
      }
    napi_value src, fn;
    Check(napi_create_string_utf8(env_, kBuild, NAPI_AUTO_LENGTH, &src));
    Check(napi_run_script(env_, src, &fn));
    napi_ref ref;
    Check(napi_create_reference(env_, fn, 1, &ref));
    cache.push_back({env_, ref});
    Check(napi_add_env_cleanup_hook(
        env_,
        [](void* arg) {
          napi_env env = static_cast<napi_env>(arg);
          for (size_t k = 0; k < cache.size(); ++k)
            if (cache[k].env == env) {
              napi_delete_reference(env, cache[k].fn);
              cache.erase(cache.begin() + static_cast<long>(k));
              break;
            }
        },
        env_));
    return fn;
  }
  // The name of a result's reason code (io/errors.hpp), '' for none: strings that live as long as the process.
  static const std::string& CodeName(const std::optional<ErrorCode>& code) {
    static const std::vector<std::string> names = [] {
      std::vector<std::string> v;
      for (const auto& c : kErrorCodes) v.emplace_back(c.name);
      return v;
    }();
    static const std::string none;
    return code ? names[static_cast<size_t>(*code)] : none;
  }
  // {EL: value} per element: count, values (keys = the result's element names, in order)
  void Comp(const std::vector<std::string>& el, const std::vector<double>& vals) {
    const size_t n = std::min(el.size(), vals.size());
    N_.push_back(static_cast<double>(n));
    N_.insert(N_.end(), vals.begin(), vals.begin() + n);
  }

  napi_env env_;
  size_t count_ = 0;
  std::vector<double> N_;
  std::vector<const std::string*> S_;
};

Napi::Object ToJs(Napi::Env env, const pd::solver::EquilibriumResult& r, const pd::solver::Conditions& c) {
  ResultWriter w(env);
  w.Add(r, c);
  napi_value arr, o;
  arr = w.Build();
  if (napi_get_element(env, arr, 0, &o) != napi_ok) throw Napi::Error::New(env);
  return Napi::Object(env, o);
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
    if (o.Get("maxIterations").IsNumber())
      c.max_iterations = std::max(10, o.Get("maxIterations").As<Napi::Number>().Int32Value());
    c.derivatives = StringArray(env, o.Get("derivatives"), "options.derivatives");
    c.single_set = o.Get("singleSet").IsBoolean() && o.Get("singleSet").As<Napi::Boolean>().Value();
    c.warm_start = o.Get("warmStart").IsBoolean() && o.Get("warmStart").As<Napi::Boolean>().Value();
  }
  c.solver = GetSolver(db, comps, phases, pdens);
  return c;
}

// options.start of equilibrium(): a previous result object (as returned by equilibrium/equilibriumBatch for
// the same system) to warm-start from (its stable sets with NP and y, metastable sets' y, mu). A result
// that does not fit (not converged, unknown phase, wrong number of site fractions, missing mu) gives an
// empty state, i.e. the normal cold start. One reader serves a call: a batch's searches pass one result per
// condition, each with every phase's set, so the property keys and the phase names are looked up once.
class StartReader {
 public:
  StartReader(Napi::Env env, const pd::solver::EquilibriumSolver& solver)
      : env_(env),
        elements_(solver.elements()),
        converged_(Key("converged")),
        mu_(Key("mu")),
        lists_{Key("metastable"), Key("phases")},
        name_(Key("name")),
        y_(Key("y")),
        np_(Key("NP")) {
    const auto& phases = solver.phases();
    for (size_t p = 0; p < phases.size(); ++p) index_.emplace(phases[p]->name(), static_cast<int>(p));
  }

  pd::solver::WarmStart Read(const Napi::Value& v) const {
    pd::solver::WarmStart w;
    if (v.IsUndefined() || v.IsNull()) return w;
    if (!v.IsObject()) throw Napi::TypeError::New(env_, "options.start must be a previous equilibrium result");
    auto o = v.As<Napi::Object>();
    Napi::Value converged = o.Get(converged_);
    if (!converged.IsBoolean() || !converged.As<Napi::Boolean>().Value()) return w;
    Napi::Value mu = o.Get(mu_);
    if (!mu.IsObject()) return w;
    for (const auto& e : elements_) {
      Napi::Value m = mu.As<Napi::Object>().Get(e);
      if (!m.IsNumber()) return {};
      w.mu.push_back(m.As<Napi::Number>().DoubleValue());
    }
    for (int stable = 1; stable >= 0; --stable)
      if (!ReadSets(o.Get(lists_[stable]), stable == 1, w.sets)) return {};
    return w;  // checked against the models (sizes, finiteness) by the solver, which falls back if it does not fit
  }

 private:
  Napi::Value Key(const char* name) const { return Napi::String::New(env_, name); }

  bool ReadSets(const Napi::Value& list, bool stable, std::vector<pd::solver::WarmStart::Set>& out) const {
    if (!list.IsArray()) return false;
    auto a = list.As<Napi::Array>();
    const uint32_t n = a.Length();
    for (uint32_t i = 0; i < n; ++i) {
      Napi::Value item = a.Get(i);
      if (!item.IsObject()) return false;
      auto so = item.As<Napi::Object>();
      Napi::Value name = so.Get(name_), y = so.Get(y_);
      if (!name.IsString() || !y.IsTypedArray()) return false;
      auto found = index_.find(name.As<Napi::String>().Utf8Value());
      if (found == index_.end() || y.As<Napi::TypedArray>().TypedArrayType() != napi_float64_array) return false;
      pd::solver::WarmStart::Set s;
      s.phase_index = found->second;
      s.stable = stable;
      auto yf = y.As<Napi::Float64Array>();
      s.y.assign(yf.Data(), yf.Data() + yf.ElementLength());
      if (stable) {
        Napi::Value np = so.Get(np_);
        if (!np.IsNumber()) return false;
        s.NP = np.As<Napi::Number>().DoubleValue();
      }
      out.push_back(std::move(s));
    }
    return true;
  }

  Napi::Env env_;
  const std::vector<std::string>& elements_;
  Napi::Value converged_, mu_, lists_[2], name_, y_, np_;
  std::unordered_map<std::string, int> index_;
};

Napi::Value Equilibrium(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Common cm = Prepare(info, 4);
  auto cond = ParseConditions(env, info[3]);
  cm.solver->options().derivatives = cm.derivatives;
  cm.solver->options().max_iterations = cm.max_iterations;
  cm.solver->options().single_set = cm.single_set;
  pd::solver::WarmStart start;
  if (info.Length() > 4 && info[4].IsObject())
    start = StartReader(env, *cm.solver).Read(info[4].As<Napi::Object>().Get("start"));
  auto r = start.valid() ? cm.solver->solve(cond, &start, nullptr) : cm.solver->solve(cond);
  return ToJs(env, r, cond);
}

Napi::Value EquilibriumBatch(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // The control block also stops building the models and grids (Prepare), not only the solves.
  ControlBlock control = ParseControl(env, info.Length() > 6 ? info[6] : env.Undefined());
  CancelScope cancel_scope(control.cancel);
  Common cm = Prepare(info, 4);
  if (!info[3].IsArray()) throw Napi::TypeError::New(env, "expected an array of conditions");
  auto arr = info[3].As<Napi::Array>();
  std::vector<pd::solver::Conditions> conds;
  for (uint32_t i = 0; i < arr.Length(); ++i) conds.push_back(ParseConditions(env, arr.Get(i)));
  int threads = info.Length() > 5 && info[5].IsNumber() ? info[5].As<Napi::Number>().Int32Value() : 1;
  cm.solver->options().derivatives = cm.derivatives;
  cm.solver->options().max_iterations = cm.max_iterations;
  cm.solver->options().single_set = cm.single_set;
  cm.solver->options().warm_start = cm.warm_start;
  // options.start (with warmStart): the first condition continues from that result
  pd::solver::WarmStart start;
  if (cm.warm_start && info.Length() > 4 && info[4].IsObject())
    start = StartReader(env, *cm.solver).Read(info[4].As<Napi::Object>().Get("start"));
  // options.starts (without warmStart): condition i starts from starts[i] (a previous result; anything else = cold)
  std::vector<pd::solver::WarmStart> starts;
  if (!cm.warm_start && info.Length() > 4 && info[4].IsObject()) {
    Napi::Value list = info[4].As<Napi::Object>().Get("starts");
    if (!list.IsUndefined() && !list.IsNull()) {
      if (!list.IsArray()) throw Napi::TypeError::New(env, "options.starts must be an array of previous results");
      auto a = list.As<Napi::Array>();
      const StartReader reader(env, *cm.solver);
      for (uint32_t i = 0; i < a.Length() && i < conds.size(); ++i) starts.push_back(reader.Read(a.Get(i)));
    }
    // options.local (with starts): condition i gets a local equilibrium when local[i] (WarmStart::local)
    Napi::Value local = info[4].As<Napi::Object>().Get("local");
    if (!local.IsUndefined() && !local.IsNull()) {
      if (!local.IsArray()) throw Napi::TypeError::New(env, "options.local must be an array of booleans");
      auto a = local.As<Napi::Array>();
      for (uint32_t i = 0; i < a.Length() && i < starts.size(); ++i) starts[i].local = a.Get(i).ToBoolean().Value();
    }
  }
  auto rs = cm.solver->solve_batch(conds, threads, pd::cancel_flag(), control.progress,
                                   start.valid() ? &start : nullptr, starts.empty() ? nullptr : &starts);
  ResultWriter w(env);
  for (size_t i = 0; i < rs.size(); ++i) w.Add(rs[i], conds[i]);
  return Napi::Value(env, w.Build());
}

}  // namespace

void RegisterSolver(Napi::Env env, Napi::Object exports) {
  Export<Equilibrium>(env, exports, "equilibrium");
  Export<EquilibriumBatch>(env, exports, "equilibriumBatch");
}

}  // namespace pd::napi
