// machines/cm5/diagnose_run.hpp: a whole diagnosis of a CM-5 data network with a stuck-at fault in one
// router chip: group tests level by level, isolation of the pod, the chain test, the repair, and random
// traffic afterwards. `mppnet cm5-diagnose` prints it; tests check it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machines/cm5/fat_tree_shape.hpp"

namespace mppnet::machines::cm5 {

struct DiagnoseOptions {
  int nodes = 1024;
  ChipId fault_chip = kNoChip;  // kNoChip: drawn from the seed, at fault_level
  int fault_level = 0;          // 0: any level (drawn)
  int stuck = 0;                // stuck-at value, 0 or 1
  int fault_bit = -1;           // the scan cell; -1: drawn
  std::uint64_t seed = 1;
  int messages = 4000;  // random messages of the traffic check
};

struct DiagnoseReport {
  ChipId injected = kNoChip;
  int injected_bit = 0;
  std::vector<int> pods_found;
  std::vector<ChipId> chips_found;
  int group_tests = 0;      // all, including the level-by-level ones
  int isolation_tests = 0;  // of which spent isolating
  int chain_tests = 0;
  std::int64_t diagnostic_cycles = 0;
  bool routed_around = false;  // else the nodes below the chip were mapped out
  int nodes_mapped_out = 0;
  std::int64_t messages_sent = 0;
  std::int64_t messages_delivered = 0;
  std::int64_t through_failed_chip = 0;  // messages counted at any port of the failed chip
  std::string text;                      // the step-by-step account the command prints
};

// Throws core::ConfigError naming the option ("--nodes: ...") when an option is out of range: nodes not
// a CM-5 size (a multiple of 32 from 32 to 16,384), a chip not in the machine, a level above its height,
// a stuck value other than 0 or 1, a scan cell outside the chain.
DiagnoseReport run_diagnosis(const DiagnoseOptions& options);

}  // namespace mppnet::machines::cm5
