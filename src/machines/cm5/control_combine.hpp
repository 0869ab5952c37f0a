// machines/cm5/control_combine.hpp: what one node of the CM-5 control network computes for a combine.
//
// A combine (reduction, or segmented forward or backward exclusive scan) climbs the binary tree as one
// summary per subtree, turns at the root and comes down as one value per subtree (note 000 §5.13, after
// Leiserson et al. 1992, L498-528). The hardware works on 32-bit words; a wider operand is a sequence of
// words, one packet each, and every node keeps a residue between the words of one operation (the carry
// of an addition, least significant word first; the side already known to win a maximum, most
// significant word first), so the tree computes the wide result exactly (note L509-512).
//
// Overflow (note A18): the two additions differ only in how they report it. The most significant word
// travels as an exact integer instead of a wrapped one, so the root and every scan prefix know the exact
// result: unsigned addition overflows when it reaches 2^(32k), signed when it leaves the k-word
// two's-complement range. The word delivered is the wrapped value.
#pragma once

#include <cstdint>

namespace mppnet::machines::cm5 {

// The five operators of the hardware (L506-508). The signed maximum compares two's-complement words.
enum class Combiner : std::uint8_t { Or, Xor, MaxSigned, AddSigned, AddUnsigned };
enum class CombineKind : std::uint8_t { Reduce, ForwardScan, BackwardScan };

constexpr int kMaxCombineWords = 8;

// One word of one combine: what every packet of it says in its descriptor field.
struct WordOp {
  CombineKind kind = CombineKind::Reduce;
  Combiner op = Combiner::Or;
  std::uint8_t word = 0;   // position in sending order (0 first)
  std::uint8_t words = 1;  // of the operand
  bool operator==(const WordOp&) const = default;
  // Adds go least significant word first, the maximum most significant first; the word that carries
  // the sign (and the exact value of an add) is the last sent for adds, the first for the maximum.
  bool top() const { return op == Combiner::MaxSigned ? word == 0 : word + 1 == words; }
  bool first() const { return word == 0; }
};

// A subtree's contribution for one word: its value and whether a segment starts inside it. `value`
// holds a word (0 .. 2^32 - 1), except for the top word of an add (exact, possibly beyond 32 bits) and
// of the maximum (signed).
struct Summary {
  std::int64_t value = 0;
  bool segment = false;
};

// Per node, per direction: the residue between the words of one operation (a carry, 0 or 1; or for the
// maximum 0 undecided, 1 left wins, 2 right wins). Cleared by the first word of an operation.
using Residue = std::uint8_t;

// Sending order of word w of a k-word operand given most significant word first: adds send it last.
int send_position(Combiner op, int msw_index, int words);
// The word of a leaf's operand as it enters the tree.
Summary leaf_summary(const WordOp& w, std::uint32_t word, bool segment_start);
Summary identity(const WordOp& w);

struct UpResult {
  Summary up;     // to the parent
  Summary saved;  // set aside for the way down (scans)
};
// a is the left (lower-address) child's summary, b the right one's.
UpResult combine_up(const WordOp& w, const Summary& a, const Summary& b, Residue& residue);

struct DownResult {
  Summary left, right;
};
// `from_parent` is the value arriving from above (the prefix P of a forward scan, the suffix Q of a
// backward one, the total of a reduction); `saved` what combine_up set aside.
DownResult combine_down(const WordOp& w, const Summary& from_parent, const Summary& saved, Residue& residue);
// What the root sends down: the total for a reduction, the identity for a scan.
Summary root_down(const WordOp& w, const Summary& total);
// What the leaf delivers for its word, given what came down to it and its own segment bit.
Summary leaf_result(const WordOp& w, const Summary& from_parent, bool segment_start);

// The wrapped 32-bit word of a value, and whether an exact top word overflowed its operator's range.
std::uint32_t wrapped(std::int64_t value);
bool overflows(const WordOp& w, std::int64_t value);

}  // namespace mppnet::machines::cm5
