// TDB reader, pass 2: FUNCTION references. A FUNCTION that refers to itself, or uses a FUNCTION that could not be
// read or was dropped, is dropped with the PARAMETERs that use it; a reference to a name no FUNCTION defines is
// taken as 0 with a warning; the nesting of references is bounded (kMaxFunctionDepth, an error); then every
// expression is compiled. See tdb_reader.cpp for the whole reading.
#include <set>

#include "io/tdb_reader_internal.hpp"

namespace pd::io {

namespace {

constexpr int kGasConstantRef = -1;  // R / R#: the gas constant (§10)
constexpr int kUndefinedRef = -3;    // a name no FUNCTION defines: the value 0 (report_undefined_references)

}  // namespace

void Reader::resolve_and_compile(std::vector<PendingParameter*> kept) {
  kept = drop_unusable_functions(kept);
  TdbDatabase& db = *db_;
  db.func_names_.clear();
  db.func_index_.clear();
  for (size_t f = 0; f < functions_.size(); ++f) {
    db.func_names_.push_back(functions_[f].name);
    db.func_index_[functions_[f].name] = static_cast<int>(f);
  }
  const FunctionRefs refs = function_refs();
  check_function_depth(refs);
  report_undefined_references(refs, kept);
  compile(kept);
}

int Reader::resolve_ref(const std::string& name) const {
  auto it = db_->func_index_.find(name);
  if (it != db_->func_index_.end()) return it->second;
  return name == "R" ? kGasConstantRef : kUndefinedRef;
}

Reader::FunctionRefs Reader::function_refs() const {
  FunctionRefs refs;
  refs.uses.resize(functions_.size());
  refs.undefined.resize(functions_.size());
  for (size_t f = 0; f < functions_.size(); ++f)
    for (const auto& r : functions_[f].ranges)
      for (const auto& name : r.ast.refs()) {
        int k = resolve_ref(name);
        if (k >= 0)
          refs.uses[f].push_back(k);
        else if (k == kUndefinedRef)
          refs.undefined[f].push_back(name);
      }
  return refs;
}

// Drops the FUNCTIONs that have no value: those on a cycle of references, those that use a FUNCTION that could not be
// read, and (transitively) those that use a dropped one; then the PARAMETERs that use any of them. Returns the
// PARAMETERs kept; functions_ keeps the FUNCTIONs kept.
std::vector<PendingParameter*> Reader::drop_unusable_functions(const std::vector<PendingParameter*>& kept) {
  const size_t nf = functions_.size();
  std::vector<std::vector<int>> uses(nf), used_by(nf);
  std::vector<std::string> why(nf);  // non-empty: the FUNCTION is dropped, for this reason
  for (size_t f = 0; f < nf; ++f)
    for (const auto& r : functions_[f].ranges)
      for (const auto& name : r.ast.refs()) {
        auto it = function_pos_.find(name);
        if (it != function_pos_.end()) {
          uses[f].push_back(static_cast<int>(it->second));
          used_by[it->second].push_back(static_cast<int>(f));
        } else if (dropped_functions_.count(name) && why[f].empty()) {
          why[f] = "FUNCTION " + functions_[f].name + " uses FUNCTION " + name + ", which could not be read (line " +
                   std::to_string(dropped_functions_[name]) + ")";
        }
      }
  // Cycles, by an iterative depth-first search (a chain of thousands of FUNCTIONs must not overflow the stack): the
  // FUNCTIONs on the search path between the two ends of an edge back into the path form a cycle.
  std::vector<uint8_t> color(nf, 0);
  std::vector<size_t> path_pos(nf, 0);
  for (size_t s = 0; s < nf; ++s) {
    if (color[s]) continue;
    std::vector<std::pair<int, size_t>> path{{static_cast<int>(s), 0}};
    color[s] = 1;
    while (!path.empty()) {
      auto [u, i] = path.back();
      if (i == uses[u].size()) {
        color[u] = 2;
        path.pop_back();
        continue;
      }
      ++path.back().second;
      const int v = uses[u][i];
      if (color[v] == 0) {
        color[v] = 1;
        path_pos[v] = path.size();
        path.push_back({v, 0});
      } else if (color[v] == 1) {
        for (size_t k = path_pos[v]; k < path.size(); ++k) {
          const int w = path[k].first, next = k + 1 < path.size() ? path[k + 1].first : v;
          if (why[w].empty())
            why[w] = "FUNCTION " + functions_[w].name + " refers to itself" +
                     (next == w ? std::string() : " (through FUNCTION " + functions_[next].name + ")");
        }
      }
    }
  }
  // What uses a dropped FUNCTION is dropped too.
  std::vector<int> todo;
  for (size_t f = 0; f < nf; ++f)
    if (!why[f].empty()) todo.push_back(static_cast<int>(f));
  while (!todo.empty()) {
    int f = todo.back();
    todo.pop_back();
    for (int g : used_by[f])
      if (why[g].empty()) {
        why[g] = "FUNCTION " + functions_[g].name + " uses FUNCTION " + functions_[f].name + ", which is dropped";
        todo.push_back(g);
      }
  }
  std::set<std::string> dropped;
  for (const auto& [name, line] : dropped_functions_) dropped.insert(name);
  for (size_t f = 0; f < nf; ++f)
    if (!why[f].empty()) {
      drop(TdbError(functions_[f].file, functions_[f].line, why[f]), "dropped");
      dropped.insert(functions_[f].name);
    }
  std::vector<PendingParameter*> usable;
  for (PendingParameter* pp : kept) {
    std::string bad;
    for (const auto& r : pp->ranges)
      for (const auto& name : r.ast.refs())
        if (bad.empty() && dropped.count(name)) bad = name;
    if (bad.empty())
      usable.push_back(pp);
    else
      drop(TdbError(pp->p.file, pp->p.line, "PARAMETER " + pp->text + " uses FUNCTION " + bad + ", which is dropped"),
           "ignored", pp->p.phase);
  }
  if (dropped.size() > dropped_functions_.size()) {
    std::vector<PendingFunction> rest;
    for (size_t f = 0; f < nf; ++f)
      if (why[f].empty()) rest.push_back(std::move(functions_[f]));
    functions_ = std::move(rest);
    function_pos_.clear();
    for (size_t f = 0; f < functions_.size(); ++f) function_pos_[functions_[f].name] = f;
  }
  return usable;
}

// Evaluation follows FUNCTION references recursively, so their nesting is bounded (kMaxFunctionDepth): the depth of
// every FUNCTION by an iterative depth-first search (the references form no cycle any more).
void Reader::check_function_depth(const FunctionRefs& refs) {
  const size_t nf = functions_.size();
  std::vector<uint8_t> done(nf, 0);
  std::vector<int> depth(nf, 1), next(nf, -1);  // levels of FUNCTION references, counting itself
  for (size_t s = 0; s < nf; ++s) {
    if (done[s]) continue;
    std::vector<std::pair<int, size_t>> stack{{static_cast<int>(s), 0}};
    done[s] = 1;
    while (!stack.empty()) {
      auto& [u, i] = stack.back();
      if (i < refs.uses[u].size()) {
        int v = refs.uses[u][i++];
        if (!done[v]) {
          done[v] = 1;
          stack.push_back({v, 0});
        }
        continue;
      }
      for (int v : refs.uses[u])
        if (depth[v] + 1 > depth[u]) {
          depth[u] = depth[v] + 1;
          next[u] = v;
        }
      if (depth[u] > kMaxFunctionDepth) {
        std::string chain = functions_[u].name;
        int k = next[u];
        for (int shown = 0; k >= 0 && shown < 3; ++shown, k = next[k]) chain += " -> " + functions_[k].name;
        if (k >= 0) chain += " -> ...";
        throw TdbError(functions_[u].file, functions_[u].line,
                       "FUNCTION " + functions_[u].name + " nests FUNCTION references " + std::to_string(depth[u]) +
                           " levels deep (" + chain + "; at most " + std::to_string(kMaxFunctionDepth) + " levels)",
                       ErrorCode::TdbLimit);
      }
      stack.pop_back();
    }
  }
}

// Undefined references. Real files have them in used places (COST507.tdb: RTLNP in every GAS parameter, its
// FUNCTION commented out; Cr-Fe-Ni_shallow_bcc.tdb: ZERO#) and pycalphad, whose values the validation cases hold,
// evaluates an undefined symbol as 0. We do the same so that these files load, and report every such reference as a
// warning naming the symbol and line (once per file: a mobility file read beside is told of its own).
void Reader::report_undefined_references(const FunctionRefs& refs, const std::vector<PendingParameter*>& kept) {
  const size_t nf = functions_.size();
  std::vector<uint8_t> used(nf, 0);
  std::vector<int> todo;
  std::set<std::string> reported;
  for (const PendingParameter* pp : kept)
    for (const auto& r : pp->ranges)
      for (const auto& name : r.ast.refs()) {
        int k = resolve_ref(name);
        if (k == kUndefinedRef && reported.insert(pp->p.file + ":" + name).second)
          warn_at(pp->p.file, pp->p.line,
                  "PARAMETER " + pp->text + " uses FUNCTION " + name + ", which is not defined; taken as 0",
                  pp->p.phase);
        if (k >= 0 && !used[k]) {
          used[k] = 1;
          todo.push_back(k);
        }
      }
  while (!todo.empty()) {
    int f = todo.back();
    todo.pop_back();
    for (const auto& name : refs.undefined[f])
      if (reported.insert(functions_[f].file + ":" + name).second)
        warn_at(functions_[f].file, functions_[f].line,
                "FUNCTION " + functions_[f].name + " uses FUNCTION " + name + ", which is not defined; taken as 0");
    for (int k : refs.uses[f])
      if (!used[k]) {
        used[k] = 1;
        todo.push_back(k);
      }
  }
  for (size_t f = 0; f < nf; ++f)
    if (!used[f] && !refs.undefined[f].empty())
      warn_at(functions_[f].file, functions_[f].line,
              "FUNCTION " + functions_[f].name + " uses undefined FUNCTION " + refs.undefined[f][0] +
                  " (not used by any parameter); taken as 0");
}

void Reader::compile(const std::vector<PendingParameter*>& kept) {
  TdbDatabase& db = *db_;
  const size_t nf = functions_.size();
  auto store = std::make_shared<CodeStore>();
  auto resolve = [&](const std::string& name) { return resolve_ref(name); };
  auto compile_ranges = [&](const std::vector<RangeAst>& ranges, int line) {
    CompiledExpr e;
    e.range_begin = static_cast<uint32_t>(store->ranges.size());
    e.range_count = static_cast<uint32_t>(ranges.size());
    e.line = line;
    for (const auto& r : ranges) store->ranges.push_back(compile_range(r.ast, r.low, r.high, *store, resolve));
    store->exprs.push_back(e);
    return static_cast<ExprId>(store->exprs.size() - 1);
  };
  // func_expr_ holds each FUNCTION's own body (used by function_value); function_expr() hands out an alias whose
  // evaluation goes through the per-context cache and the overrides.
  db.alias_expr_.assign(nf, kNoExpr);
  db.func_expr_.clear();
  for (size_t f = 0; f < nf; ++f) {
    db.func_expr_.push_back(compile_ranges(functions_[f].ranges, functions_[f].line));
    CompiledExpr alias;
    alias.func = static_cast<int32_t>(f);
    alias.line = functions_[f].line;
    store->exprs.push_back(alias);
    db.alias_expr_[f] = static_cast<ExprId>(store->exprs.size() - 1);
  }
  for (PendingParameter* pp : kept) {
    pp->p.expr = compile_ranges(pp->ranges, pp->p.line);
    db.parameters_.push_back(pp->p);
  }
  db.has_override_.assign(nf, 0);
  db.override_value_.assign(nf, 0.0);
  db.store_ = store;
}

}  // namespace pd::io
