// am/bulk_test.cpp: put, get, store and tagged send/receive move the bytes they should.
#include <gtest/gtest.h>

#include "am/am_test_util.hpp"
#include "am/node.hpp"

namespace mppnet::am {
namespace {

using testing::make;
using testing::mesh;
using testing::router;

std::byte pattern(int node, int i) {
  return static_cast<std::byte>((node * 131 + i * 7 + 3) & 0xff);
}

// Each of 9 nodes owns 4 areas of 100 bytes (not a multiple of the 16-byte packet payload): its own
// data, and one area each for what put, get, store and send bring in. Node i writes its data to node
// i + 1 by put and by store, reads node i - 1's by get, and sends it to node i + 1 by tagged send.
TEST(AmBulk, PutGetStoreAndSendMoveTheRightBytes) {
  constexpr std::uint32_t kBytes = 100;
  auto sim = make(mesh(3), router(2), AmParams{});
  const int p = 9;
  sim->machine.run([](Node& node) -> Task<> {
    const int p = node.nodes();
    const NodeId next = (node.id() + 1) % p, prev = (node.id() + p - 1) % p;
    const std::uint32_t mine = node.allocate(kBytes), put_in = node.allocate(kBytes),
                        get_in = node.allocate(kBytes), store_in = node.allocate(kBytes),
                        recv_in = node.allocate(kBytes);
    for (std::uint32_t i = 0; i < kBytes; ++i) node.store_local(mine + i, pattern(node.id(), i));
    co_await node.barrier();  // every node's data is in place before anyone reads it
    co_await node.put(next, mine, put_in, kBytes);
    co_await node.get(prev, mine, get_in, kBytes);
    co_await node.sync();
    co_await node.store(next, mine, store_in, kBytes);
    co_await node.store_sync(kBytes);
    if (node.id() % 2 == 0) {  // even nodes send first, odd receive first: no cycle of blocked sends
      co_await node.send(next, 42, mine, kBytes);
      co_await node.receive(prev, 42, recv_in, kBytes);
    } else {
      co_await node.receive(prev, 42, recv_in, kBytes);
      co_await node.send(next, 42, mine, kBytes);
    }
    co_await node.barrier();
  });
  for (NodeId v = 0; v < p; ++v) {
    const Node& n = sim->machine.node(v);
    const int prev = (v + p - 1) % p;
    // Areas as allocated: mine 0, put 104, get 208, store 312, receive 416 (8-byte aligned).
    for (std::uint32_t i = 0; i < kBytes; ++i) {
      ASSERT_EQ(n.load<std::byte>(104 + i), pattern(prev, i)) << "put at node " << v;
      ASSERT_EQ(n.load<std::byte>(208 + i), pattern(prev, i)) << "get at node " << v;
      ASSERT_EQ(n.load<std::byte>(312 + i), pattern(prev, i)) << "store at node " << v;
      ASSERT_EQ(n.load<std::byte>(416 + i), pattern(prev, i)) << "receive at node " << v;
    }
  }
  // Packets, with 7 data packets of at most 16 bytes per 100 bytes (6 * 16 + 4): put 7 + 7 acks, get 7
  // requests + 7 data, store 7, send 1 ready-to-send + 1 clear-to-send + 7 data = 44 per node; each
  // barrier is one up and one down message per node but the root, 2 * 8.
  EXPECT_EQ(sim->machine.totals().packets, 9 * 44 + 2 * 2 * 8);
}

}  // namespace
}  // namespace mppnet::am
