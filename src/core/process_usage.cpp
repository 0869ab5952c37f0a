// core/process_usage.cpp: peak memory from getrusage.
#include "core/process_usage.hpp"

#include <sys/resource.h>

namespace mppnet::core {

std::int64_t peak_memory_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<std::int64_t>(u.ru_maxrss) * 1024;  // ru_maxrss is in KiB on Linux
}

}  // namespace mppnet::core
