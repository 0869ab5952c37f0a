// machines/metro/scan/scan_system.hpp: the scan paths of a METRO multibutterfly and what runs over them.
//
// Every router has `taps` TAPs (router_scan.hpp). With two TAPs the paths form the grid of Fig 5.1
// (L1903): routers in an R x C grid (router u at row u / C, column u mod C), TAP 0 on the path of its row,
// TAP 1 on the path of its column. No two routers share the same pair of paths, so two faulty paths cut at
// most one router off the scan system. With one TAP there are only the row paths.
//
// The scan controller drives a path bit by bit through the 1149.1 states: an IR scan loads one word into
// each TAP on the path (BYPASS into the routers it is not addressing), a DR scan exchanges each selected
// register. On top of that, as the coordinator of §5.7 would: port selection by scan (§5.3.2), which the
// MRP model's port deselection masks follow (mrp/mrp_network.hpp), and the partial-external test of one
// link with its two end ports deselected while the rest of the network runs (§5.3.3, §5.4 L1976).
//
// The coordinator keeps its own image of every router's port-select register (the replicated
// configuration database of §5.7, L2046) and writes the whole register each time, reading it back to check
// the write took.
#pragma once

#include <cstdint>
#include <vector>

#include "machines/metro/metro_ids.hpp"
#include "machines/metro/mrp/mrp_network.hpp"
#include "machines/metro/multibutterfly.hpp"
#include "machines/metro/scan/router_scan.hpp"

namespace mppnet::machines::metro::scan {

struct ScanParams {
  int taps = 2;           // sp (Table 9.1): TAPs per router, 1 or 2
  int check_bits = 8;     // m: check bits of the sparse instruction code
  int columns = 8;        // C: the grid's columns (its rows follow from the router count)
  int segment_bits = 10;  // a port's boundary segment: w data bits, control, back-drop (w = 8)
};

// Why these parameters cannot describe a scan system for a network with `routers` routers of at most
// `ports` ports each.
std::vector<core::Problem> check(const ScanParams& p, int routers, int ports);

struct ScanMember {
  RouterId router = 0;
  int tap = 0;
};

// How a path can fail (the scan-path faults of §5.3.1, L1916-1918).
enum class PathFault : std::uint8_t {
  None,
  TckStuck,   // no clock edge reaches the path: nothing can be loaded or read
  TdiStuck0,  // the controller's TDI line stuck at 0: every bit shifted in is 0
};

// One partial-external test of a link, both directions.
struct LinkTest {
  bool reachable = false;  // both end routers had a working scan path
  int patterns = 0;        // patterns applied (each direction: all-0, all-1, walking 1, walking 0)
  int mismatches = 0;      // patterns whose captured value differed from the one driven
};

class ScanSystem {
 public:
  // REQUIRES: check(p, g.routers(), max ports).empty(). `net` (may be null) follows the port selection;
  // it must be built on `g`.
  ScanSystem(const Multibutterfly& g, mrp::MrpNetwork* net, const ScanParams& p);
  // The routers' pin wiring points back into this object.
  ScanSystem(const ScanSystem&) = delete;
  ScanSystem& operator=(const ScanSystem&) = delete;

  int paths() const { return static_cast<int>(paths_.size()); }
  const std::vector<ScanMember>& path(int p) const { return paths_[p]; }
  int path_of(RouterId u, int tap) const {
    return path_of_[static_cast<std::size_t>(u) * params_.taps + tap];
  }
  RouterScan& router(RouterId u) { return routers_[u]; }
  const RouterScan& router(RouterId u) const { return routers_[u]; }
  const SparseCode& code() const { return code_; }
  void set_path_fault(int p, PathFault f) { fault_[p] = f; }

  // The bit-level operations, for one path. `words`/`in` hold one entry per member in path order; a
  // member's bits are low bit first. Both return what came out of TDO, split the same way (IR scans: the
  // captured 01 of each TAP). Start and end in Run-Test/Idle.
  std::vector<std::uint32_t> scan_ir(int p, const std::vector<std::uint32_t>& words);
  std::vector<std::vector<std::uint8_t>> scan_dr(int p, const std::vector<std::vector<std::uint8_t>>& in);
  // Five TCK cycles with TMS = 1, then Run-Test/Idle: every TAP on the path in a known state.
  void reset_path(int p);
  // The clock edges driven so far (the cost of a procedure, in TCK cycles).
  std::int64_t tck_cycles() const { return tck_cycles_; }

  // Loads `in` into router u through path p, BYPASS into the other members; false if u is not on p or
  // the IR capture did not read back 01 from u's TAP (a dead path).
  bool load(int p, RouterId u, Instruction in);
  // A path on which u answers and its port-select register reads back the coordinator's image, or -1.
  int reachable_path(RouterId u);

  // Port selection by scan (§5.3.2): writes u's port-select register through a reachable path and reads it
  // back; false when no path reaches u. The MRP network's masks follow the register.
  bool set_port_enabled(RouterId u, int port, bool enabled);
  bool port_enabled(RouterId u, int port) const { return routers_[u].port_enabled(port); }
  // Ports deselected anywhere in the network (for "how much was taken out of service").
  int ports_deselected() const;

  // Partial-external test of the router-to-router link l (backward port of its upper router to forward
  // port of its lower one): both end ports deselected by scan, PARTIAL_EXTEST loaded into both, patterns
  // driven down the link and then up it, the ports left deselected (the caller re-enables them).
  // REQUIRES: l is a link between two routers.
  LinkTest test_link(LinkId l);

  // The ends of a router-to-router link.
  struct LinkEnds {
    RouterId upper = -1;  // its backward port `upper_port` drives the link toward the destination
    int upper_port = 0;   // scan port number (forward ports first)
    RouterId lower = -1;
    int lower_port = 0;
  };
  LinkEnds ends(LinkId l) const { return ends_[l]; }

 private:
  bool clock_path(int p, bool tms, bool tdi);
  // From Shift-IR/DR: the bits of `in` (last member first), then Update and Run-Test/Idle.
  std::vector<std::vector<std::uint8_t>> shift(int p, const std::vector<std::vector<std::uint8_t>>& in);
  void apply_port_select(RouterId u);
  std::uint32_t sense(RouterId u, int port) const;
  void drive(RouterId u, int port, std::uint32_t value);

  const Multibutterfly* g_;
  mrp::MrpNetwork* net_;
  ScanParams params_;
  SparseCode code_;
  std::vector<RouterScan> routers_;
  std::vector<std::vector<ScanMember>> paths_;
  std::vector<int> path_of_;
  std::vector<PathFault> fault_;
  std::vector<std::vector<std::uint8_t>> select_image_;
  std::vector<LinkEnds> ends_;            // per link; upper -1 for a node's link
  std::vector<LinkId> in_link_;           // per (router, forward port): the link it reads
  std::vector<int> fp_first_;             // per router: index of its forward port 0 in in_link_
  std::vector<std::uint32_t> down_, up_;  // per link: what the scan cells drive on each lane
  std::int64_t tck_cycles_ = 0;
};

// For every pair of paths (p < q, in order) with TCK stuck, how many of routers 0..routers-1 no path
// reaches (L1903's claim for the grid: at most 1). Leaves every path healthy.
std::vector<int> cut_off_by_path_pairs(ScanSystem& scan, int routers);

}  // namespace mppnet::machines::metro::scan
