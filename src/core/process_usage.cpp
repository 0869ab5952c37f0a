// core/process_usage.cpp: peak memory from getrusage; memory bounds from /proc, getrlimit and the cgroups.
#include "core/process_usage.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

namespace mppnet::core {

namespace {

// A number in a one-line file ("max" or an unreadable file: -1).
std::int64_t read_number(const std::string& path) {
  std::ifstream in(path);
  std::int64_t v = -1;
  if (!(in >> v)) return -1;
  return v;
}

std::int64_t meminfo(const std::string& field) {
  std::ifstream in("/proc/meminfo");
  std::string name, unit;
  std::int64_t kib = 0;
  while (in >> name >> kib >> unit)
    if (name == field + ":") return kib * 1024;
  return -1;
}

// The cgroup folders of this process, its own first, then each parent up to the root of the hierarchy.
struct CgroupFiles {
  std::string limit, usage;
};
std::vector<CgroupFiles> cgroup_levels() {
  std::vector<CgroupFiles> out;
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    // "0::/path" (v2) or "N:memory:/path" (v1, among other controllers).
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    const bool v2 = controllers.empty();
    if (!v2 && controllers.find("memory") == std::string::npos) continue;
    const std::string root = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
    for (;;) {
      const std::string dir = root + (path == "/" ? "" : path);
      out.push_back(v2 ? CgroupFiles{dir + "/memory.max", dir + "/memory.current"}
                       : CgroupFiles{dir + "/memory.limit_in_bytes", dir + "/memory.usage_in_bytes"});
      if (path.empty() || path == "/") break;
      path = path.substr(0, path.rfind('/'));
      if (path.empty()) path = "/";
    }
  }
  return out;
}

std::int64_t address_space_limit() {
  rlimit r{};
  if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return -1;
  return static_cast<std::int64_t>(r.rlim_cur);
}

// The process's current virtual size, which RLIMIT_AS bounds.
std::int64_t virtual_size() {
  std::ifstream in("/proc/self/statm");
  std::int64_t pages = 0;
  if (!(in >> pages)) return 0;
  return pages * sysconf(_SC_PAGESIZE);
}

void take_lower(MemoryBound& b, std::int64_t bytes, const char* source) {
  if (bytes < 0) return;
  if (b.bytes < 0 || bytes < b.bytes) b = {bytes, source};
}

// cgroup v1 writes a huge number (about 2^63) for "no limit".
constexpr std::int64_t kNoCgroupLimit = std::int64_t{1} << 60;

}  // namespace

std::int64_t peak_memory_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<std::int64_t>(u.ru_maxrss) * 1024;  // ru_maxrss is in KiB on Linux
}

MemoryBound available_memory() {
  MemoryBound b;
  take_lower(b, meminfo("MemAvailable"), "this host has available");
  if (const std::int64_t as = address_space_limit(); as >= 0) {
    const std::int64_t left = as - virtual_size();
    take_lower(b, left > 0 ? left : 0, "the address-space limit (ulimit -v) leaves");
  }
  for (const CgroupFiles& c : cgroup_levels()) {
    const std::int64_t limit = read_number(c.limit), usage = read_number(c.usage);
    if (limit < 0 || limit >= kNoCgroupLimit || usage < 0) continue;
    take_lower(b, limit > usage ? limit - usage : 0, "the memory limit of this process's cgroup leaves");
  }
  return b;
}

MemoryBound memory_ceiling() {
  MemoryBound b;
  take_lower(b, meminfo("MemTotal"), "this host has in all");
  take_lower(b, address_space_limit(), "the address-space limit (ulimit -v) allows");
  for (const CgroupFiles& c : cgroup_levels()) {
    const std::int64_t limit = read_number(c.limit);
    if (limit >= 0 && limit < kNoCgroupLimit)
      take_lower(b, limit, "the memory limit of this process's cgroup allows");
  }
  return b;
}

}  // namespace mppnet::core
