// machines/metro/mrp/endpoint.hpp: scripted network endpoints, and the return stream a source reads.
//
// A node's network input behaves at the lowest level like a router's backward port, its network output
// like a forward port (§4.7, L1455). A ScriptedEnd drives one such link from a script: the source sends
// its first segment from a given cycle; either end, on reading a TURN, sends its next segment in that
// same cycle (the destination's turnaround is 0 cycles, note 004b §6 item 16); a segment ends with its
// TURN or DROP. The full MRP-ENDPOINT (random input and route, checksums, retry) is not modelled yet.
#pragma once

#include <cstdint>
#include <vector>

#include "machines/metro/mrp/mrp_network.hpp"
#include "machines/metro/mrp/word.hpp"

namespace mppnet::machines::metro::mrp {

struct Received {
  std::int64_t cycle = 0;  // the cycle it was read (one after the cycle it was put on the link)
  Word word;
};

class ScriptedEnd {
 public:
  // A source on link `link` (a node's network input) that starts sending at cycle `start`.
  static ScriptedEnd source(LinkId link, std::int64_t start, std::vector<std::vector<Word>> segments);
  // A destination on link `link` (a node's network output); it answers each TURN with its next segment.
  static ScriptedEnd destination(LinkId link, std::vector<std::vector<Word>> segments);

  // Reads what arrives in this cycle and drives this cycle's word. Call before MrpNetwork::step().
  void tick(MrpNetwork& net);

  // Every non-idle word it read, in order.
  const std::vector<Received>& received() const { return received_; }
  bool closed() const { return closed_; }
  // The source saw back-drop and aborted (fast path reclamation, §4.9.2).
  bool backdropped() const { return backdropped_; }

 private:
  ScriptedEnd(LinkId link, bool is_source, std::int64_t start, std::vector<std::vector<Word>> segments);

  LinkId link_;
  bool is_source_;
  std::int64_t start_;
  std::vector<std::vector<Word>> segments_;
  std::size_t segment_ = 0, position_ = 0;
  bool sending_ = false, heard_ = false, closed_ = false, backdropped_ = false;
  std::vector<Received> received_;
};

// The stream a source reads after a forward TURN (§4.7.2, L1475-1485): (STATUS CHECKSUM)^s then DROP when
// blocked at stage s, or (STATUS CHECKSUM)^N then the reply. DATA-IDLE words are skipped.
struct ReturnStream {
  std::vector<Word> status, checksum;   // one pair per router that answered, nearest first
  std::vector<int> ports;               // per pair, the equivalent port its router took (STATUS field)
  int blocked_stage = 0;                // the stage whose STATUS says "blocked", 0 when none did
  std::vector<Word> reply;              // control-bit-1 words after the N pairs
  std::int64_t first_reply_cycle = -1;  // when the first reply word was read
  bool ended_by_drop = false, ended_by_turn = false;
  bool well_formed = false;  // the pairs, then a DROP right after a blocked pair, or N pairs and a reply
};

// Parses what a source read from index `from` on (the first word after its TURN), for a path of `stages`.
ReturnStream parse_return(const WordFormat& format, const std::vector<Received>& words, std::size_t from,
                          int stages);

}  // namespace mppnet::machines::metro::mrp
