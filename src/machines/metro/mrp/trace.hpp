// machines/metro/mrp/trace.hpp: link traces in the notation of note 004b §5, and their comparison.
//
// A cell is the word put on a link in one cycle: ">R" forward, "<S3" reverse, "." nothing (an idle link,
// or one whose sender is silent); "^" marks the back-drop line asserted (">D2^" with a word). Words are named
// by their tag: R ROUTE, D/Y source data and reply (with their number), T TURN, Z DROP, H DATA-IDLE, S/C
// STATUS and CHECKSUM (with their router's stage).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machines/metro/mrp/mrp_network.hpp"

namespace mppnet::machines::metro::mrp {

// "R", "D2", "S3", ... for a word; "." for an idle one.
std::string word_label(Word w);

// The cell of one link in one cycle.
std::string cell(const LinkWords& words);

// One row per path link L_0..L_N (L_0 the source's link): the links that carried the ROUTE word down,
// in the order they did, so a path is read off its one connection; a blocked connection's rows stop at
// its blocking router. Each row has `cycles` cells from cycle `start`.
struct PathTrace {
  std::vector<LinkId> links;
  std::vector<std::vector<std::string>> rows;
  int off_path_words = 0;  // non-idle cells on links outside the path
};
PathTrace path_trace(const std::vector<LinkWords>& trace, LinkId source_link, std::int64_t start, int cycles);

// The cells where `got` and `expected` differ; a row or link missing on one side counts its non-"."
// cells. `expected` rows may be shorter than `cycles`: the rest is ".".
int trace_mismatches(const std::vector<std::vector<std::string>>& expected, const PathTrace& got);

// Splits "  >R  >D1   .  <S1" into its cells.
std::vector<std::string> cells(const std::string& row);

}  // namespace mppnet::machines::metro::mrp
