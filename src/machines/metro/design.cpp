// machines/metro/design.cpp: the design calculators.
#include "machines/metro/design.hpp"

#include <cmath>
#include <cstdlib>

#include "core/error.hpp"

namespace mppnet::machines::metro {

double multiprocessor_time(double operations, double latency_cycles, double parallelism) {
  return operations * (latency_cycles + 1) / parallelism;
}
double propagation_speed_cm_per_ns(double relative_permittivity) {
  return kSpeedOfLightCmPerNs / std::sqrt(relative_permittivity);
}
double transit_ns(double distance_cm, double relative_permittivity) {
  return distance_cm / propagation_speed_cm_per_ns(relative_permittivity);
}
double switching_ns(int stages, double t_io_ns, double t_switch_ns) {
  return stages * (t_io_ns + t_switch_ns);
}
double transmit_ns(long long message_bits, int width_bits, double cycle_ns) {
  return static_cast<double>((message_bits + width_bits - 1) / width_bits) * cycle_ns;
}
double pipelined_transit_ns(std::span<const double> segment_cm, double relative_permittivity,
                            double cycle_ns) {
  double total = 0;
  for (double d : segment_cm)
    total += std::ceil(transit_ns(d, relative_permittivity) / cycle_ns - 1e-12) * cycle_ns;
  return total;
}
double message_ns(double t_p_ns, double gamma, double t_s_ns, double t_t_ns, double t_transmit_ns,
                  double t_w_ns) {
  return t_p_ns + gamma * (t_s_ns + t_t_ns) + t_transmit_ns + t_w_ns;
}

double all_survive_probability(long long parts, double part_failure_probability) {
  return std::pow(1.0 - part_failure_probability, static_cast<double>(parts));
}
double system_failure_rate_per_hour(long long parts, double part_failure_rate_per_hour) {
  return static_cast<double>(parts) * part_failure_rate_per_hour;
}
double mttf_hours(long long parts, double part_failure_rate_per_hour, long long tolerated_faults) {
  return static_cast<double>(tolerated_faults) /
         system_failure_rate_per_hour(parts, part_failure_rate_per_hour);
}

double router_hop_ns(double t_io_ns, double t_switch_ns) {
  return t_io_ns + t_switch_ns;
}
double unloaded_latency_ns(int routers, int chip_crossings, double cycle_ns) {
  return (routers + chip_crossings) * cycle_ns;
}
double peak_network_mb_per_s(int nodes, double link_mb_per_s) {
  return nodes * link_mb_per_s;
}
double node_peak_mb_per_s(int active_inputs, int outputs, double link_mb_per_s) {
  return (active_inputs + outputs) * link_mb_per_s;
}
double slotted_memory_mb_per_s(int users, int bytes_per_transfer, double period_ns) {
  return users * bytes_per_transfer / period_ns * 1000.0;  // bytes per ns = GB/s; x1000 for MB/s
}
int wire_cycles(double pad_pair_ns, double wire_cm, double relative_permittivity, double cycle_ns) {
  return static_cast<int>(
      std::ceil((pad_pair_ns + transit_ns(wire_cm, relative_permittivity)) / cycle_ns - 1e-9));
}
int extra_turn_cycles(int cycles) {
  return 2 * std::max(0, cycles - 1);
}

namespace {
double source_reflection(double k) {
  return (k - 1) / (k + 1);
}
}  // namespace

double source_plateau(double k, int n) {
  const double v1 = 1 / (1 + k), gs = source_reflection(k);
  double v = v1, wave = v1;  // wave: amplitude of the wave last launched from the source
  for (int m = 0; m < n; ++m) {
    v += wave * (1 + gs);  // the open end reflects it whole; the source adds it and its reflection
    wave *= gs;
  }
  return v;
}
double far_end_plateau(double k, int m) {
  const double v1 = 1 / (1 + k), gs = source_reflection(k);
  double v = 0, wave = v1;
  for (int i = 0; i <= m; ++i) {
    v += 2 * wave;  // incident plus reflected at the open end
    wave *= gs;
  }
  return v;
}
int first_half_crossing(double k) {
  for (int n = 0; n < 1000; ++n)
    if (source_plateau(k, n) >= 0.5 - 1e-12) return n;
  return -1;
}
double series_termination_watts(double volts, double ohms) {
  return volts * volts / (2 * ohms);
}
double parallel_termination_watts(double volts, double ohms) {
  return volts * volts / ohms;
}
int recycle_register_pairs(double clock_mhz, double inverter_ps) {
  const double period_ps = 1e6 / clock_mhz;
  return static_cast<int>(std::ceil(period_ps / (2 * inverter_ps) - 1e-9));
}

int select_impedance_code(std::span<const int> trip, int register_length) {
  MPPNET_ASSERT(!trip.empty(), "select_impedance_code of no samples");
  const int last = static_cast<int>(trip.size()) - 1;
  int lp = 0;
  for (int s = 0; s <= last; ++s)
    if (trip[s] == register_length) lp = s;
  int hp = last;
  while (hp > 0 && trip[hp - 1] == trip[last]) --hp;
  auto change = [&](int a, int b) { return std::abs(trip[a] - trip[b]); };
  while (hp - lp > 2) {
    const int third = (hp - lp) / 3;
    const int hmid = hp - third, lmid = lp + third;
    if (change(hmid, lp) > change(hp, lmid))
      hp = hmid;  // the lower two thirds hold more of the change
    else
      lp = lmid;
  }
  return (hp + lp) / 2;
}

ImpedanceCodes set_impedance(const std::function<int(int)>& pullup, const std::function<int(int)>& pulldown,
                             int middle_code, int max_iterations) {
  ImpedanceCodes c;
  int old_h = middle_code, old_l = 0;
  int h = 0, l = middle_code;
  while (h != old_h || l != old_l) {
    if (c.iterations == max_iterations) {
      c.pullup = h;
      c.pulldown = l;
      return c;
    }
    ++c.iterations;
    old_h = h;
    h = pullup(l);
    old_l = l;
    l = pulldown(h);
  }
  c.pullup = h;
  c.pulldown = l;
  c.converged = true;
  return c;
}

int naive_pairwise_code(std::span<const int> trip) {
  int best = 0;
  for (int s = 0; s + 1 < static_cast<int>(trip.size()); ++s)
    if (std::abs(trip[s + 1] - trip[s]) > std::abs(trip[best + 1] - trip[best])) best = s;
  return best;
}

long long UnitTree::total_routers() const {
  long long t = up_routers;
  for (long long d : down_routers) t += d;
  return t;
}

UnitTree unit_tree(int radix, int dilation, int leaf_channels) {
  UnitTree u;
  u.logical_levels = 1;
  for (int i = 0; i < radix - 1; ++i) u.logical_levels *= radix;
  u.root_channels = leaf_channels * u.logical_levels / radix;
  const long long rd = static_cast<long long>(radix) * dilation;
  u.up_routers = u.logical_levels * leaf_channels / rd;
  for (int j = 1; j <= radix - 1; ++j) u.down_routers.push_back((j + 1) * u.root_channels / rd);
  return u;
}

double stack_height_in(int layers, double board_mil, double gap_mil) {
  return layers * (board_mil + gap_mil) / 1000.0;
}

double board_side_in(int parts_per_side, double pitch_in) {
  return parts_per_side * pitch_in;
}

double flat24_rate(double miss_rate, double non_local, double router_per_processor_cycle, double coherence) {
  return miss_rate * non_local / router_per_processor_cycle * (1 + coherence);
}

}  // namespace mppnet::machines::metro
