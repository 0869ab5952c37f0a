// core/validation_case.hpp: a claim from a source document and the function that measures it.
//
// Machines declare their cases with this type; exp/validation.cpp gathers them into the registry that
// `mppnet validate` runs.
#pragma once

#include <functional>
#include <string>

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
};

// What kind of evidence a case is: what its expected value is, and so what a pass shows.
enum class Evidence {
  Behaviour,    // the simulation against a number the source reports for the machine's behaviour
  Independent,  // the simulation against an independent model or a derivation (not the source's number)
  ClosedForm,   // the arithmetic of a closed form the source gives: checks the transcription, not behaviour
  SelfConsistency,  // the simulator against itself (two paths that must agree)
  Calibration,      // a parameter was fitted to this very number: agreement is by construction, never a pass
  Unclassified,     // not yet declared (shown as such, so that the summary cannot overstate)
};

// The name `mppnet validate` prints: "behaviour", "independent", "closed-form", "calibration",
// "self-check", "unclassified".
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
  // Set when the simulator is known to differ from the source and the difference is explained in docs/
  // (not tuned away): why, and where. `mppnet validate` reports such a case as a documented difference.
  std::string discrepancy = {};
  Evidence evidence = Evidence::Unclassified;
  // Where the tolerance comes from: the source's own words ("about", "more than"), a confidence interval
  // of the run, the tolerance a reference note recommends, or exactness. A tolerance may be no wider than
  // its origin allows.
  std::string tolerance_origin = {};
};

}  // namespace mppnet::core
