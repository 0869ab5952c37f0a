// core/calendar_queue.hpp: a calendar queue of timed events with FIFO order among equal times.
//
// R. Brown, "Calendar queues: a fast O(1) priority queue implementation for the simulation event set
// problem", CACM 31(10), 1988. Events hash by time into a ring of buckets ("days") of equal width; a pop
// walks the ring from the current day and takes the head of the first bucket whose head falls on the day
// being looked at. The ring doubles when the population exceeds twice the bucket count and halves when
// it falls below half of it, and each resize re-estimates the width from the spacing of the earliest
// events (Brown, sec. 4: three times the mean separation, ignoring separations above twice the mean;
// see estimate_width() for how this one differs).
//
// Departures from the paper, each for a reason:
//  - Times are integers, so bucket boundaries are exact and results are bit-identical across platforms.
//  - Every event carries a sequence number and buckets are ordered by (time, sequence), so events with
//    equal times come out in insertion order and runs are deterministic.
//  - The ring holds one "year" only: the days [day_, day_ + buckets). Events outside it (far in the future,
//    or earlier than the current day, which the paper does not allow) wait in a binary heap and move into
//    the ring when the year reaches them. In the paper, far events share buckets with near ones, so one
//    near push can walk past thousands of equal-time events to get in front of a far event at the tail,
//    and a push behind the cursor sends the next pop around a whole year of empty days. With the window
//    the worst case is a binary heap's O(log n), not O(n).
//  - A bucket is a list of groups of equal time, and each group knows its last node, so a push walks
//    past distinct times only (about three, with the estimated width) and joins its group in O(1): a
//    simulator with clock edges puts thousands of events on one instant.
//  - Brown's estimate fails when the earliest events are not typical (a burst now, the rest later). The
//    queue counts list and ring steps and heap operations on future events; when a window of at least
//    max(64, size) operations averages more than kMaxStepsPerOp steps, or half of them went through the
//    heap, it re-estimates the width (a resize to the same bucket count). The window bounds the rebuild
//    cost to O(log n) amortised per operation.
//  - Events live in a pool of nodes linked by index, with a free list: once the pool, ring and heap have
//    grown to the peak population, push and pop allocate nothing.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace mppnet::core {

template <class Payload = std::uint32_t>
class CalendarQueue {
 public:
  struct Event {
    std::int64_t time;
    Payload payload;
  };

  CalendarQueue() { reset_ring(kMinBuckets, 1, 0); }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  void push(std::int64_t time, Payload payload) {
    const std::uint32_t n = allocate_node();
    nodes_[n].time = time;
    nodes_[n].seq = next_seq_++;
    nodes_[n].payload = std::move(payload);
    const std::int64_t d = day_of(time);
    if (ring_size_ == 0) day_ = d;  // an empty ring can start its year anywhere
    if (in_window(d)) {
      insert_into_ring(n);
    } else {
      if (d > day_) ++heap_ops_;  // a future event that missed the year: a sign the width is too small
      heap_push(n);
    }
    ++size_;
    if (size_ > 2 * heads_.size()) {
      resize(2 * heads_.size());
    } else {
      account_operation();
    }
  }

  // REQUIRES: !empty().
  std::int64_t top_time() const { return nodes_[locate()].time; }
  // REQUIRES: !empty().
  const Payload& top_payload() const { return nodes_[locate()].payload; }

  // Removes and returns the earliest event; among equal times, the one pushed first.
  // REQUIRES: !empty().
  Event pop() {
    const std::uint32_t n = locate();
    const std::int64_t d = day_of(nodes_[n].time);
    if (n == ring_min_) {
      const std::size_t b = bucket_of_day(d);
      MPPNET_ASSERT(heads_[b] == n, "the ring minimum is not at the head of its bucket");
      pop_head(b);
      --ring_size_;
      ring_min_ = kNil;
      day_ = d;  // every day before d is empty now
    } else {
      heap_pop();
      if (d > day_) ++heap_ops_;
      if (ring_size_ == 0) day_ = d;
    }
    Event e{nodes_[n].time, std::move(nodes_[n].payload)};
    free_node(n);
    --size_;
    migrate();
    if (heads_.size() > kMinBuckets && size_ < heads_.size() / 2) {
      resize(heads_.size() / 2);
    } else {
      account_operation();
    }
    return e;
  }

