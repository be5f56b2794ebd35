// Shared helpers for every Node-API binding of the core.
//
// Rule (notes/common.md): no C++ exception may cross into JavaScript uncaught. node-addon-api (built
// with NAPI_CPP_EXCEPTIONS but without NODE_ADDON_API_CPP_EXCEPTIONS_ALL) only converts Napi::Error;
// a std::exception escaping a callback would terminate the process. Every exported function and
// ObjectWrap method is therefore wrapped with Guard()/Wrap<>() below, which turn any exception into
// a JS Error carrying the exception's message. A pd::TdbError keeps its "FILE:LINE: text" message
// and additionally sets `file`, `line` and `reason` properties on the Error.
#pragma once

#include <napi.h>

#include <cctype>
#include <string>
#include <vector>

#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "io/database.hpp"

namespace pd::napi {

// Runs f() (returning a Napi::Value, or void) and converts C++ exceptions to JS Errors.
template <typename F>
auto Guard(Napi::Env env, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Napi::Error&) {
    throw;  // already a JS error (e.g. a TypeError from argument checks)
  } catch (const pd::TdbError& e) {
    Napi::Error err = Napi::Error::New(env, e.what());
    err.Set("file", Napi::String::New(env, e.file()));
    err.Set("line", Napi::Number::New(env, e.line()));
    err.Set("reason", Napi::String::New(env, e.message()));
    throw err;
  } catch (const std::bad_alloc&) {
    throw Napi::Error::New(env, "out of memory in the calculation core");
  } catch (const std::exception& e) {
    throw Napi::Error::New(env, e.what());
  } catch (...) {
    throw Napi::Error::New(env, "unknown error in the calculation core");
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
inline std::vector<std::string> ArgStringArray(Napi::Env env, const Napi::Value& v, const char* what, bool optional = false) {
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
