// A mobility file read beside a thermodynamic TDB file (Database::from_files). Mobility databases of the DICTRA format
// (mf-mobility.tdb, diffusion.tdb) describe the phases of another database: they hold the activation energies MQ and
// frequency factors MF of atomic mobilities, or DQ and DF of diffusivities, each of one diffusing element in one phase
// (MQ(FCC_A1&CR,FE:VA;0): chromium in FCC_A1 rich in iron; Andersson and Agren, J. Appl. Phys. 72 (1992) 1350).
//
// The mobility file has a Reader of its own for pass 1, so that every command, warning and error names that file and
// its line. What it may add: its FUNCTIONs and its mobility PARAMETERs. Every command that would change the
// thermodynamic description (ELEMENT, SPECIES, PHASE, CONSTITUENT, TYPE_DEFINITION, DEFAULT_COMMAND REJECT_PHASE, any
// other PARAMETER) is ignored, with one warning per kind of command (a kawin_*.tdb file, thermodynamics and mobilities
// together, named as the mobility file of another database adds its mobilities only); the commands the reader reads
// as no data (DATABASE_INFO, references, ZEROVOLUME_SPECIES, DIFFUSION ...) stay so. In pass 2 a mobility parameter
// is dropped with a warning when its phase is not one of the thermodynamic database, when its diffusing element is
// not an element (or species) of it, or when its constituents are not in the phase's sublattices.
//
// FUNCTIONs. The two files have a namespace each: the thermodynamic description never sees a FUNCTION of the mobility
// file, and the mobility parameters see the mobility file's FUNCTIONs first, then the thermodynamic file's. A FUNCTION
// of the mobility file that the thermodynamic file also defines (or uses without defining) is kept for the mobility
// parameters under the name NAME@MOBILITY-FILE (the name its author's parameters were fitted with; a warning says so)
// while the thermodynamic description keeps its own. FUNCTIONs of the mobility file that no usable mobility
// parameter uses are not added (a kawin file's Gibbs-energy FUNCTIONs).
#include <set>

#include "io/tdb_reader_internal.hpp"

