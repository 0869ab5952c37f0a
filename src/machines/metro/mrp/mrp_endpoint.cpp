// machines/metro/mrp/mrp_endpoint.cpp: MRP-ENDPOINT's sources, destinations, retry and duplicate filter.
#include "machines/metro/mrp/mrp_endpoint.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "machines/metro/mrp/driver.hpp"
#include "machines/metro/mrp/mrp_params.hpp"

namespace mppnet::machines::metro::mrp {
namespace {

// Bits needed to write 0..n-1 (at least 1).
int bits_for(int n) {
  int b = 1;
  while ((1LL << b) < n) ++b;
  return b;
}

// The duplicate window is one 64-bit word per (destination, source) pair.
constexpr int kWindow = 64;

}  // namespace

std::vector<core::Problem> check_endpoints(const EndpointParams& p, const WordFormat& format, int nodes) {
  std::vector<core::Problem> problems;
  const int id_words = (bits_for(nodes) + format.width - 1) / format.width;
  const int least = id_words + 1 + 2;
  if (p.message_words < least)
    problems.push_back({"metro.mrp.message_words",
                        fmt::format("{} words cannot hold the source id ({} word(s) for {} nodes), the "
                                    "sequence number and the 2 check words: at least {} needed",
                                    p.message_words, id_words, nodes, least)});
  // A sequence word is read modulo 2^w relative to the next one expected; the messages of one pair in
  // flight must lie within half that range and within the duplicate window.
  const long long limit = std::min<long long>(kWindow - 1, (1LL << (format.width - 1)) - 1);
  if (p.outstanding < 1 || p.outstanding > limit)
    problems.push_back(
        {"metro.mrp.outstanding",
         fmt::format("{} outstanding messages: the {}-bit sequence word tells apart at most {} in flight",
                     p.outstanding, format.width, limit)});
  if (p.max_attempts < 0)
    problems.push_back({"metro.mrp.max_attempts", fmt::format("{} attempts: must be >= 0", p.max_attempts)});
  if (p.queue_capacity < 1)
    problems.push_back(
        {"metro.mrp.queue_capacity", fmt::format("{} queue slots: must be >= 1", p.queue_capacity)});
  return problems;
}

MrpEndpoints::MrpEndpoints(MrpNetwork& net, int radix, const EndpointParams& p, std::uint64_t seed)
    : net_(net),
      format_(net.format()),
      p_(p),
      radix_(radix),
      nodes_(net.nodes()),
      ni_(net.node_inputs()),
      no_(net.node_outputs()),
      stages_(net.stages()) {
  id_words_ = (bits_for(nodes_) + format_.width - 1) / format_.width;
  ack_ = 0xaaaaaaaaU & format_.all_ones();
  // No fault-free return stream takes longer than the round trip of the slowest routers plus the reply;
  // past that the connection is taken as lost (note 004b §6 item 17).
  timeout_ = 2 * static_cast<std::int64_t>(stages_ + 1) * (kMaxDps + 1) + 16;
  const std::size_t n = static_cast<std::size_t>(nodes_), k = static_cast<std::size_t>(p.outstanding);
  for (NodeId x = 0; x < nodes_; ++x)
    rng_.emplace_back(seed, static_cast<std::uint64_t>(x), static_cast<core::Stream>(kInputChoice));
  queue_head_.assign(n, 0);
  queued_.assign(n, 0);
  slots_used_.assign(n, 0);
  ready_head_.assign(n, 0);
  ready_count_.assign(n, 0);
  queue_dest_.assign(n * static_cast<std::size_t>(p.queue_capacity), 0);
  queue_created_.assign(queue_dest_.size(), 0);
  ready_.assign(n * k, 0);
  corrupt_in_.assign(n, 0);
  corrupt_reply_.assign(n, 0);
  slot_dest_.assign(n * k, 0);
  slot_seq_.assign(n * k, 0);
  slot_created_.assign(n * k, 0);
  slot_attempts_.assign(n * k, 0);
  slot_used_.assign(n * k, 0);
  next_seq_.assign(n * n, 0);
  expected_.assign(n * n, 0);
  window_.assign(n * n, 0);
  const std::size_t inputs = n * static_cast<std::size_t>(ni_), outputs = n * static_cast<std::size_t>(no_);
  in_.assign(inputs, Input{});
  out_.assign(outputs, Output{});
  in_state_.assign(inputs, In::Free);
  out_state_.assign(outputs, Out::Idle);
}

bool MrpEndpoints::send(NodeId x, NodeId y) {
  const int cap = p_.queue_capacity;
  if (queued_[x] == cap) return false;
  const std::size_t at = static_cast<std::size_t>(x) * cap + (queue_head_[x] + queued_[x]) % cap;
  queue_dest_[at] = y;
  queue_created_[at] = net_.cycle();
  ++queued_[x];
  ++stats_.created;
  ++busy_;
  return true;
}

std::uint32_t MrpEndpoints::fold(std::uint32_t v) const {
  std::uint32_t f = 0;
  for (; v != 0; v = format_.width >= 32 ? 0 : v >> format_.width) f ^= v & format_.all_ones();
  return f;
}

std::uint32_t MrpEndpoints::word_of(NodeId x, int slot, int position) const {
  const std::uint32_t seq = slot_seq_[slot];
  if (position <= id_words_)
    return (static_cast<std::uint32_t>(x) >> (format_.width * (position - 1))) & format_.all_ones();
  if (position == id_words_ + 1) return seq & format_.all_ones();
  const std::uint64_t h =
      core::splitmix64((static_cast<std::uint64_t>(x) << 40) ^ (static_cast<std::uint64_t>(seq) << 12) ^
                       static_cast<std::uint64_t>(position));
  return static_cast<std::uint32_t>(h) & format_.all_ones();
}

// Queued messages become outstanding while the node holds fewer than `outstanding`; each gets its
// pair's next sequence number now, so the numbers of one pair in flight are consecutive.
void MrpEndpoints::refill(NodeId x) {
  const int k = p_.outstanding, cap = p_.queue_capacity;
  while (queued_[x] > 0 && slots_used_[x] < k) {
    int s = x * k;
    while (slot_used_[s]) ++s;
    const std::size_t at = static_cast<std::size_t>(x) * cap + queue_head_[x];
    slot_used_[s] = 1;
    slot_dest_[s] = queue_dest_[at];
    slot_created_[s] = queue_created_[at];
    slot_attempts_[s] = 0;
    slot_seq_[s] = next_seq_[static_cast<std::size_t>(x) * nodes_ + slot_dest_[s]]++;
    queue_head_[x] = (queue_head_[x] + 1) % cap;
    --queued_[x];
    ++slots_used_[x];
    ready_[x * k + (ready_head_[x] + ready_count_[x]) % k] = s;
    ++ready_count_[x];
  }
}

void MrpEndpoints::tick() {
  const std::int64_t now = net_.cycle();
  const int k = p_.outstanding;
  // The tests in these loops repeat the first ones of tick_input(), refill() and tick_output(): most
  // inputs and outputs have nothing to do in a cycle, and a call each would cost more than the work.
  for (NodeId x = 0; x < nodes_; ++x) {
    for (int q = 0; q < ni_; ++q)
      if (in_state_[x * ni_ + q] != In::Free) tick_input(x, q);
    if (queued_[x] > 0 && slots_used_[x] < k) refill(x);
    // Each ready message takes one of the node's free inputs at random (§4.7.1, L1465).
    while (ready_count_[x] > 0) {
      int free_inputs[kMaxRouterPorts];
      int nf = 0;
      for (int q = 0; q < ni_; ++q)
        if (in_state_[x * ni_ + q] == In::Free && in_[x * ni_ + q].free_from <= now) free_inputs[nf++] = q;
      if (nf == 0) break;
      const int q = nf == 1 ? free_inputs[0] : free_inputs[rng_[x].below(static_cast<std::uint32_t>(nf))];
      const int slot = ready_[x * k + ready_head_[x]];
      ready_head_[x] = (ready_head_[x] + 1) % k;
      --ready_count_[x];
      start(x, q, slot);
    }
  }
  for (NodeId y = 0; y < nodes_; ++y)
    for (int o = 0; o < no_; ++o)
      if (out_state_[y * no_ + o] != Out::Idle || net_.down_arriving(net_.sink_link(y, o)).control)
        tick_output(y, o);
}

void MrpEndpoints::start(NodeId x, int q, int slot) {
  const int i = x * ni_ + q;
  const Word route = route_to(format_, radix_, stages_, slot_dest_[slot]);
  net_.put_down(net_.source_link(x, q), route);
  in_state_[i] = In::Send;
  in_[i].slot = slot;
  in_[i].position = 1;
  in_[i].pairs = in_[i].reply_count = in_[i].blocked = in_[i].mismatches = in_[i].first_mismatch = 0;
  in_[i].copies = 0;
  in_[i].expect_checksum = 0;
  // The message's check words are seeded with the destination and leave the ROUTE out (L1467-1469);
  // a router's CHECKSUM covers the ROUTE (L1437), so the source keeps that LRC apart.
  in_[i].lrc = in_[i].sum = fold(static_cast<std::uint32_t>(slot_dest_[slot]));
  in_[i].router_lrc = route.data;
  in_[i].start = net_.cycle();
  ++slot_attempts_[slot];
  ++stats_.attempts;
}

void MrpEndpoints::tick_input(NodeId x, int q) {
  const int i = x * ni_ + q;
  if (in_state_[i] == In::Free) return;
  const LinkId link = net_.source_link(x, q);
  const std::int64_t now = net_.cycle();
  // Back-drop: the path collapsed ahead of the source (§4.9.2); it aborts with a DROP.
  if (net_.backdrop_arriving(link)) return finish(i, Outcome::BlockedFast, true);
  const int L = p_.message_words;
  if (in_state_[i] == In::Send) {
    const int pos = in_[i].position;
    if (pos > L) {
      net_.put_down(link, format_.turn());
      in_[i].turn = now;
      in_state_[i] = In::Await;
      return;
    }
    std::uint32_t bits;
    if (pos <= L - 2) {
      bits = word_of(x, in_[i].slot, pos);
      in_[i].lrc = mix(in_[i].lrc, bits);
      in_[i].sum = (in_[i].sum + bits) & format_.all_ones();
    } else {
      bits = pos == L - 1 ? in_[i].lrc : in_[i].sum;
    }
    in_[i].router_lrc ^= bits;
    net_.put_down(link, format_.payload(bits, Tag::Data, pos));
    ++in_[i].position;
    return;
  }
  // Await: the cycle after the TURN the link is still turning (R1's STATUS arrives 2 cycles after the
  // TURN, note 004b §2.10); from then on the routers fill every cycle, so a zero word is a DROP.
  if (now - in_[i].turn > timeout_) return finish(i, Outcome::Protocol, true);
  if (now == in_[i].turn + 1) return;
  const Word w = net_.up_arriving(link);
  switch (format_.classify(w)) {
    case Kind::H:
      return;
    case Kind::X:
    case Kind::T:  // the destination never turns a connection back: a protocol violation
      return finish(i, Outcome::Protocol, true);
    case Kind::Z: {
      if (in_[i].expect_checksum) return finish(i, Outcome::Protocol, false);
      if (in_[i].blocked > 0) return finish(i, Outcome::Blocked, false);
      if (in_[i].pairs < stages_) {
        // Closed before N pairs without a blocked STATUS: the path collapsed past the last router that
        // answered, so the block was at the next stage.
        in_[i].blocked = in_[i].pairs + 1;
        return finish(i, Outcome::Blocked, false);
      }
      if (in_[i].reply_count != 2) return finish(i, Outcome::Protocol, false);
      const std::uint32_t check = ack_ ^ fold(static_cast<std::uint32_t>(x));
      const bool good = in_[i].reply[0] == ack_ && in_[i].reply[1] == check;
      return finish(i, good ? Outcome::Delivered : Outcome::Corrupted, false);
    }
    case Kind::D:
      break;
  }
  if (in_[i].expect_checksum) {
    if (w.data != (in_[i].router_lrc & format_.all_ones())) {
      if (in_[i].mismatches++ == 0) in_[i].first_mismatch = in_[i].pairs + 1;
    }
    ++in_[i].pairs;
    in_[i].expect_checksum = 0;
    return;
  }
  if (in_[i].blocked > 0) return finish(i, Outcome::Protocol, true);  // only DROP may follow
  if (in_[i].pairs < stages_) {
    // STATUS of router k = pairs + 1, in its own bit order: undo the k - 1 rotations on the way back.
    const int k = in_[i].pairs + 1;
    const Word own = {format_.rotate_right(w.data, (k - 1) * format_.field_bits), 1, Tag::Status, 0};
    if (format_.status_blocked(own))
      in_[i].blocked = k;
    else if (k <= 16)
      in_[i].copies |= static_cast<std::uint64_t>(own.data & ((1u << format_.field_bits) - 1) & 0xF)
                       << (4 * (k - 1));
    in_[i].expect_checksum = 1;
    return;
  }
  if (in_[i].reply_count >= 2) return finish(i, Outcome::Protocol, true);
  in_[i].reply[in_[i].reply_count++] = w.data;
}

void MrpEndpoints::finish(int i, Outcome outcome, bool abort) {
  const NodeId x = i / ni_;
  const std::int64_t now = net_.cycle();
  if (abort) net_.put_down(net_.source_link(x, i % ni_), format_.drop());
  // A DROP the source sends occupies this cycle; the next connection's ROUTE may follow it at once.
  in_[i].free_from = abort ? now + 1 : now;
  in_state_[i] = In::Free;
  const int slot = in_[i].slot;
  stats_.checksum_mismatches += in_[i].mismatches;
  if (attempt_log_)
    attempt_log_->push_back({x, slot_dest_[slot], slot_seq_[slot], i % ni_, in_[i].start, now, outcome,
                             in_[i].blocked, in_[i].pairs, in_[i].mismatches, in_[i].first_mismatch,
                             in_[i].copies});
  switch (outcome) {
    case Outcome::Delivered:
      break;
    case Outcome::Blocked:
      ++stats_.blocked;
      break;
    case Outcome::BlockedFast:
      ++stats_.blocked_fast;
      break;
    case Outcome::Corrupted:
      ++stats_.corrupted;
      break;
    case Outcome::Protocol:
      ++stats_.protocol;
      break;
  }
  const int k = p_.outstanding;
  const bool failed =
      outcome != Outcome::Delivered && p_.max_attempts > 0 && slot_attempts_[slot] >= p_.max_attempts;
  if (outcome != Outcome::Delivered && !failed) {
    // Immediate retry (note 004b §6 item 18): the message goes to the head of the ready queue and takes
    // a freshly drawn input, possibly in this same cycle.
    ready_head_[x] = (ready_head_[x] + k - 1) % k;
    ready_[x * k + ready_head_[x]] = slot;
    ++ready_count_[x];
    return;
  }
  if (failed) {
    ++stats_.failed;
  } else {
    ++stats_.delivered;
    const std::int64_t latency = now - slot_created_[slot];
    stats_.latency_sum += latency;
    stats_.latency_max = std::max(stats_.latency_max, latency);
    stats_.latency_min = stats_.latency_min < 0 ? latency : std::min(stats_.latency_min, latency);
  }
  if (completion_log_)
    completion_log_->push_back({x, slot_dest_[slot], slot_created_[slot], now, slot_attempts_[slot], failed});
  slot_used_[slot] = 0;
  --slots_used_[x];
  --busy_;
}

// Sequence numbers of one pair in flight lie within `outstanding` of the next one expected (all below
// it were acknowledged), so the w-bit word is read relative to it.
bool MrpEndpoints::accept(NodeId y, NodeId x, std::uint32_t seq_word) {
  const std::size_t pair = static_cast<std::size_t>(y) * nodes_ + x;
  const std::uint32_t diff = (seq_word - expected_[pair]) & format_.all_ones();
  const std::uint32_t half = (format_.all_ones() >> 1) + 1;
  if (diff >= half) return false;  // behind the window: accepted long ago
  const std::uint64_t bit = std::uint64_t{1} << diff;
  if (window_[pair] & bit) return false;
  window_[pair] |= bit;
  while (window_[pair] & 1) {
    window_[pair] >>= 1;
    ++expected_[pair];
  }
  return true;
}

void MrpEndpoints::tick_output(NodeId y, int o) {
  const int j = y * no_ + o;
  const LinkId link = net_.sink_link(y, o);
  const std::int64_t now = net_.cycle();
  const int L = p_.message_words;
  switch (out_state_[j]) {
    case Out::Idle: {
      // The ROUTE word arrives as the source wrote it (the last wire completes the rotation); it is not
      // part of the message check (L1469).
      if (format_.classify(net_.down_arriving(link)) != Kind::D) return;
      out_state_[j] = Out::Receive;
      out_[j].since = now;
      out_[j].count = 0;
      out_[j].source = 0;
      out_[j].seq = 0;
      out_[j].lrc = out_[j].sum = fold(static_cast<std::uint32_t>(y));
      out_[j].flip = corrupt_in_[y] > 0 ? 1 : 0;
      if (out_[j].flip) --corrupt_in_[y];
      return;
    }
    case Out::Receive: {
      const Word w = net_.down_arriving(link);
      const Kind kind = format_.classify(w);
      if (kind == Kind::H || kind == Kind::X) return;
      if (kind == Kind::Z) {  // closed by the source or collapsed: nothing is accepted
        out_state_[j] = Out::Idle;
        return;
      }
      if (kind == Kind::D) {
        const int pos = ++out_[j].count;
        std::uint32_t bits = w.data;
        if (out_[j].flip && pos == L - 2) bits ^= 1;
        if (pos <= L - 2) {
          out_[j].lrc = mix(out_[j].lrc, bits);
          out_[j].sum = (out_[j].sum + bits) & format_.all_ones();
          if (pos <= id_words_) out_[j].source |= static_cast<NodeId>(bits << (format_.width * (pos - 1)));
          if (pos == id_words_ + 1) out_[j].seq = bits;
        } else if (pos <= L) {
          out_[j].check[pos - (L - 1)] = bits;
        }
        return;
      }
      // TURN: answer ACK or NACK in this same cycle.
      const NodeId x = out_[j].source;
      const bool ok = out_[j].count == L && out_[j].check[0] == out_[j].lrc &&
                      out_[j].check[1] == out_[j].sum && x >= 0 && x < nodes_;
      out_[j].ok = ok ? 1 : 0;
      if (ok) {
        const bool fresh = accept(y, x, out_[j].seq);
        if (!fresh) ++stats_.duplicates;
        if (fresh || !p_.suppress_duplicates) ++stats_.accepted;
      }
      const std::uint32_t code = ok ? ack_ : nack();
      out_[j].reply[0] = code;
      out_[j].reply[1] = code ^ fold(static_cast<std::uint32_t>(x));
      if (ok && corrupt_reply_[y] > 0) {
        --corrupt_reply_[y];
        out_[j].reply[0] ^= 1;
      }
      net_.put_up(link, format_.payload(out_[j].reply[0], Tag::Reply, 1));
      out_[j].reply_position = 1;
      out_state_[j] = Out::Reply;
      return;
    }
    case Out::Reply: {
      const int pos = out_[j].reply_position++;
      if (pos < 2) {
        net_.put_up(link, format_.payload(out_[j].reply[pos], Tag::Reply, pos + 1));
        return;
      }
      net_.put_up(link, format_.drop());
      out_state_[j] = Out::Idle;
      if (out_[j].ok) stats_.busy_output_cycles += now - out_[j].since + 1;
      return;
    }
  }
}

}  // namespace mppnet::machines::metro::mrp
