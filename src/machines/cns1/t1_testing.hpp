// machines/cns1/t1_testing.hpp: for tests, the encodings of ni_encode.hpp and a few T1 nodes on the
// loopback network, each a MIPS-II processor with its NI.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "cpu/mips/encode_testing.hpp"
#include "machines/cns1/loopback.hpp"
#include "machines/cns1/ni_encode.hpp"
#include "machines/cns1/ni_registers.hpp"

namespace mppnet::machines::cns1::testing {

using namespace cpu::mips::testing;
using namespace encode;

// Code at kCode (handlers at kHandler..., 0x100 apart), data at kData, on every node.
inline constexpr std::uint32_t kCode = 0x1000;
inline constexpr std::uint32_t kHandler = 0x1400;
inline constexpr std::uint32_t kHandler2 = 0x1500;
inline constexpr std::uint32_t kHandler3 = 0x1600;
inline constexpr std::uint32_t kHandler4 = 0x1700;
inline constexpr std::uint32_t kData = 0x10000;

struct T1Node {
  cpu::mips::Memory memory;
  cpu::mips::Cpu cpu{memory};
  NetworkInterface* ni = nullptr;
};

// n nodes (ids 0..n-1) on one Loopback, each at kCode with zeroed registers and every event masked.
class Cluster {
 public:
  explicit Cluster(int nodes, NiConfig config = {}, std::size_t out_queue_messages = 1)
      : net(out_queue_messages) {
    for (int i = 0; i < nodes; ++i) {
      auto node = std::make_unique<T1Node>();
      node->memory.map(kCode, 0x1000, "code");
      node->memory.map(kData, 0x1000, "data");
      node->cpu.reset(kCode);
      node->ni = &net.add_node(config);
      node->cpu.attach_coprocessor2(node->ni);
      nodes_.push_back(std::move(node));
    }
  }
  T1Node& operator[](int i) { return *nodes_.at(static_cast<std::size_t>(i)); }
  cpu::mips::Cpu& cpu(int i) { return (*this)[i].cpu; }
  NetworkInterface& ni(int i) { return *(*this)[i].ni; }

  void load(int node, std::uint32_t address, std::initializer_list<std::uint32_t> words) {
    for (std::uint32_t w : words) {
      EXPECT_EQ((*this)[node].memory.store32(address, w), cpu::mips::Access::Ok);
      address += 4;
    }
  }
  void steps(int node, int n) {
    for (int i = 0; i < n; ++i) ASSERT_EQ(cpu(node).step(), cpu::mips::Exception::None) << "at step " << i;
  }
  // Sets nistat bits (e.g. nistat::kLpmm) as a CTC2 would.
  void set_nistat(int node, std::uint32_t bits) {
    ni(node).write_register(cpu(node), kNistat, ni(node).nistat() | bits);
  }
  void clear_nistat(int node, std::uint32_t bits) {
    ni(node).write_register(cpu(node), kNistat, ni(node).nistat() & ~bits);
  }
  // The tests' convention: a SEND's destination in $16 and its handler in $17 (send(form, n, s0, s1)).
  void aim(int node, std::uint32_t destination, std::uint32_t handler) {
    cpu(node).set_gpr(s0, destination);
    cpu(node).set_gpr(s1, handler);
  }
  // `from` runs one instruction (a SEND to `to`), the network delivers, and `to`, with the event masks
  // `masks` set and a NOP at kHandler, takes the event and runs that NOP.
  void send_and_enter(int from, int to, std::uint32_t masks) {
    load(to, kHandler, {kNop});
    set_nistat(to, masks);
    steps(from, 1);
    net.deliver();
    steps(to, 1);
  }
  std::uint32_t word(int node, std::uint32_t address) {
    std::uint32_t v = 0;
    EXPECT_EQ((*this)[node].memory.load32(address, v), cpu::mips::Access::Ok);
    return v;
  }

  Loopback net;

 private:
  std::vector<std::unique_ptr<T1Node>> nodes_;
};

}  // namespace mppnet::machines::cns1::testing
