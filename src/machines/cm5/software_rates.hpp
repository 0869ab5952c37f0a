// machines/cm5/software_rates.hpp: what node programs get out of the data network, software included.
//
// The paper's empirical figures (L233-237) include the processor's work of sending and receiving:
// more than 4 MB/s per node in and out on random permutations, about 15 MB/s on nearest-neighbour
// traffic in 2-D and 3-D grids, 3 to 7 us of latency depending on the machine's size. These runs
// measure the same things with node programs (am/) on the CM-5 model, each message an active message
// of 4 argument words: 5 words on the network, 16 bytes of payload.
#pragma once

#include "am/am_params.hpp"
#include "core/types.hpp"
#include "machines/cm5/network_interface.hpp"

namespace mppnet::machines::cm5 {

enum class Partners {
  Grid2d,             // the 4 neighbours in a 2-D torus laid out in Z order (subgrids in subtrees)
  RandomPermutation,  // one partner, a random permutation without fixed points
};

struct SoftwareRate {
  // Per node, sent (= received): the 5 data words of every message, which is what the paper counts as
  // the data a processor puts into the network; and the active messages' payload, 4 of those words (the
  // fifth holds the handler's index).
  double data_mb_per_s = 0;
  double payload_mb_per_s = 0;
  double time_us = 0;
};

// Every node sends `messages` one-way 5-word active messages (am's notify, on the sides `one_way` says)
// to its partners in turn, and waits for as many.
// REQUIRES: nodes a power of 4 for Grid2d.
SoftwareRate software_rate(int nodes, Partners partners, int messages, const am::AmParams& am,
                           std::uint64_t seed, Sides one_way = Sides::Both);

// Microseconds from node 0 starting to send a 1-word active message to the last node until that node's
// handler has read it, on an idle machine.
double software_latency_us(int nodes, const am::AmParams& am);

}  // namespace mppnet::machines::cm5
