// am/am_keys.cpp: one declaration per field of AmParams; defaults stay in the struct (docs/am.md).
#include "am/am_keys.hpp"

#include "am/message.hpp"

namespace mppnet::am {

std::vector<io::Key<AmParams>> am_keys() {
  using io::at_least;
  using io::in_range;
  using io::key;
  return {
      key("clock_ps", &AmParams::clock_ps, in_range(1, 1e9), "Processor clock period in picoseconds."),
      key("send_cycles", &AmParams::send_cycles, in_range(0, 1e6),
          "Processor cycles to launch one packet into the network interface."),
      key("receive_cycles", &AmParams::receive_cycles, in_range(0, 1e6),
          "Processor cycles to take one packet out of the network interface."),
      key("dispatch_cycles", &AmParams::dispatch_cycles, in_range(0, 1e6),
          "Cycles of interrupt entry and exit around a handler (am.interrupts = true)."),
      key("poll_cycles", &AmParams::poll_cycles, in_range(0, 1e6),
          "Cycles of one poll of the network interface (am.interrupts = false, or an explicit poll)."),
      key("copy_cycles_per_word", &AmParams::copy_cycles_per_word, in_range(0, 1e6),
          "Cycles to move one 32-bit word between memory and the network interface."),
      key("flit_bytes", &AmParams::flit_bytes, in_range(1, 64), "Bytes one flit carries."),
      key("header_bytes", &AmParams::header_bytes, in_range(1, 64),
          "Bytes of every packet before its arguments (route, handler); at least 1, so that every packet "
          "has a flit."),
      key("packet_payload_bytes", &AmParams::packet_payload_bytes, in_range(4 * kMaxArgs, kMaxPacketPayload),
          "Data bytes one packet carries at most; bulk transfers are split by it."),
      key("send_queue_packets", &AmParams::send_queue_packets, in_range(1, 4096),
          "Per node and virtual network: packets that may wait to enter the network."),
      key("receive_queue_packets", &AmParams::receive_queue_packets, in_range(1, 4096),
          "Per node and virtual network: unhandled packets held before the node stops ejecting."),
      key("memory_bytes", &AmParams::memory_bytes, in_range(64, 1LL << 32),
          "Local memory per node in bytes."),
      key("separate_vnets", &AmParams::separate_vnets, io::any_value(),
          "Requests and replies on separate virtual networks (false: one shared network, which can "
          "deadlock)."),
      key("interrupts", &AmParams::interrupts, io::any_value(),
          "Handlers run on arrival (true) or only while the program polls or waits (false)."),
      key("dma", &AmParams::dma, io::any_value(),
          "A DMA engine in the network interface: a bulk transfer (put, get, store, send) costs the "
          "program am.dma_startup_cycles, then the interface streams its packets and the destination's "
          "interface writes them to memory, with no processor cycles per packet (false: every packet costs "
          "a send and a handler)."),
      key("dma_startup_cycles", &AmParams::dma_startup_cycles, in_range(0, 1e6),
          "Processor cycles a bulk transfer costs its program to start the DMA engine (am.dma = true)."),
      key("dma_min_bytes", &AmParams::dma_min_bytes, in_range(0, 1LL << 40),
          "With am.dma, a bulk transfer of fewer bytes is sent by the program packet by packet, as "
          "without DMA (0: every transfer takes the DMA engine)."),
  };
}

}  // namespace mppnet::am