namespace pd::io {

bool is_mobility_parameter(const std::string& type) {
  return type == "MQ" || type == "MF" || type == "DQ" || type == "DF";
}

// Pass 1 of the mobility file on its own Reader; its warnings join this one's.
void Reader::read_mobility_commands() {
  Reader& m = *mobility_;
  m.split_commands();
  for (const Command& c : m.commands_) m.dispatch(c);
  m.report_ignored_commands();
  for (const LoadWarning& w : m.db_->warnings_) warn_at(w.file, w.line, w.message, w.phase);
  dropped_warnings_ += m.dropped_warnings_;
  m.db_->warnings_.clear();
}

// On the Reader of a mobility file: whether the command would change the thermodynamic description (then it is
// counted and not run).
bool Reader::ignored_in_mobility_file(const std::string& keyword, const Command& c) {
  std::string kind;
  if (keyword == "PARAMETER") {
    // the type as written; a command without one is left to parameter(), which says what is wrong with it
    size_t from = c.text.find(' '), open = c.text.find('(');
    if (from == std::string::npos || open == std::string::npos || open < from) return false;
    std::string type = trim(c.text.substr(from, open - from));
    if (type.empty() || is_mobility_parameter(type)) return false;
    kind = "PARAMETER " + type;
  } else if (keyword == "ELEMENT" || keyword == "SPECIES" || keyword == "PHASE" || keyword == "CONSTITUENT" ||
             keyword == "TYPE_DEFINITION") {
    kind = keyword;
  } else if (keyword == "DEFAULT_COMMAND" && rejects_phases(args_of(c))) {
    kind = "DEFAULT_COMMAND REJECT_PHASE";
  } else {
    return false;
  }
  IgnoredKind& k = ignored_[kind];
  if (k.count++ == 0) {
    const auto words = split_ws(c.text);
    k.line = c.line_at(0);
    k.head = (words[0] + (words.size() > 1 ? " " + words[1] : "")).substr(0, 60);
  }
  return true;
}

void Reader::report_ignored_commands() {
  for (const auto& [kind, k] : ignored_) {
    const std::string what =
        k.count == 1 ? k.head + " ignored"
                     : std::to_string(k.count) + " " + kind + " commands ignored, the first here (" + k.head + ")";
    warn(k.line, what + ": a mobility file read beside " + beside_ +
                     " adds FUNCTIONs and mobility PARAMETERs (MQ, MF, DQ, DF) only, never changes its thermodynamic "
                     "description");
  }
}

// Pass 2: the mobility parameters that fit the thermodynamic database join `kept` (the thermodynamic file's parameters
// kept), with the FUNCTIONs they use.
void Reader::add_mobility(std::vector<PendingParameter*>& kept) {
  std::vector<PendingParameter*> usable;
  for (PendingParameter& pp : mobility_->params_) {
    const size_t warned = db_->warnings_.size();
    if (fits_thermodynamics(pp))
      usable.push_back(&pp);
    else if (first_mobility_drop_.line == 0 && db_->warnings_.size() > warned)
      first_mobility_drop_ = db_->warnings_.back();
  }
  add_mobility_functions(usable, kept);
  kept.insert(kept.end(), usable.begin(), usable.end());
}

bool Reader::fits_thermodynamics(PendingParameter& pp) {
  auto ignored = [&](const std::string& why) {
    warn_at(pp.p.file, pp.p.line, "PARAMETER " + pp.text + ": " + why + "; ignored", pp.p.phase);
    return false;
  };
  const PhaseDef* ph = phase_named(pp.p.phase);
  if (!ph) {
    auto dropped = dropped_phases_.find(pp.p.phase);
    if (dropped != dropped_phases_.end())
      return ignored("phase " + pp.p.phase + " is dropped in " + file_ + " (line " +
                     std::to_string(dropped->second.line) + ")");
    return ignored("phase " + pp.p.phase + " is not a phase of " + file_);
  }
  const std::string& diffusing = pp.p.phase_qualifier;
  if (diffusing.empty()) return ignored("no diffusing element (" + pp.p.type + "(" + pp.p.phase + "&ELEMENT,...))");
  if (!db_->species_.count(diffusing))
    return ignored("diffusing element " + diffusing + " is not an element of " + file_);
  return applies(pp, *ph);
}

// The FUNCTION names the thermodynamic description defines or uses (a FUNCTION of the mobility file of such a name is
// renamed, so that the thermodynamic description never sees it).
std::set<std::string> Reader::names_of_thermodynamics(const std::vector<PendingParameter*>& kept) const {
  std::set<std::string> names;
  auto add_refs = [&](const std::vector<RangeAst>& ranges) {
    for (const auto& r : ranges)
      for (const auto& name : r.ast.refs()) names.insert(name);
  };
  for (const PendingFunction& f : functions_) {
    names.insert(f.name);
    add_refs(f.ranges);
  }
  for (const auto& [name, line] : dropped_functions_) names.insert(name);
  for (const PendingParameter* pp : kept) add_refs(pp->ranges);
  return names;
}

void Reader::add_mobility_functions(const std::vector<PendingParameter*>& usable,
                                    const std::vector<PendingParameter*>& kept) {
  Reader& m = *mobility_;
  // The mobility file's FUNCTIONs its usable parameters use, directly or through each other.
  std::vector<uint8_t> used(m.functions_.size(), 0);
  std::vector<size_t> todo;
  std::set<std::string> used_unreadable;  // names of FUNCTIONs of the mobility file that could not be read
  auto visit = [&](const std::vector<RangeAst>& ranges) {
    for (const auto& r : ranges)
      for (const auto& name : r.ast.refs()) {
        auto it = m.function_pos_.find(name);
        if (it != m.function_pos_.end() && !used[it->second]) {
          used[it->second] = 1;
          todo.push_back(it->second);
        } else if (it == m.function_pos_.end() && m.dropped_functions_.count(name)) {
          used_unreadable.insert(name);
        }
      }
  };
  for (const PendingParameter* pp : usable) visit(pp->ranges);
  while (!todo.empty()) {
    const size_t f = todo.back();
    todo.pop_back();
    visit(m.functions_[f].ranges);
  }
  const std::set<std::string> taken = names_of_thermodynamics(kept);
  const std::string suffix = "@" + upper(m.file_);
  std::map<std::string, std::string> renamed;
  for (size_t f = 0; f < m.functions_.size(); ++f) {
    const PendingFunction& fn = m.functions_[f];
    if (!used[f] || !taken.count(fn.name)) continue;
    renamed[fn.name] = fn.name + suffix;
    auto own = function_pos_.find(fn.name);
    const std::string there =
        own != function_pos_.end()
            ? "also defined in " + file_ + " (line " + std::to_string(functions_[own->second].line) + ")"
            : "also named in " + file_ + ", which does not define it there";
    warn_at(m.file_, fn.line,
            "FUNCTION " + fn.name + " is " + there + ": the mobility parameters of " + m.file_ +
                " use the definition here (named " + fn.name + suffix + "), the thermodynamic description keeps " +
                file_ + "'s");
  }
  for (const std::string& name : used_unreadable) {
    const std::string as = taken.count(name) ? name + suffix : name;
    if (as != name) renamed[name] = as;
    dropped_functions_[as] = m.dropped_functions_[name];
  }
  auto rename_refs = [&](std::vector<RangeAst>& ranges) {
    for (auto& r : ranges)
      for (Node& n : r.ast.nodes) {
        auto it = n.kind == Node::Ref ? renamed.find(n.name) : renamed.end();
        if (it != renamed.end()) n.name = it->second;
      }
  };
  for (PendingParameter* pp : usable) rename_refs(pp->ranges);
  for (size_t f = 0; f < m.functions_.size(); ++f) {
    if (!used[f]) continue;
    PendingFunction fn = std::move(m.functions_[f]);
    rename_refs(fn.ranges);
    if (renamed.count(fn.name)) fn.name = renamed[fn.name];
    function_pos_[fn.name] = functions_.size();
    functions_.push_back(std::move(fn));
  }
}

// A mobility file of which no parameter is usable was named beside the wrong database (or is no mobility file): the
// load is refused, naming it.
void Reader::check_mobility_usable() {
  const Reader& m = *mobility_;
  size_t added = 0;
  for (const PendingParameter& pp : m.params_) added += pp.p.expr != kNoExpr ? 1 : 0;
  if (added > 0) return;
  if (m.params_.empty())
    throw TdbError(m.file_, 0,
                   "no mobility PARAMETER (MQ, MF, DQ, DF) in " + m.file_ + ": it adds nothing to " + file_);
  const LoadWarning& first = first_mobility_drop_;
  const int line = first.line > 0 ? first.line : m.params_.front().p.line;
  throw TdbError(m.file_, line,
                 "no mobility parameter of " + m.file_ + " describes a phase of " + file_ + " (all " +
                     std::to_string(m.params_.size()) + " are ignored" +
                     (first.line > 0 ? "; this one: " + first.message : "") + ")");
}

// The phases and diffusing elements a file of mobility data alone names, for a catalog that lists it before any
// thermodynamic database is named beside it.
Database::MobilitySummary Reader::mobility_summary() {
  split_commands();
  for (const Command& c : commands_) dispatch(c);
  std::set<std::string> phases, elements;
  Database::MobilitySummary out;
  for (const PendingParameter& pp : params_) {
    // a parameter without its diffusing element (MQ(BCC_A2V,...) for MQ(BCC_A2&V,...)) is dropped beside any database
    if (!is_mobility_parameter(pp.p.type) || pp.p.phase_qualifier.empty()) continue;
    ++out.parameters;
    phases.insert(pp.p.phase);
    elements.insert(pp.p.phase_qualifier);
  }
  if (out.parameters == 0) throw TdbError(file_, 0, "no mobility PARAMETER (MQ, MF, DQ, DF) in " + file_);
  out.phases.assign(phases.begin(), phases.end());
  out.elements.assign(elements.begin(), elements.end());
  out.warnings = db_->warnings_;
  return out;
}

}  // namespace pd::io

namespace pd {
Database::MobilitySummary Database::mobility_summary(const std::string& text, const std::string& file_name) {
  io::Reader r(text, file_name);
  return r.mobility_summary();
}
}  // namespace pd
