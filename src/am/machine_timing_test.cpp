// am/machine_timing_test.cpp: the cost model and the network's latency add up exactly.
#include <gtest/gtest.h>

#include "am/am_test_util.hpp"
#include "am/node.hpp"

namespace mppnet::am::machine_timing_test {
namespace {

using testing::make;
using testing::mesh;
using testing::router;

struct PingState {
  bool got = false;
  Picoseconds done = -1;
};

void on_pong(Incoming& in) {
  in.node.state<PingState>().got = true;
}
void on_ping(Incoming& in) {
  in.node.state<PingState>().got = true;
  in.reply(&on_pong, in.arg(0));
}

// One request of 1 word from node 0 to its mesh neighbour 1, one reply of 1 word back; both programs
// wait (spinning) for their message. With the processor clock equal to the network cycle (10 ns), every
// charge is a whole number of cycles:
//   send      = send_cycles + copy * 1                         = 20 + 1       = 21
//   network   = L + R (P + L) + S - 1 with L = P = 1, R = 2 routers, S = ceil((4 + 4) / 4) = 2 flits = 6
//   handler   = entry + receive_cycles + copy * 1              (+ send + copy * 1 for the reply)
// interrupts: entry = dispatch_cycles = 10 -> request handler 10 + 20 + 1 + 21 = 52, reply handler 31;
// polling:    entry = poll_cycles = 5      -> 47 and 26.
// Round trip: 21 + 6 + 52 + 6 + 31 = 116 cycles (interrupts), 21 + 6 + 47 + 6 + 26 = 106 (polling).
Picoseconds ping_pong(bool interrupts) {
  AmParams a;
  a.clock_ps = 10000;
  a.interrupts = interrupts;
  auto sim = make(mesh(4), router(2), a);
  std::vector<PingState> st(16);
  sim->machine.attach(st);
  sim->machine.run([](Node& node) -> Task<> {
    auto& s = node.state<PingState>();
    if (node.id() == 0) {
      co_await node.request(1, &on_ping, 7);
      co_await node.wait_until([&s] { return s.got; });
      s.done = node.now();
    } else if (node.id() == 1) {
      co_await node.wait_until([&s] { return s.got; });
    }
  });
  return st[0].done;
}

TEST(AmTiming, PingPongIsSoftwareCostsPlusZeroLoadLatencyWithInterrupts) {
  EXPECT_EQ(ping_pong(true), 116 * 10000);
}

TEST(AmTiming, PingPongIsSoftwareCostsPlusZeroLoadLatencyWhenPolling) {
  EXPECT_EQ(ping_pong(false), 106 * 10000);
}

void on_note(Incoming& in) {
  in.node.state<PingState>().got = true;
}

// Node 0 sends node 1 a one-word request (no reply) that arrives at cycle 21 + 6 = 27, while node 1 is
// in compute(1000). With interrupts the handler (10 + 20 + 1 = 31 cycles) runs at once and delays the
// computation: node 1 sees the flag at 1000 + 31 = 1031. When polling, the message waits until the
// computation ends; the handler (5 + 20 + 1 = 26) runs in the wait that follows: 1000 + 26 = 1026.
Picoseconds compute_then_flag(bool interrupts) {
  AmParams a;
  a.clock_ps = 10000;
  a.interrupts = interrupts;
  auto sim = make(mesh(4), router(2), a);
  std::vector<PingState> st(16);
  sim->machine.attach(st);
  sim->machine.run([](Node& node) -> Task<> {
    auto& s = node.state<PingState>();
    if (node.id() == 0) co_await node.request(1, &on_note, 1);
    if (node.id() != 1) co_return;
    co_await node.compute(1000);
    co_await node.wait_until([&s] { return s.got; });
    s.done = node.now();
  });
  return st[1].done;
}

TEST(AmTiming, InterruptHandlerDelaysTheComputationItInterrupts) {
  EXPECT_EQ(compute_then_flag(true), 1031 * 10000);
}

TEST(AmTiming, PolledMessageWaitsForTheComputationToEnd) {
  EXPECT_EQ(compute_then_flag(false), 1026 * 10000);
}

// compute() charges cycles at the processor clock: 250 cycles at 4 ns = 1 us, with no network at all.
TEST(AmTiming, ComputeChargesProcessorCycles) {
  AmParams a;
  a.clock_ps = 4000;
  auto sim = make(mesh(2), router(2), a);
  Picoseconds end = -1;
  sim->machine.run([&end](Node& node) -> Task<> {
    co_await node.compute(250);
    if (node.id() == 0) end = node.now();
  });
  EXPECT_EQ(end, 1000000);
  EXPECT_EQ(sim->machine.totals().finish_ps, 1000000);
  EXPECT_EQ(sim->machine.totals().packets, 0);
  // The idle network is not stepped through the 100 network cycles (10 ns each) of the computation: only
  // the few cycles at the start before it counts as settled (channel latency + pipeline + 2).
  EXPECT_LT(sim->machine.totals().network_cycles, 10);
}

}  // namespace
}  // namespace mppnet::am::machine_timing_test
