// machines/metro/scan/scan_scenarios.cpp: traffic and faults for the scan cases.
#include "machines/metro/scan/scan_scenarios.hpp"

#include "core/rng.hpp"

namespace mppnet::machines::metro::scan {

TrafficResult random_messages(mrp::MrpNetwork& net, int radix, int messages, std::uint64_t seed, int words,
                              const std::vector<std::pair<NodeId, int>>& masked_inputs) {
  mrp::EndpointParams e;
  e.message_words = words;
  mrp::MrpEndpoints ends(net, radix, e, seed);
  TrafficResult out;
  std::vector<mrp::Completion> done;
  ends.set_log(&out.attempts, &done);
  for (const auto& [x, q] : masked_inputs) ends.mask_input(x, q);
  core::RandomStream rng(seed, 0, core::Stream::Destination);
  const auto n = static_cast<std::uint32_t>(net.nodes());
  for (int k = 0; k < messages; ++k) {
    const auto x = static_cast<NodeId>(rng.below(n));
    auto y = static_cast<NodeId>(rng.below(n - 1));
    if (y >= x) ++y;
    ends.send(x, y);
    for (int c = 0; c < 100000 && !ends.idle(); ++c) {
      ends.tick();
      net.step();
    }
  }
  out.stats = ends.stats();
  return out;
}

LinkId stage_two_link(const Multibutterfly& g, const mrp::MrpNetwork& net, NodeId toward, int index,
                      int copy) {
  const int s = 1, d = g.copies[s];
  const int cls = toward / g.reach_span(s), digit = (toward / g.reach_span(s + 1)) % g.directions[s];
  const RouterId u = g.router_id(s, cls, index);
  return net.backward_link(u, digit * d + copy);
}

}  // namespace mppnet::machines::metro::scan
