// machines/cm1/validation.cpp: one case per claim of note 001 §5 (E1-E12) that the model reproduces.
//
// Line numbers "Lnnn" are lines of ../shared/reference/seeds/001_7818ab52ca93e68b.txt (Kahle, Kuszmaul,
// Hillis, "The Connection Machine Message Router", TMC 1989). Where the paper's prose and the simulated
// value differ, the expected value is the paper's and the case may fail; docs/cm1.md explains each one.
#include "machines/cm1/validation.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "machines/cm1/patterns.hpp"
#include "machines/cm1/router.hpp"
#include "machines/cm1/run.hpp"
#include "machines/cm1/timing.hpp"

namespace mppnet::machines::cm1 {

namespace {

using core::Tolerance;
using core::ValidationCase;

constexpr const char* kPaper = "Kahle, Kuszmaul, Hillis 1989 (seed 001)";

ValidationCase exact_constant(std::string id, std::string where, std::string quantity, double expected,
                              std::function<double()> measure) {
  return {std::move(id),
          std::string(kPaper) + ", " + std::move(where),
          "closed form, c = 12, b = 7, l = 50 (d = 32, no VP bits)",
          std::move(quantity),
          expected,
          Tolerance::exact(),
          false,
          std::move(measure)};
}

// Slope of log p against log v by least squares.
double log_log_slope(const std::vector<double>& v, const std::vector<double>& p) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double x = std::log(v[i]), y = std::log(p[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// Bit-level: MSGP delay through `sites` clocked heart sites.
double clocked_msgp_delay(int sites) {
  const FieldWidths w{12, 4, 0, 32};
  auto stream = encode({0xabc, 3, 0, 0x55aa55aa}, w);
  int delay = 0;
  for (int i = 0; i < sites; ++i) {
    const auto out = clock_heart_site(stream, 12, false);
    int first = 0;
    while (out[static_cast<std::size_t>(first)] == 0) ++first;
    delay += first;
    stream.assign(out.begin() + first, out.end());
  }
  return delay;
}

}  // namespace

double mean_petit_cycles(Cm1Config c, int seeds) {
  double sum = 0;
  for (int s = 1; s <= seeds; ++s) {
    c.run.seed = s;
    sum += static_cast<double>(run_routing(c).stats.petit_cycles);
  }
  return sum / seeds;
}

std::vector<ValidationCase> cm1_validation_cases() {
  std::vector<ValidationCase> cases;
  constexpr int kC = 12, kB = 7, kL = 50;

  // --- E1: constants and pipeline figures (exact) ---
  cases.push_back(exact_constant("cm1.e1.message_length", "L78-L99, L185", "message length l, bits", 50,
                                 [] { return message_bits(12, 16, 1, 32); }));
  cases.push_back(exact_constant("cm1.e1.in_order_storage", "L181-L183", "in-order heart storage, bits", 630,
                                 [] { return static_cast<double>(in_order_storage_bits(kB, kC)); }));
  cases.push_back(exact_constant("cm1.e1.in_order_heart_delay", "L187-L189",
                                 "in-order heart delay, bit-times", 140,
                                 [] { return in_order_heart_delay(kL, kC); }));
  cases.push_back(exact_constant("cm1.e1.in_order_petit_cycle", "L189", "in-order petit cycle, bit-times", 90,
                                 [] { return in_order_petit_period(kL, kC); }));
  cases.push_back(exact_constant("cm1.e1.two_batch_petit_cycle", "L191-L194",
                                 "in-order, two interleaved batches: petit cycle, bit-times", 100,
                                 [] { return in_order_two_batch_period(kL, kC); }));
  cases.push_back(exact_constant("cm1.e1.drop_bits_storage", "L218", "drop-bits heart storage, bits", 168,
                                 [] { return static_cast<double>(drop_bits_storage_bits(kB, kC)); }));
  cases.push_back(exact_constant("cm1.e1.drop_bits_heart_delay", "L220-L224",
                                 "drop-bits heart delay, bit-times", 62,
                                 [] { return drop_bits_heart_delay(kL, kC); }));
  cases.push_back(exact_constant("cm1.e1.rotating_storage", "L236", "rotating heart storage, bits", 168,
                                 [] { return static_cast<double>(rotating_storage_bits(kB, kC)); }));
  cases.push_back(exact_constant("cm1.e1.rotating_heart_delay", "L240-L244",
                                 "rotating heart delay, bit-times", 74,
                                 [] { return rotating_heart_delay(kL, kC); }));
  cases.push_back(
      exact_constant("cm1.e1.delivery_time_p12", "L248-L250", "delivery cycle, p = 12, bit-times", 624,
                     [] { return static_cast<double>(delivery_bit_times(Pipeline::Rotating, 12, kL, kC)); }));
  cases.push_back(exact_constant("cm1.e1.injector_sites", "L109", "injector switch sites", 112,
                                 [] { return injector_sites(kB, 16); }));
  cases.push_back(exact_constant("cm1.e1.heart_sites", "L119", "heart sites (12 columns x 7)", 84,
                                 [] { return heart_sites(kB, kC); }));

  // --- E2: the clocked heart ---
  cases.push_back({"cm1.e2.column_delay", std::string(kPaper) + ", L238",
                   "one clocked heart site, 50-bit stream", "MSGP delay through one column, bit-times", 2,
                   Tolerance::exact(), false, [] { return clocked_msgp_delay(1); }});
  cases.push_back({"cm1.e2.heart_latency_bit_level", std::string(kPaper) + ", L240-L244",
                   "12 clocked heart sites, 50-bit stream", "MSGP delay + l through the heart, bit-times", 74,
                   Tolerance::exact(), false, [] { return clocked_msgp_delay(12) + kL; }});

  // --- E3: the complement pattern, every message wants every wire (Fig. 10(a), L157) ---
  cases.push_back({"cm1.e3.complement_petit_cycles",
                   std::string(kPaper) + ", Fig. 10(a) caption (L157); p = 16v derived in note 001 §5 E3",
                   "64K processors, complement of the processor address, VP ratio 1", "petit cycles", 16,
                   Tolerance::exact(), false, [] {
                     Cm1Config c;
                     c.traffic.pattern = Pattern::Complement;
                     return static_cast<double>(run_routing(c).stats.petit_cycles);
                   }});

  // --- E4: Fig. 12, petit cycles vs VP ratio for random patterns ---
  cases.push_back(
      {"cm1.e4.petit_cycles_v1",
       std::string(kPaper) + ", L278 (about 1/3 above the bound at VP ratio 1) and L250 (typical p = 12)",
       "64K, random function, VP ratio 1, mean of seeds 1-10", "petit cycles", 12,
       // Note 001 §5 E4 acceptance band [11, 15]: the figure's data did not survive OCR.
       Tolerance::absolute_band(1, 3), true, [] { return mean_petit_cycles(Cm1Config{}, 10); }});
  cases.push_back({"cm1.e4.above_lower_bound_v1",
                   std::string(kPaper) + ", L274 (p > 8v with probability 1 - 2^-24)",
                   "64K, random function, VP ratio 1, seeds 1-10", "fewest petit cycles over the seeds", 9,
                   Tolerance::absolute_band(0, std::numeric_limits<double>::infinity()), true, [] {
                     Cm1Config c;
                     double fewest = std::numeric_limits<double>::infinity();
                     for (int s = 1; s <= 10; ++s) {
                       c.run.seed = s;
                       fewest = std::min(fewest, static_cast<double>(run_routing(c).stats.petit_cycles));
                     }
                     return fewest;
                   }});
  cases.push_back(
      {"cm1.e4.approaches_bound_v32", std::string(kPaper) + ", L278 (approaches the bound as v grows)",
       "64K, random function, VP ratio 32, seeds 1-3", "p / 8v", 1.0,
       // 10% is generous for "approaches"; the literal algorithm levels off near 1.37 (docs/cm1.md).
       Tolerance::relative_band(0, 0.10), true, [] {
         Cm1Config c;
         c.traffic.vp_ratio = 32;
         return mean_petit_cycles(c, 3) / (8.0 * 32);
       }});
  cases.back().discrepancy = "the literal algorithm levels off near p/8v = 1.37 (docs/cm1.md, Fig. 12 table)";

  // --- E5: the probability argument (L264-L274) ---
  cases.push_back(
      {"cm1.e5.probability_exact", std::string(kPaper) + ", L264-L272",
       "m = 2^16 messages: P(one dimension-direction needs more than m/4 crossings), exact binomial",
       "probability", 0.5,
       // The paper rounds to 1/2; the exact value is 0.497796 (note 001 §5 E5).
       Tolerance::absolute(0.005), false, [] {
         const double n = 32768;  // m / 2
         const double central = std::exp(std::lgamma(n + 1) - 2 * std::lgamma(n / 2 + 1) - n * std::log(2.0));
         return (1 - central) / 2;
       }});
  cases.push_back({"cm1.e5.monte_carlo", std::string(kPaper) + ", L264-L274",
                   "64K, random function, VP ratio 1, seeds 1-10: the 24 dimension-direction demands",
                   "fraction of demands above 2^14", 0.5,
                   // 240 Bernoulli(0.498) samples: standard deviation 0.032; 0.1 is three of them.
                   Tolerance::absolute(0.1), false, [] {
                     Cm1Config c;
                     int above = 0, total = 0;
                     for (int s = 1; s <= 10; ++s) {
                       const auto dst = make_destinations(c.machine, c.traffic, s);
                       std::int64_t demand[12][2] = {};
                       for (std::uint32_t v = 0; v < dst.size(); ++v) {
                         const std::uint32_t a = v >> 4, b = dst[v] >> 4;  // chips
                         for (std::uint32_t diff = a ^ b; diff; diff &= diff - 1) {
                           const int i = std::countr_zero(diff);
                           ++demand[i][(a >> i) & 1];
                         }
                       }
                       for (auto& d : demand)
                         for (const auto n : d) above += n > (1 << 14), ++total;
                     }
                     return static_cast<double>(above) / total;
                   }});

  // --- E6: wire utilisation (L30) ---
  const auto utilisation = [](bool productive) {
    Cm1Config c;
    c.traffic.vp_ratio = 16;
    const auto r = run_routing(c);
    return productive ? r.productive_fraction : r.wire_utilisation;
  };
  cases.push_back({"cm1.e6.wire_utilisation_v16", std::string(kPaper) + ", L30 (90-95% of wires busy)",
                   "64K, random function, VP ratio 16, seed 1", "channel-slots carrying a message (MSGP = 1)",
                   0.925, Tolerance::absolute(0.025), true, [=] { return utilisation(false); }});
  cases.push_back({"cm1.e6.productive_utilisation_v16", std::string(kPaper) + ", L30 (\"a productive bit\")",
                   "64K, random function, VP ratio 16, seed 1",
                   "channel-slots carrying a productive crossing", 0.925, Tolerance::absolute(0.025), true,
                   [=] { return utilisation(true); }});
  cases.back().discrepancy =
      "productive crossings stay near 81%; 90% counts every busy slot (docs/cm1.md, E6)";

  // --- E7: throughput in messages per bit-time (the paper gives no clock) ---
  cases.push_back({"cm1.e7.messages_per_bit_time_v1",
                   std::string(kPaper) + ", L10, L30, L250; 105 = 65536 / 624 derived in note 001 §3",
                   "64K, random function, VP ratio 1, 32-bit data, seed 1", "messages per bit-time", 105,
                   // The derived figure assumes p = 12 exactly; +-20% covers p from 10 to 15.
                   Tolerance::relative_to(0.20), false,
                   [] { return run_routing(Cm1Config{}).messages_per_bit_time; }});

  // --- E8: single-eject mode (L113) ---
  cases.push_back(
      {"cm1.e8.single_eject_slowdown", std::string(kPaper) + ", L113 (slowed by 2 to 2.5)",
       "64K, random function, VP ratio 1, seeds 1-3; one message per chip per petit cycle (note §6 A5)",
       "petit cycles, single-eject / normal", 2.25, Tolerance::absolute(0.25), true, [] {
         Cm1Config c;
         const double normal = mean_petit_cycles(c, 3);
         c.cm1.eject_limit = EjectLimit::OnePerChip;
         return mean_petit_cycles(c, 3) / normal;
       }});

  // --- E9: termination with 7 rows (L149-L151) ---
  cases.push_back({"cm1.e9.seven_rows_terminate",
                   std::string(kPaper) + ", L149 (never found a pattern that fails)",
                   "B = 7, VP ratio 1: 64K for random function and permutation, complement, bit reversal, "
                   "transpose, shift, hot spot; a 256-chip machine for all-to-one",
                   "patterns that time out", 0, Tolerance::exact(), true, [] {
                     int failed = 0;
                     for (const auto p : {Pattern::RandomFunction, Pattern::RandomPermutation,
                                          Pattern::Complement, Pattern::BitReversal, Pattern::Transpose,
                                          Pattern::Shift, Pattern::HotSpot, Pattern::AllToOne}) {
                       Cm1Config c;
                       c.traffic.pattern = p;
                       if (p == Pattern::AllToOne) {
                         c.machine.dims = 8;  // 4096 messages into one chip's 8 wires: >= 512 petit cycles
                         c.cm1.timeout_petit_cycles = 20000;
                       }
                       failed += !run_routing(c).stats.terminated;
                     }
                     return failed;
                   }});

  // --- E10: CM-1 one VP bank per petit cycle vs CM-2 indirect addressing (L318) ---
  const auto exponent = [](VpEjection mode) {
    Cm1Config c;
    c.cm1.vp_ejection = mode;
    std::vector<double> vs, ps;
    for (int v = 4; v <= 32; v *= 2) {  // the asymptotic claim; v = 1, 2 are dominated by start-up
      c.traffic.vp_ratio = v;
      vs.push_back(v);
      ps.push_back(mean_petit_cycles(c, 1));
    }
    return log_log_slope(vs, ps);
  };
  cases.push_back({"cm1.e10.cm1_bank_exponent",
                   std::string(kPaper) + ", L318 (on the order of v^2 petit cycles)",
                   "64K, random function, VP ratio 4-32, seed 1, one VP bank per petit cycle (note §6 A6)",
                   "exponent of p in v (least squares, log-log)", 2.0, Tolerance::absolute(0.5), true,
                   [=] { return exponent(VpEjection::OneBank); }});
  cases.push_back({"cm1.e10.cm2_indirect_exponent", std::string(kPaper) + ", L318-L320 (indirect addressing)",
                   "64K, random function, VP ratio 4-32, seed 1, any VP bank per petit cycle",
                   "exponent of p in v (least squares, log-log)", 1.0, Tolerance::absolute(0.15), true,
                   [=] { return exponent(VpEjection::AnyBank); }});

  // --- E11: light load ---
  const auto lone_message = [](bool bits) {
    MachineParams m;
    Router r(m, RouterParams{}, 1);
    std::vector<std::uint32_t> dst(65536, kNoMessage);
    dst[0] = 65535;  // chip 0 to chip 4095: all 12 dimensions
    const auto st = r.route(dst);
    return bits ? static_cast<double>(delivery_bit_times(Pipeline::Rotating, st.petit_cycles, 50, 12))
                : static_cast<double>(st.petit_cycles);
  };
  cases.push_back({"cm1.e11.lone_message_petit_cycles", std::string(kPaper) + ", L129-L147 (note 001 §5 E11)",
                   "64K, one message from chip 0 to chip 4095", "petit cycles", 1, Tolerance::exact(), false,
                   [=] { return lone_message(false); }});
  cases.push_back({"cm1.e11.lone_message_bit_times", std::string(kPaper) + ", L240-L244",
                   "64K, one message from chip 0 to chip 4095, l = 50", "bit-times to the last bit out", 74,
                   Tolerance::exact(), false, [=] { return lone_message(true); }});

  // --- E12: invariants after every column and petit cycle ---
  cases.push_back(
      {"cm1.e12.invariant_violations", std::string(kPaper) + ", L70, L91, L99, L135-L147 (note 001 §5 E12)",
       "64K, random function, VP ratio 2, seed 1, checks on", "violations", 0, Tolerance::exact(), false, [] {
         Cm1Config c;
         c.traffic.vp_ratio = 2;
         c.cm1.check_invariants = true;
         const auto r = run_routing(c);
         return static_cast<double>(r.stats.invariant_violations + (r.stats.delivered != r.stats.messages));
       }});
  return cases;
}

}  // namespace mppnet::machines::cm1
