// workload/apps/permutation.cpp: a stream of random permutations.
//
// In round r every node i sends app.permutation_bytes to node pi_r(i), where pi_r is a random
// derangement (a permutation without fixed points, so that every node sends to a distinct partner
// other than itself) drawn from the run seed by a counter-based stream keyed by the round. Every node
// draws the same pi_r itself, as an SPMD program would, and needs no message to agree on it. A node
// starts round r + 1 once its own round-r block has arrived, so rounds overlap across the machine.
//
// The block travels as active messages whose handler records the sender per round, so the check can
// say that every node received exactly one block per round, from pi_r^-1(j), with the right bytes.
#include "workload/apps/permutation.hpp"

#include <fmt/format.h>

#include "am/node.hpp"
#include "core/rng.hpp"
#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps {

// Its own stream id ("PERM"), apart from core::Stream's named ones.
constexpr auto kPermutationStream = static_cast<core::Stream>(0x5045524d);

void draw_derangement(std::uint64_t seed, int round, std::span<NodeId> perm) {
  const auto p = static_cast<std::uint32_t>(perm.size());
  core::RandomStream rng(seed, static_cast<std::uint64_t>(round), kPermutationStream);
  // Rejection: about e tries on average; a single node has no derangement and keeps the identity.
  for (int attempt = 0; attempt < 1000; ++attempt) {
    for (std::uint32_t i = 0; i < p; ++i) perm[i] = static_cast<NodeId>(i);
    for (std::uint32_t i = p; i > 1; --i) std::swap(perm[i - 1], perm[rng.below(i)]);
    bool fixed_point = false;
    for (std::uint32_t i = 0; i < p && !fixed_point; ++i) fixed_point = perm[i] == static_cast<NodeId>(i);
    if (!fixed_point) return;
  }
}

namespace {

std::byte permutation_byte(int round, int from, std::uint32_t k) {
  std::uint32_t x = static_cast<std::uint32_t>(round) * 0x9e3779b1u ^
                    static_cast<std::uint32_t>(from) * 40503u ^ k * 2246822519u;
  x ^= x >> 13;
  x *= 0x85ebca6bu;
  return static_cast<std::byte>((x >> 16) & 0xff);
}

constexpr NodeId kNobody = -1;
constexpr NodeId kSeveral = -2;

struct PermutationNode {
  std::vector<NodeId> perm;              // this round's permutation, drawn by the node itself
  std::vector<NodeId> sender;            // per round: who sent here (kNobody, or kSeveral if two did)
  std::vector<std::int64_t> bytes_seen;  // per round
  std::uint32_t send = 0, receive = 0;
};

// Args: destination address, round.
void on_block(am::Incoming& in) {
  auto& s = in.node.state<PermutationNode>();
  const auto data = in.data();
  std::copy(data.begin(), data.end(), in.node.memory().begin() + in.arg(0));
  const auto round = static_cast<std::size_t>(in.arg(1));
  NodeId& who = s.sender[round];
  who = who == kNobody || who == in.src() ? in.src() : kSeveral;
  s.bytes_seen[round] += static_cast<std::int64_t>(data.size());
}

}  // namespace

void check_permutations(const AppParams& params, int p, const am::AmParams& am) {
  const int rounds = params.permutation_rounds;
  const auto bytes = static_cast<std::uint32_t>(params.permutation_bytes);
  if (p < 2)
    throw AppParamError("", fmt::format("permutation needs at least 2 nodes, the machine has {}", p));
  const std::uint64_t need = static_cast<std::uint64_t>(rounds + 1) * bytes + 16;
  if (need > static_cast<std::uint64_t>(am.memory_bytes))
    throw AppParamError(
        "app.permutation_bytes",
        fmt::format("permutation needs {} bytes of memory per node ((app.permutation_rounds + 1) x "
                    "app.permutation_bytes = ({} + 1) x {}); am.memory_bytes is {}",
                    need, rounds, bytes, am.memory_bytes));
}

