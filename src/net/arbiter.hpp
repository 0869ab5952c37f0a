// net/arbiter.hpp: the round-robin arbiter step shared by the general router's allocators.
#pragma once

#include <cstdint>

namespace mppnet::net::arbiter {

// Distance from `pointer` to `x` going round a ring of `n`: the round-robin priority (0 is highest).
inline int rr_distance(int x, int pointer, int n) {
  const int d = x - pointer;
  return d < 0 ? d + n : d;
}

// One arbiter step of every allocator stage: resource `at` keeps the candidate with the smallest
// round-robin distance `d`; a resource is appended to `listed` the first time it is offered, so the
// caller visits (and resets) only resources that were asked for. pick[at] < 0 means "not asked yet".
inline void offer(std::int32_t* pick, std::int32_t* dist, std::int32_t* listed, int& count, int at,
                  int candidate, int d) {
  if (pick[at] < 0) {
    listed[count++] = at;
  } else if (dist[at] <= d) {
    return;
  }
  pick[at] = candidate;
  dist[at] = d;
}

}  // namespace mppnet::net::arbiter
