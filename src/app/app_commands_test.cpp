// app/app_commands_test.cpp: an application config is a network config plus [am] and [app].
#include <gtest/gtest.h>

#include "app/app_commands.hpp"
#include "core/error.hpp"

namespace mppnet::app {
namespace {

const char* kConfig = R"([topology]
kind = "mesh"
k = 4
n = 2

[am]
clock_ps = 31250
interrupts = false

[router]
vcs = 4

[app]
alltoall_bytes = 128
)";

TEST(AppConfig, NetworkAmAndAppKeysEachReachTheirStruct) {
  const AppRunConfig c =
      load_app_config_text(kConfig, "t.toml", {"am.send_cycles=7", "router.buffer_flits=4"});
  EXPECT_EQ(c.experiment.topology.k, 4);
  EXPECT_EQ(c.experiment.router.vcs, 4);
  EXPECT_EQ(c.experiment.router.buffer_flits, 4);
  EXPECT_EQ(c.settings.am.clock_ps, 31250);
  EXPECT_FALSE(c.settings.am.interrupts);
  EXPECT_EQ(c.settings.am.send_cycles, 7);
  EXPECT_EQ(c.settings.app.alltoall_bytes, 128);
}

std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  try {
    load_app_config_text(text, "t.toml", sets);
  } catch (const core::ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(AppConfig, ErrorsNameTheLineInEitherPart) {
  // Line 8 is am.interrupts, line 11 router.vcs: both parts keep the file's line numbers.
  std::string bad_am = kConfig;
  bad_am.replace(bad_am.find("interrupts = false"), 18, "interupts = false");
  EXPECT_NE(error_of(bad_am).find("t.toml:8: am.interupts: unknown key (did you mean am.interrupts?)"),
            std::string::npos)
      << error_of(bad_am);
  std::string bad_router = kConfig;
  bad_router.replace(bad_router.find("vcs = 4"), 7, "vcs = 0");
  EXPECT_NE(error_of(bad_router).find("t.toml:11: router.vcs"), std::string::npos) << error_of(bad_router);
}

TEST(AppConfig, OddVcCountCannotBeSplitBetweenRequestsAndReplies) {
  EXPECT_NE(error_of(kConfig, {"router.vcs=3"}).find("cannot be split in 2"), std::string::npos);
  EXPECT_EQ(error_of(kConfig, {"router.vcs=3", "am.separate_vnets=false"}), "");
}

TEST(AppConfig, TorusNeedsTwoVcsPerVirtualNetwork) {
  const std::string e = error_of(kConfig, {"topology.kind=torus", "router.vcs=2"});
  EXPECT_NE(e.find("router.vcs / 2 = 1 VCs"), std::string::npos) << e;
}

}  // namespace
}  // namespace mppnet::app
