// machines/metro/mrp/mrp_params.cpp: the checks of an MRP router and network.
#include "machines/metro/mrp/mrp_params.hpp"

#include <fmt/format.h>

#include "machines/metro/mrp/word.hpp"

namespace mppnet::machines::metro::mrp {

std::vector<core::Problem> check(const MultibutterflyParams& net, const MrpParams& p) {
  std::vector<core::Problem> problems = metro::check(net);
  auto fail = [&](const char* key, std::string reason) { problems.push_back({key, std::move(reason)}); };
  const int r = net.radix, d = net.dilation;
  // The router space: d <= r, as in every router the thesis describes (RN1 r = 4, d = 2; METRO's
  // max_d). A larger d would also need a wider STATUS field than the ROUTE field.
  if (d > r)
    fail("metro.dilation",
         fmt::format("dilation d = {} exceeds radix r = {}: an MRP router needs d <= r", d, r));
  if (p.width < 1 || p.width > kMaxWidth) {
    fail("metro.mrp.width", fmt::format("router width w = {} is outside 1..{}", p.width, kMaxWidth));
    return problems;
  }
  const int c = field_bits_for(r, d);
  // STATUS needs the control field (the port) and one bit above it (blocked): note 004b §6 item 7.
  if (p.width < c + 1)
    fail("metro.mrp.width",
         fmt::format("router width w = {} leaves no room for the {}-bit control field and the "
                     "STATUS blocked bit (w >= {} needed for r = {}, d = {})",
                     p.width, c, c + 1, r, d));
  if (p.word_bits < 1 || p.word_bits % p.width != 0)
    fail("metro.mrp.word_bits",
         fmt::format(
             "router width w = {} does not divide the word of {} bits: a cascade is m routers of w bits "
             "(Eq 4.3, w_cascade = m*w)",
             p.width, p.word_bits));
  else if (p.word_bits != p.width)
    fail("metro.mrp.word_bits",
         fmt::format("width cascading (a {}-bit word on {}-bit routers) is not modelled yet", p.word_bits,
                     p.width));
  // One ROUTE word serves floor(w/c) stages; more need SWALLOW (§4.6), which is not modelled yet.
  const int stages = net.stages + net.extra_stages;
  if (stages * c > p.width)
    fail("metro.stages",
         fmt::format("{} stages need {} direction bits ({} per stage) but a {}-bit ROUTE word holds "
                     "{}: more stages than address bits need SWALLOW, not modelled yet",
                     stages, stages * c, c, p.width, p.width / c));
  if (net.extra_stages != 0)
    fail("metro.extra_stages",
         "MRP on extra stages (the source picks among r*d equivalent outputs) is not "
         "modelled yet");
  if (p.dps < 1 || p.dps > kMaxDps)
    fail("metro.mrp.dps",
         fmt::format("dps = {}: a word takes 1 to {} cycles through a router", p.dps, kMaxDps));
  if (p.hw < 0)
    fail("metro.mrp.hw", fmt::format("hw = {}: a router cannot consume a negative number of words", p.hw));
  else if (p.hw > 0)
    fail("metro.mrp.hw",
         fmt::format("hw = {}: pipelined connection setup (hw > 0) is not modelled yet", p.hw));
  if (r * d > kMaxRouterPorts || r * net.node_inputs > kMaxRouterPorts)
    fail("metro.radix", fmt::format("routers of {} ports exceed the {} modelled", r * d, kMaxRouterPorts));
  return problems;
}

}  // namespace mppnet::machines::metro::mrp
