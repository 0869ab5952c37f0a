// core/process_usage.hpp: what this process has cost the host so far, and what memory it may still use.
#pragma once

#include <cstdint>
#include <string>

namespace mppnet::core {

// The process's peak resident set size in bytes (the high-water mark since it started).
std::int64_t peak_memory_bytes();

// A bound on this process's memory and what sets it, for messages ("the 2.0 GB ... ulimit -v allows").
struct MemoryBound {
  std::int64_t bytes = -1;  // -1: nothing says
  std::string source;       // "this host has available", "the address-space limit (ulimit -v) leaves", ...
};

// The memory this process can still take: the least of the host's MemAvailable (/proc/meminfo), what the
// address-space limit (RLIMIT_AS, `ulimit -v`) leaves beside the process's current size, and what the
// memory limit of its cgroup (v2 memory.max less memory.current, or v1 memory.limit_in_bytes less
// memory.usage_in_bytes, at each level of the hierarchy) leaves.
MemoryBound available_memory();

// The most memory this process could ever have: the least of the host's MemTotal, RLIMIT_AS and the
// cgroups' limits. A run.max_memory_gb above it is refused.
MemoryBound memory_ceiling();

}  // namespace mppnet::core
