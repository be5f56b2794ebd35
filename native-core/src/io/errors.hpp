// Errors of the calculation core that a user can act on, each with a machine-readable code, and the
// cooperative cancellation of long native calls. The Node-API layer (napi/common.hpp) turns every
// exception into a JS Error whose `code` property is one of kErrorCodes below; the TypeScript
// declaration of the same set is worker/core/errors.ts.
#pragma once

#include <cstdint>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

namespace pd {

enum class ErrorCode {
  TdbSyntax,        // PD_TDB_SYNTAX: the database file is malformed (message "FILE:LINE: text")
  TdbLimit,         // PD_TDB_LIMIT: the file exceeds a documented bound of the reader (name length, nesting, size)
  File,             // PD_FILE: the file cannot be opened or read
  InvalidArgument,  // PD_INVALID_ARGUMENT: a call's arguments or conditions are not acceptable
  Model,            // PD_MODEL: the database's content cannot be used by the models (unsupported model, ...)
  NotConverged,     // PD_NOT_CONVERGED: a numerical step failed (results that merely did not converge say so in
                    // their `converged`/`reason` fields instead)
  Cancelled,        // PD_CANCELLED: the call was stopped by its cancel flag
  OutOfMemory,      // PD_OUT_OF_MEMORY: memory ran out inside the core
  Internal,         // PD_INTERNAL: a defect of the core (its raw C++ text is kept out of the message)
};

inline const char* error_code_name(ErrorCode c) {
  switch (c) {
    case ErrorCode::TdbSyntax:
      return "PD_TDB_SYNTAX";
    case ErrorCode::TdbLimit:
      return "PD_TDB_LIMIT";
    case ErrorCode::File:
      return "PD_FILE";
    case ErrorCode::InvalidArgument:
      return "PD_INVALID_ARGUMENT";
    case ErrorCode::Model:
      return "PD_MODEL";
    case ErrorCode::NotConverged:
      return "PD_NOT_CONVERGED";
    case ErrorCode::Cancelled:
      return "PD_CANCELLED";
    case ErrorCode::OutOfMemory:
      return "PD_OUT_OF_MEMORY";
    case ErrorCode::Internal:
      return "PD_INTERNAL";
  }
  return "PD_INTERNAL";
}

// An error whose message is meant for the user as it is.
class CoreError : public std::runtime_error {
 public:
  CoreError(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

// Thrown where a long native call sees its cancel flag set.
class Cancelled : public CoreError {
 public:
  Cancelled() : CoreError(ErrorCode::Cancelled, "calculation cancelled") {}
};

constexpr const char* kInternalErrorMessage =
    "internal error in the calculation core (a defect, not a problem of your input): please report it with the "
    "database and the task's conditions";

// The text of an exception fit for a user: the core's own messages as they are; a C++ library message
// (std::out_of_range's "vector::_M_range_check: ...", ...) is replaced by a sentence saying a defect happened.
inline std::string user_message(const std::exception& e) {
  if (dynamic_cast<const CoreError*>(&e) != nullptr || dynamic_cast<const std::invalid_argument*>(&e) != nullptr)
    return e.what();
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) return "out of memory in the calculation core";
  return kInternalErrorMessage;
}

// ------------------------------------------------------------------------------------------------
// Cancellation. The binding points the calling thread at the cancel flag of the running call (an Int32
// in shared memory that another thread sets to non-zero); long loops poll it. A loop inside an OpenMP
// region reads the flag through cancel_flag() captured before the region (the thread-local pointer is
// only set on the calling thread), skips its remaining work, and the caller throws after the region.
namespace cancellation {
inline const volatile int32_t*& current() {
  static thread_local const volatile int32_t* flag = nullptr;
  return flag;
}
}  // namespace cancellation

inline const volatile int32_t* cancel_flag() { return cancellation::current(); }
inline bool cancel_requested(const volatile int32_t* flag) { return flag != nullptr && *flag != 0; }
inline bool cancel_requested() { return cancel_requested(cancellation::current()); }
inline void throw_if_cancelled() {
  if (cancel_requested()) throw Cancelled();
}

// Points this thread at `flag` for the scope's lifetime (nullptr keeps the flag already set, so a nested
// scope without a flag of its own does not hide its caller's).
class CancelScope {
 public:
  explicit CancelScope(const volatile int32_t* flag) : saved_(cancellation::current()) {
    if (flag) cancellation::current() = flag;
  }
  ~CancelScope() { cancellation::current() = saved_; }
  CancelScope(const CancelScope&) = delete;
  CancelScope& operator=(const CancelScope&) = delete;

 private:
  const volatile int32_t* saved_;
};

}  // namespace pd
