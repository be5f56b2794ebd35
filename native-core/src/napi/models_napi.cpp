// Node-API binding of the phase models (models/phase_model.hpp).
//   PhaseModel.build(db, phase, components) -> PhaseModel | null   (null: the phase cannot form, §1.1)
//   model.info()                       -> {name, elements, variables, constraints, flags}
//   model.evaluate(T, P, y, order)     -> {GM, Gf, dGM, d2GM, dGf, d2Gf} (Float64Array over z = (T, P, y))
//   model.properties(T, P, y)          -> {TC, BMAGN, BMAGN_per_atom, VM, GM_NO_IDMIX, Nf}
//   model.moles(y, order)              -> {M, dM, d2M, Nf}
//   model.energies(T, P, Y)            -> Float64Array of GM (value-only fast path, rows of Y)
//   model.energiesTabulated(T, P, Y)   -> the same through the solver's linear tables, or null
//   model.tabulatedRoundingBound(T, P, Y) -> how far those may lie from energies(), J/mol of atoms, or null
//   model.orderingTemperatures(T, P, Y) -> Float64Array of the magnetic ordering temperature per row of Y
//   model.orderingTemperatureMaxTabulated(T, P, Y) -> their largest through the linear tables, or null
//   model.evaluateBatch(T, P, Y, order, threads) -> Float64Array of GM; computes full derivatives
//                                          for every row with OpenMP (benchmarks / sampling)
//   MobilityModel.build(db, phase, components) -> MobilityModel | null (no kinetic parameter for the phase)
//   mobility.elements(); mobility.evaluate(T, P, y, curie, hasMoment) -> sums per kind, M_k, D_k, xi
//   magneticOrderDegree(tau, p)        -> Jonsson's xi of the IHJ function
//   expandedParameterCount(db)         -> number of parameters after the B/F expansion (§5.5)
// Every function is wrapped by Guard (common.hpp): C++ exceptions become JS Errors.
#include <napi.h>

#include <cmath>
#include <memory>
#include <mutex>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "models/mobility_model.hpp"
#include "models/phase_model.hpp"
#include "napi/common.hpp"
#include "napi/io_napi.hpp"

namespace pd::napi {
namespace {

std::vector<double> ArgVector(const Napi::CallbackInfo& info, size_t i, const char* what) {
  if (info.Length() <= i) throw Napi::TypeError::New(info.Env(), std::string("expected numbers for ") + what);
  Napi::Value v = info[i];
  std::vector<double> out;
  if (v.IsTypedArray()) {
    auto ta = v.As<Napi::TypedArray>();
    if (ta.TypedArrayType() != napi_float64_array)
      throw Napi::TypeError::New(info.Env(), std::string("expected a Float64Array for ") + what);
    auto f = v.As<Napi::Float64Array>();
    out.assign(f.Data(), f.Data() + f.ElementLength());
  } else if (v.IsArray()) {
    auto a = v.As<Napi::Array>();
    out.resize(a.Length());
    for (uint32_t k = 0; k < a.Length(); ++k) {
      Napi::Value e = a.Get(k);
      if (!e.IsNumber()) throw Napi::TypeError::New(info.Env(), std::string("non-numeric entry in ") + what);
      out[k] = e.As<Napi::Number>().DoubleValue();
    }
  } else {
    throw Napi::TypeError::New(info.Env(), std::string("expected an array of numbers for ") + what);
  }
  return out;
}

Napi::Float64Array ToF64(Napi::Env env, const std::vector<double>& v) {
  auto a = Napi::Float64Array::New(env, v.size());
  std::copy(v.begin(), v.end(), a.Data());
  return a;
}

// A model of one phase built by `build` from (database, phase, components), wrapped in a new object of class Wrap
// (which keeps the database alive beside it); null when the phase cannot form from the components.
template <class Wrap, class Model>
Napi::Value BuildModel(const Napi::CallbackInfo& info, const char* name,
                       std::shared_ptr<const Model> (*build)(const Database&, const std::string&,
                                                             const std::vector<std::string>&)) {
  return Guard(info.Env(), [&]() -> Napi::Value {
    Napi::Env env = info.Env();
    auto db = UnwrapDatabase(info[0]);
    std::string phase = ArgString(info, 1, "phase name");
    std::vector<std::string> comps = ArgStringArray(env, info[2], "components");
    auto m = build(*db, phase, comps);
    if (!m) return env.Null();
    Napi::Object obj = Wrap::ctor.New(env, {}, name);
    auto* self = Wrap::Unwrap(obj);
    self->db = db;
    self->model = m;
    return obj;
  });
}

class JsPhaseModel : public Napi::ObjectWrap<JsPhaseModel> {
 public:
  static PerEnvConstructor ctor;  // per env: worker threads each load the addon
  std::shared_ptr<const Database> db;
  std::shared_ptr<const PhaseModel> model;
  // last prepared (T, P): parameters are evaluated once per state
  std::unique_ptr<PhaseModel::State> state;
  std::mutex mu;