  void clear() {
    nodes_.clear();
    heap_.clear();
    free_ = kNil;
    size_ = 0;
    reset_ring(kMinBuckets, 1, 0);
  }

  // Introspection for tests and tuning.
  std::size_t bucket_count() const { return heads_.size(); }
  std::int64_t bucket_width() const { return width_; }
  std::size_t outside_ring() const { return heap_.size(); }

 private:
  static constexpr std::uint32_t kNil = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::size_t kMinBuckets = 2;
  static constexpr std::size_t kWidthSample = 25;  // Brown samples "a few" (up to 25) leading events
  static constexpr std::uint64_t kMaxStepsPerOp = 8;
  static constexpr std::uint64_t kMinWindow = 64;

  struct Node {
    std::int64_t time;
    std::uint64_t seq;
    Payload payload;
    std::uint32_t next;        // next node in the bucket (or the free list)
    std::uint32_t group_last;  // on the first node of a group of equal times: the group's last node
  };

  static bool before(const Node& a, const Node& b) {
    return a.time != b.time ? a.time < b.time : a.seq < b.seq;
  }

  // Floor division, so negative times map to days consistently.
  std::int64_t day_of(std::int64_t t) const {
    const std::int64_t q = t / width_;
    return (t % width_ != 0 && t < 0) ? q - 1 : q;
  }
  std::size_t bucket_of_day(std::int64_t day) const {
    const auto n = static_cast<std::int64_t>(heads_.size());
    const std::int64_t r = day % n;
    return static_cast<std::size_t>(r < 0 ? r + n : r);
  }
  // day in [day_, day_ + buckets), computed without overflow.
  bool in_window(std::int64_t day) const {
    return day >= day_ && static_cast<std::uint64_t>(day) - static_cast<std::uint64_t>(day_) < heads_.size();
  }

  std::uint32_t allocate_node() {
    if (free_ != kNil) {
      const std::uint32_t n = free_;
      free_ = nodes_[n].next;
      return n;
    }
    MPPNET_ASSERT(nodes_.size() < kNil, "calendar queue holds more than 2^32 - 1 events");
    nodes_.emplace_back();
    return static_cast<std::uint32_t>(nodes_.size() - 1);
  }
  void free_node(std::uint32_t n) {
    nodes_[n].next = free_;
    free_ = n;
  }

  // The heap of events outside the ring: a min-heap on (time, seq).
  void heap_push(std::uint32_t n) {
    heap_.push_back(n);
    std::push_heap(heap_.begin(), heap_.end(), heap_order());
  }
  void heap_pop() {
    std::pop_heap(heap_.begin(), heap_.end(), heap_order());
    heap_.pop_back();
  }
  auto heap_order() const {
    return [this](std::uint32_t a, std::uint32_t b) { return before(nodes_[b], nodes_[a]); };
  }

  // Links node n into its bucket, keeping the bucket sorted by (time, seq). A bucket is a list of groups
  // of equal time; the first node of a group knows the group's last node, so the walk skips whole groups
  // and an event joins its group in O(1) however many events share its time. REQUIRES: its day is in
  // the window.
  void insert_into_ring(std::uint32_t n) {
    const std::size_t b = bucket_of_day(day_of(nodes_[n].time));
    ++ring_size_;
    if (ring_min_ != kNil && before(nodes_[n], nodes_[ring_min_])) ring_min_ = n;
    const std::int64_t t = nodes_[n].time;
    nodes_[n].next = kNil;
    nodes_[n].group_last = n;
    const std::uint32_t lg = last_group_[b];
    if (lg == kNil) {  // empty bucket
      heads_[b] = last_group_[b] = n;
      return;
    }
    if (t > nodes_[lg].time) {  // a new last group: the common case for a simulation's pushes
      nodes_[nodes_[lg].group_last].next = n;
      last_group_[b] = n;
      return;
    }
    std::uint32_t prev = kNil;  // last node of the group before g
    std::uint32_t g = heads_[b];
    while (nodes_[g].time < t) {
      prev = nodes_[g].group_last;
      g = nodes_[prev].next;
      ++steps_;
    }
    if (nodes_[g].time > t) {  // a new group before g
      nodes_[n].next = g;
      link_after(b, prev, n);
      return;
    }
    join_group(b, prev, g, n);
  }

