// machines/cm1/config.cpp: key declarations for Cm1Config, the loader and the cross-key checks.
//
// Reading, parsing, --set and origins are io::load_config's; this file adds the keys, the resolution of
// a relative traffic.file and the cross-key checks. CM-1 files have no presets.
#include "machines/cm1/config.hpp"

#include <bit>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "io/config_loader.hpp"
#include "machines/cm1/patterns.hpp"

namespace mppnet::machines::cm1 {

namespace {

using io::fail_at;
using io::in_range;
using io::key;
using io::one_of;
using io::section;

const std::vector<std::string> kPipelineNames = {"rotating", "in_order", "drop_bits"};
const std::vector<std::string> kPriorityNames = {"fixed", "rotating"};
const std::vector<std::string> kBufferedNames = {"keep", "repack"};
const std::vector<std::string> kEjectLimitNames = {"none", "one_per_chip", "one_per_processor"};
const std::vector<std::string> kVpEjectionNames = {"any_bank", "one_bank"};
const std::vector<std::string> kOperationNames = {"send", "read", "fetch_and_add"};
const std::vector<std::string> kPatternNames = {"random_function", "random_permutation", "complement",
                                                "bit_reversal",    "transpose",          "shift",
                                                "hot_spot",        "all_to_one",         "file"};

// A range check plus "must be a power of two".
io::Check power_of_two_in(double lo, double hi) {
  io::Check c = in_range(lo, hi);
  c.test = [](const io::Value& v) -> std::string {
    const auto n = std::get<std::int64_t>(v);
    if (n > 0 && std::has_single_bit(static_cast<std::uint64_t>(n))) return "";
    return fmt::format("must be a power of two (got {})", n);
  };
  c.text = "a power of two";
  return c;
}

io::KeyTable<Cm1Config> make_table() {
  return io::KeyTable<Cm1Config>{
      section("machine", &Cm1Config::machine,
              {
                  key("model", &MachineParams::model, one_of({"cm1"}),
                      "The simulation model this file configures: the CM-1/CM-2 router."),
                  key("name", &MachineParams::name, io::any_value(), "Name shown in the result table."),
                  key("dims", &MachineParams::dims, in_range(2, 12),
                      "Cube dimensions c (chips = 2^c); the CM-1 has 12 (paper L59, L119)."),
                  key("procs_per_chip", &MachineParams::procs_per_chip, power_of_two_in(1, 16),
                      "Processors per router chip (16 on the CM-1, paper L59)."),
                  key("clock_hz", &MachineParams::clock_hz, io::greater_than(0),
                      "Router bit-time clock, for messages per second; not stated in the paper."),
              }),
      section(
          "cm1", &Cm1Config::cm1,
          {
              key("rows", &RouterParams::rows, in_range(1, 8),
                  "Heart rows B = injector slots = buffer slots (7 on the CM-1, paper L119)."),
              key("pipeline", &RouterParams::pipeline, one_of(kPipelineNames),
                  "Heart: rotating address (the CM, l + 2c), in_order, or drop_bits (oblivious e-cube, l + "
                  "c)."),
              key("injector_priority", &RouterParams::injector_priority, one_of(kPriorityNames),
                  "Lowest empty slot goes to the lowest waiting processor (fixed) or from a rotating start."),
              key("buffered_rows", &RouterParams::buffered_rows, one_of(kBufferedNames),
                  "Buffered messages keep their rows (paper L113) or are packed into the low rows."),
              key("eject_limit", &RouterParams::eject_limit, one_of(kEjectLimitNames),
                  "Single-eject mode: none, one message per chip, or one per processor per petit cycle."),
              key("vp_ejection", &RouterParams::vp_ejection, one_of(kVpEjectionNames),
                  "VP banks ejected per petit cycle: any_bank (CM-2 indirect addressing) or one_bank "
                  "(CM-1)."),
              key("combining", &RouterParams::combining, io::any_value(),
                  "CM-2 combining: messages for the same VP that meet at a chip travel on as one (writes "
                  "OR; reads fan the reply back)."),
              key("data_bits", &RouterParams::data_bits, in_range(0, 1024), "DATA field length d in bits."),
              key("timeout_petit_cycles", &RouterParams::timeout_petit_cycles, in_range(0, 10000000),
                  "Livelock timeout in petit cycles; 0 means 1000 + 800 * vp_ratio."),
              key("max_splits", &RouterParams::max_splits, in_range(0, 8),
                  "After a timeout, retry in two halves, recursively, this many levels deep (paper L155)."),
              key("check_invariants", &RouterParams::check_invariants, io::any_value(),
                  "Check conservation, row 6, parity and hop invariants after every petit cycle (slow)."),
          }),
      section("traffic", &Cm1Config::traffic,
              {
                  key("pattern", &TrafficParams::pattern, one_of(kPatternNames),
                      "Destination pattern over virtual-processor addresses."),
                  key("vp_ratio", &TrafficParams::vp_ratio, in_range(1, 256),
                      "Virtual processors per physical processor; each sends one message."),
                  key("send_fraction", &TrafficParams::send_fraction, io::above_up_to(0, 1),
                      "Probability that a virtual processor sends a message."),
                  key("shift", &TrafficParams::shift, in_range(-1048576, 1048576),
                      "Shift: destination processor = source processor + shift, modulo the processors."),
                  key("hotspot_fraction", &TrafficParams::hotspot_fraction, in_range(0, 1),
                      "Hot spot: probability that a message goes to the target VP."),
                  key("target", &TrafficParams::target, io::at_least(0),
                      "Hot spot and all-to-one: the target VP (bank * processors + processor)."),
                  key("file", &TrafficParams::file, io::any_value(),
                      "File pattern: lines \"source_vp destination_vp\"; a relative path is relative to the "
                      "config."),
                  key("operation", &TrafficParams::operation, one_of(kOperationNames),
                      "send (write), read (request + reply fan-out), or fetch_and_add (software "
                      "sort-send-scan)."),
              }),
      section("run", &Cm1Config::run,
              {
                  key("seed", &RunParams::seed, io::at_least(0), "Seed of every random stream."),
              }),
  };
}

}  // namespace

const io::KeyTable<Cm1Config>& cm1_keys() {
  static const io::KeyTable<Cm1Config> table = make_table();
  return table;
}

std::vector<io::KeyInfo> cm1_key_list() {
  return cm1_keys().list();
}

std::int64_t vp_count(const Cm1Config& c) {
  return (std::int64_t{1} << c.machine.dims) * c.machine.procs_per_chip * c.traffic.vp_ratio;
}

Cm1Config load_cm1(const std::string& path, const std::vector<std::string>& sets) {
  return load_cm1(io::open_config_file(path), sets);
}

Cm1Config load_cm1(const io::ConfigFile& file, const std::vector<std::string>& sets) {
  Cm1Config c = io::load_config(cm1_keys(), file.doc, file.path, sets);
  // A relative pattern file is relative to the config file that names it.
  const auto& pattern = c.traffic.file;
  if (!pattern.empty() && pattern.front() != '/' && c.origin.count("traffic.file") &&
      c.origin.at("traffic.file").line > 0) {
    const auto slash = file.path.rfind('/');
    if (slash != std::string::npos) c.traffic.file = file.path.substr(0, slash + 1) + pattern;
  }
  check_cm1(c);
  return c;
}

Cm1Config load_cm1_text(const std::string& text, const std::string& name,
                        const std::vector<std::string>& sets) {
  return load_cm1(io::config_file_from_text(text, name), sets);
}

void check_cm1(const Cm1Config& c) {
  io::check_keys(cm1_keys(), c);
  const int proc_bits = c.machine.dims + std::countr_zero(static_cast<unsigned>(c.machine.procs_per_chip));
  if (c.traffic.pattern == Pattern::Transpose && proc_bits % 2 != 0)
    fail_at(c, "traffic.pattern",
            fmt::format("transpose swaps the halves of the processor address, which has {} bits "
                        "(machine.dims {} + log2 machine.procs_per_chip); it needs an even number",
                        proc_bits, c.machine.dims));
  const std::int64_t vps = vp_count(c);
  if (vps > kMaxVps)
    fail_at(
        c, "traffic.vp_ratio",
        fmt::format("{} virtual processors ({} processors x VP ratio {}) exceed the simulator's limit of {}",
                    vps, vps / c.traffic.vp_ratio, c.traffic.vp_ratio, kMaxVps));
  if (c.traffic.pattern == Pattern::File) {
    if (c.traffic.file.empty()) fail_at(c, "traffic.pattern", "the file pattern needs traffic.file");
    read_pattern_file(c.traffic.file, static_cast<std::uint32_t>(vps));  // throws at the file's bad line
  }
  const bool targeted = c.traffic.pattern == Pattern::HotSpot || c.traffic.pattern == Pattern::AllToOne;
  if (targeted && c.traffic.target >= vps)
    fail_at(c, "traffic.target",
            fmt::format("VP {} does not exist: the machine has {} VPs (0 .. {})", c.traffic.target, vps,
                        vps - 1));
}

nlohmann::json to_json(const Cm1Config& c) {
  return cm1_keys().to_json(c);
}

}  // namespace mppnet::machines::cm1
