// machines/cns1/mesh_probe.hpp: driving the T1 machine's mesh without its processors, for the tests and
// the validation cases that check what the mesh delivers into the NIs (note 002 §3.7, §3.13).
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "machines/cns1/t1_machine.hpp"

namespace mppnet::machines::cns1 {

// A machine of `nodes` nodes whose program the caller gives (or none: the mesh is driven directly).
T1Config probe_config(int nodes);

// A machine of `nodes` nodes running `program` (a path, or a program the build makes from examples/t1).
T1Config program_config(const std::string& program, int nodes);

// A message of one scalar word w0 to dest, its handler at 0x1400.
T1Message probe_message(NodeId dest, Priority p, bool multicast = false, std::uint32_t w0 = 0);

// Runs the mesh (the processors stay idle until T1Machine::run) for `ps` more picoseconds.
void run_mesh(T1Machine& m, Picoseconds ps = 200'000'000);

// Flits sent on router-to-router links so far (every port but each router's node port).
std::int64_t link_flits(T1Machine& m);

// The nodes whose NI holds a message of priority p.
std::set<NodeId> nodes_holding(T1Machine& m, Priority p);

// Unmasks message events at v and takes the event at the head of its in-queues, as the processor does at
// an instruction boundary; returns nistat as the handler sees it.
std::uint32_t take_event(T1Machine& m, NodeId v);

}  // namespace mppnet::machines::cns1