  static Napi::Function Define(Napi::Env env) {
    return DefineClass(
        env, "PhaseModel",
        {StaticMethod<&JsPhaseModel::Build>("build"), InstanceMethod<&JsPhaseModel::Info>("info"),
         InstanceMethod<&JsPhaseModel::Evaluate>("evaluate"), InstanceMethod<&JsPhaseModel::Properties>("properties"),
         InstanceMethod<&JsPhaseModel::Moles>("moles"), InstanceMethod<&JsPhaseModel::Energies>("energies"),
         InstanceMethod<&JsPhaseModel::EnergiesTabulated>("energiesTabulated"),
         InstanceMethod<&JsPhaseModel::TabulatedRoundingBound>("tabulatedRoundingBound"),
         InstanceMethod<&JsPhaseModel::OrderingTemperatures>("orderingTemperatures"),
         InstanceMethod<&JsPhaseModel::OrderingTemperatureMaxTabulated>("orderingTemperatureMaxTabulated"),
         InstanceMethod<&JsPhaseModel::EvaluateBatch>("evaluateBatch")});
  }
  explicit JsPhaseModel(const Napi::CallbackInfo& info) : Napi::ObjectWrap<JsPhaseModel>(info) {}

  const PhaseModel& M(Napi::Env env) const {
    if (!model) throw Napi::Error::New(env, "PhaseModel is not initialised (use PhaseModel.build)");
    return *model;
  }
  const PhaseModel::State& St(double T, double P) {
    if (!(T > 0) || !std::isfinite(T)) throw std::invalid_argument("temperature must be a positive number of kelvin");
    if (!std::isfinite(P) || P <= 0) throw std::invalid_argument("pressure must be a positive number of pascal");
    if (!state || state->T != T || state->P != P) state = model->prepare(T, P);
    return *state;
  }
  std::vector<double> Sites(const Napi::CallbackInfo& info, size_t i) {
    auto y = ArgVector(info, i, "site fractions");
    if (y.size() != model->variables().size())
      throw std::invalid_argument("expected " + std::to_string(model->variables().size()) +
                                  " site fractions for phase " + model->name() + ", got " + std::to_string(y.size()));
    for (double v : y)
      if (!std::isfinite(v)) throw std::invalid_argument("site fractions must be finite numbers");
    return y;
  }

  static Napi::Value Build(const Napi::CallbackInfo& info) {
    return BuildModel<JsPhaseModel>(info, "PhaseModel", &PhaseModel::build);
  }

  Napi::Value Info(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      Napi::Env env = info.Env();
      const PhaseModel& m = M(env);
      auto o = Napi::Object::New(env);
      o.Set("name", m.name());
      auto els = Napi::Array::New(env);
      for (size_t k = 0; k < m.elements().size(); ++k) els.Set(uint32_t(k), m.elements()[k]);
      o.Set("elements", els);
      auto vars = Napi::Array::New(env);
      for (size_t k = 0; k < m.variables().size(); ++k) {
        auto v = Napi::Object::New(env);
        v.Set("sublattice", m.variables()[k].sublattice);
        v.Set("species", m.variables()[k].species);
        vars.Set(uint32_t(k), v);
      }
      o.Set("variables", vars);
      auto cons = Napi::Array::New(env);
      for (size_t k = 0; k < m.constraints().size(); ++k) {
        auto c = Napi::Object::New(env);
        c.Set("coeff", ToF64(env, m.constraints()[k].coeff));
        c.Set("rhs", m.constraints()[k].rhs);
        c.Set("kind", m.constraints()[k].kind);
        cons.Set(uint32_t(k), c);
      }
      o.Set("constraints", cons);
      o.Set("numSublattices", m.num_sublattices());
      o.Set("charged", m.is_charged());
      o.Set("ionicLiquid", m.is_ionic_liquid());
      o.Set("gas", m.is_gas());
      o.Set("liquid", m.is_liquid());
      return o;
    });
  }

