// setCancelFlag(control | null): points every later native call on this thread (the main thread or one
// worker thread) at the cancel flag of a control block, so that a call which takes no control block of
// its own (equilibrium, PhaseModel.build, evaluateBatch, ...) still stops when the flag is set: it then
// throws an Error with code PD_CANCELLED. null clears it. worker/core/cancel.ts wraps it (withCancelFlag).
#include <napi.h>

#include "napi/common.hpp"

namespace pd::napi {
namespace {

// The control block stays referenced while it is the thread's flag: the core reads its memory.
struct AmbientFlag {
  napi_env env = nullptr;
  napi_ref ref = nullptr;
  bool hooked = false;
};
thread_local AmbientFlag tl_flag;

void DropReference() {
  if (tl_flag.ref) napi_delete_reference(tl_flag.env, tl_flag.ref);
  tl_flag.ref = nullptr;
  pd::cancellation::current() = nullptr;
}

void ReleaseAtTeardown(void*) {
  DropReference();
  tl_flag.hooked = false;
}

Napi::Value SetCancelFlag(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Value v = info.Length() > 0 ? info[0] : env.Undefined();
  ControlBlock control = ParseControl(env, v);
  DropReference();
  if (control.cancel) {
    if (napi_create_reference(env, v, 1, &tl_flag.ref) != napi_ok) throw Napi::Error::New(env);
    tl_flag.env = env;
    if (!tl_flag.hooked) {
      napi_add_env_cleanup_hook(env, ReleaseAtTeardown, nullptr);
      tl_flag.hooked = true;
    }
    pd::cancellation::current() = control.cancel;
  }
  return env.Undefined();
}

}  // namespace

void RegisterCancel(Napi::Env env, Napi::Object exports) { Export<SetCancelFlag>(env, exports, "setCancelFlag"); }

}  // namespace pd::napi
