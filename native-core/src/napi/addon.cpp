// Node-API entry of the calculation core. Each layer registers its own functions; C++ exceptions
// are caught inside every exported function (see napi/common.hpp) and never reach JavaScript as
// anything but an Error with a clear message and a `code`.
#include <napi.h>

namespace pd::napi {
void RegisterIo(Napi::Env env, Napi::Object exports);
void RegisterModels(Napi::Env env, Napi::Object exports);
void RegisterSolver(Napi::Env env, Napi::Object exports);
void RegisterCancel(Napi::Env env, Napi::Object exports);
}  // namespace pd::napi

static Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("coreVersion", Napi::String::New(env, "0.1.0"));
  pd::napi::RegisterIo(env, exports);
  pd::napi::RegisterModels(env, exports);
  pd::napi::RegisterSolver(env, exports);
  pd::napi::RegisterCancel(env, exports);
  return exports;
}

NODE_API_MODULE(phasedesk_core, Init)
