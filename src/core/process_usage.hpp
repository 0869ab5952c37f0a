// core/process_usage.hpp: what this process has cost the host so far, for speed and memory reports.
#pragma once

#include <cstdint>

namespace mppnet::core {

// The process's peak resident set size in bytes (the high-water mark since it started).
std::int64_t peak_memory_bytes();

// Memory the host can still give this process without swapping (MemAvailable of /proc/meminfo), in
// bytes, or -1 where the host does not say.
std::int64_t available_memory_bytes();

}  // namespace mppnet::core
