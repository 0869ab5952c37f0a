// am/collectives.cpp: the operators and the software tree.
#include "am/collectives.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "am/node.hpp"

namespace mppnet::am {

std::int64_t float_order(std::uint64_t bits) {
  const auto x = static_cast<std::int64_t>(bits);
  return x < 0 ? x ^ std::numeric_limits<std::int64_t>::max() : x;
}

std::uint64_t identity(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum:
    case ReduceOp::Or:
    case ReduceOp::Xor:
      return 0;
    case ReduceOp::Min:
      return static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    case ReduceOp::Max:
      return static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::min());
    case ReduceOp::And:
      return ~std::uint64_t{0};
    case ReduceOp::FloatSum:
      return std::bit_cast<std::uint64_t>(0.0);
    case ReduceOp::FloatMax:
      return std::bit_cast<std::uint64_t>(-std::numeric_limits<double>::infinity());
  }
  return 0;
}

std::uint64_t apply(ReduceOp op, std::uint64_t a, std::uint64_t b) {
  const auto sa = static_cast<std::int64_t>(a), sb = static_cast<std::int64_t>(b);
  switch (op) {
    case ReduceOp::Sum:
      return a + b;
    case ReduceOp::Min:
      return sa < sb ? a : b;
    case ReduceOp::Max:
      return sa > sb ? a : b;
    case ReduceOp::And:
      return a & b;
    case ReduceOp::Or:
      return a | b;
    case ReduceOp::Xor:
      return a ^ b;
    case ReduceOp::FloatSum:
      return std::bit_cast<std::uint64_t>(std::bit_cast<double>(a) + std::bit_cast<double>(b));
    case ReduceOp::FloatMax:
      return float_order(a) >= float_order(b) ? a : b;
  }
  return 0;
}

namespace {

Word lo(std::uint64_t v) {
  return static_cast<Word>(v);
}
Word hi(std::uint64_t v) {
  return static_cast<Word>(v >> 32);
}
std::uint64_t join(Word l, Word h) {
  return static_cast<std::uint64_t>(h) << 32 | l;
}

}  // namespace

// The handlers only record; the waiting program combines. Up: (value lo, hi, child index).
// Down: (prefix lo, hi, total lo, hi).
struct TreeHandlers {
  static void up(Incoming& in) {
    in.node.coll_up_[in.arg(2)] = join(in.arg(0), in.arg(1));
    in.node.coll_up_mask_ |= 1u << in.arg(2);
  }
  static void down(Incoming& in) {
    in.node.coll_down_ = join(in.arg(0), in.arg(1));
    in.node.coll_total_ = join(in.arg(2), in.arg(3));
    in.node.coll_down_arrived_ = true;
  }
};

Task<> Collectives::broadcast_block(Node& node, NodeId root, std::span<std::byte> block) {
  for (std::size_t at = 0; at < block.size(); at += 8) {
    const std::size_t n = std::min<std::size_t>(8, block.size() - at);
    std::uint64_t word = 0;
    if (node.id() == root) std::memcpy(&word, block.data() + at, n);
    const Combined c = co_await run(node, Collective::Broadcast, word, ReduceOp::Or, root);
    std::memcpy(block.data() + at, &c.total, n);
  }
}

Task<> TreeCollectives::up_sweep(Node& node, std::uint64_t value, ReduceOp op, Subtree& out) {
  const auto p = static_cast<std::uint32_t>(node.nodes());
  const auto i = static_cast<std::uint32_t>(node.id());
  // Node i's subtree is [i, i + lowbit(i)); the root's is everything. Child j is i + 2^j.
  out.span = i == 0 ? std::bit_ceil(p) : (i & (~i + 1));
  out.children = 0;
  for (std::uint32_t j = 0; (1u << j) < out.span && i + (1u << j) < p; ++j) out.children |= 1u << j;
  const std::uint32_t children = out.children;
  co_await node.wait_until([&node, children] { return (node.coll_up_mask_ & children) == children; });
  // Reset before any down message goes out: a child's next up can come only after its down.
  node.coll_up_mask_ = 0;
  std::uint64_t acc = value;  // subtree values in node order: this node, then children j = 0, 1, ...
  for (std::uint32_t j = 0; (children >> j) != 0; ++j) {
    out.before_child[j] = acc;
    acc = apply(op, acc, node.coll_up_[j]);
  }
  out.total = acc;
  if (i != 0)
    co_await node.request(static_cast<NodeId>(i - out.span), &TreeHandlers::up, lo(acc), hi(acc),
                          std::countr_zero(out.span));
}

Task<std::uint64_t> TreeCollectives::gather(Node& node, std::uint64_t value, ReduceOp op) {
  Subtree s;
  co_await up_sweep(node, value, op, s);
  co_return s.total;
}

Task<Combined> TreeCollectives::run(Node& node, Collective, std::uint64_t value, ReduceOp op, NodeId) {
  const auto i = static_cast<std::uint32_t>(node.id());
  Subtree s;
  co_await up_sweep(node, value, op, s);
  Combined c;
  if (i == 0) {
    c = {s.total, identity(op)};
  } else {
    co_await node.wait_until([&node] { return node.coll_down_arrived_; });
    node.coll_down_arrived_ = false;
    c = {node.coll_total_, node.coll_down_};
  }
  for (std::uint32_t j = 0; (s.children >> j) != 0; ++j) {
    const std::uint64_t prefix = apply(op, c.exclusive, s.before_child[j]);
    co_await node.request(static_cast<NodeId>(i + (1u << j)), &TreeHandlers::down, lo(prefix), hi(prefix),
                          lo(c.total), hi(c.total));
  }
  co_return c;
}

}  // namespace mppnet::am
