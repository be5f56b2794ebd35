// Linear tables of a phase's grid points (CompiledModel::PointSet): the grid energies at a new (T, P) as
// matrix-vector products over the parameter values (see compiled_model.hpp, LinearTable).
#include <algorithm>
#include <cmath>

#include "io/errors.hpp"
#include "models/compiled_model.hpp"
#include "models/magnetic.hpp"

namespace pd::models {

namespace {

template <class Value>
void tabulate(std::initializer_list<const Poly*> polys, const double* Y, size_t np, size_t m, size_t ncoef,
              CompiledModel::BlockTable<Value>& out) {
  std::vector<char> used(ncoef, 0);
  for (const Poly* poly : polys)
    for (const Term& t : poly->terms) used[t.coef] = 1;
  std::vector<int> col_of(ncoef, -1);
  for (size_t k = 0; k < ncoef; ++k)
    if (used[k]) {
      col_of[k] = int(out.cols.size());
      out.cols.push_back(int(k));
    }
  const size_t nc = out.cols.size(), kB = CompiledModel::LinearTable::kBlock;
  const size_t nblocks = (np + kB - 1) / kB;
  out.B.assign(nblocks * nc * kB, Value(0));
  std::vector<double> dense(ncoef);
  for (size_t p = 0; p < np; ++p) {
    std::fill(dense.begin(), dense.end(), 0.0);
    for (const Poly* poly : polys) poly->accumulate_basis(Y + p * m, dense.data());
    Value* Bb = out.B.data() + (p / kB) * nc * kB + p % kB;
    for (size_t j = 0; j < nc; ++j) Bb[j * kB] = static_cast<Value>(dense[out.cols[j]]);
  }
}

// The columns of S whose values cS are equal at this (T,P) as one column of their sum (the same sum up to rounding),
// cG their values: the grouping last used by any thread when it is the same, else a new one (kept for the next
// call). Null when the grouping leaves more than three quarters of the columns, or S has fewer than 8 (grouping would
// cost more than it saves).
template <class Value>
std::shared_ptr<const CompiledModel::MergedColumns<Value>> merged_columns(const CompiledModel::PointSetImpl<Value>& q,
                                                                          const std::vector<double>& cS,
                                                                          std::vector<double>& cG) {
  const size_t nc = cS.size();
  std::vector<int> group_of;
  if (nc >= 8) {  // a narrower table is summed as it is: grouping its columns would cost more than it saves
    group_of.assign(nc, -1);
    for (size_t j = 0; j < nc; ++j) {
      if (cS[j] == 0) continue;
      for (size_t l = 0; l < j && group_of[j] < 0; ++l)
        if (group_of[l] >= 0 && cS[l] == cS[j]) group_of[j] = group_of[l];
      if (group_of[j] < 0) {
        group_of[j] = int(cG.size());
        cG.push_back(cS[j]);
      }
    }
  }
  std::shared_ptr<const CompiledModel::MergedColumns<Value>> merged;
  // The merged table is a second copy of the grid's table: worth its memory only when it is markedly narrower
  // (a steel's sigma or Laves phase has a few equal columns among 30-50, its grid tens of thousands of points)
  if (!group_of.empty() && 4 * cG.size() <= 3 * nc) {
    {
      std::lock_guard<std::mutex> lock(q.merged_mutex);
      merged = q.merged;
    }
    if (!merged || merged->group_of != group_of) {
      auto fresh = std::make_shared<CompiledModel::MergedColumns<Value>>();
      fresh->group_of = group_of;
      CompiledModel::BlockTable<Value>& t = fresh->table;
      const size_t ng = cG.size(), kB = CompiledModel::LinearTable::kBlock, nblocks = (q.np + kB - 1) / kB;
      t.cols.assign(ng, -1);
      for (size_t j = 0; j < nc; ++j)
        if (group_of[j] >= 0 && t.cols[group_of[j]] < 0) t.cols[group_of[j]] = q.S.cols[j];
      t.B.assign(nblocks * ng * kB, Value(0));
      std::vector<double> sums(ng * kB);
      for (size_t b = 0; b < nblocks; ++b) {
        // each group's sum taken in double and rounded once (energy_rounding_bound counts that rounding)
        std::fill(sums.begin(), sums.end(), 0.0);
        for (size_t j = 0; j < nc; ++j) {
          if (group_of[j] < 0) continue;
          const Value* from = q.S.B.data() + (b * nc + j) * kB;
          double* to = sums.data() + group_of[j] * kB;
          for (size_t i = 0; i < kB; ++i) to[i] += from[i];
        }
        for (size_t i = 0; i < ng * kB; ++i) t.B[b * ng * kB + i] = static_cast<Value>(sums[i]);
      }
      merged = std::move(fresh);
      std::lock_guard<std::mutex> lock(q.merged_mutex);
      q.merged = merged;
    }
  }
  return merged;
}

}  // namespace

// The kBlock sums over the columns stay in registers and are added in pairs (SSE2). GCC's loop
// vectoriser would rather vectorise over the columns (the loop with the unknown trip count), which
// costs a shuffle per product: twice the time per point with the table in the L3 cache.
template <class Value>
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-vectorize")))
#endif
void CompiledModel::BlockTable<Value>::block_values(size_t block, const double* cv, double* out) const {
  const size_t nc = cols.size();
  const Value* Bb = B.data() + block * nc * kBlock;
  double s[kBlock] = {};
  for (size_t j = 0; j < nc; ++j) {
    const double c = cv[j];
    const Value* col = Bb + j * kBlock;
    for (size_t i = 0; i < kBlock; ++i) s[i] += static_cast<double>(col[i]) * c;
  }
  for (size_t i = 0; i < kBlock; ++i) out[i] = s[i];
}
template struct CompiledModel::BlockTable<double>;
template struct CompiledModel::BlockTable<float>;

namespace {

// The tables of compile_points, S in Value.
template <class Value>
std::unique_ptr<const PhaseModel::PointSet> tabulate_points(const CompiledModel::Terms& t, const double* Y,
                                                            size_t npoints, size_t m, size_t ncoef) {
  auto ps = std::make_unique<CompiledModel::PointSetImpl<Value>>();
  ps->np = npoints;
  tabulate({t.G, t.ID}, Y, npoints, m, ncoef, ps->S);
  throw_if_cancelled();
  tabulate({t.NF}, Y, npoints, m, ncoef, ps->NF);
  if (t.with_magnetic) {
    throw_if_cancelled();
    tabulate({t.TC}, Y, npoints, m, ncoef, ps->TC);
    tabulate({t.BM}, Y, npoints, m, ncoef, ps->BM);
    if (t.tabulate_NT) tabulate({t.NT}, Y, npoints, m, ncoef, ps->NT);
  }
  return ps;
}

}  // namespace

std::unique_ptr<const PhaseModel::PointSet> CompiledModel::compile_points(const double* Y, size_t npoints,
                                                                          bool single_precision) const {
  // Einstein, two-state and volume terms are nonlinear in their parameters: no table for them.
  if (!THETA_.empty() || !GD_.empty() || !V0_.empty()) return nullptr;
  const size_t m = vars_.size(), ncoef = 2 + exprs_.size();
  auto cols = [&](std::initializer_list<const Poly*> polys) {
    std::vector<char> used(ncoef, 0);
    for (const Poly* poly : polys)
      for (const Term& t : poly->terms) used[t.coef] = 1;
    return size_t(std::count(used.begin(), used.end(), 1));
  };
  const bool with_magnetic = mag_ && !TC_.empty();
  size_t width = cols({&G_, &ID_}) + cols({&NF_});
  if (with_magnetic) width += cols({&TC_}) + cols({&BM_}) + cols({&NT_});
  if (double(width) * double(npoints) > 1.6e7) return nullptr;  // keep each table under ~128 MB
  const Terms terms{&G_, &ID_, &NF_, &TC_, &BM_, &NT_, with_magnetic, with_magnetic && mag_->afm == 0};
  return single_precision ? tabulate_points<float>(terms, Y, npoints, m, ncoef)
                          : tabulate_points<double>(terms, Y, npoints, m, ncoef);
}

namespace {

// f(the PointSetImpl that `points` is, of either precision).
template <class F>
decltype(auto) with_table(const PhaseModel::PointSet& points, F&& f) {
  if (const auto* q = dynamic_cast<const CompiledModel::PointSetImpl<float>*>(&points)) return f(*q);
  return f(static_cast<const CompiledModel::PointSetImpl<double>&>(points));
}

}  // namespace

void CompiledModel::energies(const State& state, const PointSet& points, double* GM) const {
  with_table(points, [&](const auto& q) { table_energies(state, q, GM); });
}

template <class Q>
void CompiledModel::table_energies(const State& state, const Q& q, double* GM) const {
  const auto& st = static_cast<const StateImpl&>(state);
  const double T = st.T;
  std::vector<double> cS, cN, cTC, cBM, cNT;
  q.S.gather(st.c, cS);
  q.NF.gather(st.c, cN);
  const bool with_magnetic = mag_ && !TC_.empty();
  if (with_magnetic) {
    q.TC.gather(st.c, cTC);
    q.BM.gather(st.c, cBM);
    q.NT.gather(st.c, cNT);
  }
  // Columns of S with equal values at this (T,P): one column of their sum (the same sum up to rounding)
  std::vector<double> cG;
  const auto merged = merged_columns(q, cS, cG);
  const auto& S = merged ? merged->table : q.S;
  const double* cSv = merged ? cG.data() : cS.data();
  constexpr size_t kB = LinearTable::kBlock;
  double Sb[kB], Nb[kB], TCb[kB], BMb[kB], NTb[kB] = {};
  for (size_t k = 0; k < q.np; ++k) {
    const size_t i = k % kB;
    if (i == 0) {
      S.block_values(k / kB, cSv, Sb);
      q.NF.block_values(k / kB, cN.data(), Nb);
      if (with_magnetic) {
        q.TC.block_values(k / kB, cTC.data(), TCb);
        q.BM.block_values(k / kB, cBM.data(), BMb);
        if (!q.NT.empty()) q.NT.block_values(k / kB, cNT.data(), NTb);
      }
    }
    double S = Sb[i];
    if (with_magnetic) magnetic::add_value<magnetic::Tau::kDivide>(*mag_, T, TCb[i], BMb[i], NTb[i], S);
    GM[k] = S / Nb[i];
  }
}

namespace {

// The terms of energy_change_bound for a table, with N_k from the NF coefficients cN (points without atoms, whose
// energies are not finite, are left out).
template <class Q>
void change_bound_terms(const Q& q, const std::vector<double>& cN, CompiledModel::ChangeBoundTerms& out) {
  constexpr size_t kB = CompiledModel::LinearTable::kBlock;
  const size_t nc = q.S.cols.size();
  out.per_atom_of = cN;
  out.nonnegative.assign(nc, 1);
  out.column_max.assign(nc, 0.0);
  std::vector<double> inverse_atoms(q.np, 0.0);
  double Nb[kB];
  for (size_t k = 0; k < q.np; ++k) {
    if (k % kB == 0) q.NF.block_values(k / kB, cN.data(), Nb);
    if (Nb[k % kB] > 0) inverse_atoms[k] = 1 / Nb[k % kB];
  }
  std::vector<double> nonnegative_sum(q.np, 0.0);
  for (size_t j = 0; j < nc; ++j)
    for (size_t k = 0; k < q.np; ++k)
      if (q.S.B[(k / kB * nc + j) * kB + k % kB] < 0) out.nonnegative[j] = 0;
  for (size_t j = 0; j < nc; ++j)
    for (size_t k = 0; k < q.np; ++k) {
      const double b = q.S.B[(k / kB * nc + j) * kB + k % kB] * inverse_atoms[k];
      if (out.nonnegative[j])
        nonnegative_sum[k] += b;
      else
        out.column_max[j] = std::max(out.column_max[j], std::fabs(b));
    }
  for (double v : nonnegative_sum) out.nonnegative_sum_max = std::max(out.nonnegative_sum_max, v);
}

// The largest |ln(1 + beta)| per atom over the table's points (a point's terms: one per ordering temperature, two in
// Xiong's model), beta after the antiferromagnetic rule of Inden-Hillert-Jarl.
template <class Q>
double magnetic_log_max(const Q& q, const MagneticType& type, const std::vector<double>& cN,
                        const std::vector<double>& cBM) {
  constexpr size_t kB = CompiledModel::LinearTable::kBlock;
  double Nb[kB], BMb[kB], out = 0;
  const double terms = type.afm != 0 ? 1 : 2;
  for (size_t k = 0; k < q.np; ++k) {
    if (k % kB == 0) {
      q.NF.block_values(k / kB, cN.data(), Nb);
      q.BM.block_values(k / kB, cBM.data(), BMb);
    }
    const double bm = BMb[k % kB], N = Nb[k % kB];
    const double beta = type.afm != 0 ? magnetic::ihj_ordering(1, bm, type.afm).beta : bm;
    if (!(beta > -1) || !(N > 0)) continue;
    out = std::max(out, terms * std::fabs(std::log1p(beta)) / N);
  }
  return out;
}

// The T_C, BMAGN and T_N coefficients of a magnetic table, one after the other.
template <class Q>
std::vector<double> magnetic_coefficients(const Q& q, const CompiledModel::StateImpl& st) {
  std::vector<double> tc, bm, nt;
  q.TC.gather(st.c, tc);
  q.BM.gather(st.c, bm);
  q.NT.gather(st.c, nt);
  tc.insert(tc.end(), bm.begin(), bm.end());
  tc.insert(tc.end(), nt.begin(), nt.end());
  return tc;
}

}  // namespace

double CompiledModel::energy_change_bound(const State& from, const State& to, const PointSet& points) const {
  return with_table(points, [&](const auto& q) { return table_change_bound(from, to, q); });
}

template <class Q>
double CompiledModel::table_change_bound(const State& from, const State& to, const Q& q) const {
  const auto& a = static_cast<const StateImpl&>(from);
  const auto& b = static_cast<const StateImpl&>(to);
  const bool with_magnetic = magnetic();
  std::vector<double> cNa, cNb, cSa, cSb, mag_a, mag_b;
  q.NF.gather(a.c, cNa);
  q.NF.gather(b.c, cNb);
  if (with_magnetic) {
    mag_a = magnetic_coefficients(q, a);
    mag_b = magnetic_coefficients(q, b);
  }
  std::call_once(q.bound_once, [&] {
    change_bound_terms(q, cNa, q.bound_terms);
    if (!with_magnetic) return;
    std::vector<double> cBM;
    q.BM.gather(a.c, cBM);
    q.bound_terms.magnetic_log_max = magnetic_log_max(q, *mag_, cNa, cBM);
    q.bound_terms.magnetic_of = mag_a;
  });
  const ChangeBoundTerms& t = q.bound_terms;
  if (cNa != t.per_atom_of || cNb != t.per_atom_of) return std::numeric_limits<double>::infinity();
  if (with_magnetic && (mag_a != t.magnetic_of || mag_b != t.magnetic_of))
    return std::numeric_limits<double>::infinity();
  q.S.gather(a.c, cSa);
  q.S.gather(b.c, cSb);
  double nonnegative_change = 0, bound = 0;
  for (size_t j = 0; j < cSa.size(); ++j) {
    const double change = std::fabs(cSb[j] - cSa[j]);
    if (t.nonnegative[j])
      nonnegative_change = std::max(nonnegative_change, change);
    else
      bound += t.column_max[j] * change;
  }
  bound += t.nonnegative_sum_max * nonnegative_change;
  if (with_magnetic) bound += R * t.magnetic_log_max * std::fabs(b.T - a.T);
  return std::isfinite(bound) ? bound : std::numeric_limits<double>::infinity();
}

namespace {

// The largest |B_kj| / N_k of each column of S over the table's points with atoms, N_k from the NF coefficients cN.
template <class Q>
std::vector<double> rounding_column_max(const Q& q, const std::vector<double>& cN) {
  constexpr size_t kB = CompiledModel::LinearTable::kBlock;
  const size_t nc = q.S.cols.size();
  std::vector<double> out(nc, 0.0);
  double Nb[kB];
  for (size_t b = 0; b * kB < q.np; ++b) {
    q.NF.block_values(b, cN.data(), Nb);
    for (size_t i = 0; i < kB && b * kB + i < q.np; ++i) {
      if (!(Nb[i] > 0)) continue;
      const double inverse_atoms = 1 / Nb[i];
      for (size_t j = 0; j < nc; ++j)
        out[j] = std::max(out[j], std::fabs(double(q.S.B[(b * nc + j) * kB + i])) * inverse_atoms);
    }
  }
  return out;
}

}  // namespace

double CompiledModel::energy_rounding_bound(const State& state, const PointSet& points) const {
  if (!dynamic_cast<const PointSetImpl<float>*>(&points)) return 0;
  return table_rounding_bound(state, static_cast<const PointSetImpl<float>&>(points));
}

template <class Q>
double CompiledModel::table_rounding_bound(const State& state, const Q& q) const {
  const auto& st = static_cast<const StateImpl&>(state);
  std::vector<double> cN, cS;
  q.NF.gather(st.c, cN);
  std::call_once(q.rounding_once, [&] {
    q.rounding_column_max = rounding_column_max(q, cN);
    q.rounding_of = cN;
  });
  const std::vector<double> fresh = cN == q.rounding_of ? std::vector<double>() : rounding_column_max(q, cN);
  const std::vector<double>& column_max = fresh.empty() ? q.rounding_column_max : fresh;
  q.S.gather(st.c, cS);
  double sum = 0;
  for (size_t j = 0; j < cS.size(); ++j) sum += column_max[j] * std::fabs(cS[j]);
  // u(1 + u) per stored value (|B| <= |fl(B)| (1 + u)), twice for a merged column, and the double sums' rounding
  constexpr double u = 0x1p-24;
  const double bound = (2 * u * (1 + u) + double(cS.size() + 4) * 0x1p-52) * sum * 1.0001;
  return bound < 1e300 ? bound : 0;
}

double CompiledModel::magnetic_ordering_temperature_max(const State& state, const PointSet& points) const {
  if (!magnetic()) return 0;
  return with_table(points, [&](const auto& q) { return table_ordering_temperature_max(state, q); });
}

template <class Q>
double CompiledModel::table_ordering_temperature_max(const State& state, const Q& q) const {
  const auto& st = static_cast<const StateImpl&>(state);
  std::vector<double> cTC, cBM, cNT;
  q.TC.gather(st.c, cTC);
  q.BM.gather(st.c, cBM);
  q.NT.gather(st.c, cNT);
  constexpr size_t kB = LinearTable::kBlock;
  double TCb[kB], BMb[kB], NTb[kB] = {};
  double best = 0;
  for (size_t k = 0; k < q.np; ++k) {
    const size_t i = k % kB;
    if (i == 0) {
      q.TC.block_values(k / kB, cTC.data(), TCb);
      q.BM.block_values(k / kB, cBM.data(), BMb);
      if (!q.NT.empty()) q.NT.block_values(k / kB, cNT.data(), NTb);
    }
    best = std::max(best, ordering_temperature_of(TCb[i], BMb[i], NTb[i]));
  }
  return best;
}

}  // namespace pd::models
