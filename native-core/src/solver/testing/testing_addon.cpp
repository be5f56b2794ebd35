// TEST-ONLY Node-API addon phasedesk_core_testing.node (binding.gyp target of its own, linked with the
// same engine library as the production addon, which contains none of this directory):
//   solverSelfTest(verbose?) -> {passed, failed, messages}: the solver on the toy models of toy_models.hpp.
//   internalErrorProbe() -> throws: a C++ library exception (std::out_of_range from vector::at) through the
//     same Guard as every production binding, so a test can see what a user would see of a defect.
#include <napi.h>

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

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  pd::napi::Export<SelfTest>(env, exports, "solverSelfTest");
  pd::napi::Export<InternalErrorProbe>(env, exports, "internalErrorProbe");
  return exports;
}

}  // namespace

NODE_API_MODULE(phasedesk_core_testing, Init)
