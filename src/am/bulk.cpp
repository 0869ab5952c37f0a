// am/bulk.cpp: put, get and store of byte ranges, and blocking tagged send/receive, over active messages.
//
// Each is split into packets of am.packet_payload_bytes data bytes; with am.dma the interface's engine
// sends them (dma.cpp) after one start-up, otherwise the program sends each. put and get count outstanding
// packets on the initiator (acks for put, data for get) for sync(); store counts arriving bytes at the
// destination for store_sync(). send/receive is a rendezvous, as CMMD's blocking send: the sender
// announces (ready-to-send), the receiver answers with its buffer address (clear-to-send) when it
// reaches the matching receive, and only then does the data move, so no unexpected data is buffered.
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "am/machine.hpp"
#include "am/node.hpp"

namespace mppnet::am {

struct BulkHandlers {
  static std::byte* at(Incoming& in, std::uint32_t addr, std::size_t bytes) {
    if (static_cast<std::uint64_t>(addr) + bytes > in.node.memory_.size())
      throw std::out_of_range(fmt::format("node {}: bulk transfer to [{}, {}) outside its memory of {} bytes",
                                          in.node.id(), addr, addr + bytes, in.node.memory_.size()));
    return in.node.memory_.data() + addr;
  }
  static void copy_in(Incoming& in, std::uint32_t addr) {
    const auto d = in.data();
    std::copy(d.begin(), d.end(), at(in, addr, d.size()));
  }
  static void put_data(Incoming& in) {
    copy_in(in, in.arg(0));
    in.reply(&put_ack);
  }
  static void put_ack(Incoming& in) { --in.node.outstanding_; }
  static void get_request(Incoming& in) {
    const std::uint32_t bytes = in.arg(1);
    const Word w[] = {in.arg(2)};
    in.reply_data(&get_data, w, at(in, in.arg(0), bytes), static_cast<int>(bytes));
  }
  static void get_data(Incoming& in) {
    copy_in(in, in.arg(0));
    --in.node.outstanding_;
  }
  static void store_data(Incoming& in) {
    copy_in(in, in.arg(0));
    in.node.stored_bytes_ += static_cast<std::int64_t>(in.data().size());
  }
  static void ready_to_send(Incoming& in) { in.node.rts_.push_back({in.src(), in.arg(0), in.arg(1)}); }
  static void clear_to_send(Incoming& in) {
    in.node.cts_ = true;
    in.node.cts_addr_ = in.arg(0);
  }
  static void send_data(Incoming& in) {
    copy_in(in, in.arg(0));
    in.node.recv_arrived_ += static_cast<std::int64_t>(in.data().size());
  }
};

namespace {

void check_range(const Node& n, std::span<std::byte> mem, std::uint32_t addr, std::uint32_t bytes) {
  if (static_cast<std::uint64_t>(addr) + bytes > mem.size())
    throw std::out_of_range(fmt::format("node {}: local range [{}, {}) outside its memory of {} bytes",
                                        n.id(), addr, static_cast<std::uint64_t>(addr) + bytes, mem.size()));
}

// The initiator checks the remote range too (every node has am.memory_bytes), so that a bad address
// is reported by the program that asked for it rather than by a handler on another node.
void check_remote(const Node& n, const char* op, NodeId other, std::uint32_t addr, std::uint32_t bytes,
                  std::int64_t memory_bytes) {
  if (static_cast<std::int64_t>(addr) + bytes > memory_bytes)
    throw std::out_of_range(fmt::format("node {}: {} node {} at [{}, {}) outside its memory of {} bytes",
                                        n.id(), op, other, addr, static_cast<std::uint64_t>(addr) + bytes,
                                        memory_bytes));
}

std::int64_t packets(const Machine& m, std::uint32_t bytes) {
  const std::int64_t chunk = m.params().packet_payload_bytes;
  return (bytes + chunk - 1) / chunk;
}

}  // namespace

Task<> Node::dma(DmaKind kind, NodeId peer, std::uint32_t local, std::uint32_t remote, std::uint32_t bytes) {
  if (peer < 0 || peer >= nodes())
    throw std::out_of_range(
        fmt::format("node {}: request to node {} of a {}-node machine", id_, peer, nodes()));
  if (bytes == 0) co_return;
  if (kind == DmaKind::Put || kind == DmaKind::Get) outstanding_ += packets(*machine_, bytes);
  static constexpr Handler kHandlers[] = {&BulkHandlers::put_data, &BulkHandlers::get_request,
                                          &BulkHandlers::store_data, &BulkHandlers::send_data};
  co_await compute(machine_->params().dma_startup_cycles);
  machine_->start_dma(*this,
                      {kHandlers[static_cast<int>(kind)], peer, local, remote, bytes, kind == DmaKind::Get});
  // A put or get is complete at sync() (its acks or data counted); a store or a send's data has no
  // such count at its source, so the program waits until the engine has read its last byte.
  if (kind == DmaKind::Put || kind == DmaKind::Get) co_return;
  co_await wait_until([this] { return !dma_busy_; });
}

Task<> Node::put(NodeId dest, std::uint32_t local, std::uint32_t remote, std::uint32_t bytes) {
  check_range(*this, memory_, local, bytes);
  check_remote(*this, "put to", dest, remote, bytes, machine_->params().memory_bytes);
  if (machine_->params().uses_dma(bytes)) {
    co_await dma(DmaKind::Put, dest, local, remote, bytes);
    co_return;
  }
  const auto chunk = static_cast<std::uint32_t>(machine_->params().packet_payload_bytes);
  for (std::uint32_t off = 0; off < bytes; off += chunk) {
    const std::uint32_t n = std::min(chunk, bytes - off);
    ++outstanding_;
    const Word w[] = {remote + off};
    co_await request_data(dest, &BulkHandlers::put_data, w, memory_.data() + local + off,
                          static_cast<int>(n));
  }
}

Task<> Node::get(NodeId src, std::uint32_t remote, std::uint32_t local, std::uint32_t bytes) {
  check_range(*this, memory_, local, bytes);
  check_remote(*this, "get from", src, remote, bytes, machine_->params().memory_bytes);
  if (machine_->params().uses_dma(bytes)) {
    co_await dma(DmaKind::Get, src, local, remote, bytes);
    co_return;
  }
  const auto chunk = static_cast<std::uint32_t>(machine_->params().packet_payload_bytes);
  for (std::uint32_t off = 0; off < bytes; off += chunk) {
    const std::uint32_t n = std::min(chunk, bytes - off);
    ++outstanding_;
    co_await request(src, &BulkHandlers::get_request, remote + off, n, local + off);
  }
}

Task<> Node::store(NodeId dest, std::uint32_t local, std::uint32_t remote, std::uint32_t bytes) {
  check_range(*this, memory_, local, bytes);
  check_remote(*this, "store to", dest, remote, bytes, machine_->params().memory_bytes);
  if (machine_->params().uses_dma(bytes)) {
    co_await dma(DmaKind::Store, dest, local, remote, bytes);
    co_return;
  }
  const auto chunk = static_cast<std::uint32_t>(machine_->params().packet_payload_bytes);
  for (std::uint32_t off = 0; off < bytes; off += chunk) {
    const std::uint32_t n = std::min(chunk, bytes - off);
    const Word w[] = {remote + off};
    co_await request_data(dest, &BulkHandlers::store_data, w, memory_.data() + local + off,
                          static_cast<int>(n));
  }
}

Task<> Node::store_sync(std::int64_t bytes) {
  co_await wait_until([this, bytes] { return stored_bytes_ >= bytes; });
  stored_bytes_ -= bytes;
}

Task<> Node::send(NodeId dest, std::uint32_t tag, std::uint32_t local, std::uint32_t bytes) {
  check_range(*this, memory_, local, bytes);
  cts_ = false;
  co_await request(dest, &BulkHandlers::ready_to_send, tag, bytes);
  co_await wait_until([this] { return cts_; });
  cts_ = false;
  const std::uint32_t remote = cts_addr_;
  if (machine_->params().uses_dma(bytes)) {
    co_await dma(DmaKind::Send, dest, local, remote, bytes);
    co_return;
  }
  const auto chunk = static_cast<std::uint32_t>(machine_->params().packet_payload_bytes);
  for (std::uint32_t off = 0; off < bytes; off += chunk) {
    const std::uint32_t n = std::min(chunk, bytes - off);
    const Word w[] = {remote + off};
    co_await request_data(dest, &BulkHandlers::send_data, w, memory_.data() + local + off,
                          static_cast<int>(n));
  }
}

Task<> Node::receive(NodeId src, std::uint32_t tag, std::uint32_t local, std::uint32_t bytes) {
  check_range(*this, memory_, local, bytes);
  std::size_t match = 0;
  co_await wait_until([&] {
    for (match = 0; match < rts_.size(); ++match)
      if ((src == kAnySource || rts_[match].src == src) && rts_[match].tag == tag) return true;
    return false;
  });
  const Rts r = rts_[match];
  rts_.erase(rts_.begin() + static_cast<std::ptrdiff_t>(match));
  if (r.bytes != bytes)
    throw std::runtime_error(
        fmt::format("node {}: receive of {} bytes with tag {} matched a send of {} bytes "
                    "from node {}",
                    id_, bytes, tag, r.bytes, r.src));
  co_await request(r.src, &BulkHandlers::clear_to_send, local);
  co_await wait_until([this, bytes] { return recv_arrived_ >= bytes; });
  recv_arrived_ -= bytes;
}

}  // namespace mppnet::am
