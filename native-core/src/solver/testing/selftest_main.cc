// TEST-ONLY standalone runner of the solver self tests, outside Node (no addon lists *.cc files): link it
// with the engine and this directory's .cpp files; prints the JSON report, exit status 1 on a failure.
#include <cstdio>
#include "solver/testing/toy_models.hpp"
int main(int argc, char** argv) {
  std::string r = pd::solver::testing::run_self_test(argc > 1);
  std::printf("%s\n", r.c_str());
  return r.find("\"failed\":0,") != std::string::npos ? 0 : 1;
}
