// The TDB reader's private types, shared by its translation units: tdb_commands.cpp and tdb_expressions.cpp
// (pass 1: the text as commands, each parsed into pending records), tdb_reader.cpp (pass 2: constituents, type
// definitions, the checks that drop phases and parameters) and tdb_functions.cpp (FUNCTION references resolved,
// every expression compiled). Conventions: command text is upper-cased ASCII with whitespace normalised; every
// position keeps its file line (Command::line_at). Failure modes: a problem of one command is a pd::TdbError
// "FILE:LINE: text" thrown by Reader::fail and caught where the command is read: the command is dropped with
// what depends on it (a phase with its CONSTITUENT and PARAMETERs, a FUNCTION with what uses it) and a warning
// (at most kMaxWarnings, the rest counted). A bound of the reader (ErrorCode::TdbLimit, Reader::fail_limit) and a
// file of which nothing usable remains (Reader::finish) refuse the file. A mobility file read beside the thermodynamic
// one (tdb_mobility.cpp) has a Reader of its own for pass 1, so every command and pending record keeps its file;
// pass 2 runs once, on the thermodynamic Reader, with the mobility file's FUNCTIONs and PARAMETERs added.
#pragma once

#include <map>
#include <set>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/tdb_database.hpp"

namespace pd::io {

struct Command {
  std::string text;        // upper-cased ASCII, whitespace normalised to ' '
  std::vector<int> lines;  // file line of each character of text
  int line_at(size_t pos) const {
    if (lines.empty()) return 0;
    return lines[pos < lines.size() ? pos : lines.size() - 1];
  }
};

struct RangeAst {
  Ast ast;
  double low = 0, high = 0;
};

struct PendingFunction {
  std::string name;
  std::vector<RangeAst> ranges;
  int line = 0;
  std::string file;  // base name of the file it was read from
};

struct PendingParameter {
  Parameter p;
  std::string text;  // "G(LIQUID,AL,ZN;1)" for messages
  std::vector<RangeAst> ranges;
};

struct TypeDef {
  char code = 0;
  std::string target;   // phase name, "@" or "*" = every phase with the code; "" = no phase action
  std::string keyword;  // MAGNETIC, DISORDERED_PART, ... ("" for SEQ etc.)
  std::vector<std::string> args;
  int line = 0;
};

inline constexpr size_t kMaxWarnings = 500;

// Upper-cased ASCII copy; the file name without its folders (database.cpp).
std::string upper(std::string s);
std::string base_name(const std::string& path);
inline constexpr double kDefaultLowT = 0.01;      // §0: a missing low-T limit is read as 0.01
inline constexpr double kDefaultHighT = 10000.0;  // a missing high-T limit (",,,") as 10000 K (pycalphad)

// Text helpers (tdb_text.cpp).
extern const char* const kCommands[26];  // the command keywords, in full
// The '_'- and '-'-separated parts of a keyword.
std::vector<std::string> split_parts(const std::string& s);
// Thermo-Calc abbreviation rule: every '_'-separated part of the abbreviation is a prefix of the
// keyword's part at the same position (TEMP_LIM = TEMPERATURE_LIMITS, A_P_D, ELEM, PARA ...).
bool abbreviates(const std::string& abbr, const std::string& keyword);
// The keyword of `list` that `word` abbreviates: "" if unknown; "?A,B" if ambiguous.
std::string match_keyword(const std::string& word, const char* const* list, size_t n);
// Whether the text after a '!' starts another command (then it is not a comment).
bool starts_command(const std::string& rest);
// A TDB number ("1.5", "-3E+2", ...); false when the token is not one.
bool parse_double(const std::string& tok, double& out);
// Splits at whitespace (and at commas when commas_too).
std::vector<std::string> split_ws(const std::string& s, bool commas_too = false);
std::string trim(const std::string& s);
// DEFAULT_COMMAND REJECT_PHASE (its words): keeps phases out of the default system (tdb_commands.cpp).
bool rejects_phases(const std::vector<std::string>& words);
// MQ, MF, DQ, DF: the parameter types of mobility data (tdb_mobility.cpp).
bool is_mobility_parameter(const std::string& type);

class Reader {
 public:
  Reader(const std::string& text, const std::string& path) : text_(text), file_(base_name(path)) {
    db_ = std::make_shared<TdbDatabase>();
    db_->file_name_ = path;
  }

