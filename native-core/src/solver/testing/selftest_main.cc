// TEST-ONLY standalone runner of the solver self tests (not part of the addon: the Makefile builds
// only *.cpp). Build: see native-core/src/solver/testing/README in the report; prints the JSON report.
#include <cstdio>
#include "solver/testing/toy_models.hpp"
int main(int argc, char** argv) {
  std::string r = pd::solver::testing::run_self_test(argc > 1);
  std::printf("%s\n", r.c_str());
  return r.find("\"failed\":0,") != std::string::npos ? 0 : 1;
}
