// machines/cs2/elite_topology.hpp: one layer of the Meiko CS-2 network: Elite switches in a radix-4
// folded Benes network (a 4-ary fat tree whose bandwidth is the same at every stage), its shape, the
// digits of PE addresses, and the layer as a topo::Graph.
//
// Source: Meiko, "CS-2 Communications Network Overview" (1993), §2 (construction, naming, doubling,
// incomplete networks; seed document L208-L333); reference note 003 §2.4 and §4.1-4.2, whose wiring and
// port convention (a choice, §6 #5-#6) are used here:
//   - a switch is (st, P, Q): stage st = 1 (next to the PEs) .. k (top), network identifier P (the subtree
//     prefix floor(x / 4^st), 0 at an 8-way top), plane Q in [0, 4^(st-1));
//   - ports 0..3 go down, 4..7 up; up-port u of (st, P, Q) reaches (st+1, P/4, Q + u*4^(st-1)) on its
//     down-port P mod 4 (P itself, 0..7, at an 8-way top);
//   - PE x sits on port digit(x, 0) of switch (1, floor(x/4), 0).
// Odd sizes ("doubling" without a stage, Fig 2-3, lost in the scan) have two readings (note §2.4.3):
//   EightWayTop (B): the top switches use all 8 ports as down-links; the top route digit is base 8.
//   BackToBack (C): two complete networks of half the size whose free top links are joined pairwise: top
//     switch (k, h, Q)'s port 4+v reaches (k, 1-h, Q)'s port 4+v; crossing halves takes 2k switches.
// Incomplete networks (note §2.4.4, a choice): PEs 0..pes-1 exist; a switch exists when its subtree holds
// a PE, so the existing network identifiers at each stage are a prefix 0..count-1.
#pragma once

#include <cstdint>
#include <string>

#include "core/types.hpp"
#include "topo/graph.hpp"

namespace mppnet::machines::cs2 {

enum class Doubling { EightWayTop, BackToBack };

inline constexpr int kElitePorts = 8;
inline constexpr int kMinPes = 2;
inline constexpr int kMaxPes = 16384;  // size 14: 7 stages, 13 route bytes (topo::kMaxRouteBytes = 16)

struct SwitchId {
  int st = 0;          // stage, 1 = bottom .. k = top
  std::int64_t P = 0;  // network identifier (subtree prefix)
  std::int64_t Q = 0;  // plane
  friend bool operator==(const SwitchId&, const SwitchId&) = default;
};

// The shape of one layer for `pes` PEs: the smallest Meiko size that holds them.
class LayerShape {
 public:
  // REQUIRES: kMinPes <= pes <= kMaxPes.
  LayerShape(int pes, Doubling doubling);

  int pes() const { return pes_; }
  int size() const { return size_; }      // bits of the deepest PE's network identifier
  int stages() const { return stages_; }  // k = floor(size / 2)
  Doubling doubling() const { return doubling_; }
  bool odd() const { return size_ % 2 == 1; }
  bool eight_way_top() const { return odd() && doubling_ == Doubling::EightWayTop; }
  bool back_to_back() const { return odd() && doubling_ == Doubling::BackToBack; }
  std::int64_t capacity() const { return std::int64_t{1} << size_; }  // PEs of the complete network

  // Radix of address digit `pos` (0 = least significant): 8 for the top digit of an 8-way top, else 4.
  int radix(int pos) const { return eight_way_top() && pos == stages_ - 1 ? 8 : 4; }
  // Digit `pos` of address x (digits below the top are base 4).
  int digit(std::int64_t x, int pos) const { return static_cast<int>((x >> (2 * pos)) % radix(pos)); }
  // The half of a back-to-back network that x is in (0 otherwise).
  int half(std::int64_t x) const { return back_to_back() ? static_cast<int>(x >> (2 * stages_)) : 0; }
  // Network identifier of the stage-st switches above PE x.
  std::int64_t prefix(std::int64_t x, int st) const {
    return st == stages_ && !back_to_back() ? 0 : x >> (2 * st);
  }
  // Planes at stage st: 4^(st-1).
  std::int64_t planes(int st) const { return std::int64_t{1} << (2 * (st - 1)); }
  // Existing network identifiers at stage st: those whose subtree holds a PE of 0..pes-1.
  std::int64_t identifiers(int st) const;
  // Existing switches at stage st, and in the layer.
  std::int64_t switches(int st) const { return identifiers(st) * planes(st); }
  std::int64_t switches() const;
  bool exists(const SwitchId& s) const;
  // Meiko's level of a stage: the top is level 0; below it, size - 2*st (the depth in route bits).
  int level(int st) const { return st == stages_ && eight_way_top() ? 0 : size_ - 2 * st; }
  // Ports of a switch that go down (8 at an 8-way top).
  int down_ports(int st) const { return st == stages_ && eight_way_top() ? 8 : 4; }

  // Graph router of switch s, and back. REQUIRES: exists(s); 0 <= r < switches().
  RouterId router(const SwitchId& s) const;
  SwitchId switch_of(RouterId r) const;

 private:
  int pes_;
  int size_;
  int stages_;
  Doubling doubling_;
  std::int64_t stage_base_[9] = {};  // first router of each stage (stages 1..7), then the total
};

// "" when a layer can be built for `pes` PEs, else why not ("the CS-2 needs at least 2 PEs (got 1)").
std::string layer_problem(int pes);

// One layer as a graph: 8 ports per switch as above, one link per PE. Ports that lead to no existing
// switch or PE (the even top's expansion links, missing PEs) are PeerKind::None.
topo::Graph build_layer(const LayerShape& shape);

// "eight_way_top" or "back_to_back".
const char* doubling_name(Doubling d);

}  // namespace mppnet::machines::cs2
