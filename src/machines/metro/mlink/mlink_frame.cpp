// machines/metro/mlink/mlink_frame.cpp: MLINK frames written and read byte by byte (Fig 11.1).
#include "machines/metro/mlink/mlink_frame.hpp"

#include <fmt/format.h>

namespace mppnet::machines::metro::mlink {

const char* op_name(Op op) {
  switch (op) {
    case Op::Read:
      return "READ";
    case Op::Write:
      return "WRITE";
    case Op::Reset:
      return "RESET";
    case Op::Noop:
      return "NOOP";
    case Op::Rop:
      return "ROP";
  }
  return "?";
}

const char* status_name(Status s) {
  switch (s) {
    case Status::Ok:
      return "ok";
    case Status::BadHeader:
      return "bad header check";
    case Status::BadPayload:
      return "bad payload check";
    case Status::BadOpcode:
      return "unknown opcode";
    case Status::BadFrame:
      return "bad frame length";
    case Status::BadAddress:
      return "address beyond memory";
    case Status::QueueFull:
      return "incoming queue full";
  }
  return "?";
}

int frame_bytes(Op op, int len) {
  if (!has_address(op)) return 1 + kCheckBytes;
  const int header = 1 + 1 + kAddressBytes + kCheckBytes;
  return has_data(op) ? header + kUnitBytes * len + kCheckBytes : header;
}

int reply_words(Op op, int len, int idle) {
  if (op != Op::Read) return kStatusBytes + 1 + 1;
  return kStatusBytes + idle + kUnitBytes * len + kCheckBytes + 1;
}

void check(const Frame& f) {
  const int op = static_cast<int>(f.op);
  if (op < static_cast<int>(Op::Read) || op > static_cast<int>(Op::Rop))
    throw FrameError(
        fmt::format("MLINK opcode {}: not READ (1), WRITE (2), RESET (3), NOOP (4) or ROP (5)", op));
  if (!has_address(f.op)) {
    if (f.len != 0 || !f.data.empty() || f.addr != 0)
      throw FrameError(fmt::format("MLINK {}: carries no length, address or data", op_name(f.op)));
    return;
  }
  const int least = f.op == Op::Rop ? 0 : 1;
  if (f.len < least || f.len > kMaxLen)
    throw FrameError(fmt::format("MLINK {} len = {}: must be {}..{} double-words (one byte)", op_name(f.op),
                                 f.len, least, kMaxLen));
  if (f.addr >= kAddressLimit)
    throw FrameError(
        fmt::format("MLINK {} address {:#x}: beyond the 24-bit ADDR field", op_name(f.op), f.addr));
  if (f.op != Op::Rop && f.addr % kUnitBytes != 0)
    throw FrameError(fmt::format("MLINK {} address {:#x}: not double-word aligned", op_name(f.op), f.addr));
  const std::size_t want = has_data(f.op) ? static_cast<std::size_t>(kUnitBytes * f.len) : 0;
  if (f.data.size() != want)
    throw FrameError(fmt::format("MLINK {} of len {}: {} data bytes, expected {} (8 per double-word)",
                                 op_name(f.op), f.len, f.data.size(), want));
}

int encode(const Frame& f, NodeId dest, std::span<std::uint8_t> out) {
  check(f);
  int n = 0;
  Check c = Check::seeded(dest);
  auto put = [&](std::uint8_t b) {
    c.add(b);
    out[static_cast<std::size_t>(n++)] = b;
  };
  auto put_check = [&] {
    out[static_cast<std::size_t>(n++)] = c.x;
    out[static_cast<std::size_t>(n++)] = c.s;
    c = Check::seeded(dest);
  };
  put(static_cast<std::uint8_t>(f.op));
  if (has_address(f.op)) {
    put(static_cast<std::uint8_t>(f.len));
    for (int k = kAddressBytes - 1; k >= 0; --k) put(static_cast<std::uint8_t>(f.addr >> (8 * k)));
  }
  put_check();
  if (has_data(f.op)) {
    for (const std::uint8_t b : f.data) put(b);
    put_check();
  }
  return n;
}

std::vector<std::uint8_t> encode(const Frame& f, NodeId dest) {
  std::vector<std::uint8_t> out(static_cast<std::size_t>(kMaxFrameBytes));
  out.resize(static_cast<std::size_t>(encode(f, dest, out)));
  return out;
}

FrameReader::Event FrameReader::feed(std::uint8_t b) {
  switch (phase_) {
    case Phase::Opcode:
      if (b < static_cast<std::uint8_t>(Op::Read) || b > static_cast<std::uint8_t>(Op::Rop)) {
        phase_ = Phase::Bad;
        bad_ = Status::BadOpcode;
        return Event::None;
      }
      op_ = static_cast<Op>(b);
      check_.add(b);
      phase_ = has_address(op_) ? Phase::Len : Phase::HeaderCheck;
      return Event::None;
    case Phase::Len:
      len_ = b;
      check_.add(b);
      phase_ = Phase::Address;
      count_ = 0;
      return Event::None;
    case Phase::Address:
      addr_ = (addr_ << 8) | b;
      check_.add(b);
      if (++count_ == kAddressBytes) {
        phase_ = Phase::HeaderCheck;
        count_ = 0;
      }
      return Event::None;
    case Phase::HeaderCheck:
      got_[count_++] = b;
      if (count_ < kCheckBytes) return Event::None;
      header_ok_ = got_[0] == check_.x && got_[1] == check_.s;
      check_ = Check::seeded(self_);
      count_ = 0;
      phase_ = !has_data(op_) ? Phase::Done : len_ == 0 ? Phase::PayloadCheck : Phase::Payload;
      return phase_ == Phase::Done ? Event::Complete : Event::HeaderChecked;
    case Phase::Payload:
      check_.add(b);
      data_index_ = count_;
      if (++count_ == kUnitBytes * len_) {
        phase_ = Phase::PayloadCheck;
        count_ = 0;
      }
      return header_ok_ ? Event::Data : Event::None;
    case Phase::PayloadCheck:
      got_[count_++] = b;
      if (count_ < kCheckBytes) return Event::None;
      payload_ok_ = got_[0] == check_.x && got_[1] == check_.s;
      phase_ = Phase::Done;
      return Event::Complete;
    case Phase::Done:  // a byte beyond what op and len call for
      phase_ = Phase::Bad;
      bad_ = Status::BadFrame;
      return Event::None;
    case Phase::Bad:
      return Event::None;
  }
  return Event::None;
}

Status FrameReader::status() const {
  if (phase_ == Phase::Bad) return bad_;
  if (phase_ != Phase::Done) return Status::BadFrame;  // the TURN came early
  if (!header_ok_) return Status::BadHeader;
  if (has_data(op_) && !payload_ok_) return Status::BadPayload;
  return Status::Ok;
}

Frame decode(std::span<const std::uint8_t> bytes, NodeId dest) {
  FrameReader reader(dest);
  Frame f;
  for (const std::uint8_t b : bytes)
    if (reader.feed(b) == FrameReader::Event::Data) f.data.push_back(b);
  const Status s = reader.status();
  if (s == Status::BadOpcode)
    throw FrameError(
        fmt::format("MLINK frame: opcode {} is not READ (1), WRITE (2), RESET (3), NOOP (4) or ROP (5)",
                    bytes.empty() ? 0 : bytes[0]));
  if (s == Status::BadFrame)
    throw FrameError(fmt::format("MLINK frame: {} bytes, but {} of len {} is {} bytes", bytes.size(),
                                 op_name(reader.op()), reader.len(), frame_bytes(reader.op(), reader.len())));
  if (s != Status::Ok)
    throw FrameError(fmt::format("MLINK {} frame: {}", op_name(reader.op()), status_name(s)));
  f.op = reader.op();
  f.len = reader.len();
  f.addr = reader.addr();
  return f;
}

}  // namespace mppnet::machines::metro::mlink
