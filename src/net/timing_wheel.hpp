// net/timing_wheel.hpp: what channels deliver in a future cycle, kept in a ring of per-cycle slots.
//
// Slot (t % slots) holds what arrives at cycle t. Every slot has room for the most one cycle can bring
// (one flit per channel, one credit per input port and crossbar pass), allocated once, so posting is a
// store through an open cursor. Every delay is at least one cycle, so the slot being read is never one
// being written.
#pragma once

#include <vector>

#include "core/error.hpp"

namespace mppnet::net {

template <class T>
class WheelSlots {
 public:
  void reset(int slots, int capacity) {
    capacity_ = capacity;
    items_.assign(static_cast<std::size_t>(slots) * capacity, T{});
    count_.assign(slots, 0);
  }
  // Appending during a cycle: open() returns where the slot's next item goes, the caller appends
  // through it (one store and an increment per item) and close() records how far it got.
  T* open(int slot) { return &items_[static_cast<std::size_t>(slot) * capacity_] + count_[slot]; }
  void close(int slot, const T* cursor) {
    count_[slot] = static_cast<int>(cursor - begin(slot));
    MPPNET_ASSERT(count_[slot] <= capacity_, "more arrivals in one cycle than channels");
  }
  const T* begin(int slot) const { return &items_[static_cast<std::size_t>(slot) * capacity_]; }
  const T* end(int slot) const { return begin(slot) + count_[slot]; }
  void clear(int slot) { count_[slot] = 0; }

 private:
  int capacity_ = 0;
  std::vector<T> items_;
  std::vector<int> count_;
};

}  // namespace mppnet::net
