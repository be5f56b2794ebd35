// The compiled form of one phase's Gibbs energy (the PhaseModel the builder returns): flat term lists
// (poly.hpp) over the site-fraction variables, with the nonlinear parts (magnetic, Einstein, two-state,
// 1/N_f, volume) applied on top with second-order jets. Internal to models/: phase_model.cpp fills the
// term lists (the builder), compiled_model.cpp evaluates them at a point, point_tables.cpp over a grid's linear
// tables (PointSet), both with the magnetic functions of magnetic.hpp. Failure modes: evaluation never throws
// for finite inputs (a NaN energy propagates to the solver, which reports it); compile_points throws
// pd::Cancelled when the call is cancelled.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "models/phase_model.hpp"
#include "models/poly.hpp"

namespace pd::models {

inline constexpr double R = kGasConstant;
inline constexpr double kP0 = 101325.0;  // §6.2 reference pressure of the volume term

class CompiledModel final : public PhaseModel {
 public:
  struct StateImpl : State {
    std::vector<TPJet> c;
  };

  std::string name_, file_;
  std::vector<std::string> elements_;
  std::vector<SiteVariable> vars_;
  std::vector<LinearConstraint> constraints_;
  int nsub_ = 0;
  bool charged_ = false, ionic_ = false, gas_ = false, liquid_ = false;
  std::vector<ExprId> exprs_;  // coef index 2 + k
  const Database* db_ = nullptr;
  std::shared_ptr<const Database> keep_;  // not owned when built from a reference
  Poly G_, ID_, NF_, TC_, BM_, NT_, THETA_, GD_, V0_, VA_, VK_;
  std::vector<Poly> MA_;
  std::optional<MagneticType> mag_;

  const std::string& name() const override { return name_; }
  const std::vector<std::string>& elements() const override { return elements_; }
  const std::vector<SiteVariable>& variables() const override { return vars_; }
  const std::vector<LinearConstraint>& constraints() const override { return constraints_; }
  int num_sublattices() const override { return nsub_; }
  bool is_charged() const override { return charged_; }
  bool is_ionic_liquid() const override { return ionic_; }
  bool is_gas() const override { return gas_; }
  bool is_liquid() const override { return liquid_; }

  std::unique_ptr<State> prepare(double T, double P) const override;

  struct Parts {
    Jet GM, Sf, ID, Nf, magGM, Vnm, vol;
    bool hasVol = false;
    double Tstar = 0, beta = 0;
  };

  // The jets of one point: G_M with its parts (want_parts: also the ideal and magnetic parts per atom).
  void compute(const State& state, const double* y, int ord, Parts& o, bool want_parts) const;
  void energy(const State& state, const double* y, int derivative_order, EnergyResult& out) const override;
  using PhaseModel::energies;
  void energies(const State& state, const double* Y, size_t npoints, double* GM) const override;
  // G_f (without the volume term) and N_f of one point as compute(..., ord 0) gives them, by the same scalar
  // operations without jets (G_M = G_f / N_f); only for a model without Einstein, two-state and volume terms
  // (value_only_path()).
  double gf_value(const StateImpl& st, const double* y, double& Nf) const;
  bool value_only_path() const { return THETA_.empty() && GD_.empty() && V0_.empty(); }

