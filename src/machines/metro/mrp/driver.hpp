// machines/metro/mrp/driver.hpp: runs scripted connections over an MRP network, one cycle per step().
//
// Each step every endpoint reads what arrived and drives its word, then every router evaluates and the
// cycle's words are latched (MrpNetwork::step). Endpoints and routers read only words of the cycle before,
// so the order of visits changes nothing. Later increments put this behind core::Scheduler.
#pragma once

#include <cstdint>
#include <vector>

#include "machines/metro/mrp/endpoint.hpp"
#include "machines/metro/mrp/mrp_network.hpp"

namespace mppnet::machines::metro::mrp {

// The ROUTE word to node `dest` (§4.6, L1447-1451): stage k's direction is the k-th base-r digit of
// `dest`, most significant first (a stage-k class is a destination prefix, multibutterfly.hpp), in field
// k of the word, since each router-to-router link rotates the word by one field.
// REQUIRES: stages * field_bits <= width (no SWALLOW).
Word route_to(const WordFormat& format, int radix, int stages, NodeId dest);

// Data words tagged for traces: D1..Dn (source) or Y1..Yn (reply), numbered from `first`; the bits are
// arbitrary test data derived from the number.
std::vector<Word> data_words(const WordFormat& format, Tag tag, int count, int first = 1);

class MrpDriver {
 public:
  explicit MrpDriver(MrpNetwork& net) : net_(net) {}

  // A connection from node x's network input q to node y, starting at cycle `start`: the source sends
  // `source` segments, and each of y's network outputs answers with `reply` segments (only the output
  // the connection reaches ever hears it). Returns the index of the source end.
  int connect(NodeId x, int q, NodeId y, std::int64_t start, std::vector<std::vector<Word>> source,
              std::vector<std::vector<Word>> reply);

  const ScriptedEnd& end(int k) const { return ends_[k]; }
  // The destination end that heard the connection from source end `k`, or nullptr.
  const ScriptedEnd* destination_of(int k) const;

  void step();
  void run(int cycles) {
    for (int c = 0; c < cycles; ++c) step();
  }

 private:
  MrpNetwork& net_;
  std::vector<ScriptedEnd> ends_;
  std::vector<std::pair<int, int>> destinations_;  // per source end: its destinations' first index and count
};

}  // namespace mppnet::machines::metro::mrp
