// machines/metro/design.hpp: the design arithmetic of DeHon's thesis as pure functions.
//
// Sources: DeHon TR-1445 §2.3-2.5 (latency and reliability, Eqs 2.1-2.17 and 3.1, note 004a §2.4-2.5),
// Ch. 6 (transmission lines, impedance selection §6.8, note 004c §6.1-6.3), Ch. 7 (packaging, unit trees,
// note 004c §6.5) and Chs. 8-10 (RN1, METRO, MBTA, note 004c §2-3). Golden values: note 004c §8 targets
// 1-11 and note 004a R6. Times are in ns, distances in cm unless a name says otherwise; these are
// calculators, not the simulator's integer-picosecond clock.
#pragma once

#include <functional>
#include <span>
#include <vector>

namespace mppnet::machines::metro {

constexpr double kSpeedOfLightCmPerNs = 30.0;  // ~3e10 cm/s (§2.3, line 590)

// --- Latency (§2.3-2.4) ---
// Eq 2.1: time of c operations at parallelism p with l cycles of communication latency.
double multiprocessor_time(double operations, double latency_cycles, double parallelism);
// Eq 2.3: v = c / sqrt(eps_r) (the doc's mu0/eps0 wording is fixed in note 004a §2.4).
double propagation_speed_cm_per_ns(double relative_permittivity);
// Eq 2.2: T_t = d / v.
double transit_ns(double distance_cm, double relative_permittivity);
// Eqs 2.4-2.5: T_s = s_n * (t_io + t_switch).
double switching_ns(int stages, double t_io_ns, double t_switch_ns);
// Eq 2.6: T_transmit = ceil(L / w) * t_c.
double transmit_ns(long long message_bits, int width_bits, double cycle_ns);
// Eq 3.1 with the unit error fixed (note 004a §7 item 12): sum of ceil((d_i / v) / t_c) * t_c.
double pipelined_transit_ns(std::span<const double> segment_cm, double relative_permittivity,
                            double cycle_ns);
// Eqs 2.7-2.9: T_message = T_p + gamma * (T_s + T_t) + T_transmit + T_w.
double message_ns(double t_p_ns, double gamma, double t_s_ns, double t_t_ns, double t_transmit_ns,
                  double t_w_ns);

// --- Reliability (§2.5) ---
// Eq 2.12: probability that all N parts survive when each fails with probability p.
double all_survive_probability(long long parts, double part_failure_probability);
// Eq 2.15: lambda_s = N * lambda_p, failures per hour.
double system_failure_rate_per_hour(long long parts, double part_failure_rate_per_hour);
// Eq 2.17: a system that survives k faults fails at lambda_s / k, so MTTF = k / lambda_s (k = 1: none).
double mttf_hours(long long parts, double part_failure_rate_per_hour, long long tolerated_faults);

// --- Parts: RN1, METRO, MBTA (note 004c §2-3) ---
// RN1 hop: t_io (10 ns in + 10 ns out) + t_switch (14 ns) = 34 ns.
double router_hop_ns(double t_io_ns, double t_switch_ns);
// MBTA T_unloaded: one clock per router and one per chip crossing (3 + 4 at 64 nodes).
double unloaded_latency_ns(int routers, int chip_crossings, double cycle_ns);
// Peak network bandwidth: every node's one active input, MB/s (64 x 100 MB/s = 6.4 GB/s).
double peak_network_mb_per_s(int nodes, double link_mb_per_s);
// Per-node peak: active inputs + outputs times the link rate (1 + 2 at MBTA: 300 MB/s).
double node_peak_mb_per_s(int active_inputs, int outputs, double link_mb_per_s);
// Memory bandwidth of a slotted bus: users x bytes per slot / slot period (4 x 8 B / 80 ns = 400 MB/s).
double slotted_memory_mb_per_s(int users, int bytes_per_transfer, double period_ns);
// METRO wire budget (note 004c target 7): clocks a pad pair plus a wire take, and the extra turn delay
// (2 cycles per extra wire cycle) when the wire needs pipelining.
int wire_cycles(double pad_pair_ns, double wire_cm, double relative_permittivity, double cycle_ns);
int extra_turn_cycles(int wire_cycles);

// --- Transmission lines (Ch. 6) ---
// Source-end voltage of a step V (= 1) driven through k * Z0 into an open-ended line of delay T, in the
// interval [2nT, 2(n+1)T); far-end voltage in [(2m+1)T, (2m+3)T).
double source_plateau(double k, int n);
double far_end_plateau(double k, int m);
// The first n with source_plateau(k, n) >= 1/2: the source crosses V/2 at 2nT.
int first_half_crossing(double k);
// Termination power: series V^2/(2 Z0) during the round trip after an edge, parallel V^2/Z0 steady, W.
double series_termination_watts(double volts, double ohms);
double parallel_termination_watts(double volts, double ohms);
// Minimum recycle (sample) register length: ceil(clock period / (2 * inverter delay)) inverter pairs.
int recycle_register_pairs(double clock_mhz, double inverter_ps);

// Impedance selection of §6.8 (Figs 6.22-6.23, note 004c §6.3): `trip[s]` is the index of the first sample
// that trips for code s (code 0 = highest impedance), or `register_length` when none trips. lp = largest
// code with no trip (0 if none), hp = smallest code whose samples equal the last code's; the interval
// shrinks by thirds toward the larger change; returns floor((hp + lp) / 2).
int select_impedance_code(std::span<const int> trip, int register_length);
// The outer loop of Fig 6.22 (note 004c §6.3, §9 items 24, target 3): alternate the pull-up code (given
// the pull-down code) and the pull-down code (given the pull-up code), starting from pull-down = middle
// code, until neither changes, at most `max_iterations` times. `pullup(l)` and `pulldown(h)` stand for a
// find_impedance run on the hardware.
struct ImpedanceCodes {
  int pullup = 0;
  int pulldown = 0;
  int iterations = 0;
  bool converged = false;  // false: the cap was hit; the last pair is returned
};
ImpedanceCodes set_impedance(const std::function<int(int)>& pullup, const std::function<int(int)>& pulldown,
                             int middle_code, int max_iterations = 8);

// The naive rule the thesis argues against: the lower code of the adjacent pair with the largest change.
int naive_pairwise_code(std::span<const int> trip);

// --- Packaging (Ch. 7) ---
// Fat-tree unit tree of radix r, dilation d, c_l channels per leaf direction (note 004c §6.5): routers
// of the up stage and of down stages j = 1..r-1 (initial, middle..., final).
struct UnitTree {
  long long logical_levels = 0;         // r_p = r^(r-1)
  long long root_channels = 0;          // c_r = c_l * r^(r-2)
  long long up_routers = 0;             // r_p * c_l / (r d)
  std::vector<long long> down_routers;  // index j-1: (j+1) * c_r / (r d)
  long long total_routers() const;
};
UnitTree unit_tree(int radix, int dilation, int leaf_channels);
// Stack height: layers * (board + component gap), inches from mils.
double stack_height_in(int layers, double board_mil, double gap_mil);
// Side of a square board of parts_per_side x parts_per_side parts on `pitch_in` centres (MBTA: 4 x 3 in).
double board_side_in(int parts_per_side, double pitch_in);

// FLAT24 load (Appendix A.3.5): miss rate * non-local fraction / router cycles per processor cycle *
// (1 + coherence overhead), messages per router cycle.
double flat24_rate(double miss_rate, double non_local, double router_per_processor_cycle, double coherence);

}  // namespace mppnet::machines::metro
