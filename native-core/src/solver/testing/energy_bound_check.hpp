// TEST-ONLY: PhaseModel::energy_change_bound checked on the sampled grid of a phase of a real database.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace pd::solver::testing {

struct EnergyBoundCheck {
  size_t points = 0;
  bool magnetic = false;
  double largest_change = 0;                                // J/mol of atoms, over the grid's points
  double bound = std::numeric_limits<double>::quiet_NaN();  // NaN: the phase has no table
};

// A warm-started sequence of equilibria (a line of temperatures at fixed mole fractions) on phases of a real
// database: per point the stable phases with their amounts, G and μ, and how many phase grids the solver kept at
// energies of an earlier temperature during the sequence.
struct WarmSequence {
  struct Point {
    bool converged = false;
    std::vector<std::string> phases;
    std::vector<double> amounts, mu;
    double GM = 0;
  };
  std::vector<Point> points;
  uint64_t stale_grids = 0;
  uint64_t spared_scans = 0;  // phase re-scans left out or kept to the points near the hyperplane
  // points those re-scans left out within reach of the hyperplane (counted under PHASEDESK_SOLVER_CHECK_SCANS)
  uint64_t spared_scan_violations = 0;
  uint64_t linearizations = 0;  // composition sets linearised (linearize)
};
WarmSequence warm_sequence(const std::string& tdb_path, const std::vector<std::string>& phases,
                           const std::vector<std::string>& components, const std::vector<std::string>& x_elements,
                           const std::vector<double>& x_values, const std::vector<double>& temperatures);

EnergyBoundCheck check_energy_change_bound(const std::string& tdb_path, const std::string& phase,
                                           const std::vector<std::string>& components, double T0, double T1);

}  // namespace pd::solver::testing
