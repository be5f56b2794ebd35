// The in-memory thermodynamic database: what the TDB reader (io/) produces and the phase models
// (models/) consume. This header is the contract between the two; keep it small and stable.
//
// Conventions (../shared/design/calphad-formulas.md §0, §2.1, §10):
//  * every name is upper case;
//  * parameter constituents are sorted ASCII-wise inside each sublattice when read (the ionic-liquid
//    anion-sublattice re-ordering of §2.1 is done by the model, which knows the charges);
//  * temperature ranges are [T_k, T_k+1), the first and last ranges are extrapolated (§0 "Temperature ranges").
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/errors.hpp"

namespace pd {

// Gas constant used by the models and by the symbol R (R#) inside TDB expressions (§10: the
// pycalphad regression values need 8.3145; Thermo-Calc uses 8.31451).
constexpr double kGasConstant = 8.3145;

// A value with its first and second derivatives with respect to temperature and pressure.
struct TPJet {
  double v = 0, t = 0, p = 0, tt = 0, tp = 0, pp = 0;
};

// Error in a database file: names the file and line; what() is the full human-readable message
// "FILE:LINE: what is wrong". code() is ErrorCode::TdbSyntax for a malformed file, TdbLimit for a file
// beyond one of the reader's bounds (README "What the reader does with the shared databases"), File for
// a file that cannot be read.
class TdbError : public CoreError {
 public:
  TdbError(const std::string& file, int line, const std::string& message, ErrorCode code = ErrorCode::TdbSyntax)
      : CoreError(code, file + ":" + std::to_string(line) + ": " + message),
        file_(file),
        line_(line),
        message_(message) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  std::string message_;
};

// Bounds of the reader (a file beyond them is refused with ErrorCode::TdbLimit). Real databases stay far
// below: the longest name among the shared databases has 15 characters (Thermo-Calc itself allows 24 for
// a phase), the deepest chain of FUNCTION references is 10 (cfe_broshe.tdb). Evaluation follows FUNCTION
// references recursively, so the depth bound is what keeps the native stack safe on any thread.
constexpr size_t kMaxNameLength = 64;  // element, species, phase, FUNCTION and parameter names
constexpr int kMaxFunctionDepth = 64;  // FUNCTION -> FUNCTION -> ... references, counting the first
constexpr size_t kMaxElements = 256;   // ELEMENT commands (species formulas are matched against every element)

using ExprId = int32_t;  // handle of a (piecewise) expression owned by the Database
constexpr ExprId kNoExpr = -1;

struct Element {
  std::string name;             // "AL", "VA", "/-" (electron) ...
  std::string reference_phase;  // e.g. "FCC_A1"
  double mass = 0;              // g/mol, from the ELEMENT line
  double h298 = 0, s298 = 0;
  int line = 0;
};

struct Species {
  std::string name;                           // "AL", "FE+2", "O2", "AL2O3", "VA"
  std::map<std::string, double> composition;  // element -> moles in one species; empty for VA
  double charge = 0;                          // from "FE1/+2"
  int line = 0;                               // 0 for the implicit species of an element
};

struct MagneticType {
  double afm = 0;  // antiferromagnetic factor: -1 (BCC), -3 (others); 0 selects the Xiong model (§3.3)
  double p = 0;    // structure factor
};

struct PhaseDef {
  std::string name;
  std::string options;     // option letters that followed ':' on the PHASE line (L, G, A, Y, I, B, F)
  std::string type_codes;  // the type-definition characters of the PHASE line
  std::vector<double> site_ratios;
  std::vector<std::vector<std::string>> constituents;  // per sublattice, as declared by CONSTITUENT
  std::optional<MagneticType> magnetic;                // from a MAGNETIC type definition of one of type_codes
  std::string disordered_part;                         // on an ordered phase: its DIS_PART phase
  std::vector<std::string> ordered_parents;            // on a disordered phase: every phase that names it
  // Non-empty when the phase cannot be used: the reason names the model, the phase and the file.
  // The rest of the database still loads.
  std::string refusal;
  // Named by `DEFAULT_COMMAND REJECT_PHASE` in the file: the database's author keeps the phase out of
  // the default system (alternative models of one phase, a gas). It is used only when asked for by name.
  bool rejected_by_default = false;
  int line = 0;
};

// A problem of the file that did not stop the load: a command ignored, or dropped with what depends on it.
struct LoadWarning {
  std::string file;     // the file name without its folders
  int line = 0;         // 0: the file as a whole
  std::string message;  // what is wrong and what was ignored or dropped
  std::string phase;    // the phase the command belongs to or that was dropped, "" when none
  // "FILE:LINE: message" ("FILE: message" for the file as a whole)
  std::string text() const {
    return line > 0 ? file + ":" + std::to_string(line) + ": " + message : file + ": " + message;
  }
};

// How the sublattices of an ordered phase map onto those of its DIS_PART phase. Thermo-Calc's rules for
// AMEND_PHASE_DESCRIPTION ... DISORDERED_PART (the requirements Thermo-Calc prints when a database breaks them,
// quoted in pycalphad issue 345; Lukas, Fries and Sundman, Computational Thermodynamics, CUP 2007, §5.8.4): the
// first sublattices of the ordered phase merge into sublattice 1 of the disordered phase, which holds every
// constituent of those sublattices (a constituent may be absent from some of them: mc_al's GP_MAT orders
// (AL,MG,SI) on the fcc sites of FCC_A1, which takes 16 elements); the remaining sublattices of both phases are the
// interstitial ones, in order. The merged sublattices must hold as many sites as sublattice 1 of the disordered
// phase and each interstitial sublattice as many as its counterpart (Thermo-Calc accepts proportional site
// counts, but one magnetic term per formula unit cannot carry the disordered part scaled).
struct OrderDisorderLayout {
  size_t ordering_sublattices = 0;  // the first sublattices of the ordered phase, merged into sublattice 1
  std::string mismatch;             // non-empty: why the two phases do not map onto each other
};
OrderDisorderLayout order_disorder_layout(const PhaseDef& ordered, const PhaseDef& disordered);

struct Parameter {
  std::string type;  // canonical: G (also for L(...)), TC, BMAGN (also BM), NT, THETA, GD, V0, VA, VK, VC, MQ, ...
  bool written_as_l = false;  // L(...) rather than G(...): never an end member (§0)
  std::string phase;
  std::string phase_qualifier;  // text after '&' in MQ(PHASE&EL,...) etc.: the diffusing element; usually empty
  // Per sublattice, sorted; "*" is the wildcard. Exception (§7.1): for an ionic liquid (option Y)
  // a one-sublattice array of neutral species, e.g. G(IONIC_LIQ,S;0), is kept as written (size 1);
  // it belongs to the anion sublattice (index 1).
  std::vector<std::vector<std::string>> constituents;
  int order = 0;
  ExprId expr = kNoExpr;
  int line = 0;
  std::string file;  // the file it was read from, without its folders (the mobility file's for its parameters)
};

// Per-(T, P) evaluation context: FUNCTIONs referenced by several parameters are evaluated once.
// One context per thread (the Database itself is immutable and shared). Defined here (not only
// forward-declared) so that callers can hold std::unique_ptr<EvalContext> and re-target it cheaply.
class EvalContext {
 public:
  EvalContext(double T, double P, size_t n_functions) : T_(T), P_(P), stamp_(n_functions, 0), value_(n_functions) {}
  double T() const { return T_; }
  double P() const { return P_; }
  // Moves the context to another (T, P); every cached FUNCTION value is invalidated in O(1).
  void reset(double T, double P) {
    T_ = T;
    P_ = P;
    sp_ = 0;
    if (++generation_ == 0) {  // wrapped around: clear stamps explicitly
      std::fill(stamp_.begin(), stamp_.end(), 0u);
      generation_ = 1;
    }
  }