  // Adds n to the group headed by g (same time), in sequence order. prev is the node before g, or kNil.
  void join_group(std::size_t b, std::uint32_t prev, std::uint32_t g, std::uint32_t n) {
    const std::uint32_t last = nodes_[g].group_last;
    if (nodes_[n].seq > nodes_[last].seq) {  // pushed after every event of its time: append
      nodes_[n].next = nodes_[last].next;
      nodes_[last].next = n;
      nodes_[g].group_last = n;
      return;
    }
    // Only an event that waited in the heap can be older than events already in the ring.
    if (nodes_[n].seq < nodes_[g].seq) {  // n becomes the group's first node
      nodes_[n].group_last = last;
      nodes_[n].next = g;
      link_after(b, prev, n);
      if (last_group_[b] == g) last_group_[b] = n;
      return;
    }
    std::uint32_t p = g;
    while (nodes_[nodes_[p].next].seq < nodes_[n].seq) {
      p = nodes_[p].next;
      ++steps_;
    }
    nodes_[n].next = nodes_[p].next;
    nodes_[p].next = n;
  }

  void link_after(std::size_t b, std::uint32_t prev, std::uint32_t n) {
    if (prev == kNil) {
      heads_[b] = n;
    } else {
      nodes_[prev].next = n;
    }
  }

  // Unlinks the first node of bucket b.
  void pop_head(std::size_t b) {
    const std::uint32_t h = heads_[b];
    const std::uint32_t next = nodes_[h].next;
    if (nodes_[h].group_last != h) {  // the rest of the group gets a new first node
      nodes_[next].group_last = nodes_[h].group_last;
      if (last_group_[b] == h) last_group_[b] = next;
    } else if (last_group_[b] == h) {
      last_group_[b] = kNil;
    }
    heads_[b] = next;
  }

  // Moves heap events whose day has come into the window into the ring.
  void migrate() {
    while (!heap_.empty() && in_window(day_of(nodes_[heap_.front()].time))) {
      const std::uint32_t n = heap_.front();
      heap_pop();
      insert_into_ring(n);
    }
  }

  // The earliest event in the ring, cached until the ring changes at its front. Every ring event lies in
  // the window, so walking the days of one year from day_ finds it.
  std::uint32_t ring_min() const {
    if (ring_size_ == 0 || ring_min_ != kNil) return ring_min_;
    std::size_t b = bucket_of_day(day_);
    for (std::int64_t day = day_;; ++day) {
      const std::uint32_t h = heads_[b];
      if (h != kNil && day_of(nodes_[h].time) == day) return ring_min_ = h;
      ++steps_;
      MPPNET_ASSERT(static_cast<std::uint64_t>(day) - static_cast<std::uint64_t>(day_) < heads_.size(),
                    "calendar ring holds an event outside its year");
      if (++b == heads_.size()) b = 0;
    }
  }

  // The earliest event overall: the ring's or the heap's.
  std::uint32_t locate() const {
    MPPNET_ASSERT(size_ > 0, "top or pop on an empty calendar queue");
    const std::uint32_t r = ring_min();
    if (heap_.empty()) return r;
    const std::uint32_t h = heap_.front();
    return r != kNil && before(nodes_[r], nodes_[h]) ? r : h;
  }

  // Re-estimates the width when the recent operations have been costly (see the file comment).
  void account_operation() {
    ++ops_;
    if (ops_ < std::max<std::uint64_t>(kMinWindow, size_)) return;
    if (steps_ > kMaxStepsPerOp * ops_ || 2 * heap_ops_ > ops_) {
      resize(heads_.size());
    } else {
      ops_ = steps_ = heap_ops_ = 0;
    }
  }

  void reset_ring(std::size_t buckets, std::int64_t width, std::int64_t day) {
    heads_.assign(buckets, kNil);
    last_group_.assign(buckets, kNil);
    width_ = width;
    day_ = day;
    ring_size_ = 0;
    ring_min_ = kNil;
    ops_ = steps_ = heap_ops_ = 0;
  }

