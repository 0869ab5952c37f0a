// machines/cs2/names_command_test.cpp: what `mppnet cs2-names` prints and refuses.
#include "machines/cs2/names_command.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace mppnet::machines::cs2 {
namespace {

Cs2Config cs2_64() {
  return load_cs2_text("[machine]\nmodel = \"cs2\"\nname = \"CS-2 64\"\npes = 64\n", "t.toml", {});
}

TEST(Cs2Names, ReportsNamesAndTheTableEntryWithItsSwitches) {
  const NamesReport r = names_report(cs2_64(), {0}, {17});
  EXPECT_NE(r.text.find("CS-2 64: 64 PEs, size 6, 3 stages, 48 switches per layer, 2 layers\n"),
            std::string::npos);
  EXPECT_NE(r.text.find("PE 0: level 6, network id 0, route 0.0.0\n"), std::string::npos);
  EXPECT_NE(r.text.find("  alternative 0: 5.4.1.0.1 (5 switches)\n"), std::string::npos);
  EXPECT_NE(r.text.find("  alternative 1: 5.5.1.0.1 (5 switches)\n"), std::string::npos);
  // The DEST route turns at plane 1 + 0 * 4 of the top stage, as its up bytes 5, 4 say.
  EXPECT_NE(r.text.find("    via layer 0 stage 3 (level 0) network id 0 (route -) plane 1\n"),
            std::string::npos);
  EXPECT_EQ(r.csv_rows.size(), 4u);
  EXPECT_EQ(r.json["routes"][0]["alternatives"][0]["switches"].size(), 5u);
}

TEST(Cs2Names, APeTheMachineLacksIsRefused) {
  try {
    names_report(cs2_64(), {0}, {64});
    FAIL() << "PE 64 accepted";
  } catch (const core::ConfigError& e) {
    EXPECT_STREQ(e.what(), "--to: PE 64 does not exist: the machine has PEs 0 .. 63");
  }
  EXPECT_THROW(names_report(cs2_64(), {-1}, {}), core::ConfigError);
}

}  // namespace
}  // namespace mppnet::machines::cs2
