// machines/cs2/elan.cpp: the Elan's windowed, dynamically sized send protocol (elan.hpp).
#include "machines/cs2/elan.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace mppnet::machines::cs2 {

std::int64_t round_trip_cycles(const Cs2Config& c, int switches) {
  const std::int64_t h = switches;
  return h * (c.elite.data_cycles + c.elite.ack_cycles) + 2 * (h + 1) * c.elite.wire_cycles + 1 +
         c.elan.turnaround_cycles;
}

int payload_bytes(const Cs2Config& c, int switches) {
  const ElanParams& e = c.elan;
  switch (e.sizing) {
    case Sizing::Fixed:
      return e.fixed_payload_bytes;
    case Sizing::Dynamic: {
      // The smallest multiple of 8 payload bytes whose packet takes as long to send (a byte a cycle) as
      // the ack round trip, within [Lmin, Lmax] (note §4.9).
      const std::int64_t need = round_trip_cycles(c, switches) - e.overhead_bytes();
      const std::int64_t rounded = need <= 0 ? 0 : (need + 7) / 8 * 8;
      return static_cast<int>(std::clamp<std::int64_t>(rounded, e.min_payload_bytes, e.max_payload_bytes));
    }
  }
  return e.fixed_payload_bytes;
}

double window2_link_fraction(const Cs2Config& c, int wire_bytes, int switches) {
  const double l = wire_bytes;
  return std::min(1.0, 2 * l / (l + static_cast<double>(round_trip_cycles(c, switches))));
}

Elan::Elan(Cs2Network& net, const ElanParams& elan)
    : net_(net), config_(net.config()), active_(static_cast<std::size_t>(net.pes()), -1) {
  config_.elan = elan;
  config_.elan.turnaround_cycles = net.config().elan.turnaround_cycles;
  for (int l = 0; l < net.layers(); ++l)
    MPPNET_ASSERT(net.layer(l).ack_path().enabled(), "the Elan needs a network built with acks");
}

int Elan::send_message(NodeId src, NodeId dest, std::int64_t bytes, int layer) {
  MPPNET_ASSERT(bytes >= 1, "a message of no bytes");
  MPPNET_ASSERT(active_[static_cast<std::size_t>(src)] < 0, "one message at a time per PE");
  MessageRecord m;
  m.src = src;
  m.dest = dest;
  m.layer = layer;
  m.switches = net_.route(src, dest, 0).length;
  m.payload_per_packet = payload_bytes(config_, m.switches);
  m.bytes = bytes;
  m.bytes_unsent = bytes;
  m.started = now();
  const std::int64_t packets = (bytes + m.payload_per_packet - 1) / m.payload_per_packet;
  m.delivered.assign(static_cast<std::size_t>(packets), -1);
  m.acked.assign(static_cast<std::size_t>(packets), -1);
  const int index = static_cast<int>(messages_.size());
  messages_.push_back(std::move(m));
  sent_packets_.push_back(0);
  active_[static_cast<std::size_t>(src)] = index;
  in_progress_.push_back(index);
  return index;
}

void Elan::fill_window(MessageRecord& m, int index) {
  const int window = config_.elan.window;
  const int overhead = config_.elan.overhead_bytes();
  std::int64_t& sent = sent_packets_[static_cast<std::size_t>(index)];
  while (m.outstanding < window && m.bytes_unsent > 0) {
    const auto payload = static_cast<int>(std::min<std::int64_t>(m.payload_per_packet, m.bytes_unsent));
    // The tag names the packet: message index in the high half, packet number in the low.
    const std::uint64_t tag = (static_cast<std::uint64_t>(index) << 32) | static_cast<std::uint64_t>(sent);
    net_.send_on(m.layer, m.src, m.dest, payload + overhead, tag, 0);
    m.bytes_unsent -= payload;
    ++sent;
    ++m.outstanding;
    m.max_outstanding = std::max(m.max_outstanding, m.outstanding);
  }
}

void Elan::step() {
  // Packets enter their PE's queue before the layers step, so a packet sent at cycle t may leave in t.
  for (const int index : in_progress_) fill_window(messages_[static_cast<std::size_t>(index)], index);
  net_.step();
  const int overhead = config_.elan.overhead_bytes();
  for (int l = 0; l < net_.layers(); ++l) {
    net::Network& layer = net_.layer(l);
    for (const net::PacketId id : layer.delivered()) {
      const net::Packet& p = layer.packet(id);
      MessageRecord& m = messages_[static_cast<std::size_t>(p.tag >> 32)];
      m.delivered[static_cast<std::size_t>(p.tag & 0xffffffffu)] = p.delivered;
      layer.release(id);
    }
    for (const net::Ack& a : layer.acknowledged()) {
      const auto index = static_cast<std::size_t>(a.tag >> 32);
      MessageRecord& m = messages_[index];
      m.acked[static_cast<std::size_t>(a.tag & 0xffffffffu)] = a.arrives;
      --m.outstanding;
      m.bytes_acked += a.flits - overhead;
      if (m.done()) active_[static_cast<std::size_t>(m.src)] = -1;
    }
  }
  std::erase_if(in_progress_, [this](int i) { return messages_[static_cast<std::size_t>(i)].done(); });
}

bool Elan::run(std::int64_t max_cycles) {
  for (std::int64_t t = 0; t < max_cycles && !in_progress_.empty(); ++t) step();
  return in_progress_.empty();
}

namespace {

// Packets [first, last] of the steady state: past the start-up quarter, an even count apart, all full.
struct Span {
  std::size_t first = 0, last = 0;
};
Span steady_span(const MessageRecord& m) {
  MPPNET_ASSERT(m.packets() >= 8, "too few packets for a steady state");
  const auto n = static_cast<std::size_t>(m.packets());
  const std::size_t first = n / 4;
  std::size_t last = n - 2;  // the last packet may be short
  if ((last - first) % 2 != 0) --last;
  return {first, last};
}

}  // namespace

double steady_payload_mb_per_s(const MessageRecord& m, const Cs2Config& c) {
  const Span s = steady_span(m);
  const double cycles = static_cast<double>(m.delivered[s.last] - m.delivered[s.first]);
  const double bytes = static_cast<double>(s.last - s.first) * m.payload_per_packet;
  return bytes / cycles * 1e6 / c.elite.clock_ps;  // a byte per cycle of clock_ps ps is 1e6/clock_ps MB/s
}

double steady_link_fraction(const MessageRecord& m, const Cs2Config& c) {
  const Span s = steady_span(m);
  const double cycles = static_cast<double>(m.delivered[s.last] - m.delivered[s.first]);
  const double bytes =
      static_cast<double>(s.last - s.first) * (m.payload_per_packet + c.elan.overhead_bytes());
  return bytes / cycles;
}

}  // namespace mppnet::machines::cs2
