// machines/cs2/routes.cpp: unicast route bytes, table alternatives and broadcast boxes (routes.hpp).
#include "machines/cs2/routes.hpp"

#include "core/error.hpp"
#include "core/rng.hpp"

namespace mppnet::machines::cs2 {

int lca_stage(const LayerShape& shape, std::int64_t x, std::int64_t d) {
  for (int st = 1; st <= shape.stages(); ++st)
    if (shape.prefix(x, st) == shape.prefix(d, st)) return st;
  return shape.stages() + 1;  // the two halves of a back-to-back network
}

namespace {

bool crosses_halves(const LayerShape& shape, std::int64_t x, std::int64_t d) {
  return shape.back_to_back() && shape.half(x) != shape.half(d);
}

// The stage where the route turns: the LCA, or the top when the turn is forced there. Across halves the
// route turns at the top of the destination's half.
int turn_stage(const LayerShape& shape, std::int64_t x, std::int64_t d, Turn turn) {
  if (crosses_halves(shape, x, d)) return shape.stages();
  return turn == Turn::Top ? shape.stages() : lca_stage(shape, x, d);
}

}  // namespace

int up_choices(const LayerShape& shape, std::int64_t x, std::int64_t d, Turn turn) {
  return turn_stage(shape, x, d, turn) - 1 + (crosses_halves(shape, x, d) ? 1 : 0);
}

topo::SourceRoute unicast_route(const LayerShape& shape, std::int64_t x, std::int64_t d,
                                std::span<const int> ups, Turn turn) {
  MPPNET_ASSERT(static_cast<int>(ups.size()) == up_choices(shape, x, d, turn), "one up-port per up byte");
  const int j = turn_stage(shape, x, d, turn);
  topo::SourceRoute r;
  for (const int u : ups) {
    MPPNET_ASSERT(u >= 0 && u < 4, "an up-port is 0..3");
    r.push_back(topo::single_output(4 + u));
  }
  for (int st = j; st >= 1; --st) r.push_back(topo::single_output(shape.digit(d, st - 1)));
  return r;
}

std::vector<int> dest_ups(const LayerShape& shape, std::int64_t x, std::int64_t d, Turn turn) {
  std::vector<int> ups(up_choices(shape, x, d, turn));
  for (std::size_t s = 0; s < ups.size(); ++s) ups[s] = shape.digit(d, static_cast<int>(s)) % 4;
  return ups;
}

topo::SourceRoute policy_route(const LayerShape& shape, std::int64_t x, std::int64_t d, Policy policy,
                               Turn turn, int alt, std::uint64_t seed) {
  // The up-ports on the stack, not in dest_ups()'s vector: the traffic of cs2_network.cpp computes a
  // route per packet, and the hot path allocates nothing.
  std::array<int, topo::kMaxRouteBytes> buffer{};
  const int n = up_choices(shape, x, d, turn);
  const std::span<int> ups(buffer.data(), static_cast<std::size_t>(n));
  for (int s = 0; s < n; ++s) ups[s] = shape.digit(d, s) % 4;
  if (ups.empty()) return unicast_route(shape, x, d, ups, turn);
  switch (policy) {
    case Policy::Dest:
      ups.back() = (ups.back() + alt) % 4;
      break;
    case Policy::Random: {
      // One stream per (x, d, alternative): a table does not depend on the order it is built in.
      const std::uint64_t key = core::splitmix64(
          seed ^ core::splitmix64(static_cast<std::uint64_t>(x) << 32 ^ static_cast<std::uint64_t>(d)) ^
          static_cast<std::uint64_t>(alt) * 0x9e3779b97f4a7c15ULL);
      for (std::size_t s = 0; s < ups.size(); ++s) ups[s] = static_cast<int>((key >> (2 * s)) & 3);
      break;
    }
  }
  return unicast_route(shape, x, d, ups, turn);
}

std::array<topo::SourceRoute, kAlternatives> table_entry(const LayerShape& shape, std::int64_t x,
                                                         std::int64_t d, Policy policy, Turn turn,
                                                         int alternatives, std::uint64_t seed) {
  MPPNET_ASSERT(alternatives >= 1 && alternatives <= kAlternatives, "1..4 alternatives");
  std::array<topo::SourceRoute, kAlternatives> entry;
  for (int a = 0; a < kAlternatives; ++a)
    entry[a] = a < alternatives ? policy_route(shape, x, d, policy, turn, a, seed) : entry[a % alternatives];
  return entry;
}

SwitchId turn_switch(const LayerShape& shape, std::int64_t x, std::span<const int> ups, int j) {
  std::int64_t Q = 0;
  for (int s = 1; s < j; ++s) Q += static_cast<std::int64_t>(ups[s - 1]) << (2 * (s - 1));
  return {j, shape.prefix(x, j), Q};
}

BroadcastBoxes decompose_range(const LayerShape& shape, std::int64_t a, std::int64_t b) {
  MPPNET_ASSERT(!shape.back_to_back(), "broadcast boxes are formed on one tree (reading B or an even size)");
  MPPNET_ASSERT(a >= 0 && a <= b && b < shape.capacity(), "a range of the network's addresses");
  const int k = shape.stages();
  MPPNET_ASSERT(2 * k - 1 <= kMaxBroadcastBoxes, "a broadcast route fits a packet");
  // w[p]: PEs under one value of digit p with every lower digit free.
  std::array<std::int64_t, kMaxBroadcastBoxes + 1> w{};
  w[0] = 1;
  for (int p = 0; p < k; ++p) w[p + 1] = w[p] * shape.radix(p);
  BroadcastBoxes out;
  std::int64_t x = a;
  while (x <= b) {
    int p = 0;
    while (p < k && x % w[p + 1] == 0 && x + w[p + 1] - 1 <= b) ++p;
    if (p == k) {
      out.push_back({x, w[k], k - 1, 0, shape.radix(k - 1) - 1});  // the whole network: every top digit
      x += w[k];
      continue;
    }
    const int d0 = shape.digit(x, p);
    int count = 1;
    while (d0 + count < shape.radix(p) && x + (count + 1) * w[p] - 1 <= b) ++count;
    out.push_back({x, count * w[p], p, d0, d0 + count - 1});
    x += count * w[p];
  }
  return out;
}

topo::SourceRoute broadcast_route(const LayerShape& shape, std::int64_t src, const BroadcastBox& box) {
  static constexpr int kPlane0[topo::kMaxRouteBytes] = {};
  return broadcast_route_via(shape, src, box, kPlane0);
}

topo::SourceRoute broadcast_route_via(const LayerShape& shape, std::int64_t src, const BroadcastBox& box,
                                      std::span<const int> ups) {
  MPPNET_ASSERT(!shape.back_to_back(), "broadcast boxes are formed on one tree (reading B or an even size)");
  const int m = box.pos + 1;  // the stage whose output digit is box.pos
  int j = m;
  while (j < shape.stages() && shape.prefix(src, j) != shape.prefix(box.first, j)) ++j;
  topo::SourceRoute r;
  MPPNET_ASSERT(static_cast<int>(ups.size()) >= j - 1, "an up-port for every climb");
  for (int st = 1; st < j; ++st) r.push_back(topo::single_output(4 + ups[static_cast<std::size_t>(st - 1)]));
  for (int st = j; st > m; --st) r.push_back(topo::single_output(shape.digit(box.first, st - 1)));
  r.push_back(topo::output_range(box.lo, box.hi));
  for (int st = m - 1; st >= 1; --st) r.push_back(topo::output_range(0, shape.radix(st - 1) - 1));
  return r;
}

const char* policy_name(Policy p) {
  switch (p) {
    case Policy::Dest:
      return "dest";
    case Policy::Random:
      return "random";
  }
  return "?";
}

const char* turn_name(Turn t) {
  switch (t) {
    case Turn::Minimal:
      return "minimal";
    case Turn::Top:
      return "top";
  }
  return "?";
}

}  // namespace mppnet::machines::cs2
