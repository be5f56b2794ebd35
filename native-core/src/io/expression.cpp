// TDB expression parser, compiler and jet algebra (see expression.hpp).
#include "io/expression.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace pd::io {

std::vector<std::string> Ast::refs() const {
  std::vector<std::string> out;
  for (const Node& n : nodes)
    if (n.kind == Node::Ref && std::find(out.begin(), out.end(), n.name) == out.end()) out.push_back(n.name);
  return out;
}

namespace {

// Nesting limit: keeps the recursive-descent parser far away from a stack overflow on hostile input.
constexpr int kMaxDepth = 200;

bool is_ident_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Parser {
 public:
  Parser(const std::string& text, size_t& pos, const std::string& file, const std::function<int(size_t)>& line_of)
      : s_(text), pos_(pos), file_(file), line_of_(line_of) {}

  Ast run() {
    ast_.line = line_of_(pos_);
    skip_ws();
    if (at_end_of_expr()) fail("empty expression (expected a formula before ';')");
    ast_.root = expr(0);
    skip_ws();
    if (!at_end_of_expr()) {
      if (peek() == ')') fail("unbalanced ')' in expression");
      fail(std::string("unexpected '") + peek() + "' in expression");
    }
    return std::move(ast_);
  }

 private:
  const std::string& s_;
  size_t& pos_;
  const std::string& file_;
  const std::function<int(size_t)>& line_of_;
  Ast ast_;

  [[noreturn]] void fail(const std::string& msg, ErrorCode code = ErrorCode::TdbSyntax) {
    throw TdbError(file_, line_of_(pos_ < s_.size() ? pos_ : s_.size() ? s_.size() - 1 : 0), msg, code);
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip_ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }
  bool at_end_of_expr() const { return pos_ >= s_.size() || s_[pos_] == ';' || s_[pos_] == '!'; }

  int add(Node n) {
    // Bound the tree size: folding and emitting recurse along the tree (a long sum is a deep tree).
    if (ast_.nodes.size() >= 4000) fail("expression too long (more than 4000 terms)", ErrorCode::TdbLimit);
    ast_.nodes.push_back(std::move(n));
    return static_cast<int>(ast_.nodes.size()) - 1;
  }
  int binary(Node::Kind k, int a, int b) {
    Node n;
    n.kind = k;
    n.a = a;
    n.b = b;
    return add(n);
  }

  int expr(int depth) {
    if (depth > kMaxDepth) fail("expression nested too deeply (more than 200 levels)", ErrorCode::TdbLimit);
    int left = term(depth);
    for (;;) {
      skip_ws();
      char c = peek();
      if (c != '+' && c != '-') return left;
      ++pos_;
      int right = term(depth);
      left = binary(c == '+' ? Node::Add : Node::Sub, left, right);
    }
  }

  int term(int depth) {
    int left = unary(depth);
    for (;;) {
      skip_ws();
      char c = peek();
      if (c == '*' && !(pos_ + 1 < s_.size() && s_[pos_ + 1] == '*')) {
        ++pos_;
        left = binary(Node::Mul, left, unary(depth));
      } else if (c == '/') {
        ++pos_;
        left = binary(Node::Div, left, unary(depth));
      } else {
        return left;
      }
    }
  }

  int unary(int depth) {
    if (depth > kMaxDepth) fail("expression nested too deeply (more than 200 levels)", ErrorCode::TdbLimit);
    skip_ws();
    char c = peek();
    if (c == '+') {
      ++pos_;
      return unary(depth + 1);
    }
    if (c == '-') {
      ++pos_;
      Node n;
      n.kind = Node::Neg;
      n.a = unary(depth + 1);
      return add(n);
    }
    return power(depth);
  }

  int power(int depth) {
    int base = primary(depth);
    skip_ws();
    if (peek() == '*' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '*') {
      pos_ += 2;
      return binary(Node::Pow, base, unary(depth + 1));  // right-associative; allows T**-1
    }
    if (peek() == '^') {
      ++pos_;
      return binary(Node::Pow, base, unary(depth + 1));
    }
    return base;
  }

  int primary(int depth) {
    skip_ws();
    char c = peek();
    if (is_digit(c) || (c == '.' && pos_ + 1 < s_.size() && is_digit(s_[pos_ + 1]))) return number();
    if (c == '(') {
      ++pos_;
      int inner = expr(depth + 1);
      skip_ws();
      if (peek() != ')') fail("missing ')' in expression");
      ++pos_;
      return inner;
    }
    if (is_ident_start(c)) {
      size_t start = pos_;
      while (pos_ < s_.size() && is_ident_char(s_[pos_])) ++pos_;
      if (pos_ - start > kMaxNameLength)
        fail("name '" + s_.substr(start, 24) + "...' in expression is " + std::to_string(pos_ - start) +
                 " characters long (at most " + std::to_string(kMaxNameLength) + ")",
             ErrorCode::TdbLimit);
      std::string name = s_.substr(start, pos_ - start);
      bool hash = false;
      if (peek() == '#') {
        ++pos_;
        hash = true;
      }
      for (char& ch : name)
        if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
      skip_ws();
      if (peek() == '(' && !hash) {
        Node::Kind k;
        if (name == "LN" || name == "LOG")
          k = Node::Ln;  // both natural logarithm in TDB files (§0 / SOURCES.md)
        else if (name == "EXP")
          k = Node::Exp;
        else if (name == "SQRT")
          k = Node::Sqrt;
        else if (name == "ABS")
          k = Node::Abs;
        else
          fail("unknown function '" + name + "(' in expression");
        ++pos_;
        int arg = expr(depth + 1);
        skip_ws();
        if (peek() != ')') fail("missing ')' after argument of " + name);
        ++pos_;
        Node n;
        n.kind = k;
        n.a = arg;
        return add(n);
      }
      Node n;
      if (!hash && name == "T")
        n.kind = Node::VarT;
      else if (!hash && name == "P")
        n.kind = Node::VarP;
      else {
        n.kind = Node::Ref;
        n.name = name;
      }
      return add(n);
    }
    if (at_end_of_expr()) fail("expression ends where an operand is expected");
    fail(std::string("unexpected '") + c + "' in expression");
  }

  int number() {
    size_t start = pos_;
    while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
    if (peek() == '.') {
      ++pos_;
      while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
    }
    char e = peek();
    if (e == 'E' || e == 'e' || e == 'D' || e == 'd') {
      size_t q = pos_ + 1;
      if (q < s_.size() && (s_[q] == '+' || s_[q] == '-')) ++q;
      if (q < s_.size() && is_digit(s_[q])) {
        pos_ = q;
        while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
      }
    }
    std::string tok = s_.substr(start, pos_ - start);
    for (char& ch : tok)
      if (ch == 'D' || ch == 'd') ch = 'E';
    Node n;
    n.kind = Node::Num;
    n.num = std::strtod(tok.c_str(), nullptr);
    return add(n);
  }
};

bool is_const(const Ast& ast, int i) { return ast.nodes[i].kind == Node::Num; }

// Constant folding (bottom-up) into a fresh tree; returns the new index.
int fold(const Ast& in, int i, Ast& out, int depth) {
  const Node& n = in.nodes[i];
  Node m = n;
  if (n.a >= 0) m.a = fold(in, n.a, out, depth + 1);
  if (n.b >= 0) m.b = fold(in, n.b, out, depth + 1);
  bool ca = m.a >= 0 && is_const(out, m.a);
  bool cb = m.b >= 0 && is_const(out, m.b);
  double x = ca ? out.nodes[m.a].num : 0, y = cb ? out.nodes[m.b].num : 0;
  auto constant = [&](double v) {
    Node c;
    c.kind = Node::Num;
    c.num = v;
    out.nodes.push_back(c);
    return static_cast<int>(out.nodes.size()) - 1;
  };
  switch (n.kind) {
    case Node::Neg:
      if (ca) return constant(-x);
      break;
    case Node::Add:
      if (ca && cb) return constant(x + y);
      break;
    case Node::Sub:
      if (ca && cb) return constant(x - y);
      break;
    case Node::Mul:
      if (ca && cb) return constant(x * y);
      break;
    case Node::Div:
      if (ca && cb) return constant(x / y);
      break;
    case Node::Pow:
      if (ca && cb) return constant(std::pow(x, y));
      break;
    case Node::Ln:
      if (ca) return constant(std::log(x));
      break;
    case Node::Exp:
      if (ca) return constant(std::exp(x));
      break;
    case Node::Sqrt:
      if (ca) return constant(std::sqrt(x));
      break;
    case Node::Abs:
      if (ca) return constant(std::fabs(x));
      break;
    default:
      break;
  }
  out.nodes.push_back(m);
  return static_cast<int>(out.nodes.size()) - 1;
}

struct Emitter {
  const Ast& ast;
  CodeStore& store;
  const std::function<int(const std::string&)>& resolve;
  int depth = 0, max_depth = 0;