AppResult run_permutations(am::Machine& m, const AppParams& params, std::uint64_t seed,
                           const ProgressSink& progress) {
  const int p = m.nodes();
  check_permutations(params, p, m.params());
  const int rounds = params.permutation_rounds;
  const auto bytes = static_cast<std::uint32_t>(params.permutation_bytes);
  std::vector<PermutationNode> st(p);
  for (NodeId v = 0; v < p; ++v) {
    st[v].perm.resize(p);
    st[v].sender.assign(rounds, kNobody);
    st[v].bytes_seen.assign(rounds, 0);
  }
  m.attach(st);
  // A node's round is its send, then its wait for the block it receives: the wait is the partner's lag.
  PhaseTimer phases(p, {"send blocks", "wait for the round's block"}, progress);
  m.run([bytes, rounds, seed, &phases](am::Node& node) -> am::Task<> {
    auto& s = node.state<PermutationNode>();
    s.send = node.allocate(bytes);
    s.receive = node.allocate(static_cast<std::uint32_t>(rounds) * bytes);  // one slot per round
    const auto chunk = static_cast<std::uint32_t>(node.machine().params().packet_payload_bytes);
    for (int r = 0; r < rounds; ++r) {
      phases.enter(node, 0);
      draw_derangement(seed, r, s.perm);
      const NodeId dest = s.perm[node.id()];
      for (std::uint32_t k = 0; k < bytes; ++k)
        node.store_local(s.send + k, permutation_byte(r, node.id(), k));
      // The message copies its data when built, so the send area can be refilled next round.
      for (std::uint32_t off = 0; off < bytes; off += chunk) {
        const std::uint32_t n = std::min(chunk, bytes - off);
        const am::Word w[] = {s.receive + static_cast<std::uint32_t>(r) * bytes + off,
                              static_cast<am::Word>(r)};
        co_await node.request_data(dest, &on_block, w, node.memory().data() + s.send + off,
                                   static_cast<int>(n));
      }
      phases.enter(node, 1);
      co_await node.wait_until([&s, r, bytes] { return s.bytes_seen[r] >= bytes; });
    }
    phases.end(node);
  });

  AppResult res;
  res.phases = phases.phases();
  res.ends = phases.ends();
  res.passed = true;
  std::vector<NodeId> perm(p), from(p);
  for (int r = 0; r < rounds && res.passed; ++r) {
    draw_derangement(seed, r, perm);
    for (NodeId i = 0; i < p; ++i) from[perm[i]] = i;
    for (NodeId j = 0; j < p && res.passed; ++j) {
      const PermutationNode& s = st[j];
      if (s.sender[r] != from[j] || s.bytes_seen[r] != bytes) {
        res.passed = false;
        res.check =
            fmt::format("round {}: node {} received {} bytes from {} (expected {} bytes from node {})", r, j,
                        s.bytes_seen[r],
                        s.sender[r] == kSeveral  ? std::string("several nodes")
                        : s.sender[r] == kNobody ? std::string("nobody")
                                                 : fmt::format("node {}", s.sender[r]),
                        bytes, from[j]);
        break;
      }
      for (std::uint32_t k = 0; k < bytes; ++k) {
        if (m.node(j).load<std::byte>(s.receive + static_cast<std::uint32_t>(r) * bytes + k) ==
            permutation_byte(r, from[j], k))
          continue;
        res.passed = false;
        res.check =
            fmt::format("round {}: node {}: byte {} of the block from node {} is wrong", r, j, k, from[j]);
        break;
      }
    }
  }
  if (res.passed)
    res.check = fmt::format(
        "in each of {} rounds every node received exactly one block of {} bytes, from its sender in "
        "that round's derangement, byte for byte",
        rounds, bytes);
  res.metrics.push_back({"rounds", rounds});
  res.metrics.push_back({"bytes_per_round", bytes});
  return res;
}

}  // namespace mppnet::workload::apps
