// machines/cm5/completion.cpp: sends a message set at once and waits for its last delivery.
#include "machines/cm5/completion.hpp"

#include <algorithm>

#include "machines/cm5/congestion.hpp"

namespace mppnet::machines::cm5 {

namespace {

class LastDelivery final : public DataNetworkObserver {
 public:
  void on_delivery(MessageId, const Message& m) override { last = std::max(last, m.delivered); }
  Cycle last = -1;
};

}  // namespace

Cycle completion_cycles(DataNetwork& net, const std::vector<SetMessage>& set, int words) {
  const Cycle start = net.now();
  LastDelivery last;
  net.set_observer(&last);
  const std::vector<int> sides = alternate_sides_per_source(set);
  for (std::size_t i = 0; i < set.size(); ++i) net.send(set[i].src, set[i].dest, words, 0, sides[i]);
  // Steps of 1000 cycles: long enough that the idle check costs nothing, short enough not to overrun.
  constexpr Cycle kStep = 1000;
  while (net.busy()) net.run_until(net.now() + kStep);
  net.set_observer(nullptr);
  return last.last < 0 ? 0 : last.last - start;
}

}  // namespace mppnet::machines::cm5
