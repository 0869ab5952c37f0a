// machines/cm5/control_combine.hpp: what one node of the CM-5 control network computes for a combine.
// Header only: these run for every packet at every node, and inlining them saves a tenth of a slot.
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
#include <limits>

namespace mppnet::machines::cm5 {

// The five operators of the hardware (L506-508). The signed maximum compares two's-complement words.
enum class Combiner : std::uint8_t { Or, Xor, MaxSigned, AddSigned, AddUnsigned };
enum class CombineKind : std::uint8_t { Reduce, ForwardScan, BackwardScan };

constexpr int kMaxCombineWords = 4;  // an operand of up to 128 bits (docs/assumptions.md)

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
inline int send_position(Combiner op, int msw_index, int words);
// The word of a leaf's operand as it enters the tree.
inline Summary leaf_summary(const WordOp& w, std::uint32_t word, bool segment_start);
inline Summary identity(const WordOp& w);

struct UpResult {
  Summary up;     // to the parent
  Summary saved;  // set aside for the way down (scans)
};
// a is the left (lower-address) child's summary, b the right one's.
inline UpResult combine_up(const WordOp& w, const Summary& a, const Summary& b, Residue& residue);

struct DownResult {
  Summary left, right;
};
// `from_parent` is the value arriving from above (the prefix P of a forward scan, the suffix Q of a
// backward one, the total of a reduction); `saved` what combine_up set aside.
inline DownResult combine_down(const WordOp& w, const Summary& from_parent, const Summary& saved,
                               Residue& residue);
// What the root sends down: the total for a reduction, the identity for a scan.
inline Summary root_down(const WordOp& w, const Summary& total);
// What the leaf delivers for its word, given what came down to it and its own segment bit.
inline Summary leaf_result(const WordOp& w, const Summary& from_parent, bool segment_start);

// The wrapped 32-bit word of a value, and whether an exact top word overflowed its operator's range.
inline std::uint32_t wrapped(std::int64_t value);
inline bool overflows(const WordOp& w, std::int64_t value);

// ---- Definitions (note 000 §5.13).

namespace combine_detail {

inline constexpr std::int64_t kInt32Min = std::numeric_limits<std::int32_t>::min();
inline constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
inline constexpr std::int64_t kWord = std::int64_t{1} << 32;

// x ⊕ y for one word, x from the left (lower addresses), y from the right.
inline std::int64_t apply(const WordOp& w, std::int64_t x, std::int64_t y, Residue& residue) {
  switch (w.op) {
    case Combiner::Or:
      return x | y;
    case Combiner::Xor:
      return x ^ y;
    case Combiner::AddSigned:
    case Combiner::AddUnsigned: {
      const std::int64_t s = x + y + residue;
      if (w.top()) return s;  // exact: the overflow report needs it
      residue = static_cast<Residue>(s >> 32);
      return s & (kWord - 1);
    }
    case Combiner::MaxSigned:
      // The first word decides unless equal; the top word holds signed values, the others unsigned,
      // so comparing the held values is the comparison of the wide operands.
      if (residue == 0 && x != y) residue = x > y ? 1 : 2;
      return residue == 2 ? y : x;
  }
  return 0;
}

}  // namespace combine_detail

using combine_detail::kInt32Max;
using combine_detail::kInt32Min;
using combine_detail::kWord;

inline int send_position(Combiner op, int msw_index, int words) {
  return op == Combiner::MaxSigned ? msw_index : words - 1 - msw_index;
}

inline Summary identity(const WordOp& w) {
  return {w.op == Combiner::MaxSigned && w.top() ? kInt32Min : 0, false};
}

inline Summary leaf_summary(const WordOp& w, std::uint32_t word, bool segment_start) {
  const bool is_signed = w.top() && (w.op == Combiner::AddSigned || w.op == Combiner::MaxSigned);
  const std::int64_t x = is_signed ? static_cast<std::int32_t>(word) : static_cast<std::int64_t>(word);
  // A backward scan's subtree shows its left neighbours only what lies before its first segment start.
  if (w.kind == CombineKind::BackwardScan && segment_start) return {identity(w).value, true};
  return {x, segment_start};
}

inline UpResult combine_up(const WordOp& w, const Summary& a, const Summary& b, Residue& residue) {
  if (w.first()) residue = 0;
  const bool segment = a.segment || b.segment;
  switch (w.kind) {
    case CombineKind::Reduce:
      return {{combine_detail::apply(w, a.value, b.value, residue), segment}, {}};
    case CombineKind::ForwardScan:
      // What the right of this subtree sees from it: b alone if a segment starts in b.
      return {{b.segment ? b.value : combine_detail::apply(w, a.value, b.value, residue), segment}, a};
    case CombineKind::BackwardScan:
      // What the left of this subtree sees from it: a alone if a segment starts in a.
      return {{a.segment ? a.value : combine_detail::apply(w, a.value, b.value, residue), segment}, b};
  }
  return {};
}

inline DownResult combine_down(const WordOp& w, const Summary& from_parent, const Summary& saved,
                               Residue& residue) {
  if (w.first()) residue = 0;
  switch (w.kind) {
    case CombineKind::Reduce:
      return {from_parent, from_parent};
    case CombineKind::ForwardScan:
      // saved = the left child's summary; the right child's prefix adds the left child to P.
      return {
          from_parent,
          {saved.segment ? saved.value : combine_detail::apply(w, from_parent.value, saved.value, residue)}};
    case CombineKind::BackwardScan:
      // saved = the right child's summary; the left child's suffix adds the right child to Q.
      return {
          {saved.segment ? saved.value : combine_detail::apply(w, saved.value, from_parent.value, residue)},
          from_parent};
  }
  return {};
}

inline Summary root_down(const WordOp& w, const Summary& total) {
  return w.kind == CombineKind::Reduce ? total : identity(w);
}

inline Summary leaf_result(const WordOp& w, const Summary& from_parent, bool segment_start) {
  if (w.kind == CombineKind::ForwardScan && segment_start) return identity(w);
  return from_parent;
}

inline std::uint32_t wrapped(std::int64_t value) {
  return static_cast<std::uint32_t>(value);
}

inline bool overflows(const WordOp& w, std::int64_t value) {
  if (!w.top()) return false;
  if (w.op == Combiner::AddSigned) return value < kInt32Min || value > kInt32Max;
  if (w.op == Combiner::AddUnsigned) return value < 0 || value >= kWord;
  return false;
}

}  // namespace mppnet::machines::cm5
