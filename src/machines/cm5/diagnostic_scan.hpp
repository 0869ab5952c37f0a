// machines/cm5/diagnostic_scan.hpp: what a pod answers to a scan test: chips in a JTAG daisy chain,
// one ATPG pattern set for the chip type, and stuck-at faults on scan cells.
//
// The paper (L671-690, L762-766): every CM-5 VLSI chip has JTAG with full internal scan; ATPG vectors
// (over 99% of single stuck-at faults) are applied in the system through the diagnostic network; a
// pod's chips are daisy-chained, clock and control in parallel. The model keeps what the diagnosis
// needs and no more:
//  - a chip is a scan chain of `chain_bits` cells; a test vector shifts a stimulus in and the captured
//    response out. The logic between the cells is a fixed pseudo-random function of the chip type
//    (response = stimulus XOR a mask), standing in for the real combinational logic;
//  - the ATPG set is `vector_pairs` pseudo-random stimuli each followed by its complement. A pair's two
//    responses are then complements, so every cell's expected value is 0 in one vector and 1 in the
//    other: a cell stuck at 0 is caught by the vector expecting 1, a cell stuck at 1 by the one
//    expecting 0. Every single stuck-at cell is detected (the paper claims over 99%);
//  - a stuck-at fault forces one cell of one chip to 0 or 1 in every vector it captures.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace mppnet::machines::cm5 {

struct ScanParams {
  int chain_bits = 64;    // scan cells a chip (real chips hold thousands; the diagnosis does not care)
  int vector_pairs = 4;   // ATPG vectors = 2 * vector_pairs
  int chips_per_pod = 4;  // chips in a pod's daisy chain
  std::uint64_t seed = 1;
};

struct StuckAt {
  int pod = 0;
  int chip = 0;  // its place in the pod's chain, 0 first
  int bit = 0;   // the cell in the chip's chain
  int value = 0;
};

class ScanSystem {
 public:
  // `pods` leaves of the diagnostic tree (absent ones are never selected). REQUIRES params in range.
  ScanSystem(int pods, const ScanParams& params);

  const ScanParams& params() const { return params_; }
  int vectors() const { return 2 * params_.vector_pairs; }
  int words() const { return words_; }  // 64-bit words of one chip's chain
  // The chip type's stimulus and fault-free response of vector t, one chip's chain.
  const std::vector<std::uint64_t>& stimulus(int t) const { return stimulus_[static_cast<std::size_t>(t)]; }
  const std::vector<std::uint64_t>& expected(int t) const { return response_[static_cast<std::size_t>(t)]; }
  // Cells of the last word that exist (chain_bits need not be a multiple of 64).
  std::uint64_t last_word_mask() const { return last_mask_; }

  void inject(const StuckAt& f);
  bool faulty(int pod) const { return faults_.count(pod) > 0; }
  // What chip `chip` of pod `pod` scans out for vector t: the expected response, with its stuck cells
  // forced. (A fault-free chip returns the expected response: the model has no other faults.)
  void scan_out(int pod, int chip, int t, std::vector<std::uint64_t>& out) const;

 private:
  ScanParams params_;
  int words_ = 0;
  std::uint64_t last_mask_ = 0;
  std::vector<std::vector<std::uint64_t>> stimulus_, response_;
  std::map<int, std::vector<StuckAt>> faults_;  // by pod: few, so a map
};

}  // namespace mppnet::machines::cm5
