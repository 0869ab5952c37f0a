// io/json_csv_test.cpp: a result record flattened into one CSV row.
#include "io/json_csv.hpp"

#include <gtest/gtest.h>

namespace mppnet::io {
namespace {

TEST(JsonCsv, FlattensScalarsWithDottedNamesAndLeavesOutArraysAndSkippedKeys) {
  const auto doc = nlohmann::json::parse(
      R"({"petit_cycles": 14, "terminated": true, "rate": 0.5, "name": "a,b",
          "config": {"seed": 1}, "read": {"rounds": 3, "done": false}, "list": [1, 2], "none": null})");
  // nlohmann's default object keeps keys sorted, so the columns come in that order.
  EXPECT_EQ(scalar_fields_csv(doc, {"config"}),
            "name,petit_cycles,rate,read.done,read.rounds,terminated\n\"a,b\",14,0.5,0,3,1\n");
}

TEST(JsonCsv, NothingSkippedBelowTheTopLevel) {
  const auto doc = nlohmann::json::parse(R"({"a": {"config": 2}})");
  EXPECT_EQ(scalar_fields_csv(doc, {"config"}), "a.config\n2\n");
}

}  // namespace
}  // namespace mppnet::io
