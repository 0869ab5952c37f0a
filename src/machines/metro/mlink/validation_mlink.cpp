// machines/metro/mlink/validation_mlink.cpp: MLINK cases (Fig 11.1, §11.1; note 004c §3.5 and §8 target 12).
//
// The thesis gives MLINK's formats as byte counts and its checks and retry in words; the note derives the
// word counts of a WRITE (target 12), so those cases are Independent, and what a corrupted header or
// payload does is Behaviour. All are exact: a run is one trace per seed.
#include <string>

#include "machines/metro/mlink/mlink.hpp"
#include "machines/metro/mlink/validation_mlink.hpp"
#include "machines/metro/mrp/scenarios.hpp"

namespace mppnet::machines::metro::mlink {
namespace {

constexpr const char* kMlinkThesis = "DeHon 1993 (MIT AI TR-1445)";
constexpr const char* kMlinkExact =
    "exact: a synchronous protocol gives one trace per connection, word by word";
constexpr const char* kSetup =
    "the MBTA's network (r = 4, d = 2, 3 stages, ni = no = 2, deterministic, dps = 2, fast reclamation), "
    "MLINK on every node; one WRITE of len 2 (16 bytes) from node 0 to node 63 at address 0x40; seed 1";

struct Memory final : MlinkHost {
  explicit Memory(int nodes) : mem(static_cast<std::size_t>(nodes), std::vector<std::uint8_t>(1024, 0)) {}
  std::span<std::uint8_t> memory(NodeId v) override { return mem[v]; }
  bool rop(NodeId, NodeId, std::uint32_t, std::span<const std::uint8_t>, std::uint64_t,
           std::int64_t) override {
    return true;
  }
  void done(NodeId, std::uint64_t, const OperationResult& r) override { result = r; }
  std::vector<std::vector<std::uint8_t>> mem;
  OperationResult result;
};

struct WriteRun {
  OperationResult result;
  MlinkStats stats;
  std::vector<mrp::LinkWords> trace;
  LinkId source_link[2] = {0, 0};
  bool memory_matches = false;
};

// The WRITE above; `flip_skip` >= 0 flips bit 0 of the control-bit-1 word after that many on both links
// into node 63, once each (`stuck`: every word from there on), with `max_trials` trials.
WriteRun write_run(int flip_skip, bool stuck, int max_trials) {
  const Multibutterfly graph = build_instance(mrp::mbta_network(), 1, 0);
  mrp::MrpParams mp;
  mp.dps = 2;
  mrp::MrpNetwork net(graph, mp, 1);
  net.set_fast_reclaim(true);
  Memory host(graph.nodes);
  MlinkParams p;
  p.max_trials = max_trials;
  Mlink mlink(net, graph.params.radix, p, host, 1);
  WriteRun out;
  net.set_trace(&out.trace);
  if (flip_skip >= 0)
    for (int o = 0; o < 2; ++o) net.set_link_flip(net.sink_link(63, o), 0x01, flip_skip, stuck ? -1 : 1);
  std::vector<std::uint8_t> data(16);
  for (int k = 0; k < 16; ++k) data[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(0x30 + k);
  mlink.launch(0, {Op::Write, 63, 2, 0x40, 0, 1}, data);
  for (int c = 0; c < 100000 && (c == 0 || !mlink.idle()); ++c) {
    mlink.tick();
    net.step();
  }
  out.result = host.result;
  out.stats = mlink.stats();
  out.source_link[0] = net.source_link(0, 0);
  out.source_link[1] = net.source_link(0, 1);
  out.memory_matches = std::equal(data.begin(), data.end(), host.mem[63].begin() + 0x40);
  return out;
}

bool on_source_link(const WriteRun& r, const mrp::LinkWords& w) {
  return w.link == r.source_link[0] || w.link == r.source_link[1];
}

}  // namespace

std::vector<core::ValidationCase> mlink_validation_cases() {
  using core::Evidence;
  std::vector<core::ValidationCase> cases;
  cases.push_back(core::exact_case(
      "metro.mlink.write_len2_forward_words",
      std::string(kMlinkThesis) +
          " Fig 11.1 (L3037-3057); note 004c §8 target 12: 1 + 1 + 1 + 3 + 2 + 16 + 2 + 1",
      kSetup, "words the source puts on its link from the ROUTE to the TURN, both included", 27,
      [] {
        const WriteRun r = write_run(-1, false, 0);
        int words = 0;
        for (const mrp::LinkWords& w : r.trace)
          if (on_source_link(r, w) && w.down.tag != mrp::Tag::Idle) ++words;
        return static_cast<double>(words);
      },
      Evidence::Independent, kMlinkExact));
  cases.push_back(core::exact_case(
      "metro.mlink.write_len2_reply_words",
      std::string(kMlinkThesis) +
          " Fig 11.1: MLINK_STATUS^2 ACK/NACK DROP; note 004c §8 target 12: 4 words after "
          "the 2N router words",
      kSetup,
      "MLINK's reply words the source reads after the routers' STATUS/CHECKSUM pairs, the DROP included", 4,
      [] {
        const WriteRun r = write_run(-1, false, 0);
        int words = 0;
        for (const mrp::LinkWords& w : r.trace)
          if (on_source_link(r, w) && (w.up.tag == mrp::Tag::Reply || w.up.tag == mrp::Tag::Drop)) ++words;
        return static_cast<double>(words);
      },
      Evidence::Independent, kMlinkExact));
  cases.push_back(core::exact_case(
      "metro.mlink.mbta_write_len2_round_trip",
      std::string(kMlinkThesis) +
          " §10.2 (L2997: 70 ns one way), Fig 11.1; note 004b §2.10: TURN at F + 1, the "
          "first reply word 2 T_fwd later, then 4 words",
      kSetup, "cycles from the ROUTE to the source reading the reply's DROP: 26 + 14 + 3", 43,
      [] { return static_cast<double>(write_run(-1, false, 0).result.done); }, Evidence::Independent,
      kMlinkExact));
  cases.push_back(core::exact_case(
      "metro.mlink.header_corruption_writes_nothing",
      std::string(kMlinkThesis) +
          " §11.3 (L3059-3061: the address is guarded by its own checksum so that data can "
          "be written while received), §4.7.4; note 004c §8 target 12",
      std::string(kSetup) + "; bit 0 of the first address byte stuck on both links into node 63; 1 trial",
      "bytes written into node 63's memory (the header check fails, the WRITE is NACKed)", 0,
      [] {
        const WriteRun r = write_run(3, true, 1);
        return r.result.status == Status::BadHeader ? static_cast<double>(r.stats.bytes_written) : -1.0;
      },
      Evidence::Behaviour, kMlinkExact));
  cases.push_back(core::exact_case(
      "metro.mlink.payload_corruption_nack_and_retry",
      std::string(kMlinkThesis) +
          " §11.1 (L3005-3007: MLINK verifies checksums and retries failed connections); "
          "note 004c §8 target 12",
      std::string(kSetup) + "; the first data byte flipped once on each link into node 63; no trial limit",
      "1 when the first trial was NACKed and a later one delivered the data whole, else 0", 1,
      [] {
        const WriteRun r = write_run(8, false, 0);
        return r.result.delivered && r.result.trials >= 2 && r.stats.nacked == r.result.trials - 1 &&
                       r.memory_matches
                   ? 1.0
                   : 0.0;
      },
      Evidence::Behaviour, kMlinkExact));
  return cases;
}

}  // namespace mppnet::machines::metro::mlink
