// machines/metro/mrp/endpoint.cpp: scripted endpoints and the parse of a return stream.
#include "machines/metro/mrp/endpoint.hpp"

#include <utility>

namespace mppnet::machines::metro::mrp {

ScriptedEnd::ScriptedEnd(LinkId link, bool is_source, std::int64_t start,
                         std::vector<std::vector<Word>> segments)
    : link_(link), is_source_(is_source), start_(start), segments_(std::move(segments)) {}

ScriptedEnd ScriptedEnd::source(LinkId link, std::int64_t start, std::vector<std::vector<Word>> segments) {
  return ScriptedEnd(link, true, start, std::move(segments));
}

ScriptedEnd ScriptedEnd::destination(LinkId link, std::vector<std::vector<Word>> segments) {
  return ScriptedEnd(link, false, -1, std::move(segments));
}

void ScriptedEnd::tick(MrpNetwork& net) {
  if (closed_) return;
  const WordFormat& f = net.format();
  if (is_source_ && !sending_ && !heard_ && net.cycle() == start_ && segment_ == 0) sending_ = true;
  // Back-drop at the source (§4.9.2): the connection collapsed ahead of it; abort with a DROP.
  if (is_source_ && net.backdrop_arriving(link_) && net.cycle() > start_) {
    net.put_down(link_, f.drop());
    closed_ = backdropped_ = true;
    return;
  }
  if (!sending_) {
    const Word in = is_source_ ? net.up_arriving(link_) : net.down_arriving(link_);
    const Kind kind = f.classify(in);
    if (kind != Kind::Z || heard_) {
      if (in.tag != Tag::Idle) received_.push_back({net.cycle(), in});
    }
    if (kind == Kind::Z) {
      if (heard_) closed_ = true;  // a DROP after the connection reached us closes it
      return;
    }
    heard_ = true;
    if (kind != Kind::T) return;
    // TURN: answer with the next segment in this same cycle, or close if the script has none.
    if (segment_ >= segments_.size()) {
      is_source_ ? net.put_down(link_, f.drop()) : net.put_up(link_, f.drop());
      closed_ = true;
      return;
    }
    sending_ = true;
  }
  const Word out = segments_[segment_][position_++];
  is_source_ ? net.put_down(link_, out) : net.put_up(link_, out);
  const Kind kind = f.classify(out);
  if (kind == Kind::Z) closed_ = true;
  if (kind == Kind::T || kind == Kind::Z || position_ == segments_[segment_].size()) {
    ++segment_;
    position_ = 0;
    sending_ = false;
    heard_ = false;
  }
}

ReturnStream parse_return(const WordFormat& format, const std::vector<Received>& words, std::size_t from,
                          int stages) {
  ReturnStream r;
  bool expect_checksum = false;
  for (std::size_t k = from; k < words.size(); ++k) {
    const Word w = words[k].word;
    const Kind kind = format.classify(w);
    if (kind == Kind::H) continue;
    if (kind == Kind::Z || kind == Kind::T) {
      r.ended_by_drop = kind == Kind::Z;
      r.ended_by_turn = kind == Kind::T;
      const bool pairs_done = !expect_checksum;
      r.well_formed = pairs_done && (r.blocked_stage > 0 ? r.ended_by_drop && r.reply.empty()
                                                         : static_cast<int>(r.status.size()) == stages);
      return r;
    }
    if (kind != Kind::D) return r;  // an illegal code: a protocol violation
    if (static_cast<int>(r.status.size()) < stages && r.blocked_stage == 0 && !expect_checksum) {
      r.status.push_back(w);
      expect_checksum = true;
      continue;
    }
    if (expect_checksum) {
      r.checksum.push_back(w);
      expect_checksum = false;
      // The STATUS word's field is in the answering router's frame; its blocked bit likewise. Undo the
      // permutation of the links between it and the source (stage k crossed k - 1 of them).
      const int stage = static_cast<int>(r.status.size());
      const Word own = {format.rotate_right(r.status.back().data, (stage - 1) * format.field_bits), 1,
                        Tag::Status, 0};
      r.ports.push_back(static_cast<int>(format.field(own)));
      if (format.status_blocked(own)) r.blocked_stage = stage;
      continue;
    }
    if (r.blocked_stage > 0) return r;  // data after a blocked pair: a protocol violation
    if (r.reply.empty()) r.first_reply_cycle = words[k].cycle;
    r.reply.push_back(w);
  }
  return r;
}

}  // namespace mppnet::machines::metro::mrp