  // Implementation data (used by the database implementation in io/; not for callers).
  double T_, P_;
  uint32_t generation_ = 1;
  std::vector<uint32_t> stamp_;  // per FUNCTION: generation_ when value_ was computed; 0 = never
  std::vector<TPJet> value_;
  std::vector<uint8_t> busy_;  // per FUNCTION: being evaluated (guards against cycles)
  std::vector<TPJet> stack_;   // scratch operand stack of the expression machine
  size_t sp_ = 0;              // first free slot of stack_ (frames of nested FUNCTION evaluations)
};

class Database {
 public:
  virtual ~Database() = default;

  // Reads a TDB file. A malformed or unusable command is dropped with what depends on it, with a warning
  // (warnings()); throws TdbError when nothing usable remains (the first dropped command's FILE:LINE), for a
  // file beyond a bound of the reader (ErrorCode::TdbLimit) or one that cannot be read. Never crashes on any input.
  static std::shared_ptr<Database> from_file(const std::string& path);
  static std::shared_ptr<Database> from_string(const std::string& text, const std::string& file_name);
  // Reads a thermodynamic TDB file and, beside it, a file of mobility data for its phases (DICTRA format: MQ, MF,
  // DQ, DF parameters). The mobility file adds its FUNCTIONs and mobility PARAMETERs only; every other command of it
  // is ignored with a warning, a parameter that does not fit the thermodynamic database is dropped with a warning
  // naming the mobility file and line. Throws as from_file, and TdbError naming the mobility file when none of its
  // parameters is usable.
  static std::shared_ptr<Database> from_files(const std::string& thermo_path, const std::string& mobility_path);
  static std::shared_ptr<Database> from_strings(const std::string& thermo_text, const std::string& thermo_name,
                                                const std::string& mobility_text, const std::string& mobility_name);

