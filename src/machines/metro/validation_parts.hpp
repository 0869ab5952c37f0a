// machines/metro/validation_parts.hpp: what the METRO validation files share (not a public interface).
//
// metro_validation_cases() (validation.cpp) gathers the groups below: path expansion and extra-stage
// cases (validation.cpp), yield (validation_yield.cpp), harvest (validation_harvest.cpp), the design
// arithmetic (validation_design.cpp) and the trees (validation_trees.cpp).
#pragma once

#include <cmath>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/validation_case.hpp"
#include "machines/metro/multibutterfly.hpp"

namespace mppnet::machines::metro::detail {

inline constexpr const char* kThesis = "DeHon 1993 (MIT AI TR-1445)";

// The r = 4, d = 2, ni = no = 2 networks of Table 3.4 and Fig 3.29 with the given wiring and endpoints.
inline MultibutterflyParams network(int stages, Wiring w, EndpointWiring e,
                                    FinalPairing pairing = FinalPairing::Symmetric) {
  MultibutterflyParams p;
  p.radix = 4;
  p.dilation = 2;
  p.stages = stages;
  p.wiring = w;
  p.endpoints = e;
  p.final_pairing = pairing;
  return p;
}

// Short names for ids: "det", "random", "rmf"; endpoints "ep_block", "ep_spread", ...
const char* wiring_label(Wiring w);
std::string endpoint_label(EndpointWiring e);

// The endpoint wiring of the validated configuration (docs/metro.md §1; the thesis gives none): block
// for deterministic, a random matching for random wiring, a random bijection per fanout class (spread)
// for maximal fanout. EndpointWiring::Auto differs for the two random wirings (a fit, docs/metro.md §3).
EndpointWiring note_endpoints(Wiring w);

// Half-width of a 3-standard-deviation band for a difference whose parts have these standard deviations.
inline double three_sd(std::initializer_list<double> sds) {
  double v = 0;
  for (double s : sds) v += s * s;
  return 3 * std::sqrt(v);
}

// A result several cases read (the points of one yield curve, one harvest study): computed by the first
// case that asks and kept, so the study runs once. Copies share it, as ValidationCase copies do.
template <class T>
class SharedRun {
 public:
  explicit SharedRun(std::function<T()> run) : state_(std::make_shared<State>()) {
    state_->run = std::move(run);
  }
  const T& get() const {
    std::call_once(state_->once, [s = state_.get()] { s->value = s->run(); });
    return state_->value;
  }

 private:
  struct State {
    std::function<T()> run;
    std::once_flag once;
    T value{};
  };
  std::shared_ptr<State> state_;
};

void add_path_cases(std::vector<core::ValidationCase>& cases);     // R1, Table 3.1 switching (validation.cpp)
void add_yield_cases(std::vector<core::ValidationCase>& cases);    // R2, R3 (validation_yield.cpp)
void add_harvest_cases(std::vector<core::ValidationCase>& cases);  // R5 (validation_harvest.cpp)
void add_design_cases(
    std::vector<core::ValidationCase>& cases);  // R6, design targets (validation_design.cpp)

}  // namespace mppnet::machines::metro::detail
