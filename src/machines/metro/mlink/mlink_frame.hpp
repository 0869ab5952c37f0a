// machines/metro/mlink/mlink_frame.hpp: the byte framing of MLINK's primitive operations (DeHon 1993,
// §11.3, Fig 11.1, L3027-3067; note 004c §3.5).
//
// On a byte-wide METRO port one word is one byte. After the ROUTE word(s) a source sends
//   RESET, NOOP:  op · CKSUM^2
//   READ:         op · len · ADDR^3 · CKSUM^2
//   WRITE, ROP:   op · len · ADDR^3 · CKSUM^2 · DATA^(8·len) · CKSUM^2
// then TURN. `len` counts 8-byte double-words (the MBTA's memory moves double-words, §10.2); op and len
// have no superscript in the figure and are one byte each (note 004c §3.5). The destination MLINK answers
//   WRITE, RESET, NOOP, ROP, and a READ it refuses:  MLINK_STATUS^2 · (ACK | NACK) · DROP
//   READ:   MLINK_STATUS^2 · DATA-IDLE* · RDATA^(8·len) · CKSUM^2 · DROP
// The thesis fixes the byte counts, not the codes; mppnet's choices (docs/metro.md §10):
//   - opcodes READ 1, WRITE 2, RESET 3, NOOP 4, ROP 5; any other is refused;
//   - ADDR is a double-word-aligned byte address of 24 bits, most significant byte first (16 MB; note
//     004c §9 item 27);
//   - CKSUM is the pair MRP-ENDPOINT uses, seeded with the destination's node number (L1467-1469): a
//     rotating XOR (rotate left one bit, XOR the byte) and a sum modulo 256. The header check guards op,
//     len and ADDR, so that a WRITE can stream into memory while its data arrive (§4.7.4); the payload
//     check guards the data; the READ reply's check is seeded with the source's number;
//   - MLINK_STATUS is a status code (Status below) and the answering node's number modulo 256, so that a
//     source can tell a misdelivered reply; ACK and NACK are one data word each, 0xaa and 0x55.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace mppnet::machines::metro::mlink {

enum class Op : std::uint8_t { Read = 1, Write = 2, Reset = 3, Noop = 4, Rop = 5 };

// MLINK_STATUS's first byte: what the destination made of the frame.
enum class Status : std::uint8_t {
  Ok = 0,
  BadHeader = 1,   // the header check failed: nothing was written or queued
  BadPayload = 2,  // the payload check failed (a WRITE may have written: retry rewrites it)
  BadOpcode = 3,   // an opcode MLINK does not know
  BadFrame = 4,    // more or fewer bytes than op and len call for
  BadAddress = 5,  // ADDR + 8·len beyond the node's memory
  QueueFull = 6,   // an ROP found the processor's incoming queue full
};

inline constexpr int kAddressBytes = 3;
inline constexpr int kCheckBytes = 2;
inline constexpr int kStatusBytes = 2;
inline constexpr int kUnitBytes = 8;  // len counts double-words
inline constexpr int kMaxLen = 255;   // one byte
inline constexpr int kMaxDataBytes = kUnitBytes * kMaxLen;
inline constexpr std::uint32_t kAddressLimit = 1u << 24;
inline constexpr std::uint8_t kAck = 0xaa, kNack = 0x55;
// The most bytes a source sends between the ROUTE and the TURN: a WRITE or ROP of 255 double-words.
inline constexpr int kMaxFrameBytes = 1 + 1 + kAddressBytes + kCheckBytes + kMaxDataBytes + kCheckBytes;

// A bad MLINK frame or operation: one line naming the field and the reason.
class FrameError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

const char* op_name(Op op);
const char* status_name(Status s);
// Whether `op` carries len and ADDR, and data after its header.
constexpr bool has_address(Op op) {
  return op == Op::Read || op == Op::Write || op == Op::Rop;
}
constexpr bool has_data(Op op) {
  return op == Op::Write || op == Op::Rop;
}

// The two check bytes, seeded with a node number.
struct Check {
  std::uint8_t x = 0, s = 0;
  static Check seeded(NodeId v) {
    const auto b = static_cast<std::uint8_t>(v & 0xff);
    return {b, b};
  }
  void add(std::uint8_t b) {
    x = static_cast<std::uint8_t>(((x << 1) | (x >> 7)) ^ b);
    s = static_cast<std::uint8_t>(s + b);
  }
};

struct Frame {
  Op op = Op::Noop;
  int len = 0;             // double-words (READ, WRITE, ROP)
  std::uint32_t addr = 0;  // byte address, a multiple of 8 (READ, WRITE); the function's address (ROP)
  std::vector<std::uint8_t> data;  // WRITE and ROP: 8·len bytes
};

// Bytes a source sends between the ROUTE word(s) and the TURN (note 004c §3.5: RESET/NOOP 3, READ 7,
// WRITE/ROP 9 + 8·len).
int frame_bytes(Op op, int len);
// Words of the reply after the routers' STATUS/CHECKSUM pairs, its DROP included: 4, or for a READ
// 2 + idle + 8·len + 2 + 1.
int reply_words(Op op, int len, int idle);

// Every reason `f` is not an operation MLINK sends: an unknown opcode, len outside 1..255 for READ and
// WRITE (0..255 for ROP, an active message may carry only its address), data that is not 8·len bytes,
// an address beyond 24 bits or not double-word aligned (READ, WRITE). Throws FrameError.
void check(const Frame& f);
// The bytes of `f` to node `dest` (checked first). Writes frame_bytes(...) bytes to `out`, returns them.
// REQUIRES: out.size() >= frame_bytes(f.op, f.len).
int encode(const Frame& f, NodeId dest, std::span<std::uint8_t> out);
std::vector<std::uint8_t> encode(const Frame& f, NodeId dest);

// Reads a frame byte by byte as the destination MLINK does: what each byte completes.
class FrameReader {
 public:
  enum class Event : std::uint8_t {
    None,
    HeaderChecked,  // the header check word arrived: header_ok() says whether it matched
    Data,           // a payload byte (data_index() is its offset), only after a good header
    Complete,       // the frame's last byte
  };
  explicit FrameReader(NodeId self) : self_(self) {}
  void reset() { *this = FrameReader(self_); }
  Event feed(std::uint8_t b);

  Op op() const { return op_; }
  int len() const { return len_; }
  std::uint32_t addr() const { return addr_; }
  int data_index() const { return data_index_; }
  bool header_ok() const { return header_ok_; }
  bool complete() const { return phase_ == Phase::Done; }
  // What the destination answers when the TURN comes now (Ok only for a complete frame whose checks
  // match; the address is the caller's to check).
  Status status() const;

 private:
  enum class Phase : std::uint8_t { Opcode, Len, Address, HeaderCheck, Payload, PayloadCheck, Done, Bad };
  NodeId self_;
  Phase phase_ = Phase::Opcode;
  Status bad_ = Status::Ok;  // why phase_ is Bad
  Op op_ = Op::Noop;
  int len_ = 0, count_ = 0, data_index_ = -1;
  std::uint32_t addr_ = 0;
  Check check_ = Check::seeded(self_);
  std::uint8_t got_[kCheckBytes] = {0, 0};
  bool header_ok_ = false, payload_ok_ = false;
};

// The whole frame `bytes` as node `dest` reads it; throws FrameError naming what is wrong: an unknown
// opcode, a length that disagrees with len, a check that does not match.
Frame decode(std::span<const std::uint8_t> bytes, NodeId dest);

}  // namespace mppnet::machines::metro::mlink