  // What a file of mobility data alone names (it has no ELEMENT or PHASE: from_file refuses it with
  // ErrorCode::TdbMobilityOnly): the phases and diffusing elements of its mobility parameters, sorted, their count
  // and the warnings of reading its commands. Throws TdbError when it holds no mobility parameter.
  struct MobilitySummary {
    std::vector<std::string> phases, elements;
    size_t parameters = 0;
    std::vector<LoadWarning> warnings;
  };
  static MobilitySummary mobility_summary(const std::string& text, const std::string& file_name);

  const std::string& file_name() const { return file_name_; }
  const std::map<std::string, Element>& elements() const { return elements_; }
  const std::map<std::string, Species>& species() const { return species_; }  // includes one per element and VA
  const std::vector<PhaseDef>& phases() const { return phases_; }
  const PhaseDef* phase(const std::string& name) const;
  const std::vector<Parameter>& parameters() const { return parameters_; }
  // Parameters of one phase, in file order.
  std::vector<const Parameter*> parameters_of(const std::string& phase) const;
  // What did not stop the load: commands ignored, or dropped with what depends on them, each at its line.
  const std::vector<LoadWarning>& warnings() const { return warnings_; }

  // Phases that can exist with the given elements (VA implied): every sublattice keeps at least one
  // constituent made only of these elements, the phase is not refused, and the phase is not a pure
  // vacancy (§1.1). A DIS_PART phase is listed too (callers decide about §5.1). Phases rejected by
  // default (PhaseDef::rejected_by_default) are left out unless `include_rejected`.
  std::vector<std::string> phases_for(const std::vector<std::string>& elements, bool include_rejected = false) const;

  // A copy in which the FUNCTION (or symbol) of that name is replaced by a constant
  // (validation "parameter_overrides"). Throws std::invalid_argument for an unknown name.
  virtual std::shared_ptr<Database> with_overrides(const std::map<std::string, double>& overrides) const = 0;

  // Expression evaluation with exact first and second T/P derivatives.
  virtual std::unique_ptr<EvalContext> make_context(double T, double P) const = 0;
  virtual TPJet evaluate(ExprId expr, EvalContext& ctx) const = 0;

  // Added by io/: the expression of a FUNCTION (or symbol) by name (case-insensitive), kNoExpr if
  // there is none. Evaluating it honours with_overrides() and the per-context cache.
  virtual ExprId function_expr(const std::string& name) const { return kNoExpr; }
  // Names of all FUNCTIONs, in file order.
  virtual std::vector<std::string> function_names() const { return {}; }

 protected:
  std::string file_name_;
  std::map<std::string, Element> elements_;
  std::map<std::string, Species> species_;
  std::vector<PhaseDef> phases_;
  std::vector<Parameter> parameters_;
  std::vector<LoadWarning> warnings_;
};

// Convenience for tests and bindings: value and T/P derivatives of FUNCTION `name` at (T, P).
// Throws std::invalid_argument for an unknown name.
TPJet evaluate_function(const Database& db, const std::string& name, double T, double P);

}  // namespace pd
