// machines/cm5/message_format.hpp: how many 4-bit link cycles a data-network message takes.
//
// The paper lists the fields of a message (routing instructions, length, 4-bit tag, 1-5 data words of
// 32 bits, CRC; its Fig. 4 with the widths is lost), and says that part of the 20 MB/s raw rate goes to
// addressing, tags and error checking. The widths here are note 000's recommendations (A3-A5), recorded
// in docs/assumptions.md:
//  - route: an all-fall-down bit, 4 bits of "how high to climb" and 2 bits per level of the downward
//    path from the least common ancestor, padded to whole nibbles. Chips read their instruction through a
//    pointer rather than stripping it, so the length is the same on every link;
//  - length 4 bits, tag 4 bits, data 8 nibbles a word, CRC-16 (4 nibbles).
// A link moves one nibble per 40 MHz cycle, so a message's nibbles are its cycles on each link.
#pragma once

namespace mppnet::machines::cm5 {

inline constexpr int kMaxWords = 5;  // the NI's limit on a message (paper L266-267)
inline constexpr int kTagBits = 4;
inline constexpr int kLengthNibbles = 1;
inline constexpr int kTagNibbles = 1;
inline constexpr int kCrcNibbles = 4;
inline constexpr int kNibblesPerWord = 8;

// Nibbles of the route instructions for a message whose least common ancestor is at `lca_height`.
constexpr int route_nibbles(int lca_height) {
  return (1 + 4 + 2 * lca_height + 3) / 4;
}

// Nibbles (= link cycles) of a message of `words` data words. REQUIRES: 1 <= words <= kMaxWords.
constexpr int message_nibbles(int words, int lca_height) {
  return route_nibbles(lca_height) + kLengthNibbles + kTagNibbles + kNibblesPerWord * words + kCrcNibbles;
}

// Bytes of payload a message of `words` words carries.
constexpr int payload_bytes(int words) {
  return 4 * words;
}

}  // namespace mppnet::machines::cm5
