// machines/cs2/elan_collectives.cpp: barriers, broadcasts and reductions on the switches' broadcast.
#include "machines/cs2/elan_collectives.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "am/node.hpp"

namespace mppnet::machines::cs2 {

namespace {

// A broadcast's tag: the packet's index within its collective, its kind, the collective's sequence
// number (ElanEndpoint adds kBroadcastTag above them).
constexpr int kIndexBits = 20;
constexpr int kKindBits = 2;

std::uint64_t make_tag(std::uint64_t seq, std::uint64_t kind, std::uint64_t index) {
  return seq << (kIndexBits + kKindBits) | kind << kIndexBits | index;
}

// A probe or release carries no data: a word naming the barrier.
constexpr int kSignalBytes = 4;

}  // namespace

ElanCollectives::ElanCollectives(ElanEndpoint& endpoint, am::Machine& machine, const am::AmParams& am,
                                 int layer, int overhead_bytes)
    : endpoint_(endpoint),
      machine_(machine),
      am_(am),
      layer_(layer),
      overhead_bytes_(overhead_bytes),
      next_seq_(static_cast<std::size_t>(machine.nodes()), 0),
      arrived_(static_cast<std::size_t>(machine.nodes()), 0) {
  endpoint_.set_broadcast_listener(this);
}

std::string ElanCollectives::path() const {
  return fmt::format(
      "CS-2 broadcast on layer {} (barriers by merged acks, {} probes, {} refused; scans in "
      "software over the data network)",
      layer_, probes_, refused_probes_);
}

ElanCollectives::Round& ElanCollectives::round(std::uint64_t seq) {
  auto [it, fresh] = rounds_.try_emplace(seq);
  if (fresh) {
    it->second.got.assign(next_seq_.size(), 0);
    it->second.left = static_cast<int>(next_seq_.size());
  }
  return it->second;
}

void ElanCollectives::finish(std::uint64_t seq, Round& r) {
  if (--r.left == 0) rounds_.erase(seq);
}

void ElanCollectives::send(NodeId src, std::uint64_t seq, Kind kind, std::uint64_t index, int payload_bytes) {
  endpoint_.broadcast(layer_, src, overhead_bytes_ + payload_bytes,
                      make_tag(seq, static_cast<std::uint64_t>(kind), index));
}

void ElanCollectives::probe(std::uint64_t seq) {
  Round& r = round(seq);
  r.all_arrived = true;
  r.acks_due = endpoint_.broadcast(layer_, 0, overhead_bytes_ + kSignalBytes,
                                   make_tag(seq, static_cast<std::uint64_t>(Kind::Probe), 0));
  ++probes_;
}

void ElanCollectives::on_copy(NodeId pe, std::uint64_t tag) {
  const std::uint64_t seq = (tag & ~ElanEndpoint::kBroadcastTag) >> (kIndexBits + kKindBits);
  const auto kind = static_cast<Kind>(tag >> kIndexBits & ((1u << kKindBits) - 1));
  Round& r = round(seq);
  if (kind == Kind::Probe) {
    // The PE's Elan acks only if its PE has arrived at this barrier.
    r.all_arrived = r.all_arrived && arrived_[static_cast<std::size_t>(pe)] > seq;
    return;
  }
  ++r.got[static_cast<std::size_t>(pe)];
  machine_.notify(pe);
}

void ElanCollectives::on_merged_ack(const net::Ack& a) {
  const std::uint64_t tag = a.tag & ~ElanEndpoint::kBroadcastTag;
  if (static_cast<Kind>(tag >> kIndexBits & ((1u << kKindBits) - 1)) != Kind::Probe) return;
  const std::uint64_t seq = tag >> (kIndexBits + kKindBits);
  Round& r = round(seq);
  if (--r.acks_due > 0) return;
  if (r.all_arrived) {
    send(0, seq, Kind::Release, 0, kSignalBytes);
  } else {
    ++refused_probes_;
    probe(seq);
  }
}

am::Task<> ElanCollectives::barrier(am::Node& node) {
  const auto v = static_cast<std::size_t>(node.id());
  const std::uint64_t seq = next_seq_[v]++;
  Round& r = round(seq);
  co_await node.compute(am_.send_cycles);  // the SPARC tells its Elan it has arrived
  arrived_[v] = seq + 1;
  if (node.id() == 0) probe(seq);
  co_await node.wait_until([&r, v] { return r.got[v] == 1; });
  co_await node.compute(am_.poll_cycles);  // sees the release
  finish(seq, r);
}

am::Task<> ElanCollectives::spread(am::Node& node, NodeId root, std::span<std::byte> block) {
  const auto v = static_cast<std::size_t>(node.id());
  const std::uint64_t seq = next_seq_[v]++;
  Round& r = round(seq);
  const auto payload = static_cast<std::size_t>(am_.packet_payload_bytes);
  const int messages = static_cast<int>((block.size() + payload - 1) / payload);
  const bool dma = am_.uses_dma(static_cast<std::uint32_t>(block.size()));
  if (node.id() == root) {
    // A DMA is one start-up for the whole block; without it the SPARC sends every packet.
    co_await node.compute(dma ? am_.dma_startup_cycles : std::int64_t{am_.send_cycles} * messages);
    r.data.assign(block.begin(), block.end());
    for (int m = 0; m < messages; ++m) {
      const std::size_t at = static_cast<std::size_t>(m) * payload;
      send(root, seq, Kind::Data, static_cast<std::uint64_t>(m),
           static_cast<int>(std::min(payload, block.size() - at)));
    }
  }
  co_await node.wait_until([&r, v, messages] { return r.got[v] == messages; });
  // The Elan wrote a DMA'd block into memory: the SPARC sees it done; otherwise it reads every packet.
  co_await node.compute(dma ? am_.poll_cycles : std::int64_t{am_.receive_cycles} * messages);
  if (!block.empty()) std::memcpy(block.data(), r.data.data(), block.size());
  finish(seq, r);
}

am::Task<am::Combined> ElanCollectives::run(am::Node& node, am::Collective what, std::uint64_t value,
                                            am::ReduceOp op, NodeId root) {
  am::Combined out;
  switch (what) {
    case am::Collective::Barrier:
      co_await barrier(node);
      break;
    case am::Collective::Reduce:
      value = co_await am::TreeCollectives::gather(node, value, op);
      root = 0;
      [[fallthrough]];
    case am::Collective::Broadcast: {
      std::uint64_t word = node.id() == root ? value : 0;
      co_await spread(node, root, std::as_writable_bytes(std::span(&word, 1)));
      out.total = word;
      break;
    }
    case am::Collective::Scan:
      out = co_await software_.run(node, what, value, op, root);
      break;
  }
  co_return out;
}

am::Task<> ElanCollectives::broadcast_block(am::Node& node, NodeId root, std::span<std::byte> block) {
  co_await spread(node, root, block);
}

}  // namespace mppnet::machines::cs2
