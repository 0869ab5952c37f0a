// core/ordered_parallel.hpp: independent computations on several threads, consumed in their order.
//
// Commands that run many self-contained pieces of work (validation cases) spread them over the cores,
// yet must print and write exactly what one thread would: the pieces are computed by `jobs` workers in
// any order, and `consume(i, result)` is called on the calling thread for i = 0, 1, 2, ... as soon as
// piece i and every piece before it are done. A piece's result may depend only on i, never on which
// worker ran it or when, so the output is the same for any number of jobs.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace mppnet::core {

// REQUIRES: compute(i) is safe to call concurrently for different i (it shares no mutable state).
// An exception from compute(i) is rethrown on the calling thread when piece i's turn comes; the
// workers still running finish their current piece first.
template <typename Result, typename Compute, typename Consume>
void for_each_ordered(std::size_t count, int jobs, Compute compute, Consume consume) {
  const std::size_t workers = std::min<std::size_t>(count, static_cast<std::size_t>(std::max(jobs, 1)));
  if (workers <= 1) {
    for (std::size_t i = 0; i < count; ++i) consume(i, compute(i));
    return;
  }
  std::mutex mutex;
  std::condition_variable ready;
  std::vector<std::optional<Result>> results(count);
  std::vector<std::exception_ptr> errors(count);
  std::size_t next = 0;
  bool stop = false;  // set when the consumer leaves early (an exception): workers take no more pieces
  auto work = [&] {
    for (;;) {
      std::size_t i;
      {
        const std::lock_guard lock(mutex);
        if (stop || next == count) return;
        i = next++;
      }
      std::optional<Result> result;
      std::exception_ptr error;
      try {
        result.emplace(compute(i));
      } catch (...) {
        error = std::current_exception();
      }
      {
        const std::lock_guard lock(mutex);
        results[i] = std::move(result);
        errors[i] = error;
      }
      ready.notify_all();
    }
  };
  std::vector<std::jthread> threads;
  threads.reserve(workers);
  try {
    for (std::size_t w = 0; w < workers; ++w) threads.emplace_back(work);  // may throw: no thread left
    for (std::size_t i = 0; i < count; ++i) {
      std::unique_lock lock(mutex);
      ready.wait(lock, [&] { return results[i].has_value() || errors[i] != nullptr; });
      if (errors[i]) std::rethrow_exception(errors[i]);
      Result result = std::move(*results[i]);
      results[i].reset();
      lock.unlock();
      consume(i, std::move(result));
    }
  } catch (...) {
    {
      const std::lock_guard lock(mutex);
      stop = true;
    }
    throw;  // the jthreads join as the stack unwinds
  }
}

}  // namespace mppnet::core
