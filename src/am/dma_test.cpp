// am/dma_test.cpp: a DMA engine (am.dma) costs the program one start-up and neither processor anything
// per packet; the time of every transfer below is derived by hand.
#include <gtest/gtest.h>

#include "am/am_test_util.hpp"
#include "am/node.hpp"

namespace mppnet::am {
namespace {

using testing::make;
using testing::mesh;
using testing::router;

// Node 0 and its mesh neighbour 1 on an idle 4x4 mesh, the processor clock equal to the network cycle
// (10 ns), so every time is a whole number of cycles. A packet of S flits takes L + R (P + L) + S - 1 =
// 1 + 2 * 2 + S - 1 = S + 4 cycles from its send to its delivery (machine_timing_test.cpp). With
// 4-byte flits and headers:
//   put data: 4 + 1 word + 16 bytes = 24 bytes = 6 flits: 10 cycles;  put ack: 4 bytes = 1 flit: 5
//   get request: 4 + 3 words = 16 bytes = 4 flits: 8 cycles;  get data: 24 bytes = 6 flits: 10
// An interface answers a DMA packet in the network cycle of its delivery, so its answer enters the
// network in the next cycle: 1 cycle of turnaround (a handler's reply is sent after the handler's cycles).
constexpr int kStartup = 30;
constexpr Picoseconds kCycle = 10000;

AmParams params(bool dma, bool interrupts = true) {
  AmParams a;
  a.clock_ps = kCycle;
  a.dma = dma;
  a.dma_startup_cycles = kStartup;
  a.interrupts = interrupts;
  return a;
}

struct Times {
  Picoseconds returned = -1;   // node 0: when put() or get() returned
  Picoseconds synced = -1;     // node 0: when sync() returned
  Picoseconds dest_done = -1;  // node 1: when its compute(1000) ended
};

// Node 0 moves `bytes` to (get: from) node 1 and syncs; node 1 computes 1000 cycles meanwhile.
Times transfer(const AmParams& a, bool get, std::uint32_t bytes) {
  auto sim = make(mesh(4), router(2), a);
  Times t;
  sim->machine.run([&t, get, bytes](Node& node) -> Task<> {
    const std::uint32_t buf = node.allocate(256);
    if (node.id() == 1) {
      co_await node.compute(1000);
      t.dest_done = node.now();
    }
    if (node.id() != 0) co_return;
    if (get) {
      co_await node.get(1, buf, buf, bytes);
    } else {
      co_await node.put(1, buf, buf, bytes);
    }
    t.returned = node.now();
    co_await node.sync();
    t.synced = node.now();
  });
  return t;
}

// With DMA: the start-up (30), the data (10), the turnaround (1), the ack (5): 46, and node 1's
// computation is not interrupted. Without: the send 20 + 5 words (25), the data (10, at 35),
// node 1's handler interrupting its computation, 10 + 20 + 5 and the ack's send 20 (55, ending at 90),
// the ack (5, at 95), node 0's handler 10 + 20 (125); node 1's computation ends 55 cycles late.
TEST(AmDma, OnePacketPutCostsOneStartupAndNoHandler) {
  const Times on = transfer(params(true), false, 16);
  EXPECT_EQ(on.returned, kStartup * kCycle);
  EXPECT_EQ(on.synced, (kStartup + 10 + 1 + 5) * kCycle);
  EXPECT_EQ(on.dest_done, 1000 * kCycle);
  const Times off = transfer(params(false), false, 16);
  EXPECT_EQ(off.returned, 25 * kCycle);
  EXPECT_EQ(off.synced, 125 * kCycle);
  EXPECT_EQ(off.dest_done, 1055 * kCycle);
}

// With DMA: 30 + request 8 + turnaround 1 + data 10 = 49. Without: send 20 + 3 (23), request 8 (31), node 1's
// handler 10 + 20 + 3 and the data's send 20 + 5 (58, to 89), data 10 (99), node 0's handler 10 + 20 + 5
// (134).
TEST(AmDma, OnePacketGetCostsOneStartupAndNoHandler) {
  const Times on = transfer(params(true), true, 16);
  EXPECT_EQ(on.returned, kStartup * kCycle);
  EXPECT_EQ(on.synced, (kStartup + 8 + 1 + 10) * kCycle);
  EXPECT_EQ(on.dest_done, 1000 * kCycle);
  const Times off = transfer(params(false), true, 16);
  EXPECT_EQ(off.returned, 23 * kCycle);
  EXPECT_EQ(off.synced, 134 * kCycle);
  EXPECT_EQ(off.dest_done, (1000 + 58) * kCycle);
}

// A put of n = 4 packets: with DMA the program is free after the start-up alone, and so it is for 32
// packets, which the engine sends as the send queue's 4 places allow; without, it pays n * (send 20 + copy 5)
// = 100 cycles, and the first packet's ack, back at 95 as in the one-packet put, interrupts the fourth send
// with its handler's 10 + 20: 130.
TEST(AmDma, BulkPutCostsTheProgramOneStartupInsteadOfASendPerPacket) {
  EXPECT_EQ(transfer(params(true), false, 64).returned, kStartup * kCycle);
  EXPECT_EQ(transfer(params(true), false, 512).returned, kStartup * kCycle);
  EXPECT_EQ(transfer(params(false), false, 64).returned, (4 * 25 + 30) * kCycle);
  AmParams slow = params(true);
  slow.dma_startup_cycles = 500;
  EXPECT_EQ(transfer(slow, false, 64).returned, 500 * kCycle);
}

// The program computes while its put is under way: it returns from the put at 30 and computes 100 cycles
// to 130; the ack is back at 46 and handled by the interface, so sync() returns at 130. Without DMA: the
// put returns at 25, the ack's handler (10 + 20) interrupts the computation at 95: 25 + 100 + 30 = 155.
Picoseconds put_then_compute(bool dma) {
  auto sim = make(mesh(4), router(2), params(dma));
  Picoseconds synced = -1;
  sim->machine.run([&synced](Node& node) -> Task<> {
    const std::uint32_t buf = node.allocate(64);
    if (node.id() != 0) co_return;
    co_await node.put(1, buf, buf, 16);
    co_await node.compute(100);
    co_await node.sync();
    synced = node.now();
  });
  return synced;
}

TEST(AmDma, APutOverlapsTheProgramsComputation) {
  EXPECT_EQ(put_then_compute(true), (kStartup + 100) * kCycle);
  EXPECT_EQ(put_then_compute(false), 155 * kCycle);
}

// Transfers queue on the engine: two puts back to back cost two start-ups (the second returns at 60), and
// the engine sends them and a store behind them in turn: every byte of the three reaches node 1.
TEST(AmDma, TransfersQueueOnTheEngineInOrder) {
  auto sim = make(mesh(4), router(2), params(true));
  Picoseconds second = -1;
  sim->machine.run([&second](Node& node) -> Task<> {
    const std::uint32_t buf = node.allocate(512);
    if (node.id() != 0) co_return;
    for (std::uint32_t i = 0; i < 512; ++i) node.store_local(buf + i, static_cast<std::uint8_t>(i * 7 + 1));
    co_await node.put(1, buf, buf, 160);
    co_await node.put(1, buf + 160, buf + 160, 160);
    second = node.now();
    co_await node.store(1, buf + 320, buf + 320, 192);
    co_await node.sync();
  });
  EXPECT_EQ(second, 2 * kStartup * kCycle);
  for (std::uint32_t i = 0; i < 512; ++i)
    ASSERT_EQ(sim->machine.node(1).load<std::uint8_t>(i), static_cast<std::uint8_t>(i * 7 + 1)) << i;
}

// Polling (am.interrupts = false): node 1's processor looks at nothing until its computation ends, but
// its interface answers the DMA at once: 46 as with interrupts. Without DMA the data waits: node 1's
// handler at 1000 (poll 5 + 20 + 5, ack send 20: 1050), the ack (1055), node 0's handler 5 + 20 (1080).
TEST(AmDma, InterfaceAnswersWhileTheProcessorComputesWithoutInterrupts) {
  const Times on = transfer(params(true, false), false, 16);
  EXPECT_EQ(on.synced, (kStartup + 10 + 1 + 5) * kCycle);
  EXPECT_EQ(on.dest_done, 1000 * kCycle);
  EXPECT_EQ(transfer(params(false, false), false, 16).synced, 1080 * kCycle);
}

// The same packets cross the network either way, and no handler runs for them with DMA: 4 data packets
// and 4 acks; without DMA one handler each.
TEST(AmDma, SamePacketsNoHandlers) {
  for (const bool dma : {false, true}) {
    auto sim = make(mesh(4), router(2), params(dma));
    sim->machine.run([](Node& node) -> Task<> {
      const std::uint32_t buf = node.allocate(64);
      if (node.id() != 0) co_return;
      co_await node.put(1, buf, buf, 64);
      co_await node.sync();
    });
    EXPECT_EQ(sim->machine.totals().packets, 8) << dma;
    EXPECT_EQ(sim->machine.totals().handlers, dma ? 0 : 8) << dma;
  }
}

}  // namespace
}  // namespace mppnet::am
