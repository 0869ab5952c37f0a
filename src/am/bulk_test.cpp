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
void put_get_store_and_send(bool dma) {
  constexpr std::uint32_t kBytes = 100;
  AmParams a;
  a.dma = dma;
  auto sim = make(mesh(3), router(2), a);
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

TEST(AmBulk, PutGetStoreAndSendMoveTheRightBytes) {
  put_get_store_and_send(false);
}

// The DMA engines send and answer the same packets (am.dma; the timing is dma_test.cpp's).
TEST(AmBulk, PutGetStoreAndSendMoveTheRightBytesByDma) {
  put_get_store_and_send(true);
}

// On 4 nodes, node i puts its data to node i + 1 and to itself, gets node i - 1's and its own, and stores
// to node i + 1; every area is 256 bytes apart. Checks every byte and the packet count: ceil(bytes /
// payload) data packets per transfer, each put and get packet answered by one reply.
void exchange(int payload, std::uint32_t bytes, bool dma = false) {
  SCOPED_TRACE(::testing::Message() << "payload " << payload << ", " << bytes << " bytes, dma " << dma);
  constexpr std::uint32_t kArea = 256;
  enum : std::uint32_t { kMine, kPut, kPutSelf, kGet, kGetSelf, kStore, kAreas };
  AmParams a;
  a.packet_payload_bytes = payload;
  a.dma = dma;
  auto sim = make(mesh(2), router(2, 32), a);
  const int p = 4;
  sim->machine.run([bytes](Node& node) -> Task<> {
    const int p = node.nodes();
    const NodeId next = (node.id() + 1) % p, prev = (node.id() + p - 1) % p;
    const std::uint32_t base = node.allocate(kAreas * kArea);
    for (std::uint32_t i = 0; i < bytes; ++i)
      node.store_local(base + kMine * kArea + i, pattern(node.id(), i));
    co_await node.barrier();
    co_await node.put(next, base + kMine * kArea, base + kPut * kArea, bytes);
    co_await node.put(node.id(), base + kMine * kArea, base + kPutSelf * kArea, bytes);
    co_await node.get(prev, base + kMine * kArea, base + kGet * kArea, bytes);
    co_await node.get(node.id(), base + kMine * kArea, base + kGetSelf * kArea, bytes);
    co_await node.sync();
    co_await node.store(next, base + kMine * kArea, base + kStore * kArea, bytes);
    co_await node.store_sync(bytes);
  });
  for (NodeId v = 0; v < p; ++v) {
    const Node& n = sim->machine.node(v);
    const int prev = (v + p - 1) % p;
    for (std::uint32_t i = 0; i < bytes; ++i) {
      ASSERT_EQ(n.load<std::byte>(kPut * kArea + i), pattern(prev, i)) << "put at node " << v;
      ASSERT_EQ(n.load<std::byte>(kPutSelf * kArea + i), pattern(v, i)) << "put to self at node " << v;
      ASSERT_EQ(n.load<std::byte>(kGet * kArea + i), pattern(prev, i)) << "get at node " << v;
      ASSERT_EQ(n.load<std::byte>(kGetSelf * kArea + i), pattern(v, i)) << "get from self at node " << v;
      ASSERT_EQ(n.load<std::byte>(kStore * kArea + i), pattern(prev, i)) << "store at node " << v;
    }
    // Nothing beyond the transfer was written (memory starts zeroed).
    EXPECT_EQ(n.load<std::byte>(kPut * kArea + bytes), std::byte{0}) << "node " << v;
    EXPECT_EQ(n.load<std::byte>(kGet * kArea + bytes), std::byte{0}) << "node " << v;
  }
  const std::int64_t k = (bytes + payload - 1) / payload;
  // 2 puts and 2 gets of k packets and k replies each, k stores; the barrier is 2 messages per node but
  // the root.
  EXPECT_EQ(sim->machine.totals().packets, p * (4 * 2 * k + k) + 2 * 3);
  // The barrier's own bytes, from a run of the barrier alone.
  auto barrier_only = make(mesh(2), router(2, 32), a);
  barrier_only->machine.run([](Node& node) -> Task<> { co_await node.barrier(); });
  EXPECT_EQ(sim->machine.totals().payload_bytes - barrier_only->machine.totals().payload_bytes,
            // data bytes 5 x bytes; words: put 1 + ack 0, get 3 + data 1, store 1 per packet
            p * (5 * static_cast<std::int64_t>(bytes) + 4 * k * (2 * (1 + 0) + 2 * (3 + 1) + 1)));
}

TEST(AmBulk, SizesBelowAtAndAboveOnePacketPayload) {
  for (const std::uint32_t bytes : {0u, 5u, 16u, 48u, 100u}) exchange(16, bytes);
}

TEST(AmBulk, SixtyFourBytePackets) {
  for (const std::uint32_t bytes : {0u, 5u, 64u, 128u, 200u}) exchange(64, bytes);
}

// The same transfers by the DMA engines, to other nodes and to the node itself (a loop in its interface).
TEST(AmBulk, DmaMovesEverySizeAndLoopsBackToItself) {
  for (const std::uint32_t bytes : {0u, 5u, 16u, 48u, 100u}) exchange(16, bytes, true);
  for (const std::uint32_t bytes : {0u, 64u, 200u}) exchange(64, bytes, true);
}

// A remote range past the end of memory is the initiator's error, reported by its own program.
TEST(AmBulk, RemoteRangeOutsideMemoryIsTheInitiatorsError) {
  for (const int op : {0, 1, 2}) {
    auto sim = make(mesh(2), router(2), AmParams{});
    try {
      sim->machine.run([op](Node& node) -> Task<> {
        const std::uint32_t buf = node.allocate(64);
        if (node.id() != 0) co_return;
        const std::uint32_t past = 65536 - 8;  // am.memory_bytes = 65536: 8 of the 16 bytes do not fit
        if (op == 0) co_await node.put(1, buf, past, 16);
        if (op == 1) co_await node.get(1, past, buf, 16);
        if (op == 2) co_await node.store(1, buf, past, 16);
      });
      FAIL() << "no error for op " << op;
    } catch (const std::out_of_range& e) {
      const char* want[] = {"node 0: put to node 1 at [65528, 65544) outside its memory of 65536 bytes",
                            "node 0: get from node 1 at [65528, 65544) outside its memory of 65536 bytes",
                            "node 0: store to node 1 at [65528, 65544) outside its memory of 65536 bytes"};
      EXPECT_EQ(std::string(e.what()), want[op]);
    }
  }
}

}  // namespace
}  // namespace mppnet::am