  void push(Op op, double c = 0, int32_t arg = 0) {
    store.code.push_back(Instr{op, arg, c});
    if (op == Op::PushC || op == Op::PushT || op == Op::PushP || op == Op::PushTPow || op == Op::PushF ||
        op == Op::PushUndef) {
      ++depth;
      if (depth > max_depth) max_depth = depth;
    }
  }
  void pop1() { --depth; }

  void emit(int i) {
    const Node& n = ast.nodes[i];
    switch (n.kind) {
      case Node::Num:
        push(Op::PushC, n.num);
        return;
      case Node::VarT:
        push(Op::PushT);
        return;
      case Node::VarP:
        push(Op::PushP);
        return;
      case Node::Ref: {
        int f = resolve(n.name);
        if (f >= 0)
          push(Op::PushF, 0, f);
        else if (f == -1)
          push(Op::PushC, kGasConstant);  // R / R#: §10 gas constant
        else if (f == -3)
          push(Op::PushC, 0.0);  // undefined symbol: 0 (pycalphad; warned by the reader)
        else {
          store.undefined.push_back(n.name);
          push(Op::PushUndef, 0, static_cast<int32_t>(store.undefined.size() - 1));
        }
        return;
      }
      case Node::Neg:
        emit(n.a);
        push(Op::MulC, -1.0);
        return;
      case Node::Add:
      case Node::Sub:
        if (is_const(ast, n.b)) {
          emit(n.a);
          push(Op::AddC, n.kind == Node::Add ? ast.nodes[n.b].num : -ast.nodes[n.b].num);
          return;
        }
        if (n.kind == Node::Add && is_const(ast, n.a)) {
          emit(n.b);
          push(Op::AddC, ast.nodes[n.a].num);
          return;
        }
        emit(n.a);
        emit(n.b);
        push(n.kind == Node::Add ? Op::Add : Op::Sub);
        pop1();
        return;
      case Node::Mul:
        if (is_const(ast, n.a)) {
          emit(n.b);
          push(Op::MulC, ast.nodes[n.a].num);
          return;
        }
        if (is_const(ast, n.b)) {
          emit(n.a);
          push(Op::MulC, ast.nodes[n.b].num);
          return;
        }
        emit(n.a);
        emit(n.b);
        push(Op::Mul);
        pop1();
        return;
      case Node::Div:
        if (is_const(ast, n.b)) {
          emit(n.a);
          push(Op::MulC, 1.0 / ast.nodes[n.b].num);
          return;
        }
        emit(n.a);
        emit(n.b);
        push(Op::Div);
        pop1();
        return;
      case Node::Pow:
        if (is_const(ast, n.b)) {
          if (ast.nodes[n.a].kind == Node::VarT) {
            push(Op::PushTPow, ast.nodes[n.b].num);
            return;
          }
          emit(n.a);
          push(Op::PowC, ast.nodes[n.b].num);
          return;
        }
        emit(n.a);
        emit(n.b);
        push(Op::Pow);
        pop1();
        return;
      case Node::Ln:
        emit(n.a);
        push(Op::Ln);
        return;
      case Node::Exp:
        emit(n.a);
        push(Op::Exp);
        return;
      case Node::Sqrt:
        emit(n.a);
        push(Op::Sqrt);
        return;
      case Node::Abs:
        emit(n.a);
        push(Op::Abs);
        return;
    }
  }
};

}  // namespace

