// app/usage_errors_test.cpp: command-line mistakes are answered with the nearest name and what to type.
#include "app/usage_errors.hpp"

#include <gtest/gtest.h>

namespace mppnet::app {
namespace {

const std::vector<std::string> kCommands = {"run", "sweep", "list", "validate", "import", "app", "yield"};

TEST(UsageErrors, AnUnknownCommandSuggestsTheNearestByEditDistance) {
  EXPECT_EQ(
      unknown_command_message("runn", kCommands),
      "mppnet: unknown command \"runn\" (did you mean run?); the commands are run, sweep, list, validate, "
      "import, app, yield (mppnet --help)");
  // A swap of two letters is one edit.
  EXPECT_NE(unknown_command_message("lsit", kCommands).find("(did you mean list?)"), std::string::npos);
}

TEST(UsageErrors, ACommandFarFromEveryNameGetsTheListWithoutAGuess) {
  const std::string m = unknown_command_message("frobnicate", kCommands);
  EXPECT_EQ(m.find("did you mean"), std::string::npos) << m;
  EXPECT_NE(m.find("the commands are run, sweep"), std::string::npos) << m;
}

TEST(UsageErrors, UnknownOptionsSuggestTheNearestOptionOfTheCommand) {
  EXPECT_EQ(unexpected_arguments_message("validate", {"--lst"}, {"--list", "--fast", "--out", "--help"}),
            "mppnet validate: unknown option --lst (did you mean --list?); see `mppnet validate --help`");
  // An option with its value: the name alone is matched.
  EXPECT_EQ(unexpected_arguments_message("run", {"--outt=dir", "extra"}, {"--set", "--out"}),
            "mppnet run: unknown option --outt=dir (did you mean --out?), unexpected argument \"extra\"; see "
            "`mppnet run --help`");
}

}  // namespace
}  // namespace mppnet::app
