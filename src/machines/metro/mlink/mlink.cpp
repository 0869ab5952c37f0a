// machines/metro/mlink/mlink.cpp: MLINK's sources (launch, trials, retry) and destinations (READ, WRITE,
// RESET, NOOP and ROP handled at the network output).
#include "machines/metro/mlink/mlink.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "machines/metro/mrp/driver.hpp"

namespace mppnet::machines::metro::mlink {

using mrp::Kind;
using mrp::Tag;
using mrp::Word;

std::vector<core::Problem> check(const MlinkParams& p, const mrp::WordFormat& format, int nodes) {
  std::vector<core::Problem> problems;
  if (format.width != 8)
    problems.push_back({"metro.mrp.width", fmt::format("MLINK's network port is byte-wide (§11.2): w = {} "
                                                       "is not 8",
                                                       format.width)});
  if (nodes > 256)
    problems.push_back({"metro.stages", fmt::format("{} nodes: MLINK on byte-wide routers without SWALLOW "
                                                    "reaches at most 256",
                                                    nodes)});
  if (p.max_trials < 0)
    problems.push_back({"metro.mlink.max_trials", fmt::format("{} trials: must be >= 0", p.max_trials)});
  if (p.read_access_cycles < 0 || p.read_access_cycles > 1000)
    problems.push_back(
        {"metro.mlink.read_access_cycles", fmt::format("{} cycles: must be 0..1000", p.read_access_cycles)});
  if (p.queue_capacity < 1)
    problems.push_back(
        {"metro.mlink.queue_capacity", fmt::format("{} operations: must be >= 1", p.queue_capacity)});
  return problems;
}

Mlink::Mlink(mrp::MrpNetwork& net, int radix, const MlinkParams& p, MlinkHost& host, std::uint64_t seed)
    : net_(net),
      format_(net.format()),
      p_(p),
      host_(host),
      radix_(radix),
      nodes_(net.nodes()),
      ni_(net.node_inputs()),
      no_(net.node_outputs()),
      stages_(net.stages()) {
  // No fault-free return stream waits longer than the slowest routers' round trip, a READ's access and
  // its longest reply (note 004b §6 item 17): past that the connection is taken as lost.
  timeout_ = 2 * static_cast<std::int64_t>(stages_ + 1) * (mrp::kMaxDps + 1) + 16 + p.read_access_cycles +
             reply_words(Op::Read, kMaxLen, p.read_access_cycles);
  const auto n = static_cast<std::size_t>(nodes_);
  for (NodeId x = 0; x < nodes_; ++x)
    rng_.emplace_back(seed, static_cast<std::uint64_t>(x), static_cast<core::Stream>(kInputChoice));
  src_.assign(n, Source{});
  const std::size_t slots = n * 2 * static_cast<std::size_t>(p.queue_capacity);
  queue_.assign(slots, Queued{});
  queue_data_.assign(slots * kMaxDataBytes, 0);
  frame_.assign(n * kMaxFrameBytes, 0);
  cur_data_.assign(n * kReadSlot, 0);
  out_.clear();
  for (NodeId y = 0; y < nodes_; ++y)
    for (int o = 0; o < no_; ++o) {
      Output out;
      out.reader = FrameReader(y);
      out_.push_back(out);
    }
  rop_buffer_.assign(out_.size() * kMaxDataBytes, 0);
}

bool Mlink::launch(NodeId x, const Operation& op, std::span<const std::uint8_t> data) {
  Frame f{op.op, op.len, op.addr, {}};
  if (has_data(op.op)) f.data.assign(data.begin(), data.end());
  check(f);  // throws FrameError naming the field
  if (op.dest < 0 || op.dest >= nodes_)
    throw FrameError(
        fmt::format("MLINK {}: destination {} is not a node (0..{})", op_name(op.op), op.dest, nodes_ - 1));
  if (op.priority < 0 || op.priority > 1)
    throw FrameError(fmt::format("MLINK {}: priority {} is not 0 or 1", op_name(op.op), op.priority));
  const int cls = op.priority;
  Source& s = src_[x];
  if (s.count[cls] == p_.queue_capacity) return false;
  const int k = (s.head[cls] + s.count[cls]) % p_.queue_capacity;
  slot(x, cls, k) = {op, net_.cycle(), 0};
  std::copy(f.data.begin(), f.data.end(), data_of(x, cls, k));
  ++s.count[cls];
  ++busy_;
  ++stats_.launched;
  return true;
}

int Mlink::room(NodeId x, int priority) const {
  return p_.queue_capacity - src_[x].count[priority];
}

void Mlink::tick() {
  for (NodeId x = 0; x < nodes_; ++x) {
    Source& s = src_[x];
    if (s.state != Send::Idle) tick_source(x);
    if (s.state == Send::Idle && (s.current || s.count[0] + s.count[1] > 0)) start_trial(x);
  }
  for (NodeId y = 0; y < nodes_; ++y)
    for (int o = 0; o < no_; ++o)
      if (out_[y * no_ + o].state != Answer::Idle || net_.down_arriving(net_.sink_link(y, o)).control)
        tick_output(y, o);
}

// Takes the operation to try (the one just failed, unless a higher class waits), then one of the node's
// free inputs at random (§11.1, L3007), and puts the ROUTE on it.
void Mlink::start_trial(NodeId x) {
  Source& s = src_[x];
  const std::int64_t now = net_.cycle();
  int free_inputs[mrp::kMaxRouterPorts];
  int nf = 0;
  for (int q = 0; q < ni_; ++q)
    if (s.free_from[q] <= now) free_inputs[nf++] = q;
  if (nf == 0) return;
  const int top = s.count[1] > 0 ? 1 : 0;
  if (s.current && s.cur.op.priority < top) {  // a failed request yields to a waiting reply
    const int cls = s.cur.op.priority;
    s.head[cls] = (s.head[cls] + p_.queue_capacity - 1) % p_.queue_capacity;
    slot(x, cls, s.head[cls]) = s.cur;
    std::memcpy(data_of(x, cls, s.head[cls]), cur_data(x), kMaxDataBytes);
    ++s.count[cls];
    s.current = false;
  }
  if (!s.current) {
    s.cur = slot(x, top, s.head[top]);
    std::memcpy(cur_data(x), data_of(x, top, s.head[top]), kMaxDataBytes);
    s.head[top] = (s.head[top] + 1) % p_.queue_capacity;
    --s.count[top];
    s.current = true;
    const Operation& op = s.cur.op;
    Frame f{op.op, op.len, op.addr, {}};
    if (has_data(op.op)) {
      const std::uint8_t* d = cur_data(x);
      f.data.assign(d, d + kUnitBytes * op.len);
    }
    s.frame_bytes = encode(
        f, op.dest,
        {&frame_[static_cast<std::size_t>(x) * kMaxFrameBytes], static_cast<std::size_t>(kMaxFrameBytes)});
  }
  s.input = nf == 1 ? free_inputs[0] : free_inputs[rng_[x].below(static_cast<std::uint32_t>(nf))];
  net_.put_down(net_.source_link(x, s.input), mrp::route_to(format_, radix_, stages_, s.cur.op.dest));
  s.state = Send::Frame;
  s.position = 0;
  s.pairs = s.reply_count = s.blocked = 0;
  s.expect_checksum = false;
  ++s.cur.trials;
  ++stats_.trials;
}

void Mlink::tick_source(NodeId x) {
  Source& s = src_[x];
  const LinkId link = net_.source_link(x, s.input);
  const std::int64_t now = net_.cycle();
  if (net_.backdrop_arriving(link)) {  // fast path reclamation collapsed the path (§4.9.2): abort
    ++stats_.back_dropped;
    return finish_trial(x, false, Status::Ok, true);
  }
  if (s.state == Send::Frame) {
    if (s.position == s.frame_bytes) {
      net_.put_down(link, format_.turn());
      s.turn = now;
      s.state = Send::Await;
      return;
    }
    Word w = format_.payload(frame_[static_cast<std::size_t>(x) * kMaxFrameBytes + s.position], Tag::Data,
                             s.position + 1);
    if (s.position == 0) w.index = static_cast<std::uint8_t>(x);  // the opcode word names its source
    net_.put_down(link, w);
    ++s.position;
    return;
  }
  if (now - s.turn > timeout_) {
    ++stats_.protocol;
    return finish_trial(x, false, Status::Ok, true);
  }
  if (now == s.turn + 1) return;  // the link is still turning (note 004b §2.10)
  read_return(x, net_.up_arriving(link));
}

// The return stream (§4.7.2): N STATUS/CHECKSUM pairs (s pairs and DROP when blocked at stage s), then
// MLINK's reply. DATA-IDLE words (routers' fill, a READ's wait) are skipped.
void Mlink::read_return(NodeId x, Word w) {
  Source& s = src_[x];
  const Operation& op = s.cur.op;
  const bool reading =
      op.op == Op::Read && s.reply_count >= kStatusBytes && static_cast<Status>(s.reply[0]) == Status::Ok;
  switch (format_.classify(w)) {
    case Kind::H:
      return;
    case Kind::X:
    case Kind::T:
      ++stats_.protocol;
      return finish_trial(x, false, Status::Ok, true);
    case Kind::Z: {
      if (s.expect_checksum) {
        ++stats_.protocol;
        return finish_trial(x, false, Status::Ok, false);
      }
      if (s.blocked > 0 || s.pairs < stages_) {
        ++stats_.blocked;
        return finish_trial(x, false, Status::Ok, false);
      }
      const auto status = static_cast<Status>(s.reply[0]);
      const bool from_dest = s.reply_count >= kStatusBytes && s.reply[1] == (op.dest & 0xff);
      bool ok;
      if (reading) {
        const int want = kStatusBytes + kUnitBytes * op.len + kCheckBytes;
        ok = s.reply_count == want && from_dest;
        if (ok) {  // the last two data words were the check: compare with the bytes before them
          const std::uint8_t* d = cur_data(x);
          Check c = Check::seeded(x);
          for (int k = 0; k < kUnitBytes * op.len; ++k) c.add(d[k]);
          ok = c.x == d[kUnitBytes * op.len] && c.s == d[kUnitBytes * op.len + 1];
        }
      } else {
        ok = s.reply_count == kStatusBytes + 1 && from_dest && status == Status::Ok && s.reply[2] == kAck;
      }
      if (!ok) ++stats_.nacked;
      return finish_trial(x, ok, s.reply_count >= 1 ? status : Status::BadFrame, false);
    }
    case Kind::D:
      break;
  }
  if (s.expect_checksum) {  // a router's CHECKSUM: a diagnostic MLINK may record (§11.1); not needed here
    ++s.pairs;
    s.expect_checksum = false;
    return;
  }
  if (s.blocked > 0) {  // only DROP may follow a blocked router's pair
    ++stats_.protocol;
    return finish_trial(x, false, Status::Ok, true);
  }
  if (s.pairs < stages_) {
    // Router k's STATUS in its own bit order: undo the k - 1 rotations on the way back (§4.6).
    const int k = s.pairs + 1;
    const Word own = {format_.rotate_right(w.data, (k - 1) * format_.field_bits), 1, Tag::Status, 0};
    if (format_.status_blocked(own)) s.blocked = k;
    s.expect_checksum = true;
    return;
  }
  const auto b = static_cast<std::uint8_t>(w.data);
  if (reading) {
    const int k = s.reply_count - kStatusBytes;
    if (k >= kUnitBytes * op.len + kCheckBytes) {
      ++stats_.protocol;
      return finish_trial(x, false, Status::Ok, true);
    }
    cur_data(x)[k] = b;
    ++s.reply_count;
    return;
  }
  if (s.reply_count >= kStatusBytes + 1) {
    ++stats_.protocol;
    return finish_trial(x, false, Status::Ok, true);
  }
  s.reply[s.reply_count++] = b;
}

void Mlink::finish_trial(NodeId x, bool delivered, Status status, bool abort) {
  Source& s = src_[x];
  const std::int64_t now = net_.cycle();
  if (abort) net_.put_down(net_.source_link(x, s.input), format_.drop());
  // A DROP the source sends occupies this cycle; the next trial's ROUTE may follow on the other input.
  s.free_from[s.input] = abort ? now + 1 : now;
  s.state = Send::Idle;
  const Operation& op = s.cur.op;
  const bool failed = !delivered && p_.max_trials > 0 && s.cur.trials >= p_.max_trials;
  if (!delivered && !failed) return;  // tried again from tick(): at once unless a reply waits
  if (delivered && op.op == Op::Read) {
    const std::span<std::uint8_t> mem = host_.memory(x);
    const auto bytes = static_cast<std::size_t>(kUnitBytes * op.len);
    if (op.local + bytes > mem.size())
      throw FrameError(fmt::format("MLINK READ into node {}'s memory at {:#x}: {} bytes beyond its {}", x,
                                   op.local, bytes, mem.size()));
    std::memcpy(mem.data() + op.local, cur_data(x), bytes);
    stats_.bytes_read += static_cast<std::int64_t>(bytes);
  }
  s.current = false;
  --busy_;
  ++(delivered ? stats_.delivered : stats_.failed);
  const OperationResult r{delivered ? Status::Ok : status, delivered, s.cur.trials, s.cur.launched, now};
  host_.done(x, op.tag, r);
}

void Mlink::tick_output(NodeId y, int o) {
  Output& out = out_[y * no_ + o];
  const LinkId link = net_.sink_link(y, o);
  if (out.state == Answer::Reply) return reply_word(y, o);
  const Word w = net_.down_arriving(link);
  const Kind kind = format_.classify(w);
  if (out.state == Answer::Idle) {
    // The ROUTE word: stripped, as a forward port strips it (note 004c §9 item 27).
    if (kind != Kind::D) return;
    out.state = Answer::Receive;
    out.reader.reset();
    out.position = 0;
    ++answering_;
    return;
  }
  switch (kind) {
    case Kind::H:
    case Kind::X:
      return;
    case Kind::Z:  // closed by the source or collapsed: nothing more happens
      out.state = Answer::Idle;
      --answering_;
      return;
    case Kind::T:
      return answer(y, o);
    case Kind::D:
      break;
  }
  if (out.position++ == 0) out.source = w.index;
  const auto b = static_cast<std::uint8_t>(w.data);
  const FrameReader& r = out.reader;
  if (out.reader.feed(b) != FrameReader::Event::Data) return;
  std::uint8_t* buffer = &rop_buffer_[static_cast<std::size_t>(y * no_ + o) * kMaxDataBytes];
  const int k = r.data_index();
  buffer[k] = b;
  // A WRITE whose header matched streams into memory one double-word per bus slot (§4.7.4).
  const std::span<std::uint8_t> mem = host_.memory(y);
  if (r.op() == Op::Write && (k + 1) % kUnitBytes == 0 &&
      r.addr() + static_cast<std::size_t>(kUnitBytes * r.len()) <= mem.size()) {
    std::memcpy(mem.data() + r.addr() + (k + 1 - kUnitBytes), buffer + (k + 1 - kUnitBytes), kUnitBytes);
    stats_.bytes_written += kUnitBytes;
  }
}

// The TURN: act on the frame and put the first reply word on the link in this same cycle.
void Mlink::answer(NodeId y, int o) {
  Output& out = out_[y * no_ + o];
  const FrameReader& r = out.reader;
  const std::int64_t now = net_.cycle();
  Status st = r.status();
  const std::size_t bytes = static_cast<std::size_t>(kUnitBytes * r.len());
  if (st == Status::Ok && (r.op() == Op::Read || r.op() == Op::Write) &&
      r.addr() + bytes > host_.memory(y).size())
    st = Status::BadAddress;
  if (st == Status::Ok) {
    const Source& from = src_[out.source];
    switch (r.op()) {
      case Op::Rop: {
        const std::uint8_t* buffer = &rop_buffer_[static_cast<std::size_t>(y * no_ + o) * kMaxDataBytes];
        if (host_.rop(y, out.source, r.addr(), {buffer, bytes}, from.cur.op.tag, now))
          ++stats_.rops;
        else
          st = Status::QueueFull;
        break;
      }
      case Op::Reset:
        host_.reset(y, now);
        ++stats_.resets;
        break;
      case Op::Read:
      case Op::Write:
      case Op::Noop:
        break;
    }
  }
  out.status = st;
  out.turn = now;
  out.check = Check::seeded(out.source);
  out.idle_words = std::max(0, p_.read_access_cycles - kStatusBytes);
  out.state = Answer::Reply;
  out.position = 0;
  reply_word(y, o);
}

// Word `position` of the reply: MLINK_STATUS^2, then ACK/NACK, or a READ's DATA-IDLE, data and check;
// then DROP.
void Mlink::reply_word(NodeId y, int o) {
  Output& out = out_[y * no_ + o];
  const LinkId link = net_.sink_link(y, o);
  const int k = out.position++;
  auto data = [&](std::uint32_t b) { net_.put_up(link, format_.payload(b, Tag::Reply, k + 1)); };
  if (k == 0) return data(static_cast<std::uint32_t>(out.status));
  if (k == 1) return data(static_cast<std::uint32_t>(y & 0xff));
  const FrameReader& r = out.reader;
  if (r.op() == Op::Read && out.status == Status::Ok) {
    const int n = kUnitBytes * r.len();
    const int first = kStatusBytes + out.idle_words;
    if (k < first) return net_.put_up(link, format_.data_idle());
    const int d = k - first;
    if (d < n) {
      const std::uint8_t b = host_.memory(y)[r.addr() + static_cast<std::size_t>(d)];
      out.check.add(b);
      return data(b);
    }
    if (d == n) return data(out.check.x);
    if (d == n + 1) return data(out.check.s);
  } else if (k == kStatusBytes) {
    return data(out.status == Status::Ok ? kAck : kNack);
  }
  net_.put_up(link, format_.drop());
  out.state = Answer::Idle;
  --answering_;
}

std::string Mlink::describe_busy() const {
  std::string out;
  for (NodeId x = 0; x < nodes_; ++x) {
    const Source& s = src_[x];
    if (!s.current && s.count[0] + s.count[1] == 0) continue;
    out += fmt::format("node {}: {} queued", x, s.count[0] + s.count[1]);
    if (s.current)
      out +=
          fmt::format(", {} to node {} after {} trial(s)", op_name(s.cur.op.op), s.cur.op.dest, s.cur.trials);
    out += "\n";
  }
  return out;
}

}  // namespace mppnet::machines::metro::mlink
