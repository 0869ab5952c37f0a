// machines/metro/mrp/mrp_network.hpp: MRP-ROUTER on a multibutterfly, word by word and cycle by cycle.
//
// Every wire of the built multibutterfly (multibutterfly.hpp) becomes a half-duplex link with two lanes:
// down (toward the destination: a backward port, or a node's network input, drives it) and up (toward the
// source: a forward port, or a node's network output, drives it). A word written in cycle t is read by
// the far end in cycle t + 1 (W = 1); a router adds P = dps - 1 pipeline cycles to every word it passes on,
// so with dps = 1 a connection advances one stage per clock (Fig 4.5, L1564; note 004b §2.10).
//
// Each forward port runs the connection state machine of Fig 4.3 as note 004b §2.3 reconstructs it (the
// figure body is lost): a ROUTE word (a 0 -> 1 edge of the control bit) asks for a direction; the router
// takes one of the free, enabled backward ports of that direction at random (§4.5.4, L1441-1445), or the
// connection is blocked and its words are discarded; a DROP closes it hop by hop (Fig 4.7); a forward
// TURN returns STATUS then CHECKSUM, then DATA-IDLE up to 2*dps fill words (a blocked router sends DROP
// after its CHECKSUM: Figs 4.8-4.9, L1429-1431); a reverse TURN returns 2*dps DATA-IDLE words (Fig 4.10,
// L1433; two more per pipeline stage, L1673).
//
// State is flat arrays indexed by global forward port, backward port and link; a cycle allocates nothing.
// A cycle visits only the forward ports that can change (a connection, a control bit just seen, a word in
// a pipeline, or a control-bit-1 word arriving): an idle port reading an idle link is a no-op.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "machines/metro/metro_ids.hpp"
#include "machines/metro/mrp/mrp_params.hpp"
#include "machines/metro/mrp/word.hpp"
#include "machines/metro/multibutterfly.hpp"

namespace mppnet::machines::metro::mrp {

// A forward port's connection state (note 004b §2.3; the turn states count their fill words).
enum class PortState : std::uint8_t {
  Idle,
  Forward,              // connected, data flows downstream
  Blocked,              // no backward port was free: words are discarded until TURN or DROP
  Drain,                // collapsed by back-drop: words are discarded until DROP, nothing is driven
  BlockedTurnChecksum,  // blocked and turned: CHECKSUM goes up next ...
  BlockedTurnDrop,      // ... then DROP
  TurnForward,   // turned forward: STATUS went up; CHECKSUM and DATA-IDLE fill follow, then reverse data
  Backward,      // connected, data flows upstream
  TurnBackward,  // turned from the reverse direction: DATA-IDLE fill goes down, then forward data
};

// Where a word was on a link in one cycle, for traces (trace.hpp).
struct LinkWords {
  std::int64_t cycle = 0;
  LinkId link = 0;
  Word down;
  Word up;
  bool backdrop = false;
};

class MrpNetwork {
 public:
  // REQUIRES: check(net.params, p).empty(). Router u draws from the stream (seed, u, RouteChoice).
  MrpNetwork(const Multibutterfly& net, const MrpParams& p, std::uint64_t seed);

  const WordFormat& format() const { return format_; }
  std::int64_t cycle() const { return cycle_; }
  int routers() const { return static_cast<int>(stage_.size()); }
  int links() const { return static_cast<int>(link_rotation_.size()); }
  int stages() const { return stages_; }
  int nodes() const { return nodes_; }
  int node_inputs() const { return node_inputs_; }
  int node_outputs() const { return node_outputs_; }

  // The link node x's network input q drives (its down lane), and the link into its network output q.
  LinkId source_link(NodeId x, int q) const { return source_link_[x * node_inputs_ + q]; }
  LinkId sink_link(NodeId x, int q) const { return sink_link_[x * node_outputs_ + q]; }

  // For endpoints, in the cycle before step(): what arrives this cycle (written in the cycle before), and
  // what they drive this cycle.
  Word down_arriving(LinkId l) const { return down_now_[l]; }
  Word up_arriving(LinkId l) const { return up_now_[l]; }
  void put_down(LinkId l, Word w) {
    if (w.control) {
      if (wire_[l].flips) flip(l, w);
      // Only a control-bit-1 word can make an idle port act (a ROUTE's 0 -> 1 edge): wake the reader.
      if (const int g = wire_[l].reader; g >= 0) wake(g);
    }
    down_next_[l] = rotated(w, wire_[l].rotate_down);
  }
  void put_up(LinkId l, Word w) { up_next_[l] = rotated(w, wire_[l].rotate_up); }

