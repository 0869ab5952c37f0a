// exp/sweep_params.hpp: a load sweep ([sweep] table, or --sweep key=from:to:step on the command line).
#pragma once

#include <string>

namespace mppnet::exp {

struct SweepParams {
  std::string key = "traffic.rate";  // the numeric key that is varied
  double from = 0.05;
  double to = 0.95;
  double step = 0.05;
  bool stop_after_saturation = true;  // no point measuring further loads once one saturates
};

}  // namespace mppnet::exp