  // A mobility file to read beside this one (before read()): its FUNCTIONs and mobility PARAMETERs are added.
  void read_beside(const std::string& text, const std::string& path) {
    mobility_ = std::make_unique<Reader>(text, path);
    mobility_->beside_ = file_;
  }

  // Pass 1 alone, on a file of mobility data with no thermodynamic description (tdb_mobility.cpp).
  Database::MobilitySummary mobility_summary();

  std::shared_ptr<TdbDatabase> read() {
    split_commands();
    for (const Command& c : commands_) dispatch(c);
    if (mobility_) read_mobility_commands();
    finish();
    return db_;
  }

 private:
  const std::string& text_;
  std::string file_;
  // Set on the Reader of a mobility file: the base name of the thermodynamic file whose phases it describes.
  std::string beside_;
  std::unique_ptr<Reader> mobility_;  // the Reader of the mobility file read beside this one
  // Commands of a mobility file that would change the thermodynamic description, ignored: kind -> count, first line
  // and the head of the first command (one warning per kind).
  struct IgnoredKind {
    size_t count = 0;
    int line = 0;
    std::string head;
  };
  std::map<std::string, IgnoredKind> ignored_;
  LoadWarning first_mobility_drop_;  // the first mobility parameter dropped (line 0: none), for the file's error
  std::shared_ptr<TdbDatabase> db_;
  std::vector<Command> commands_;
  std::vector<PendingFunction> functions_;
  std::map<std::string, size_t> function_pos_;
  std::vector<PendingParameter> params_;
  std::vector<TypeDef> typedefs_;
  std::map<std::string, std::pair<std::vector<std::vector<std::string>>, int>> constituents_;  // phase -> (lists, line)
  size_t dropped_warnings_ = 0;
  struct PendingSpecies {
    std::string name, formula;
    int line;
  };
  std::vector<PendingSpecies> pending_species_;
  std::vector<std::pair<std::string, int>> rejected_;  // DEFAULT_COMMAND REJECT_PHASE: name, line
  // Position of each phase in db_->phases_: lookups by name stay logarithmic (a file of 100,000 phases
  // and parameters must not make the reader quadratic).
  std::map<std::string, size_t> phase_pos_;
  PhaseDef* phase_named(const std::string& name) {
    auto it = phase_pos_.find(name);
    return it == phase_pos_.end() ? nullptr : &db_->phases_[it->second];
  }
  // Phases dropped with their CONSTITUENT and PARAMETERs: name -> line and reason (the warning is given once the
  // dependents are counted, remove_dropped_phases).
  struct PhaseDrop {
    int line = 0;
    std::string reason;
  };
  std::map<std::string, PhaseDrop> dropped_phases_;
  std::map<std::string, int> dropped_functions_;  // FUNCTIONs that could not be read: name -> line
  std::map<std::string, int> dis_part_line_;      // ordered phase -> line of the TYPE_DEFINITION naming its DIS_PART
  // The first command dropped: the file's error when nothing usable remains.
  std::unique_ptr<TdbError> first_drop_;

  [[noreturn]] void fail(int line, const std::string& msg) { throw TdbError(file_, line, msg); }
  [[noreturn]] void fail_without_elements();
  [[noreturn]] void fail_limit(int line, const std::string& msg) {
    throw TdbError(file_, line, msg, ErrorCode::TdbLimit);
  }
  // Names are bounded (kMaxNameLength): a name of a million characters once made every later use of it
  // (messages, comparisons, results) slow enough to hold a calculation for hours.
  const std::string& checked_name(int line, const std::string& what, const std::string& name) {
    if (name.size() > kMaxNameLength)
      fail_limit(line, what + " name '" + name.substr(0, 24) + "...' is " + std::to_string(name.size()) +
                           " characters long (at most " + std::to_string(kMaxNameLength) + ")");
    return name;
  }
  void warn(int line, const std::string& msg, const std::string& phase = "") { warn_at(file_, line, msg, phase); }
  // A warning about a command of another file (pass 2 sees the mobility file's FUNCTIONs and PARAMETERs too).
  void warn_at(const std::string& file, int line, const std::string& msg, const std::string& phase = "") {
    if (db_->warnings_.size() < kMaxWarnings)
      db_->warnings_.push_back(LoadWarning{file, line, msg, phase});
    else
      ++dropped_warnings_;
  }
  // A command dropped: `why` is the problem ("FILE:LINE: text"), `consequence` what is dropped with it. Only a
  // command of this Reader's own file can become the file's error.
  void drop(const TdbError& why, const std::string& consequence, const std::string& phase = "") {
    if (!first_drop_ && why.file() == file_) first_drop_ = std::make_unique<TdbError>(why);
    warn_at(why.file(), why.line(), why.message() + "; " + consequence, phase);
  }
  // Drops a phase with its CONSTITUENT and PARAMETERs (and the ordered phases whose DIS_PART it is).
  void drop_phase(const std::string& name, int line, const std::string& reason) {
    if (!first_drop_) first_drop_ = std::make_unique<TdbError>(file_, line, reason);
    dropped_phases_.emplace(name, PhaseDrop{line, reason});
  }

