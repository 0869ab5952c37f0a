// machines/cm5/control_collectives_test.cpp: node programs' collectives on the control network.
#include "machines/cm5/control_collectives.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <limits>

#include "am/node.hpp"
#include "machines/cm5/node_machine.hpp"

namespace mppnet::machines::cm5 {
namespace {

constexpr am::ReduceOp kOps[] = {am::ReduceOp::Sum,      am::ReduceOp::Min,     am::ReduceOp::Max,
                                 am::ReduceOp::And,      am::ReduceOp::Or,      am::ReduceOp::Xor,
                                 am::ReduceOp::FloatMax, am::ReduceOp::FloatSum};
constexpr int kOpCount = 8;

struct Seen {
  std::vector<std::uint64_t> values;  // every collective's result, in call order
};

// Values with both signs and both halves of the 64 bits in use; for the floating-point operators,
// doubles of both signs (and both zeros) whose sums are exact, so any order of addition gives them.
std::uint64_t value_of(NodeId v, int op) {
  if (kOps[op] == am::ReduceOp::FloatMax || kOps[op] == am::ReduceOp::FloatSum) {
    const double d = v == 7 ? -0.0 : (v % 3 == 0 ? -1.0 : 1.0) * (0.25 * v);
    return std::bit_cast<std::uint64_t>(v == 9 ? 0.0 : d);
  }
  const std::int64_t x = (static_cast<std::int64_t>(v) * 0x9e3779b97f4a7c15LL) >> (op + 3);
  return static_cast<std::uint64_t>(v % 3 == 0 ? -x : x);
}

std::vector<Seen> run_all(CollectivesPath path, const std::vector<NodeId>& mapped_out = {}) {
  Cm5Config config;
  config.machine.nodes = 64;
  config.control_network.collectives = path;
  config.faults.map_out_nodes = mapped_out;
  Cm5NodeMachine host(config, cm5_am_params());
  std::vector<Seen> seen(static_cast<std::size_t>(host.machine().nodes()));
  host.machine().attach(seen);
  host.machine().run([](am::Node& node) -> am::Task<> {
    auto& out = node.state<Seen>().values;
    for (int i = 0; i < kOpCount; ++i) {
      const std::uint64_t x = value_of(node.id(), i);
      out.push_back(co_await node.reduce(x, kOps[i]));
      out.push_back(co_await node.scan(x, kOps[i], false));
      out.push_back(co_await node.scan(x, kOps[i], true));
    }
    out.push_back(co_await node.broadcast(node.id() == 5 ? 0x0123456789abcdefULL : 0, 5));
    co_await node.barrier();
  });
  return seen;
}

std::uint64_t expected_reduce(int nodes, int op, int upto) {
  std::uint64_t acc = am::identity(kOps[op]);
  for (NodeId v = 0; v < upto && v < nodes; ++v) acc = am::apply(kOps[op], acc, value_of(v, op));
  return acc;
}

TEST(ControlCollectives, HardwareGivesWhatSoftwareAndASerialLoopGive) {
  const auto hw = run_all(CollectivesPath::Hardware);
  const auto sw = run_all(CollectivesPath::Software);
  ASSERT_EQ(hw.size(), 64u);
  for (NodeId v = 0; v < 64; ++v) {
    EXPECT_EQ(hw[v].values, sw[v].values) << "node " << v;
    for (int i = 0; i < kOpCount; ++i) {
      EXPECT_EQ(hw[v].values[3 * i], expected_reduce(64, i, 64)) << "reduce op " << i;
      EXPECT_EQ(hw[v].values[3 * i + 1], expected_reduce(64, i, v)) << "exclusive scan op " << i;
      EXPECT_EQ(hw[v].values[3 * i + 2], expected_reduce(64, i, v + 1)) << "inclusive scan op " << i;
    }
    EXPECT_EQ(hw[v].values[3 * kOpCount], 0x0123456789abcdefULL);
  }
}

TEST(ControlCollectives, MappedOutNodesAbstain) {
  // Physical nodes 4-7 are out: the 60 program nodes combine over themselves only (V31).
  const auto hw = run_all(CollectivesPath::Hardware, {4, 5, 6, 7});
  const auto sw = run_all(CollectivesPath::Software, {4, 5, 6, 7});
  ASSERT_EQ(hw.size(), 60u);
  for (NodeId v = 0; v < 60; ++v) EXPECT_EQ(hw[v].values, sw[v].values) << "node " << v;
}

TEST(ControlCollectives, ABarrierTakesTheDerivedTime) {
  // 32 nodes: the push (a descriptor store, one word, the status load: 3 x 3 cycles at 32 MHz =
  // 281.25 ns) misses slot 0 and leaves in slot 1 (325 ns); 2 x 5 levels of 13 cycles at 40 MHz later
  // (3,250 ns) the result is in every interface; the pop (status and word loads: 6 cycles, 187.5 ns).
  Cm5Config config;
  config.machine.nodes = 32;
  Cm5NodeMachine host(config, cm5_am_params());
  std::vector<Picoseconds> left(32);
  host.machine().attach(left);
  host.machine().run([](am::Node& node) -> am::Task<> {
    co_await node.barrier();
    node.state<Picoseconds>() = node.now();
  });
  for (const Picoseconds t : left) EXPECT_EQ(t, 325'000 + 3'250'000 + 187'500);
}

// What a node of the broadcast tests ends with: the bytes it looked at, and when.
struct BlockSeen {
  std::vector<std::byte> block;
  Picoseconds end = 0;
};

// Runs `program` on every node of a 32-node CM-5 (collectives on `path`, control send FIFOs of `fifo`
// words); returns what each node left in its BlockSeen.
template <class Program>
std::vector<BlockSeen> run_32(Program program, CollectivesPath path = CollectivesPath::Hardware,
                              int fifo = 16) {
  Cm5Config config;
  config.machine.nodes = 32;
  config.control_network.collectives = path;
  config.control_network.ni_fifo_packets = fifo;
  Cm5NodeMachine host(config, cm5_am_params());
  std::vector<BlockSeen> seen(32);
  host.machine().attach(seen);
  host.machine().run(program);
  return seen;
}

TEST(ControlCollectives, AOneValueBroadcastTakesTheDerivedTime) {
  // 32 nodes, root 5: the push (descriptor, 2 words, status load: 4 x 3 cycles = 375 ns) misses slot 1;
  // its words leave in slots 2 and 3 (650 and 975 ns), the message is in every interface 3,250 ns after
  // its last word left (4,225 ns), and the pop (status and 2 word loads: 9 cycles, 281.25 ns) ends at
  // 4,506.25 ns on every node.
  const auto seen = run_32([](am::Node& node) -> am::Task<> {
    const std::uint64_t got = co_await node.broadcast(node.id() == 5 ? 0x0123456789abcdefULL : 0, 5);
    auto& out = node.state<BlockSeen>();
    out.end = node.now();
    out.block.resize(8);
    std::memcpy(out.block.data(), &got, 8);
  });
  const std::uint64_t want = 0x0123456789abcdefULL;
  for (NodeId v = 0; v < 32; ++v) {
    EXPECT_EQ(std::memcmp(seen[v].block.data(), &want, 8), 0) << "node " << v;
    EXPECT_EQ(seen[v].end, 4'506'250) << "node " << v;
  }
}

// Node 3 broadcasts a block of 100 bytes (25 words) on 32 nodes.
std::vector<BlockSeen> broadcast_block(CollectivesPath path) {
  return run_32(
      [](am::Node& node) -> am::Task<> {
        const std::uint32_t at = node.allocate(100);
        if (node.id() == 3)
          for (std::uint32_t i = 0; i < 100; ++i)
            node.store_local(at + i, static_cast<std::uint8_t>(7 * i + 1));
        co_await node.broadcast_block(3, at, 100);
        auto& out = node.state<BlockSeen>();
        out.block.assign(node.memory().begin() + at, node.memory().begin() + at + 100);
        out.end = node.now();
      },
      path);
}

TEST(ControlCollectives, ABlockBroadcastReachesEveryNodeInTheDerivedTime) {
  // 25 words go as user broadcasts of 8, 8, 8 and 1 words (L496-497). Slots are 325 ns, a processor
  // cycle 31.25 ns; a push of w words costs 3 (w + 1) + 3 cycles, a pop 3 w + 3 (the cost model).
  // Pushes: message 0 at 937.5 ns, its words leave in slots 3-10; message 1 at 1,875 (5 words still
  // wait, 13 fit the 16-word FIFO); message 2 fails at 2,812.5 (10 wait) and goes at 3,750 (7 wait);
  // message 3 at 4,031.25. The FIFO never runs dry, so the words leave in slots 3-27 and a message
  // arrives 3,250 ns (2 x 5 levels of 13 cycles at 40 MHz) after its last word leaves: 6,500, 9,100,
  // 11,700 and 12,025 ns. Pops of 843.75 ns (8 words) from each arrival: 7,343.75, 9,943.75,
  // 12,543.75; the last (1 word, 187.5 ns) ends at 12,731.25, rounded up to whole processor cycles from
  // the wake at 12,025: 12,743.75 ns.
  const auto hw = broadcast_block(CollectivesPath::Hardware);
  const auto sw = broadcast_block(CollectivesPath::Software);
  std::vector<std::byte> want(100);
  for (int i = 0; i < 100; ++i) want[i] = static_cast<std::byte>(7 * i + 1);
  for (NodeId v = 0; v < 32; ++v) {
    EXPECT_EQ(hw[v].block, want) << "node " << v;
    EXPECT_EQ(sw[v].block, want) << "node " << v;
    EXPECT_EQ(hw[v].end, 12'743'750) << "node " << v;
  }
}

TEST(ControlCollectives, BlocksOfAnySizeFollowOneAnother) {
  // An empty block, 13 bytes (a last word of one byte), then 100 bytes, from different roots: every
  // node ends with both blocks, on either path, and with send FIFOs of 4 words (messages of 4 words, not
  // 8, which such a FIFO could never take); the bytes around them are untouched.
  for (const auto& [path, fifo] :
       {std::pair{CollectivesPath::Hardware, 16}, std::pair{CollectivesPath::Software, 16},
        std::pair{CollectivesPath::Hardware, 4}}) {
    const auto seen = run_32(
        [](am::Node& node) -> am::Task<> {
          const std::uint32_t at = node.allocate(128);
          for (std::uint32_t i = 0; i < 128; ++i)
            node.store_local(at + i,
                             static_cast<std::uint8_t>(node.id() == 0 || node.id() == 31 ? 3 * i + 2 : 0));
          co_await node.broadcast_block(0, at, 0);
          co_await node.broadcast_block(0, at + 1, 13);
          co_await node.broadcast_block(31, at + 20, 100);
          auto& out = node.state<BlockSeen>();
          out.block.assign(node.memory().begin() + at, node.memory().begin() + at + 128);
        },
        path, fifo);
    for (NodeId v = 0; v < 32; ++v) {
      for (int i = 0; i < 128; ++i) {
        const bool sent = (i >= 1 && i < 14) || (i >= 20 && i < 120);
        const auto want = static_cast<std::byte>(sent || v == 0 || v == 31 ? 3 * i + 2 : 0);
        ASSERT_EQ(seen[v].block[i], want) << "node " << v << ", byte " << i;
      }
    }
  }
}

TEST(ControlCollectives, ABlockFromNoNodeOrOutsideTheMemoryIsRefused) {
  Cm5Config config;
  config.machine.nodes = 32;
  for (const bool bad_root : {true, false}) {
    Cm5NodeMachine host(config, cm5_am_params());
    EXPECT_THROW(host.machine().run([bad_root](am::Node& node) -> am::Task<> {
      const auto size = static_cast<std::uint32_t>(node.memory().size());
      co_await node.broadcast_block(bad_root ? 32 : 0, bad_root ? 0 : size - 4, 8);
    }),
                 std::out_of_range);
  }
}

TEST(ControlCollectives, AMismatchedSequenceIsAnError) {
  Cm5Config config;
  config.machine.nodes = 32;
  Cm5NodeMachine host(config, cm5_am_params());
  EXPECT_THROW(host.machine().run([](am::Node& node) -> am::Task<> {
    if (node.id() == 0) {
      co_await node.scan(1, am::ReduceOp::Sum, false);
    } else {
      co_await node.reduce(1, am::ReduceOp::Sum);
    }
  }),
               std::runtime_error);
}

}  // namespace
}  // namespace mppnet::machines::cm5