  Napi::Value Evaluate(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      Napi::Env env = info.Env();
      M(env);
      std::lock_guard<std::mutex> lock(mu);
      double T = ArgNumber(info, 0, "T"), P = ArgNumber(info, 1, "P");
      auto y = Sites(info, 2);
      int order = info.Length() > 3 && info[3].IsNumber() ? info[3].As<Napi::Number>().Int32Value() : 2;
      if (order < 0 || order > 2) throw Napi::RangeError::New(env, "derivative order must be 0, 1 or 2");
      EnergyResult r;
      model->energy(St(T, P), y.data(), order, r);
      auto o = Napi::Object::New(env);
      o.Set("GM", r.GM);
      o.Set("Gf", r.Gf);
      o.Set("dGM", ToF64(env, r.dGM));
      o.Set("d2GM", ToF64(env, r.d2GM));
      o.Set("dGf", ToF64(env, r.dGf));
      o.Set("d2Gf", ToF64(env, r.d2Gf));
      return o;
    });
  }

  Napi::Value Properties(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      Napi::Env env = info.Env();
      M(env);
      std::lock_guard<std::mutex> lock(mu);
      double T = ArgNumber(info, 0, "T"), P = ArgNumber(info, 1, "P");
      auto y = Sites(info, 2);
      PhaseProperties p = model->properties(St(T, P), y.data());
      auto o = Napi::Object::New(env);
      o.Set("TC", p.TC);
      o.Set("BMAGN", p.BMAGN);
      o.Set("BMAGN_per_atom", p.BMAGN_per_atom);
      o.Set("VM", p.VM);
      o.Set("GM_NO_IDMIX", p.GM_NO_IDMIX);
      o.Set("Nf", p.Nf);
      return o;
    });
  }

  Napi::Value Moles(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      Napi::Env env = info.Env();
      M(env);
      auto y = Sites(info, 0);
      int order = info.Length() > 1 && info[1].IsNumber() ? info[1].As<Napi::Number>().Int32Value() : 1;
      if (order < 0 || order > 2) throw Napi::RangeError::New(env, "derivative order must be 0, 1 or 2");
      MolesResult r;
      model->moles(y.data(), order, r);
      auto o = Napi::Object::New(env);
      o.Set("M", ToF64(env, r.M));
      o.Set("dM", ToF64(env, r.dM));
      o.Set("d2M", ToF64(env, r.d2M));
      o.Set("Nf", r.Nf);
      return o;
    });
  }

  std::vector<double> Rows(const Napi::CallbackInfo& info, size_t i, size_t& npts) {
    auto Y = ArgVector(info, i, "site-fraction rows");
    const size_t m = model->variables().size();
    if (m == 0 || Y.size() % m != 0)
      throw std::invalid_argument("the number of site fractions is not a multiple of " + std::to_string(m));
    npts = Y.size() / m;
    for (double v : Y)
      if (!std::isfinite(v)) throw std::invalid_argument("site fractions must be finite numbers");
    return Y;
  }

  // A method on the rows of Y (arguments T, P, Y, ...): answer(env, T, P, Y, number of rows), guarded and locked.
  template <class Answer>
  Napi::Value OnRows(const Napi::CallbackInfo& info, Answer&& answer) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      Napi::Env env = info.Env();
      M(env);
      std::lock_guard<std::mutex> lock(mu);
      double T = ArgNumber(info, 0, "T"), P = ArgNumber(info, 1, "P");
      size_t n = 0;
      auto Y = Rows(info, 2, n);
      return answer(env, T, P, Y, n);
    });
  }

  // GM of the rows of Y: point by point, or through PhaseModel::compile_points (the solver's grid path; null
  // when the model has no tabulated form), so tests can hold the two equal.
  Napi::Value GridEnergies(const Napi::CallbackInfo& info, bool tabulated) {
    return OnRows(info, [&](Napi::Env env, double T, double P, const std::vector<double>& Y, size_t n) -> Napi::Value {
      std::vector<double> out(n);
      if (!tabulated) {
        model->energies(St(T, P), Y.data(), n, out.data());
      } else {
        auto table = model->compile_points(Y.data(), n, true);
        if (!table) return env.Null();
        model->energies(St(T, P), *table, out.data());
      }
      return ToF64(env, out);
    });
  }
  Napi::Value Energies(const Napi::CallbackInfo& info) { return GridEnergies(info, false); }
  Napi::Value EnergiesTabulated(const Napi::CallbackInfo& info) { return GridEnergies(info, true); }

  // PhaseModel::energy_rounding_bound of the rows' table (null without one), so tests can hold the tabulated
  // energies within it of the model's.
  Napi::Value TabulatedRoundingBound(const Napi::CallbackInfo& info) {
    return OnRows(info, [&](Napi::Env env, double T, double P, const std::vector<double>& Y, size_t n) -> Napi::Value {
      auto table = model->compile_points(Y.data(), n, true);
      if (!table) return env.Null();
      return Napi::Number::New(env, model->energy_rounding_bound(St(T, P), *table));
    });
  }

  // The magnetic ordering temperature of each row of Y (PhaseModel::magnetic_ordering_temperature), or their
  // largest as the basin check computes it from the grid's linear tables (null without a table), so tests can
  // hold the two equal.
  Napi::Value GridOrderingTemperatures(const Napi::CallbackInfo& info, bool tabulated_max) {
    return OnRows(info, [&](Napi::Env env, double T, double P, const std::vector<double>& Y, size_t n) -> Napi::Value {
      if (tabulated_max) {
        auto table = model->compile_points(Y.data(), n, true);
        if (!table) return env.Null();
        return Napi::Number::New(env, model->magnetic_ordering_temperature_max(St(T, P), *table));
      }
      const size_t m = model->variables().size();
      std::vector<double> out(n);
      for (size_t k = 0; k < n; ++k) out[k] = model->magnetic_ordering_temperature(St(T, P), &Y[k * m]);
      return ToF64(env, out);
    });
  }
  Napi::Value OrderingTemperatures(const Napi::CallbackInfo& info) { return GridOrderingTemperatures(info, false); }
  Napi::Value OrderingTemperatureMaxTabulated(const Napi::CallbackInfo& info) {
    return GridOrderingTemperatures(info, true);
  }

  Napi::Value EvaluateBatch(const Napi::CallbackInfo& info) {
    return OnRows(info, [&](Napi::Env env, double T, double P, const std::vector<double>& Y, size_t n) -> Napi::Value {
      int order = info.Length() > 3 && info[3].IsNumber() ? info[3].As<Napi::Number>().Int32Value() : 2;
      if (order < 0 || order > 2) throw Napi::RangeError::New(env, "derivative order must be 0, 1 or 2");
      int threads = info.Length() > 4 && info[4].IsNumber() ? info[4].As<Napi::Number>().Int32Value() : 1;
      if (threads < 1) threads = 1;
      const PhaseModel::State& st = St(T, P);
      const size_t m = model->variables().size();
      std::vector<double> out(n);
      const PhaseModel* pm = model.get();
      // The cancel flag is read on every thread of the team through this pointer (the thread-local one
      // is the calling thread's); points after a cancel are skipped and the call throws PD_CANCELLED.
      const volatile int32_t* cancel = pd::cancel_flag();
#pragma omp parallel for num_threads(threads) schedule(static)
      for (long k = 0; k < long(n); ++k) {
        if (pd::cancel_requested(cancel)) continue;  // one load beside a full energy evaluation
        EnergyResult r;
        pm->energy(st, Y.data() + size_t(k) * m, order, r);
        out[k] = r.GM;
      }
      pd::throw_if_cancelled();
      return ToF64(env, out);
    });
  }
};
PerEnvConstructor JsPhaseModel::ctor;

