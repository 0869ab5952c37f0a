// machines/metro/validation_design.cpp: the design-arithmetic cases: latency and reliability (DeHon 1993
// §2.3-2.5, §3.2; ids metro.r6.*) and the design targets of Chs. 6-10 and App. A (ids metro.t*).
//
// Each evaluates a closed form the thesis gives (or one derived from it) with design.hpp's
// calculators: agreement checks the transcription of the formula, not the behaviour of a machine, so all
// are Evidence::ClosedForm. Tolerances are floating-point rounding unless a case says otherwise.
#include <cmath>
#include <string>
#include <tuple>

#include "machines/metro/design.hpp"
#include "machines/metro/design_tables.hpp"
#include "machines/metro/validation_parts.hpp"

namespace mppnet::machines::metro::detail {

namespace {

using design::misleading_pairs;
using design::table_6_1;

using core::Tolerance;
using core::ValidationCase;

ValidationCase calc(std::string id, std::string source, std::string setup, std::string quantity,
                    double expected, std::function<double()> measure) {
  return {
      .id = std::move(id),
      .source = std::string(kThesis) + ", " + std::move(source),
      .setup = std::move(setup),
      .quantity = std::move(quantity),
      .expected = expected,
      .tolerance = Tolerance::relative_to(1e-9),
      .slow = false,
      .measure = std::move(measure),
      .evidence = core::Evidence::ClosedForm,
      .tolerance_origin = "exact arithmetic: 1e-9 relative allows floating-point rounding only",
  };
}

// The edge of the interval of driver impedances k (in Z0) whose source end first crosses V/2 at 2T, by
// bisection between a k inside (first_half_crossing = 1) and one outside.
double crossing_edge(double inside, double outside) {
  for (int i = 0; i < 200; ++i) {
    const double mid = (inside + outside) / 2;
    (first_half_crossing(mid) == 1 ? inside : outside) = mid;
  }
  return (inside + outside) / 2;
}

}  // namespace

void add_design_cases(std::vector<ValidationCase>& cases) {
  // R6: §2.3-2.5.
  const std::string s25 = "§2.5, Eqs 2.15-2.17 (L676-686)";
  cases.push_back(calc("metro.r6.system_failure_rate", s25, "10^6 parts at 10^-5 failures/h",
                       "lambda_s (failures/h)", 10,
                       [] { return system_failure_rate_per_hour(1000000, 1e-5); }));
  cases.push_back(calc("metro.r6.mttf_million_parts_minutes", s25,
                       "10^6 parts at 10^-5 failures/h, no fault tolerance", "MTTF (minutes)", 6,
                       [] { return 60 * mttf_hours(1000000, 1e-5, 1); }));
  cases.push_back(calc("metro.r6.mttf_thousand_faults_hours", s25,
                       "10^6 parts at 10^-5 /h, 1000 faults tolerated", "MTTF (hours)", 100,
                       [] { return mttf_hours(1000000, 1e-5, 1000); }));
  const std::string s23 = "§2.3, Eqs 2.2-2.3 (L590-594)";
  cases.push_back(calc("metro.r6.fr4_speed", s23, "eps_r = 4", "propagation speed (cm/ns)", 15,
                       [] { return propagation_speed_cm_per_ns(4); }));
  cases.push_back(calc("metro.r6.fr4_30cm_transit", s23 + ", §1.3.3 (L490)", "30 cm on FR4", "transit (ns)",
                       2, [] { return transit_ns(30, 4); }));
  cases.push_back(calc("metro.r6.eq31_pipelined_transit",
                       "§3.2, Eq 3.1, its units read as docs/metro.md §5 item 7 does",
                       "wires of 30 cm and 90 cm on FR4, 5 ns clock", "transit (ns)", 15, [] {
                         const std::vector<double> seg = {30, 90};
                         return pipelined_transit_ns(seg, 4, 5);
                       }));
  // Targets 1-3: impedance selection (§6.8).
  const std::string s68 = "§6.8, Table 6.1, Figs 6.22-6.23";
  for (const int length : {16, 15})
    cases.push_back(calc(std::string("metro.t1.impedance_table_6_1") + (length == 15 ? "_register_15" : ""),
                         s68, "Table 6.1 samples, " + std::to_string(length) + "-bit register",
                         "selected code", 0x06,
                         [length] { return select_impedance_code(table_6_1(length), length); }));
  cases.push_back(calc("metro.t2.impedance_misleading_pairs",
                       "derived from " + s68 + ": the selection rule on synthetic trip indices",
                       "trip indices 11,10,9,8,7,6,6,6,6,6,6,4,4,... (32 codes)", "selected code", 3,
                       [] { return select_impedance_code(misleading_pairs(), 16); }));
  auto naive = calc("metro.t2.naive_pair_rule_misled",
                    "derived from " + s68 + ": the selection rule on synthetic trip indices",
                    "the same trip indices, the naive "
                    "rule (lower code of the adjacent pair with the largest change)",
                    "code", 10, [] { return naive_pairwise_code(misleading_pairs()); });
  naive.tolerance = Tolerance::absolute_band(0, 1);
  naive.tolerance_origin = "the derivation's band: 10 or 11 (two adjacent pairs tie)";
  cases.push_back(std::move(naive));
  cases.push_back(calc(
      "metro.t3.impedance_outer_loop", "derived from " + s68 + ": Fig 6.22's outer loop on synthetic codes",
      "synthetic codes h = 20 + l/16, l = 12 + h/16, start l = 16, cap 8", "iterations to converge", 3, [] {
        const auto c =
            set_impedance([](int l) { return 20 + l / 16; }, [](int h) { return 12 + h / 16; }, 16);
        return c.converged ? static_cast<double>(c.iterations) : -1.0;
      }));
  cases.push_back(calc("metro.t3.impedance_oscillation_hits_cap",
                       "derived from " + s68 + ": Fig 6.22's outer loop on synthetic codes",
                       "oscillating synthetic codes (h = 5 or 6, l = 7 or 8), cap 8",
                       "iterations when the cap stops it (-1 if it converged)", 8, [] {
                         const auto c = set_impedance([](int l) { return l % 2 == 0 ? 5 : 6; },
                                                      [](int h) { return h == 5 ? 7 : 8; }, 16, 8);
                         return c.converged ? -1.0 : static_cast<double>(c.iterations);
                       }));
  // Targets 4-5: transmission lines (Ch. 6).
  const std::string s6 = "derived from Ch. 6 (§6.2-6.3)";
  cases.push_back(calc("metro.t4.bounce_3z0_first_plateau", s6, "driver 3 Z0, open line, unit step",
                       "source voltage in 0..2T (V)", 0.25, [] { return source_plateau(3, 0); }));
  cases.push_back(calc("metro.t4.bounce_3z0_second_plateau", s6, "driver 3 Z0, open line, unit step",
                       "source voltage in 2T..4T (V)", 0.625, [] { return source_plateau(3, 1); }));
  cases.push_back(calc("metro.t4.bounce_matched_source_first", s6, "driver Z0, open line, unit step",
                       "source voltage in 0..2T (V)", 0.5, [] { return source_plateau(1, 0); }));
  cases.push_back(calc("metro.t4.bounce_matched_source_second", s6, "driver Z0, open line, unit step",
                       "source voltage from 2T (V)", 1.0, [] { return source_plateau(1, 1); }));
  cases.push_back(calc("metro.t4.bounce_matched_far_end", s6, "driver Z0, open line, unit step",
                       "far-end voltage from T (V)", 1.0, [] { return far_end_plateau(1, 0); }));
  auto edge = [&](const char* id, const char* what, double expected, double inside, double outside) {
    auto c = calc(id, s6 + " (1 < k < 2 + sqrt 5)", "driver k Z0, open line; bisection on k", what, expected,
                  [inside, outside] { return crossing_edge(inside, outside); });
    c.tolerance = Tolerance::absolute(1e-9);
    c.tolerance_origin = "bisection to machine precision; 1e-9 absolute";
    cases.push_back(std::move(c));
  };
  edge("metro.t4.half_crossing_at_2t_upper_k", "largest k whose source crosses V/2 at 2T", 2 + std::sqrt(5.0),
       2.0, 10.0);
  edge("metro.t4.half_crossing_at_2t_lower_k", "smallest k whose source crosses V/2 at 2T", 1.0, 2.0, 0.5);
  cases.push_back(calc("metro.t5.series_power_5v_50ohm", s6, "5 V into 50 ohm, series termination",
                       "power (W)", 0.25, [] { return series_termination_watts(5, 50); }));
  cases.push_back(calc("metro.t5.series_power_1v_50ohm", s6, "1 V into 50 ohm, series termination",
                       "power (W)", 0.01, [] { return series_termination_watts(1, 50); }));
  cases.push_back(calc("metro.t5.parallel_power_1v_50ohm", s6, "1 V into 50 ohm, parallel termination",
                       "power (W)", 0.02, [] { return parallel_termination_watts(1, 50); }));
  // Targets 6-9: recycle register, wire budget, MBTA, RN1.
  cases.push_back(calc("metro.t6.recycle_register", "§6.9 (L2489)", "200 MHz, 100 ps inverters",
                       "inverter pairs", 25, [] { return recycle_register_pairs(200, 100); }));
  const std::string s92 = "§9.2 (L2967)";
  cases.push_back(calc("metro.t7.wire_budget", s92, "3 ns pad pair + 30 cm on FR4 at 200 MHz", "clock cycles",
                       1, [] { return wire_cycles(3.0, 30, 4, 5.0); }));
  cases.push_back(calc("metro.t7.longer_wire_cycles", s92, "3 ns pad pair + 31 cm on FR4 at 200 MHz",
                       "clock cycles (pipelined wire)", 2, [] { return wire_cycles(3.0, 31, 4, 5.0); }));
  cases.push_back(calc("metro.t7.extra_turn_cycles", s92, "a wire of 2 cycles", "extra turn delay (cycles)",
                       2, [] { return extra_turn_cycles(2); }));
  const std::string s10 = "§10.2 (L2981-2997)";
  cases.push_back(calc("metro.t8.mbta_unloaded_latency", s10, "3 routers + 4 chip crossings at 100 MHz",
                       "T_unloaded (ns)", 70, [] { return unloaded_latency_ns(3, 4, 10); }));
  cases.push_back(calc("metro.t8.mbta_unloaded_latency_200mhz", s10, "the same at 200 MHz", "T_unloaded (ns)",
                       35, [] { return unloaded_latency_ns(3, 4, 5); }));
  cases.push_back(calc("metro.t8.mbta_peak_bandwidth", s10, "64 nodes x 100 MB/s", "peak (MB/s)", 6400,
                       [] { return peak_network_mb_per_s(64, 100); }));
  cases.push_back(calc("metro.t8.mbta_node_peak", s10, "1 input + 2 outputs at 100 MB/s", "per node (MB/s)",
                       300, [] { return node_peak_mb_per_s(1, 2, 100); }));
  cases.push_back(calc("metro.t8.mbta_memory", s10, "4 users x 8 B every 80 ns", "memory (MB/s)", 400,
                       [] { return slotted_memory_mb_per_s(4, 8, 80); }));
  cases.push_back(calc("metro.t8.mbta_transmit_24b", s10, "24 B, byte-wide, 10 ns", "T_transmit (ns)", 240,
                       [] { return transmit_ns(24 * 8, 8, 10); }));
  cases.push_back(calc("metro.t9.rn1_hop", "Ch. 8 (L2923)", "t_io 20 ns + t_switch 14 ns", "t_nl (ns)", 34,
                       [] { return router_hop_ns(20, 14); }));
  // Target 10: unit trees (§7.5.3-7.5.4, Table 7.4).
  const std::string s75 = "§7.5.3-7.5.4, Table 7.4";
  cases.push_back(calc("metro.t10.logical_levels", s75, "RN1 unit tree r=4 d=2", "r_p = r^(r-1)", 64,
                       [] { return static_cast<double>(unit_tree(4, 2, 2).logical_levels); }));
  // The routers of each role (up, final, middle and initial down: 16/16/12/8 and 64/64/48/32) are counted
  // once, on the built tree (metro.ft.ut64x*, validation_trees.cpp); design_test.cpp checks the
  // calculator gives them too.
  for (const auto& [cl, name, root, total] :
       {std::tuple{2, "ut64x2", 32, 52}, std::tuple{8, "ut64x8", 128, 208}}) {
    const std::string setup = std::string("RN1 unit tree r=4 d=2 c_l=") + std::to_string(cl);
    cases.push_back(calc(std::string("metro.t10.") + name + "_root_channels", s75, setup, "c_r = c_l r^(r-2)",
                         root, [cl = cl] { return static_cast<double>(unit_tree(4, 2, cl).root_channels); }));
    cases.push_back(calc(std::string("metro.t10.") + name + "_total_routers", s75, setup,
                         "routers in the unit tree", total,
                         [cl = cl] { return static_cast<double>(unit_tree(4, 2, cl).total_routers()); }));
  }
  // Target 11: stack geometry (§7.3-7.5).
  const std::string s73 = "§7.3, §7.5, Ch. 12 (L3071)";
  cases.push_back(calc("metro.t11.layer_pitch", s73, "100 mil board + 140 mil gap", "layer pitch (in)", 0.24,
                       [] { return stack_height_in(1, 100, 140); }));
  cases.push_back(calc("metro.t11.mbta_stack", s73, "19 layers", "stack height without plates (in)", 4.56,
                       [] { return stack_height_in(19, 100, 140); }));
  cases.push_back(calc("metro.t11.mbta_board", s73, "16 routers, 4 x 4 on 3 in centres", "board side (in)",
                       12, [] { return board_side_in(4, 3.0); }));
  cases.push_back(calc("metro.t11.ut64x2_board", s73, "4 x 4 parts on 2.8 in centres", "board side (in)",
                       11.2, [] { return board_side_in(4, 2.8); }));
  cases.push_back(calc("metro.t11.ut64x8_board", s73, "8 x 8 parts on 2.8 in centres", "board side (in)",
                       22.4, [] { return board_side_in(8, 2.8); }));
  // Target 14: the FLAT24 rate (App. A.3.5).
  cases.push_back(calc("metro.t14.flat24_rate", "App. A.3.5 (L3303)",
                       "15% misses, 50% non-local, 2 router cycles per processor cycle, +10% coherence",
                       "messages per router cycle", 0.04125, [] { return flat24_rate(0.15, 0.5, 2, 0.1); }));
}

}  // namespace mppnet::machines::metro::detail
