// Linear tables of a phase's grid points (CompiledModel::PointSet): the grid energies at a new (T, P) as
// matrix-vector products over the parameter values (see compiled_model.hpp, LinearTable).
#include <algorithm>
#include <cmath>

#include "io/errors.hpp"
#include "models/compiled_model.hpp"
#include "models/magnetic.hpp"

namespace pd::models {

namespace {

void tabulate(std::initializer_list<const Poly*> polys, const double* Y, size_t np, size_t m, size_t ncoef,
              CompiledModel::LinearTable& out) {
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
  out.B.assign(nblocks * nc * kB, 0.0);
  std::vector<double> dense(ncoef);
  for (size_t p = 0; p < np; ++p) {
    std::fill(dense.begin(), dense.end(), 0.0);
    for (const Poly* poly : polys) poly->accumulate_basis(Y + p * m, dense.data());
    double* Bb = out.B.data() + (p / kB) * nc * kB + p % kB;
    for (size_t j = 0; j < nc; ++j) Bb[j * kB] = dense[out.cols[j]];
  }
}

// The columns of S whose values cS are equal at this (T,P) as one column of their sum (the same sum up to rounding),
// cG their values: the grouping last used by any thread when it is the same, else a new one (kept for the next
// call). Null when the grouping leaves more than three quarters of the columns, or S has fewer than 8 (grouping would
// cost more than it saves).
std::shared_ptr<const CompiledModel::MergedColumns> merged_columns(const CompiledModel::PointSetImpl& q,
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
  std::shared_ptr<const CompiledModel::MergedColumns> merged;
  // The merged table is a second copy of the grid's table: worth its memory only when it is markedly narrower
  // (a steel's sigma or Laves phase has a few equal columns among 30-50, its grid tens of thousands of points)
  if (!group_of.empty() && 4 * cG.size() <= 3 * nc) {
    {
      std::lock_guard<std::mutex> lock(q.merged_mutex);
      merged = q.merged;
    }
    if (!merged || merged->group_of != group_of) {
      auto fresh = std::make_shared<CompiledModel::MergedColumns>();
      fresh->group_of = group_of;
      CompiledModel::LinearTable& t = fresh->table;
      const size_t ng = cG.size(), kB = CompiledModel::LinearTable::kBlock, nblocks = (q.np + kB - 1) / kB;
      t.cols.assign(ng, -1);
      for (size_t j = 0; j < nc; ++j)
        if (group_of[j] >= 0 && t.cols[group_of[j]] < 0) t.cols[group_of[j]] = q.S.cols[j];
      t.B.assign(nblocks * ng * kB, 0.0);
      for (size_t b = 0; b < nblocks; ++b)
        for (size_t j = 0; j < nc; ++j) {
          if (group_of[j] < 0) continue;
          const double* from = q.S.B.data() + (b * nc + j) * kB;
          double* to = t.B.data() + (b * ng + group_of[j]) * kB;
          for (size_t i = 0; i < kB; ++i) to[i] += from[i];
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
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-vectorize")))
#endif
void CompiledModel::LinearTable::block_values(size_t block, const double* cv, double* out) const {
  const size_t nc = cols.size();
  const double* Bb = B.data() + block * nc * kBlock;
  double s[kBlock] = {};
  for (size_t j = 0; j < nc; ++j) {
    const double c = cv[j];
    const double* col = Bb + j * kBlock;
    for (size_t i = 0; i < kBlock; ++i) s[i] += col[i] * c;
  }
  for (size_t i = 0; i < kBlock; ++i) out[i] = s[i];
}

std::unique_ptr<const PhaseModel::PointSet> CompiledModel::compile_points(const double* Y, size_t npoints) const {
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
  auto ps = std::make_unique<PointSetImpl>();
  ps->np = npoints;
  tabulate({&G_, &ID_}, Y, npoints, m, ncoef, ps->S);
  throw_if_cancelled();
  tabulate({&NF_}, Y, npoints, m, ncoef, ps->NF);
  if (with_magnetic) {
    throw_if_cancelled();
    tabulate({&TC_}, Y, npoints, m, ncoef, ps->TC);
    tabulate({&BM_}, Y, npoints, m, ncoef, ps->BM);
    if (mag_->afm == 0) tabulate({&NT_}, Y, npoints, m, ncoef, ps->NT);
  }
  return ps;
}

void CompiledModel::energies(const State& state, const PointSet& points, double* GM) const {
  const auto& st = static_cast<const StateImpl&>(state);
  const auto& q = static_cast<const PointSetImpl&>(points);
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
  const std::shared_ptr<const MergedColumns> merged = merged_columns(q, cS, cG);
  const LinearTable& S = merged ? merged->table : q.S;
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

double CompiledModel::magnetic_ordering_temperature_max(const State& state, const PointSet& points) const {
  if (!magnetic()) return 0;
  const auto& st = static_cast<const StateImpl&>(state);
  const auto& q = static_cast<const PointSetImpl&>(points);
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
