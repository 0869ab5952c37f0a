// am/am_params.hpp: the software cost model and queue sizes of the active-message layer ([am] table).
//
// A run charges processor time as well as network time: every operation of a node program or handler
// costs processor cycles at `clock_ps`. The defaults are a generic machine (docs/am.md); a machine
// preset overrides them with values calibrated to its documents.
#pragma once

#include <cstdint>

namespace mppnet::am {

struct AmParams {
  std::int64_t clock_ps = 10000;  // processor clock period (100 MHz)
  int send_cycles = 20;           // launching one packet into the network interface
  int receive_cycles = 20;        // reading one packet out of the network interface
  int dispatch_cycles = 10;       // interrupt entry and exit around a handler
  int poll_cycles = 5;            // one poll of the network interface (polling mode)
  int copy_cycles_per_word = 1;   // moving one 32-bit word between memory and the interface
  int flit_bytes = 4;             // bytes a flit carries
  int header_bytes = 4;           // destination and handler word of every packet
  int packet_payload_bytes = 16;  // data bytes a packet carries at most (bulk transfers split by it)
  int send_queue_packets = 4;     // per node and virtual network: packets waiting to enter the network
  int receive_queue_packets =
      4;  // per node and virtual network: packets held unhandled before ejection stops
  std::int64_t memory_bytes = 65536;  // local memory per node
  bool separate_vnets = true;  // requests and replies on their own virtual networks (false: one shared)
  bool interrupts = true;      // handlers run on arrival (true) or only when the program polls or waits
  // A DMA engine in the network interface (docs/am.md, "DMA"): a bulk transfer costs the program one
  // start-up, then the interface streams its packets and the destination's interface writes memory and
  // answers, with no processor cycles per packet on either side.
  bool dma = false;
  int dma_startup_cycles = 100;  // processor cycles a bulk transfer costs its program when dma is on
  // A bulk transfer of fewer bytes goes through the processor, packet by packet, even with dma on: a
  // short message costs less sent by the program than a start-up (docs/am.md, "DMA").
  std::int64_t dma_min_bytes = 0;

  // Whether a bulk transfer of `bytes` bytes goes through the DMA engine.
  bool uses_dma(std::uint32_t bytes) const {
    return dma && static_cast<std::int64_t>(bytes) >= dma_min_bytes;
  }
};

}  // namespace mppnet::am
