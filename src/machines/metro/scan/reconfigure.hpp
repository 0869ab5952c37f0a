// machines/metro/scan/reconfigure.hpp: fault masking and propagating reconfiguration (§5.5.1-5.5.2).
//
// Masking (L1984-1986): a faulty router is excised by deselecting every port attached to it, a faulty link
// by deselecting the ports at its two ends. Propagation (L1990-1994): a router all of whose enabled
// backward ports in one logical direction are masked, or lead to masked routers, is a dead end for every
// connection to that direction; the procedure of Fig 3.28 excises such routers too, from the last stage
// toward the first. That procedure is for harvest (L1998): it may cut off a node that still has paths. In
// the yield setting each extra mask is applied only if every node still reaches every node (L1998-2000);
// Fig 5.3 is a case where propagation helps, Fig 5.4 one where yield must refuse it.
//
// The masks are plain per-router and per-link flags over the built multibutterfly; the scan system applies
// them to the routers' port-select registers (apply_masks).
#pragma once

#include <cstdint>
#include <vector>

#include "machines/metro/metro_ids.hpp"
#include "machines/metro/multibutterfly.hpp"

namespace mppnet::machines::metro::scan {

class ScanSystem;

struct NetworkMasks {
  std::vector<std::uint8_t> router;  // per router: excised
  std::vector<std::uint8_t> output;  // per router output (Multibutterfly::out index): the link is masked

  explicit NetworkMasks(const Multibutterfly& g)
      : router(static_cast<std::size_t>(g.routers()), 0), output(g.out.size(), 0) {}
};

enum class ReconfigureMode : std::uint8_t {
  Yield,    // never cut a node off: an extra mask that would is refused
  Harvest,  // Fig 3.28 as it stands: dead ends go, even when a node goes with them
};

struct ReconfigureResult {
  std::vector<RouterId> masked;   // routers excised by propagation, in the order excised
  std::vector<RouterId> refused;  // dead ends left in place because masking them would cut a node off
  std::vector<NodeId> cut_off;    // nodes with no enabled way into the network afterwards
  bool complete = false;          // every node reaches every node over unmasked routers and links
};

// Router u is a dead end: at some logical direction no output of that direction is an unmasked link to
// an unmasked router. Final-stage routers are never dead ends (their outputs are the nodes).
bool is_dead_end(const Multibutterfly& g, const NetworkMasks& m, RouterId u);

// Every node reaches every node along unmasked routers and links.
bool all_pairs_connected(const Multibutterfly& g, const NetworkMasks& m);

// Propagates the masks from the last stage to the first (a router's dead-endedness depends only on later
// stages, so one pass over the stages in that order is a fixed point).
ReconfigureResult propagate(const Multibutterfly& g, NetworkMasks& m, ReconfigureMode mode);

// Writes the masks into the routers' port-select registers by scan: an excised router has every port of
// its neighbours attached to it deselected (and its own); a masked link its two end ports. Returns the
// ports that could not be reached (no healthy scan path).
int apply_masks(const Multibutterfly& g, const NetworkMasks& m, ScanSystem& scan);

}  // namespace mppnet::machines::metro::scan
