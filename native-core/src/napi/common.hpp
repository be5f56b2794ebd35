// Shared helpers for every Node-API binding of the core.
//
// Rule: no C++ exception may cross into JavaScript uncaught. node-addon-api (built with
// NAPI_CPP_EXCEPTIONS but without NODE_ADDON_API_CPP_EXCEPTIONS_ALL) only converts Napi::Error; a
// std::exception escaping a callback would terminate the process. Every exported function and ObjectWrap
// method is therefore wrapped with Guard()/Wrap<>() below, which turn any exception into a JS Error with
// a clear message and a machine-readable `code` property (as better-sqlite3's SqliteError does): the name of one of
// the codes listed in io/errors.hpp (kErrorCodes, what each means). A TdbError (PD_TDB_SYNTAX, PD_TDB_LIMIT,
// PD_FILE) also has `file`, `line` and `reason`; a defect of the core (PD_INTERNAL) has the message
// kInternalErrorMessage, the raw C++ text (vector::_M_range_check, ...) only in the `detail` property kept for a bug
// report; every TypeError and RangeError of the argument checks is PD_INVALID_ARGUMENT.
#pragma once

#include <napi.h>

#include <cctype>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "io/database.hpp"

namespace pd::napi {

inline Napi::Error CodedError(Napi::Env env, const std::string& message, const char* code) {
  Napi::Error err = Napi::Error::New(env, message);
  err.Set("code", Napi::String::New(env, code));
  return err;
}

// Runs f() (returning a Napi::Value, or void) and converts C++ exceptions to JS Errors with a code.
template <typename F>
auto Guard(Napi::Env env, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (Napi::Error& e) {
    // Argument checks (TypeError, RangeError) and errors made in the bindings; a JS exception thrown by a
    // getter the binding called keeps whatever it carries.
    if (!e.IsEmpty() && e.Value().IsObject() && !e.Value().Has("code"))
      e.Set("code", Napi::String::New(env, error_code_name(ErrorCode::InvalidArgument)));
    throw;
  } catch (const pd::TdbError& e) {
    Napi::Error err = CodedError(env, e.what(), error_code_name(e.code()));
    err.Set("file", Napi::String::New(env, e.file()));
    err.Set("line", Napi::Number::New(env, e.line()));
    err.Set("reason", Napi::String::New(env, e.message()));
    throw err;
  } catch (const std::exception& e) {
    // the core's own errors and its checks of conditions and options keep their messages, written for the user
    // (user_message, error_code_of in io/errors.hpp)
    const ErrorCode code = error_code_of(e);
    Napi::Error err = CodedError(env, user_message(e), error_code_name(code));
    if (code == ErrorCode::Internal) err.Set("detail", Napi::String::New(env, e.what()));
    throw err;
  } catch (...) {
    throw CodedError(env, "internal error in the calculation core (unknown exception)",
                     error_code_name(ErrorCode::Internal));
  }
}

// Adapter for a free callback: Napi::Function::New(env, Wrap<&MyFunction>, "name").
template <Napi::Value (*Fn)(const Napi::CallbackInfo&)>
Napi::Value Wrap(const Napi::CallbackInfo& info) {
  return Guard(info.Env(), [&]() { return Fn(info); });
}

// Registers a guarded free function on `exports`.
template <Napi::Value (*Fn)(const Napi::CallbackInfo&)>
void Export(Napi::Env env, Napi::Object exports, const char* name) {
  exports.Set(name, Napi::Function::New(env, Wrap<Fn>, name));
}

// Argument helpers that throw Napi::TypeError with a useful message.
inline std::string ArgString(const Napi::CallbackInfo& info, size_t i, const char* what) {
  if (info.Length() <= i || !info[i].IsString())
    throw Napi::TypeError::New(info.Env(), std::string("expected a string for ") + what);
  return info[i].As<Napi::String>().Utf8Value();
}
inline double ArgNumber(const Napi::CallbackInfo& info, size_t i, const char* what) {
  if (info.Length() <= i || !info[i].IsNumber())
    throw Napi::TypeError::New(info.Env(), std::string("expected a number for ") + what);
  return info[i].As<Napi::Number>().DoubleValue();
}

// A JS array of strings (element, component or phase names), upper-cased: TDB names are
// case-insensitive. undefined/null give an empty list where `optional` allows it.
inline std::vector<std::string> ArgStringArray(Napi::Env env, const Napi::Value& v, const char* what,
                                               bool optional = false) {
  std::vector<std::string> out;
  if (optional && (v.IsUndefined() || v.IsNull())) return out;
  const std::string message = std::string("expected an array of strings for ") + what;
  if (!v.IsArray()) throw Napi::TypeError::New(env, message);
  auto a = v.As<Napi::Array>();
  for (uint32_t i = 0; i < a.Length(); ++i) {
    Napi::Value e = a.Get(i);
    if (!e.IsString()) throw Napi::TypeError::New(env, message);
    std::string s = e.As<Napi::String>().Utf8Value();
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    out.push_back(std::move(s));
  }
  return out;
}

// A call's control block: Int32 at byte 0 = cancel flag (non-zero = stop), Float64 at byte 8 = progress
// 0..1. Accepted as a typed-array view (Int32Array over a SharedArrayBuffer), an ArrayBuffer or a
// SharedArrayBuffer of at least 16 bytes; undefined/null = none (both pointers null).
struct ControlBlock {
  const volatile int32_t* cancel = nullptr;
  double* progress = nullptr;
};
inline ControlBlock ParseControl(Napi::Env env, const Napi::Value& v) {
  ControlBlock c;
  if (v.IsUndefined() || v.IsNull()) return c;
  void* data = nullptr;
  size_t bytes = 0;
  if (v.IsTypedArray()) {
    napi_typedarray_type type;
    size_t length = 0, offset = 0;
    napi_value ab;
    if (napi_get_typedarray_info(env, v, &type, &length, &data, &ab, &offset) != napi_ok) data = nullptr;
    bytes = v.As<Napi::TypedArray>().ByteLength();
  } else if (napi_get_arraybuffer_info(env, v, &data, &bytes) != napi_ok) {
    // a SharedArrayBuffer is not an ArrayBuffer for node-addon-api, but napi_get_arraybuffer_info reads it
    data = nullptr;
  }
  if (!data || bytes < 16)
    throw Napi::TypeError::New(env, "control must be a SharedArrayBuffer (or a view of one) of at least 16 bytes");
  c.cancel = static_cast<const volatile int32_t*>(data);
  c.progress = reinterpret_cast<double*>(static_cast<char*>(data) + 8);
  return c;
}

// The constructor of a wrapped class, one per Node-API environment. The addon is loaded once per
// process, but the main thread and every worker thread (piscina) have their own env: a reference
// made in one env must never be used from another (V8 aborts: "Entering the V8 API without proper
// locking"). Registered at module init, released by the env's cleanup hook.
class PerEnvConstructor {
 public:
  void Register(Napi::Env env, Napi::Function cls) {
    auto* ref = new Napi::FunctionReference(Napi::Persistent(cls));
    auto* hook = new Hook{this, env};
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = refs_.find(env);
      if (it != refs_.end()) delete it->second;
      refs_[env] = ref;
    }
    napi_add_env_cleanup_hook(env, &PerEnvConstructor::Release, hook);
  }
  Napi::Object New(Napi::Env env, const std::initializer_list<napi_value>& args, const char* what) {
    Napi::FunctionReference* ref = nullptr;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = refs_.find(env);
      if (it != refs_.end()) ref = it->second;
    }
    if (ref == nullptr) throw Napi::Error::New(env, std::string(what) + " class not registered in this environment");
    return ref->New(args);
  }

 private:
  struct Hook {
    PerEnvConstructor* self;
    napi_env env;
  };
  static void Release(void* arg) {
    auto* hook = static_cast<Hook*>(arg);
    {
      std::lock_guard<std::mutex> lock(hook->self->mu_);
      auto it = hook->self->refs_.find(hook->env);
      if (it != hook->self->refs_.end()) {
        delete it->second;
        hook->self->refs_.erase(it);
      }
    }
    delete hook;
  }
  std::mutex mu_;
  std::map<napi_env, Napi::FunctionReference*> refs_;
};

}  // namespace pd::napi