  // ---- pass 1: commands (tdb_commands.cpp, tdb_expressions.cpp) ----
  void split_commands();
  void dispatch(const Command& c);
  void run_command(const std::string& keyword, const Command& c);
  void dropped_command(const std::string& keyword, const Command& c, const TdbError& why);
  std::vector<std::string> args_of(const Command& c);
  void default_command(const Command& c);
  void element(const Command& c);
  void species(const Command& c);
  void finish_species(const std::string& name, const std::string& formula, int line);
  void parse_formula(const std::string& f, Species& sp, int line);
  static bool is_integer(const std::string& s, int& out);
  void phase(const Command& c);
  void read_site_ratios(const std::vector<std::string>& t, PhaseDef& ph);
  void constituent(const Command& c);
  std::vector<std::string> sublattice_list(const std::string& name, const std::string& text, int line);
  std::vector<RangeAst> piecewise(const Command& c, size_t pos, const std::string& what);
  void function(const Command& c);
  void parameter(const Command& c);
  void type_definition(const Command& c);

  // ---- a mobility file read beside (tdb_mobility.cpp) ----
  void read_mobility_commands();
  bool ignored_in_mobility_file(const std::string& keyword, const Command& c);
  void report_ignored_commands();
  void add_mobility(std::vector<PendingParameter*>& kept);
  bool fits_thermodynamics(PendingParameter& pp);
  std::set<std::string> names_of_thermodynamics(const std::vector<PendingParameter*>& kept) const;
  void add_mobility_functions(const std::vector<PendingParameter*>& usable, const std::vector<PendingParameter*>& kept);
  void check_mobility_usable();

  // ---- pass 2 (tdb_reader.cpp) ----
  void finish();
  void make_species();
  void assign_constituents();
  void apply_type_definitions();
  void apply(const TypeDef& td, PhaseDef& ph);
  void check_order_disorder();
  void check_order_disorder_of(PhaseDef& ph);
  void remove_dropped_phases();
  void link_ordered_parents();
  void refuse_unsupported_models();
  std::vector<PendingParameter*> applicable_parameters();
  bool applies(PendingParameter& pp, const PhaseDef& ph);
  void report_repeated_parameters(const std::vector<PendingParameter*>& kept);
  void apply_rejections();

  // ---- FUNCTIONs and compilation (tdb_functions.cpp) ----
  struct FunctionRefs {
    std::vector<std::vector<int>> uses;               // per FUNCTION: the FUNCTIONs it refers to (functions_ indices)
    std::vector<std::vector<std::string>> undefined;  // per FUNCTION: the names it refers to that nothing defines
  };
  void resolve_and_compile(std::vector<PendingParameter*> kept);
  // The FUNCTION index of a name (db_->func_index_), kGasConstantRef for R, kUndefinedRef for an undefined name.
  int resolve_ref(const std::string& name) const;
  FunctionRefs function_refs() const;
  std::vector<PendingParameter*> drop_unusable_functions(const std::vector<PendingParameter*>& kept);
  void check_function_depth(const FunctionRefs& refs);
  void report_undefined_references(const FunctionRefs& refs, const std::vector<PendingParameter*>& kept);
  void compile(const std::vector<PendingParameter*>& kept);
};

}  // namespace pd::io
