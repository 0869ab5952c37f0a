// machines/cns1/t1_config.hpp: what a T1 machine config (machine.model = "t1") can say, its declared
// keys and its loader: the program every node runs, the mesh's size, the processor's and the network's
// clocks, the NI's options and the run's limits.
//
// The document (Callahan, UCB/CSD-94-823, 1994) specifies the NI's architecture and leaves its
// micro-architecture open (reference note 002 §7 A35): no clock rate, link width, buffer size or queue
// depth. Defaults are the note's recommended choices where it makes one, otherwise ours, said so in
// each key's doc and in docs/t1.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "io/config_loader.hpp"
#include "io/key_table.hpp"
#include "machines/cns1/ni_config.hpp"

namespace mppnet::machines::cns1 {

struct T1MachineParams {
  std::string model = "t1";
  std::string name = "T1 on the CNS-1";
  // Nodes = k x k on a mesh that wraps in dimension 1 (a cylinder, L202-L213); 3 <= k, k^2 <= 2048
  // (niid's 11 bits, A.2.10).
  int nodes = 16;
  // A MIPS ELF executable: a path (relative to the config file) or the name of a program built with
  // mppnet (examples/t1/, e.g. "t1_ping_pong").
  std::string program;
};

struct T1CpuParams {
  std::int64_t clock_ps = 8000;  // our choice: the document gives no clock (note 002 §4)
  int multiply_cycles = 12;      // cpu::mips::Timing: the R3000's latencies (the note is silent)
  int divide_cycles = 35;
};

struct T1NiParams {
  int in_queue_messages = 2;   // A35: whole messages an NI holds per priority
  int out_queue_messages = 1;  // A35: output slots per priority (one or two)
  int dispatch_cycles = 3;     // §6.1: the low end of "3-5 cycles" (L371)
  int send_extra_cycles = 0;   // §6.1: a SEND issues in 1 cycle, its vector streamed behind
  // C10's baseline (§3.8 L371): events reach their handler through the MIPS interrupt path and the
  // kernel's generic exception handler, at kernel_trap_cycles a dispatch, instead of dispatch_cycles.
  std::string event_dispatch = "hardware";  // or "kernel_trap"
  int kernel_trap_cycles = 100;             // L371: "at least 100 cycles" (a well-tuned one 15-20)
  bool strict_hazards = false;              // A26: flag violations of the A.10 spacing
  bool handler_level_visibility = false;    // A5: the bank of the level being run, not f(EE, LPEE)
  bool op_requires_hpa = false;             // A6
  bool poison_unfilled = false;             // A15
};

struct T1NetworkParams {
  std::int64_t clock_ps = 8000;  // the router is on the T1's chip (L204): the processor's clock by default
  int flit_bytes = 4;            // a 32-bit word per flit (our choice: the link width is not given)
  int vcs = 4;                   // per port: 2 per priority, one per dateline class of the ring
  int buffer_flits = 8;          // per VC
  int channel_latency = 1;       // network cycles per link
  int pipeline_cycles = 1;       // network cycles through a router
};

struct T1RunParams {
  std::int64_t seed = 1;
  std::int64_t max_cycles = 100'000'000;  // processor cycles before a run that has not ended stops
};

struct T1Config {
  T1MachineParams machine;
  T1CpuParams cpu;
  T1NiParams ni;
  T1NetworkParams network;
  T1RunParams run;

  io::Origins origin;
  std::string source_file;
};

const io::KeyTable<T1Config>& t1_keys();
std::vector<io::KeyInfo> t1_key_list();

// Reads the file, applies each "key=value" of `sets`, then check_t1. Throws core::ConfigError "file:line:
// key: reason" (exit status 2). The program is not opened here (a shipped config names a program the
// build makes): program_path and the machine check it when they run.
T1Config load_t1(const io::ConfigFile& file, const std::vector<std::string>& sets);
T1Config load_t1_text(const std::string& text, const std::string& name, const std::vector<std::string>& sets);

// Every key on its own, then across keys: nodes a square k x k with k >= 3 (a ring needs 3 routers) and
// at most 2048 (11-bit node ids), an even number of VCs of at least 4 (two priorities, two dateline
// classes each), a program named.
void check_t1(const T1Config& c);

// The mesh's side k.
int mesh_side(const T1Config& c);

// The file machine.program names: a path relative to the config file's folder, or, for a bare name
// (no '/', no ".elf"), that program in the folder the build puts examples/t1's programs in. Throws
// core::ConfigError at machine.program when the file does not exist.
std::string program_path(const T1Config& c);

NiConfig ni_config(const T1Config& c, std::uint32_t node_id);

nlohmann::json to_json(const T1Config& c);

}  // namespace mppnet::machines::cns1