  // Every router evaluates what arrived this cycle, then the words written in it are latched and the
  // cycle ends. With a trace, every link that carried a non-idle word is recorded.
  void step();

  // Back-drop and fast path reclamation (§4.9.2, L1635-1655): one extra line per link, asserted against
  // the data direction. With fast reclamation on, a router that blocks asserts it instead of waiting for
  // the TURN; a router seeing it on a backward port frees the port (which sends DROP on) and passes it
  // up; the blocked and collapsed forward ports discard words until the DROP arrives. A source that sees
  // it aborts. Off by default: a blocked connection then answers its TURN with STATUS and CHECKSUM.
  void set_fast_reclaim(bool on) {
    for (Port& port : port_) port.fast_reclaim = on ? 1 : 0;
  }
  bool backdrop_arriving(LinkId l) const { return backdrop_now_[l] != 0; }
  void set_trace(std::vector<LinkWords>* trace) { trace_ = trace; }

  // A bit-flip fault on link l (note 004b §5 V12-V13): of the control-bit-1 words crossing it toward the
  // destination from now on, the first `skip` pass, then `count` (-1: every one, a stuck fault) have the
  // bits of `mask` inverted (in the frame of the end that drives the link). Mask 0 repairs the link.
  void set_link_flip(LinkId l, std::uint32_t mask, int skip = 0, int count = -1) {
    flip_down_[l] = mask & format_.all_ones();
    wire_[l].flips = flip_down_[l] != 0 ? 1 : 0;
    flip_skip_[l] = skip;
    flip_count_[l] = count;
  }

  // Port deselection (§4.9.1, L1607-1625): a deselected backward port looks permanently busy, a
  // deselected forward port ignores connection requests. Takes effect for new connections.
  void deselect_backward(RouterId u, int port) { bp_enabled_[bp_first_[u] + port] = 0; }
  void deselect_forward(RouterId u, int port) { port_[fp_first_[u] + port].enabled = 0; }
  // Selection again, as after a scan test that passed (§5.3.2, L1954-1956; scan/scan_system.hpp).
  void select_backward(RouterId u, int port) { bp_enabled_[bp_first_[u] + port] = 1; }
  void select_forward(RouterId u, int port) { port_[fp_first_[u] + port].enabled = 1; }
  bool backward_selected(RouterId u, int port) const { return bp_enabled_[bp_first_[u] + port] != 0; }
  bool forward_selected(RouterId u, int port) const { return port_[fp_first_[u] + port].enabled != 0; }
  // The bits a flip fault on link l still inverts (0: none left), for a boundary-scan test of the wire
  // (scan/scan_system.hpp): a static fault (count -1) or one with flips to come.
  std::uint32_t pending_flip(LinkId l) const { return flip_count_[l] != 0 ? flip_down_[l] : 0; }

  // Observation, for tests.
  int stage_of(RouterId u) const { return stage_[u]; }  // 1-based, as in the thesis
  int forward_ports(RouterId u) const { return fp_first_[u + 1] - fp_first_[u]; }
  int backward_ports(RouterId u) const { return bp_first_[u + 1] - bp_first_[u]; }
  PortState state(RouterId u, int forward_port) const { return port_[fp_first_[u] + forward_port].state; }
  // The backward port forward port `forward_port` holds, or -1.
  int connection(RouterId u, int forward_port) const;
  bool backward_busy(RouterId u, int port) const { return owner_[bp_first_[u] + port] >= 0; }
  // The router and forward port that link l feeds, or router -1 for a node's network output.
  RouterId link_target(LinkId l) const { return wire_[l].reader < 0 ? -1 : fp_router_[wire_[l].reader]; }
  // Which of that router's forward ports it feeds. REQUIRES: link_target(l) >= 0.
  int link_port(LinkId l) const { return wire_[l].reader - fp_first_[fp_router_[wire_[l].reader]]; }
  // The link backward port `port` of router u drives.
  LinkId backward_link(RouterId u, int port) const { return bp_link_[bp_first_[u] + port]; }

 private:
  void evaluate(RouterId u, const int* ports, int count);
  void wake(int g) { visit_next_[static_cast<std::size_t>(g) >> 6] |= std::uint64_t{1} << (g & 63); }
  void forward_port(RouterId u, int g, Word in, int* requests, int& request_count);
  void allocate(RouterId u, const int* requests, int request_count);
  void free_backward(int b);
  void block(int g);
  void collapse(int g);
  void forward_word(int g, Word in);
  void backward_word(int g, Word back);
  void emit_down(int g, int b, Word w, bool is_drop = false);
  void emit_up(int g, Word w);
  void drain_pipelines(int g);
  Word status_of(int g, bool blocked) const;

