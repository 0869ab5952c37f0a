// machines/cm5/control_combine.cpp: the combining rules of note 000 §5.13, word by word.
#include "machines/cm5/control_combine.hpp"

#include <limits>

namespace mppnet::machines::cm5 {

namespace {

constexpr std::int64_t kInt32Min = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kWord = std::int64_t{1} << 32;

// x ⊕ y for one word, x from the left (lower addresses), y from the right.
std::int64_t apply(const WordOp& w, std::int64_t x, std::int64_t y, Residue& residue) {
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

}  // namespace

int send_position(Combiner op, int msw_index, int words) {
  return op == Combiner::MaxSigned ? msw_index : words - 1 - msw_index;
}

Summary identity(const WordOp& w) {
  return {w.op == Combiner::MaxSigned && w.top() ? kInt32Min : 0, false};
}

Summary leaf_summary(const WordOp& w, std::uint32_t word, bool segment_start) {
  const bool is_signed = w.top() && (w.op == Combiner::AddSigned || w.op == Combiner::MaxSigned);
  const std::int64_t x = is_signed ? static_cast<std::int32_t>(word) : static_cast<std::int64_t>(word);
  // A backward scan's subtree shows its left neighbours only what lies before its first segment start.
  if (w.kind == CombineKind::BackwardScan && segment_start) return {identity(w).value, true};
  return {x, segment_start};
}

UpResult combine_up(const WordOp& w, const Summary& a, const Summary& b, Residue& residue) {
  if (w.first()) residue = 0;
  const bool segment = a.segment || b.segment;
  switch (w.kind) {
    case CombineKind::Reduce:
      return {{apply(w, a.value, b.value, residue), segment}, {}};
    case CombineKind::ForwardScan:
      // What the right of this subtree sees from it: b alone if a segment starts in b.
      return {{b.segment ? b.value : apply(w, a.value, b.value, residue), segment}, a};
    case CombineKind::BackwardScan:
      // What the left of this subtree sees from it: a alone if a segment starts in a.
      return {{a.segment ? a.value : apply(w, a.value, b.value, residue), segment}, b};
  }
  return {};
}

DownResult combine_down(const WordOp& w, const Summary& from_parent, const Summary& saved, Residue& residue) {
  if (w.first()) residue = 0;
  switch (w.kind) {
    case CombineKind::Reduce:
      return {from_parent, from_parent};
    case CombineKind::ForwardScan:
      // saved = the left child's summary; the right child's prefix adds the left child to P.
      return {from_parent, {saved.segment ? saved.value : apply(w, from_parent.value, saved.value, residue)}};
    case CombineKind::BackwardScan:
      // saved = the right child's summary; the left child's suffix adds the right child to Q.
      return {{saved.segment ? saved.value : apply(w, saved.value, from_parent.value, residue)}, from_parent};
  }
  return {};
}

Summary root_down(const WordOp& w, const Summary& total) {
  return w.kind == CombineKind::Reduce ? total : identity(w);
}

Summary leaf_result(const WordOp& w, const Summary& from_parent, bool segment_start) {
  if (w.kind == CombineKind::ForwardScan && segment_start) return identity(w);
  return from_parent;
}

std::uint32_t wrapped(std::int64_t value) {
  return static_cast<std::uint32_t>(value);
}

bool overflows(const WordOp& w, std::int64_t value) {
  if (!w.top()) return false;
  if (w.op == Combiner::AddSigned) return value < kInt32Min || value > kInt32Max;
  if (w.op == Combiner::AddUnsigned) return value < 0 || value >= kWord;
  return false;
}

}  // namespace mppnet::machines::cm5