Ast parse_expression(const std::string& text, size_t& pos, const std::string& file,
                     const std::function<int(size_t)>& line_of) {
  Parser p(text, pos, file, line_of);
  return p.run();
}

Range compile_range(const Ast& ast, double low, double high, CodeStore& store,
                    const std::function<int(const std::string&)>& resolve) {
  Ast folded;
  folded.line = ast.line;
  folded.root = fold(ast, ast.root, folded, 0);
  Range r;
  r.low = low;
  r.high = high;
  r.begin = static_cast<uint32_t>(store.code.size());
  Emitter em{folded, store, resolve};
  em.emit(folded.root);
  r.end = static_cast<uint32_t>(store.code.size());
  r.depth = static_cast<uint32_t>(em.max_depth);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Jet algebra. For z = z(T, P): z_T, z_P, z_TT, z_TP, z_PP by the product/quotient/chain rules.

TPJet jet_mul(const TPJet& a, const TPJet& b) {
  TPJet r;
  r.v = a.v * b.v;
  r.t = a.t * b.v + a.v * b.t;
  r.p = a.p * b.v + a.v * b.p;
  r.tt = a.tt * b.v + 2 * a.t * b.t + a.v * b.tt;
  r.tp = a.tp * b.v + a.t * b.p + a.p * b.t + a.v * b.tp;
  r.pp = a.pp * b.v + 2 * a.p * b.p + a.v * b.pp;
  return r;
}

TPJet jet_chain(const TPJet& x, double f0, double f1, double f2) {
  TPJet r;
  r.v = f0;
  r.t = f1 * x.t;
  r.p = f1 * x.p;
  r.tt = f2 * x.t * x.t + f1 * x.tt;
  r.tp = f2 * x.t * x.p + f1 * x.tp;
  r.pp = f2 * x.p * x.p + f1 * x.pp;
  return r;
}

TPJet jet_div(const TPJet& a, const TPJet& b) {
  double inv = 1.0 / b.v;
  return jet_mul(a, jet_chain(b, inv, -inv * inv, 2 * inv * inv * inv));
}

TPJet jet_powc(const TPJet& x, double c) {
  // d/dx x^c = c x^(c-1), d2 = c (c-1) x^(c-2); integer exponents stay exact for x <= 0.
  double f0, f1, f2;
  double ci = std::nearbyint(c);
  if (ci == c && std::fabs(c) <= 64) {
    int n = static_cast<int>(ci);
    auto ipow = [](double b, int e) {
      bool neg = e < 0;
      unsigned k = static_cast<unsigned>(neg ? -e : e);
      double r = 1;
      while (k) {
        if (k & 1u) r *= b;
        b *= b;
        k >>= 1;
      }
      return neg ? 1.0 / r : r;
    };
    f0 = ipow(x.v, n);
    f1 = n == 0 ? 0 : n * ipow(x.v, n - 1);
    f2 = (n == 0 || n == 1) ? 0 : double(n) * (n - 1) * ipow(x.v, n - 2);
  } else {
    f0 = std::pow(x.v, c);
    f1 = c * std::pow(x.v, c - 1);
    f2 = c * (c - 1) * std::pow(x.v, c - 2);
  }
  return jet_chain(x, f0, f1, f2);
}

TPJet jet_pow(const TPJet& a, const TPJet& b) {
  // a**b = exp(b ln a) for a variable exponent.
  TPJet l = jet_chain(a, std::log(a.v), 1.0 / a.v, -1.0 / (a.v * a.v));
  TPJet m = jet_mul(b, l);
  double e = std::exp(m.v);
  return jet_chain(m, e, e, e);
}

}  // namespace pd::io
