// machines/cns1/ni_port.hpp: the seam between the T1's network interface and whatever network carries
// its messages (the CNS-1 mesh, or the loopback of the tests).
#pragma once

#include "machines/cns1/t1_message.hpp"

namespace mppnet::machines::cns1 {

// The NI's outgoing side. The network owns the NI's output slots (note 002 A13, A35: one or two
// maximum-size messages per priority), so whether a SEND succeeds is the network's answer; the NI reads it
// as lpa / hpa in nistat and as the outlet event's op. Incoming messages go the other way, through
// NetworkInterface::offer, which refuses when the NI's in-queue at that priority is full (the network
// then holds the message: backpressure, §3.7).
//
// Contract: try_send succeeds exactly when can_send(message.priority) held just before, takes the whole
// message at once (a SEND is atomic, §3.5.4) and never drops it afterwards (§3.7 "no drops"); messages
// from one sender at one priority to one receiver are delivered in order.
class NiPort {
 public:
  virtual ~NiPort() = default;
  virtual bool can_send(Priority priority) const = 0;
  virtual bool try_send(const T1Message& message) = 0;
};

}  // namespace mppnet::machines::cns1
