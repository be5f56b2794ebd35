// TEST-ONLY phase models for the equilibrium solver's self tests (not used by any calculation):
// a substitutional regular solution (one sublattice, RK order 0 with L = L0 + L1*T), a stoichiometric
// compound, and a two-sublattice interstitial solution (A,B)1(C,VA)1 whose N_f varies with y.
// They implement the PhaseModel contract of models/phase_model.hpp with exact derivatives.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/phase_model.hpp"

namespace pd::solver::testing {

struct G0 {  // a + b T + c T ln T (per formula unit)
  double a = 0, b = 0, c = 0;
};

// (c_0, c_1, ...)1 with constituents = element names of the system.
std::shared_ptr<const PhaseModel> make_substitutional(const std::string& name, const std::vector<std::string>& elements,
                                                      const std::vector<std::string>& constituents,
                                                      const std::vector<G0>& g0,
                                                      // L[i*nc+j] (i<j used): L0 + L1*T
                                                      const std::vector<double>& L0, const std::vector<double>& L1);

// Stoichiometric compound: sublattices each holding one element with site ratio; G per mole of atoms.
std::shared_ptr<const PhaseModel> make_compound(const std::string& name, const std::vector<std::string>& elements,
                                                const std::vector<std::pair<std::string, double>> sublattices, G0 gm);

// (A,B)1 (C,VA)1: end members A:C, B:C, A:VA, B:VA (per formula unit), ideal mixing on both
// sublattices, one regular term L(A,B:*) = Lab.
std::shared_ptr<const PhaseModel> make_interstitial(const std::string& name, const std::vector<std::string>& elements,
                                                    const std::string& A, const std::string& B, const std::string& Cel,
                                                    G0 gAC, G0 gBC, G0 gAVA, G0 gBVA, double Lab);

// Runs the solver self tests; returns a JSON report {"passed":n,"failed":m,"messages":[...],...}.
std::string run_self_test(int verbose);

}  // namespace pd::solver::testing
