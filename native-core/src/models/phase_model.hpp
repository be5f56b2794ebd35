// A phase's Gibbs energy as a function of temperature, pressure and site fractions: what the models
// (models/) give the solver (solver/) and the property evaluator. This header is the contract
// between the two; keep it small and stable.
//
// Variables of a phase: z = (T, P, y_0 .. y_{m-1}); the y are the site fractions of the active
// constituents (§1.1 of ../shared/design/calphad-formulas.md), sublattice after sublattice, in the
// order of variables(). Derivative arrays are laid out over z (index 0 = T, 1 = P, 2 + k = y_k);
// Hessians are dense, row-major, n x n with n = m + 2.
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "io/database.hpp"

namespace pd {

// One variable of a phase: the site fraction of `species` on sublattice `sublattice`.
struct SiteVariable {
  int sublattice = 0;
  std::string species;
};

// A linear internal constraint sum_k coeff[k] * y_k = rhs (sublattice sums, electroneutrality (7.5)).
struct LinearConstraint {
  std::vector<double> coeff;  // length m
  double rhs = 0;
  std::string kind;  // "site_sum" or "charge"
};

// Energy of one phase at one point. Sizes: gradients n, Hessians n*n (n = m + 2).
struct EnergyResult {
  double GM = 0;  // J/mol of atoms (eq. 0.1), including every contribution
  std::vector<double> dGM, d2GM;
  double Gf = 0;  // J/mol of formula units = N_f * GM (what the solver minimises)
  std::vector<double> dGf, d2Gf;
};

// Moles of each system element per formula unit, M_A(y) (1.4), and N_f = sum_A M_A.
struct MolesResult {
  std::vector<double> M;    // [C]
  std::vector<double> dM;   // [C * m]   dM_A/dy_k at row A
  std::vector<double> d2M;  // [C * m * m] non-zero only where site ratios vary (ionic liquid)
  double Nf = 0;
};

// Physical properties of a phase at one point (reported quantities, §3, §5.4, §6).
struct PhaseProperties {
  double TC = 0;           // Curie/Neel temperature T* after the afm rule (K)
  double BMAGN = 0;        // beta per formula unit after the afm rule
  double VM = 0;           // molar volume per mole of atoms (6.3), m^3/mol
  double GM_NO_IDMIX = 0;  // GM without the ideal configurational term
  // Added by the models layer: beta / N_f (Thermo-Calc reports BM per mole of atoms, §5.4), N_f.
  double BMAGN_per_atom = 0;
  double Nf = 0;
};

class PhaseModel {
 public:
  virtual ~PhaseModel() = default;

  // Builds the model of `phase` for a calculation whose components are `components` (elements,
  // "VA" allowed). Returns nullptr when the phase cannot form from these components (§1.1).
  // Throws pd::CoreError (ErrorCode::Model) naming phase and file for a refused or inconsistent phase.
  // The model refers to `db` (parameter expressions are evaluated by it in prepare()): keep the
  // Database alive as long as the model.
  static std::shared_ptr<const PhaseModel> build(const Database& db, const std::string& phase,
                                                 const std::vector<std::string>& components);

  virtual const std::string& name() const = 0;
  // System elements in the order used by moles(): the components minus VA, sorted.
  virtual const std::vector<std::string>& elements() const = 0;
  virtual const std::vector<SiteVariable>& variables() const = 0;
  virtual const std::vector<LinearConstraint>& constraints() const = 0;
  virtual int num_sublattices() const = 0;
  virtual bool is_charged() const = 0;       // has an electroneutrality constraint
  virtual bool is_ionic_liquid() const = 0;  // variable site ratios (§7)
  virtual bool is_gas() const = 0;
  virtual bool is_liquid() const = 0;

  // Parameters evaluated at (T, P); reused for every y at that state.
  class State {
   public:
    virtual ~State() = default;
    double T = 0, P = 0;
  };
  virtual std::unique_ptr<State> prepare(double T, double P) const = 0;

  // derivative_order: 0 = values only, 1 = + gradients, 2 = + Hessians.
  virtual void energy(const State& state, const double* y, int derivative_order, EnergyResult& out) const = 0;
  // GM only, for many points (rows of Y, m values each): the sampling hot path.
  virtual void energies(const State& state, const double* Y, size_t npoints, double* GM) const = 0;

  // A fixed set of points whose GM is needed at many (T, P) (the solver's sampled grid, §8.7). Every
  // CEF sum is linear in the (T,P)-dependent parameter values with y-only coefficients, so those
  // coefficients are computed once and GM(T,P) becomes a matrix-vector product plus the nonlinear
  // magnetic term per point. compile_points returns nullptr when the model has parts outside that
  // form (Einstein, two-state, volume) or the table would be too large; callers then use energies().
  class PointSet {
   public:
    virtual ~PointSet() = default;
  };
  // single_precision: the largest table in float (energy_rounding_bound says how far its energies may lie off).
  virtual std::unique_ptr<const PointSet> compile_points(const double* Y, size_t npoints, bool single_precision) const {
    (void)Y;
    (void)npoints;
    (void)single_precision;
    return nullptr;
  }
  // GM at every point of a PointSet made by this model's compile_points.
  virtual void energies(const State& state, const PointSet& points, double* GM) const {
    (void)state;
    (void)points;
    (void)GM;
  }
  // An upper bound over the points of a PointSet of |GM(to) - GM(from)|, J/mol of atoms, between two prepared
  // states: the solver keeps a phase far above the tangent hyperplane at the energies of an earlier temperature
  // while this bound says no point can have come within reach. Infinity when the model cannot bound it.
  virtual double energy_change_bound(const State& from, const State& to, const PointSet& points) const {
    (void)from;
    (void)to;
    (void)points;
    return std::numeric_limits<double>::infinity();
  }
  // An upper bound over the points of a PointSet of |GM from energies(state, points) - GM of the model at the point|,
  // J/mol of atoms: a table stored in a shorter type is not exact, and the solver checks the points that bound
  // puts within reach of a decision with the model itself (energies over their site fractions).
  virtual double energy_rounding_bound(const State& state, const PointSet& points) const {
    (void)state;
    (void)points;
    return 0;
  }
  virtual void moles(const double* y, int derivative_order, MolesResult& out) const = 0;
  virtual PhaseProperties properties(const State& state, const double* y) const = 0;
  // The model has a magnetic contribution (§3).
  virtual bool magnetic() const { return false; }
  // The magnetic ordering temperature at y, K, where the phase carries a magnetic moment there: T* after the
  // afm rule of the IHJ model (§3.2), the larger of T_C and T_N of Xiong's (§3.3); 0 without a moment
  // (beta = 0 gives no magnetic energy) or without a magnetic contribution. Value only, no derivatives.
  virtual double magnetic_ordering_temperature(const State& state, const double* y) const {
    (void)state;
    (void)y;
    return 0;
  }
  // The largest magnetic_ordering_temperature over the points of a PointSet made by this model's compile_points.
  virtual double magnetic_ordering_temperature_max(const State& state, const PointSet& points) const {
    (void)state;
    (void)points;
    return 0;
  }
};

}  // namespace pd

namespace pd {
// Additions of the models layer (not part of the original contract).
// Parameters of the database after the phase-option B/F symmetry expansion of §5.5 (generated orbit,
// arrangements already present skipped): what the models actually use. Count = its size.
std::vector<Parameter> expanded_parameters(const Database& db);
}  // namespace pd
