// TDB expressions: parse (arithmetic with + - * / ** and unary minus, T, P, LN/LOG, EXP, SQRT, ABS,
// FUNCTION references with or without '#', R/R# = gas constant), compile to a compact postfix
// program, and evaluate to a TPJet (value with exact first and second T/P derivatives).
// Internal to io/; the rest of the core only sees ExprId and Database::evaluate.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "io/database.hpp"

namespace pd::io {

// ---------------------------------------------------------------------------------------------
// Syntax tree (kept until every FUNCTION of the file is known, then compiled).
struct Node {
  enum Kind : uint8_t { Num, VarT, VarP, Ref, Neg, Add, Sub, Mul, Div, Pow, Ln, Exp, Sqrt, Abs };
  Kind kind = Num;
  double num = 0;
  std::string name;  // Ref: the referenced FUNCTION name without '#'
  int a = -1, b = -1;
};

struct Ast {
  std::vector<Node> nodes;
  int root = -1;
  int line = 0;
  // Names referenced (without '#'), in order of appearance, duplicates removed.
  std::vector<std::string> refs() const;
};

// Parses an expression starting at text[pos]; stops (without consuming) at ';' or '!' or the end,
// at nesting depth 0. `line_of(pos)` maps a text position to a file line for error messages;
// errors throw TdbError(file, line, ...).
Ast parse_expression(const std::string& text, size_t& pos, const std::string& file,
                     const std::function<int(size_t)>& line_of);

// ---------------------------------------------------------------------------------------------
// Compiled form.
enum class Op : uint8_t {
  PushC,      // push constant c
  PushT,      // push T
  PushP,      // push P
  PushTPow,   // push T**c
  PushF,      // push FUNCTION arg
  PushUndef,  // reference to an undefined FUNCTION (only in unused places): throws when evaluated
  Add,
  Sub,
  Mul,
  Div,
  Neg,
  AddC,  // top += c
  MulC,  // top *= c
  PowC,  // top = top**c
  Pow,   // a**b, b not constant
  Ln,
  Exp,
  Sqrt,
  Abs,
};

struct Instr {
  Op op;
  int32_t arg = 0;
  double c = 0;
};

struct Range {
  double low = 0, high = 0;
  uint32_t begin = 0, end = 0;  // instructions [begin, end) of the code pool
  uint32_t depth = 0;           // operand-stack depth needed
};

struct CompiledExpr {
  uint32_t range_begin = 0, range_count = 0;
  int32_t func = -1;  // >= 0: this ExprId is FUNCTION `func` (evaluation goes through its cache/override)
  int line = 0;
};

struct CodeStore {
  std::vector<Instr> code;
  std::vector<Range> ranges;
  std::vector<CompiledExpr> exprs;
  std::vector<std::string> undefined;  // names for PushUndef
};

// Compiles one range's tree into `store.code`. `resolve(name)` returns the FUNCTION index of a
// name, -1 for "use the gas constant" (R without a FUNCTION R), or -2 for undefined.
Range compile_range(const Ast& ast, double low, double high, CodeStore& store,
                    const std::function<int(const std::string&)>& resolve);

// Jet algebra (exact first and second derivatives in T and P).
inline TPJet jet_const(double c) {
  TPJet j;
  j.v = c;
  return j;
}
// T or P itself: value v, derivative 1 with respect to that variable.
inline TPJet jet_t(double T) {
  TPJet j;
  j.v = T;
  j.t = 1;
  return j;
}
inline TPJet jet_p(double P) {
  TPJet j;
  j.v = P;
  j.p = 1;
  return j;
}
// a += b, a -= b, a *= c, a = -a, every derivative alike.
inline void jet_add_to(TPJet& a, const TPJet& b) {
  a.v += b.v;
  a.t += b.t;
  a.p += b.p;
  a.tt += b.tt;
  a.tp += b.tp;
  a.pp += b.pp;
}
inline void jet_subtract_from(TPJet& a, const TPJet& b) {
  a.v -= b.v;
  a.t -= b.t;
  a.p -= b.p;
  a.tt -= b.tt;
  a.tp -= b.tp;
  a.pp -= b.pp;
}
inline void jet_scale(TPJet& a, double c) {
  a.v *= c;
  a.t *= c;
  a.p *= c;
  a.tt *= c;
  a.tp *= c;
  a.pp *= c;
}
inline void jet_negate(TPJet& a) {
  a.v = -a.v;
  a.t = -a.t;
  a.p = -a.p;
  a.tt = -a.tt;
  a.tp = -a.tp;
  a.pp = -a.pp;
}
TPJet jet_mul(const TPJet& a, const TPJet& b);
TPJet jet_div(const TPJet& a, const TPJet& b);
// f(x) with f0 = f(x.v), f1 = f'(x.v), f2 = f''(x.v): chain rule to second order.
TPJet jet_chain(const TPJet& x, double f0, double f1, double f2);
TPJet jet_powc(const TPJet& x, double c);
TPJet jet_pow(const TPJet& a, const TPJet& b);

}  // namespace pd::io
