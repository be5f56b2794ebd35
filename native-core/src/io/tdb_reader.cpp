// TDB (Thermo-Calc database format) reader.
//
// Reading happens in two passes so that the order of commands in a file does not matter (files put
// TYPE_DEFINITIONs after the PHASEs that use them and reference FUNCTIONs before defining them):
//   1. the text is split into commands (ending at '!', '$' comments removed, text after '!' on the
//      same line ignored unless it starts another command) and each command is parsed into pending
//      records, expressions into syntax trees;
//   2. type definitions are applied to the phases (formula sheet §10: "applied after all phases are
//      read"), parameters are checked against their phases, FUNCTION references are resolved
//      (undefined ones are an error where they are used, a warning elsewhere; cycles are an error)
//      and every expression is compiled.
// Every problem is a pd::TdbError "FILE:LINE: text"; no input can crash or hang the reader (the
// expression parser bounds its nesting and size, all loops advance, nothing is indexed unchecked).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "io/tdb_database.hpp"

namespace pd {

// ------------------------------------------------------------------------------------------------
// Database members that do not depend on the implementation.

const PhaseDef* Database::phase(const std::string& name) const {
  for (const auto& p : phases_)
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<const Parameter*> Database::parameters_of(const std::string& phase) const {
  std::vector<const Parameter*> out;
  for (const auto& p : parameters_)
    if (p.phase == phase) out.push_back(&p);
  return out;
}

namespace {
std::string upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}
std::string base_name(const std::string& path) {
  size_t k = path.find_last_of("/\\");
  return k == std::string::npos ? path : path.substr(k + 1);
}
}  // namespace

std::vector<std::string> Database::phases_for(const std::vector<std::string>& elements, bool include_rejected) const {
  // §1.1: a species is active if all its elements are among the chosen ones (VA always).
  std::set<std::string> chosen;
  for (const auto& e : elements) chosen.insert(upper(e));
  chosen.insert("VA");
  auto active = [&](const std::string& sp) {
    auto it = species_.find(sp);
    if (it == species_.end()) return false;
    for (const auto& [el, n] : it->second.composition)
      if (!chosen.count(el)) return false;
    return true;
  };
  auto is_vacancy = [&](const std::string& sp) {
    auto it = species_.find(sp);
    return it == species_.end() || it->second.composition.empty();
  };
  std::vector<std::string> out;
  for (const auto& ph : phases_) {
    if (!ph.refusal.empty() || ph.constituents.empty()) continue;
    if (ph.rejected_by_default && !include_rejected) continue;
    bool ok = true, has_atoms = false;
    for (const auto& sub : ph.constituents) {
      bool any = false;
      for (const auto& sp : sub)
        if (active(sp)) {
          any = true;
          if (!is_vacancy(sp)) has_atoms = true;
        }
      if (!any) {
        ok = false;
        break;
      }
    }
    if (ok && has_atoms) out.push_back(ph.name);
  }
  return out;
}

TPJet evaluate_function(const Database& db, const std::string& name, double T, double P) {
  ExprId e = db.function_expr(name);
  if (e == kNoExpr) throw std::invalid_argument("unknown FUNCTION '" + name + "' in " + db.file_name());
  auto ctx = db.make_context(T, P);
  return db.evaluate(e, *ctx);
}

namespace io {

// ------------------------------------------------------------------------------------------------
// Evaluation.

std::unique_ptr<EvalContext> TdbDatabase::make_context(double T, double P) const {
  auto ctx = std::make_unique<EvalContext>(T, P, func_names_.size());
  ctx->busy_.assign(func_names_.size(), 0);
  return ctx;
}

ExprId TdbDatabase::function_expr(const std::string& name) const {
  std::string n = upper(name);
  if (!n.empty() && n.back() == '#') n.pop_back();
  auto it = func_index_.find(n);
  return it == func_index_.end() ? kNoExpr : alias_expr_[it->second];
}

TPJet TdbDatabase::evaluate(ExprId expr, EvalContext& ctx) const {
  if (expr < 0 || static_cast<size_t>(expr) >= store_->exprs.size())
    throw std::out_of_range("invalid expression handle in " + file_name_);
  const CompiledExpr& e = store_->exprs[expr];
  if (e.func >= 0) return function_value(e.func, ctx);
  return eval_piecewise(e, ctx);
}

TPJet TdbDatabase::eval_piecewise(const CompiledExpr& e, EvalContext& ctx) const {
  // §0 "Temperature ranges": range k is valid on [T_k, T_k+1); the first range also below its
  // limits, the last one above; a single range has no limits at all.
  if (e.range_count == 0) return TPJet{};
  const Range* r = &store_->ranges[e.range_begin];
  uint32_t k = 0;
  const double T = ctx.T_;
  while (k + 1 < e.range_count && !(T < r[k].high)) ++k;
  return run(r[k], ctx);
}

TPJet TdbDatabase::function_value(int f, EvalContext& ctx) const {
  if (has_override_[f]) return jet_const(override_value_[f]);
  if (ctx.stamp_.size() < func_names_.size()) {
    ctx.stamp_.resize(func_names_.size(), 0);
    ctx.value_.resize(func_names_.size());
  }
  if (ctx.busy_.size() < func_names_.size()) ctx.busy_.resize(func_names_.size(), 0);
  if (ctx.stamp_[f] == ctx.generation_) return ctx.value_[f];
  if (ctx.busy_[f]) throw CoreError(ErrorCode::Model, "FUNCTION " + func_names_[f] + " refers to itself");
  struct Busy {
    uint8_t& b;
    ~Busy() { b = 0; }
  } guard{ctx.busy_[f] = 1};
  TPJet v = eval_piecewise(store_->exprs[func_expr_[f]], ctx);
  ctx.value_[f] = v;
  ctx.stamp_[f] = ctx.generation_;
  return v;
}

TPJet TdbDatabase::run(const Range& r, EvalContext& ctx) const {
  // Operand stack lives in the context (no allocation per call once warm); nested FUNCTION
  // evaluations push above this frame, so indices (not pointers) survive a reallocation.
  const size_t base = ctx.sp_;
  if (ctx.stack_.size() < base + r.depth) ctx.stack_.resize(std::max<size_t>(base + r.depth, 2 * ctx.stack_.size()));
  ctx.sp_ = base + r.depth;  // reserve this frame; nested FUNCTION evaluations go above it
  struct Frame {
    EvalContext& c;
    size_t b;
    ~Frame() { c.sp_ = b; }
  } frame{ctx, base};
  size_t sp = base;
  const Instr* code = store_->code.data();
  const double T = ctx.T_, P = ctx.P_;
  for (uint32_t i = r.begin; i < r.end; ++i) {
    const Instr& in = code[i];
    TPJet* st = ctx.stack_.data();
    switch (in.op) {
      case Op::PushC: st[sp++] = jet_const(in.c); break;
      case Op::PushT: {
        TPJet j;
        j.v = T;
        j.t = 1;
        st[sp++] = j;
        break;
      }
      case Op::PushP: {
        TPJet j;
        j.v = P;
        j.p = 1;
        st[sp++] = j;
        break;
      }
      case Op::PushTPow: {
        TPJet j;
        j.v = T;
        j.t = 1;
        st[sp++] = jet_powc(j, in.c);
        break;
      }
      case Op::PushF: {
        TPJet v = function_value(in.arg, ctx);
        ctx.stack_[sp++] = v;
        break;
      }
      case Op::PushUndef:
        throw CoreError(ErrorCode::Model, "undefined FUNCTION " + store_->undefined[in.arg] + " in " + base_name(file_name_));
      case Op::Add: {
        TPJet& a = st[sp - 2];
        const TPJet& b = st[sp - 1];
        a.v += b.v; a.t += b.t; a.p += b.p; a.tt += b.tt; a.tp += b.tp; a.pp += b.pp;
        --sp;
        break;
      }
      case Op::Sub: {
        TPJet& a = st[sp - 2];
        const TPJet& b = st[sp - 1];
        a.v -= b.v; a.t -= b.t; a.p -= b.p; a.tt -= b.tt; a.tp -= b.tp; a.pp -= b.pp;
        --sp;
        break;
      }
      case Op::Mul: st[sp - 2] = jet_mul(st[sp - 2], st[sp - 1]); --sp; break;
      case Op::Div: st[sp - 2] = jet_div(st[sp - 2], st[sp - 1]); --sp; break;
      case Op::Pow: st[sp - 2] = jet_pow(st[sp - 2], st[sp - 1]); --sp; break;
      case Op::Neg: {
        TPJet& a = st[sp - 1];
        a.v = -a.v; a.t = -a.t; a.p = -a.p; a.tt = -a.tt; a.tp = -a.tp; a.pp = -a.pp;
        break;
      }
      case Op::AddC: st[sp - 1].v += in.c; break;
      case Op::MulC: {
        TPJet& a = st[sp - 1];
        a.v *= in.c; a.t *= in.c; a.p *= in.c; a.tt *= in.c; a.tp *= in.c; a.pp *= in.c;
        break;
      }
      case Op::PowC: st[sp - 1] = jet_powc(st[sp - 1], in.c); break;
      case Op::Ln: {
        double x = st[sp - 1].v;
        st[sp - 1] = jet_chain(st[sp - 1], std::log(x), 1.0 / x, -1.0 / (x * x));
        break;
      }
      case Op::Exp: {
        double e = std::exp(st[sp - 1].v);
        st[sp - 1] = jet_chain(st[sp - 1], e, e, e);
        break;
      }
      case Op::Sqrt: {
        double s = std::sqrt(st[sp - 1].v);
        st[sp - 1] = jet_chain(st[sp - 1], s, 0.5 / s, -0.25 / (s * st[sp - 1].v));
        break;
      }
      case Op::Abs: {
        double x = st[sp - 1].v, sg = x < 0 ? -1.0 : 1.0;
        st[sp - 1] = jet_chain(st[sp - 1], std::fabs(x), sg, 0.0);
        break;
      }
    }
  }
  return sp > base ? ctx.stack_[sp - 1] : TPJet{};
}

std::shared_ptr<Database> TdbDatabase::with_overrides(const std::map<std::string, double>& overrides) const {
  auto copy = std::make_shared<TdbDatabase>(*this);
  for (const auto& [name, value] : overrides) {
    std::string n = upper(name);
    if (!n.empty() && n.back() == '#') n.pop_back();
    auto it = func_index_.find(n);
    if (it == func_index_.end())
      throw std::invalid_argument("parameter override: no FUNCTION or symbol named '" + name + "' in " +
                                  base_name(file_name_));
    copy->has_override_[it->second] = 1;
    copy->override_value_[it->second] = value;
  }
  return copy;
}

// ------------------------------------------------------------------------------------------------
// Reader.

namespace {

struct Command {
  std::string text;        // upper-cased ASCII, whitespace normalised to ' '
  std::vector<int> lines;  // file line of each character of text
  int line_at(size_t pos) const {
    if (lines.empty()) return 0;
    return lines[pos < lines.size() ? pos : lines.size() - 1];
  }
};

const char* const kCommands[] = {
    "ELEMENT", "SPECIES", "PHASE", "CONSTITUENT", "FUNCTION", "PARAMETER", "TYPE_DEFINITION",
    "DEFINE_SYSTEM_DEFAULT", "DEFINE_SYSTEM_ELEMENT", "DEFAULT_COMMAND", "DATABASE_INFORMATION",
    "LIST_OF_REFERENCES", "ADD_REFERENCES", "REFERENCE", "REFERENCE_FILE", "ASSESSED_SYSTEMS",
    "TEMPERATURE_LIMITS", "VERSION_DATE", "VERSION_DATA", "ZERO_VOLUME_SPECIES", "DIFFUSION", "TABLE",
    "CASE", "ENDCASE", "OPTIONS", "FTP_FILE"};

std::vector<std::string> split_parts(const std::string& s) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : s) {
    if (c == '_' || c == '-') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

// Thermo-Calc abbreviation rule: every '_'-separated part of the abbreviation is a prefix of the
// keyword's part at the same position (TEMP_LIM = TEMPERATURE_LIMITS, A_P_D, ELEM, PARA ...).
bool abbreviates(const std::string& abbr, const std::string& keyword) {
  if (abbr.empty()) return false;
  auto a = split_parts(abbr), k = split_parts(keyword);
  if (a.size() > k.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].empty() || k[i].compare(0, a[i].size(), a[i]) != 0) return false;
  return true;
}

// "" if unknown; "?A,B" if ambiguous.
std::string match_keyword(const std::string& word, const char* const* list, size_t n) {
  std::vector<std::string> hits;
  for (size_t i = 0; i < n; ++i) {
    if (word == list[i]) return word;
    if (abbreviates(word, list[i])) hits.push_back(list[i]);
  }
  if (hits.size() == 1) return hits[0];
  if (hits.empty()) return "";
  std::string amb = "?";
  for (size_t i = 0; i < hits.size(); ++i) amb += (i ? ", " : "") + hits[i];
  return amb;
}

bool starts_command(const std::string& rest) {
  size_t i = 0;
  while (i < rest.size() && rest[i] == ' ') ++i;
  size_t j = i;
  while (j < rest.size() && rest[j] != ' ') ++j;
  if (j == i) return false;
  std::string w = upper(rest.substr(i, j - i));
  std::string m = match_keyword(w, kCommands, sizeof(kCommands) / sizeof(kCommands[0]));
  return !m.empty() && m[0] != '?';
}

bool parse_double(const std::string& tok, double& out) {
  if (tok.empty() || tok.size() > 64) return false;
  std::string t = tok;
  for (char& c : t)
    if (c == 'D' || c == 'd') c = 'E';
  const char* s = t.c_str();
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s, &end);
  if (end == s || *end != '\0') return false;
  // strtod accepts "INF"/"NAN"/hex: a TDB number is plain decimal.
  for (char c : t)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'E' || c == '+' || c == '-')) return false;
  if (!std::isfinite(v)) return false;
  out = v;
  return true;
}

