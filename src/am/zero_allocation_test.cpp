// am/zero_allocation_test.cpp: once warmed up, running node programs allocates nothing on the heap.
//
// This binary replaces the global operator new to count calls. A program runs the same round several
// times (requests with replies, bulk put and get, a nested collective task); node 0 reads the counter
// after each round's barrier. Frames, messages, packets and events all come from pools that reach their
// peak in the first rounds, so later rounds must not allocate at all.
#include <atomic>
#include <cstdlib>
#include <new>

#include <gtest/gtest.h>

#include "am/am_test_util.hpp"
#include "am/node.hpp"

namespace {
std::atomic<long long> g_allocations{0};
}

void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  return operator new(n);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}

namespace mppnet::am::zero_allocation_test {
namespace {

using testing::make;
using testing::mesh;
using testing::router;

struct Round {
  int replies = 0;
};
void on_reply(Incoming& in) {
  ++in.node.state<Round>().replies;
}
void on_request(Incoming& in) {
  in.reply(&on_reply, in.arg(0), in.arg(1));
}

TEST(AmAllocation, TheCounterSeesAllocations) {
  const long long before = g_allocations.load();
  auto p = std::make_unique<int>(3);
  EXPECT_EQ(g_allocations.load() - before, 1);
}

void steady_state_rounds_allocate_nothing(bool dma) {
  constexpr int kRounds = 8;
  AmParams a;
  a.dma = dma;
  auto sim = make(mesh(4), router(2, 4), a);
  std::vector<Round> st(16);
  sim->machine.attach(st);
  long long after_round[kRounds] = {};
  sim->machine.run([&after_round](Node& node) -> Task<> {
    auto& s = node.state<Round>();
    const int p = node.nodes();
    const std::uint32_t buf = node.allocate(256), in = node.allocate(256);
    for (int r = 0; r < kRounds; ++r) {
      s.replies = 0;
      for (int d = 1; d < p; ++d) co_await node.request((node.id() + d) % p, &on_request, r, d);
      co_await node.wait_until([&s, p] { return s.replies == p - 1; });
      co_await node.put((node.id() + r + 1) % p, buf, in, 200);
      co_await node.get((node.id() + 3) % p, buf, in, 100);
      co_await node.sync();
      co_await node.compute(50);
      (void)co_await node.reduce(r, ReduceOp::Sum);
      co_await node.barrier();
      if (node.id() == 0) after_round[r] = g_allocations.load(std::memory_order_relaxed);
    }
  });
  EXPECT_EQ(after_round[kRounds - 1] - after_round[3], 0)
      << "allocations in rounds 4.." << kRounds - 1 << " (after round 1: " << after_round[1] - after_round[0]
      << ", round 2: " << after_round[2] - after_round[1] << ")";
}

TEST(AmAllocation, SteadyStateRoundsAllocateNothing) {
  steady_state_rounds_allocate_nothing(false);
}

// The DMA engines' packets and the interfaces' answers allocate nothing either.
TEST(AmAllocation, SteadyStateRoundsAllocateNothingWithDma) {
  steady_state_rounds_allocate_nothing(true);
}

}  // namespace
}  // namespace mppnet::am::zero_allocation_test
