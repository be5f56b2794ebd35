// TDB reader, pass 1: the text as commands (ending at '!', '$' comments removed) and each command parsed into
// pending records (elements, species, phases, constituents, type definitions, default commands; FUNCTIONs and
// PARAMETERs in tdb_expressions.cpp). A command that cannot be read is dropped here with a warning, with what
// depends on it. See tdb_reader.cpp for the whole reading and tdb_reader_internal.hpp.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

#include "io/tdb_reader_internal.hpp"

namespace pd::io {

void Reader::split_commands() {
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
  // A command the end of the file cuts off (kawin_AlMgSi.tdb ends inside its LIST_OF_REFERENCES) is dropped.
  if (!trim(cur.text).empty()) {
    size_t lead = cur.text.find_first_not_of(' ');
    int l = cur.lines[lead];
    std::string head = trim(cur.text).substr(0, 40);
    drop(TdbError(file_, l, "command not terminated by '!' (file truncated?): " + head), "dropped");
  }
}

void Reader::dispatch(const Command& c) {
  size_t sp = c.text.find(' ');
  std::string word = c.text.substr(0, sp);
  std::string kw = match_keyword(word, kCommands, sizeof(kCommands) / sizeof(kCommands[0]));
  int line = c.line_at(0);
  if (kw.empty()) return drop(TdbError(file_, line, "unknown command '" + word.substr(0, 60) + "'"), "skipped");
  if (kw[0] == '?')
    return drop(TdbError(file_, line, "ambiguous command abbreviation '" + word + "' (" + kw.substr(1) + ")"),
                "skipped");
  try {
    run_command(kw, c);
  } catch (const TdbError& e) {
    if (e.code() != ErrorCode::TdbSyntax) throw;  // a bound of the reader refuses the file
    dropped_command(kw, c, e);
  }
}

void Reader::run_command(const std::string& kw, const Command& c) {
  if (!beside_.empty() && ignored_in_mobility_file(kw, c)) return;
  if (kw == "ELEMENT") return element(c);
  if (kw == "SPECIES") return species(c);
  if (kw == "PHASE") return phase(c);
  if (kw == "CONSTITUENT") return constituent(c);
  if (kw == "FUNCTION") return function(c);
  if (kw == "PARAMETER") return parameter(c);
  if (kw == "TYPE_DEFINITION") return type_definition(c);
  if (kw == "DEFAULT_COMMAND") return default_command(c);
  // Everything else (DEFINE_SYSTEM_DEFAULT, DATABASE_INFO, references, ASSESSED_SYSTEMS, TEMPERATURE_LIMITS,
  // VERSION_DATE, ZERO_VOLUME_SPECIES, ...) carries no thermodynamic data.
}

// What depends on a command that cannot be read goes with it: a PHASE or its CONSTITUENT takes the phase with its
// parameters (remove_dropped_phases), a FUNCTION takes every PARAMETER and FUNCTION that uses it (tdb_functions.cpp).
void Reader::dropped_command(const std::string& kw, const Command& c, const TdbError& why) {
  auto t = split_ws(c.text);
  std::string name = t.size() > 1 ? t[1].substr(0, t[1].find(':')) : "";
  if (kw == "FUNCTION" && !name.empty() && name.back() == '#') name.pop_back();
  if (kw == "PHASE" && phase_pos_.count(name))
    return drop(why,
                "this PHASE command is dropped, the definition at line " +
                    std::to_string(db_->phases_[phase_pos_[name]].line) + " is kept",
                name);
  if (kw == "CONSTITUENT" && constituents_.count(name))
    return drop(why,
                "this CONSTITUENT command is dropped, the one at line " + std::to_string(constituents_[name].second) +
                    " is kept",
                name);
  if ((kw == "PHASE" || kw == "CONSTITUENT") && !name.empty()) return drop_phase(name, why.line(), why.message());
  if (kw == "FUNCTION" && !name.empty()) {
    auto known = function_pos_.find(name);
    if (known != function_pos_.end())
      return drop(why, "this definition is dropped, the one at line " + std::to_string(functions_[known->second].line) +
                           " is kept");
    dropped_functions_.emplace(name, why.line());
    return drop(why, "dropped, with every PARAMETER and FUNCTION that uses it");
  }
  drop(why, "dropped");
}

std::vector<std::string> Reader::args_of(const Command& c) {
  auto t = split_ws(c.text);
  return t;
}

// DEFAULT_COMMAND REJECT_PHASE names... ! (Thermo-Calc's database commands run when the database is
// opened): the phases are kept out of the default system (Al-Fe_sundman2009 rejects three alternative
// BCC descriptions, alcocrni and COST507 the gas). Names may be separated by spaces or commas and may
// precede the phase definitions; they are checked in finish(). Other default commands
// (DEFINE_SYSTEM_ELEMENT, RESTORE_PHASE, ...) change nothing here and are ignored.
bool rejects_phases(const std::vector<std::string>& words) {
  return words.size() >= 2 && abbreviates(words[1], "REJECT_PHASE") && split_parts(words[1]).size() >= 2;
}

void Reader::default_command(const Command& c) {
  auto t = args_of(c);
  if (!rejects_phases(t)) return;
  for (size_t i = 2; i < t.size(); ++i) {
    std::string cur;
    for (char ch : t[i] + ",") {
      if (ch != ',' && ch != '!') {
        cur += ch;
        continue;
      }
      if (!cur.empty())
        rejected_.push_back({checked_name(c.line_at(0), "DEFAULT_COMMAND REJECT_PHASE: phase", cur), c.line_at(0)});
      cur.clear();
    }
  }
}

void Reader::element(const Command& c) {
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
  if (db_->elements_.count(e.name))
    warn(line, "element " + e.name + " defined again; the later definition is used");
  else if (db_->elements_.size() >= kMaxElements)
    fail_limit(line, "more than " + std::to_string(kMaxElements) + " ELEMENTs (the periodic table has 118)");
  db_->elements_[e.name] = e;
}

void Reader::species(const Command& c) {
  auto t = args_of(c);
  int line = c.line_at(0);
  if (t.size() < 3) fail(line, "SPECIES needs a name and a formula");
  checked_name(line, "SPECIES", t[1]);
  if (t[2].size() > 4 * kMaxNameLength)
    fail_limit(line, "SPECIES " + t[1] + ": formula of " + std::to_string(t[2].size()) + " characters (at most " +
                         std::to_string(4 * kMaxNameLength) + ")");
  pending_species_.push_back({t[1], t[2], line});  // parsed once every ELEMENT is known
}

void Reader::finish_species(const std::string& name, const std::string& formula, int line) {
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
void Reader::parse_formula(const std::string& f, Species& sp, int line) {
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
      if (!num.empty() && !parse_double(num, q))
        fail(line, "SPECIES " + sp.name + ": bad charge '" + f.substr(i) + "'");
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

bool Reader::is_integer(const std::string& s, int& out) {
  if (s.empty() || s.size() > 6) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  out = std::atoi(s.c_str());
  return true;
}

void Reader::phase(const Command& c) {
  auto t = args_of(c);
  int line = c.line_at(0);
  if (t.size() < 2) fail(line, "PHASE without a name");
  PhaseDef ph;
  ph.line = line;
  size_t colon = t[1].find(':');
  ph.name = checked_name(line, "PHASE", t[1].substr(0, colon));
  if (colon != std::string::npos) ph.options = t[1].substr(colon + 1);
  if (ph.name.empty()) fail(line, "PHASE without a name");
  read_site_ratios(t, ph);
  for (char o : ph.options)
    if (std::string("LGAYIBF").find(o) == std::string::npos)
      warn(line, std::string("PHASE ") + ph.name + ": unknown phase option '" + o + "' ignored", ph.name);
  auto dropped = dropped_phases_.find(ph.name);
  if (dropped != dropped_phases_.end() && dropped->second.line < line) {
    warn(dropped->second.line,
         dropped->second.reason + "; that command is dropped, PHASE " + ph.name + " at line " + std::to_string(line) +
             " is used",
         ph.name);
    dropped_phases_.erase(dropped);
  }
  auto known = phase_pos_.find(ph.name);
  if (known != phase_pos_.end()) {
    warn(line, "PHASE " + ph.name + " defined again; the later definition is used", ph.name);
    db_->phases_[known->second] = ph;
    return;
  }
  phase_pos_[ph.name] = db_->phases_.size();
  db_->phases_.push_back(ph);
}

// "NAME[:OPTIONS] TYPECODES N RATIO_1 ... RATIO_N" (the type codes may be absent); text after the ratios is ignored.
void Reader::read_site_ratios(const std::vector<std::string>& t, PhaseDef& ph) {
  const int line = ph.line;
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
  // Text after the ratios: Thermo-Calc's description of the phase when it starts with '>' (mc_al: "> Al-Matrix phase,
  // face-centered cubic >> 6"); anything else is ignored with a warning (a '!' missing at the end of the line makes
  // the next command, usually the phase's CONSTITUENT, part of this one).
  if (t.size() > first_ratio + n && t[first_ratio + n][0] != '>') {
    std::string extra = t[first_ratio + n];
    for (size_t k = first_ratio + n + 1; k < t.size() && extra.size() < 40; ++k) extra += " " + t[k];
    warn(line,
         "PHASE " + ph.name + ": text after the site ratios ignored: '" + extra.substr(0, 40) + "'" +
             (starts_command(extra) ? " (a '!' missing before it?)" : ""),
         ph.name);
  }
  for (int k = 0; k < n; ++k) {
    double r;
    if (!parse_double(t[first_ratio + k], r) || !(r > 0))
      fail(line, "PHASE " + ph.name + ": site ratio '" + t[first_ratio + k] + "' is not a positive number");
    ph.site_ratios.push_back(r);
  }
}

void Reader::constituent(const Command& c) {
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
  std::vector<std::string> parts;
  std::string cur;
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
  std::vector<std::vector<std::string>> subs;
  for (size_t k = 0; k < parts.size(); ++k) {
    subs.push_back(sublattice_list(name, parts[k], line));
    if (subs.back().empty()) fail(line, "CONSTITUENT " + name + ": sublattice " + std::to_string(k + 1) + " is empty");
  }
  if (subs.empty()) fail(line, "CONSTITUENT " + name + ": no sublattices");
  if (constituents_.count(name)) warn(line, "CONSTITUENT " + name + " given again; the later one is used", name);
  constituents_[name] = {subs, line};
}

// The species of one sublattice: separated by commas or blanks ("CONS ALPT :AL:PT NI:!" in alnipt.tdb), '%' (major
// constituent) removed. A species named twice has no meaning: the command is dropped.
std::vector<std::string> Reader::sublattice_list(const std::string& name, const std::string& text, int line) {
  std::vector<std::string> list;
  std::string item;
  auto push = [&]() {
    std::string x;
    for (char ch : item)
      if (ch != '%') x += ch;
    item.clear();
    checked_name(line, "CONSTITUENT " + name + ": species", x);
    if (x.empty()) return;
    if (std::find(list.begin(), list.end(), x) != list.end())
      fail(line, "CONSTITUENT " + name + ": species " + x + " named twice in one sublattice");
    list.push_back(x);
  };
  for (char ch : text) {
    if (ch == ',' || ch == ' ')
      push();
    else
      item += ch;
  }
  push();
  return list;
}

void Reader::type_definition(const Command& c) {
  int line = c.line_at(0);
  auto t = split_ws(c.text, true);
  if (t.size() < 2) fail(line, "TYPE_DEFINITION without a type code");
  TypeDef td;
  td.line = line;
  td.code = t[1][0];
  if (t[1].size() != 1)
    warn(line,
         "TYPE_DEFINITION code '" + t[1] + "' is longer than one character; using '" + std::string(1, td.code) + "'");
  if (t.size() >= 6 && t[2] == "GES" && abbreviates(t[3], "AMEND_PHASE_DESCRIPTION")) {
    td.target = checked_name(line, "TYPE_DEFINITION " + t[1] + ": phase", t[4]);
    static const char* const kKeys[] = {"MAGNETIC",     "DISORDERED_PART", "COMPOSITION_SETS",   "MAJOR_CONSTITUENT",
                                        "EXCESS_MODEL", "QUASICHEMICAL",   "DEFAULT_COMPOSITION"};
    std::string kw = match_keyword(t[5], kKeys, sizeof(kKeys) / sizeof(kKeys[0]));
    td.keyword = kw.empty() || kw[0] == '?' ? t[5] : kw;
    td.args.assign(t.begin() + 6, t.end());
  } else if (t.size() >= 3 && t[2] == "GES") {
    warn(line, "TYPE_DEFINITION " + std::string(1, td.code) + ": GES command not understood; ignored");
  }
  // "SEQ *", IF/THEN forms and other GES commands carry no model information (§10).
  typedefs_.push_back(td);
}

}  // namespace pd::io
