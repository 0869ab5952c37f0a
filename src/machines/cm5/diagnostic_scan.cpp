// machines/cm5/diagnostic_scan.cpp: the chip type's ATPG pattern set and the scan outputs of pods.
#include "machines/cm5/diagnostic_scan.hpp"

#include <utility>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace mppnet::machines::cm5 {

namespace {

// Component ids of the pattern's random streams (core/rng.hpp): the logic mask and the stimuli.
constexpr std::uint64_t kLogicComponent = 0xd1a6;
constexpr std::uint64_t kStimulusComponent = 0xd1a7;

}  // namespace

ScanSystem::ScanSystem(int pods, const ScanParams& params) : params_(params) {
  (void)pods;  // any pod may be asked for; only the faulty ones are stored
  MPPNET_ASSERT(params.chain_bits >= 1 && params.vector_pairs >= 1 && params.chips_per_pod >= 1,
                "scan parameters out of range");
  words_ = (params.chain_bits + 63) / 64;
  const int tail = params.chain_bits % 64;
  last_mask_ = tail == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << tail) - 1;
  // The chip type's logic: response = stimulus XOR mask. Any fixed function would do; XOR keeps the
  // complement property the pattern set relies on (complemented stimulus, complemented response).
  core::RandomStream logic(params.seed, kLogicComponent, core::Stream::Setup);
  std::vector<std::uint64_t> mask(static_cast<std::size_t>(words_));
  for (std::uint64_t& w : mask) w = logic.next_u64();
  core::RandomStream draw(params.seed, kStimulusComponent, core::Stream::Setup);
  for (int pair = 0; pair < params.vector_pairs; ++pair) {
    std::vector<std::uint64_t> s(static_cast<std::size_t>(words_));
    for (std::uint64_t& w : s) w = draw.next_u64();
    for (int k = 0; k < 2; ++k) {
      std::vector<std::uint64_t> in(s.size()), r(s.size());
      for (std::size_t i = 0; i < s.size(); ++i) {
        const std::uint64_t keep = i + 1 == s.size() ? last_mask_ : ~std::uint64_t{0};
        in[i] = (k == 0 ? s[i] : ~s[i]) & keep;
        r[i] = (in[i] ^ mask[i]) & keep;
      }
      stimulus_.push_back(std::move(in));
      response_.push_back(std::move(r));
    }
  }
}

void ScanSystem::inject(const StuckAt& f) {
  MPPNET_ASSERT(f.chip >= 0 && f.chip < params_.chips_per_pod && f.bit >= 0 && f.bit < params_.chain_bits &&
                    (f.value == 0 || f.value == 1),
                "stuck-at fault outside the pod's chain");
  faults_[f.pod].push_back(f);
}

void ScanSystem::scan_out(int pod, int chip, int t, std::vector<std::uint64_t>& out) const {
  out = expected(t);
  const auto it = faults_.find(pod);
  if (it == faults_.end()) return;
  for (const StuckAt& f : it->second) {
    if (f.chip != chip) continue;
    const std::uint64_t bit = std::uint64_t{1} << (f.bit % 64);
    std::uint64_t& w = out[static_cast<std::size_t>(f.bit / 64)];
    w = f.value != 0 ? (w | bit) : (w & ~bit);
  }
}

}  // namespace mppnet::machines::cm5
