// machines/metro/mrp/driver.cpp: scripted connections over an MRP network.
#include "machines/metro/mrp/driver.hpp"

#include <utility>

namespace mppnet::machines::metro::mrp {

Word route_to(const WordFormat& format, int radix, int stages, NodeId dest) {
  std::uint32_t bits = 0;
  int rest = dest;
  for (int k = stages - 1; k >= 0; --k) {
    bits |= static_cast<std::uint32_t>(rest % radix) << (k * format.field_bits);
    rest /= radix;
  }
  return format.payload(bits, Tag::Route, 0);
}

std::vector<Word> data_words(const WordFormat& format, Tag tag, int count, int first) {
  std::vector<Word> words;
  for (int k = first; k < first + count; ++k)
    words.push_back(format.payload(static_cast<std::uint32_t>(0x5a + 37 * k), tag, k));
  return words;
}

int MrpDriver::connect(NodeId x, int q, NodeId y, std::int64_t start, std::vector<std::vector<Word>> source,
                       std::vector<std::vector<Word>> reply) {
  const int k = static_cast<int>(ends_.size());
  ends_.push_back(ScriptedEnd::source(net_.source_link(x, q), start, std::move(source)));
  const int outputs = net_.node_outputs();
  for (int o = 0; o < outputs; ++o) ends_.push_back(ScriptedEnd::destination(net_.sink_link(y, o), reply));
  destinations_.resize(ends_.size(), {-1, 0});
  destinations_[k] = {k + 1, outputs};
  return k;
}

const ScriptedEnd* MrpDriver::destination_of(int k) const {
  const auto [first, count] = destinations_[k];
  for (int o = first; o < first + count; ++o)
    if (!ends_[o].received().empty()) return &ends_[o];
  return nullptr;
}

void MrpDriver::step() {
  for (ScriptedEnd& e : ends_) e.tick(net_);
  net_.step();
}

}  // namespace mppnet::machines::metro::mrp
