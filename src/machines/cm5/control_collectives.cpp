// machines/cm5/control_collectives.cpp: am's collectives as control-network operations.
#include "machines/cm5/control_collectives.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "am/node.hpp"

namespace mppnet::machines::cm5 {

namespace {

// The hardware form of an am operator: the combiner, and how operands and result are transformed.
// AND is NOT OR NOT (De Morgan) and MIN is NOT MAX NOT, which cannot overflow; a double's maximum is the
// signed maximum of its bits with the magnitude of negative values flipped (note §5.19, A17). Sum
// wraps at 64 bits like am's, which the unsigned add's wrapped result is. A floating-point sum has no
// hardware form: it falls back to software.
enum class Transform : std::uint8_t { None, Complement, FloatOrder };
struct HardwareForm {
  Combiner op;
  Transform transform;
  bool in_hardware = true;
};

HardwareForm hardware_form(am::ReduceOp op) {
  switch (op) {
    case am::ReduceOp::Sum:
      return {Combiner::AddUnsigned, Transform::None};
    case am::ReduceOp::Max:
      return {Combiner::MaxSigned, Transform::None};
    case am::ReduceOp::Min:
      return {Combiner::MaxSigned, Transform::Complement};
    case am::ReduceOp::Or:
      return {Combiner::Or, Transform::None};
    case am::ReduceOp::Xor:
      return {Combiner::Xor, Transform::None};
    case am::ReduceOp::And:
      return {Combiner::Or, Transform::Complement};
    case am::ReduceOp::FloatMax:
      return {Combiner::MaxSigned, Transform::FloatOrder};
    case am::ReduceOp::FloatSum:
      return {Combiner::AddSigned, Transform::None, false};
  }
  return {Combiner::Or, Transform::None};
}

std::uint64_t transform(Transform t, std::uint64_t x) {
  switch (t) {
    case Transform::None:
      return x;
    case Transform::Complement:
      return ~x;
    case Transform::FloatOrder:
      return static_cast<std::uint64_t>(am::float_order(x));
  }
  return x;
}

std::uint64_t join(std::uint32_t high, std::uint32_t low) {
  return static_cast<std::uint64_t>(high) << 32 | low;
}

}  // namespace

ControlCollectives::ControlCollectives(const ControlNetworkParams& params, std::vector<int> leaf_of_node,
                                       core::Scheduler& scheduler, am::Machine& machine,
                                       const am::AmParams& am)
    : net_(params),
      leaf_of_node_(std::move(leaf_of_node)),
      node_of_leaf_(static_cast<std::size_t>(params.leaves), -1),
      scheduler_(scheduler),
      machine_(machine),
      am_(am) {
  for (std::size_t v = 0; v < leaf_of_node_.size(); ++v)
    node_of_leaf_[leaf_of_node_[v]] = static_cast<int>(v);
  for (int leaf = 0; leaf < params.leaves; ++leaf) {
    if (node_of_leaf_[leaf] < 0) net_.map_out(leaf);
  }
  net_.set_observer(this);
  const core::DomainId d = scheduler_.add_domain("cm5 control network", params.slot_cycles * cycle_ps_);
  id_ = scheduler_.add(d, *this, false);
}

std::string ControlCollectives::path() const {
  std::string s = fmt::format("CM-5 control network (hardware; {} levels of {} cycles, slot {} cycles",
                              2 * net_.height(), net_.params().level_delay_cycles, net_.params().slot_cycles);
  if (synthesised_ > 0) s += fmt::format("; {} calls with a synthesised operator", synthesised_);
  if (software_ > 0)
    s += fmt::format("; {} floating-point sums in software over the data network", software_);
  return s + ")";
}

bool ControlCollectives::tick(Cycle slot) {
  net_.step(slot);
  return net_.busy();
}

void ControlCollectives::on_delivery(int leaf, Cycle time) {
  auto [it, fresh] = wakes_.try_emplace(time);
  if (fresh) scheduler_.schedule(time * cycle_ps_, id_, 0, static_cast<std::uint64_t>(time));
  it->second.push_back(leaf);
}

void ControlCollectives::on_event(std::uint32_t, std::uint64_t data) {
  const auto it = wakes_.find(static_cast<Cycle>(data));
  if (it == wakes_.end()) return;
  const std::vector<int> leaves = std::move(it->second);
  wakes_.erase(it);
  for (const int leaf : leaves) {
    if (leaf < 0) {
      for (NodeId v = 0; v < machine_.nodes(); ++v) machine_.notify(v);
    } else if (node_of_leaf_[leaf] >= 0) {
      machine_.notify(node_of_leaf_[leaf]);
    }
  }
}

Cycle ControlCollectives::now_cycles() const {
  return scheduler_.now() / cycle_ps_;
}

// A push: the operation's descriptor and each word are stores, then the status a load (as a send,
// note A30). A pop: the status load, then each word.
std::int64_t ControlCollectives::push_cost(int words) const {
  return static_cast<std::int64_t>(am_.copy_cycles_per_word) * (words + 1) + am_.poll_cycles;
}

std::int64_t ControlCollectives::pop_cost(int words) const {
  return static_cast<std::int64_t>(am_.copy_cycles_per_word) * words + am_.poll_cycles;
}

am::Task<> ControlCollectives::wait_result(am::Node& node, int leaf, OpClass k) {
  scheduler_.activate(id_);
  co_await node.wait_until([this, leaf, k] { return net_.has_result(leaf, k, now_cycles()); });
  if (net_.error_visible(now_cycles())) {
    throw std::runtime_error(fmt::format(
        "node {}: the control network signalled an error (combine mismatch {}, broadcast collision {}): "
        "every node must call the same collectives in the same order",
        node.id(), net_.errors().combine_mismatch, net_.errors().broadcast_collision));
  }
}

am::Task<am::Combined> ControlCollectives::run(am::Node& node, am::Collective what, std::uint64_t value,
                                               am::ReduceOp op, NodeId root) {
  const int leaf = leaf_of_node_[static_cast<std::size_t>(node.id())];
  ++calls_[static_cast<std::size_t>(what)];
  am::Combined out;
  switch (what) {
    case am::Collective::Barrier: {
      co_await node.compute(push_cost(1));
      net_.push_sync_or(leaf, false);
      co_await wait_result(node, leaf, OpClass::SyncOr);
      net_.pop(leaf, OpClass::SyncOr, now_cycles());
      co_await node.compute(pop_cost(1));
      break;
    }
    case am::Collective::Broadcast: {  // a block of the value's 8 bytes
      std::array<std::byte, 8> bytes{};
      if (node.id() == root) std::memcpy(bytes.data(), &value, bytes.size());
      co_await send_block(node, root, bytes);
      std::memcpy(&out.total, bytes.data(), bytes.size());
      break;
    }
    case am::Collective::Reduce:
    case am::Collective::Scan: {
      const HardwareForm form = hardware_form(op);
      if (!form.in_hardware) {
        ++software_;
        out = co_await software_collectives_.run(node, what, value, op, root);
        break;
      }
      synthesised_ += form.transform != Transform::None ? 1 : 0;
      const std::uint64_t x = transform(form.transform, value);
      CombinePush p{.kind = what == am::Collective::Reduce ? CombineKind::Reduce : CombineKind::ForwardScan,
                    .op = form.op,
                    .words = {static_cast<std::uint32_t>(x >> 32), static_cast<std::uint32_t>(x)},
                    .count = 2};
      co_await node.compute(push_cost(2));
      net_.push_combine(leaf, p);
      co_await wait_result(node, leaf, OpClass::Combine);
      const ControlResult r = *net_.pop(leaf, OpClass::Combine, now_cycles());
      co_await node.compute(pop_cost(2));
      const std::uint64_t hardware = join(r.words[0], r.words[1]);
      // An empty prefix is the maximum's identity, the smallest 64-bit value: as a double's order that
      // is below every double, which am calls minus infinity.
      const bool empty = form.transform == Transform::FloatOrder && hardware == (std::uint64_t{1} << 63);
      const std::uint64_t result = empty ? am::identity(op) : transform(form.transform, hardware);
      (what == am::Collective::Reduce ? out.total : out.exclusive) = result;
      break;
    }
  }
  co_return out;
}

// A block (a one-value broadcast is a block of 8 bytes) goes as user broadcasts of up to 8 words
// (L496-497), fewer if the interface's send FIFO is
// smaller (it must hold a whole message). The root pushes each message whole or not at all and reads the
// status, as a send (note A30): a push the send FIFO cannot take is paid for and tried again. Every node
// waits once, for the block's last message. Its processor pops the messages one after another as they
// arrive, so it is done one pop after the later of each arrival and the previous pop; that is computed
// from the arrival times rather than with an event per message (handlers of data-network messages that
// run meanwhile are not taken out of that time).
am::Task<> ControlCollectives::broadcast_block(am::Node& node, NodeId root, std::span<std::byte> block) {
  ++calls_[static_cast<std::size_t>(am::Collective::Broadcast)];
  co_await send_block(node, root, block);
}

am::Task<> ControlCollectives::send_block(am::Node& node, NodeId root, std::span<std::byte> block) {
  const int leaf = leaf_of_node_[static_cast<std::size_t>(node.id())];
  const int words = static_cast<int>((block.size() + 3) / 4);
  const int most = std::min(max_broadcast_words(BroadcastKind::User), net_.params().ni_fifo_packets);
  const int messages = (words + most - 1) / most;
  const auto word_bytes = [&block](int w) {
    return std::min<std::size_t>(4, block.size() - 4 * std::size_t(w));
  };
  if (node.id() == root) {
    std::array<std::uint32_t, 8> message{};
    for (int m = 0; m < messages; ++m) {
      const int first = m * most, count = std::min(most, words - first);
      for (int i = 0; i < count; ++i) {
        message[i] = 0;
        std::memcpy(&message[i], block.data() + 4 * (first + i), word_bytes(first + i));
      }
      do {
        co_await node.compute(push_cost(count));
      } while (
          !net_.push_broadcast(leaf, BroadcastKind::User, {message.data(), static_cast<std::size_t>(count)}));
      scheduler_.activate(id_);
    }
  }
  if (messages == 0) co_return;
  const Picoseconds free_from = node.now();
  co_await node.wait_until([this, leaf, messages] {
    const BroadcastMessage* last = net_.broadcast_ahead(leaf, messages - 1);
    return (last != nullptr && last->time <= now_cycles()) || net_.error_visible(now_cycles());
  });
  if (net_.error_visible(now_cycles()))
    throw std::runtime_error(fmt::format(
        "node {}: the control network signalled an error during a block broadcast (broadcast collision "
        "{}): every node must call the same collectives in the same order",
        node.id(), net_.errors().broadcast_collision));
  Picoseconds popped = free_from;
  for (int m = 0; m < messages; ++m) {
    const BroadcastMessage got = *net_.pop_broadcast(leaf, now_cycles());
    for (int i = 0; i < got.count; ++i)
      std::memcpy(block.data() + 4 * (m * most + i), &got.words[i], word_bytes(m * most + i));
    popped = std::max(popped, got.time * cycle_ps_) + pop_cost(got.count) * am_.clock_ps;
  }
  if (popped > node.now()) co_await node.compute((popped - node.now() + am_.clock_ps - 1) / am_.clock_ps);
}

}  // namespace mppnet::machines::cm5
