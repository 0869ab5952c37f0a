// machines/metro/mrp/trace.cpp: link traces in the notation of note 004b §5.
#include "machines/metro/mrp/trace.hpp"

#include <algorithm>
#include <sstream>

namespace mppnet::machines::metro::mrp {

std::string word_label(Word w) {
  const std::string n = std::to_string(w.index);
  switch (w.tag) {
    case Tag::Idle:
      return ".";
    case Tag::Drop:
      return "Z";
    case Tag::Route:
      return "R";
    case Tag::Data:
      return "D" + n;
    case Tag::Reply:
      return "Y" + n;
    case Tag::Turn:
      return "T";
    case Tag::DataIdle:
      return "H";
    case Tag::Status:
      return "S" + n;
    case Tag::Checksum:
      return "C" + n;
  }
  return "?";
}

std::string cell(const LinkWords& words) {
  std::string s;
  if (words.down.tag != Tag::Idle) s += ">" + word_label(words.down);
  if (words.up.tag != Tag::Idle) s += "<" + word_label(words.up);
  if (words.backdrop) s += "^";  // the back-drop line asserted
  return s.empty() ? "." : s;
}

PathTrace path_trace(const std::vector<LinkWords>& trace, LinkId source_link, std::int64_t start,
                     int cycles) {
  PathTrace p;
  p.links.push_back(source_link);
  // The trace is in cycle order, and each link of one connection carries its ROUTE word once.
  for (const LinkWords& w : trace)
    if (w.cycle > start && w.down.tag == Tag::Route &&
        std::find(p.links.begin(), p.links.end(), w.link) == p.links.end())
      p.links.push_back(w.link);
  p.rows.assign(p.links.size(), std::vector<std::string>(cycles, "."));
  for (const LinkWords& w : trace) {
    const auto on = std::find(p.links.begin(), p.links.end(), w.link);
    if (on == p.links.end()) {
      ++p.off_path_words;
      continue;
    }
    if (w.cycle >= start && w.cycle < start + cycles) p.rows[on - p.links.begin()][w.cycle - start] = cell(w);
  }
  return p;
}

int trace_mismatches(const std::vector<std::vector<std::string>>& expected, const PathTrace& got) {
  int bad = got.off_path_words;
  const std::size_t rows = std::max(expected.size(), got.rows.size());
  for (std::size_t k = 0; k < rows; ++k) {
    const std::size_t n = k < got.rows.size() ? got.rows[k].size() : expected[k].size();
    for (std::size_t t = 0; t < n; ++t) {
      const std::string e = k < expected.size() && t < expected[k].size() ? expected[k][t] : ".";
      const std::string g = k < got.rows.size() && t < got.rows[k].size() ? got.rows[k][t] : ".";
      if (e != g) ++bad;
    }
  }
  return bad;
}

std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::istringstream in(row);
  for (std::string c; in >> c;) out.push_back(c);
  return out;
}

}  // namespace mppnet::machines::metro::mrp
