// core/slot_pool.hpp: a growable pool of records addressed by 32-bit indices.
//
// Free slots form a list through the record's own `next` field, so taking and returning a slot is two
// stores. The pool grows by doubling only when more records are alive than ever before, so the steady
// state allocates nothing. Used for the network's packets and the active-message layer's messages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/error.hpp"

namespace mppnet::core {

// REQUIRES: T has a member `std::uint32_t next`, which the pool owns while the slot is free.
template <class T>
class SlotPool {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffu;

  // A free slot's index. Its record holds whatever its last user left, except next == kNone: callers
  // reset what they need (a packet resets all of it, a message not its payload buffer).
  std::uint32_t allocate() {
    if (free_ == kNone) grow();
    const std::uint32_t id = free_;
    free_ = slots_[id].next;
    slots_[id].next = kNone;
    ++live_;
    return id;
  }
  void release(std::uint32_t id) {
    MPPNET_ASSERT(id < slots_.size(), "release of a slot the pool never gave out");
    slots_[id].next = free_;
    free_ = id;
    --live_;
  }
  T& operator[](std::uint32_t id) { return slots_[id]; }
  const T& operator[](std::uint32_t id) const { return slots_[id]; }
  std::size_t live() const { return live_; }
  std::size_t capacity() const { return slots_.size(); }
  void reserve(std::size_t n) {
    while (slots_.size() < n) grow();
  }

 private:
  void grow() {
    const std::size_t old = slots_.size();
    const std::size_t grown = old == 0 ? 1024 : old * 2;
    slots_.resize(grown);
    for (std::size_t i = grown; i-- > old;) {
      slots_[i].next = free_;
      free_ = static_cast<std::uint32_t>(i);
    }
  }
  std::vector<T> slots_;
  std::uint32_t free_ = kNone;
  std::size_t live_ = 0;
};

}  // namespace mppnet::core