  // Rebuilds ring and heap with new_buckets buckets and a width estimated from the earliest events.
  void resize(std::size_t new_buckets) {
    scratch_.clear();
    for (const std::uint32_t h : heads_) {
      for (std::uint32_t n = h; n != kNil; n = nodes_[n].next) scratch_.push_back(n);
    }
    scratch_.insert(scratch_.end(), heap_.begin(), heap_.end());
    heap_.clear();
    // Sorting makes every ring insertion an O(1) append, makes the heap a plain copy (an ascending array
    // is a min-heap), and gives the leading events for the estimate.
    std::sort(scratch_.begin(), scratch_.end(),
              [this](std::uint32_t a, std::uint32_t b) { return before(nodes_[a], nodes_[b]); });
    const std::int64_t width = estimate_width();
    reset_ring(new_buckets, width, 0);
    if (scratch_.empty()) return;
    day_ = day_of(nodes_[scratch_.front()].time);
    for (const std::uint32_t n : scratch_) {
      if (in_window(day_of(nodes_[n].time))) {
        insert_into_ring(n);
      } else {
        heap_.push_back(n);
      }
    }
  }

  // Brown's estimate, made robust to the two ways real event sets fool it. First, separations are taken
  // between distinct times: a simulator with clock edges puts many events on one instant, and counting
  // those zeros would shrink the width to 1 and push the next edge out of the year. Second, it is taken at
  // the front and at the quartiles of the queue, and the (lower) median wins: the front is often sparse,
  // because pops eat it, while pushes land in the denser bulk behind it.
  std::int64_t estimate_width() const {
    std::int64_t estimates[4];
    std::size_t count = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const double sep = mean_separation(k * scratch_.size() / 4);
      if (sep > 0.0)
        estimates[count++] = static_cast<std::int64_t>(std::clamp(std::round(3.0 * sep), 1.0, 4.0e18));
    }
    if (count == 0) return width_;
    // Insertion sort of at most four values (std::sort here trips GCC 12's -Warray-bounds).
    for (std::size_t i = 1; i < count; ++i)
      for (std::size_t j = i; j > 0 && estimates[j] < estimates[j - 1]; --j)
        std::swap(estimates[j], estimates[j - 1]);
    return estimates[(count - 1) / 2];
  }

  // Brown's trimmed mean over up to kWidthSample distinct times starting at scratch_[start]: average the
  // separations, drop those above twice the average, and average the rest. 0 when there are fewer than
  // two distinct times.
  double mean_separation(std::size_t start) const {
    double times[kWidthSample];
    std::size_t m = 0;
    for (std::size_t i = start; i < scratch_.size() && m < kWidthSample; ++i) {
      const auto t = static_cast<double>(nodes_[scratch_[i]].time);
      if (m == 0 || t != times[m - 1]) times[m++] = t;
    }
    if (m < 2) return 0.0;
    const double mean_sep = (times[m - 1] - times[0]) / static_cast<double>(m - 1);
    double sum = 0.0;
    std::size_t kept = 0;
    for (std::size_t i = 1; i < m; ++i) {
      const double sep = times[i] - times[i - 1];
      if (sep <= 2.0 * mean_sep) {
        sum += sep;
        ++kept;
      }
    }
    return kept > 0 ? sum / static_cast<double>(kept) : mean_sep;
  }

  std::vector<Node> nodes_;
  std::vector<std::uint32_t> heads_;
  std::vector<std::uint32_t> last_group_;  // per bucket: first node of its last group of equal times
  std::vector<std::uint32_t> heap_;        // events outside the ring's year
  std::vector<std::uint32_t> scratch_;     // reused by resize()
  std::uint32_t free_ = kNil;
  std::size_t size_ = 0;
  std::size_t ring_size_ = 0;
  std::uint64_t next_seq_ = 0;
  std::int64_t width_ = 1;
  std::int64_t day_ =
      0;  // first day of the ring's year; every ring event has its day in [day_, day_ + buckets)
  mutable std::uint32_t ring_min_ = kNil;  // cache of ring_min(); kNil when unknown
  std::uint64_t ops_ = 0;                  // operations in the current cost window
  mutable std::uint64_t steps_ = 0;        // list and ring steps in the current cost window
  std::uint64_t heap_ops_ = 0;             // heap pushes and pops of future events in the window
};

}  // namespace mppnet::core
