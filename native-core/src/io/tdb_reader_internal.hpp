// The TDB reader's private types, shared by its translation units: tdb_commands.cpp (pass 1: the text as
// commands, each parsed into pending records) and tdb_reader.cpp (pass 2: type definitions, checks, FUNCTION
// resolution and compilation). Conventions: command text is upper-cased ASCII with whitespace normalised;
// every position keeps its file line (Command::line_at). Failure modes: every problem is a pd::TdbError
// "FILE:LINE: text" (ErrorCode::TdbLimit for a bound of the reader), thrown by Reader::fail/fail_limit;
// warnings are collected in the database (at most kMaxWarnings, the rest counted).
#pragma once

#include <map>
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

class Reader {
 public:
  Reader(const std::string& text, const std::string& path) : text_(text), file_(base_name(path)) {
    db_ = std::make_shared<TdbDatabase>();
    db_->file_name_ = path;
  }

  std::shared_ptr<TdbDatabase> read() {
    split_commands();
    for (const Command& c : commands_) dispatch(c);
    finish();
    return db_;
  }

 private:
  const std::string& text_;
  std::string file_;
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

  [[noreturn]] void fail(int line, const std::string& msg) { throw TdbError(file_, line, msg); }
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
  void warn(int line, const std::string& msg) {
    if (db_->warnings_.size() < kMaxWarnings)
      db_->warnings_.push_back(file_ + ":" + std::to_string(line) + ": " + msg);
    else
      ++dropped_warnings_;
  }

  // ---- pass 1: commands (tdb_commands.cpp) ----
  void split_commands();
  void dispatch(const Command& c);
  std::vector<std::string> args_of(const Command& c);
  void default_command(const Command& c);
  void element(const Command& c);
  void species(const Command& c);
  void finish_species(const std::string& name, const std::string& formula, int line);
  void parse_formula(const std::string& f, Species& sp, int line);
  static bool is_integer(const std::string& s, int& out);
  void phase(const Command& c);
  void constituent(const Command& c);
  std::vector<RangeAst> piecewise(const Command& c, size_t pos, const std::string& what);
  void function(const Command& c);
  void parameter(const Command& c);
  void type_definition(const Command& c);

  // ---- pass 2 (tdb_reader.cpp) ----
  void finish();
  void apply_type_definitions();
  void apply(const TypeDef& td, PhaseDef& ph);
  void resolve_and_compile(const std::vector<PendingParameter*>& kept);
};

}  // namespace pd::io
