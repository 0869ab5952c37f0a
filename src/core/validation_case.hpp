// core/validation_case.hpp: a claim from a source document, the function that measures it, and the
// verdict on a measurement.
//
// Machines declare their cases with this type; exp/validation.cpp gathers them into the registry that
// `mppnet validate` runs.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mppnet::core {

// How close is close enough, as an interval around the expected value.
struct Tolerance {
  double below = 0;       // the measured value may be this much under the expected value ...
  double above = 0;       // ... and this much over it
  bool relative = false;  // below/above are fractions of |expected|

  static Tolerance exact() { return {}; }
  static Tolerance absolute(double x) { return {x, x, false}; }
  static Tolerance relative_to(double x) { return {x, x, true}; }
  // A measured value that must lie in [expected * (1 - below), expected * (1 + above)].
  static Tolerance relative_band(double below, double above) { return {below, above, true}; }
  static Tolerance absolute_band(double below, double above) { return {below, above, false}; }

  bool accepts(double expected, double measured) const;
  std::string describe() const;
  // The narrower of the two sides, in the measurement's units (infinite when both are).
  double narrower_side(double expected) const;
};

// A documented difference: the model is known to give another value than the source, and why is
// explained in docs/assumptions.md. The value the model gives is pinned to a band, so that the
// explanation covers that value only: a measurement outside the band is a FAIL like any other, and a
// regression that moves the model cannot hide behind the explanation.
struct PinnedDifference {
  double low = 0;  // the band the model's value must stay in, [low, high]
  double high = 0;
  std::string reason;  // why the model differs from the source (names where docs/ explain it)
  std::string margin;  // why the band is as wide as it is: a measured spread, or the reason's own words

  bool contains(double measured) const;
  std::string describe() const;  // "[0.382, 0.402]"
};

// The band value ± margin.
PinnedDifference pinned_around(double value, double margin, std::string reason, std::string margin_origin);

// A modelling choice a case's verdict turns on: where the source reads more than one way, the reading
// the model takes, and what the case gives under each other reading (docs/assumptions.md, "Choices
// behind verdicts", has the measurements and how to repeat them). A reading picked with the verdict in
// view makes the case a calibration, since its agreement is then by construction: judge fails such a
// case declared as anything else.
struct ModellingChoice {
  std::string what;     // the question the source leaves open: "what the paper's MB/s count"
  std::string reading;  // the model's answer, and why it is taken
  std::string others;   // each other reasonable reading, with the case's value and verdict under it
  bool chosen_with_result_in_view = false;
};

// "what: reading (other readings: others)", as validate prints it.
std::string describe(const ModellingChoice& choice);

// What kind of evidence a case is: what its expected value is, and so what a pass shows.
enum class Evidence {
  Behaviour,        // the simulated machine against a figure or behaviour its publication reports
  Independent,      // the simulation against an independent model or a derivation (not the source's number)
  SameSource,       // against an implementation written independently from the same notes as mppnet's
  ClosedForm,       // structure or arithmetic: a count of the built network, a formula the source gives
  SelfConsistency,  // the simulator against itself (two paths that must agree, its own timing rule)
  Calibration,      // a parameter was fitted to this very number: agreement is by construction, never a pass
  Unclassified,     // not yet declared (shown as such, so that the summary cannot overstate)
};

// Every kind a case may declare (Unclassified is not one).
inline constexpr Evidence kEvidenceKinds[] = {Evidence::Behaviour,       Evidence::Independent,
                                              Evidence::SameSource,      Evidence::ClosedForm,
                                              Evidence::SelfConsistency, Evidence::Calibration};

// The name `mppnet validate` prints: "behaviour", "independent", "same-source", "closed-form",
// "self-check", "calibration", "unclassified".
const char* evidence_name(Evidence e);

struct ValidationCase {
  std::string id;        // "net.saturation.mesh8x8_dor_uniform", "cm1.e3.petit_cycles_vp16"
  std::string source;    // document and section/line, or the derivation in docs/
  std::string setup;     // what is simulated
  std::string quantity;  // what the number is, with its unit
  double expected = 0;
  Tolerance tolerance;
  bool slow = false;  // left out of the unit tests; `mppnet validate` runs it
  std::function<double()> measure;
  // Set only when the model is outside the source's tolerance for a reason docs/ explain (not tuned
  // away): the band the model's value is pinned to, and why. A case within tolerance carries none.
  std::optional<PinnedDifference> difference = {};
  Evidence evidence = Evidence::Unclassified;
  // Where the tolerance comes from: the source's own words ("about", "more than"), a confidence interval
  // of the run, the tolerance a reference note recommends, or exactness. A tolerance may be no wider than
  // its origin allows.
  std::string tolerance_origin = {};
  // A random quantity is measured over seeds 1..seeds by measure_at(seed) (and `measure` is left
  // empty): the verdict judges the mean, and the mean's 95% confidence interval must be narrower than the
  // tolerance, or one seed's luck could decide it. `validate --fast` takes fewer seeds and says so.
  int seeds = 0;
  std::function<double(std::uint64_t seed)> measure_at = {};
  // The modelling choices its verdict depends on (none for most cases).
  std::vector<ModellingChoice> choices = {};
};

// A case whose expected value holds exactly: a count on a built structure, an identity, the arithmetic
// of a printed formula. `tolerance_origin` says which ("exact: a count on the built graph").
ValidationCase exact_case(std::string id, std::string source, std::string setup, std::string quantity,
                          double expected, std::function<double()> measure, Evidence evidence,
                          std::string tolerance_origin, bool slow = false);

enum class Verdict { Pass, Differs, Fail, Calibrated };

// "pass", "differs", "FAIL", "calibrated".
const char* verdict_name(Verdict v);

struct Judgement {
  Verdict verdict = Verdict::Fail;
  std::string problem;  // why it is a FAIL, in one line; empty otherwise
};

// The verdict on `measured` for case `c`: within the source's tolerance, a pass (a calibration is only
// "calibrated": the fit took); outside it but inside the case's pinned band, a documented difference;
// outside both, or not a number, a FAIL. A case within tolerance that carries a difference is a FAIL
// too: its explanation is stale (or was written in advance) and must go. For a mean over seeds,
// `interval` is the half-width of its 95% confidence interval: one wider than the tolerance's narrower
// side is a FAIL (the seeds cannot tell pass from fail), unless `interval_checked` is false (--fast). A
// case with a choice made with its result in view is a FAIL unless it is declared a calibration.
Judgement judge(const ValidationCase& c, double measured, double interval = 0, bool interval_checked = true);

}  // namespace mppnet::core
