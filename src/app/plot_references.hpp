// app/plot_references.hpp: the published values `mppnet plot` overlays on a figure, taken from the
// validation cases that hold them.
#pragma once

#include <string>
#include <vector>

#include "app/plot_inputs.hpp"
#include "core/validation_case.hpp"
#include "io/plot.hpp"

namespace mppnet::app {

// What a reference is asked to match: the axes, and where each run was drawn on x.
struct ReferenceQuery {
  std::string kind = {};       // of the result files (ResultFile::kind)
  std::string x = {}, y = {};  // the columns or config keys on the axes
  bool x_is_config_key = false;
  std::vector<const ResultFile*> files = {};  // the runs, one point each when x_is_config_key
  std::vector<double> file_x = {};            // where each file's point is on x
  std::vector<double> xs = {};                // every x the runs have, for curves drawn over the same range
};

// A source's values that can be overlaid: `id` is what --reference names.
struct Reference {
  const char* id;
  const char* summary;  // what it overlays, for the error when it does not fit
  // The series to overlay, or none when the query does not fit (other axes, other networks).
  std::vector<io::FigureSeries> (*series)(const ReferenceQuery& query,
                                          const std::vector<core::ValidationCase>& cases);
};

// The references: cm1.fig12 and metro.table3.4 (docs/plotting.md, "Published values").
// The series of every reference that fits (`requested` empty: automatic), of the one named (an id, or a
// validation case id that starts with a reference's case prefix), or none ("none"). Throws
// core::ConfigError when a named reference is unknown or does not fit the figure.
std::vector<io::FigureSeries> reference_series(const std::string& requested, const ReferenceQuery& query,
                                               const std::vector<core::ValidationCase>& cases);

}  // namespace mppnet::app
