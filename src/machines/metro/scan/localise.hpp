// machines/metro/scan/localise.hpp: from MRP's failed attempts to a scan-verified, masked faulty link.
//
// §5.4 (L1966-1978): MRP's failure records and router checksums are hints, not verdicts. A returned
// CHECKSUM that differs from the source's own places a fault before that router (§4.5.3, L1435-1439), but
// it may be a transient, and a router nearer the source may have corrupted it. So the suspects are
// verified by isolating them: the two ports of a suspect link are deselected by scan, the wire is tested
// with partial-external scan while the rest of the network keeps running, and the link stays masked only if
// the test fails; otherwise its ports are selected again (note 004b §3.5).
//
// Suspects: an attempt that was Corrupted with its nearest differing CHECKSUM at router stage k >= 2
// names the link into its stage-k router, found by walking the path its STATUS words report (which of the
// equivalent backward ports each router took, L1437; mrp::Attempt::copies). The STATUS words come back up
// the same path, so a router nearer the source could have corrupted them (L1968): a suspect is only
// tested with `min_evidence` attempts naming it (note 004b §6 item 21: repeated evidence before isolating
// anything), and only a failed scan test masks it.
#pragma once

#include <vector>

#include "machines/metro/mrp/mrp_endpoint.hpp"
#include "machines/metro/scan/scan_system.hpp"

namespace mppnet::machines::metro::scan {

struct LinkSuspect {
  LinkId link = -1;
  int evidence = 0;  // attempts naming it
};

// The suspects of `attempts`, most named first (ties: lower link first).
std::vector<LinkSuspect> link_suspects(const Multibutterfly& g, const std::vector<mrp::Attempt>& attempts);

struct Localisation {
  std::vector<LinkSuspect> suspects;
  std::vector<LinkId> tested;   // in test order
  std::vector<LinkId> faulty;   // tests that failed: their ports stay deselected
  int max_ports_out = 0;        // most ports one test took out of service (beyond those already masked)
  std::int64_t tck_cycles = 0;  // scan clock cycles the procedure took
};

// Tests every suspect with at least `min_evidence` attempts, one at a time.
Localisation localise_links(const Multibutterfly& g, ScanSystem& scan,
                            const std::vector<mrp::Attempt>& attempts, int min_evidence = 2);

}  // namespace mppnet::machines::metro::scan
