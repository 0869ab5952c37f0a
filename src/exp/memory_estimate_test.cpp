// exp/memory_estimate_test.cpp: the memory estimate that refuses networks too large to build, against
// what building them allocates, and the refusal itself.
#include <malloc.h>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/sanitized_build.hpp"
#include "exp/experiment_config.hpp"
#include "exp/foundation_validation.hpp"
#include "net/built_network.hpp"
#include "net/network.hpp"
#include "topo/build.hpp"

namespace mppnet::exp {
namespace {

// Heap bytes in use (glibc's own count: exact, unlike the resident set).
long long heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<long long>(m.uordblks + m.hblkhd);  // small blocks and mmapped ones
}

void expect_estimate_close(const ExperimentConfig& cfg, const char* what) {
  const long long ports = topo::port_count(cfg.topology), nodes = topo::node_count(cfg.topology);
  const long long estimate = net::Network::estimated_bytes(ports, ports, nodes, 1, cfg.router);
  const long long before = heap_in_use();
  long long used = 0;
  {
    const net::BuiltNetwork built(cfg.topology, cfg.router, 1);
    EXPECT_EQ(static_cast<long long>(built.graph.ports.size()), ports) << what;
    used = heap_in_use() - before;
  }
  // The estimate sizes the network before it exists: asked to be within 35% of what the graph, routing
  // and network allocate (router count is taken as the port count, an overestimate of a few bytes per
  // port). Measured: 10-cube 7.08 MB for 5.64 MB allocated, 4-ary 5-tree 5.89 for 4.73 (5.17 on the
  // general router), 8x8 torus 0.22 for 0.18: 14-26% above.
  EXPECT_NEAR(static_cast<double>(estimate), static_cast<double>(used), 0.35 * static_cast<double>(used))
      << what << ": estimate " << estimate << ", allocated " << used;
}

TEST(MemoryEstimate, IsCloseToWhatBuildingTheNetworkAllocates) {
  if (core::kSanitizedBuild)
    GTEST_SKIP() << "AddressSanitizer's allocator does not report through glibc's mallinfo2";
  expect_estimate_close(hypercube_1024_config(), "10-cube");
  expect_estimate_close(kary_ntree_config(4, 5), "4-ary 5-tree");
  expect_estimate_close(torus_8x8_config(), "8x8 torus");
  ExperimentConfig general = kary_ntree_config(4, 5);
  general.router.vc_allocator = net::VcAllocatorKind::Wavefront;  // the general router's route sets
  expect_estimate_close(general, "4-ary 5-tree, general router");
}

TEST(MemoryEstimate, ANetworkBeyondTheLimitIsRefusedWithTheEstimate) {
  const auto load = [](const std::string& sets) {
    return load_experiment_text("[topology]\nkind = \"mesh\"\nk = 8\nn = 2\n", "m.toml", {sets});
  };
  EXPECT_NO_THROW(load("run.max_memory_gb=1"));
  try {
    load("run.max_memory_gb=0.0001");
    FAIL() << "a 100 kB limit accepted an 8x8 mesh";
  } catch (const core::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("run.max_memory_gb"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("needs about"), std::string::npos) << e.what();
  }
  // No host has a million GB: a limit above what the process could ever have is refused, naming it.
  try {
    load("run.max_memory_gb=1000000");
    FAIL() << "a limit of 10^6 GB accepted";
  } catch (const core::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("1000000 GB is more than the"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mppnet::exp
