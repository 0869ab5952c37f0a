// machines/metro/mrp/scenarios.cpp: the single-connection runs of note 004b §5.
#include "machines/metro/mrp/scenarios.hpp"

#include <utility>

#include "machines/metro/mrp/driver.hpp"

namespace mppnet::machines::metro::mrp {

MultibutterflyParams figure_44_network() {
  MultibutterflyParams p;
  p.radix = 2;
  p.dilation = 2;
  p.stages = kExampleStages;
  p.node_inputs = p.node_outputs = 2;
  p.wiring = Wiring::Deterministic;
  return p;
}

MultibutterflyParams mbta_network() {
  MultibutterflyParams p;
  p.radix = 4;
  p.dilation = 2;
  p.stages = 3;
  p.node_inputs = p.node_outputs = 2;
  p.wiring = Wiring::Deterministic;
  return p;
}

namespace {

// Runs one connection with the given scripts; `block_stage` > 0 deselects, in every router of that
// stage, the backward ports of the direction the route asks for there (all of them look busy, §4.9.1),
// or only copy `only_copy` of them when it is >= 0.
ConnectionRun run(std::uint64_t seed, int block_stage,
                  std::vector<std::vector<Word>> (*source)(const WordFormat&),
                  std::vector<std::vector<Word>> (*reply)(const WordFormat&), int only_copy = -1,
                  bool fast_reclaim = false) {
  const Multibutterfly graph = build_instance(figure_44_network(), seed, 0);
  MrpNetwork net(graph, MrpParams{}, seed);
  ConnectionRun out;
  out.format = net.format();
  if (block_stage > 0) {
    int digit = kExampleDestination;
    for (int k = kExampleStages; k > block_stage; --k) digit /= graph.params.radix;
    digit %= graph.params.radix;
    const int s = block_stage - 1, d = graph.copies[s];
    for (RouterId u = graph.stage_first[s]; u < graph.stage_first[s + 1]; ++u)
      for (int k = 0; k < d; ++k)
        if (only_copy < 0 || k == only_copy) net.deselect_backward(u, digit * d + k);
  }
  net.set_fast_reclaim(fast_reclaim);
  net.set_trace(&out.raw);
  MrpDriver driver(net);
  auto script = source(out.format);
  for (const auto& segment : script)
    for (const Word& w : segment)
      if (w.control) out.sent.push_back(w);
  const int k =
      driver.connect(kExampleSource, 0, kExampleDestination, 0, std::move(script), reply(out.format));
  driver.run(kTraceCycles + 16);
  out.trace = path_trace(out.raw, net.source_link(kExampleSource, 0), 0, kTraceCycles);
  out.at_source = driver.end(k).received();
  out.backdropped = driver.end(k).backdropped();
  if (const ScriptedEnd* dest = driver.destination_of(k)) out.at_destination = dest->received();
  out.ports_busy = 0;
  for (RouterId u = 0; u < net.routers(); ++u) {
    for (int p = 0; p < net.backward_ports(u); ++p) out.ports_busy += net.backward_busy(u, p) ? 1 : 0;
    for (int p = 0; p < net.forward_ports(u); ++p)
      out.ports_busy += net.state(u, p) != PortState::Idle ? 1 : 0;
  }
  return out;
}

std::vector<Word> with(std::vector<Word> words, Word last) {
  words.push_back(last);
  return words;
}

std::vector<std::vector<Word>> request(const WordFormat& f) {
  std::vector<Word> s = {route_to(f, 2, kExampleStages, kExampleDestination)};
  for (const Word& w : data_words(f, Tag::Data, 2)) s.push_back(w);
  return {with(s, f.turn())};
}
std::vector<std::vector<Word>> request_then_drop(const WordFormat& f) {
  auto s = request(f);
  s[0].back() = f.drop();
  return s;
}
std::vector<std::vector<Word>> reply_and_drop(const WordFormat& f) {
  return {with(data_words(f, Tag::Reply, 2), f.drop())};
}
std::vector<std::vector<Word>> long_request(const WordFormat& f) {
  std::vector<Word> s = {route_to(f, 2, kExampleStages, kExampleDestination)};
  for (const Word& w : data_words(f, Tag::Data, 9)) s.push_back(w);
  return {with(s, f.turn())};
}
std::vector<std::vector<Word>> two_requests(const WordFormat& f) {
  auto s = request(f);
  s.push_back(with(data_words(f, Tag::Data, 2, 3), f.turn()));
  return s;
}
std::vector<std::vector<Word>> reply_turn_reply(const WordFormat& f) {
  return {with(data_words(f, Tag::Reply, 2), f.turn()), with(data_words(f, Tag::Reply, 1, 3), f.drop())};
}

std::vector<std::vector<std::string>> rows(const std::vector<std::string>& printed) {
  std::vector<std::vector<std::string>> out;
  for (const std::string& row : printed) out.push_back(cells(row));
  return out;
}

}  // namespace

ConnectionRun run_v1_open_and_turn(std::uint64_t seed) {
  return run(seed, 0, request, reply_and_drop);
}
ConnectionRun run_v2_blocked_turn(std::uint64_t seed) {
  return run(seed, 3, request, reply_and_drop);
}
ConnectionRun run_v3_drop(std::uint64_t seed, int block_stage) {
  return run(seed, block_stage, request_then_drop, reply_and_drop);
}
ConnectionRun run_v9_fast_reclaim(std::uint64_t seed) {
  return run(seed, 3, long_request, reply_and_drop, -1, true);
}
ConnectionRun run_v11_deselected(std::uint64_t seed, int stage, int copy) {
  return run(seed, stage, request, reply_and_drop, copy);
}
ConnectionRun run_v4_reverse_turn(std::uint64_t seed) {
  return run(seed, 0, two_requests, reply_turn_reply);
}

// Note 004b §5 V1 (Figs 4.5, 4.8), copied as printed.
std::vector<std::vector<std::string>> note_trace_v1() {
  return rows({
      ">R  >D1  >D2   >T  <S1  <C1  <S2  <C2  <S3  <C3  <S4  <C4  <Y1  <Y2   <Z",
      " .   >R  >D1  >D2   >T  <S2  <C2  <S3  <C3  <S4  <C4  <Y1  <Y2   <Z",
      " .    .   >R  >D1  >D2   >T  <S3  <C3  <S4  <C4  <Y1  <Y2   <Z",
      " .    .    .   >R  >D1  >D2   >T  <S4  <C4  <Y1  <Y2   <Z",
      " .    .    .    .   >R  >D1  >D2   >T  <Y1  <Y2   <Z",
  });
}

// Note 004b §5 V2 (Figs 4.6, 4.9), copied as printed; L3 and L4 stay idle.
std::vector<std::vector<std::string>> note_trace_v2() {
  return rows({
      ">R  >D1  >D2   >T  <S1  <C1  <S2  <C2  <S3  <C3   <Z",
      " .   >R  >D1  >D2   >T  <S2  <C2  <S3  <C3   <Z",
      " .    .   >R  >D1  >D2   >T  <S3  <C3   <Z",
  });
}

// Note 004b §5 V3 (Fig 4.7): "L_k carries Z in cycle 3+k"; the words before it move one link per cycle.
std::vector<std::vector<std::string>> note_trace_v3() {
  const std::vector<std::string> words = {">R", ">D1", ">D2", ">Z"};
  std::vector<std::vector<std::string>> out(kExampleStages + 1);
  for (int k = 0; k <= kExampleStages; ++k) {
    out[k].assign(k, ".");
    out[k].insert(out[k].end(), words.begin(), words.end());
  }
  return out;
}

// The MBTA's network (Ch. 10: 64 nodes, 3 stages of radix-4 dilation-2 routers, 2 connections each way
// per node) with one pipeline stage per router (dps = 2): R D1 TURN from node 0 to node 63, reply Y1 DROP.
ConnectionRun run_v6_pipelined(std::uint64_t seed) {
  MrpParams mp;
  mp.dps = 2;
  return run_pipelined_turn(seed, mbta_network(), mp);
}

ConnectionRun run_pipelined_turn(std::uint64_t seed, const MultibutterflyParams& p, const MrpParams& mp) {
  const Multibutterfly graph = build_instance(p, seed, 0);
  MrpNetwork net(graph, mp, seed);
  ConnectionRun out;
  out.format = net.format();
  net.set_trace(&out.raw);
  MrpDriver driver(net);
  const NodeId x = 0, y = net.nodes() - 1;
  std::vector<Word> request = {route_to(out.format, p.radix, p.stages, y)};
  request.push_back(data_words(out.format, Tag::Data, 1)[0]);
  out.sent = request;
  request.push_back(out.format.turn());
  const int k =
      driver.connect(x, 0, y, 0, {request}, {with(data_words(out.format, Tag::Reply, 1), out.format.drop())});
  driver.run(kTraceCycles + 16);
  out.trace = path_trace(out.raw, net.source_link(x, 0), 0, kTraceCycles);
  out.at_source = driver.end(k).received();
  if (const ScriptedEnd* dest = driver.destination_of(k)) out.at_destination = dest->received();
  return out;
}

// Note 004b §5 V6 (Figs 4.14-4.15), L0 as printed: each router fills 4 words (S, C, H, H).
std::vector<std::vector<std::string>> note_trace_v6_l0() {
  return rows({">R  >D1   >T  <S1  <C1   <H   <H  <S2  <C2   <H   <H  <S3  <C3   <H   <H  <Y1   <Z"});
}

// Note 004b §5 V9 (Fig 4.12), as its prose gives it: R3 blocks and asserts back-drop on L2 in cycle 3
// ("^"), R2 frees its port (DROP on L2) and asserts on L1 in cycle 4, R1 in cycle 5, and the source,
// seeing it in cycle 6, aborts with a DROP; the words before move one link per cycle.
std::vector<std::vector<std::string>> note_trace_v9() {
  return rows({
      ">R  >D1  >D2  >D3  >D4  >D5^  >Z",
      " .   >R  >D1  >D2  >D3^  >Z",
      " .    .   >R  >D1^  >Z",
  });
}

std::size_t after_turn(const WordFormat& format, const std::vector<Received>& words, int n) {
  for (std::size_t k = 0; k < words.size(); ++k)
    if (format.classify(words[k].word) == Kind::T && --n == 0) return k + 1;
  return words.size();
}

}  // namespace mppnet::machines::metro::mrp
