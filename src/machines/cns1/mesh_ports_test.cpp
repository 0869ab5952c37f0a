// machines/cns1/mesh_ports_test.cpp: the NI on the CNS-1 mesh through its NiPort (note 002 §3.7,
// §3.13): the priorities as two networks, send failure without a trap, delivery into the NI's in-queue
// with backpressure, order per pair, and multicast along a row (B22) and round a ring (B23).
//
// An 8 x 8 machine: node id = x + 8 y, x (dimension 0) open, y (dimension 1) a ring; the note's node
// (r, c) is x = c, y = r, so a row is open and a column a ring, as in the note's B22 and B23.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "machines/cns1/mesh_probe.hpp"
#include "machines/cns1/ni_registers.hpp"

namespace mppnet::machines::cns1::mesh_ports_test {
namespace {

constexpr int kK = 8;
constexpr NodeId at(int x, int y) {
  return x + kK * y;
}

T1Config machine_config(int nodes = kK * kK) {
  return probe_config(nodes);
}
T1Message message(NodeId dest, Priority p, bool multicast = false, std::uint32_t w0 = 0) {
  return probe_message(dest, p, multicast, w0);
}
std::uint32_t dispatch_low(T1Machine& m, NodeId v) {
  return take_event(m, v);
}

TEST(T1Mesh, AMessageReachesItsDestinationsInQueueWithItsWords) {
  T1Machine m(machine_config());
  ASSERT_TRUE(m.mesh().port(at(1, 2)).try_send(message(at(6, 5), Priority::Low, false, 42)));
  run_mesh(m);
  for (NodeId v = 0; v < kK * kK; ++v)
    EXPECT_EQ(m.node(v).ni().queued(Priority::Low), v == at(6, 5) ? 1u : 0u) << v;
  dispatch_low(m, at(6, 5));
  EXPECT_EQ(m.node(at(6, 5)).cpu().gpr(4), 42u);
  EXPECT_EQ(m.node(at(6, 5)).cpu().pc(), 0x1400u);
  EXPECT_EQ(m.mesh().messages_sent(), 1);
  // 2 words of overhead + 1 data word, a word per flit, over 5 + 3 links (dimension order: 5 along the
  // row, then y 2 -> 5 the short way round the ring of 8, 3 up).
  EXPECT_EQ(m.mesh().flits_sent(), 3);
  EXPECT_EQ(link_flits(m), 3 * (5 + 3));
}

TEST(T1Mesh, ASendFailsWhenItsPriorityIsFullAndTheOtherStillGoes) {
  // B5/B6 on the mesh: one output slot per priority (A35). With the slot taken and not yet drained,
  // can_send is false and try_send refuses (the NI makes nicond = 0 of it, no trap), while the other
  // priority's slot is free.
  T1Machine m(machine_config());
  NiPort& port = m.mesh().port(at(0, 0));
  EXPECT_TRUE(port.can_send(Priority::Low));
  ASSERT_TRUE(port.try_send(message(at(3, 3), Priority::Low)));
  EXPECT_FALSE(port.can_send(Priority::Low));
  EXPECT_FALSE(port.try_send(message(at(3, 3), Priority::Low)));
  EXPECT_TRUE(port.can_send(Priority::High));
  EXPECT_TRUE(port.try_send(message(at(3, 3), Priority::High)));
  run_mesh(m);
  EXPECT_TRUE(port.can_send(Priority::Low)) << "the slot frees once the message left";
  EXPECT_EQ(m.node(at(3, 3)).ni().queued(Priority::Low), 1u);
  EXPECT_EQ(m.node(at(3, 3)).ni().queued(Priority::High), 1u);
}

TEST(T1Mesh, AFullInQueueBacksTheMeshUpToTheSenderAndNothingIsLost) {
  // §3.7: a receiver that takes no event keeps at most in_queue_messages (2) per priority; the rest wait
  // in the mesh, then at the sender, whose sends of that priority then fail. Nothing is dropped, and the
  // messages come out in send order once the receiver takes them.
  T1Machine m(machine_config());
  const NodeId to = at(4, 4), from = at(0, 4);
  int sent = 0, refused = 0;
  for (int i = 0; i < 400 && refused < 50; ++i) {
    if (m.mesh().port(from).try_send(message(to, Priority::Low, false, static_cast<std::uint32_t>(sent))))
      ++sent;
    else
      ++refused;
    run_mesh(m, 50'000);
  }
  EXPECT_GT(refused, 0) << "the sender's sends fail once the mesh is full";
  EXPECT_EQ(m.node(to).ni().queued(Priority::Low), 2u);
  EXPECT_TRUE(m.mesh().port(from).try_send(message(to, Priority::High))) << "high priority still passes";
  run_mesh(m);
  EXPECT_EQ(m.node(to).ni().queued(Priority::High), 1u);
  // Drain: take every low event; each message's word is its send index.
  for (int i = 0; i < sent; ++i) {
    ASSERT_GE(m.node(to).ni().queued(Priority::Low), 1u) << "message " << i << " lost";
    T1Node& n = m.node(to);
    n.ni().write_register(n.cpu(), kNistat, (n.ni().nistat() | nistat::kLpmm) & ~nistat::kHpmm);
    n.ni().at_boundary(n.cpu());
    EXPECT_EQ(n.cpu().gpr(4), static_cast<std::uint32_t>(i)) << "in send order";
    // Leave the LP level again (HRET's effect) so that the next LP event can be taken.
    n.ni().write_register(n.cpu(), kNistat, n.ni().nistat() | nistat::kLpee);
    m.mesh().service(to);
    run_mesh(m, 1'000'000);
  }
  EXPECT_EQ(m.node(to).ni().queued(Priority::Low), 0u);
}

TEST(T1Mesh, B22RowMulticastCopiesAtEveryNodeAfterTheSourceOverFiveLinks) {
  // Note 002 B22 (§3.13, L413): s = (r, 0), d = (r, 5) on the open dimension: copies at (r, 1) ... (r, 5),
  // each with mcst = 1, none at s; the message crosses 5 links, as a unicast to d does.
  for (const bool multicast : {true, false}) {
    T1Machine m(machine_config());
    const int r = 3;
    ASSERT_TRUE(m.mesh().port(at(0, r)).try_send(message(at(5, r), Priority::Low, multicast)));
    run_mesh(m);
    const std::set<NodeId> copies = nodes_holding(m, Priority::Low);
    if (multicast) {
      EXPECT_EQ(copies, (std::set<NodeId>{at(1, r), at(2, r), at(3, r), at(4, r), at(5, r)}));
      for (const NodeId v : copies) EXPECT_NE(dispatch_low(m, v) & nistat::kMcst, 0u) << v;
    } else {
      EXPECT_EQ(copies, (std::set<NodeId>{at(5, r)}));
      EXPECT_EQ(dispatch_low(m, at(5, r)) & nistat::kMcst, 0u);
    }
    EXPECT_EQ(link_flits(m), 5 * m.mesh().flits_sent()) << "5 link traversals per flit";
    EXPECT_EQ(m.mesh().copies_delivered(), multicast ? 5 : 1);
  }
}

TEST(T1Mesh, B23RingMulticastCoversTheShorterArcAndTwoCoverTheRing) {
  // Note 002 B23: on the ring dimension (size R = 8) one multicast covers the shorter arc only, at most
  // R/2 nodes; two in opposite directions cover the ring.
  T1Machine m(machine_config());
  const int x = 2;
  // Up 4 (a tie: the positive direction, A32) from y = 0, then 3 the other way (y = 5 is 3 down).
  ASSERT_TRUE(m.mesh().port(at(x, 0)).try_send(message(at(x, 4), Priority::High, true)));
  run_mesh(m);
  const std::set<NodeId> first = nodes_holding(m, Priority::High);
  EXPECT_EQ(first, (std::set<NodeId>{at(x, 1), at(x, 2), at(x, 3), at(x, 4)}));
  EXPECT_LE(first.size(), static_cast<std::size_t>(kK / 2));
  ASSERT_TRUE(m.mesh().port(at(x, 0)).try_send(message(at(x, 5), Priority::High, true)));
  run_mesh(m);
  const std::set<NodeId> both = nodes_holding(m, Priority::High);
  std::set<NodeId> column;
  for (int y = 1; y < kK; ++y) column.insert(at(x, y));
  EXPECT_EQ(both, column) << "the whole ring but the source";
  EXPECT_EQ(m.mesh().copies(at(x, 0), at(x, 5), true), 3);
}

TEST(T1Mesh, AMessageToANodeThatDoesNotExistIsRefusedByName) {
  T1Machine m(machine_config(16));
  try {
    m.mesh().port(3).try_send(message(16, Priority::Low));
    FAIL() << "no error";
  } catch (const BadDestination& e) {
    EXPECT_STREQ(e.what(),
                 "node 3 sent a message to node 16 (destination register 0x00000010), but the machine has "
                 "nodes 0 to 15");
  }
}

TEST(T1Mesh, MessageFlitsAreItsWordsInFlitsOfTheLinkWidth) {
  T1Message m = message(0, Priority::Low);
  m.scalar_count = 5;
  m.vector_length = 32;
  EXPECT_EQ(message_flits(m, 4), 2 + 5 + 32);
  EXPECT_EQ(message_flits(m, 8), 20);  // 39 words = 156 bytes in 8-byte flits
  m.scalar_count = 0;
  m.vector_length = 0;
  EXPECT_EQ(message_flits(m, 16), 1);
}

}  // namespace
}  // namespace mppnet::machines::cns1::mesh_ports_test