  // WordFormat's classify() and link rotations, with the mask and each link's shifts worked out once: a
  // word crosses a link at every busy port in every cycle, and the general forms divide.
  Kind kind(Word w) const {
    if (w.control) return Kind::D;
    if (w.data == 0) return Kind::Z;
    if (w.data == ones_) return Kind::T;
    if (w.data == WordFormat::kHoldPattern) return Kind::H;
    return Kind::X;
  }
  Word rotated(Word w, int right) const {
    if (w.control && right != 0) w.data = ((w.data >> right) | (w.data << (width_ - right))) & ones_;
    return w;
  }

  WordFormat format_;
  std::uint32_t ones_ = 0;
  int width_ = 0;
  int stages_ = 0, nodes_ = 0, node_inputs_ = 0, node_outputs_ = 0;
  std::int64_t cycle_ = 0;

  // Per router.
  std::vector<int> fp_first_, bp_first_;  // size routers + 1
  std::vector<std::uint8_t> radix_, dilation_, stage_;
  std::vector<core::RandomStream> rng_;

  // Per forward port (global index).
  // What a port's cycle reads and writes, together: one 24-byte record rather than an array per field,
  // which cost an address and often a cache line each.
  struct Port {
    std::uint32_t checksum = 0;
    std::int32_t bp = -1;  // the backward port held, -1 when none
    LinkId in = -1;        // the link it reads
    LinkId out = -1;       // while it holds a backward port, that port's link
    PortState state = PortState::Idle;
    std::uint8_t previous_control = 0;
    std::uint8_t fill = 0;          // cycles of a turn's fill done
    std::uint8_t fast_reclaim = 0;  // METRO's "Fast Reclamation" bit (Table 9.2)
    std::uint8_t enabled = 1;
  };
  std::vector<Port> port_;
  std::vector<RouterId> fp_router_;  // apart from the records: step() reads it for every port it visits

  // Per backward port (global index).
  std::vector<std::int32_t> owner_;     // the forward port holding it, -1 when free
  std::vector<std::int64_t> freed_at_;  // the cycle it last emitted its DROP
  std::vector<std::uint8_t> bp_enabled_;
  std::vector<LinkId> bp_link_;

  // Per link: the lanes read this cycle and written this cycle; which end drives and reads them.
  std::vector<Word> down_now_, up_now_, down_next_, up_next_;
  std::vector<std::uint8_t> backdrop_now_, backdrop_next_;  // the back-drop line, toward the source
  void flip(LinkId l, Word& w) {
    if (flip_skip_[l] > 0) {
      --flip_skip_[l];
    } else if (flip_count_[l] != 0) {
      w.data ^= flip_down_[l];
      if (flip_count_[l] > 0) --flip_count_[l];
    }
  }
  std::vector<std::uint32_t> flip_down_;  // per link: bits a fault inverts in forward control-bit-1 words
  std::vector<std::int32_t> flip_skip_, flip_count_;  // words it lets pass first; words it flips (-1: all)
  // Bits a forward word is rotated right by on the link (§4.6): c between routers, so each router reads a
  // fresh field; 0 from a source; into a node, what completes a whole turn, so that the destination
  // reads the words as the source wrote them and the source reads the reply as it was sent.
  std::vector<std::uint8_t> link_rotation_;
  // What put_down() and put_up() need of a link, in one record: the forward port it feeds (-1 for a
  // node's output), the right shifts of both lanes (0..w-1), and whether a flip fault is set on it.
  struct Wire {
    std::int32_t reader = -1;
    std::uint8_t rotate_down = 0, rotate_up = 0, flips = 0;
  };
  std::vector<Wire> wire_;
  std::vector<LinkId> source_link_, sink_link_;

  // The data pipelines (P = dps - 1 stages per direction per forward port, §4.11.1): P slots of forward
  // port g from g * P, slot cycle % P is the word that entered P cycles ago; a downstream word carries its
  // backward port (-1: the slot is empty).
  int pipeline_ = 0;
  std::vector<Word> pipe_down_, pipe_up_;
  std::vector<std::int32_t> pipe_down_bp_;

  // The ports step() visits: bit g of visit_now_ for this cycle, of visit_next_ for the next (set by a
  // port that stays busy, and by put_down() waking a port); per port, the cycle its pipelines empty.
  std::vector<std::uint64_t> visit_now_, visit_next_;
  std::vector<std::int64_t> pipe_until_;

  std::vector<LinkWords>* trace_ = nullptr;
};

}  // namespace mppnet::machines::metro::mrp
