// machines/metro/params_for_test.hpp: for tests: a multibutterfly described by what tests vary.
#pragma once

#include "machines/metro/multibutterfly.hpp"

namespace mppnet::machines::metro {

// Radix r, dilation d, `stages` stages and wiring w; every other parameter at its default.
inline MultibutterflyParams params(int r, int d, int stages, Wiring w) {
  MultibutterflyParams p;
  p.radix = r;
  p.dilation = d;
  p.stages = stages;
  p.wiring = w;
  return p;
}

}  // namespace mppnet::machines::metro