std::vector<std::string> split_ws(const std::string& s, bool commas_too = false) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ' ' || (commas_too && c == ',')) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && s[a] == ' ') ++a;
  while (b > a && s[b - 1] == ' ') --b;
  return s.substr(a, b - a);
}

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

constexpr double kDefaultLowT = 0.01;     // §0: a missing low-T limit is read as 0.01
constexpr double kDefaultHighT = 10000.0; // a missing high-T limit (",,,") as 10000 K (pycalphad)
constexpr size_t kMaxWarnings = 500;

}  // namespace

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
  [[noreturn]] void fail_limit(int line, const std::string& msg) { throw TdbError(file_, line, msg, ErrorCode::TdbLimit); }
  // Names are bounded (kMaxNameLength): a name of a million characters once made every later use of it
  // (messages, comparisons, results) slow enough to hold a calculation for hours.
  const std::string& checked_name(int line, const std::string& what, const std::string& name) {
    if (name.size() > kMaxNameLength)
      fail_limit(line, what + " name '" + name.substr(0, 24) + "...' is " + std::to_string(name.size()) +
                           " characters long (at most " + std::to_string(kMaxNameLength) + ")");
    return name;
  }
  void warn(int line, const std::string& msg) {
    if (db_->warnings_.size() < kMaxWarnings) db_->warnings_.push_back(file_ + ":" + std::to_string(line) + ": " + msg);
    else ++dropped_warnings_;
  }

  // ---- pass 1: commands ----
  void split_commands() {
    const std::string& s = text_;
    size_t i = 0;
    if (s.size() >= 3 && static_cast<unsigned char>(s[0]) == 0xEF && static_cast<unsigned char>(s[1]) == 0xBB &&
        static_cast<unsigned char>(s[2]) == 0xBF)
      i = 3;  // UTF-8 byte-order mark
    int line = 1;
    Command cur;
    bool comment = false;
    auto flush = [&]() {
      std::string t = trim(cur.text);
      if (!t.empty()) {
        // re-align line numbers after trimming the leading blanks
        size_t lead = cur.text.find_first_not_of(' ');
        Command c;
        c.text = t;
        c.lines.assign(cur.lines.begin() + lead, cur.lines.begin() + lead + t.size());
        commands_.push_back(std::move(c));
      }
      cur.text.clear();
      cur.lines.clear();
    };
    // Line ends: LF, CRLF and CR alone (old Mac editors) all end a line.
    auto line_end = [&](size_t k) { return s[k] == '\n' || (s[k] == '\r' && (k + 1 >= s.size() || s[k + 1] != '\n')); };
    for (; i < s.size(); ++i) {
      char c = s[i];
      if (line_end(i)) {
        ++line;
        comment = false;
        if (!cur.text.empty() && cur.text.back() != ' ') {
          cur.text += ' ';
          cur.lines.push_back(line - 1);
        }
        continue;
      }
      if (comment) continue;
      if (c == '$') {  // comment to the end of the line
        comment = true;
        continue;
      }
      if (c == '!') {
        cur.lines.push_back(line);
        flush();
        // Text after '!' on the same line is ignored (a stray '"' in crtiv_ghosh.tdb), unless it
        // starts another command. Only the first word after '!' is read here (at most 64 characters),
        // and the rest of the line is skipped only when it is not a command: every character is visited
        // a bounded number of times, even on a line of a million '!'.
        size_t w = i + 1;
        auto blank = [&](size_t k) { return s[k] == ' ' || s[k] == '\t' || (s[k] == '\r' && !line_end(k)); };
        while (w < s.size() && blank(w) && w - i < 4096) ++w;
        size_t w_end = w;
        while (w_end < s.size() && w_end - w <= 64 && !blank(w_end) && !line_end(w_end) && s[w_end] != '$') ++w_end;
        std::string rest = w_end - w <= 64 ? s.substr(w, w_end - w) : std::string();
        if (!starts_command(rest)) {
          size_t eol = i + 1;
          while (eol < s.size() && !line_end(eol)) ++eol;
          i = eol - 1;  // the loop's ++i lands on the line end (or the end)
        }
        continue;
      }
      if (c == '\r' || c == '\t' || c == '\0' || c == '\f' || c == '\v') c = ' ';
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      if (c == ' ' && (cur.text.empty() || cur.text.back() == ' ')) continue;
      cur.text += c;
      cur.lines.push_back(line);
    }
    if (!trim(cur.text).empty()) {
      size_t lead = cur.text.find_first_not_of(' ');
      int l = cur.lines[lead];
      std::string head = trim(cur.text).substr(0, 40);
      fail(l, "command not terminated by '!' (file truncated?): " + head);
    }
  }

  void dispatch(const Command& c) {
    size_t sp = c.text.find(' ');
    std::string word = c.text.substr(0, sp);
    std::string kw = match_keyword(word, kCommands, sizeof(kCommands) / sizeof(kCommands[0]));
    int line = c.line_at(0);
    if (kw.empty()) fail(line, "unknown command '" + word.substr(0, 60) + "'");
    if (kw[0] == '?') fail(line, "ambiguous command abbreviation '" + word + "' (" + kw.substr(1) + ")");
    if (kw == "ELEMENT") return element(c);
    if (kw == "SPECIES") return species(c);
    if (kw == "PHASE") return phase(c);
    if (kw == "CONSTITUENT") return constituent(c);
    if (kw == "FUNCTION") return function(c);
    if (kw == "PARAMETER") return parameter(c);
    if (kw == "TYPE_DEFINITION") return type_definition(c);
    if (kw == "DEFAULT_COMMAND") return default_command(c);
    // Everything else (DEFINE_SYSTEM_DEFAULT, DEFAULT_COMMAND, DATABASE_INFO, references,
    // ASSESSED_SYSTEMS, TEMPERATURE_LIMITS, VERSION_DATE, ...) carries no thermodynamic data.
  }

  std::vector<std::string> args_of(const Command& c) {
    auto t = split_ws(c.text);
    return t;
  }

  // DEFAULT_COMMAND REJECT_PHASE names... ! (Thermo-Calc's database commands run when the database is
  // opened): the phases are kept out of the default system (Al-Fe_sundman2009 rejects three alternative
  // BCC descriptions, alcocrni and COST507 the gas). Names may be separated by spaces or commas and may
  // precede the phase definitions; they are checked in finish(). Other default commands
  // (DEFINE_SYSTEM_ELEMENT, RESTORE_PHASE, ...) change nothing here and are ignored.
  void default_command(const Command& c) {
    auto t = args_of(c);
    if (t.size() < 2 || !abbreviates(t[1], "REJECT_PHASE") || split_parts(t[1]).size() < 2) return;
    for (size_t i = 2; i < t.size(); ++i) {
      std::string cur;
      for (char ch : t[i] + ",") {
        if (ch != ',' && ch != '!') {
          cur += ch;
          continue;
        }
        if (!cur.empty()) rejected_.push_back({checked_name(c.line_at(0), "DEFAULT_COMMAND REJECT_PHASE: phase", cur), c.line_at(0)});
        cur.clear();
      }
    }
  }

  void element(const Command& c) {
    auto t = args_of(c);
    int line = c.line_at(0);
    if (t.size() < 2) fail(line, "ELEMENT without a name");
    Element e;
    e.name = checked_name(line, "ELEMENT", t[1]);
    e.line = line;
    if (t.size() > 2) e.reference_phase = checked_name(line, "ELEMENT " + e.name + ": reference phase", t[2]);
    double* nums[3] = {&e.mass, &e.h298, &e.s298};
    for (size_t k = 0; k < 3 && 3 + k < t.size(); ++k)
      if (!parse_double(t[3 + k], *nums[k])) fail(line, "ELEMENT " + e.name + ": '" + t[3 + k] + "' is not a number");
    if (db_->elements_.count(e.name)) warn(line, "element " + e.name + " defined again; the later definition is used");
    else if (db_->elements_.size() >= kMaxElements)
      fail_limit(line, "more than " + std::to_string(kMaxElements) + " ELEMENTs (the periodic table has 118)");
    db_->elements_[e.name] = e;
  }

  void species(const Command& c) {
    auto t = args_of(c);
    int line = c.line_at(0);
    if (t.size() < 3) fail(line, "SPECIES needs a name and a formula");
    checked_name(line, "SPECIES", t[1]);
    if (t[2].size() > 4 * kMaxNameLength)
      fail_limit(line, "SPECIES " + t[1] + ": formula of " + std::to_string(t[2].size()) + " characters (at most " +
                           std::to_string(4 * kMaxNameLength) + ")");
    pending_species_.push_back({t[1], t[2], line});  // parsed once every ELEMENT is known
  }

  void finish_species(const std::string& name, const std::string& formula, int line) {
    Species sp;
    sp.name = name;
    sp.line = line;
    parse_formula(formula, sp, line);
    if (db_->elements_.count(sp.name)) {
      warn(line, "SPECIES " + sp.name + " has the name of an element; ignored");
      return;
    }
    if (db_->species_.count(sp.name)) warn(line, "species " + sp.name + " defined again; the later definition is used");
    db_->species_[sp.name] = sp;
  }

  // Stoichiometry such as AL2O3, AL1O1.5, FE1/+2, O1/-2, CU/+, O2: element names are matched
  // longest-first against the declared elements, each optionally followed by an amount.
  void parse_formula(const std::string& f, Species& sp, int line) {
    size_t i = 0;
    while (i < f.size()) {
      if (f[i] == '/' && i > 0) {
        size_t j = i + 1;
        double sign = 1;
        if (j < f.size() && (f[j] == '+' || f[j] == '-')) {
          sign = f[j] == '-' ? -1 : 1;
          ++j;
        } else {
          fail(line, "SPECIES " + sp.name + ": charge after '/' must start with + or -");
        }
        std::string num = f.substr(j);
        double q = 1;
        if (!num.empty() && !parse_double(num, q)) fail(line, "SPECIES " + sp.name + ": bad charge '" + f.substr(i) + "'");
        sp.charge = sign * q;
        return;
      }
      std::string best;
      for (const auto& [name, el] : db_->elements_)
        if (name.size() > best.size() && f.compare(i, name.size(), name) == 0) best = name;
      if (best.empty())
        fail(line, "SPECIES " + sp.name + ": unknown element at '" + f.substr(i) + "' (declare it with ELEMENT first)");
      i += best.size();
      size_t j = i;
      while (j < f.size() && (std::isdigit(static_cast<unsigned char>(f[j])) || f[j] == '.')) ++j;
      double n = 1;
      if (j > i && !parse_double(f.substr(i, j - i), n)) fail(line, "SPECIES " + sp.name + ": bad amount in '" + f + "'");
      i = j;
      if (best == "VA") continue;  // vacancies carry no mass (§0)
      sp.composition[best] += n;
    }
  }

  static bool is_integer(const std::string& s, int& out) {
    if (s.empty() || s.size() > 6) return false;
    for (char c : s)
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    out = std::atoi(s.c_str());
    return true;
  }

  void phase(const Command& c) {
    auto t = args_of(c);
    int line = c.line_at(0);
    if (t.size() < 2) fail(line, "PHASE without a name");
    PhaseDef ph;
    ph.line = line;
    size_t colon = t[1].find(':');
    ph.name = checked_name(line, "PHASE", t[1].substr(0, colon));
    if (colon != std::string::npos) ph.options = t[1].substr(colon + 1);
    if (ph.name.empty()) fail(line, "PHASE without a name");
    int n = 0;
    size_t first_ratio;
    if (t.size() >= 4 && is_integer(t[3], n)) {
      ph.type_codes = t[2];
      first_ratio = 4;
    } else if (t.size() >= 3 && is_integer(t[2], n) && t.size() == 3 + static_cast<size_t>(n)) {
      first_ratio = 3;  // no type codes
    } else {
      fail(line, "PHASE " + ph.name + ": expected 'PHASE NAME TYPECODES NUMBER_OF_SUBLATTICES RATIOS...'");
    }
    if (n < 1 || n > 64) fail(line, "PHASE " + ph.name + ": bad number of sublattices " + std::to_string(n));
    if (t.size() < first_ratio + n)
      fail(line, "PHASE " + ph.name + ": " + std::to_string(n) + " sublattices but only " +
                     std::to_string(t.size() - first_ratio) + " site ratios");
    if (t.size() > first_ratio + n) warn(line, "PHASE " + ph.name + ": extra text after the site ratios ignored");
    for (int k = 0; k < n; ++k) {
      double r;
      if (!parse_double(t[first_ratio + k], r) || !(r > 0))
        fail(line, "PHASE " + ph.name + ": site ratio '" + t[first_ratio + k] + "' is not a positive number");
      ph.site_ratios.push_back(r);
    }
    for (char o : ph.options)
      if (std::string("LGAYIBF").find(o) == std::string::npos)
        warn(line, std::string("PHASE ") + ph.name + ": unknown phase option '" + o + "' ignored");
    auto known = phase_pos_.find(ph.name);
    if (known != phase_pos_.end()) {
      warn(line, "PHASE " + ph.name + " defined again; the later definition is used");
      db_->phases_[known->second] = ph;
      return;
    }
    phase_pos_[ph.name] = db_->phases_.size();
    db_->phases_.push_back(ph);
  }

  void constituent(const Command& c) {
    int line = c.line_at(0);
    std::string rest = trim(c.text.substr(std::min(c.text.size(), c.text.find(' '))));
    size_t sp = rest.find(' ');
    std::string tok = rest.substr(0, sp);
    std::string after = sp == std::string::npos ? "" : rest.substr(sp);
    size_t colon = tok.find(':');
    std::string name = tok.substr(0, colon);
    std::string spec;
    if (colon == std::string::npos) {
      spec = after;
    } else {
      std::string opt = tok.substr(colon + 1);
      bool only_options = !opt.empty() && opt.find_first_not_of("LGAYIBF") == std::string::npos;
      spec = only_options ? after : tok.substr(colon) + after;
    }
    if (name.empty()) fail(line, "CONSTITUENT without a phase name");
    checked_name(line, "CONSTITUENT: phase", name);
    std::string s = trim(spec);
    if (s.empty() || s[0] != ':') fail(line, "CONSTITUENT " + name + ": expected ':' before the first sublattice");
    std::vector<std::vector<std::string>> subs;
    std::string cur;
    std::vector<std::string> parts;
    for (size_t i = 1; i < s.size(); ++i) {
      if (s[i] == ':') {
        parts.push_back(trim(cur));
        cur.clear();
      } else {
        cur += s[i];
      }
    }
    if (!trim(cur).empty()) parts.push_back(trim(cur));
    while (!parts.empty() && parts.back().empty()) parts.pop_back();
    for (size_t k = 0; k < parts.size(); ++k) {
      std::vector<std::string> list;
      std::string item;
      auto push = [&]() {
        std::string x;
        for (char ch : item)
          if (ch != '%') x += ch;  // '%' marks major constituents
        checked_name(line, "CONSTITUENT " + name + ": species", x);
        if (!x.empty() && std::find(list.begin(), list.end(), x) == list.end()) list.push_back(x);
        item.clear();
      };
      for (char ch : parts[k]) {
        if (ch == ',' || ch == ' ') push();  // "CONS ALPT :AL:PT NI:!" (alnipt.tdb): blanks separate too
        else item += ch;
      }
      push();
      if (list.empty()) fail(line, "CONSTITUENT " + name + ": sublattice " + std::to_string(k + 1) + " is empty");
      subs.push_back(list);
    }
    if (subs.empty()) fail(line, "CONSTITUENT " + name + ": no sublattices");
    if (constituents_.count(name)) warn(line, "CONSTITUENT " + name + " given again; the later one is used");
    constituents_[name] = {subs, line};
  }

  // Reads "LOW expr; HIGH Y expr; HIGH N [ref]" starting at pos.
  std::vector<RangeAst> piecewise(const Command& c, size_t pos, const std::string& what) {
    const std::string& s = c.text;
    auto line_of = [&](size_t p) { return c.line_at(p); };
    auto skip_ws = [&]() {
      while (pos < s.size() && s[pos] == ' ') ++pos;
    };
    auto read_limit = [&](double dflt, const char* which) -> double {
      skip_ws();
      if (pos < s.size() && s[pos] == ',') {
        while (pos < s.size() && (s[pos] == ',' || s[pos] == ' ')) ++pos;
        return dflt;
      }
      size_t start = pos;
      while (pos < s.size() && s[pos] != ' ' && s[pos] != ';' && s[pos] != '!' &&
             (std::isdigit(static_cast<unsigned char>(s[pos])) || s[pos] == '.' || s[pos] == 'E' || s[pos] == 'D' ||
              ((s[pos] == '+' || s[pos] == '-') && (pos == start || s[pos - 1] == 'E' || s[pos - 1] == 'D'))))
        ++pos;
      double v;
      if (pos == start || !parse_double(s.substr(start, pos - start), v))
        fail(c.line_at(start), what + ": expected the " + which + " temperature limit");
      if (pos < s.size() && s[pos] == ',') ++pos;  // "298.15, expr" style
      return v;
    };
    std::vector<RangeAst> out;
    // The lower limit may be omitted ("PARA G(LIQUID,AL) +GALLIQ; N !" in alcrni.tdb): a number
    // followed by ';' is the expression itself, not a limit.
    double low = kDefaultLowT;
    {
      skip_ws();
      size_t save = pos;
      bool numeric_start = pos < s.size() && (std::isdigit(static_cast<unsigned char>(s[pos])) || s[pos] == '.' || s[pos] == ',');
      if (numeric_start) {
        double v = read_limit(kDefaultLowT, "lower");
        size_t after = pos;
        skip_ws();
        if (pos < s.size() && s[pos] == ';' && s[save] != ',') pos = save;  // "0;": an expression
        else {
          pos = after;
          low = v;
        }
      }
    }
    for (;;) {
      if (out.size() > 10000) fail_limit(c.line_at(pos), what + ": more than 10000 temperature ranges");
      RangeAst r;
      r.low = low;
      try {
        r.ast = parse_expression(s, pos, file_, line_of);
      } catch (const TdbError& e) {
        throw TdbError(file_, e.line(), what + ": " + e.message(), e.code());  // say which command
      }
      if (pos >= s.size() || s[pos] != ';') fail(c.line_at(pos), what + ": expected ';' after the expression");
      ++pos;
      skip_ws();
      if (pos < s.size() && (s[pos] == 'Y' || s[pos] == 'N') && (pos + 1 >= s.size() || s[pos + 1] == ' '))
        r.high = kDefaultHighT;  // upper limit omitted
      else if (pos >= s.size())
        r.high = kDefaultHighT;
      else
        r.high = read_limit(kDefaultHighT, "upper");
      out.push_back(std::move(r));
      skip_ws();
      // 'Y' continues with another range; 'N', nothing, or a reference (alcocrni.tdb has
      // "0.0; 6000.00   01DUP !" without the N) ends the expression.
      if (pos < s.size() && s[pos] == 'Y' && (pos + 1 >= s.size() || s[pos + 1] == ' ' || s[pos + 1] == '+' ||
                                              s[pos + 1] == '-' || s[pos + 1] == '(' || std::isdigit(static_cast<unsigned char>(s[pos + 1])) || s[pos + 1] == '.')) {
        ++pos;
        low = out.back().high;
        continue;
      }
      break;
    }
    return out;
  }

  void function(const Command& c) {
    int line = c.line_at(0);
    size_t pos = c.text.find(' ');
    if (pos == std::string::npos) fail(line, "FUNCTION without a name");
    while (pos < c.text.size() && c.text[pos] == ' ') ++pos;
    size_t start = pos;
    while (pos < c.text.size() && c.text[pos] != ' ') ++pos;
    std::string name = c.text.substr(start, pos - start);
    if (!name.empty() && name.back() == '#') name.pop_back();
    if (name.empty()) fail(line, "FUNCTION without a name");
    checked_name(line, "FUNCTION", name);
    for (char ch : name)
      if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'))
        fail(line, "FUNCTION name '" + name + "' contains '" + ch + "'");
    PendingFunction f;
    f.name = name;
    f.line = line;
    f.ranges = piecewise(c, pos, "FUNCTION " + name);
    auto it = function_pos_.find(name);
    if (it != function_pos_.end()) {
      warn(line, "FUNCTION " + name + " defined again (first at line " + std::to_string(functions_[it->second].line) +
                     "); the later definition is used");
      functions_[it->second] = std::move(f);
      return;
    }
    function_pos_[name] = functions_.size();
    functions_.push_back(std::move(f));
  }

  void parameter(const Command& c) {
    int line = c.line_at(0);
    const std::string& s = c.text;
    size_t pos = s.find(' ');
    if (pos == std::string::npos) fail(line, "PARAMETER without a name");
    while (pos < s.size() && s[pos] == ' ') ++pos;
    size_t open = s.find('(', pos);
    size_t close = open == std::string::npos ? std::string::npos : s.find(')', open);
    if (open == std::string::npos || close == std::string::npos)
      fail(line, "PARAMETER: expected TYPE(PHASE,CONSTITUENTS;ORDER)");
    std::string type = trim(s.substr(pos, open - pos));
    std::string inner = s.substr(open + 1, close - open - 1);
    std::string text = type + "(" + inner + ")";
    if (type.size() > kMaxNameLength || inner.size() > 64 * kMaxNameLength)
      fail_limit(line, "PARAMETER " + text.substr(0, 48) + "...: longer than the reader accepts (type at most " +
                           std::to_string(kMaxNameLength) + " characters, each name at most " +
                           std::to_string(kMaxNameLength) + ")");
    if (type.empty() || type.find(' ') != std::string::npos) fail(line, "PARAMETER " + text + ": bad parameter type");
    PendingParameter pp;
    Parameter& p = pp.p;
    p.line = line;
    if (type == "L") {
      p.type = "G";
      p.written_as_l = true;
    } else if (type == "BM") {
      p.type = "BMAGN";  // abbreviation used by crfe_bcc_magnetic.tdb (§0)
    } else {
      p.type = type;
    }
    size_t comma = inner.find(',');
    if (comma == std::string::npos) fail(line, "PARAMETER " + text + ": expected ',' after the phase name");
    std::string phase = trim(inner.substr(0, comma));
    size_t amp = phase.find('&');
    if (amp != std::string::npos) {
      p.phase_qualifier = trim(phase.substr(amp + 1));
      phase = trim(phase.substr(0, amp));
    }
    size_t pc = phase.find(':');  // tolerate "LIQUID:L" in a parameter
    if (pc != std::string::npos) phase = phase.substr(0, pc);
    if (phase.empty()) fail(line, "PARAMETER " + text + ": no phase name");
    checked_name(line, "PARAMETER: phase", phase);
    checked_name(line, "PARAMETER: phase qualifier", p.phase_qualifier);
    p.phase = phase;
    std::string arr = inner.substr(comma + 1);
    size_t semi = arr.find(';');
    if (semi != std::string::npos) {
      std::string ord = trim(arr.substr(semi + 1));
      arr = arr.substr(0, semi);
      if (!ord.empty()) {
        int o;
        if (!is_integer(ord, o)) fail(line, "PARAMETER " + text + ": order '" + ord + "' is not a non-negative integer");
        p.order = o;
      }
    }
    std::vector<std::string> subs_text;
    {
      std::string cur;
      for (char ch : arr) {
        if (ch == ':') {
          subs_text.push_back(cur);
          cur.clear();
        } else if (ch != ' ') {
          cur += ch;
        }
      }
      subs_text.push_back(cur);
    }
    for (const auto& st : subs_text) {
      std::vector<std::string> list;
      std::string cur;
      for (size_t i = 0; i <= st.size(); ++i) {
        if (i == st.size() || st[i] == ',') {
          if (cur.empty()) fail(line, "PARAMETER " + text + ": empty constituent name");
          checked_name(line, "PARAMETER " + p.type + "(" + p.phase + "): constituent", cur);
          list.push_back(cur);
          cur.clear();
        } else {
          cur += st[i];
        }
      }
      std::sort(list.begin(), list.end());  // §2.1 canonical order (ASCII, upper case)
      p.constituents.push_back(list);
    }
    pp.text = text;
    pp.ranges = piecewise(c, close + 1, "PARAMETER " + text);
    params_.push_back(std::move(pp));
  }

  void type_definition(const Command& c) {
    int line = c.line_at(0);
    auto t = split_ws(c.text, true);
    if (t.size() < 2) fail(line, "TYPE_DEFINITION without a type code");
    TypeDef td;
    td.line = line;
    td.code = t[1][0];
    if (t[1].size() != 1) warn(line, "TYPE_DEFINITION code '" + t[1] + "' is longer than one character; using '" +
                                          std::string(1, td.code) + "'");
    if (t.size() >= 6 && t[2] == "GES" && abbreviates(t[3], "AMEND_PHASE_DESCRIPTION")) {
      td.target = checked_name(line, "TYPE_DEFINITION " + t[1] + ": phase", t[4]);
      static const char* const kKeys[] = {"MAGNETIC", "DISORDERED_PART", "COMPOSITION_SETS", "MAJOR_CONSTITUENT",
                                          "EXCESS_MODEL", "QUASICHEMICAL", "DEFAULT_COMPOSITION"};
      std::string kw = match_keyword(t[5], kKeys, sizeof(kKeys) / sizeof(kKeys[0]));
      td.keyword = kw.empty() || kw[0] == '?' ? t[5] : kw;
      td.args.assign(t.begin() + 6, t.end());
    } else if (t.size() >= 3 && t[2] == "GES") {
      warn(line, "TYPE_DEFINITION " + std::string(1, td.code) + ": GES command not understood; ignored");
    }
    // "SEQ *", IF/THEN forms and other GES commands carry no model information (§10).
    typedefs_.push_back(td);
  }

  // ---- pass 2 ----
  void finish() {
    // A file without an ELEMENT is no database (and not one any calculation could use): an HTML page or a
    // file of another format that happens to parse as commands.
    {
      bool any = false;
      for (const auto& [name, el] : db_->elements_) any |= name != "VA" && name != "/-";
      if (!any) fail(1, "no ELEMENT declared (a TDB database declares its elements with ELEMENT commands)");
    }
    // Species: one per element (VA and the electron have no composition) plus VA always.
    for (const auto& [name, el] : db_->elements_) {
      Species sp;
      sp.name = name;
      if (name == "/-") sp.charge = -1;
      else if (name != "VA") sp.composition[name] = 1;
      db_->species_[name] = sp;
    }
    if (!db_->species_.count("VA")) {
      Species va;
      va.name = "VA";
      db_->species_["VA"] = va;
    }
    for (const auto& ps : pending_species_) finish_species(ps.name, ps.formula, ps.line);

    // Constituents.
    for (const auto& [name, cl] : constituents_) {
      PhaseDef* ph = phase_named(name);
      if (!ph) fail(cl.second, "CONSTITUENT for phase " + name + " which has no PHASE command");
      if (cl.first.size() != ph->site_ratios.size())
        fail(cl.second, "CONSTITUENT " + name + " gives " + std::to_string(cl.first.size()) + " sublattices but PHASE " +
                            name + " has " + std::to_string(ph->site_ratios.size()));
      for (const auto& sub : cl.first)
        for (const auto& sp : sub)
          if (!db_->species_.count(sp))
            fail(cl.second, "CONSTITUENT " + name + ": species " + sp + " is not declared (ELEMENT or SPECIES)");
      ph->constituents = cl.first;
    }
    for (auto& p : db_->phases_)
      if (p.constituents.empty())
        p.refusal = "phase " + p.name + " in " + file_ + " has no CONSTITUENT command";

    apply_type_definitions();

    for (auto& p : db_->phases_) {
      if (!p.refusal.empty()) continue;
      if (p.options.find('A') != std::string::npos)
        p.refusal = "aqueous solution model (phase option A) of phase " + p.name + " in " + file_ + " is not supported";
      else if (p.options.find('Y') != std::string::npos && p.site_ratios.size() != 2)
        p.refusal = "ionic liquid model (phase option Y) of phase " + p.name + " in " + file_ +
                    " needs exactly 2 sublattices, found " + std::to_string(p.site_ratios.size());
    }

    // Parameters: keep those that fit their phase (§1.1: a constituent not in the sublattice makes
    // the parameter inapplicable; parameter_filter_test.tdb checks exactly this).
    std::vector<PendingParameter*> kept;
    for (auto& pp : params_) {
      const PhaseDef* ph = phase_named(pp.p.phase);
      if (!ph) {
        warn(pp.p.line, "PARAMETER " + pp.text + ": phase " + pp.p.phase + " is not defined; ignored");
        continue;
      }
      if (ph->constituents.empty()) continue;  // refused phase without constituents
      // §7.1: in the ionic liquid a one-sublattice array of neutral species (G(IONIC_LIQ,S;0),
      // L(IONIC_LIQ,B1,B2;0)) belongs to the anion sublattice. It is kept as written (one
      // sublattice); it is checked against sublattice 2 here.
      bool il_neutral = ph->options.find('Y') != std::string::npos && ph->constituents.size() == 2 &&
                        pp.p.constituents.size() == 1;
      if (il_neutral) {
        bool ok = true;
        for (const auto& sp : pp.p.constituents[0]) {
          const auto& sub = ph->constituents[1];
          if (sp != "*" && std::find(sub.begin(), sub.end(), sp) == sub.end()) ok = false;
        }
        if (ok) kept.push_back(&pp);
        else warn(pp.p.line, "PARAMETER " + pp.text + ": not all of its species are on the anion sublattice of " +
                                 ph->name + "; ignored");
        continue;
      }
      if (pp.p.constituents.size() != ph->constituents.size()) {
        warn(pp.p.line, "PARAMETER " + pp.text + ": " + std::to_string(pp.p.constituents.size()) +
                            " sublattices but phase " + ph->name + " has " + std::to_string(ph->constituents.size()) +
                            "; ignored");
        continue;
      }
      bool ok = true;
      for (size_t s = 0; s < pp.p.constituents.size() && ok; ++s)
        for (const auto& sp : pp.p.constituents[s]) {
          if (sp == "*") continue;
          const auto& sub = ph->constituents[s];
          if (std::find(sub.begin(), sub.end(), sp) == sub.end()) {
            warn(pp.p.line, "PARAMETER " + pp.text + ": " + sp + " is not a constituent of sublattice " +
                                std::to_string(s + 1) + " of " + ph->name + "; ignored");
            ok = false;
            break;
          }
        }
      if (ok) kept.push_back(&pp);
    }

    // The same parameter given twice (COST507.tdb has 6): both are kept, in file order, and
    // reported; whether they add up (pycalphad sums every matching row) or the later one wins
    // (Thermo-Calc) is the model's decision.
    {
      std::map<std::string, int> seen;
      for (const PendingParameter* pp : kept) {
        std::string key = pp->p.type + "|" + pp->p.phase + "&" + pp->p.phase_qualifier + "|" + std::to_string(pp->p.order);
        for (const auto& sub : pp->p.constituents) {
          key += ":";
          for (const auto& sp : sub) key += sp + ",";
        }
        auto [it, fresh] = seen.emplace(key, pp->p.line);
        if (!fresh)
          warn(pp->p.line, "PARAMETER " + pp->text + " given again (first at line " + std::to_string(it->second) +
                               "); both are kept");
      }
    }
    resolve_and_compile(kept);
    for (const auto& [name, line] : rejected_) {
      PhaseDef* ph = phase_named(name);
      if (!ph) warn(line, "DEFAULT_COMMAND REJECT_PHASE: phase " + name + " is not defined; ignored");
      else ph->rejected_by_default = true;
    }
    if (dropped_warnings_ > 0)
      db_->warnings_.push_back(file_ + ": " + std::to_string(dropped_warnings_) + " further warnings not listed");
  }

  void apply_type_definitions() {
    std::map<char, std::vector<const TypeDef*>> by_code;
    for (const auto& td : typedefs_) by_code[td.code].push_back(&td);
    for (auto& ph : db_->phases_) {
      for (char code : ph.type_codes) {
        auto it = by_code.find(code);
        if (it == by_code.end()) {
          if (code != '%')
            warn(ph.line, std::string("type code '") + code + "' of phase " + ph.name + " is not defined; ignored");
          continue;
        }
        for (const TypeDef* td : it->second) {
          if (td->keyword.empty()) continue;
          if (!(td->target == "@" || td->target == "*" || td->target == ph.name)) continue;
          apply(*td, ph);
        }
      }
    }
  }

  void apply(const TypeDef& td, PhaseDef& ph) {
    if (td.keyword == "MAGNETIC") {
      // §3: MAGNETIC afm p (afm = -1 BCC, -3 others, 0 selects Xiong et al.)
      MagneticType m;
      if (td.args.size() < 2 || !parse_double(td.args[0], m.afm) || !parse_double(td.args[1], m.p))
        fail(td.line, "TYPE_DEFINITION MAGNETIC for " + ph.name + ": expected the antiferromagnetic factor and p");
      ph.magnetic = m;
    } else if (td.keyword == "DISORDERED_PART") {
      if (td.args.empty()) fail(td.line, "TYPE_DEFINITION DISORDERED_PART for " + ph.name + ": no phase named");
      std::string dis = td.args[0];
      PhaseDef* d = phase_named(dis);
      if (!d) {
        ph.refusal = "order-disorder model of phase " + ph.name + " in " + file_ + ": its DISORDERED_PART phase " + dis +
                     " is not defined";
        return;
      }
      if (d == &ph) fail(td.line, "phase " + ph.name + " cannot be its own DISORDERED_PART");
      ph.disordered_part = dis;
      d->ordered_parent = ph.name;
    } else if (td.keyword == "EXCESS_MODEL") {
      std::string m = td.args.empty() ? "" : td.args[0];
      if (m.find("MUGGIANU") == std::string::npos && m.find("REDLICH") == std::string::npos)
        ph.refusal = "excess model " + m + " of phase " + ph.name + " in " + file_ +
                     " is not supported (only Redlich-Kister-Muggianu)";
    } else if (td.keyword == "QUASICHEMICAL") {
      ph.refusal = "quasichemical model of phase " + ph.name + " in " + file_ + " is not supported";
    } else if (td.keyword == "COMPOSITION_SETS" || td.keyword == "MAJOR_CONSTITUENT" ||
               td.keyword == "DEFAULT_COMPOSITION") {
      // start-point hints only
    } else {
      warn(td.line, "TYPE_DEFINITION keyword " + td.keyword + " for phase " + ph.name + " not understood; ignored");
    }
  }

  void resolve_and_compile(const std::vector<PendingParameter*>& kept) {
    TdbDatabase& db = *db_;
    const size_t nf = functions_.size();
    db.func_names_.clear();
    for (size_t f = 0; f < nf; ++f) {
      db.func_names_.push_back(functions_[f].name);
      db.func_index_[functions_[f].name] = static_cast<int>(f);
    }
    auto resolve = [&](const std::string& name) -> int {
      auto it = db.func_index_.find(name);
      if (it != db.func_index_.end()) return it->second;
      if (name == "R") return -1;  // R / R#: gas constant (§10)
      return -3;  // undefined: the value 0 (see below)
    };
    // Reference graph of FUNCTIONs.
    std::vector<std::vector<int>> edges(nf);
    std::vector<std::vector<std::string>> undefined(nf);
    for (size_t f = 0; f < nf; ++f)
      for (const auto& r : functions_[f].ranges)
        for (const auto& name : r.ast.refs()) {
          int k = resolve(name);
          if (k >= 0) edges[f].push_back(k);
          else if (k == -3) undefined[f].push_back(name);
        }
    // Cycles and nesting depth (iterative DFS; a chain of thousands of FUNCTIONs must not overflow the
    // stack here). Evaluation follows references recursively, so the depth is bounded (kMaxFunctionDepth).
    {
      std::vector<uint8_t> color(nf, 0);
      std::vector<int> depth(nf, 1), next(nf, -1);  // levels of FUNCTION references, counting itself
      for (size_t s = 0; s < nf; ++s) {
        if (color[s]) continue;
        std::vector<std::pair<int, size_t>> stack{{static_cast<int>(s), 0}};
        color[s] = 1;
        while (!stack.empty()) {
          auto& [u, i] = stack.back();
          if (i < edges[u].size()) {
            int v = edges[u][i++];
            if (color[v] == 1)
              fail(functions_[v].line, "FUNCTION " + functions_[v].name + " refers to itself (through FUNCTION " +
                                           functions_[u].name + ")");
            if (color[v] == 0) {
              color[v] = 1;
              stack.push_back({v, 0});
            }
          } else {
            color[u] = 2;
            for (int v : edges[u])
              if (depth[v] + 1 > depth[u]) {
                depth[u] = depth[v] + 1;
                next[u] = v;
              }
            if (depth[u] > kMaxFunctionDepth) {
              std::string chain = functions_[u].name;
              int k = next[u];
              for (int shown = 0; k >= 0 && shown < 3; ++shown, k = next[k]) chain += " -> " + functions_[k].name;
              if (k >= 0) chain += " -> ...";
              fail_limit(functions_[u].line, "FUNCTION " + functions_[u].name + " nests FUNCTION references " +
                                                 std::to_string(depth[u]) + " levels deep (" + chain + "; at most " +
                                                 std::to_string(kMaxFunctionDepth) + " levels)");
            }
            stack.pop_back();
          }
        }
      }
    }
    // Undefined references. Real files have them in used places (COST507.tdb: RTLNP in every GAS
    // parameter, its FUNCTION commented out; Cr-Fe-Ni_shallow_bcc.tdb: ZERO#) and pycalphad, whose
    // values the validation cases hold, evaluates an undefined symbol as 0. We do the same so that
    // these files load, and report every such reference as a warning naming the symbol and line.
    std::vector<uint8_t> used(nf, 0);
    std::vector<int> todo;
    std::set<std::string> reported;
    for (const PendingParameter* pp : kept)
      for (const auto& r : pp->ranges)
        for (const auto& name : r.ast.refs()) {
          int k = resolve(name);
          if (k == -3 && reported.insert(name).second)
            warn(pp->p.line, "PARAMETER " + pp->text + " uses FUNCTION " + name + ", which is not defined; taken as 0");
          if (k >= 0 && !used[k]) {
            used[k] = 1;
            todo.push_back(k);
          }
        }
    while (!todo.empty()) {
      int f = todo.back();
      todo.pop_back();
      for (const auto& name : undefined[f])
        if (reported.insert(name).second)
          warn(functions_[f].line, "FUNCTION " + functions_[f].name + " uses FUNCTION " + name +
                                       ", which is not defined; taken as 0");
      for (int k : edges[f])
        if (!used[k]) {
          used[k] = 1;
          todo.push_back(k);
        }
    }
    for (size_t f = 0; f < nf; ++f)
      if (!used[f] && !undefined[f].empty())
        warn(functions_[f].line, "FUNCTION " + functions_[f].name + " uses undefined FUNCTION " + undefined[f][0] +
                                     " (not used by any parameter); taken as 0");

    // Compile.
    auto store = std::make_shared<CodeStore>();
    auto compile = [&](const std::vector<RangeAst>& ranges, int func, int line) -> ExprId {
      CompiledExpr e;
      e.range_begin = static_cast<uint32_t>(store->ranges.size());
      e.range_count = static_cast<uint32_t>(ranges.size());
      e.line = line;
      for (const auto& r : ranges) store->ranges.push_back(compile_range(r.ast, r.low, r.high, *store, resolve));
      if (func >= 0) {
        // The function's own body; the ExprId handed out for the function goes through its cache.
        store->exprs.push_back(e);
        ExprId body = static_cast<ExprId>(store->exprs.size() - 1);
        CompiledExpr alias;
        alias.func = func;
        alias.line = line;
        store->exprs.push_back(alias);
        db.func_expr_.push_back(body);
        return static_cast<ExprId>(store->exprs.size() - 1);
      }
      store->exprs.push_back(e);
      return static_cast<ExprId>(store->exprs.size() - 1);
    };
    std::vector<ExprId> alias(nf);
    for (size_t f = 0; f < nf; ++f) alias[f] = compile(functions_[f].ranges, static_cast<int>(f), functions_[f].line);
    // func_expr_ holds the bodies (used by function_value); function_expr() hands out the aliases.
    db.alias_expr_ = alias;
    for (PendingParameter* pp : kept) {
      pp->p.expr = compile(pp->ranges, -1, pp->p.line);
      db.parameters_.push_back(pp->p);
    }
    db.has_override_.assign(nf, 0);
    db.override_value_.assign(nf, 0.0);
    db.store_ = store;
  }
};

}  // namespace io

std::shared_ptr<Database> Database::from_string(const std::string& text, const std::string& file_name) {
  io::Reader r(text, file_name);
  return r.read();
}

std::shared_ptr<Database> Database::from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TdbError(base_name(path), 0, std::string("cannot open the file: ") + std::strerror(errno), ErrorCode::File);
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size < 0) throw TdbError(base_name(path), 0, "cannot read the file", ErrorCode::File);
  if (size > (std::streamoff(512) << 20)) throw TdbError(base_name(path), 0, "file larger than 512 MB", ErrorCode::TdbLimit);
  in.seekg(0, std::ios::beg);
  std::string text(static_cast<size_t>(size), '\0');
  if (size > 0 && !in.read(&text[0], size)) throw TdbError(base_name(path), 0, "cannot read the file", ErrorCode::File);
  return from_string(text, path);
}

}  // namespace pd
