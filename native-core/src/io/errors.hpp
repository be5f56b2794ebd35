// Errors of the calculation core that a user can act on, each with a machine-readable code, and the
// cooperative cancellation of long native calls. The Node-API layer (napi/common.hpp) turns every
// exception into a JS Error whose `code` property is the name of one of kErrorCodes below; an equilibrium result
// that did not converge carries one as its reason code (solver/equilibrium.hpp, EquilibriumResult::reason_code).
// kErrorCodes is the one list of the codes: worker/core/error-codes.generated.ts is made from it by
// scripts/error-codes.ts, and test/core/error-codes.test.ts fails when the two differ.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

namespace pd {

enum class ErrorCode {
  TdbSyntax,
  TdbLimit,
  TdbMobilityOnly,
  File,
  InvalidArgument,
  Model,
  NotConverged,
  NoEquilibrium,
  Cancelled,
  OutOfMemory,
  Internal,
};

// Each code in the order of ErrorCode: its name (the `code` of the JS Error) and what it means (the doc comment of
// the generated TypeScript list). One entry per line, each text one string literal.
struct ErrorCodeInfo {
  ErrorCode code;
  const char* name;
  const char* meaning;
};
inline constexpr ErrorCodeInfo kErrorCodes[] = {
    // clang-format off
    {ErrorCode::TdbSyntax, "PD_TDB_SYNTAX", "malformed database file; message \"FILE:LINE: text\", with `file`, `line` and `reason`"},
    {ErrorCode::TdbLimit, "PD_TDB_LIMIT", "the database file exceeds a bound of the reader (name length, FUNCTION nesting, size); `file`, `line`, `reason`"},
    {ErrorCode::TdbMobilityOnly, "PD_TDB_MOBILITY_ONLY", "the file holds mobility or diffusivity parameters only (no ELEMENT, no PHASE): it describes the phases of another database and is read beside that one; `file`, `line`, `reason`"},
    {ErrorCode::File, "PD_FILE", "the file cannot be opened or read; `file`, `line` 0, `reason`"},
    {ErrorCode::InvalidArgument, "PD_INVALID_ARGUMENT", "arguments or conditions of the call are not acceptable (also the argument TypeErrors/RangeErrors)"},
    {ErrorCode::Model, "PD_MODEL", "the database's content cannot be used by the models (unsupported model, undefined FUNCTION used, ...)"},
    {ErrorCode::NotConverged, "PD_NOT_CONVERGED", "a numerical step failed; as an equilibrium result's `reasonCode`: the solver did not find the equilibrium (`reason` says why)"},
    {ErrorCode::NoEquilibrium, "PD_NO_EQUILIBRIUM", "an equilibrium result's `reasonCode` when no equilibrium exists at its conditions: a phase whose Gibbs energy per mole of atoms has no lower bound there, or a composition no allowed phase can take"},
    {ErrorCode::Cancelled, "PD_CANCELLED", "stopped by the call's cancel flag (control block or setCancelFlag); also the `reasonCode` of a batch's results not reached"},
    {ErrorCode::OutOfMemory, "PD_OUT_OF_MEMORY", "memory ran out inside the core"},
    {ErrorCode::Internal, "PD_INTERNAL", "a defect of the core; the raw C++ text is only in `detail`, for a bug report"},
    // clang-format on
};

constexpr bool error_codes_in_order() {
  for (size_t i = 0; i < sizeof kErrorCodes / sizeof kErrorCodes[0]; ++i)
    if (static_cast<size_t>(kErrorCodes[i].code) != i) return false;
  return sizeof kErrorCodes / sizeof kErrorCodes[0] == static_cast<size_t>(ErrorCode::Internal) + 1;
}
static_assert(error_codes_in_order(), "kErrorCodes lists every ErrorCode once, in the enum's order");

inline const char* error_code_name(ErrorCode c) { return kErrorCodes[static_cast<size_t>(c)].name; }

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

// The code of an exception as the Node-API layer reports it (napi/common.hpp, Guard): a CoreError's own, the
// core's checks of arguments and conditions (std::invalid_argument) InvalidArgument, std::bad_alloc OutOfMemory,
// anything else Internal.
inline ErrorCode error_code_of(const std::exception& e) {
  if (const auto* core = dynamic_cast<const CoreError*>(&e)) return core->code();
  if (dynamic_cast<const std::invalid_argument*>(&e) != nullptr) return ErrorCode::InvalidArgument;
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) return ErrorCode::OutOfMemory;
  return ErrorCode::Internal;
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
