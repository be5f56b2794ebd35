// TEST-ONLY Node-API addon phasedesk_core_testing.node (binding.gyp target of its own, linked with the
// same engine library as the production addon, which contains none of this directory):
//   solverSelfTest(verbose?) -> {passed, failed, messages}: the solver on the toy models of toy_models.hpp.
//   internalErrorProbe() -> throws: a C++ library exception (std::out_of_range from vector::at) through the
//     same Guard as every production binding, so a test can see what a user would see of a defect.
//   energyChangeBound(tdbPath, phase, components, T0, T1) -> {points, magnetic, largestChange, bound}: the bound
//     of PhaseModel::energy_change_bound and the real largest change over the phase's sampled grid.
//   warmSequence(tdbPath, phases, components, xElements, xValues, temperatures) -> {points, staleGrids, sparedScans, sparedScanViolations, linearizations}: a line of
//     warm-started equilibria, with the number of phase grids kept at an earlier temperature's energies.
//   crashForTest() -> never returns: std::abort, what a Rust panic in resvg or a failed assertion in C++ ends in;
//     the service's test calculation __test_crash uses it to prove that a native crash fails its task and not
//     the service (a null-pointer write is not used: the compiler may drop it as undefined behaviour).
#include <napi.h>

#include <cstdlib>
#include <vector>

#include "napi/common.hpp"
#include "solver/testing/energy_bound_check.hpp"
#include "solver/testing/toy_models.hpp"

namespace {

Napi::Value SelfTest(const Napi::CallbackInfo& info) {
  int verbose = info.Length() > 0 && info[0].IsBoolean() && info[0].As<Napi::Boolean>().Value() ? 1 : 0;
  std::string json = pd::solver::testing::run_self_test(verbose);
  Napi::Object JSON = info.Env().Global().Get("JSON").As<Napi::Object>();
  return JSON.Get("parse").As<Napi::Function>().Call(JSON, {Napi::String::New(info.Env(), json)});
}

Napi::Value InternalErrorProbe(const Napi::CallbackInfo& info) {
  std::vector<int> none;
  return Napi::Number::New(info.Env(), none.at(3));
}

std::vector<std::string> strings(const Napi::Value& v) {
  std::vector<std::string> out;
  const Napi::Array list = v.As<Napi::Array>();
  for (uint32_t i = 0; i < list.Length(); ++i) out.push_back(list.Get(i).As<Napi::String>().Utf8Value());
  return out;
}

std::vector<double> numbers(const Napi::Value& v) {
  std::vector<double> out;
  const Napi::Array list = v.As<Napi::Array>();
  for (uint32_t i = 0; i < list.Length(); ++i) out.push_back(list.Get(i).As<Napi::Number>().DoubleValue());
  return out;
}

Napi::Array number_array(Napi::Env env, const std::vector<double>& v) {
  Napi::Array a = Napi::Array::New(env, v.size());
  for (uint32_t i = 0; i < v.size(); ++i) a.Set(i, Napi::Number::New(env, v[i]));
  return a;
}

Napi::Value EnergyChangeBound(const Napi::CallbackInfo& info) {
  const std::vector<std::string> components = strings(info[2]);
  const pd::solver::testing::EnergyBoundCheck r = pd::solver::testing::check_energy_change_bound(
      info[0].As<Napi::String>().Utf8Value(), info[1].As<Napi::String>().Utf8Value(), components,
      info[3].As<Napi::Number>().DoubleValue(), info[4].As<Napi::Number>().DoubleValue());
  Napi::Object o = Napi::Object::New(info.Env());
  o.Set("points", Napi::Number::New(info.Env(), double(r.points)));
  o.Set("magnetic", Napi::Boolean::New(info.Env(), r.magnetic));
  o.Set("largestChange", Napi::Number::New(info.Env(), r.largest_change));
  o.Set("bound", Napi::Number::New(info.Env(), r.bound));
  return o;
}

Napi::Value WarmSequence(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const pd::solver::testing::WarmSequence r =
      pd::solver::testing::warm_sequence(info[0].As<Napi::String>().Utf8Value(), strings(info[1]), strings(info[2]),
                                         strings(info[3]), numbers(info[4]), numbers(info[5]));
  Napi::Array points = Napi::Array::New(env, r.points.size());
  for (uint32_t i = 0; i < r.points.size(); ++i) {
    const auto& p = r.points[i];
    Napi::Object o = Napi::Object::New(env);
    o.Set("converged", Napi::Boolean::New(env, p.converged));
    Napi::Array names = Napi::Array::New(env, p.phases.size());
    for (uint32_t k = 0; k < p.phases.size(); ++k) names.Set(k, Napi::String::New(env, p.phases[k]));
    o.Set("phases", names);
    o.Set("amounts", number_array(env, p.amounts));
    o.Set("mu", number_array(env, p.mu));
    o.Set("GM", Napi::Number::New(env, p.GM));
    points.Set(i, o);
  }
  Napi::Object out = Napi::Object::New(env);
  out.Set("points", points);
  out.Set("staleGrids", Napi::Number::New(env, double(r.stale_grids)));
  out.Set("sparedScans", Napi::Number::New(env, double(r.spared_scans)));
  out.Set("sparedScanViolations", Napi::Number::New(env, double(r.spared_scan_violations)));
  out.Set("linearizations", Napi::Number::New(env, double(r.linearizations)));
  return out;
}

Napi::Value CrashForTest(const Napi::CallbackInfo& info) {
  std::abort();
  return info.Env().Undefined();
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  pd::napi::Export<SelfTest>(env, exports, "solverSelfTest");
  pd::napi::Export<InternalErrorProbe>(env, exports, "internalErrorProbe");
  pd::napi::Export<EnergyChangeBound>(env, exports, "energyChangeBound");
  pd::napi::Export<WarmSequence>(env, exports, "warmSequence");
  exports.Set("crashForTest", Napi::Function::New(env, CrashForTest, "crashForTest"));
  return exports;
}

}  // namespace

NODE_API_MODULE(phasedesk_core_testing, Init)