// The kinetic parameters of one phase (models/mobility_model.hpp), on the variables of its PhaseModel.
class JsMobilityModel : public Napi::ObjectWrap<JsMobilityModel> {
 public:
  static PerEnvConstructor ctor;
  std::shared_ptr<const Database> db;
  std::shared_ptr<const MobilityModel> model;

  static Napi::Function Define(Napi::Env env) {
    return DefineClass(
        env, "MobilityModel",
        {StaticMethod<&JsMobilityModel::Build>("build"), InstanceMethod<&JsMobilityModel::Elements>("elements"),
         InstanceMethod<&JsMobilityModel::Evaluate>("evaluate")});
  }
  explicit JsMobilityModel(const Napi::CallbackInfo& info) : Napi::ObjectWrap<JsMobilityModel>(info) {}

  static Napi::Value Build(const Napi::CallbackInfo& info) {
    return BuildModel<JsMobilityModel>(info, "MobilityModel", &MobilityModel::build);
  }

  Napi::Value Elements(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      Napi::Env env = info.Env();
      auto els = Napi::Array::New(env, model->elements().size());
      for (size_t k = 0; k < model->elements().size(); ++k) els.Set(uint32_t(k), model->elements()[k]);
      return els;
    });
  }

  // evaluate(T, P, y, curie, hasMoment) -> {MQ, MF, DQ, DF, present, mobility, diffusivity, magneticOrder, alpha}
  Napi::Value Evaluate(const Napi::CallbackInfo& info) {
    return Guard(info.Env(), [&]() -> Napi::Value {
      Napi::Env env = info.Env();
      double T = ArgNumber(info, 0, "T"), P = ArgNumber(info, 1, "P");
      if (!(T > 0) || !std::isfinite(T)) throw std::invalid_argument("temperature must be a positive number of kelvin");
      if (!std::isfinite(P) || P <= 0) throw std::invalid_argument("pressure must be a positive number of pascal");
      auto y = ArgVector(info, 2, "site fractions");
      if (y.size() != model->variable_count())
        throw std::invalid_argument("expected " + std::to_string(model->variable_count()) + " site fractions, got " +
                                    std::to_string(y.size()));
      const double curie = info.Length() > 3 && info[3].IsNumber() ? info[3].As<Napi::Number>().DoubleValue() : 0;
      const bool moment = info.Length() > 4 && info[4].ToBoolean().Value();
      const MobilityModel::Values v = model->evaluate(T, P, y.data(), curie, moment);
      auto o = Napi::Object::New(env);
      const char* names[] = {"MQ", "MF", "DQ", "DF"};
      for (int k = 0; k < MobilityModel::kKinds; ++k) o.Set(names[k], ToF64(env, v.sums[k]));
      std::vector<double> present(v.present.begin(), v.present.end());
      o.Set("present", ToF64(env, present));
      o.Set("mobility", ToF64(env, v.mobility));
      o.Set("diffusivity", ToF64(env, v.diffusivity));
      o.Set("magneticOrder", v.magnetic_order);
      o.Set("alpha", v.alpha);
      return o;
    });
  }
};
PerEnvConstructor JsMobilityModel::ctor;

