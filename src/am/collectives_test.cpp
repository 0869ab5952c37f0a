// am/collectives_test.cpp: the software tree's results, checked against sums computed here directly.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include <bit>

#include "am/am_test_util.hpp"
#include "am/machine.hpp"
#include "am/node.hpp"

namespace mppnet::am {
namespace {

using testing::make;
using testing::mesh;
using testing::router;

// Node i contributes value(i) = (i * 37 + 11) % 23 - 9, a mix of signs (as int64).
std::uint64_t value(int i) {
  return static_cast<std::uint64_t>(static_cast<std::int64_t>((i * 37 + 11) % 23) - 9);
}

struct Results {
  std::uint64_t sum, min, max, band, bor, bxor, bcast, inc_sum, exc_sum, exc_max;
  Picoseconds barrier_left;
};

// 4 nodes (2x2 mesh), 9 (3x3) and 25 (5x5): the last two not powers of two, so the binomial tree is ragged.
class AmCollectives : public ::testing::TestWithParam<int> {};

TEST_P(AmCollectives, MatchDirectComputation) {
  const int k = GetParam();
  const int p = k * k;
  auto sim = make(mesh(k), router(2), AmParams{});
  std::vector<Results> r(p);
  std::vector<Picoseconds> arrived(p);
  sim->machine.attach(r);
  sim->machine.run([&arrived](Node& node) -> Task<> {
    auto& out = node.state<Results>();
    const std::uint64_t v = value(node.id());
    out.sum = co_await node.reduce(v, ReduceOp::Sum);
    out.min = co_await node.reduce(v, ReduceOp::Min);
    out.max = co_await node.reduce(v, ReduceOp::Max);
    out.band = co_await node.reduce(v | 0x100, ReduceOp::And);
    out.bor = co_await node.reduce(v & 0xff, ReduceOp::Or);
    out.bxor = co_await node.reduce(v, ReduceOp::Xor);
    out.bcast = co_await node.broadcast(node.id() == 3 ? 0xabcdef0123ull : 99, 3);
    out.inc_sum = co_await node.scan(v, ReduceOp::Sum, true);
    out.exc_sum = co_await node.scan(v, ReduceOp::Sum, false);
    out.exc_max = co_await node.scan(v, ReduceOp::Max, false);
    // Nodes reach the barrier at different times; nobody may leave before the last has arrived.
    co_await node.compute(100 * node.id());
    arrived[node.id()] = node.now();
    co_await node.barrier();
    out.barrier_left = node.now();
  });
  std::int64_t sum = 0, mn = INT64_MAX, mx = INT64_MIN;
  std::uint64_t band = ~0ull, bor = 0, bxor = 0;
  for (int i = 0; i < p; ++i) {
    const auto s = static_cast<std::int64_t>(value(i));
    sum += s;
    mn = std::min(mn, s);
    mx = std::max(mx, s);
    band &= value(i) | 0x100;
    bor |= value(i) & 0xff;
    bxor ^= value(i);
  }
  const Picoseconds last_arrival = *std::max_element(arrived.begin(), arrived.end());
  std::int64_t prefix = 0, prefix_max = INT64_MIN;
  for (int i = 0; i < p; ++i) {
    EXPECT_EQ(r[i].sum, static_cast<std::uint64_t>(sum));
    EXPECT_EQ(r[i].min, static_cast<std::uint64_t>(mn));
    EXPECT_EQ(r[i].max, static_cast<std::uint64_t>(mx));
    EXPECT_EQ(r[i].band, band);
    EXPECT_EQ(r[i].bor, bor);
    EXPECT_EQ(r[i].bxor, bxor);
    EXPECT_EQ(r[i].bcast, 0xabcdef0123ull);
    EXPECT_EQ(r[i].exc_sum, static_cast<std::uint64_t>(prefix)) << i;
    EXPECT_EQ(r[i].exc_max, static_cast<std::uint64_t>(prefix_max)) << i;
    prefix += static_cast<std::int64_t>(value(i));
    prefix_max = std::max(prefix_max, static_cast<std::int64_t>(value(i)));
    EXPECT_EQ(r[i].inc_sum, static_cast<std::uint64_t>(prefix)) << i;
    EXPECT_GT(r[i].barrier_left, last_arrival) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(MeshSizes, AmCollectives, ::testing::Values(2, 3, 5));

// Collective hardware in the small: a combine completes for every node, at no cost, when the last node
// arrives (the CM-5 control network will add its own timing). Programs do not change.
class InstantCollectives final : public Collectives {
 public:
  explicit InstantCollectives(Machine& m) : machine_(m), values_(m.nodes()), results_(m.nodes()) {}
  std::string path() const override { return "instant"; }
  Task<Combined> run(Node& node, Collective, std::uint64_t value, ReduceOp op, NodeId) override {
    values_[node.id()] = value;
    const int generation = generation_;
    if (++arrived_ == machine_.nodes()) {
      std::uint64_t prefix = identity(op), total = identity(op);
      for (const auto v : values_) total = apply(op, total, v);
      for (std::size_t i = 0; i < values_.size(); ++i) {
        results_[i] = {total, prefix};
        prefix = apply(op, prefix, values_[i]);
      }
      arrived_ = 0;
      ++generation_;
      for (NodeId v = 0; v < machine_.nodes(); ++v) machine_.notify(v);
    }
    co_await node.wait_until([this, generation] { return generation_ > generation; });
    co_return results_[node.id()];
  }

 private:
  Machine& machine_;
  std::vector<std::uint64_t> values_;
  std::vector<Combined> results_;
  int arrived_ = 0;
  int generation_ = 0;
};

// Nodes arrive at the barrier at 100 * id cycles (10 ns each); with instant hardware every node leaves
// at the last arrival, 100 * 8 cycles = 8 us, and no packet is sent.
TEST(AmCollectivesInterface, AMachineCanPlugInItsOwnCollectives) {
  auto sim = make(mesh(3), router(2), AmParams{});
  sim->machine.set_collectives(std::make_unique<InstantCollectives>(sim->machine));
  std::vector<Picoseconds> left(9);
  std::vector<std::uint64_t> sums(9), scans(9);
  sim->machine.run([&](Node& node) -> Task<> {
    sums[node.id()] = co_await node.reduce(node.id() + 1, ReduceOp::Sum);
    scans[node.id()] = co_await node.scan(node.id() + 1, ReduceOp::Sum, true);
    co_await node.compute(100 * node.id());
    co_await node.barrier();
    left[node.id()] = node.now();
  });
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(sums[i], 45u);                                                 // 1 + 2 + ... + 9
    EXPECT_EQ(scans[i], static_cast<std::uint64_t>((i + 1) * (i + 2) / 2));  // 1 + ... + (i + 1)
    EXPECT_EQ(left[i], 800 * 10000);
  }
  EXPECT_EQ(sim->machine.totals().packets, 0);
}

// A root that is not a node is the caller's error, not a broadcast of 0.
TEST(AmCollectivesRoot, BroadcastFromANodeThatDoesNotExistThrows) {
  for (const NodeId root : {4, -1}) {
    auto sim = make(mesh(2), router(2), AmParams{});
    try {
      sim->machine.run([root](Node& node) -> Task<> { (void)co_await node.broadcast(7, root); });
      FAIL() << "no error for root " << root;
    } catch (const std::out_of_range& e) {
      EXPECT_EQ(std::string(e.what()), "node 0: broadcast from root " + std::to_string(root) +
                                           ", not a node of this 4-node machine");
    }
  }
}

}  // namespace
}  // namespace mppnet::am

namespace mppnet::am {
namespace {

std::uint64_t bits(double d) {
  return std::bit_cast<std::uint64_t>(d);
}

TEST(AmFloatOperators, ByHand) {
  EXPECT_EQ(apply(ReduceOp::FloatSum, bits(1.5), bits(2.25)), bits(3.75));
  EXPECT_EQ(apply(ReduceOp::FloatMax, bits(-1.0), bits(-2.0)), bits(-1.0));
  EXPECT_EQ(apply(ReduceOp::FloatMax, bits(-0.0), bits(0.0)), bits(0.0));  // -0 below +0
  EXPECT_EQ(apply(ReduceOp::FloatMax, bits(3.0), identity(ReduceOp::FloatMax)), bits(3.0));
  EXPECT_EQ(apply(ReduceOp::FloatSum, bits(-7.0), identity(ReduceOp::FloatSum)), bits(-7.0));
  // The order key: negative doubles below positive ones, larger magnitudes further out.
  EXPECT_LT(float_order(bits(-2.0)), float_order(bits(-1.0)));
  EXPECT_LT(float_order(bits(-1.0)), float_order(bits(-0.0)));
  EXPECT_LT(float_order(bits(-0.0)), float_order(bits(0.0)));
  EXPECT_LT(float_order(bits(0.5)), float_order(bits(1e300)));
}

}  // namespace
}  // namespace mppnet::am
