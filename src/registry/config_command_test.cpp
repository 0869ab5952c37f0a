// registry/config_command_test.cpp: the model a parsed config file describes, and the wrong-model error.
#include "registry/config_command.hpp"

#include <gtest/gtest.h>

namespace mppnet::registry {
namespace {

io::ConfigFile parsed(const std::string& text) {
  return io::config_file_from_text(text, "t.toml");
}

TEST(ModelOf, TheFilesMachineModelElseTheNetwork) {
  EXPECT_EQ(model_of(parsed("[machine]\nmodel = \"cm1\"\n"), {}), "cm1");
  EXPECT_EQ(model_of(parsed("[router]\nvcs = 2\n"), {}), "network");
}

TEST(ModelOf, TheLastSetWinsAndAMalformedOneIsLeftToTheLoader) {
  const io::ConfigFile f = parsed("[machine]\nmodel = \"cm1\"\n");
  EXPECT_EQ(model_of(f, {"machine.model = metro", "machine.model=\"network\""}), "network");
  EXPECT_EQ(model_of(f, {"machine.model=[1"}), "cm1");
}

TEST(WrongModel, NamesTheCommandTheModelAndNoHintWhenNoneIsRegistered) {
  const Registry empty;
  EXPECT_STREQ(
      wrong_model(parsed(""), "network", "yield", "metro", empty).what(),
      "t.toml: machine.model: `mppnet yield` runs metro configs; this file describes model \"network\"");
}

}  // namespace
}  // namespace mppnet::registry
