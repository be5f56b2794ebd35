// Text helpers of the TDB reader: keyword abbreviations, numbers, splitting (tdb_reader_internal.hpp).
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "io/tdb_reader_internal.hpp"

namespace pd::io {

const char* const kCommands[] = {"ELEMENT",
                                 "SPECIES",
                                 "PHASE",
                                 "CONSTITUENT",
                                 "FUNCTION",
                                 "PARAMETER",
                                 "TYPE_DEFINITION",
                                 "DEFINE_SYSTEM_DEFAULT",
                                 "DEFINE_SYSTEM_ELEMENT",
                                 "DEFAULT_COMMAND",
                                 "DATABASE_INFORMATION",
                                 "LIST_OF_REFERENCES",
                                 "ADD_REFERENCES",
                                 "REFERENCE",
                                 "REFERENCE_FILE",
                                 "ASSESSED_SYSTEMS",
                                 "TEMPERATURE_LIMITS",
                                 "VERSION_DATE",
                                 "VERSION_DATA",
                                 "ZERO_VOLUME_SPECIES",
                                 "DIFFUSION",
                                 "TABLE",
                                 "CASE",
                                 "ENDCASE",
                                 "OPTIONS",
                                 "FTP_FILE"};

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

std::vector<std::string> split_ws(const std::string& s, bool commas_too) {
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

}  // namespace pd::io
