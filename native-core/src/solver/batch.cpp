// Many condition sets over OpenMP threads, with optional warm starts along a line.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>

#include "solver/solver_internal.hpp"

namespace pd::solver {

using detail::predict;

namespace {

// [0, total) cut into one contiguous block per thread. Its owner takes a block's conditions from the front; a thread
// whose own block is done takes the others' from the back of the one with the most left, so that equal blocks whose
// equilibria cost unequally (3-fold between a state near a solidus and one in the liquid) end together, while each
// thread still walks through neighbouring conditions (the owner forwards, a helper backwards).
class SharedBlocks {
 public:
  SharedBlocks(long total, int blocks) : blocks_(blocks), ranges_(new std::atomic<uint64_t>[blocks]) {
    for (int b = 0; b < blocks; ++b) ranges_[b].store(pack(total * b / blocks, total * (b + 1) / blocks));
  }

  // The next condition for thread `tid`, -1 when none is left.
  long take(int tid) {
    if (tid < blocks_) {
      const long own = take_from(tid, true);
      if (own >= 0) return own;
    }
    for (;;) {
      int fullest = -1;
      uint64_t most = 0;
      for (int b = 0; b < blocks_; ++b) {
        const uint64_t range = ranges_[b].load(), left = back(range) > front(range) ? back(range) - front(range) : 0;
        if (left > most) most = left, fullest = b;
      }
      if (fullest < 0) return -1;
      const long taken = take_from(fullest, false);
      if (taken >= 0) return taken;
    }
  }

 private:
  static uint64_t pack(uint64_t front, uint64_t back) { return front << 32 | back; }
  static uint64_t front(uint64_t range) { return range >> 32; }
  static uint64_t back(uint64_t range) { return range & 0xffffffffu; }

  long take_from(int b, bool at_front) {
    uint64_t range = ranges_[b].load();
    for (;;) {
      const uint64_t f = front(range), k = back(range);
      if (f >= k) return -1;
      const uint64_t next = at_front ? pack(f + 1, k) : pack(f, k - 1);
      if (ranges_[b].compare_exchange_weak(range, next)) return static_cast<long>(at_front ? f : k - 1);
    }
  }

  int blocks_;
  std::unique_ptr<std::atomic<uint64_t>[]> ranges_;
};

}  // namespace

std::vector<EquilibriumResult> EquilibriumSolver::solve_batch(const std::vector<Conditions>& conds, int threads,
                                                              const volatile int32_t* cancel, double* progress,
                                                              const WarmStart* first,
                                                              const std::vector<WarmStart>* starts) {
  std::vector<EquilibriumResult> out(conds.size());
  if (threads < 1) threads = 1;
  if (threads > static_cast<int>(conds.size())) threads = static_cast<int>(std::max<size_t>(1, conds.size()));
  while (static_cast<int>(team_.size()) < threads - 1) team_.push_back(std::make_unique<EquilibriumSolver>(*this));
  for (auto& member : team_) member->options_ = options_;  // set per call by the caller
  long done = 0;
  const long total = static_cast<long>(conds.size());
  const bool warm = options_.warm_start;
  // the caller's state for condition i, when given and valid
  auto own_start = [&](long i) -> const WarmStart* {
    return starts && static_cast<size_t>(i) < starts->size() && (*starts)[i].valid() ? &(*starts)[i] : nullptr;
  };
  SharedBlocks shared(total, threads);
#pragma omp parallel num_threads(threads)
  {
    CancelScope cancel_scope(cancel);  // the flag seen by throw_if_cancelled() on every thread of the team
    EquilibriumSolver& local = omp_get_thread_num() == 0 ? *this : *team_[omp_get_thread_num() - 1];
    // One condition; `start`/`end`: warm-start state in and out (null = cold start, as solve(c)).
    auto one = [&](long i, const WarmStart* start, WarmStart* end) {
      if (cancel && *cancel != 0) {
        out[i].reason = "cancelled";
        out[i].reason_code = ErrorCode::Cancelled;
        if (end) *end = WarmStart();
        return;
      }
      try {
        out[i] = local.solve(conds[i], start, end);
      } catch (const Cancelled&) {
        out[i] = EquilibriumResult();
        out[i].reason = "cancelled";
        out[i].reason_code = ErrorCode::Cancelled;
        if (end) *end = WarmStart();
      } catch (const std::exception& e) {
        out[i] = EquilibriumResult();
        out[i].reason = std::string("error: ") + user_message(e);
        out[i].reason_code = error_code_of(e);
        if (end) *end = WarmStart();
      }
      long d;
#pragma omp atomic capture
      d = ++done;
      if (progress) {
        double frac = static_cast<double>(d) / static_cast<double>(total);
        uint64_t bits;
        std::memcpy(&bits, &frac, sizeof bits);
        __atomic_store_n(reinterpret_cast<uint64_t*>(progress), bits, __ATOMIC_RELAXED);
      }
    };
    if (warm) {
      // Contiguous chunks per thread (static schedule) so that neighbouring conditions follow each other
      // and each one after the first of a chunk starts from its predecessor's converged state.
      const long nt = omp_get_num_threads(), tid = omp_get_thread_num();
      const long begin = total * tid / nt, end = total * (tid + 1) / nt;
      WarmStart prev, prev2, next, pred;
      // the chunk that begins the batch continues from the caller's state (a scan cut into batches)
      if (tid == 0 && first && first->valid()) prev = *first;
      for (long i = begin; i < end; ++i) {
        const WarmStart* start = prev.valid() ? &prev : nullptr;
        if (start && prev2.valid() && i - 2 >= begin &&
            predict(prev2, conds[i - 2], prev, conds[i - 1], conds[i], pred))
          start = &pred;
        one(i, start, &next);
        std::swap(prev2, prev);
        std::swap(prev, next);
      }
    } else if (starts) {
      // independent searches side by side, each from its own state: contiguous blocks per thread, so that a caller
      // who orders the conditions by temperature gives each thread neighbouring temperatures, whose grid energies it
      // then mostly keeps (grid_energies.cpp, stale_grid_phase); a thread done with its block helps with the others'
      for (long i; (i = shared.take(omp_get_thread_num())) >= 0;) one(i, own_start(i), nullptr);
    } else if (total <= 2L * omp_get_num_threads()) {
      // a few conditions (the traces of a mapper, side by side): condition k on thread k mod n, so that each
      // thread keeps meeting the temperatures of the same trace and its (T,P) caches hold
      const long nt = omp_get_num_threads();
      for (long i = omp_get_thread_num(); i < total; i += nt) one(i, nullptr, nullptr);
    } else {
#pragma omp for schedule(dynamic, 1)
      for (long i = 0; i < total; ++i) one(i, nullptr, nullptr);
    }
  }
  return out;
}

}  // namespace pd::solver
