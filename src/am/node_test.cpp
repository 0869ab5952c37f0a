// am/node_test.cpp: a node's bump allocator over its local memory.
#include <sys/mman.h>

#include <cstdint>
#include <stdexcept>

#include <gtest/gtest.h>

#include "am/am_test_util.hpp"
#include "am/node.hpp"

namespace mppnet::am {
namespace {

// A node with the largest memory, 2^32 bytes (am.memory_bytes allows it). The span is a reserved, never
// touched mapping, since the allocator only does arithmetic. An allocation that ends exactly at 2^32
// must not wrap the heap pointer to 0 and hand out the same memory again.
TEST(AmNode, AllocationEndingAt4GiBDoesNotWrap) {
  constexpr std::uint64_t kSize = std::uint64_t{1} << 32;
  void* base = mmap(nullptr, kSize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(base, MAP_FAILED);
  auto sim = testing::make(testing::mesh(2), testing::router(2), AmParams{});
  Node node(sim->machine, 0, std::span<std::byte>(static_cast<std::byte*>(base), kSize));
  EXPECT_EQ(node.allocate(static_cast<std::uint32_t>(kSize - 16)), 0u);
  EXPECT_EQ(node.allocate(16), static_cast<std::uint32_t>(kSize - 16));  // ends at 2^32
  EXPECT_THROW(node.allocate(8), std::runtime_error);
  munmap(base, kSize);
}

TEST(AmNode, AllocationsAreAlignedAndExhaustionThrows) {
  auto sim = testing::make(testing::mesh(2), testing::router(2), AmParams{});
  Node& node = sim->machine.node(0);
  EXPECT_EQ(node.allocate(3), 0u);
  EXPECT_EQ(node.allocate(8), 8u);
  EXPECT_THROW(node.allocate(65536), std::runtime_error);
}

}  // namespace
}  // namespace mppnet::am
