// workload/apps/counted_store.hpp: one-way stores whose arrivals are counted per tag.
//
// am's store_sync counts every store alike, so a program whose phases overlap in time (a neighbour one
// stencil iteration ahead, histograms of the next radix pass arriving while this pass's keys are still
// coming) cannot tell them apart. A counted store carries a tag; the destination's handler copies the
// data and adds its bytes to that tag's counter, and counted_sync waits for and consumes a tag's bytes.
//
// The application's per-node state S (node.user) has a member `ArrivalCounters arrivals`.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>

#include "am/machine.hpp"
#include "am/node.hpp"

namespace mppnet::workload::apps {

struct ArrivalCounters {
  static constexpr int kTags = 32;  // the binary-exchange FFT takes one per exchange, log2 P
  std::array<std::int64_t, kTags> bytes{};
};

namespace detail {

// Args: destination address, tag.
template <class S>
void on_counted_store(am::Incoming& in) {
  const auto data = in.data();
  const std::uint32_t addr = in.arg(0);
  auto memory = in.node.memory();
  if (static_cast<std::uint64_t>(addr) + data.size() > memory.size())
    throw std::out_of_range(fmt::format("node {}: counted store to [{}, {}) outside its memory of {} bytes",
                                        in.node.id(), addr, addr + data.size(), memory.size()));
  std::copy(data.begin(), data.end(), memory.begin() + addr);
  in.node.state<S>().arrivals.bytes[in.arg(1)] += static_cast<std::int64_t>(data.size());
}

}  // namespace detail

// Stores local [local, local + bytes) at dest's remote address, in packets of am.packet_payload_bytes,
// counted at dest under `tag`. Ends when every packet is sent. A store to the node itself is a local
// copy, counted at once, with no message. REQUIRES: 0 <= tag < kTags.
template <class S>
am::Task<> counted_store(am::Node& node, NodeId dest, std::uint32_t local, std::uint32_t remote,
                         std::uint32_t bytes, int tag) {
  // Both ranges are checked here, so that a bad address is reported by the program that caused it.
  const std::uint64_t size = node.memory().size();
  if (static_cast<std::uint64_t>(local) + bytes > size || static_cast<std::uint64_t>(remote) + bytes > size)
    throw std::out_of_range(fmt::format(
        "node {}: counted store of [{}, {}) to node {} at [{}, {}) outside the memory of {} bytes", node.id(),
        local, static_cast<std::uint64_t>(local) + bytes, dest, remote,
        static_cast<std::uint64_t>(remote) + bytes, size));
  if (dest == node.id()) {
    auto memory = node.memory();
    std::copy(memory.begin() + local, memory.begin() + local + bytes, memory.begin() + remote);
    node.state<S>().arrivals.bytes[tag] += bytes;
    co_return;
  }
  const auto chunk = static_cast<std::uint32_t>(node.machine().params().packet_payload_bytes);
  for (std::uint32_t off = 0; off < bytes; off += chunk) {
    const std::uint32_t n = std::min(chunk, bytes - off);
    const am::Word w[] = {remote + off, static_cast<am::Word>(tag)};
    co_await node.request_data(dest, &detail::on_counted_store<S>, w, node.memory().data() + local + off,
                               static_cast<int>(n));
  }
}

// Waits until `bytes` bytes have arrived here under `tag`, and consumes them.
template <class S>
am::Task<> counted_sync(am::Node& node, int tag, std::int64_t bytes) {
  auto& counters = node.state<S>().arrivals;
  co_await node.wait_until([&counters, tag, bytes] { return counters.bytes[tag] >= bytes; });
  counters.bytes[tag] -= bytes;
}

}  // namespace mppnet::workload::apps
