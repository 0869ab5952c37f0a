// app/app_commands_test.cpp: an application config is a network config plus [am] and [app].
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/app_commands.hpp"
#include "app/app_report.hpp"
#include "core/error.hpp"
#include "io/config_loader.hpp"
#include "topo/k_ary_n_cube.hpp"

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
  EXPECT_EQ(topo::k_ary_n_cube_params(c.experiment.topology).k, 4);
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

TEST(AppConfig, CutThroughNeedsBufferForTheLargestAmPacket) {
  // 4 header + 16 argument + 64 data bytes at 4 bytes a flit: 21 flits.
  EXPECT_EQ(
      error_of(kConfig, {"router.switching=virtual_cut_through", "am.packet_payload_bytes=64"}),
      "t.toml: router.buffer_flits: virtual_cut_through switching needs a VC buffer that holds the largest "
      "am packet: 8 flits is less than 21 (am.header_bytes 4 + 16 argument bytes + "
      "am.packet_payload_bytes 64 at am.flit_bytes 4 a flit); raise router.buffer_flits or lower "
      "am.packet_payload_bytes");
  const std::string set_buffer =
      error_of(kConfig, {"router.switching=store_and_forward", "router.buffer_flits=8"});
  EXPECT_NE(set_buffer.find("--set"), std::string::npos) << set_buffer;
  EXPECT_EQ(error_of(kConfig, {"router.switching=virtual_cut_through", "router.buffer_flits=9"}), "");
  EXPECT_EQ(error_of(kConfig, {"am.packet_payload_bytes=64"}), "");  // wormhole: any length
}

TEST(AppConfig, HeaderBytesAtLeastOne) {
  // 0 would give a message with no words and no data 0 flits.
  const std::string e = error_of(kConfig, {"am.header_bytes=0"});
  EXPECT_NE(e.find("--set am.header_bytes=0: am.header_bytes:"), std::string::npos) << e;
  EXPECT_EQ(error_of(kConfig, {"am.header_bytes=1"}), "");
}

TEST(AppConfig, NodeMemoryInAllIsCappedAt16GiB) {
  // 16 nodes x 2^30 bytes = 16 GiB is the limit itself; 2^30 + 8 is over it.
  EXPECT_EQ(error_of(kConfig, {"am.memory_bytes=1073741824"}), "");
  EXPECT_EQ(
      error_of(kConfig, {"am.memory_bytes=1073741832"}),
      "--set am.memory_bytes=1073741832: am.memory_bytes: 16 nodes x 1073741832 bytes = 17179869312 bytes "
      "of node memory in all, more than the limit of 17179869184 bytes (16 GiB)");
}

// Application parameters that do not fit the machine, through `mppnet app`: each is a config error at
// the line (or --set) where its key was set, and leaves no results behind.
class AppCommandErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("mppnet_app_errors_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // The error of `mppnet app name c.toml --set ...`, where c.toml is kConfig plus `app_lines` at the end
  // of its [app] table (line 15 on).
  std::string error(const std::string& name, const std::string& app_lines,
                    const std::vector<std::string>& sets) {
    const auto file = (dir_ / "c.toml").string();
    std::ofstream(file) << kConfig << app_lines;
    const auto out = dir_ / "out";
    try {
      app_command(name, io::open_config_file(file), sets, out);
    } catch (const core::ConfigError& e) {
      EXPECT_FALSE(std::filesystem::exists(out)) << "results directory left behind";
      const std::string what = e.what();
      return what.substr(0, file.size()) == file ? "c.toml" + what.substr(file.size()) : what;
    }
    return "";
  }

  std::filesystem::path dir_;
};

TEST_F(AppCommandErrors, CounterHomeOutsideTheMachine) {
  EXPECT_EQ(error("counter", "counter_home = 40\n", {}),
            "c.toml:15: app.counter_home: 40 is not a node of this 16-node machine (0 .. 15)");
  EXPECT_EQ(
      error("counter", "", {"app.counter_home=16"}),
      "--set app.counter_home=16: app.counter_home: 16 is not a node of this 16-node machine (0 .. 15)");
}

TEST_F(AppCommandErrors, GetputDistanceAMultipleOfP) {
  EXPECT_EQ(
      error("getput", "getput_distance = 32\n", {}),
      "c.toml:15: app.getput_distance: 32 makes every node its own partner on 16 nodes (a multiple of P)");
}

TEST_F(AppCommandErrors, MoreSamplesThanKeys) {
  EXPECT_EQ(
      error("samplesort", "samplesort_keys = 4\nsamplesort_samples = 5\n", {}),
      "c.toml:16: app.samplesort_samples: 5 samples per node exceed app.samplesort_keys = 4 keys per node");
}

TEST_F(AppCommandErrors, FftPointsNotAMultipleOfPSquaredOrTooSlow) {
  EXPECT_EQ(error("fft", "", {"app.fft_points=1000"}),
            "--set app.fft_points=1000: app.fft_points: 1000 points: the binary exchange needs a power of "
            "two of at "
            "least P = 16 (try 1024), the transpose a multiple of P^2 = 256");
  EXPECT_EQ(
      error("fft", "fft_algorithm = \"transpose\"\n", {"app.fft_points=1000"}),
      "--set app.fft_points=1000: app.fft_points: 1000 is not a multiple of P^2 = 16 x 16 = 256 (try 1024)");
  const std::string slow = error("fft", "fft_points = 1049344\n", {});
  EXPECT_EQ(slow.substr(0, slow.find(" points")), "c.toml:15: app.fft_points: 1049344") << slow;
  EXPECT_NE(slow.find("(try 1048576 = 256 x 4096)"), std::string::npos) << slow;
}

TEST_F(AppCommandErrors, TooLittleMemoryNamesTheApplicationsKey) {
  // 2 x 16 nodes x 4096 bytes + 16 > 65536.
  EXPECT_EQ(
      error("alltoall", "", {"app.alltoall_bytes=4096"}),
      "--set app.alltoall_bytes=4096: app.alltoall_bytes: alltoall needs 131088 bytes of memory per node "
      "(2 x 16 nodes x app.alltoall_bytes = 4096); am.memory_bytes is 65536");
}

}  // namespace
}  // namespace mppnet::app

namespace mppnet::app {
namespace {

// The expected work at the two measured rates: 3.6e5 messages are 1 s to 5.1 s; a run whose slowest
// projection passes an hour (2.6e8 messages / 70,000 a second = 1.03 hours) says so.
TEST(ExpectedWorkLine, GivesBothRatesAndWarnsPastAnHour) {
  const std::string short_run = expected_work_line("alltoall", 360e3);
  EXPECT_NE(short_run.find("about 360000 active messages"), std::string::npos) << short_run;
  EXPECT_NE(short_run.find("1 s to 5.1 s"), std::string::npos) << short_run;
  EXPECT_EQ(short_run.find("more than an hour"), std::string::npos) << short_run;
  const std::string long_run = expected_work_line("alltoall", 2.6e8);
  EXPECT_NE(long_run.find("12 minutes to 62 minutes"), std::string::npos) << long_run;
  EXPECT_NE(long_run.find("more than an hour"), std::string::npos) << long_run;
}

}  // namespace
}  // namespace mppnet::app
