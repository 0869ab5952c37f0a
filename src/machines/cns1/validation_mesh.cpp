// machines/cns1/validation_mesh.cpp: behaviours B1, B5, B7, B22, B23 and B28 (note 002 §6.2) on the
// T1 machine's mesh: messages sent through the NIs' ports into an 8 x 8 cylinder (node id x + 8 y, x
// open, y a ring; the note's node (r, c) is x = c, y = r), taken by the receiving NIs as events; and the
// shipped get/put program on 16 nodes.
#include <set>
#include <string>

#include <fmt/format.h>

#include "machines/cns1/mesh_probe.hpp"
#include "machines/cns1/ni_registers.hpp"
#include "machines/cns1/validation.hpp"

namespace mppnet::machines::cns1 {

namespace {

using core::Evidence;

constexpr int kK = 8;
constexpr NodeId at(int x, int y) {
  return x + kK * y;
}
constexpr const char* kExact = "exact: a count of what the mesh delivered";
const std::string kMeshDoc = "Callahan, T1 Network Interface Specification, UCB/CSD-94-823 (1994)";
const char* kMesh = "8 x 8 T1 machine (dimension 1 a ring), default [ni] and [network]";

// B22: MCST from (r, 0) to (r, 5) on the open dimension (r = 3): what `what` asks of its copies.
enum class B22 { Copies, Misplaced, WithoutMcst, LinksPerFlit };
double b22(B22 what) {
  T1Machine m(probe_config(kK * kK));
  const int r = 3;
  MPPNET_ASSERT(m.mesh().port(at(0, r)).try_send(probe_message(at(5, r), Priority::Low, true)),
                "an empty mesh takes a message");
  run_mesh(m);
  const std::set<NodeId> copies = nodes_holding(m, Priority::Low);
  const std::set<NodeId> path = {at(1, r), at(2, r), at(3, r), at(4, r), at(5, r)};
  int misplaced = 0, without = 0;
  for (NodeId v = 0; v < m.nodes(); ++v) misplaced += (copies.count(v) > 0) != (path.count(v) > 0);
  for (const NodeId v : copies) without += (take_event(m, v) & nistat::kMcst) == 0;
  switch (what) {
    case B22::Copies:
      return static_cast<double>(copies.size());
    case B22::Misplaced:
      return misplaced;
    case B22::WithoutMcst:
      return without;
    case B22::LinksPerFlit:
      return static_cast<double>(link_flits(m)) / static_cast<double>(m.mesh().flits_sent());
  }
  return -1;
}

// B23: from (x, 0) round the ring of 8: one MCST 4 up (a tie, taken upwards, A32), then one 3 down.
double b23(bool both) {
  T1Machine m(probe_config(kK * kK));
  const int x = 2;
  m.mesh().port(at(x, 0)).try_send(probe_message(at(x, 4), Priority::High, true));
  run_mesh(m);
  if (both) {
    m.mesh().port(at(x, 0)).try_send(probe_message(at(x, 5), Priority::High, true));
    run_mesh(m);
  }
  return static_cast<double>(nodes_holding(m, Priority::High).size());
}

// B1: SEND3 with 1, 2, 3 to a node: the fields of its event that differ from B1's expectations (LP bank
// $4-$6 = 1, 2, 3, PC = the handler, pri 0, slen 3, vlen 0, mcst 0, inh = the handler, LPEE cleared).
double b1_mismatches() {
  T1Machine m(probe_config(kK * kK));
  T1Message msg = probe_message(at(6, 6), Priority::Low);
  msg.scalar_count = 3;
  msg.scalars = {1, 2, 3, 0, 0};
  m.mesh().port(at(1, 1)).try_send(msg);
  run_mesh(m);
  const std::uint32_t s = take_event(m, at(6, 6));
  T1Node& n = m.node(at(6, 6));
  int bad = 0;
  bad += n.cpu().gpr(4) != 1 || n.cpu().gpr(5) != 2 || n.cpu().gpr(6) != 3;
  bad += n.cpu().pc() != msg.handler;
  bad += (s & nistat::kPri) != 0;
  bad += ((s >> 8) & 7u) != 3;
  bad += (s & 0x3Fu) != 0;
  bad += (s & nistat::kMcst) != 0;
  bad += n.ni().read_register(n.cpu(), kInh) != msg.handler;
  bad += (s & nistat::kLpee) != 0;
  bad += n.ni().visible_bank() != Bank::Low;
  return bad;
}

// B5/B6: a receiver that takes no event; a sender sends LP to it until a send fails. Returns, after
// that failure, 1 if an HP send to it still succeeds and is delivered while LP stays blocked, else 0.
// B7: the LP messages, taken afterwards, counted out of send order.
struct Backlog {
  double high_passes = 0;
  double out_of_order = 0;
};
Backlog backlog() {
  T1Machine m(probe_config(kK * kK));
  const NodeId to = at(4, 4), from = at(0, 4);
  std::uint32_t sent = 0;
  bool refused = false;
  for (int i = 0; i < 1000 && !refused; ++i) {
    refused = !m.mesh().port(from).try_send(probe_message(to, Priority::Low, false, sent));
    sent += !refused;
    run_mesh(m, 100'000);
  }
  Backlog b;
  const bool high = refused && m.mesh().port(from).try_send(probe_message(to, Priority::High));
  run_mesh(m);
  b.high_passes =
      high && m.node(to).ni().queued(Priority::High) == 1 && !m.mesh().port(from).can_send(Priority::Low);
  // Take the HP message, leave its level, then every LP one in turn.
  T1Node& n = m.node(to);
  take_event(m, to);
  n.ni().write_register(n.cpu(), kEnable, 1);
  for (std::uint32_t i = 0; i < sent; ++i) {
    m.mesh().service(to);
    run_mesh(m, 1'000'000);
    if (n.ni().queued(Priority::Low) == 0) {
      b.out_of_order += sent - i;  // lost: counts as out of order
      break;
    }
    take_event(m, to);
    b.out_of_order += n.cpu().gpr(4) != i;
    n.ni().write_register(n.cpu(), kNistat, n.ni().nistat() | nistat::kLpee);
  }
  return b;
}

// B28: every node of the get/put program exits 0 only if its puts were acknowledged before its sync
// returned and the gets read them back.
double get_put_nodes_correct() {
  T1Machine m(program_config("t1_get_put", 16));
  m.load_program();
  m.run();
  int good = 0;
  for (int v = 0; v < m.nodes(); ++v)
    good += m.node(v).end() == NodeEnd::Exited && m.node(v).exit_status() == 0;
  return good;
}

// A shipped program on a machine of `nodes` nodes, [ni] and [network] as `adjust` leaves them: how
// the run ended, how many programs exited 0, what node 0 wrote, and whether the mesh was left stuck
// (flits in it and none moved for the last half of the run).
struct ProgramRun {
  MachineEnd end = MachineEnd::TimeLimit;
  int nodes_ok = 0;
  std::string node0_output;
  bool mesh_stuck = false;
};
template <class Adjust>
ProgramRun run_program(const std::string& program, int nodes, Adjust adjust) {
  T1Config c = program_config(program, nodes);
  adjust(c);
  T1Machine m(c);
  m.load_program();
  ProgramRun r;
  r.end = m.run().end;
  for (int v = 0; v < m.nodes(); ++v)
    r.nodes_ok += m.node(v).end() == NodeEnd::Exited && m.node(v).exit_status() == 0;
  r.node0_output = m.node(0).output();
  const net::NetworkModel& net = m.network();
  r.mesh_stuck = net.flits_in_network() > 0 && 2 * (net.now() - net.last_progress()) > net.now();
  return r;
}

// Small buffers: one flit per VC, one message per NI in-queue and output slot.
void small_buffers(T1Config& c) {
  c.network.buffer_flits = 1;
  c.ni.in_queue_messages = 1;
  c.ni.out_queue_messages = 1;
  c.run.max_cycles = 400'000;
}

// The number after `name` in node 0's "counter C distinct D" line of t1_fetch_add.
double fetch_add_figure(const std::string& name) {
  const std::string out = run_program("t1_fetch_add", 16, [](T1Config&) {}).node0_output;
  const auto at = out.find(name + " ");
  MPPNET_ASSERT(at != std::string::npos, "t1_fetch_add did not report");
  return std::stod(out.substr(at + name.size() + 1));
}

}  // namespace

void add_mesh_cases(std::vector<core::ValidationCase>& cases) {
  const std::string b22_source = kMeshDoc + ", §3.9 L405-L415, A.8 L1002-L1010; N §6.2 B22";
  const std::string b22_setup = std::string(kMesh) + "; MCST from node (3, 0) to (3, 5) along the open row";
  cases.push_back(core::exact_case(
      "t1.b22.row_multicast_copies", b22_source, b22_setup, "NIs holding a copy", 5,
      [] { return b22(B22::Copies); }, Evidence::Behaviour, kExact));
  cases.push_back(core::exact_case(
      "t1.b22.copies_off_the_path", b22_source, b22_setup,
      "nodes whose copy disagrees with (3, 1) ... (3, 5): a copy elsewhere (the "
      "source included) or none on the path",
      0, [] { return b22(B22::Misplaced); }, Evidence::Behaviour, kExact));
  cases.push_back(core::exact_case(
      "t1.b22.copies_without_mcst", b22_source, b22_setup, "copies whose event shows nistat.mcst = 0", 0,
      [] { return b22(B22::WithoutMcst); }, Evidence::Behaviour, kExact));
  cases.push_back(core::exact_case(
      "t1.b22.links_per_flit", b22_source, b22_setup,
      "router-to-router link traversals per flit sent (a unicast's: 5)", 5,
      [] { return b22(B22::LinksPerFlit); }, Evidence::Behaviour, kExact));
  const std::string b23_source = kMeshDoc + ", §3.9 L415, A.8; N §6.2 B23, §7 A32";
  cases.push_back(core::exact_case(
      "t1.b23.ring_multicast_covers_half", b23_source,
      std::string(kMesh) +
          "; MCSTH from (0, 2) to (4, 2), 4 of the ring's 8 either way (a tie: upwards, A32)",
      "NIs holding a copy (at most R/2 = 4)", 4, [] { return b23(false); }, Evidence::Behaviour, kExact));
  cases.push_back(core::exact_case(
      "t1.b23.two_multicasts_cover_the_ring", b23_source,
      std::string(kMesh) + "; as t1.b23.ring_multicast_covers_half, then MCSTH to "
                           "(5, 2), 3 the other way",
      "NIs holding a copy (the ring but the source: 7)", 7, [] { return b23(true); }, Evidence::Behaviour,
      kExact));
  cases.push_back(
      core::exact_case("t1.b1.message_fields_wrong", kMeshDoc + ", A.9.1 L1165-L1180, A.2.5; N §6.2 B1",
                       std::string(kMesh) + "; SEND3 of 1, 2, 3 from (1, 1) to (6, 6), taken as an "
                                            "LP event",
                       "of B1's nine expectations ($4-$6, PC, pri, slen, vlen, mcst, inh, LPEE, "
                       "the LP bank visible), those that fail",
                       0, b1_mismatches, Evidence::Behaviour, kExact));
  const std::string backlog_setup =
      std::string(kMesh) + "; node (0, 4) sends LP messages to (4, 4), which takes no event, until one fails";
  cases.push_back(core::exact_case(
      "t1.b5.high_priority_passes_a_low_backlog", kMeshDoc + ", §3.5 L317-L341, A.1 L525-L537; N §6.2 B5, B6",
      backlog_setup,
      "1 if, after the failure, an HP send succeeds and reaches the receiver while "
      "LP sends still fail, else 0",
      1, [] { return backlog().high_passes; }, Evidence::Behaviour, kExact));
  cases.push_back(core::exact_case(
      "t1.b7.low_messages_out_of_order", kMeshDoc + ", A.1 L525-L537; N §6.2 B7",
      backlog_setup + "; then the receiver takes them one by one",
      "LP messages taken out of send order (or lost)", 0, [] { return backlog().out_of_order; },
      Evidence::Behaviour, kExact));
  cases.push_back(core::exact_case(
      "t1.b28.get_put_nodes_correct", kMeshDoc + ", §2.2.1 L128-L156; N §5.7, §6.2 B28",
      "examples/t1/mesh/get_put.c on a 4 x 4 T1 machine: 8 puts per node with a sync counter, a barrier, "
      "8 gets",
      "nodes whose program exits 0 (sync returned after its acks; the gets read the puts back)", 16,
      get_put_nodes_correct, Evidence::Behaviour, "exact: every node's program checks itself"));
  const std::string rules = kMeshDoc + ", §3.5 L317-L341, A.10 L1302-L1315";
  cases.push_back(core::exact_case(
      "t1.b24.all_to_all_get_small_buffers_nodes_correct", rules + "; N §6.2 B24",
      "examples/t1/mesh/all_to_all_get.c on a 4 x 4 T1 machine with small buffers (network.buffer_flits 1, "
      "ni.in_queue_messages 1, ni.out_queue_messages 1): LP requests, HP replies from the LP handlers",
      "nodes whose program exits 0 (every get answered)", 16,
      [] { return run_program("t1_all_to_all_get", 16, small_buffers).nodes_ok; }, Evidence::Behaviour,
      "exact: every node's program checks itself"));
  cases.push_back(core::exact_case(
      "t1.b25.lp_handlers_spinning_on_lp_sends_deadlock", rules + "; N §6.2 B25",
      "examples/t1/mesh/lp_forward.c on a 4 x 4 T1 machine with small buffers, as t1.b24: a token per node "
      "round a ring of nodes, each LP handler sending it on twice (6 hops) and spinning on those LP sends "
      "(the negative control), run.max_cycles 400,000",
      "1 if the run reached its limit with messages in the mesh and none moved for the last half of it, "
      "else 0",
      1,
      [] {
        const ProgramRun r = run_program("t1_lp_forward", 16, small_buffers);
        return r.end == MachineEnd::TimeLimit && r.mesh_stuck ? 1.0 : 0.0;
      },
      Evidence::Behaviour, "exact: a deadlock or not"));
  cases.push_back(core::exact_case(
      "t1.b25.lp_forwarding_completes_with_room", rules + "; N §6.2 B25",
      "as t1.b25.lp_handlers_spinning_on_lp_sends_deadlock with ni.in_queue_messages 64 (room at every NI "
      "for the 64 copies that end there)",
      "nodes whose program exits 0 (the control's control: the deadlock is the buffers' and the rule's)", 16,
      [] {
        return run_program("t1_lp_forward", 16,
                           [](T1Config& c) {
                             small_buffers(c);
                             c.ni.in_queue_messages = 64;
                           })
            .nodes_ok;
      },
      Evidence::Behaviour, "exact: every node's program checks itself"));
  const std::string b27 = kMeshDoc + ", §2.2.1 L143-L148 (Figs. 3, 4); N §6.2 B27";
  const char* b27_setup =
      "examples/t1/mesh/fetch_add.c on a 4 x 4 T1 machine: every node fetch-and-adds 1 to node 0's counter 8 "
      "times (LP request, HP reply with the old value)";
  cases.push_back(core::exact_case(
      "t1.b27.fetch_add_final_counter", b27, b27_setup, "the counter at the end (N M = 16 x 8)", 128,
      [] { return fetch_add_figure("counter"); }, Evidence::Behaviour, "exact: a count"));
  cases.push_back(core::exact_case(
      "t1.b27.fetch_add_distinct_old_values", b27, b27_setup,
      "distinct old values returned, of 0 .. N M - 1 (all 128: atomic by run to "
      "completion)",
      128, [] { return fetch_add_figure("distinct"); }, Evidence::Behaviour, "exact: a count"));
}

std::vector<core::ValidationCase> t1_validation_cases() {
  std::vector<core::ValidationCase> cases;
  add_cost_cases(cases);
  add_mesh_cases(cases);
  add_handler_cases(cases);
  add_event_cases(cases);
  return cases;
}

}  // namespace mppnet::machines::cns1
