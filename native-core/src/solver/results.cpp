// The result of a solve: composition sets, system quantities and the convergence verdict (§9), and the dot
// derivatives from the Newton system's sensitivity (§9.4).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include "solver/solver_internal.hpp"

namespace pd::solver::detail {

// Fills `res` from the final state of `run` (also when not converged: the last state, flagged). `ok`/`why`:
// certify's verdict; a certified state is converged unless the mass balance, the tangent of a stable set or
// the driving force of a metastable one says otherwise.
void fill_results(Run& run, const Conditions& c, const SolverOptions& options, bool ok, const Reason& why,
                  EquilibriumResult& res) {
  const Conds& cd = run.cd;
  const int C = run.C;
  res.iterations = run.iterations;
  // ---- results (also filled when not converged: the last state, flagged)
  // A converged newton() has just linearised every set at its final y (and the grid re-scan changes
  // nothing), so the sets are only linearised again when derivatives need the T columns (§9.4) or the
  // last state is a non-converged one.
  if (!ok || !options.derivatives.empty())
    for (auto& s : run.sets) linearize_if_moved(run, s, s.stable && !options.derivatives.empty());
  res.mu = run.mu;
  std::vector<double> xo;
  double N;
  overall(run, xo, N);
  res.x = xo;
  std::vector<int> setno(run.phases.size(), 0);
  std::vector<int> vacant_phases;          // phases whose metastable set sits at their vacancy floor or left out
  const CompSet* vacant_stable = nullptr;  // a stable set on its way to the pure-vacancy configuration
  double worst_mu = 0;
  for (auto& s : run.sets) {
    CompSetResult r;
    r.phase = run.phases[s.phase]->name();
    r.phase_index = s.phase;
    r.y = s.y;
    r.x.resize(C);
    for (int A = 0; A < C; ++A) r.x[A] = s.mo.M[A] / s.Nf;
    r.GM = s.GM;
    const double T = c.T;
    const double GT = s.e.dGM[0], GTT = s.e.d2GM[0];
    r.SM = -GT;
    r.HM = s.GM - T * GT;
    r.CPM = -T * GTT;
    if (s.stable) {
      if (s.Nf < kCondensedNfMin) vacant_stable = &s;
      r.set_number = ++setno[s.phase];
      r.NP = s.aleph * s.Nf;
      double muX = 0;
      for (int A = 0; A < C; ++A) muX += run.mu[A] * r.x[A];
      worst_mu = std::max(worst_mu, std::fabs(muX - s.GM));
      res.GM += r.NP * r.GM;
      res.HM += r.NP * r.HM;
      res.SM += r.NP * r.SM;
      res.CPM += r.NP * r.CPM;
      res.stable.push_back(std::move(r));
    } else {
      r.DF = driving_force(run, s);
      // a set at its vacancy floor, or of a phase left out because its energy has no lower bound towards that
      // floor (its relaxation runs there, its driving force growing on the way), is no evidence against the
      // equilibrium found
      if (at_vacancy_floor(run, s) || left_out(run, s.phase)) vacant_phases.push_back(s.phase);
      res.metastable.push_back(std::move(r));
    }
  }
  // keep only the best metastable set of each phase that has no stable set
  {
    std::vector<CompSetResult> keep;
    for (auto& r : res.metastable) {
      bool has_stable = false;
      for (const auto& s : res.stable) has_stable |= s.phase_index == r.phase_index;
      if (has_stable) continue;
      auto it = std::find_if(keep.begin(), keep.end(),
                             [&](const CompSetResult& k) { return k.phase_index == r.phase_index; });
      if (it == keep.end())
        keep.push_back(r);
      else if (r.DF > it->DF)
        *it = r;
    }
    res.metastable.swap(keep);
  }
  // mass balance
  double mb = std::fabs(N - 1);
  for (size_t k = 0; k < cd.a.size(); ++k) {
    double r = -cd.b[k], sc = 0;
    for (int A = 0; A < C; ++A) {
      r += cd.a[k][A] * xo[A];
      sc = std::max(sc, std::fabs(cd.a[k][A]));
    }
    mb = std::max(mb, std::fabs(r) / std::max(1.0, sc));
  }
  res.mass_balance_error = mb;
  double maxdf = 0;
  for (const auto& r : res.metastable)
    if (std::find(vacant_phases.begin(), vacant_phases.end(), r.phase_index) == vacant_phases.end())
      maxdf = std::max(maxdf, r.DF);
  Reason verdict{"converged"};
  if (!ok)
    verdict = why;
  else if (mb > mass_balance_tolerance(cd))
    verdict = {"mass balance not satisfied (" + std::to_string(mb) + ")"};
  else if (worst_mu > 1e-6 * std::max(1.0, std::fabs(res.GM)) && worst_mu > 1e-6)
    verdict = {"a stable phase is off the tangent hyperplane by " + std::to_string(worst_mu) + " J/mol"};
  else if (maxdf > kDFGrid)
    verdict = {"a metastable phase has a positive driving force (" + std::to_string(maxdf) + " J/mol)"};
  else
    res.converged = true;
  // A state that failed with a stable set at almost no atoms per formula unit failed because that phase has no
  // lower bound: pycalphad_inline_V_O_gas_halite at X(V) = 1e-9, where HALITE takes the V at N_f = 3e-12 (1200
  // formula units in 3.7e-9 moles of atoms) and the tangent check fails by 0.3 J/mol. Said so, it is an answer
  // and not a failure to find one: the cold start's retries are not run for it.
  if (!res.converged && vacant_stable) verdict = pure_vacancy_reason(run, *vacant_stable);
  res.reason = verdict.text;
  if (!res.converged) {
    res.reason_code = verdict.code;
    res.vacant_phase = verdict.vacant_phase;
  }
}

namespace {

// A request "A.B" upper-cased and cut at its last '.' outside parentheses (B may be X(EL), A may contain '(').
void split_request(const std::string& req0, std::string& qa, std::string& qb) {
  std::string req = req0;
  for (auto& ch : req) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  int depth = 0;
  size_t dot = std::string::npos;
  for (size_t i = 0; i < req.size(); ++i) {
    if (req[i] == '(')
      ++depth;
    else if (req[i] == ')')
      --depth;
    else if (req[i] == '.' && depth == 0)
      dot = i;
  }
  if (dot == std::string::npos) throw std::invalid_argument("derivative '" + req0 + "' is not of the form A.B");
  qa = req.substr(0, dot);
  qb = req.substr(dot + 1);
}

// The mode of solve_global for the variable B: 1 for T, 2 for X(EL) of condition row xrow.
int variable_mode(const Conds& cd, const std::vector<std::string>& elements, const std::string& req0,
                  const std::string& qb, int& xrow) {
  xrow = -1;
  if (qb == "T") return 1;
  if (qb.size() > 3 && qb.rfind("X(", 0) == 0 && qb.back() == ')') {
    std::string el = qb.substr(2, qb.size() - 3);
    for (size_t r = 0; r < cd.a.size(); ++r)
      if (cd.row_is_x[r] && elements[cd.row_element[r]] == el) xrow = static_cast<int>(r);
    if (xrow < 0) throw std::invalid_argument("derivative '" + req0 + "': X(" + el + ") is not a condition");
    return 2;
  }
  throw std::invalid_argument("derivative '" + req0 + "': only .T and .X(EL) are supported");
}

// The sensitivities of the state to the variable (§9.4): dμ, dT, and per stable set dy (9.3) and dNP (9.4).
struct Sensitivity {
  std::vector<double> dmu, dal;
  double dT = 0;
  std::vector<std::vector<double>> dy;
  std::vector<double> dNP;
};

Sensitivity sensitivity(Run& run, int mode, int xrow) {
  const int C = run.C;
  Sensitivity d;
  if (!solve_global(run, mode, xrow, d.dmu, d.dal, d.dT))
    throw CoreError(ErrorCode::NotConverged, "derivative system not finite");
  d.dy.resize(run.sets.size());
  d.dNP.assign(run.sets.size(), 0.0);
  for (size_t i = 0; i < run.sets.size(); ++i) {
    CompSet& s = run.sets[i];
    if (!s.stable) continue;
    const int m = static_cast<int>(s.y.size());
    d.dy[i].assign(m, 0.0);
    for (int k = 0; k < m; ++k) {
      double v = s.cT[k] * d.dT;
      for (int A = 0; A < C; ++A) v += s.cA[A * m + k] * d.dmu[A];
      d.dy[i][k] = v;
    }
    double dNf = 0;
    for (int k = 0; k < m; ++k)
      for (int A = 0; A < C; ++A) dNf += s.mo.dM[A * m + k] * d.dy[i][k];
    d.dNP[i] = s.Nf * d.dal[i] + s.aleph * dNf;
  }
  return d;
}

// GM, SM or HM (`which`) of set s and its change with the variable (dT, site fractions' change dy).
void set_property(const CompSet& s, const std::string& which, double T, double dT, const std::vector<double>& dy,
                  double& val, double& dval) {
  const int m = static_cast<int>(s.y.size());
  const int n = m + 2;
  const auto& g = s.e.dGM;
  const auto& h = s.e.d2GM;
  double vT, vY = 0;
  if (which == "GM") {
    val = s.GM;
    vT = g[0];
    for (int k = 0; k < m; ++k) vY += g[2 + k] * dy[k];
  } else if (which == "SM") {
    val = -g[0];
    vT = -h[0];
    for (int k = 0; k < m; ++k) vY += -h[(2 + k) * n] * dy[k];
  } else {  // HM
    val = s.GM - T * g[0];
    vT = -T * h[0];
    for (int k = 0; k < m; ++k) vY += (g[2 + k] - T * h[(2 + k) * n]) * dy[k];
  }
  dval = vT * dT + vY;
}

// The system's GM, HM or SM: sum over the stable sets of dNP v + NP dv.
double system_property_derivative(const Run& run, const std::string& qa, double T, const Sensitivity& d) {
  double out = 0;
  for (size_t i = 0; i < run.sets.size(); ++i) {
    const CompSet& s = run.sets[i];
    if (!s.stable) continue;
    double v, dv;
    set_property(s, qa, T, d.dT, d.dy[i], v, dv);
    out += d.dNP[i] * v + s.aleph * s.Nf * dv;
  }
  return out;
}

// NP(PHASE[#n]) or X(PHASE[#n],EL) (qa): the amount summed over the phase's stable sets (or set n), the mole
// fraction of its first (or n-th) set; NaN for a mole fraction of a phase that is not stable.
double phase_derivative(const Run& run, const std::vector<std::string>& elements, const std::string& req0,
                        const std::string& qa, const Sensitivity& d) {
  const int C = run.C;
  bool isNP = qa[0] == 'N';
  std::string inner = qa.substr(isNP ? 3 : 2, qa.size() - (isNP ? 4 : 3));
  std::string ph = inner, el;
  if (!isNP) {
    size_t comma = inner.find(',');
    if (comma == std::string::npos) throw std::invalid_argument("derivative '" + req0 + "': use X(PHASE,EL)");
    ph = inner.substr(0, comma);
    el = inner.substr(comma + 1);
  }
  int want_set = 0;
  size_t hash = ph.find('#');
  if (hash != std::string::npos) {
    want_set = std::atoi(ph.c_str() + hash + 1);
    ph = ph.substr(0, hash);
  }
  int seen = 0;
  bool found = false;
  double out = 0;
  for (size_t i = 0; i < run.sets.size(); ++i) {
    const CompSet& s = run.sets[i];
    if (!s.stable || run.phases[s.phase]->name() != ph) continue;
    ++seen;
    if (want_set && seen != want_set) continue;
    if (isNP) {
      out += d.dNP[i];
      found = true;
    } else if (!found) {
      auto it = std::find(elements.begin(), elements.end(), el);
      if (it == elements.end()) throw std::invalid_argument("derivative '" + req0 + "': unknown element " + el);
      const int A = static_cast<int>(it - elements.begin());
      const int m = static_cast<int>(s.y.size());
      double dMA = 0, dNf = 0;
      for (int k = 0; k < m; ++k) {
        dMA += s.mo.dM[A * m + k] * d.dy[i][k];
        for (int E = 0; E < C; ++E) dNf += s.mo.dM[E * m + k] * d.dy[i][k];
      }
      out = (dMA * s.Nf - s.mo.M[A] * dNf) / (s.Nf * s.Nf);
      found = true;
    }
  }
  if (!found && !isNP) out = std::numeric_limits<double>::quiet_NaN();
  return out;
}

}  // namespace

// The derivatives named in `requests` ("A.B" with B = T or X(EL) of a condition row), appended to
// res.derivatives; throws std::invalid_argument for a request it cannot parse. Needs every set linearised
// with its T column (linearize(..., true)).
void dot_derivatives(Run& run, const Conditions& c, const std::vector<std::string>& elements,
                     const std::vector<std::string>& requests, EquilibriumResult& res) {
  for (const auto& req0 : requests) {
    std::string qa, qb;
    split_request(req0, qa, qb);
    int xrow;
    const int mode = variable_mode(run.cd, elements, req0, qb, xrow);
    const Sensitivity d = sensitivity(run, mode, xrow);
    double out = std::numeric_limits<double>::quiet_NaN();
    if (qa == "GM" || qa == "HM" || qa == "SM") {
      out = system_property_derivative(run, qa, c.T, d);
    } else if (qa.rfind("MU(", 0) == 0 && qa.back() == ')') {
      std::string el = qa.substr(3, qa.size() - 4);
      auto it = std::find(elements.begin(), elements.end(), el);
      if (it == elements.end()) throw std::invalid_argument("derivative '" + req0 + "': unknown element " + el);
      out = d.dmu[it - elements.begin()];
    } else if ((qa.rfind("NP(", 0) == 0 || qa.rfind("X(", 0) == 0) && qa.back() == ')') {
      out = phase_derivative(run, elements, req0, qa, d);
    } else {
      throw std::invalid_argument("derivative '" + req0 + "': unsupported quantity " + qa);
    }
    res.derivatives.emplace_back(req0, out);
  }
}

}  // namespace pd::solver::detail
