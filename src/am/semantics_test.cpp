// am/semantics_test.cpp: handlers are atomic, messages keep per-sender order where the network does.
#include <algorithm>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "am/am_test_util.hpp"
#include "am/node.hpp"

namespace mppnet::am {
namespace {

using testing::make;
using testing::mesh;
using testing::router;

struct Counter {
  std::uint32_t value = 0;
  std::vector<Picoseconds> handler_starts;  // at the home node
  std::vector<std::uint32_t> got;           // at every node: values fetch-and-add returned
  bool waiting = false;
};

void on_fetched(Incoming& in) {
  auto& s = in.node.state<Counter>();
  s.got.push_back(in.arg(0));
  s.waiting = false;
}
void on_fetch_add(Incoming& in) {
  auto& s = in.node.state<Counter>();
  s.handler_starts.push_back(in.now());
  const std::uint32_t old = s.value;
  s.value += in.arg(0);
  in.reply(&on_fetched, old);
}

// 16 nodes each fetch-and-add 1 at node 5, 10 times. A handler runs to completion: at the home node no
// two handlers overlap in simulated time (each takes dispatch 10 + receive 20 + copy 1 + reply send 20 +
// copy 1 = 52 cycles of 10 ns), and the returned values are exactly 0 .. 159, each once.
TEST(AmSemantics, HandlersRunAtomically) {
  auto sim = make(mesh(4), router(2), AmParams{});
  std::vector<Counter> st(16);
  sim->machine.attach(st);
  sim->machine.run([](Node& node) -> Task<> {
    auto& s = node.state<Counter>();
    for (int i = 0; i < 10; ++i) {
      s.waiting = true;
      co_await node.request(5, &on_fetch_add, 1);
      co_await node.wait_until([&s] { return !s.waiting; });
    }
  });
  EXPECT_EQ(st[5].value, 160u);
  auto starts = st[5].handler_starts;
  ASSERT_EQ(starts.size(), 160u);
  std::sort(starts.begin(), starts.end());
  for (std::size_t i = 1; i < starts.size(); ++i) EXPECT_GE(starts[i] - starts[i - 1], 52 * 10000) << i;
  std::vector<std::uint32_t> all;
  for (const auto& s : st) all.insert(all.end(), s.got.begin(), s.got.end());
  std::sort(all.begin(), all.end());
  for (std::uint32_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], i);
}

struct Order {
  std::vector<std::uint32_t> seen[16];
};
void on_numbered(Incoming& in) {
  in.node.state<Order>().seen[in.src()].push_back(in.arg(0));
}

// With one VC per virtual network and dimension-order routing, a mesh delivers the packets of one
// sender to one destination in the order sent; handlers then run in that order. Every node sends 40
// numbered requests to node 15 (and node 15 to itself, through loopback).
TEST(AmSemantics, PerSenderOrderIsKeptWhereTheNetworkKeepsIt) {
  auto sim = make(mesh(4), router(2, 2), AmParams{});
  Order order;
  sim->machine.node(15).user = &order;
  sim->machine.run([](Node& node) -> Task<> {
    for (std::uint32_t i = 0; i < 40; ++i) co_await node.request(15, &on_numbered, i);
  });
  for (int src = 0; src < 16; ++src) {
    ASSERT_EQ(order.seen[src].size(), 40u);
    for (std::uint32_t i = 0; i < 40; ++i) EXPECT_EQ(order.seen[src][i], i);
  }
}

void on_nothing(Incoming&) {}
void on_throw(Incoming& in) {
  throw std::logic_error("handler at node " + std::to_string(in.node.id()) + " failed");
}

// With am.interrupts = false the request waits while node 1 computes; its wait_until then handles it
// inside the awaiter's await_suspend. The handler's exception must come out of run() as it was thrown,
// not unwind into node 1's coroutine (which left the machine with a finished program in state Blocked).
TEST(AmSemantics, HandlerExceptionDuringABlockingWaitComesOutOfRun) {
  AmParams a;
  a.interrupts = false;
  a.send_queue_packets = 1;  // a second send right after the first finds the queue full
  for (const bool blocked_send : {false, true}) {
    auto sim = make(mesh(2), router(2), a);
    bool never = false;
    try {
      sim->machine.run([&never, blocked_send](Node& node) -> Task<> {
        if (node.id() == 0) co_await node.request(1, &on_throw);
        if (node.id() != 1) co_return;
        co_await node.compute(1000);
        if (blocked_send) {  // a full send queue: the send spins inside await_suspend, draining
          for (int i = 0; i < 16; ++i) co_await node.request(2, &on_nothing);
        }
        co_await node.wait_until([&never] { return never; });
      });
      FAIL() << "no error";
    } catch (const std::logic_error& e) {
      EXPECT_EQ(std::string(e.what()), "handler at node 1 failed");
    }
  }
}

// A machine built in code (not through the loader, which needs am.header_bytes >= 1) with no header: a
// request with no words and no data is still one flit, not an empty packet the network cannot carry.
TEST(AmSemantics, AnEmptyMessageIsOneFlit) {
  AmParams a;
  a.header_bytes = 0;
  auto sim = make(mesh(2), router(2), a);
  sim->machine.run([](Node& node) -> Task<> {
    if (node.id() == 0) co_await node.request(3, &on_nothing);
  });
  EXPECT_EQ(sim->machine.totals().flits, 1);
}

}  // namespace
}  // namespace mppnet::am