  // One Poly (or a sum of Polys) tabulated over a PointSet: at point k the value is
  // sum_j B_kj * c[cols[j]].v (the parameter columns the terms use). B is stored by blocks of kBlock
  // points, column after column within a block (the last block padded with zeros): the kBlock sums of a
  // block are independent and vectorise, while each is still added up in column order, as a row-by-row
  // dot product would (one chain of dependent additions per point was the cost of the row layout).
  // Value is the stored type of B: double, or float for S of a grid compiled in single precision (the table that
  // holds most of a large grid's memory: a steel's sigma phase, 77,000 points times 70 columns); the sums are taken
  // in double either way.
  template <class Value>
  struct BlockTable {
    static constexpr size_t kBlock = 16;
    std::vector<int> cols;
    std::vector<Value> B;  // [block][column][point within the block]
    bool empty() const { return cols.empty(); }
    // out[i] = value at point block * kBlock + i, for every i < kBlock (0 on the padding)
    void block_values(size_t block, const double* cv, double* out) const;
    void gather(const std::vector<TPJet>& c, std::vector<double>& cv) const {
      cv.resize(cols.size());
      for (size_t j = 0; j < cols.size(); ++j) cv[j] = c[cols[j]].v;
    }
  };
  using LinearTable = BlockTable<double>;
  // S with the columns whose parameter values are equal at a (T,P) added together and the columns whose
  // value is 0 left out. Databases that write out every B/F symmetry copy of an ordered phase's parameter
  // (alnifcc4sl: 64 columns, 20 distinct values) give the same value to many columns at every T, so one
  // grouping serves a whole calculation; group_of is the grouping it was built for (per column of S, its
  // group, -1 for a zero value).
  template <class Value>
  struct MergedColumns {
    std::vector<int> group_of;
    BlockTable<Value> table;  // table.cols[g] = the first column of S in group g
  };
  // What energy_change_bound needs of a table, from its first call: the columns of S that are >= 0 at every
  // point (the end members' products of site fractions), the largest sum of those per atom over the points, and
  // for every other column the largest |B_kj| per atom; per_atom_of the NF coefficients it was computed with.
  // With a magnetic term: the largest |ln(1 + beta)| per atom (times the number of ordering temperatures of
  // Xiong's model), for the T_C, BMAGN and T_N coefficients magnetic_of.
  struct ChangeBoundTerms {
    std::vector<char> nonnegative;
    std::vector<double> column_max;
    double nonnegative_sum_max = 0;
    std::vector<double> per_atom_of;
    double magnetic_log_max = 0;
    std::vector<double> magnetic_of;
  };
  // The sums a grid's tables hold (compile_points).
  struct Terms {
    const Poly *G, *ID, *NF, *TC, *BM, *NT;
    bool with_magnetic, tabulate_NT;
  };
  // A grid's tables, S in Value: with float, each B_kj within 2^-24 of itself relative (energy_rounding_bound bounds
  // the energies' error from it).
  template <class Value>
  struct PointSetImpl final : PointSet {
    size_t np = 0;
    BlockTable<Value> S;         // reference + excess + ideal mixing, per formula unit
    LinearTable NF, TC, BM, NT;  // atoms per formula unit, and the magnetic sums (nonlinear in G: kept exact)
    mutable std::once_flag bound_once;
    mutable ChangeBoundTerms bound_terms;
    // energy_rounding_bound's largest |B_kj| / N_k per column of S, from its first call; rounding_of the NF
    // coefficients it was computed with
    mutable std::once_flag rounding_once;
    mutable std::vector<double> rounding_column_max, rounding_of;
    // the grouping last used (shared by the solver threads evaluating this grid)
    mutable std::mutex merged_mutex;
    mutable std::shared_ptr<const MergedColumns<Value>> merged;
  };

  std::unique_ptr<const PointSet> compile_points(const double* Y, size_t npoints, bool single_precision) const override;
  // Same value as compute(..., ord 0) at each point of the set (magnetic term of §3.2-§3.9 as scalars).
  void energies(const State& state, const PointSet& points, double* GM) const override;
  // |sum_j B_kj (c_j(to) - c_j(from))| / N_k over the table's points, with the columns >= 0 bounded together
  // (their values' largest change times their largest sum) and the others one by one; a magnetic term whose T_C,
  // BMAGN and T_N do not depend on T changes by at most R |ln(1 + beta)| |dT| per ordering temperature, as
  // d(tau f(tau))/dtau lies in [0, 1] for the f of Inden-Hillert-Jarl and of Xiong et al. (its entropy between
  // -R ln(1 + beta) and 0); infinity when they depend on T.
  double energy_change_bound(const State& from, const State& to, const PointSet& points) const override;
  // S's values stored in float: a point's sum_j fl(B_kj) c_j differs from sum_j B_kj c_j by at most
  // u sum_j |B_kj| |c_j| (u = 2^-24), and a merged column's sum rounded once more adds as much again; per atom,
  // 2u sum_j max_k (|B_kj| / N_k) |c_j| bounds them all (with a margin for the sums' own rounding in double).
  // 0 for a table in double.
  double energy_rounding_bound(const State& state, const PointSet& points) const override;
  void moles(const double* y, int derivative_order, MolesResult& out) const override;
  PhaseProperties properties(const State& state, const double* y) const override;
  bool magnetic() const override { return mag_ && !TC_.empty(); }
  double magnetic_ordering_temperature(const State& state, const double* y) const override;
  double magnetic_ordering_temperature_max(const State& state, const PointSet& points) const override;
  // The ordering temperature of the sums T_C, beta and T_N at one point (magnetic_ordering_temperature).
  double ordering_temperature_of(double tc, double bm, double nt) const;

 private:
  // the methods on PointSets above for a PointSetImpl<float> or <double> (point_tables.cpp)
  template <class Q>
  void table_energies(const State& state, const Q& q, double* GM) const;
  template <class Q>
  double table_change_bound(const State& from, const State& to, const Q& q) const;
  template <class Q>
  double table_rounding_bound(const State& state, const Q& q) const;
  template <class Q>
  double table_ordering_temperature_max(const State& state, const Q& q) const;
};

}  // namespace pd::models
