// machines/metro/mrp/mrp_network_test.cpp: one router's connection state machine, driven word by word.
//
// The network is Fig 4.4's (= Fig 3.11): 16 nodes, r = d = 2, 4 stages, byte-wide words with 2-bit fields.
// The test drives node 5's network input by hand and reads what comes back on it; R1 is the stage-1
// router that input feeds. Route to node 15 (digits 1111): R1 must take one of its direction-1 backward
// ports, 2 or 3 (port = direction * d + copy).
#include "machines/metro/mrp/mrp_network.hpp"

#include <set>

#include <gtest/gtest.h>

#include "machines/metro/params_for_test.hpp"

namespace mppnet::machines::metro::mrp {
namespace {

struct OneRouter {
  Multibutterfly graph = build_instance(params(2, 2, 4, Wiring::Deterministic), 1, 0);
  MrpNetwork net;
  LinkId in;
  RouterId r1;
  int fp;
  explicit OneRouter(std::uint64_t seed = 1)
      : net(graph, MrpParams{}, seed),
        in(net.source_link(5, 0)),
        r1(net.link_target(in)),
        fp(net.link_port(in)) {}
  // Drives `w` on node 5's input in this cycle, then ends the cycle; returns what came back up in it.
  Word drive(Word w) {
    net.put_down(in, w);
    net.step();
    return net.up_arriving(in);
  }
  Word route() const { return net.format().payload(0b01010101, Tag::Route, 0); }  // direction 1 everywhere
};

TEST(MrpRouter, RouteTakesAFreePortOfTheRequestedDirection) {
  OneRouter t;
  EXPECT_EQ(t.net.stage_of(t.r1), 1);
  t.drive(t.route());
  EXPECT_EQ(t.net.state(t.r1, t.fp), PortState::Idle);  // the word is read in the next cycle
  t.drive(t.net.format().idle());
  EXPECT_EQ(t.net.state(t.r1, t.fp), PortState::Forward);
  const int bp = t.net.connection(t.r1, t.fp);
  EXPECT_TRUE(bp == 2 || bp == 3) << bp;
  EXPECT_TRUE(t.net.backward_busy(t.r1, bp));
}

TEST(MrpRouter, RandomChoiceUsesBothEquivalentPortsAndTheSameSeedRepeatsIt) {
  // Over 200 seeds both ports of direction 1 are taken (each with probability 1/2: missing one has
  // probability 2^-199), and a seed always makes the same choice.
  std::set<int> seen;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    OneRouter a(seed), b(seed);
    a.drive(a.route());
    a.drive(a.net.format().idle());
    b.drive(b.route());
    b.drive(b.net.format().idle());
    EXPECT_EQ(a.net.connection(a.r1, a.fp), b.net.connection(b.r1, b.fp));
    seen.insert(a.net.connection(a.r1, a.fp));
  }
  EXPECT_EQ(seen, (std::set<int>{2, 3}));
}

TEST(MrpRouter, DropFreesTheBackwardPortAsItPasses) {
  OneRouter t;
  const WordFormat& f = t.net.format();
  t.drive(t.route());
  t.drive(f.payload(7, Tag::Data, 1));
  const int bp = t.net.connection(t.r1, t.fp);
  t.drive(f.drop());  // R1 reads D1 here
  EXPECT_EQ(t.net.state(t.r1, t.fp), PortState::Forward);
  t.drive(f.idle());  // ... and the DROP here: it goes on and the port is free
  EXPECT_EQ(t.net.state(t.r1, t.fp), PortState::Idle);
  EXPECT_FALSE(t.net.backward_busy(t.r1, bp));
  EXPECT_EQ(t.net.down_arriving(t.net.backward_link(t.r1, bp)).tag, Tag::Drop);
}

TEST(MrpRouter, BlockedConnectionAnswersTurnWithStatusChecksumDrop) {
  OneRouter t;
  const WordFormat& f = t.net.format();
  t.net.deselect_backward(t.r1, 2);  // both direction-1 ports deselected: they look busy (§4.9.1)
  t.net.deselect_backward(t.r1, 3);
  const Word r = t.route(), d1 = f.payload(0x3c, Tag::Data, 1);
  t.drive(r);
  t.drive(d1);
  EXPECT_EQ(t.net.state(t.r1, t.fp), PortState::Blocked);
  for (int port = 0; port < t.net.backward_ports(t.r1); ++port) EXPECT_FALSE(t.net.backward_busy(t.r1, port));
  t.drive(f.turn());                      // R1 discards D1 (it still enters the checksum)
  const Word status = t.drive(f.idle());  // R1 reads TURN: STATUS goes up in this cycle
  const Word checksum = t.drive(f.idle());
  const Word drop = t.drive(f.idle());
  EXPECT_EQ(f.classify(status), Kind::D);
  EXPECT_TRUE(f.status_blocked(status));
  EXPECT_EQ(checksum.data, r.data ^ d1.data);  // LRC over the ROUTE and the data (L1437)
  EXPECT_EQ(f.classify(drop), Kind::Z);
  EXPECT_EQ(t.net.state(t.r1, t.fp), PortState::Idle);
}

TEST(MrpRouter, DeselectedForwardPortIgnoresARoute) {
  OneRouter t;
  t.net.deselect_forward(t.r1, t.fp);
  t.drive(t.route());
  t.drive(t.net.format().idle());
  EXPECT_EQ(t.net.state(t.r1, t.fp), PortState::Idle);
  for (int port = 0; port < t.net.backward_ports(t.r1); ++port) EXPECT_FALSE(t.net.backward_busy(t.r1, port));
}

TEST(MrpRouter, TwoRequestsForOneFreePortBlockOneOfThem) {
  // Node 5's two inputs may feed different routers; find two inputs into one stage-1 router instead.
  OneRouter t;
  const WordFormat& f = t.net.format();
  LinkId other = -1;
  for (NodeId x = 0; x < t.net.nodes() && other < 0; ++x)
    for (int q = 0; q < t.net.node_inputs(); ++q) {
      const LinkId l = t.net.source_link(x, q);
      if (l != t.in && t.net.link_target(l) == t.r1) other = l;
    }
  ASSERT_GE(other, 0);
  t.net.deselect_backward(t.r1, 3);  // one port left in direction 1
  t.net.put_down(other, t.route());
  t.drive(t.route());
  t.drive(f.idle());
  const PortState a = t.net.state(t.r1, t.fp), b = t.net.state(t.r1, t.net.link_port(other));
  EXPECT_TRUE((a == PortState::Forward && b == PortState::Blocked) ||
              (a == PortState::Blocked && b == PortState::Forward));
  EXPECT_TRUE(t.net.backward_busy(t.r1, 2));
}

}  // namespace
}  // namespace mppnet::machines::metro::mrp
