// core/process_usage.cpp: peak memory from getrusage.
#include "core/process_usage.hpp"

#include <sys/resource.h>

#include <fstream>
#include <string>

namespace mppnet::core {

std::int64_t peak_memory_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<std::int64_t>(u.ru_maxrss) * 1024;  // ru_maxrss is in KiB on Linux
}

std::int64_t available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string name, unit;
  std::int64_t kib = 0;
  while (in >> name >> kib >> unit)
    if (name == "MemAvailable:") return kib * 1024;
  return -1;
}

}  // namespace mppnet::core
