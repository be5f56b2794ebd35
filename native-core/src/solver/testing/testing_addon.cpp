// TEST-ONLY Node-API addon phasedesk_core_testing.node (binding.gyp target of its own, linked with the
// same engine library as the production addon, which contains none of this directory):
//   solverSelfTest(verbose?) -> {passed, failed, messages}: the solver on the toy models of toy_models.hpp.
//   internalErrorProbe() -> throws: a C++ library exception (std::out_of_range from vector::at) through the
//     same Guard as every production binding, so a test can see what a user would see of a defect.
//   crashForTest() -> never returns: std::abort, what a Rust panic in resvg or a failed assertion in C++ ends in;
//     the service's test calculation __test_crash uses it to prove that a native crash fails its task and not
//     the service (a null-pointer write is not used: the compiler may drop it as undefined behaviour).
#include <napi.h>

#include <cstdlib>
#include <vector>

#include "napi/common.hpp"
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

Napi::Value CrashForTest(const Napi::CallbackInfo& info) {
  std::abort();
  return info.Env().Undefined();
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  pd::napi::Export<SelfTest>(env, exports, "solverSelfTest");
  pd::napi::Export<InternalErrorProbe>(env, exports, "internalErrorProbe");
  exports.Set("crashForTest", Napi::Function::New(env, CrashForTest, "crashForTest"));
  return exports;
}

}  // namespace

NODE_API_MODULE(phasedesk_core_testing, Init)
