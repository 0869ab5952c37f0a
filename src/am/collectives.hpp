// am/collectives.hpp: the collective operations behind one interface, and its software implementation.
//
// Every collective (barrier, broadcast, reduce, scan) is one `combine`: each node gives a value and gets
// the combination over all nodes and its exclusive prefix in node order. By default it runs in software
// over the data network (TreeCollectives); a machine with collective hardware (the CM-5 control network)
// supplies its own Collectives with that hardware's timing, and node programs do not change.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "am/task.hpp"
#include "core/types.hpp"

namespace mppnet::am {

// Min and Max compare as signed 64-bit integers; And, Or and Xor act on the bits; FloatSum and FloatMax
// take the 64 bits as an IEEE double (std::bit_cast; NaNs are out of scope; FloatMax orders -0 below +0).
enum class ReduceOp { Sum, Min, Max, And, Or, Xor, FloatSum, FloatMax };

std::uint64_t identity(ReduceOp op);
// A double's bits as a signed integer in the same order as the doubles (IEEE total order, -0 < +0):
// negative values have their magnitude bits flipped (note 000 §5.19). Its own inverse on the bits.
std::int64_t float_order(std::uint64_t bits);
std::uint64_t apply(ReduceOp op, std::uint64_t a, std::uint64_t b);

struct Combined {
  std::uint64_t total = 0;      // op over every node's value
  std::uint64_t exclusive = 0;  // op over the values of nodes 0 .. id - 1 (identity on node 0)
};

// What the program asked for. Software does each as one combine; hardware may do each its own way (a
// barrier as a 1-bit OR, a broadcast sent from its root).
enum class Collective : std::uint8_t { Barrier, Broadcast, Reduce, Scan };
constexpr int kCollectiveKinds = 4;

class Collectives {
 public:
  virtual ~Collectives() = default;
  // Contract: every node calls run the same number of times with the same collective and op, in the
  // same order; a call returns once this node's results are known. `value` is the node's operand (for a
  // broadcast: the root's value on the root, 0 elsewhere; for a barrier: 0). A reduction needs only
  // `total`, a scan only `exclusive`, a broadcast `total`.
  [[nodiscard]] virtual Task<Combined> run(Node& node, Collective what, std::uint64_t value, ReduceOp op,
                                           NodeId root) = 0;
  // Copies `block` of node `root` into `block` of every node (the same addresses); every node calls it
  // with the same root and size. By default one broadcast per 8 bytes (the last padded); collective
  // hardware may send the block in messages of its own size and let a node wait once for all of them.
  [[nodiscard]] virtual Task<> broadcast_block(Node& node, NodeId root, std::span<std::byte> block);
  // How they are done, for reports: "software tree over the data network".
  virtual std::string path() const = 0;
};

// A binomial tree over node numbers rooted at node 0: node i's subtree is [i, i + lowbit(i)), so the
// up-sweep of subtree values and the down-sweep of prefixes give every node its exclusive prefix in
// ceil(log2 P) message steps each way. Each step is an active message (request network).
class TreeCollectives final : public Collectives {
 public:
  Task<Combined> run(Node& node, Collective what, std::uint64_t value, ReduceOp op, NodeId root) override;
  std::string path() const override { return "software tree over the data network"; }
  // The up-sweep alone: node 0 gets op over every node's value, the others op over their subtree's
  // (of no use to them). For hardware that can spread a total but not combine values (the CS-2's
  // broadcast), which then sends node 0's total down itself. Every node calls it, as run().
  [[nodiscard]] static Task<std::uint64_t> gather(Node& node, std::uint64_t value, ReduceOp op);

 private:
  // The up-sweep: waits for the children's subtree values, sends this subtree's value to the parent,
  // and leaves in before_child[j] the op of this node's and children 0..j-1's values.
  struct Subtree {
    std::uint32_t children = 0;  // bit j: child i + 2^j exists
    std::uint32_t span = 0;      // this node's subtree is [i, i + span)
    std::uint64_t total = 0;     // op over the subtree
    std::uint64_t before_child[32] = {};
  };
  static Task<> up_sweep(Node& node, std::uint64_t value, ReduceOp op, Subtree& out);
};

}  // namespace mppnet::am
