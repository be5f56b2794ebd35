// TDB (Thermo-Calc database format) reader.
//
// Reading happens in two passes so that the order of commands in a file does not matter (files put
// TYPE_DEFINITIONs after the PHASEs that use them and reference FUNCTIONs before defining them):
//   1. the text is split into commands (ending at '!', '$' comments removed, text after '!' on the
//      same line ignored unless it starts another command) and each command is parsed into pending
//      records, expressions into syntax trees;
//   2. constituents and type definitions are applied to the phases (formula sheet §10: "applied after all phases
//      are read"), parameters are checked against their phases, FUNCTION references are resolved (undefined ones
//      are taken as 0 with a warning) and every expression is compiled.
// Load what is sound: a command that cannot be read or used is dropped with what depends on it and a warning
// naming file and line (a phase goes with its CONSTITUENT and PARAMETERs, and with the ordered phases whose
// DIS_PART it is; a FUNCTION with the PARAMETERs and FUNCTIONs that use it). What Thermo-Calc's rules give a
// meaning to is read with that meaning: a type code that amends another phase amends it; order-disorder pairs
// whose sublattices map onto each other (order_disorder_layout) are kept. The file is refused with the first
// dropped command's "FILE:LINE: text" only when no phase remains, and at once for a bound of the reader.
// No input can crash or hang the reader (the expression parser bounds its nesting and size, all loops advance,
// nothing is indexed unchecked).
//
// Files: tdb_reader_internal.hpp (private types), tdb_commands.cpp and tdb_expressions.cpp (pass 1), this file
// (pass 2 and the entry points), tdb_functions.cpp (FUNCTION references and compilation), tdb_mobility.cpp (a mobility
// file read beside the thermodynamic one), database.cpp (Database members and expression evaluation),
// order_disorder.cpp (the layout rule of DIS_PART pairs).
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>

#include "io/tdb_reader_internal.hpp"

