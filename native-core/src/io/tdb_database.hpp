// The Database implementation produced by the TDB reader (internal to io/).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/database.hpp"
#include "io/expression.hpp"

namespace pd::io {

class TdbDatabase final : public Database {
 public:
  std::shared_ptr<Database> with_overrides(const std::map<std::string, double>& overrides) const override;
  std::unique_ptr<EvalContext> make_context(double T, double P) const override;
  TPJet evaluate(ExprId expr, EvalContext& ctx) const override;
  ExprId function_expr(const std::string& name) const override;
  std::vector<std::string> function_names() const override { return func_names_; }

  // Filled by the reader.
  friend class Reader;

 private:
  TPJet eval_piecewise(const CompiledExpr& e, EvalContext& ctx) const;
  TPJet run(const Range& r, EvalContext& ctx) const;
  TPJet function_value(int f, EvalContext& ctx) const;

  std::shared_ptr<const CodeStore> store_;
  std::vector<std::string> func_names_;
  std::map<std::string, int> func_index_;
  std::vector<ExprId> func_expr_;   // body of each FUNCTION (evaluated by function_value)
  std::vector<ExprId> alias_expr_;  // handle given out for each FUNCTION (goes through cache/override)
  std::vector<uint8_t> has_override_;
  std::vector<double> override_value_;
};

}  // namespace pd::io
