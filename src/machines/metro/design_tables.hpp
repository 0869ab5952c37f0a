// machines/metro/design_tables.hpp: the impedance-selection data of DeHon 1993 §6.8 that both the
// `design impedance` calculator and the validation cases use, transcribed once.
#pragma once

#include <vector>

namespace mppnet::machines::metro::design {

// Table 6.1 (§6.8, L2302-2339) as the first tripping sample per code: codes 00-05 never trip
// (t = register_length), 06 trips at 10, 07 at 7, 08-09 at 5, 0A-16 at 4, 17-1F at 3.
inline std::vector<int> table_6_1(int register_length) {
  std::vector<int> t(32);
  for (int s = 0; s < 32; ++s)
    t[s] = s <= 5 ? register_length : s == 6 ? 10 : s == 7 ? 7 : s <= 9 ? 5 : s <= 0x16 ? 4 : 3;
  return t;
}

// §6.8's "misleading pairs": five 1-steps, five equal codes, one 2-step.
inline std::vector<int> misleading_pairs() {
  std::vector<int> t = {11, 10, 9, 8, 7, 6, 6, 6, 6, 6, 6};
  t.resize(32, 4);
  return t;
}

}  // namespace mppnet::machines::metro::design
