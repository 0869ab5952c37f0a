// machines/metro/design_calculators.cpp: the design calculators of DeHon's thesis, each a function of its
// checked options that prints labelled results, and the table that names them.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "machines/metro/design.hpp"
#include "machines/metro/design_calculator.hpp"
#include "machines/metro/design_tables.hpp"

namespace mppnet::machines::metro::design {

namespace {

constexpr double kMaxWireCycles = 1e6;  // pad pair plus wire, in clock cycles

// Eqs 2.4-2.9 and 3.1 (note 004a §2.4): switching, pipelined transit, transmission, contention.
void latency(const Args& a) {
  const auto stages = static_cast<int>(a.whole("stages", 0, 1000000));
  const double t_io = a.at_least("t-io-ns", 0), t_switch = a.at_least("t-switch-ns", 0);
  const std::vector<double> segments = a.reals("segments-cm", 0);
  const double permittivity = a.at_least("permittivity", 1);
  const double cycle = a.positive("cycle-ns");
  const long long bits = a.whole("message-bits", 0, 1LL << 40);
  const auto width = static_cast<int>(a.whole("width-bits", 1, 1 << 20));
  const double gamma = a.at_least("gamma", 1);
  const double t_p = a.at_least("t-p-ns", 0), t_w = a.at_least("t-w-ns", 0);

  double wire_cm = 0;
  for (double d : segments) wire_cm += d;
  const double t_s = metro::switching_ns(stages, t_io, t_switch);
  const double t_t = metro::pipelined_transit_ns(segments, permittivity, cycle);
  const double t_x = metro::transmit_ns(bits, width, cycle);
  const double unloaded = t_s + t_t;
  row("switching", fmt::format("T_s = {} stages x ({:g} + {:g}) ns = {:g} ns  (Eqs 2.4-2.5)", stages, t_io,
                               t_switch, t_s));
  row("transit", fmt::format("T_t = {:g} ns: {} wire segments, {:g} cm at {:g} cm/ns ({:g} ns), each rounded "
                             "up to {:g} ns cycles  (Eq 3.1)",
                             t_t, segments.size(), wire_cm, metro::propagation_speed_cm_per_ns(permittivity),
                             metro::transit_ns(wire_cm, permittivity), cycle));
  row("transmit",
      fmt::format("T_transmit = ceil({} / {}) x {:g} ns = {:g} ns  (Eq 2.6)", bits, width, cycle, t_x));
  row("unloaded", fmt::format("T_unloaded = T_s + T_t = {:g} ns  (Eq 2.7)", unloaded));
  row("message",
      fmt::format("T_message = T_p + gamma x T_unloaded + T_transmit + T_w = {:g} + {:g} x {:g} + "
                  "{:g} + {:g} = {:g} ns  (Eqs 2.8-2.9)",
                  t_p, gamma, unloaded, t_x, t_w, metro::message_ns(t_p, gamma, t_s, t_t, t_x, t_w)));
}

// METRO's wire budget (§9.2, note 004c target 7): does pad + wire + pad fit one clock?
void wire(const Args& a) {
  const double pad = a.positive("pad-pair-ns");
  const double cm = a.at_least("wire-cm", 0);
  const double permittivity = a.at_least("permittivity", 1);
  const double cycle = a.positive("cycle-ns");
  const double transit = metro::transit_ns(cm, permittivity);
  // The count is an int, and the turn delay twice it: refuse a clock that makes either overflow (a
  // 1e-308 ns clock once printed -2147483648 cycles).
  const double exact_cycles = (pad + transit) / cycle;
  if (!(exact_cycles <= kMaxWireCycles))
    throw a.error("cycle-ns",
                  fmt::format("{:g} ns of pad and wire take {:.3g} cycles of {:g} ns; at most {:g} "
                              "are supported",
                              pad + transit, exact_cycles, cycle, kMaxWireCycles));
  const int cycles = metro::wire_cycles(pad, cm, permittivity, cycle);
  row("propagation speed",
      fmt::format("v = {:g} cm/ns / sqrt({:g}) = {:g} cm/ns  (Eq 2.3)", metro::kSpeedOfLightCmPerNs,
                  permittivity, metro::propagation_speed_cm_per_ns(permittivity)));
  row("wire transit", fmt::format("{:g} cm -> {:g} ns  (Eq 2.2)", cm, transit));
  row("pad pair + wire", fmt::format("{:g} + {:g} = {:g} ns = {} cycle{} of {:g} ns ({:g} MHz)", pad, transit,
                                     pad + transit, cycles, cycles == 1 ? "" : "s", cycle, 1000 / cycle));
  row("wire pipelining", cycles <= 1 ? std::string("not needed; extra turn delay 0 cycles")
                                     : fmt::format("needed; extra turn delay 2 x ({} - 1) = {} cycles",
                                                   cycles, metro::extra_turn_cycles(cycles)));
}

// §2.5, Eqs 2.10-2.17 (note 004a R6): a million parts fail every 6 minutes; 1000 tolerated faults give 100 h.
void reliability(const Args& a) {
  const long long parts = a.whole("parts", 1, 1'000'000'000'000'000LL);
  const double rate = a.positive("part-failures-per-hour");
  const long long k = a.whole("tolerated-faults", 1, parts);
  const double hours = a.positive("mission-hours");
  if (rate * hours > 1)
    throw a.error("mission-hours", fmt::format("a part fails with probability lambda_p x T = {:g} > 1; "
                                               "Eq 2.10 needs a shorter mission",
                                               rate * hours));
  const double none = metro::mttf_hours(parts, rate, 1), tolerant = metro::mttf_hours(parts, rate, k);
  row("system failures", fmt::format("lambda_s = {} parts x {:g} /h = {:g} /h  (Eq 2.15)", parts, rate,
                                     metro::system_failure_rate_per_hour(parts, rate)));
  row("MTTF, no tolerance", fmt::format("1 / lambda_s = {:g} h ({:g} min)", none, none * 60));
  row("MTTF, k tolerated",
      fmt::format("k = {} faults: k / lambda_s = {:g} h ({:g} min)  (Eq 2.17)", k, tolerant, tolerant * 60));
  row("all parts survive",
      fmt::format("P = (1 - {:g} x {:g} h)^{} = {:.3g} over the mission  (Eq 2.12)", rate, hours, parts,
                  metro::all_survive_probability(parts, rate * hours)));
}

// MBTA's figures (§10.2, note 004c target 8): 70 ns, 6.4 GB/s, 300 MB/s per node, 400 MB/s memory.
void mbta(const Args& a) {
  const auto routers = static_cast<int>(a.whole("routers", 0, 1000000));
  const auto crossings = static_cast<int>(a.whole("chip-crossings", 0, 1000000));
  const double cycle = a.positive("cycle-ns");
  const auto nodes = static_cast<int>(a.whole("nodes", 1, 1 << 30));
  const double link = a.positive("link-mb-per-s");
  const auto inputs = static_cast<int>(a.whole("active-inputs", 0, 1024));
  const auto outputs = static_cast<int>(a.whole("outputs", 0, 1024));
  const auto users = static_cast<int>(a.whole("memory-users", 1, 1024));
  const auto bytes = static_cast<int>(a.whole("bytes-per-slot", 1, 1 << 20));
  const double slot = a.positive("slot-ns");
  const long long message = a.whole("message-bytes", 1, 1LL << 36);
  const auto width = static_cast<int>(a.whole("width-bits", 1, 1 << 20));
  const double peak = metro::peak_network_mb_per_s(nodes, link);
  row("unloaded latency",
      fmt::format("({} routers + {} chip crossings) x {:g} ns = {:g} ns", routers, crossings, cycle,
                  metro::unloaded_latency_ns(routers, crossings, cycle)));
  row("peak network",
      fmt::format("{} nodes x {:g} MB/s = {:g} MB/s ({:g} GB/s)", nodes, link, peak, peak / 1000));
  row("peak per node", fmt::format("({} input + {} outputs) x {:g} MB/s = {:g} MB/s", inputs, outputs, link,
                                   metro::node_peak_mb_per_s(inputs, outputs, link)));
  row("memory bandwidth", fmt::format("{} users x {} B / {:g} ns = {:g} MB/s", users, bytes, slot,
                                      metro::slotted_memory_mb_per_s(users, bytes, slot)));
  row("transmit", fmt::format("{} B message: ceil({} / {}) x {:g} ns = {:g} ns  (Eq 2.6)", message,
                              message * 8, width, cycle, metro::transmit_ns(message * 8, width, cycle)));
}

// RN1 (Ch. 8, note 004c §2.1 and target 9): t_nl = t_io + t_switch = 34 ns.
void rn1(const Args& a) {
  const double t_io = a.at_least("t-io-ns", 0), t_switch = a.at_least("t-switch-ns", 0);
  const double mhz = a.positive("clock-mhz");
  const double hop = metro::router_hop_ns(t_io, t_switch), cycle = 1000 / mhz;
  row("hop latency",
      fmt::format("t_nl = t_io + t_switch = {:g} + {:g} = {:g} ns  (Eq 13.3)", t_io, t_switch, hop));
  row("against the clock",
      fmt::format("{:g} MHz is a {:g} ns cycle: the hop spans {:.3g} cycles", mhz, cycle, hop / cycle));
}

// Unit trees (Ch. 7, Table 7.4, note 004c §6.5 and target 10): UT64x2 16/16/12/8, UT64x8 64/64/48/32.
void unit_tree(const Args& a) {
  const auto r = static_cast<int>(a.whole("radix", 2, 8));
  const auto d = static_cast<int>(a.whole("dilation", 1, 64));
  const auto c_l = static_cast<int>(a.whole("leaf-channels", 1, 1000000));
  // The formulas divide channel counts by r x d; a remainder would be a router with unused ports.
  long long levels = 1;
  for (int i = 0; i < r - 1; ++i) levels *= r;
  const long long rd = static_cast<long long>(r) * d, root = c_l * levels / r;
  bool even = levels * c_l % rd == 0;
  for (int j = 1; j <= r - 1; ++j) even = even && (j + 1) * root % rd == 0;
  if (!even)
    throw a.error("dilation", fmt::format("r x d = {} does not divide the channels of every stage (up: {}, "
                                          "root: {}); pick a dilation or leaf channel count that does",
                                          rd, levels * c_l, root));
  const metro::UnitTree u = metro::unit_tree(r, d, c_l);
  std::string counts = fmt::format("{}", u.up_routers);
  for (auto it = u.down_routers.rbegin(); it != u.down_routers.rend(); ++it)
    counts += fmt::format("/{}", *it);
  row("logical levels", fmt::format("r_p = r^(r-1) = {}", u.logical_levels));
  row("root channels", fmt::format("c_r = c_l x r^(r-2) = {}", u.root_channels));
  row("routers", fmt::format("{} (up, then down from final to initial stage, as in Table 7.4)", counts));
  row("total routers", fmt::format("{}", u.total_routers()));
}

// Stack geometry (§7.3-7.5, note 004c target 11): 0.24 in per layer, 19 layers 4.56 in, 12 in board.
void stack(const Args& a) {
  const auto layers = static_cast<int>(a.whole("layers", 1, 100000));
  const double board = a.positive("board-mil"), gap = a.at_least("gap-mil", 0);
  const auto parts = static_cast<int>(a.whole("parts-per-side", 1, 100000));
  const double pitch = a.positive("pitch-in");
  row("layer pitch",
      fmt::format("{:g} + {:g} mil = {:g} in", board, gap, metro::stack_height_in(1, board, gap)));
  row("stack height", fmt::format("{} layers = {:g} in", layers, metro::stack_height_in(layers, board, gap)));
  row("board side",
      fmt::format("{} parts x {:g} in pitch = {:g} in", parts, pitch, metro::board_side_in(parts, pitch)));
}

std::string interval(int from, int to, const std::string& unit) {
  const auto edge = [](int n) {
    return n == 0 ? std::string("0") : n == 1 ? std::string("T") : fmt::format("{}T", n);
  };
  return fmt::format("[{},{}) {}", edge(from), edge(to), unit);
}

// The bounce diagram of Ch. 6 (note 004c §6.1 and targets 4-5): a 3 Z0 driver gives V/4, then 5V/8.
void bounce(const Args& a) {
  const double k = a.positive("drive-ratio");
  const auto intervals = static_cast<int>(a.whole("intervals", 1, 50));
  const double volts = a.positive("volts"), ohms = a.positive("ohms");
  std::string source, far = interval(0, 1, "0 V");
  for (int n = 0; n < intervals; ++n)
    source += (n ? "  " : "") +
              interval(2 * n, 2 * n + 2, fmt::format("{:g} V", volts * metro::source_plateau(k, n)));
  for (int m = 0; m + 1 < intervals; ++m)
    far += "  " + interval(2 * m + 1, 2 * m + 3, fmt::format("{:g} V", volts * metro::far_end_plateau(k, m)));
  const int half = metro::first_half_crossing(k);
  row("driver",
      fmt::format("Z_drive = {:g} x Z0 into an open line of one-way delay T, a {:g} V step", k, volts));
  row("source end", source);
  row("far end", far);
  row("source crosses V/2", half < 0    ? std::string("not within 1000 round trips")
                            : half == 0 ? std::string("at once (t = 0)")
                                        : fmt::format("at t = {}T", 2 * half));
  row("termination power",
      fmt::format("{:g} V into {:g} ohm: series {:g} mW during each round trip, parallel {:g} mW steady",
                  volts, ohms, 1000 * metro::series_termination_watts(volts, ohms),
                  1000 * metro::parallel_termination_watts(volts, ohms)));
}

// The sample (recycle) register of §6.8-6.9 (note 004c target 6): 25 inverter pairs at 200 MHz, 100 ps.
void recycle_register(const Args& a) {
  const double mhz = a.positive("clock-mhz"), inverter = a.positive("inverter-ps");
  // The length is a count of inverter pairs: one that no int holds is refused, not wrapped.
  if (1e6 / mhz / (2 * inverter) > 1e9)
    throw a.error("clock-mhz", fmt::format("a {:g} ps period over {:g} ps inverters needs more than 10^9 "
                                           "inverter pairs; raise the clock or the inverter delay",
                                           1e6 / mhz, inverter));
  row("clock period", fmt::format("{:g} ps ({:g} MHz)", 1e6 / mhz, mhz));
  row("register length", fmt::format("ceil({:g} / (2 x {:g})) = {} inverter pairs", 1e6 / mhz, inverter,
                                     metro::recycle_register_pairs(mhz, inverter)));
}

// Automatic impedance selection (§6.8, Figs 6.22-6.23, note 004c targets 1-2).
void impedance(const Args& a) {
  const bool table = a.flag("table-6-1"), misleading = a.flag("misleading-pairs"), listed = a.given("trip");
  if (table + misleading + listed > 1)
    throw a.error(listed ? "trip" : "misleading-pairs",
                  "give the samples one way: --trip, --table-6-1 or --misleading-pairs");
  const auto length = static_cast<int>(a.whole("register-length", 1, 4096));
  std::vector<int> trip;
  std::string source;
  if (listed) {
    trip = a.wholes("trip", 0, length);
    if (trip.size() < 2) throw a.error("trip", "needs the first tripping sample of at least 2 codes");
    if (trip.size() > 4096) throw a.error("trip", fmt::format("at most 4096 codes (got {})", trip.size()));
    source = "the --trip list";
  } else if (misleading) {
    if (length < 12)
      throw a.error("register-length", fmt::format("the example trips at sample 11; needs at "
                                                   "least 12 samples (got {})",
                                                   length));
    trip = misleading_pairs();
    source = "the misleading-pairs example of §6.8";
  } else {
    if (length < 11)
      throw a.error("register-length", fmt::format("Table 6.1 trips at sample 10; needs at "
                                                   "least 11 samples (got {})",
                                                   length));
    trip = table_6_1(length);
    source = "Table 6.1";
  }
  std::string samples;
  for (int t : trip) samples += fmt::format("{}{}", samples.empty() ? "" : ",", t);
  const int code = metro::select_impedance_code(trip, length);
  const int naive = metro::naive_pairwise_code(trip);
  row("data",
      fmt::format("{}: {} codes (0 = highest impedance), register length {}", source, trip.size(), length));
  row("first trip sample", fmt::format("{} ({} = no trip)", samples, length));
  row("selected code", fmt::format("0x{:02X} ({})  (§6.8, Figs 6.22-6.23)", code, code));
  row("naive pair rule",
      fmt::format("0x{:02X} ({}): the adjacent pair with the largest change", naive, naive));
}

}  // namespace

const std::vector<Calculator>& calculators() {
  static const std::vector<Calculator> table = {
      {"latency",
       "Latency budget: switching, pipelined wires, transmission, contention (Eqs 2.4-2.9, 3.1)",
       {{"stages", "3", "Switching stages s_n between endpoints"},
        {"t-io-ns", "20", "Pad time per switch t_io, ns (RN1: 10 in + 10 out)"},
        {"t-switch-ns", "14", "Switch time t_switch, ns (RN1: 14)"},
        {"segments-cm", "30,90", "Wire segments between switches, cm, comma-separated", "LIST"},
        {"permittivity", "4", "Relative permittivity of the board (FR4: 4, so v = c/2)"},
        {"cycle-ns", "10", "Clock period t_c, ns (MBTA links: 10)"},
        {"message-bits", "192", "Message length L, bits (24 bytes)"},
        {"width-bits", "8", "Channel width w, bits"},
        {"gamma", "1", "Contention derating factor (>= 1)"},
        {"t-p-ns", "0", "Network input latency T_p, ns"},
        {"t-w-ns", "0", "Network output latency T_w, ns"}},
       {},
       latency},
      {"wire",
       "METRO wire budget: pad pair plus wire against the clock, and the cost of wire pipelining",
       {{"pad-pair-ns", "3", "Output plus input pad, ns (Ch. 6 pads: 3)"},
        {"wire-cm", "30", "Wire length, cm"},
        {"permittivity", "4", "Relative permittivity of the board"},
        {"cycle-ns", "5", "Clock period, ns (METRO: 200 MHz)"}},
       {},
       wire},
      {"reliability",
       "MTTF of N parts with and without fault tolerance (Eqs 2.10-2.17)",
       {{"parts", "1000000", "Parts N the system needs"},
        {"part-failures-per-hour", "1e-5", "Failure rate of one part lambda_p, per hour"},
        {"tolerated-faults", "1000", "Faults k the system survives (k << N)"},
        {"mission-hours", "1", "Time T for the probability that every part survives"}},
       {},
       reliability},
      {"mbta",
       "MBTA latency and bandwidth figures (§10.2)",
       {{"routers", "3", "Routers on a path (one clock each)"},
        {"chip-crossings", "4", "Chip crossings on a path (one clock each)"},
        {"cycle-ns", "10", "Clock period, ns (100 MHz)"},
        {"nodes", "64", "Nodes, each with one active network input"},
        {"link-mb-per-s", "100", "Link bandwidth, MB/s"},
        {"active-inputs", "1", "Network inputs a node drives at once"},
        {"outputs", "2", "Network outputs per node"},
        {"memory-users", "4", "Users of the slotted memory bus"},
        {"bytes-per-slot", "8", "Bytes a user moves per slot"},
        {"slot-ns", "80", "Slot period per user, ns"},
        {"message-bytes", "24", "Message length for the transmit time, bytes"},
        {"width-bits", "8", "Link width, bits"}},
       {},
       mbta},
      {"rn1",
       "RN1 router hop latency (Ch. 8)",
       {{"t-io-ns", "20", "Pad time t_io, ns (10 in + 10 out)"},
        {"t-switch-ns", "14", "Internal logic t_switch, ns"},
        {"clock-mhz", "50", "Clock, MHz"}},
       {},
       rn1},
      {"unit-tree",
       "Router counts of a fat-tree unit tree (Ch. 7, Table 7.4)",
       {{"radix", "4", "Router radix r (2-8)"},
        {"dilation", "2", "Router dilation d"},
        {"leaf-channels", "2", "Channels per leaf direction c_l (UT64x2: 2, UT64x8: 8)"}},
       {},
       unit_tree},
      {"stack",
       "Stack height and board side (§7.3-7.5)",
       {{"layers", "19", "Board layers in the stack (MBTA: 19)"},
        {"board-mil", "100", "Board thickness, mil"},
        {"gap-mil", "140", "Component gap between boards, mil"},
        {"parts-per-side", "4", "Parts along one side of a square board"},
        {"pitch-in", "3", "Part pitch, in"}},
       {},
       stack},
      {"bounce",
       "Transmission-line bounce: source and far-end plateaus, V/2 crossing, termination power (Ch. 6)",
       {{"drive-ratio", "3", "Driver impedance over line impedance, k = Z_drive / Z0"},
        {"intervals", "3", "Round trips to show"},
        {"volts", "1", "Step (signal swing), V"},
        {"ohms", "50", "Line impedance Z0, ohm"}},
       {},
       bounce},
      {"recycle-register",
       "Minimum sample (recycle) register length (§6.8-6.9)",
       {{"clock-mhz", "200", "Clock, MHz"}, {"inverter-ps", "100", "Inverter delay, ps"}},
       {},
       recycle_register},
      {"impedance",
       "Automatic impedance selection of §6.8 (default data: Table 6.1)",
       {{"trip", "",
         "First tripping sample per code, code 0 first, comma-separated (register length = no trip)", "LIST"},
        {"register-length", "16", "Sample register length L"}},
       {{"table-6-1", "", "Use Table 6.1 (the default)"},
        {"misleading-pairs", "", "Use the misleading-pairs example of §6.8"}},
       impedance},
  };
  return table;
}

}  // namespace mppnet::machines::metro::design