namespace pd {

namespace io {

// A file without an ELEMENT: a file of mobility parameters alone describes the phases of a thermodynamic database
// beside it (its own code, so that callers can tell it from a broken file); anything else is no database.
void Reader::fail_without_elements() {
  size_t mobility = 0;
  for (const PendingParameter& pp : params_) mobility += is_mobility_parameter(pp.p.type) ? 1 : 0;
  if (mobility > 0 && db_->phases_.empty())
    throw TdbError(file_, 1,
                   "mobility data only (" + std::to_string(mobility) +
                       " mobility parameters, no ELEMENT or PHASE): it is read beside the thermodynamic database "
                       "whose phases it describes",
                   ErrorCode::TdbMobilityOnly);
  fail(1, "no ELEMENT declared (a TDB database declares its elements with ELEMENT commands)");
}

// ---- pass 2 ----
void Reader::finish() {
  // A file without an ELEMENT is no database (and not one any calculation could use): an HTML page or a
  // file of another format that happens to parse as commands.
  bool any = false;
  for (const auto& [name, el] : db_->elements_) any |= name != "VA" && name != "/-";
  if (!any) fail_without_elements();
  make_species();
  assign_constituents();
  apply_type_definitions();
  check_order_disorder();
  remove_dropped_phases();
  link_ordered_parents();
  refuse_unsupported_models();
  std::vector<PendingParameter*> kept = applicable_parameters();
  if (mobility_) add_mobility(kept);
  report_repeated_parameters(kept);
  resolve_and_compile(kept);
  apply_rejections();
  if (first_drop_ && db_->phases_.empty()) throw *first_drop_;  // nothing usable remains
  if (mobility_) check_mobility_usable();
  // The thermodynamic file's warnings first, then the mobility file's, each in line order.
  auto rank = [&](const LoadWarning& w) { return w.file == file_ ? 0 : 1; };
  std::stable_sort(db_->warnings_.begin(), db_->warnings_.end(), [&](const LoadWarning& a, const LoadWarning& b) {
    return rank(a) != rank(b) ? rank(a) < rank(b) : a.line < b.line;
  });
  if (dropped_warnings_ > 0)
    db_->warnings_.push_back(
        LoadWarning{file_, 0, std::to_string(dropped_warnings_) + " further warnings not listed", ""});
}

// One species per element (VA and the electron have no composition), VA always, then the SPECIES commands (a
// formula that cannot be read drops its species; a CONSTITUENT naming it then drops its phase).
void Reader::make_species() {
  for (const auto& [name, el] : db_->elements_) {
    Species sp;
    sp.name = name;
    if (name == "/-")
      sp.charge = -1;
    else if (name != "VA")
      sp.composition[name] = 1;
    db_->species_[name] = sp;
  }
  if (!db_->species_.count("VA")) {
    Species va;
    va.name = "VA";
    db_->species_["VA"] = va;
  }
  for (const auto& ps : pending_species_) {
    try {
      finish_species(ps.name, ps.formula, ps.line);
    } catch (const TdbError& e) {
      if (e.code() != ErrorCode::TdbSyntax) throw;
      drop(e, "species " + ps.name + " is dropped");
    }
  }
}

void Reader::assign_constituents() {
  for (const auto& [name, cl] : constituents_) {
    if (dropped_phases_.count(name)) continue;
    PhaseDef* ph = phase_named(name);
    if (!ph) {
      drop(TdbError(file_, cl.second, "CONSTITUENT for phase " + name + " which has no PHASE command"), "dropped");
      continue;
    }
    if (cl.first.size() != ph->site_ratios.size()) {
      drop_phase(name, cl.second,
                 "CONSTITUENT " + name + " gives " + std::to_string(cl.first.size()) + " sublattices but PHASE " +
                     name + " has " + std::to_string(ph->site_ratios.size()));
      continue;
    }
    std::string unknown;
    for (const auto& sub : cl.first)
      for (const auto& sp : sub)
        if (unknown.empty() && !db_->species_.count(sp)) unknown = sp;
    if (!unknown.empty()) {
      drop_phase(name, cl.second,
                 "CONSTITUENT " + name + ": species " + unknown + " is not declared (ELEMENT or SPECIES)");
      continue;
    }
    ph->constituents = cl.first;
  }
  for (auto& p : db_->phases_)
    if (p.constituents.empty() && !dropped_phases_.count(p.name))
      drop_phase(p.name, p.line, "phase " + p.name + " has no CONSTITUENT command");
}

// Thermo-Calc runs the GES command of a type code when a phase with that code is entered: AMEND_PHASE_DESCRIPTION
// of '@' or '*' amends that phase, of a named phase amends the named one (once it exists: here, after all PHASEs
// are read), whichever phase carries the code.
void Reader::apply_type_definitions() {
  std::map<char, std::vector<const TypeDef*>> by_code;
  for (const auto& td : typedefs_) by_code[td.code].push_back(&td);
  std::set<const TypeDef*> applied_elsewhere;
  for (auto& ph : db_->phases_) {
    if (dropped_phases_.count(ph.name)) continue;
    for (char code : ph.type_codes) {
      auto it = by_code.find(code);
      if (it == by_code.end()) {
        if (code != '%')
          warn(ph.line, std::string("type code '") + code + "' of phase " + ph.name + " is not defined; ignored",
               ph.name);
        continue;
      }
      for (const TypeDef* td : it->second) {
        if (td->keyword.empty()) continue;
        if (td->target == "@" || td->target == "*" || td->target == ph.name) {
          apply(*td, ph);
          continue;
        }
        if (!applied_elsewhere.insert(td).second) continue;
        PhaseDef* other = phase_named(td->target);
        if (other && !dropped_phases_.count(other->name))
          apply(*td, *other);
        else if (!other)
          warn(td->line,
               "TYPE_DEFINITION " + std::string(1, code) + " (type code of phase " + ph.name + ") amends phase " +
                   td->target + ", which is not defined; ignored",
               ph.name);
      }
    }
  }
}

void Reader::apply(const TypeDef& td, PhaseDef& ph) {
  const std::string what = "TYPE_DEFINITION " + td.keyword + " for " + ph.name;
  if (td.keyword == "MAGNETIC") {
    // §3: MAGNETIC afm p (afm = -1 BCC, -3 others, 0 selects Xiong et al.)
    MagneticType m;
    if (td.args.size() < 2 || !parse_double(td.args[0], m.afm) || !parse_double(td.args[1], m.p))
      return drop_phase(ph.name, td.line, what + ": expected the antiferromagnetic factor and p");
    ph.magnetic = m;
  } else if (td.keyword == "DISORDERED_PART") {
    if (td.args.empty()) return drop_phase(ph.name, td.line, what + ": no phase named");
    const std::string& dis = td.args[0];
    if (dropped_phases_.count(dis))
      return drop_phase(ph.name, td.line, "the DIS_PART phase " + dis + " of ordered phase " + ph.name + " is dropped");
    if (!phase_named(dis)) return drop_phase(ph.name, td.line, what + ": phase " + dis + " is not defined");
    if (dis == ph.name) return drop_phase(ph.name, td.line, what + ": a phase cannot be its own DISORDERED_PART");
    ph.disordered_part = dis;
    dis_part_line_[ph.name] = td.line;
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
    warn(td.line, "TYPE_DEFINITION keyword " + td.keyword + " for phase " + ph.name + " not understood; ignored",
         ph.name);
  }
}

// An ordered phase depends on its DIS_PART phase: it is dropped with it, and when the two do not map onto each
// other (order_disorder_layout). Chains (a DIS_PART phase with a DIS_PART of its own) are checked from their end.
void Reader::check_order_disorder() {
  std::vector<uint8_t> state(db_->phases_.size(), 0);  // 0 unseen, 1 on the chain being walked, 2 checked
  for (size_t i = 0; i < db_->phases_.size(); ++i) {
    std::vector<size_t> chain;
    for (size_t k = i; state[k] == 0;) {
      state[k] = 1;
      chain.push_back(k);
      auto next = phase_pos_.find(db_->phases_[k].disordered_part);
      if (next == phase_pos_.end()) break;
      k = next->second;
    }
    for (auto k = chain.rbegin(); k != chain.rend(); ++k) {
      check_order_disorder_of(db_->phases_[*k]);
      state[*k] = 2;
    }
  }
}

void Reader::check_order_disorder_of(PhaseDef& ph) {
  if (ph.disordered_part.empty() || dropped_phases_.count(ph.name)) return;
  const PhaseDef& dis = *phase_named(ph.disordered_part);
  const int line = dis_part_line_[ph.name];
  if (dropped_phases_.count(dis.name))
    return drop_phase(ph.name, line, "the DIS_PART phase " + dis.name + " of ordered phase " + ph.name + " is dropped");
  OrderDisorderLayout layout = order_disorder_layout(ph, dis);
  if (!layout.mismatch.empty())
    drop_phase(ph.name, line, "order-disorder model (DIS_PART " + dis.name + ") does not map: " + layout.mismatch);
}

// Removes the dropped phases, each with one warning naming what went with it.
void Reader::remove_dropped_phases() {
  if (dropped_phases_.empty()) return;
  std::map<std::string, size_t> parameters;
  for (const auto& pp : params_)
    if (dropped_phases_.count(pp.p.phase)) ++parameters[pp.p.phase];
  for (const auto& [name, d] : dropped_phases_) {
    std::string with;
    auto cl = constituents_.find(name);
    if (cl != constituents_.end() && cl->second.second != d.line)
      with += "its CONSTITUENT (line " + std::to_string(cl->second.second) + ")";
    if (parameters[name] > 0)
      with += (with.empty() ? "its " : " and ") + std::to_string(parameters[name]) +
              (parameters[name] == 1 ? " PARAMETER" : " PARAMETERs");
    warn(d.line, d.reason + "; phase " + name + " is dropped" + (with.empty() ? "" : ", with " + with), name);
  }
  auto& phases = db_->phases_;
  phases.erase(std::remove_if(phases.begin(), phases.end(),
                              [&](const PhaseDef& p) { return dropped_phases_.count(p.name) > 0; }),
               phases.end());
  phase_pos_.clear();
  for (size_t k = 0; k < phases.size(); ++k) phase_pos_[phases[k].name] = k;
}

// Each DIS_PART phase names its ordered phases, in file order (MF Steel's BCC_A2 is the DIS_PART of BCC_B2 and
// BCC_4SL).
void Reader::link_ordered_parents() {
  for (auto& p : db_->phases_) p.ordered_parents.clear();
  for (const auto& p : db_->phases_)
    if (PhaseDef* dis = phase_named(p.disordered_part)) dis->ordered_parents.push_back(p.name);
}

void Reader::refuse_unsupported_models() {
  for (auto& p : db_->phases_) {
    if (!p.refusal.empty()) continue;
    if (p.options.find('A') != std::string::npos)
      p.refusal = "aqueous solution model (phase option A) of phase " + p.name + " in " + file_ + " is not supported";
    else if (p.options.find('Y') != std::string::npos && p.site_ratios.size() != 2)
      p.refusal = "ionic liquid model (phase option Y) of phase " + p.name + " in " + file_ +
                  " needs exactly 2 sublattices, found " + std::to_string(p.site_ratios.size());
  }
  for (auto& p : db_->phases_) {
    const PhaseDef* dis = phase_named(p.disordered_part);
    if (p.refusal.empty() && dis && !dis->refusal.empty())
      p.refusal = "order-disorder model of phase " + p.name + " in " + file_ + ": its DIS_PART phase " + dis->name +
                  " is refused (" + dis->refusal + ")";
  }
}

// Parameters that fit their phase (§1.1: a constituent not in the sublattice makes the parameter inapplicable;
// parameter_filter_test.tdb checks exactly this); those of a dropped phase go with it (remove_dropped_phases).
std::vector<PendingParameter*> Reader::applicable_parameters() {
  std::vector<PendingParameter*> kept;
  for (auto& pp : params_) {
    const PhaseDef* ph = phase_named(pp.p.phase);
    if (!ph) {
      if (!dropped_phases_.count(pp.p.phase))
        warn(pp.p.line, "PARAMETER " + pp.text + ": phase " + pp.p.phase + " is not defined; ignored");
      continue;
    }
    if (applies(pp, *ph)) kept.push_back(&pp);
  }
  return kept;
}

// Mobility data often leave out the sublattices that hold only vacancies (MQ(FCC_A1&AL,NI;0) for FCC_A1
// (AL,CR,NI)(VA), as kawin's Ni-Cr-Al file writes them): the parameter does not depend on them, as '*' there says.
static void pad_vacancy_sublattices(PendingParameter& pp, const PhaseDef& ph) {
  if (!is_mobility_parameter(pp.p.type)) return;
  while (pp.p.constituents.size() < ph.constituents.size()) {
    const auto& sub = ph.constituents[pp.p.constituents.size()];
    if (sub.size() != 1 || sub[0] != "VA") return;
    pp.p.constituents.push_back({"*"});
  }
}

bool Reader::applies(PendingParameter& pp, const PhaseDef& ph) {
  auto ignored = [&](const std::string& why) {
    warn_at(pp.p.file, pp.p.line, "PARAMETER " + pp.text + ": " + why + "; ignored", ph.name);
    return false;
  };
  // An interaction of a constituent with itself (L(BCC,MN,MN:VA;0)) has no meaning.
  for (size_t s = 0; s < pp.p.constituents.size(); ++s) {
    const auto& sub = pp.p.constituents[s];
    auto twice = std::adjacent_find(sub.begin(), sub.end());
    if (twice != sub.end() && *twice != "*")
      return ignored(*twice + " interacts with itself on sublattice " + std::to_string(s + 1));
  }
  // §7.1: in the ionic liquid a one-sublattice array of neutral species (G(IONIC_LIQ,S;0),
  // L(IONIC_LIQ,B1,B2;0)) belongs to the anion sublattice. It is kept as written (one
  // sublattice); it is checked against sublattice 2 here.
  bool il_neutral =
      ph.options.find('Y') != std::string::npos && ph.constituents.size() == 2 && pp.p.constituents.size() == 1;
  if (il_neutral) {
    const auto& sub = ph.constituents[1];
    for (const auto& sp : pp.p.constituents[0])
      if (sp != "*" && std::find(sub.begin(), sub.end(), sp) == sub.end())
        return ignored("not all of its species are on the anion sublattice of " + ph.name);
    return true;
  }
  pad_vacancy_sublattices(pp, ph);
  if (pp.p.constituents.size() != ph.constituents.size())
    return ignored(std::to_string(pp.p.constituents.size()) + " sublattices but phase " + ph.name + " has " +
                   std::to_string(ph.constituents.size()));
  for (size_t s = 0; s < pp.p.constituents.size(); ++s)
    for (const auto& sp : pp.p.constituents[s]) {
      const auto& sub = ph.constituents[s];
      if (sp != "*" && std::find(sub.begin(), sub.end(), sp) == sub.end())
        return ignored(sp + " is not a constituent of sublattice " + std::to_string(s + 1) + " of " + ph.name);
    }
  return true;
}

// The same parameter given twice (COST507.tdb has 6): both are kept, in file order, and reported; whether they add
// up (pycalphad sums every matching row) or the later one wins (Thermo-Calc) is the model's decision.
void Reader::report_repeated_parameters(const std::vector<PendingParameter*>& kept) {
  std::map<std::string, const Parameter*> seen;
  for (const PendingParameter* pp : kept) {
    std::string key = pp->p.type + "|" + pp->p.phase + "&" + pp->p.phase_qualifier + "|" + std::to_string(pp->p.order);
    for (const auto& sub : pp->p.constituents) {
      key += ":";
      for (const auto& sp : sub) key += sp + ",";
    }
    auto [it, fresh] = seen.emplace(key, &pp->p);
    if (fresh) continue;
    const std::string first =
        (it->second->file == pp->p.file ? "" : it->second->file + " ") + "line " + std::to_string(it->second->line);
    warn_at(pp->p.file, pp->p.line, "PARAMETER " + pp->text + " given again (first at " + first + "); both are kept",
            pp->p.phase);
  }
}

void Reader::apply_rejections() {
  for (const auto& [name, line] : rejected_) {
    PhaseDef* ph = phase_named(name);
    if (ph)
      ph->rejected_by_default = true;
    else if (!dropped_phases_.count(name))
      warn(line, "DEFAULT_COMMAND REJECT_PHASE: phase " + name + " is not defined; ignored");
  }
}

}  // namespace io

using io::base_name;

std::shared_ptr<Database> Database::from_string(const std::string& text, const std::string& file_name) {
  io::Reader r(text, file_name);
  return r.read();
}

std::shared_ptr<Database> Database::from_strings(const std::string& thermo_text, const std::string& thermo_name,
                                                 const std::string& mobility_text, const std::string& mobility_name) {
  io::Reader r(thermo_text, thermo_name);
  r.read_beside(mobility_text, mobility_name);
  return r.read();
}

// The whole file as text, bounded in size.
static std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw TdbError(base_name(path), 0, std::string("cannot open the file: ") + std::strerror(errno), ErrorCode::File);
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size < 0) throw TdbError(base_name(path), 0, "cannot read the file", ErrorCode::File);
  if (size > (std::streamoff(512) << 20))
    throw TdbError(base_name(path), 0, "file larger than 512 MB", ErrorCode::TdbLimit);
  in.seekg(0, std::ios::beg);
  std::string text(static_cast<size_t>(size), '\0');
  if (size > 0 && !in.read(&text[0], size)) throw TdbError(base_name(path), 0, "cannot read the file", ErrorCode::File);
  return text;
}

std::shared_ptr<Database> Database::from_file(const std::string& path) { return from_string(file_text(path), path); }

std::shared_ptr<Database> Database::from_files(const std::string& thermo_path, const std::string& mobility_path) {
  const std::string thermo = file_text(thermo_path);
  return from_strings(thermo, thermo_path, file_text(mobility_path), mobility_path);
}

}  // namespace pd
