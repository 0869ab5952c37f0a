// machines/cns1/t1_machine_test.cpp: the T1 machine runs one program on every node of the mesh (SPMD):
// the example programs check their own results, the run is deterministic, and bad input is one error
// naming the config key (exit status 2 in mppnet).
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "machines/cns1/t1_machine.hpp"
#include "machines/cns1/t1_run_command.hpp"
#include "machines/cns1/t1_testing.hpp"

namespace mppnet::machines::cns1::t1_machine_test {
namespace {

T1Config config_for(const std::string& program, int nodes) {
  const std::string text =
      "[machine]\nmodel = \"t1\"\nnodes = " + std::to_string(nodes) + "\nprogram = \"" + program + "\"\n";
  return load_t1_text(text, "t1.toml", {});
}

// Runs `program` (built from examples/t1) on `nodes` nodes; every node must exit with status 0.
void expect_all_exit_zero(const std::string& program, int nodes) {
  T1Machine m(config_for(program, nodes));
  m.load_program();
  const MachineResult r = m.run();
  ASSERT_EQ(r.end, MachineEnd::AllExited) << program;
  for (int v = 0; v < nodes; ++v) {
    EXPECT_EQ(m.node(v).end(), NodeEnd::Exited) << program << " node " << v << ": " << m.node(v).message();
    EXPECT_EQ(m.node(v).exit_status(), 0) << program << " node " << v;
  }
}

TEST(T1Machine, ThePingPongProgramCompletesItsRoundTrips) {
  T1Machine m(config_for("t1_ping_pong", 16));
  m.load_program();
  ASSERT_EQ(m.run().end, MachineEnd::AllExited);
  EXPECT_EQ(m.node(0).exit_status(), 0);
  EXPECT_EQ(m.node(15).exit_status(), 0);
  EXPECT_EQ(m.node(0).output().rfind("ping-pong with node 15: 100 round trips in ", 0), 0u)
      << m.node(0).output();
  // 100 LP pings out of node 0 and 100 HP pongs out of node 15, nothing else.
  EXPECT_EQ(m.mesh().messages_sent(), 200);
  EXPECT_EQ(m.node(15).ni().events_taken()[static_cast<int>(Event::LowMessage)], 100u);
  EXPECT_EQ(m.node(0).ni().events_taken()[static_cast<int>(Event::HighMessage)], 100u);
}

TEST(T1Machine, TheAllToAllProgramDeliversEveryMessage) {
  for (const int nodes : {9, 16, 64}) {
    T1Machine m(config_for("t1_all_to_all", nodes));
    m.load_program();
    ASSERT_EQ(m.run().end, MachineEnd::AllExited) << nodes;
    for (int v = 0; v < nodes; ++v) EXPECT_EQ(m.node(v).exit_status(), 0) << nodes << " node " << v;
    EXPECT_EQ(m.mesh().messages_sent(), nodes * (nodes - 1));
    EXPECT_EQ(m.mesh().copies_delivered(), nodes * (nodes - 1));
  }
}

TEST(T1Machine, TheGetPutProgramSyncsOnItsAcknowledgements) {
  expect_all_exit_zero("t1_get_put", 16);
  expect_all_exit_zero("t1_get_put", 9);
}

TEST(T1Machine, TheMulticastProgramCoversTheCylinderOnce) {
  // Node 0: one row MCST (k - 1 copies) and two column MCSTs; every row node two column MCSTs: copies
  // k - 1 + k (k - 1) = k^2 - 1, one per node but node 0 (each program checks it got exactly one).
  for (const int k : {3, 4, 5}) {
    T1Machine m(config_for("t1_multicast", k * k));
    m.load_program();
    ASSERT_EQ(m.run().end, MachineEnd::AllExited) << k;
    for (int v = 0; v < k * k; ++v) EXPECT_EQ(m.node(v).exit_status(), 0) << k << " node " << v;
    EXPECT_EQ(m.mesh().copies_delivered(), k * k - 1);
    EXPECT_EQ(m.mesh().messages_sent(), 1 + 2 * k);
  }
}

TEST(T1Machine, ARunIsDeterministic) {
  auto record = [] {
    T1Machine m(config_for("t1_get_put", 16));
    m.load_program();
    const MachineResult r = m.run();
    return run_record(m, r).dump();
  };
  EXPECT_EQ(record(), record());
}

// Bad input: each is a core::ConfigError naming the key, which mppnet reports in one line with exit 2.
std::string config_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const core::ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(T1Machine, AMissingProgramIsAnErrorAtTheProgramKey) {
  const T1Config c = config_for("no_such_program", 16);
  const std::string e = config_error([&] { T1Machine(c).load_program(); });
  EXPECT_NE(e.find("t1.toml:4: machine.program: no program no_such_program among those the build made"),
            std::string::npos)
      << e;
  const std::string path = config_error([&] { T1Machine(config_for("missing/x.elf", 16)).load_program(); });
  EXPECT_NE(path.find("machine.program: missing/x.elf does not exist or is not a file"), std::string::npos)
      << path;
}

TEST(T1Machine, AnElfForAnotherMachineIsRefusedByTheLoader) {
  // This test's own executable is an ELF for the host, not a MIPS one.
  const std::string e = config_error([&] { T1Machine(config_for("/proc/self/exe", 16)).load_program(); });
  EXPECT_NE(e.find("machine.program: "), std::string::npos) << e;
  EXPECT_NE(e.find("MIPS"), std::string::npos) << e;
}

TEST(T1Machine, ANodeCountTheMeshCannotHaveIsRefused) {
  const std::string e = config_error([] { config_for("t1_ping_pong", 20); });
  EXPECT_EQ(e,
            "t1.toml:3: machine.nodes: the CNS-1 mesh is k x k nodes: 20 is not a square (the nearest are 16 "
            "and 25)");
  const std::string big = config_error([] { config_for("t1_ping_pong", 4096); });
  EXPECT_NE(big.find("machine.nodes: must be between 9 and 2048"), std::string::npos) << big;
}

// The NI's cost keys reach each node's NI: a multi-cycle SEND, and C10's kernel-trap baseline, whose
// dispatch costs kernel_trap_cycles in place of dispatch_cycles; a dispatch the model lacks is refused.
TEST(T1Machine, TheNiCostKeysReachTheNodesNi) {
  const std::string base = "[machine]\nmodel = \"t1\"\nnodes = 9\nprogram = \"t1_ping_pong\"\n[ni]\n";
  const NiConfig hardware =
      ni_config(load_t1_text(base + "send_extra_cycles = 7\nkernel_trap_cycles = 40\n", "t1.toml", {}), 0);
  EXPECT_EQ(hardware.timing.send_extra_cycles, 7u);
  EXPECT_EQ(hardware.timing.dispatch_cycles, 3u);
  const NiConfig trap = ni_config(
      load_t1_text(base + "event_dispatch = \"kernel_trap\"\nkernel_trap_cycles = 40\n", "t1.toml", {}), 0);
  EXPECT_EQ(trap.timing.dispatch_cycles, 40u);
  const std::string e =
      config_error([&] { load_t1_text(base + "event_dispatch = \"interrupt\"\n", "t1.toml", {}); });
  EXPECT_NE(e.find("t1.toml:6: ni.event_dispatch"), std::string::npos) << e;
}

TEST(T1Machine, AMessageToANodeThatDoesNotExistStopsTheRunWithAnError) {
  using namespace testing;
  T1Machine m(config_for("t1_ping_pong", 9));
  for (int v = 0; v < m.nodes(); ++v) {
    cns1::T1Node& n = m.node(v);
    n.memory().map(kCode, 0x1000, "code");
    for (std::uint32_t i = 0; i < 8; ++i)
      ASSERT_EQ(n.memory().store32(kCode + 4 * i, kNop), cpu::mips::Access::Ok);
    n.cpu().reset(kCode);
  }
  // Node 4: $16 = 9 (there are nodes 0..8), $17 = a handler, SEND0.
  cns1::T1Node& bad = m.node(4);
  ASSERT_EQ(bad.memory().store32(kCode, ori(s0, zero, 9)), cpu::mips::Access::Ok);
  ASSERT_EQ(bad.memory().store32(kCode + 4, ori(s1, zero, kHandler)), cpu::mips::Access::Ok);
  ASSERT_EQ(bad.memory().store32(kCode + 8, send(kSend, 0, s0, s1)), cpu::mips::Access::Ok);
  const std::string e = config_error([&] { m.run(); });
  EXPECT_EQ(
      e,
      "t1.toml:4: machine.program: node 4 sent a message to node 9 (destination register 0x00000009), but "
      "the machine has nodes 0 to 8 at pc 0x00001008");
}

TEST(T1Machine, AFaultingProgramEndsTheRunAsFailed) {
  T1Machine m(config_for("t1_ping_pong", 9));
  for (int v = 0; v < m.nodes(); ++v) m.node(v).cpu().reset(0x10);  // nothing mapped there
  const MachineResult r = m.run();
  EXPECT_EQ(r.end, MachineEnd::NodeFailed);
  EXPECT_EQ(m.node(0).end(), NodeEnd::Fault);
}

}  // namespace
}  // namespace mppnet::machines::cns1::t1_machine_test
