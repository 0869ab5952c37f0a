// machines/cm1/validation.cpp: the CM-1 router paper's claims as validation cases, and their helpers.
//
// Each case declares what kind of evidence it is and where its tolerance comes from. Where the paper's
// number and the simulated value differ, the expected value stays the paper's, the tolerance stays what the
// paper's words allow, and the case carries a documented difference, explained in docs/cm1.md ("Where the
// simulation and the paper differ"), with the band the model's value is pinned to. The cases themselves live
// in validation_static.cpp, validation_heart.cpp and validation_load.cpp (validation_parts.hpp says which
// holds what).
#include "machines/cm1/validation.hpp"

#include <algorithm>
#include <bit>

#include "machines/cm1/patterns.hpp"
#include "machines/cm1/run.hpp"
#include "machines/cm1/validation_parts.hpp"

namespace mppnet::machines::cm1 {

namespace detail {

std::array<std::int64_t, 24> dimension_demands(const Cm1Config& c, std::int64_t seed) {
  const auto dst = make_destinations(c.machine, c.traffic, seed);
  const int proc_bits = std::countr_zero(static_cast<std::uint32_t>(c.machine.procs_per_chip));
  const std::uint32_t procs = std::uint32_t{1} << (c.machine.dims + proc_bits);  // physical processors
  // VP = bank * processors + processor, processor = chip * P + local (patterns.hpp).
  const auto chip_of = [&](std::uint32_t vp) { return (vp % procs) >> proc_bits; };
  std::array<std::int64_t, 24> demand{};
  for (std::uint32_t s = 0; s < dst.size(); ++s) {
    if (dst[s] == kNoMessage) continue;
    const std::uint32_t a = chip_of(s), b = chip_of(dst[s]);
    for (std::uint32_t diff = a ^ b; diff != 0; diff &= diff - 1) {
      const int i = std::countr_zero(diff);
      ++demand[static_cast<std::size_t>(2 * i + ((a >> i) & 1))];
    }
  }
  return demand;
}

std::int64_t pattern_load_bound(const Cm1Config& c, std::int64_t seed) {
  const std::int64_t side = std::int64_t{1} << (c.machine.dims - 1);
  std::int64_t bound = 0;
  for (const std::int64_t d : dimension_demands(c, seed)) bound = std::max(bound, (d + side - 1) / side);
  return bound;
}

}  // namespace detail

double mean_petit_cycles(Cm1Config c, int seeds) {
  double sum = 0;
  for (int s = 1; s <= seeds; ++s) {
    c.run.seed = s;
    sum += static_cast<double>(run_routing(c).stats.petit_cycles);
  }
  return sum / seeds;
}

std::vector<core::ValidationCase> cm1_validation_cases() {
  std::vector<core::ValidationCase> cases;
  detail::add_static_cases(cases);
  detail::add_heart_cases(cases);
  detail::add_load_cases(cases);
  return cases;
}

}  // namespace mppnet::machines::cm1
