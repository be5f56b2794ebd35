// Node-API entry of the calculation core. Each layer registers its own functions; C++ exceptions
// are caught inside every exported function (see napi/common.hpp) and never reach JavaScript as
// anything but an Error with a clear message and a `code`.
#include <napi.h>

#include <cstdlib>

namespace pd::napi {
void RegisterIo(Napi::Env env, Napi::Object exports);
void RegisterModels(Napi::Env env, Napi::Object exports);
void RegisterSolver(Napi::Env env, Napi::Object exports);
void RegisterCancel(Napi::Env env, Napi::Object exports);
}  // namespace pd::napi

// A real native crash (std::abort, what a Rust panic in resvg or a failed assertion in C++ ends in), used
// only by the service's test calculation __test_crash to prove that it fails its task and not the service.
// (A null-pointer write is not used: the compiler may drop it as undefined behaviour.)
static Napi::Value CrashForTest(const Napi::CallbackInfo& info) {
  std::abort();
  return info.Env().Undefined();
}

static Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("coreVersion", Napi::String::New(env, "0.1.0"));
  exports.Set("crashForTest", Napi::Function::New(env, CrashForTest, "crashForTest"));
  pd::napi::RegisterIo(env, exports);
  pd::napi::RegisterModels(env, exports);
  pd::napi::RegisterSolver(env, exports);
  pd::napi::RegisterCancel(env, exports);
  return exports;
}

NODE_API_MODULE(phasedesk_core, Init)
