// Database members that do not depend on the reader, and the evaluation of compiled TDB expressions
// (values with exact first and second derivatives in T and P).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "io/tdb_reader_internal.hpp"

namespace pd {

namespace io {

std::string upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}
std::string base_name(const std::string& path) {
  size_t k = path.find_last_of("/\\");
  return k == std::string::npos ? path : path.substr(k + 1);
}
}  // namespace io

using io::base_name;
using io::upper;

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
      case Op::PushC:
        st[sp++] = jet_const(in.c);
        break;
      case Op::PushT:
        st[sp++] = jet_t(T);
        break;
      case Op::PushP:
        st[sp++] = jet_p(P);
        break;
      case Op::PushTPow:
        st[sp++] = jet_powc(jet_t(T), in.c);
        break;
      case Op::PushF: {
        TPJet v = function_value(in.arg, ctx);
        ctx.stack_[sp++] = v;
        break;
      }
      case Op::PushUndef:
        throw CoreError(ErrorCode::Model,
                        "undefined FUNCTION " + store_->undefined[in.arg] + " in " + base_name(file_name_));
      case Op::Add:
        jet_add_to(st[sp - 2], st[sp - 1]);
        --sp;
        break;
      case Op::Sub:
        jet_subtract_from(st[sp - 2], st[sp - 1]);
        --sp;
        break;
      case Op::Mul:
        st[sp - 2] = jet_mul(st[sp - 2], st[sp - 1]);
        --sp;
        break;
      case Op::Div:
        st[sp - 2] = jet_div(st[sp - 2], st[sp - 1]);
        --sp;
        break;
      case Op::Pow:
        st[sp - 2] = jet_pow(st[sp - 2], st[sp - 1]);
        --sp;
        break;
      case Op::Neg:
        jet_negate(st[sp - 1]);
        break;
      case Op::AddC:
        st[sp - 1].v += in.c;
        break;
      case Op::MulC:
        jet_scale(st[sp - 1], in.c);
        break;
      case Op::PowC:
        st[sp - 1] = jet_powc(st[sp - 1], in.c);
        break;
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

}  // namespace io
}  // namespace pd
