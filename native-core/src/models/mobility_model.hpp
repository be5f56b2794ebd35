// Atomic mobilities and diffusivities of one phase from the kinetic parameters of the DICTRA format (MQ, MF, DQ,
// DF; Andersson and Agren, J. Appl. Phys. 72 (1992) 1350): for each diffusing element k, every kind is a
// Redlich-Kister/CEF sum over the phase's site fractions built exactly as a Gibbs-energy parameter sum (the
// wildcard '*' sums its sublattice to 1), evaluated at (T, P, y) on the variables of the phase's PhaseModel.
//   M_k = (1/RT) exp(MF_k / RT) exp((1 + alpha xi) MQ_k / RT)                 atomic mobility, m^2 mol/(J s)
//   D_k = exp((DF_k + DQ_k) / RT)                                             a diffusivity given directly, m^2/s
// The ferromagnetic factor is Jonsson's (Z. Metallkd. 83 (1992) 349; Scand. J. Metall. 23 (1994) 201): the
// activation term MQ is raised by (1 + alpha xi), where xi is the degree of magnetic order, the magnetic enthalpy
// of the Inden-Hillert-Jarl function at T over its value at 0 K, and alpha = 0.3 for a bcc-type magnetic model
// (structure factor p = 0.4), 0 otherwise (fcc: the magnetic effect on diffusion is taken as negligible, as the
// assessments of fcc mobilities do). MF, the frequency factor RT ln M0, is not scaled: that is why the format
// keeps it apart from MQ. An ordered phase with a DIS_PART phase takes the disordered phase's sums at the
// disordered fractions plus its own ordered part, partitioned as its Gibbs energy is (§5.2).
// Failure modes: build throws pd::CoreError (ErrorCode::Model) for a parameter the CEF sum refuses (as for G);
// evaluate never throws for finite inputs; a kind without parameters for an element is reported absent.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/database.hpp"

namespace pd {

class MobilityModel {
 public:
  // The kinds of kinetic parameters, in the order of Values::sums.
  enum Kind { MQ = 0, MF = 1, DQ = 2, DF = 3, kKinds = 4 };

  struct Values {
    // per kind, per element of elements(): the parameter sum, J/mol (0 where absent)
    std::vector<double> sums[kKinds];
    // per element: 1 when the element has MQ or MF parameters (a mobility), 2 when DQ or DF (a diffusivity),
    // 3 for both, 0 for none
    std::vector<int> present;
    std::vector<double> mobility;     // M_k, m^2 mol/(J s); NaN without MQ/MF data
    std::vector<double> diffusivity;  // D_k from DQ/DF, m^2/s; NaN without DQ/DF data
    double magnetic_order = 0;        // xi at (T, y): 0 without a magnetic model or without a moment
    double alpha = 0;                 // the ferromagnetic factor's alpha of this phase
  };

  // nullptr when the phase has no kinetic parameter for any of the components, or cannot form from them.
  static std::shared_ptr<const MobilityModel> build(const Database& db, const std::string& phase,
                                                    const std::vector<std::string>& components);
  virtual ~MobilityModel() = default;
  virtual const std::vector<std::string>& elements() const = 0;  // components minus VA, sorted (as PhaseModel)
  virtual size_t variable_count() const = 0;                     // site fractions, as PhaseModel::variables()
  // `curie` is the phase's magnetic ordering temperature T* at y (PhaseModel::properties TC) and `has_moment`
  // whether its magnetic moment is non-zero there; both only matter for a magnetic phase.
  virtual Values evaluate(double T, double P, const double* y, double curie, bool has_moment) const = 0;
};

// Jonsson's degree of magnetic order: the magnetic enthalpy of the Inden-Hillert-Jarl function (§3.2) at tau =
// T / T* over its value at 0 K, for structure factor p: 1 at 0 K, (140 p / 79) 0.5643 at tau = 1 (0.40 for
// p = 0.4), decaying as tau^-4 above (short-range magnetic order).
double magnetic_order_degree(double tau, double p);

}  // namespace pd
