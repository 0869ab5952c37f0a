// am/collectives.hpp: the collective operations behind one interface, and its software implementation.
//
// Every collective (barrier, broadcast, reduce, scan) is one `combine`: each node gives a value and gets
// the combination over all nodes and its exclusive prefix in node order. By default it runs in software
// over the data network (TreeCollectives); a machine with collective hardware (the CM-5 control network)
// supplies its own Collectives with that hardware's timing, and node programs do not change.
#pragma once

#include <cstdint>

#include "am/task.hpp"

namespace mppnet::am {

// Min and Max compare as signed 64-bit integers; the others act on the bits.
enum class ReduceOp { Sum, Min, Max, And, Or, Xor };

std::uint64_t identity(ReduceOp op);
std::uint64_t apply(ReduceOp op, std::uint64_t a, std::uint64_t b);

struct Combined {
  std::uint64_t total = 0;      // op over every node's value
  std::uint64_t exclusive = 0;  // op over the values of nodes 0 .. id - 1 (identity on node 0)
};

class Collectives {
 public:
  virtual ~Collectives() = default;
  // Contract: every node calls combine the same number of times with the same op, in the same order;
  // a call returns once this node's results are known.
  [[nodiscard]] virtual Task<Combined> combine(Node& node, std::uint64_t value, ReduceOp op) = 0;
};

// A binomial tree over node numbers rooted at node 0: node i's subtree is [i, i + lowbit(i)), so the
// up-sweep of subtree values and the down-sweep of prefixes give every node its exclusive prefix in
// ceil(log2 P) message steps each way. Each step is an active message (request network).
class TreeCollectives final : public Collectives {
 public:
  Task<Combined> combine(Node& node, std::uint64_t value, ReduceOp op) override;
};

}  // namespace mppnet::am
