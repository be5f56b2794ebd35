// TDB reader, pass 1: FUNCTION and PARAMETER commands, their expressions read into syntax trees (expression.cpp) per
// temperature range. See tdb_reader.cpp for the whole reading and tdb_reader_internal.hpp.
#include <algorithm>
#include <cctype>
#include <string>

#include "io/tdb_reader_internal.hpp"

namespace pd::io {

// Reads "LOW expr; HIGH Y expr; HIGH N [ref]" starting at pos.
std::vector<RangeAst> Reader::piecewise(const Command& c, size_t pos, const std::string& what) {
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
    bool numeric_start =
        pos < s.size() && (std::isdigit(static_cast<unsigned char>(s[pos])) || s[pos] == '.' || s[pos] == ',');
    if (numeric_start) {
      double v = read_limit(kDefaultLowT, "lower");
      size_t after = pos;
      skip_ws();
      if (pos < s.size() && s[pos] == ';' && s[save] != ',')
        pos = save;  // "0;": an expression
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
    if (pos < s.size() && s[pos] == 'Y' &&
        (pos + 1 >= s.size() || s[pos + 1] == ' ' || s[pos + 1] == '+' || s[pos + 1] == '-' || s[pos + 1] == '(' ||
         std::isdigit(static_cast<unsigned char>(s[pos + 1])) || s[pos + 1] == '.')) {
      ++pos;
      low = out.back().high;
      continue;
    }
    break;
  }
  return out;
}

void Reader::function(const Command& c) {
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
  f.file = file_;
  f.ranges = piecewise(c, pos, "FUNCTION " + name);
  auto it = function_pos_.find(name);
  if (it != function_pos_.end()) {
    warn(line, "FUNCTION " + name + " defined again (first at line " + std::to_string(functions_[it->second].line) +
                   "); the later definition is used");
    functions_[it->second] = std::move(f);
    return;
  }
  dropped_functions_.erase(name);  // an earlier definition that could not be read is replaced
  function_pos_[name] = functions_.size();
  functions_.push_back(std::move(f));
}

void Reader::parameter(const Command& c) {
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
  p.file = file_;
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

}  // namespace pd::io