Napi::Value MagneticOrderDegree(const Napi::CallbackInfo& info) {
  return Guard(info.Env(), [&]() -> Napi::Value {
    return Napi::Number::New(info.Env(), magnetic_order_degree(ArgNumber(info, 0, "tau"), ArgNumber(info, 1, "p")));
  });
}

Napi::Value ExpandedParameterCount(const Napi::CallbackInfo& info) {
  auto db = UnwrapDatabase(info[0]);
  return Napi::Number::New(info.Env(), double(expanded_parameters(*db).size()));
}

Napi::Value MaxThreads(const Napi::CallbackInfo& info) {
#ifdef _OPENMP
  return Napi::Number::New(info.Env(), omp_get_max_threads());
#else
  return Napi::Number::New(info.Env(), 1);
#endif
}

}  // namespace

void RegisterModels(Napi::Env env, Napi::Object exports) {
  Napi::Function f = JsPhaseModel::Define(env);
  JsPhaseModel::ctor.Register(env, f);
  exports.Set("PhaseModel", f);
  Napi::Function mobility = JsMobilityModel::Define(env);
  JsMobilityModel::ctor.Register(env, mobility);
  exports.Set("MobilityModel", mobility);
  Export<MagneticOrderDegree>(env, exports, "magneticOrderDegree");
  Export<ExpandedParameterCount>(env, exports, "expandedParameterCount");
  Export<MaxThreads>(env, exports, "maxThreads");
}

}  // namespace pd::napi
