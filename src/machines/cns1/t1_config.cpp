// machines/cns1/t1_config.cpp: key declarations for T1Config, the loader and the cross-key checks.
#include "machines/cns1/t1_config.hpp"

#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#ifndef MPPNET_T1_ELF_DIR
#define MPPNET_T1_ELF_DIR ""
#endif

namespace mppnet::machines::cns1 {

namespace {

using io::fail_at;
using io::in_range;
using io::key;
using io::one_of;
using io::section;

io::KeyTable<T1Config> make_table() {
  return io::KeyTable<T1Config>{
      section("machine", &T1Config::machine,
              {
                  key("model", &T1MachineParams::model, one_of({"t1"}),
                      "The simulation model this file configures: T1 nodes running one MIPS program on "
                      "the CNS-1 mesh."),
                  key("name", &T1MachineParams::name, io::any_value(), "Name shown in results."),
                  key("nodes", &T1MachineParams::nodes, in_range(9, 2048),
                      "Nodes: k x k on a mesh whose columns are rings (a cylinder, L202-L213); 3 <= k and "
                      "at most 2048 (niid's 11 bits)."),
                  key("program", &T1MachineParams::program, io::any_value(),
                      "MIPS-II ELF every node runs (SPMD): a path relative to this file, or the name of a "
                      "program the build makes from examples/t1 (e.g. t1_ping_pong)."),
              }),
      section("cpu", &T1Config::cpu,
              {
                  key("clock_ps", &T1CpuParams::clock_ps, in_range(100, 1e9),
                      "Processor clock period; the document gives none, 8000 (125 MHz) is our choice."),
                  key("multiply_cycles", &T1CpuParams::multiply_cycles, in_range(1, 1000),
                      "Cycles until a MULT's result is in HI/LO (R3000: 12)."),
                  key("divide_cycles", &T1CpuParams::divide_cycles, in_range(1, 1000),
                      "Cycles until a DIV's result is in HI/LO (R3000: 35)."),
              }),
      section("ni", &T1Config::ni,
              {
                  key("in_queue_messages", &T1NiParams::in_queue_messages, in_range(1, 64),
                      "Whole messages the NI holds per priority before the network keeps the next (note "
                      "002 A35: 2)."),
                  key("out_queue_messages", &T1NiParams::out_queue_messages, in_range(1, 64),
                      "Output slots per priority: a SEND fails (nicond = 0) while they are full (A35: 1 "
                      "or 2)."),
                  key("dispatch_cycles", &T1NiParams::dispatch_cycles, in_range(0, 100),
                      "Cycles an event's dispatch takes (L371: 3-5; note §6.1: 3)."),
                  key("send_extra_cycles", &T1NiParams::send_extra_cycles, in_range(0, 1000),
                      "Cycles a SEND or MCST takes beyond its issue cycle (note §6.1: 0, the vector "
                      "streamed in the background); more makes it a multi-cycle, still atomic, "
                      "instruction (A.6)."),
                  key("event_dispatch", &T1NiParams::event_dispatch, one_of({"hardware", "kernel_trap"}),
                      "How an event reaches its handler: the T1's hardware dispatch (dispatch_cycles), or "
                      "the baseline of §3.8 (L371), the MIPS interrupt and the kernel's generic exception "
                      "handler dispatching to it (kernel_trap_cycles)."),
                  key("kernel_trap_cycles", &T1NiParams::kernel_trap_cycles, in_range(1, 10000),
                      "Cycles of a kernel-trap dispatch (event_dispatch = \"kernel_trap\"): L371 gives "
                      "15-20 for a well-tuned kernel and at least 100 as the realistic estimate."),
                  key("strict_hazards", &T1NiParams::strict_hazards, io::any_value(),
                      "Record every violation of the A.10 hazard spacing (A26); counted in the results."),
                  key("handler_level_visibility", &T1NiParams::handler_level_visibility, io::any_value(),
                      "Show the bank of the handler level being run instead of the A.10 table's f(EE, "
                      "LPEE) (A5)."),
                  key("op_requires_hpa", &T1NiParams::op_requires_hpa, io::any_value(),
                      "The outlet's op is lpa and hpa (A.2.6) instead of lpa (A6)."),
                  key("poison_unfilled", &T1NiParams::poison_unfilled, io::any_value(),
                      "Registers a message does not fill read 0xDEADBEEF (A15)."),
              }),
      section("network", &T1Config::network,
              {
                  key("clock_ps", &T1NetworkParams::clock_ps, in_range(100, 1e9),
                      "Network clock period; the router is on the T1's chip (L204), so the processor's "
                      "by default."),
                  key("flit_bytes", &T1NetworkParams::flit_bytes, in_range(1, 64),
                      "Bytes a link carries per network cycle (not given: a 32-bit word is our choice)."),
                  key("vcs", &T1NetworkParams::vcs, in_range(4, 16),
                      "VCs per port, split between the two priorities, each with the ring's two dateline "
                      "classes: even, at least 4."),
                  key("buffer_flits", &T1NetworkParams::buffer_flits, in_range(1, 1024),
                      "Flit slots per VC per input port."),
                  key("channel_latency", &T1NetworkParams::channel_latency, in_range(1, 100),
                      "Network cycles on every link."),
                  key("pipeline_cycles", &T1NetworkParams::pipeline_cycles, in_range(1, 100),
                      "Network cycles through a router."),
              }),
      section("run", &T1Config::run,
              {
                  key("seed", &T1RunParams::seed, io::at_least(0), "Seed of every random stream."),
                  key("max_cycles", &T1RunParams::max_cycles, in_range(1, 1e12),
                      "Processor cycles after which a run whose programs have not all exited stops (exit "
                      "status 1)."),
              }),
  };
}

}  // namespace

const io::KeyTable<T1Config>& t1_keys() {
  static const io::KeyTable<T1Config> table = make_table();
  return table;
}

std::vector<io::KeyInfo> t1_key_list() {
  return t1_keys().list();
}

T1Config load_t1(const io::ConfigFile& file, const std::vector<std::string>& sets) {
  T1Config c = io::load_config(t1_keys(), file.doc, file.path, sets);
  check_t1(c);
  return c;
}

T1Config load_t1_text(const std::string& text, const std::string& name,
                      const std::vector<std::string>& sets) {
  return load_t1(io::config_file_from_text(text, name), sets);
}

int mesh_side(const T1Config& c) {
  int k = 1;
  while ((k + 1) * (k + 1) <= c.machine.nodes) ++k;
  return k;
}

void check_t1(const T1Config& c) {
  io::check_keys(t1_keys(), c);
  const int k = mesh_side(c);
  if (k * k != c.machine.nodes)
    fail_at(c, "machine.nodes",
            fmt::format("the CNS-1 mesh is k x k nodes: {} is not a square (the nearest are {} and {})",
                        c.machine.nodes, k * k, (k + 1) * (k + 1)));
  if (c.network.vcs % 2 != 0)
    fail_at(c, "network.vcs",
            fmt::format("the two priorities share the VCs evenly: {} is odd", c.network.vcs));
  if (c.machine.program.empty())
    fail_at(c, "machine.program", "no program: name the MIPS ELF every node runs");
}

std::string program_path(const T1Config& c) {
  const std::string& p = c.machine.program;
  const bool bare = p.find('/') == std::string::npos && !p.ends_with(".elf");
  std::filesystem::path path;
  if (bare) {
    path = std::filesystem::path(MPPNET_T1_ELF_DIR) / (p + ".elf");
  } else {
    path = p;
    const auto where = io::where_set(c, "machine.program");
    if (path.is_relative() && where.line > 0)
      path = std::filesystem::path(c.source_file).parent_path() / path;
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    fail_at(c, "machine.program",
            bare ? fmt::format("no program {} among those the build made ({} does not exist; build the "
                               "target t1_programs, or give a path)",
                               p, path.string())
                 : fmt::format("{} does not exist or is not a file", path.string()));
  return path.string();
}

NiConfig ni_config(const T1Config& c, std::uint32_t node_id) {
  NiConfig n;
  n.node_id = node_id;
  n.in_queue_messages = static_cast<std::size_t>(c.ni.in_queue_messages);
  n.op_requires_hpa = c.ni.op_requires_hpa;
  n.strict_hazards = c.ni.strict_hazards;
  n.poison_unfilled = c.ni.poison_unfilled;
  n.visibility = c.ni.handler_level_visibility ? Visibility::HandlerLevel : Visibility::EnableBits;
  // The kernel-trap baseline differs from the hardware dispatch only in its cost: the handler, its
  // registers and HRET are the same (the document gives no figure for the return path, §3.8).
  n.timing.dispatch_cycles = static_cast<std::uint32_t>(
      c.ni.event_dispatch == "kernel_trap" ? c.ni.kernel_trap_cycles : c.ni.dispatch_cycles);
  n.timing.send_extra_cycles = static_cast<std::uint32_t>(c.ni.send_extra_cycles);
  return n;
}

nlohmann::json to_json(const T1Config& c) {
  return t1_keys().to_json(c);
}

}  // namespace mppnet::machines::cns1
