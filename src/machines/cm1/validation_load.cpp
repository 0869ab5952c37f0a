// machines/cm1/validation_load.cpp: cases for random loads: E4 (Fig. 12, petit cycles against VP ratio),
// E5 (the probability argument), E6 (wire use), E7 (throughput), E8 (single-eject mode), E10 (VP-bank
// ejection on the CM-1 against indirect addressing on the CM-2).
//
// Fig. 12's data did not survive in the reference text; only its prose does (sec. 4.1, L278). The bands
// below are what that prose allows (docs/cm1.md, "Validation"); where the model falls outside them the
// case keeps the paper's value, says why in its documented difference and pins the value the model gives.
// The pinned bands come from seeds 1-10 of the same runs (docs/assumptions.md, "Where a model differs").
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "machines/cm1/run.hpp"
#include "machines/cm1/validation.hpp"
#include "machines/cm1/validation_parts.hpp"

namespace mppnet::machines::cm1::detail {

namespace {

using core::Evidence;
using core::Tolerance;
using core::ValidationCase;

// "Only about a third worse than the optimistic lower bound" at VP ratio 1 (L278). "About a third" is
// nearer a third than the neighbouring simple fractions a quarter and a half, so the excess lies between
// the midpoints 7/24 and 5/12; the bound is 8v = 8 (L262) or its refinement "at least nine" (L274).
constexpr double kThirdLow = 8.0 * (1.0 + 7.0 / 24.0);   // 10.33 petit cycles
constexpr double kThirdHigh = 9.0 * (1.0 + 5.0 / 12.0);  // 12.75
constexpr double kTypicalP = 12;                         // L250's "typical" p, = 9 x 4/3
constexpr const char* kThirdOrigin =
    "'about a third worse' than the bound (L278): excess between 7/24 and 5/12 (midpoints to a quarter and "
    "a half) over a bound of 8 or 9 (L262, L274): 10.33 to 12.75 petit cycles";
constexpr const char* kThirdReason =
    "the literal algorithm takes about 14 petit cycles at VP ratio 1 (1.75 x 8v, not 1.33): nearly every "
    "message is delivered by the 12th, then a tail of about 140 remains (docs/assumptions.md, \"CM-1, "
    "Fig. 12 at VP ratio 1\"; docs/cm1.md, differences)";
// Over seeds 1-10 a random function takes 14 petit cycles at VP ratio 1 on all seeds but one (15); a
// permutation 14 on all but one (13). The mean of 10 seeds then has sd 0.1: pinned within 3 of it.
constexpr const char* kMeanOfTenMargin = "3 sd of a mean of 10 seeds (per-seed p: 14, once 13 or 15)";
// A single seed's p is 14 or 15 on seeds 1-10, so its delivery rate 65536 / (50 p + 24) per bit-time is
// 84.7 or 90.5.
constexpr const char* kSingleSeedMargin = "p = 14 or 15 petit cycles on seeds 1-10: 65536 / (50 p + 24)";
constexpr double kRateAtP15 = 65536.0 / (50 * 15 + 24), kRateAtP14 = 65536.0 / (50 * 14 + 24);

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

Cm1Config with_pattern(Pattern p) {
  Cm1Config c;
  c.traffic.pattern = p;
  return c;
}

// p / 8v at VP ratio 32, seeds 1-3.
double ratio_at_v32(Pattern p) {
  Cm1Config c = with_pattern(p);
  c.traffic.vp_ratio = 32;
  return mean_petit_cycles(c, 3) / (8.0 * 32);
}

// Steps of the Fig. 12 series (v = 1..32, seeds 1-3, random function and random permutation) where p/8v
// does not fall.
double ratio_rises() {
  int rises = 0;
  for (const auto p : {Pattern::RandomFunction, Pattern::RandomPermutation}) {
    Cm1Config c = with_pattern(p);
    double last = 1e300;
    for (int v = 1; v <= 32; v *= 2) {
      c.traffic.vp_ratio = v;
      const double ratio = mean_petit_cycles(c, 3) / (8.0 * v);
      rises += ratio >= last;
      last = ratio;
    }
  }
  return rises;
}

// Seeds 1-10 (random function, VP ratio 1) whose simulated p is below the pattern's own load bound.
double below_load_bound() {
  Cm1Config c;
  int below = 0;
  for (int s = 1; s <= 10; ++s) {
    c.run.seed = s;
    below += run_routing(c).stats.petit_cycles < pattern_load_bound(c, s);
  }
  return below;
}

// Petit cycles with single-eject mode `limit` over normal mode, seeds 1-3.
double single_eject_slowdown(EjectLimit limit) {
  Cm1Config c;
  const double normal = mean_petit_cycles(c, 3);
  c.cm1.eject_limit = limit;
  return mean_petit_cycles(c, 3) / normal;
}

// Exponent of p in v over v = 4..32 (seed 1); v = 1, 2 are dominated by start-up and the claim is asymptotic.
double vp_exponent(VpEjection mode) {
  Cm1Config c;
  c.cm1.vp_ejection = mode;
  std::vector<double> vs, ps;
  for (int v = 4; v <= 32; v *= 2) {
    c.traffic.vp_ratio = v;
    vs.push_back(v);
    ps.push_back(mean_petit_cycles(c, 1));
  }
  return log_log_slope(vs, ps);
}

}  // namespace

void add_load_cases(std::vector<ValidationCase>& cases) {
  // --- E4: Fig. 12, petit cycles against VP ratio for random patterns (sec. 4.1) ---
  // The paper does not say whether its random patterns are functions or permutations: both are run.
  for (const auto& [name, pattern] :
       {std::pair{"", Pattern::RandomFunction}, std::pair{"permutation_", Pattern::RandomPermutation}}) {
    const Pattern pat = pattern;  // older compilers reject capturing a structured binding
    const bool function = pat == Pattern::RandomFunction;
    cases.push_back(
        {.id = std::string("cm1.e4.") + name + "petit_cycles_v1",
         .source =
             paper("sec. 4.1, L278 (about a third above the bound at VP ratio 1) and L250 (typical p = 12)"),
         .setup = std::string("64K, random ") + (function ? "function" : "permutation") +
                  ", VP ratio 1, mean of seeds 1-10",
         .quantity = "petit cycles",
         .expected = kTypicalP,
         .tolerance = Tolerance::absolute_band(kTypicalP - kThirdLow, kThirdHigh - kTypicalP),
         .slow = true,
         .measure = [pat] { return mean_petit_cycles(with_pattern(pat), 10); },
         .difference = core::pinned_around(function ? 14.1 : 13.9, 0.3, kThirdReason, kMeanOfTenMargin),
         .evidence = Evidence::Behaviour,
         .tolerance_origin = std::string(kThirdOrigin) +
                             (function ? " (an earlier band of 11 to 15 took its upper edge from a "
                                         "simulation, not from the paper)"
                                       : "")});
    cases.push_back(
        {.id = std::string("cm1.e4.") + name + "approaches_bound_v32",
         .source = paper("sec. 4.1, L278 (approaches the lower bound as the VP ratio grows)"),
         .setup = std::string("64K, random ") + (function ? "function" : "permutation") +
                  ", VP ratio 32, seeds 1-3",
         .quantity = "p / 8v",
         .expected = 1.0,
         .tolerance = Tolerance::relative_band(0, 0.10),
         .slow = true,
         .measure = [pat] { return ratio_at_v32(pat); },
         // Per seed, p/8v at v = 32 spreads with sd 0.0033 over seeds 1-10 (both patterns).
         .difference = core::pinned_around(
             function ? 1.371 : 1.331, 0.006,
             std::string("the literal algorithm levels off near p/8v = ") + (function ? "1.37" : "1.33") +
                 " (docs/assumptions.md, \"CM-1, Fig. 12 as v grows\"; docs/cm1.md, differences)",
             "3 sd of a mean of 3 seeds (per-seed sd 0.0033 over seeds 1-10)"),
         .evidence = Evidence::Behaviour,
         .tolerance_origin = "the paper gives no figure; 'approaches' read as within 10% at v = 32; the "
                             "verdict holds for any band below +33%"});
  }
  cases.push_back({.id = "cm1.e4.ratio_falls_with_v",
                   .source = paper("sec. 4.1, L278 (as the VP ratio increases, approaches the bound)"),
                   .setup = "64K, VP ratio 1, 2, 4, 8, 16, 32, seeds 1-3, random function and permutation",
                   .quantity = "steps where p/8v does not fall",
                   .expected = 0,
                   .tolerance = Tolerance::exact(),
                   .slow = true,
                   .measure = ratio_rises,
                   .evidence = Evidence::Behaviour,
                   .tolerance_origin = "exact: a count"});
  cases.push_back({.id = "cm1.e4.within_pattern_load_bound_v1",
                   .source = paper("sec. 3.4 (L119: one message per wire per petit cycle) and sec. 4.1 "
                                   "(L260-L264): the bound of each pattern, computed from its destinations"),
                   .setup = "64K, random function, VP ratio 1, seeds 1-10: simulated p against max over "
                            "dimension-directions of ceil(demand / 2048)",
                   .quantity = "seeds whose simulated p beats the pattern's load bound",
                   .expected = 0,
                   .tolerance = Tolerance::exact(),
                   .measure = below_load_bound,
                   .evidence = Evidence::SelfConsistency,
                   .tolerance_origin = "exact: a count"});

  // --- E5: the probability argument (sec. 4.1, L264-L274) ---
  cases.push_back({.id = "cm1.e5.probability_exact",
                   .source = paper("sec. 4.1, L266-L272"),
                   .setup = "m = 2^16 messages: P(one dimension-direction needs more than m/4 crossings), "
                            "the paper's binomial formula evaluated exactly",
                   .quantity = "probability",
                   .expected = 0.5,
                   .tolerance = Tolerance::absolute(0.005),
                   .measure =
                       [] {
                         const double n = 32768;  // m / 2
                         const double central =
                             std::exp(std::lgamma(n + 1) - 2 * std::lgamma(n / 2 + 1) - n * std::log(2.0));
                         return (1 - central) / 2;
                       },
                   .evidence = Evidence::ClosedForm,
                   .tolerance_origin = "the paper's '~ 1/2' (L272) read to two decimal places"});
  cases.push_back(
      {.id = "cm1.e5.monte_carlo",
       .source = paper("sec. 4.1, L264-L274"),
       .setup = "64K, random function, VP ratio 1, seeds 1-10: the 24 dimension-direction demands",
       .quantity = "fraction of demands above 2^14",
       .expected = 0.5,
       .tolerance = Tolerance::absolute(0.1),
       .measure =
           [] {
             int above = 0, total = 0;
             for (int s = 1; s <= 10; ++s)
               for (const auto d : dimension_demands(Cm1Config{}, s)) above += d > (1 << 14), ++total;
             return static_cast<double>(above) / total;
           },
       // The demands come from mppnet's own pattern generator: agreement checks that generator against
       // the paper's probability argument, not the router.
       .evidence = Evidence::SelfConsistency,
       .tolerance_origin = "three standard deviations of 240 Bernoulli(0.498) samples (0.032 each)"});
  cases.push_back(
      {.id = "cm1.e5.patterns_within_8v",
       .source = paper("sec. 4.1, L274 (p <= 8v with probability 2^-24)"),
       .setup = "64K, random function, seeds 1-10 at each VP ratio 1, 2, 4",
       .quantity = "patterns whose 24 demands are all <= 2^14 v",
       .expected = 0,
       .tolerance = Tolerance::exact(),
       .measure =
           [] {
             int within = 0;
             Cm1Config c;
             for (int v = 1; v <= 4; v *= 2) {
               c.traffic.vp_ratio = v;
               for (int s = 1; s <= 10; ++s) {
                 bool all = true;
                 for (const auto d : dimension_demands(c, s)) all = all && d <= (std::int64_t{1} << 14) * v;
                 within += all;
               }
             }
             return within;
           },
       .evidence = Evidence::SelfConsistency,  // mppnet's pattern generator, as cm1.e5.monte_carlo
       .tolerance_origin = "exact: at 2^-24 per pattern, one hit in 30 patterns has odds 2·10^-6"});

  // --- E6: wire use (L30) ---
  cases.push_back(
      {.id = "cm1.e6.productive_utilisation_v16",
       .source = paper("sec. 1, L30 (90% to 95% of the wires productively transmitting a bit)"),
       .setup = "64K, random function, VP ratio 16, seed 1",
       .quantity = "channel-slots carrying a productive crossing",
       .expected = 0.925,
       .tolerance = Tolerance::absolute(0.025),
       .slow = true,
       .measure =
           [] {
             Cm1Config c;
             c.traffic.vp_ratio = 16;
             return run_routing(c).productive_fraction;
           },
       .difference = core::pinned_around(
           0.812, 0.013,
           "productive crossings reach 0.81 at v = 16 and 0.83 at v = 32; 0.905 of the slots carry a message "
           "when desperation hops count too (docs/assumptions.md, \"CM-1, wire use\"; docs/cm1.md, "
           "differences)",
           "3 sd of seeds 1-10 (sd 0.0043)"),
       .evidence = Evidence::Behaviour,
       .tolerance_origin = "the paper's range 90% to 95% (L30)"});

  // --- E7: throughput (sec. 1, L10, L30) ---
  // 65,536 messages in L250's 624 bit-times; the band is the p band of E4 through the delivery formula.
  constexpr double kMessages = 65536;
  const double per_bit_time = kMessages / (50 * kTypicalP + 24);
  cases.push_back(
      {.id = "cm1.e7.messages_per_bit_time_v1",
       .source = paper("sec. 3.4.5, L250 (typical p = 12, 624 bit-times) and sec. 4.1, L278"),
       .setup = "64K, random function, VP ratio 1, 32-bit data, seed 1",
       .quantity = "messages per bit-time",
       .expected = per_bit_time,
       .tolerance = Tolerance::absolute_band(per_bit_time - kMessages / (50 * kThirdHigh + 24),
                                             kMessages / (50 * kThirdLow + 24) - per_bit_time),
       .measure = [] { return run_routing(Cm1Config{}).messages_per_bit_time; },
       .difference = core::PinnedDifference{kRateAtP15, kRateAtP14,
                                            "p = 14 instead of about 12 (as cm1.e4.petit_cycles_v1): 724 "
                                            "bit-times, not 624 (docs/assumptions.md, \"CM-1, Fig. 12 at "
                                            "VP ratio 1\"; docs/cm1.md, differences)",
                                            kSingleSeedMargin},
       .evidence = Evidence::Behaviour,
       .tolerance_origin = "the E4 band of 10.33 to 12.75 petit cycles through p l + 2c (L248); an "
                           "earlier +-20% was wider than the paper's words allow"});
  cases.push_back(
      {.id = "cm1.e7.messages_per_second_v1",
       .source = paper("abstract L10 and sec. 1, L30 (about 2·10^8 32-bit messages per second); "
                       "the clock is not in the paper"),
       .setup = "64K, random function, VP ratio 1, 32-bit data, seed 1, machine.clock_hz = 4 MHz "
                "(assumed: one bit-time per CM-1 processor clock)",
       .quantity = "messages per second",
       .expected = 2e8,
       .tolerance = Tolerance::absolute(0.5e8),
       .measure = [] { return run_routing(Cm1Config{}).messages_per_second; },
       .difference = core::PinnedDifference{4e6 * kRateAtP15, 4e6 * kRateAtP14,
                                            "3.62·10^8 at the assumed 4 MHz bit-time; the paper's "
                                            "figure implies a bit-time near 2.2 MHz "
                                            "(docs/assumptions.md, \"CM-1, messages per "
                                            "second\"; docs/cm1.md, differences)",
                                            kSingleSeedMargin},
       .evidence = Evidence::Behaviour,
       .tolerance_origin = "'about 2·10^8', one significant figure: 1.5 to 2.5·10^8"});

  // --- E8: single-eject mode (sec. 3.3, L113) ---
  cases.push_back({.id = "cm1.e8.single_eject_slowdown",
                   .source = paper("sec. 3.3, L113 (random patterns slowed by 2 to 2.5)"),
                   .setup =
                       "64K, random function, VP ratio 1, seeds 1-3; one message per chip per petit cycle "
                       "(the literal reading, docs/cm1.md A5)",
                   .quantity = "petit cycles, single-eject / normal",
                   .expected = 2.25,
                   .tolerance = Tolerance::absolute(0.25),
                   .slow = true,
                   .measure = [] { return single_eject_slowdown(EjectLimit::OnePerChip); },
                   .evidence = Evidence::Calibration,
                   .tolerance_origin = "the paper's range 2 to 2.5 (L113)",
                   .choices = {{"what 'one message ejected per petit cycle' limits: a chip or a processor",
                                "per chip (docs/cm1.md A5)",
                                "per processor: 1.02, outside 2-2.5 (the case "
                                "cm1.e8.single_eject_per_processor_slowdown); the per-chip reading was "
                                "chosen with this figure in view, so the case is a calibration",
                                true}}});
  cases.push_back({.id = "cm1.e8.single_eject_per_processor_slowdown",
                   .source = paper("sec. 3.3, L113 (random patterns slowed by 2 to 2.5)"),
                   .setup = "64K, random function, VP ratio 1, seeds 1-3; one message per processor per "
                            "petit cycle (the other reading of the mode)",
                   .quantity = "petit cycles, single-eject / normal",
                   .expected = 2.25,
                   .tolerance = Tolerance::absolute(0.25),
                   .slow = true,
                   .measure = [] { return single_eject_slowdown(EjectLimit::OnePerProcessor); },
                   .difference = core::PinnedDifference{1.0, 1.072,
                                                        "read per processor, the mode costs almost nothing "
                                                        "(about 1.0x): evidence for the per-chip reading the "
                                                        "model uses (docs/assumptions.md, \"CM-1, "
                                                        "single-eject mode\"; docs/cm1.md, differences; A5)",
                                                        "the per-seed ratio over seeds 1-10: 1 or 15/14"},
                   .evidence = Evidence::Behaviour,
                   .tolerance_origin = "the paper's range 2 to 2.5 (L113)"});

  // --- E10: CM-1 one VP bank per petit cycle against CM-2 indirect addressing (sec. 4.5, L318) ---
  cases.push_back(
      {.id = "cm1.e10.cm1_bank_exponent",
       .source = paper("sec. 4.5, L318 (on the order of v^2 petit cycles)"),
       .setup = "64K, random function, VP ratio 4-32, seed 1, one VP bank per petit cycle "
                "(docs/cm1.md A6)",
       .quantity = "exponent of p in v (least squares, log-log)",
       .expected = 2.0,
       .tolerance = Tolerance::absolute(0.5),
       .slow = true,
       .measure = [] { return vp_exponent(VpEjection::OneBank); },
       .evidence = Evidence::Calibration,
       .tolerance_origin = "'on the order of v^2': nearer 2 than the neighbouring powers 1 and 3",
       .choices = {{"which VP ratios the exponent is fitted over (the paper and the notes give none)",
                    "v = 4..32: the claim is asymptotic, and v = 1, 2 are dominated by start-up",
                    "p = 14, 27, 66, 184, 587, 2039 petit cycles at v = 1..32 (seed 1) give 1.45 over v = "
                    "1..32 (FAIL), 1.56 over 2..32, 1.74 over 8..32, 1.80 over 16..32 (pass) and 1.24 over "
                    "1..8 (FAIL); the window was in the case's first version together with its result, so "
                    "it cannot be shown to have been fixed first: the case counts as a calibration",
                    true}}});
  cases.push_back(
      {.id = "cm1.e10.cm2_indirect_exponent",
       .source = paper("sec. 4.5, L318 (indirect addressing sustains very high wire use at high VP ratios)"),
       .setup = "64K, random function, VP ratio 4-32, seed 1, any VP bank per petit cycle",
       .quantity = "exponent of p in v (least squares, log-log)",
       .expected = 1.0,
       .tolerance = Tolerance::absolute_band(0.15, std::log(0.95 / 0.90) / std::log(8.0)),
       .slow = true,
       .measure = [] { return vp_exponent(VpEjection::AnyBank); },
       .evidence = Evidence::Behaviour,
       .tolerance_origin = "above: wire use (~ v/p) may fall over the 8x range at most as much as L30's "
                           "90-95% band allows, 1 + log(0.95/0.90)/log 8 = 1.026; below: use may rise as "
                           "start-up amortises, 0.85 only rejects clearly sublinear growth"});
}

}  // namespace mppnet::machines::cm1::detail
