// io/journal_test.cpp: a journal keeps whole records across a reopen with the same fingerprint, refuses
// another fingerprint naming the change, and leaves nothing once removed.
#include "io/journal.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "core/error.hpp"
#include "io/scratch_dir_for_test.hpp"

namespace mppnet::io::journal_test {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const char* name) {
  return testing::scratch_dir("journal", name);
}

const nlohmann::json kPrint = {{"command", "sweep"}, {"config", {{"traffic", {{"rate", 0.1}}}}}};

TEST(Journal, NewJournalHoldsTheFingerprintAndNoRecords) {
  const fs::path d = fresh_dir("new");
  const Journal j(d, "sweep", kPrint);
  EXPECT_EQ(j.dir(), d / ".partial" / "sweep");
  EXPECT_EQ(j.resumed(), 0u);
  EXPECT_EQ(j.find("point-0000"), nullptr);
  EXPECT_TRUE(fs::exists(d / ".partial" / "sweep" / "fingerprint.json"));
  fs::remove_all(d);
}

TEST(Journal, ReopenWithTheSameFingerprintReturnsEveryRecord) {
  const fs::path d = fresh_dir("reopen");
  {
    Journal j(d, "sweep", kPrint);
    j.save("point-0000", {{"value", 0.1}});
    j.save("point-0001", {{"value", 0.2}});
    ASSERT_NE(j.find("point-0001"), nullptr);  // this run's records too
  }
  const Journal again(d, "sweep", kPrint);
  EXPECT_EQ(again.resumed(), 2u);
  ASSERT_NE(again.find("point-0001"), nullptr);
  EXPECT_EQ(*again.find("point-0001"), (nlohmann::json{{"value", 0.2}}));
  EXPECT_EQ(again.find("point-0002"), nullptr);
  fs::remove_all(d);
}

TEST(Journal, DoublesComeBackBitForBit) {
  // The resumed results must be byte-identical, so a saved double must parse back to the same bits.
  const fs::path d = fresh_dir("doubles");
  const std::vector<double> values = {1.0 / 3.0, 0.1 + 0.2, 1e-300, 123456.789012345678, 5e-324};
  Journal(d, "yield", kPrint).save("batch", {{"values", values}});
  const Journal again(d, "yield", kPrint);
  const auto back = again.find("batch")->at("values").get<std::vector<double>>();
  ASSERT_EQ(back.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(back[i], values[i]) << i;
  fs::remove_all(d);
}

TEST(Journal, AnotherFingerprintIsRefusedNamingTheChange) {
  const fs::path d = fresh_dir("changed");
  Journal(d, "sweep", kPrint).save("point-0000", {{"value", 0.1}});
  nlohmann::json changed = kPrint;
  changed["config"]["traffic"]["rate"] = 0.2;
  try {
    Journal(d, "sweep", changed);
    FAIL() << "a changed fingerprint was accepted";
  } catch (const core::ConfigError& e) {
    const std::string p = (d / ".partial").string();
    EXPECT_EQ(
        std::string(e.what()),
        p +
            "/sweep: left by an interrupted sweep with other settings (config.traffic.rate: 0.1 before, "
            "0.2 now); use another --out, or delete " +
            p + " to start over");
  }
  // The refusal leaves the interrupted run's records in place.
  EXPECT_TRUE(fs::exists(d / ".partial" / "sweep" / "point-0000.json"));
  fs::remove_all(d);
}

TEST(Journal, TempFilesAndUnreadableRecordsAreNotRecords) {
  const fs::path d = fresh_dir("temp");
  Journal(d, "sweep", kPrint).save("point-0000", {{"value", 0.1}});
  const fs::path dir = d / ".partial" / "sweep";
  std::ofstream(dir / ".point-0001.json.tmp.12.0") << "{\"value\": 0.2}";
  std::ofstream(dir / "point-0002.json") << "{\"value\": ";  // cannot happen with atomic writes
  const Journal again(d, "sweep", kPrint);
  EXPECT_EQ(again.resumed(), 1u);
  EXPECT_EQ(again.find("point-0002"), nullptr);
  fs::remove_all(d);
}

TEST(Journal, WithoutAFingerprintTheDirectoryStartsOver) {
  // A kill between creating the directory and writing the fingerprint: nothing in it can be trusted.
  const fs::path d = fresh_dir("nofp");
  fs::create_directories(d / ".partial" / "sweep");
  std::ofstream(d / ".partial" / "sweep" / "point-0000.json") << "{\"value\": 9}";
  const Journal j(d, "sweep", kPrint);
  EXPECT_EQ(j.resumed(), 0u);
  EXPECT_EQ(j.find("point-0000"), nullptr);
  fs::remove_all(d);
}

TEST(Journal, RemoveKeepsAnotherCommandsJournal) {
  const fs::path d = fresh_dir("remove");
  Journal yield(d, "yield", kPrint);
  Journal harvest(d, "harvest", kPrint);
  yield.remove();
  EXPECT_FALSE(fs::exists(d / ".partial" / "yield"));
  EXPECT_TRUE(fs::exists(d / ".partial" / "harvest" / "fingerprint.json"));
  harvest.remove();
  EXPECT_FALSE(fs::exists(d / ".partial"));
  EXPECT_TRUE(fs::exists(d));
  fs::remove_all(d);
}

// Expects Journal(d, "sweep") to refuse with `why` in its message.
void expect_journal_refused(const fs::path& d, const std::string& why) {
  try {
    Journal j(d, "sweep", kPrint);
    j.remove();
    FAIL() << "opened";
  } catch (const core::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
}

TEST(Journal, APartialLinkIsRefusedAndWhatItPointsToKept) {
  // A planted .partial -> target once made a finished sweep delete target/sweep recursively.
  const fs::path d = fresh_dir("link");
  fs::create_directories(d / "out");
  fs::create_directories(d / "target" / "sweep");
  std::ofstream(d / "target" / "sweep" / "thesis.tex") << "years of work";
  fs::create_symlink(d / "target", d / "out" / ".partial");
  expect_journal_refused(d / "out", ".partial: is a symbolic link");
  fs::remove(d / "out" / ".partial");
  fs::create_directories(d / "out" / ".partial");
  fs::create_symlink(d / "target" / "sweep", d / "out" / ".partial" / "sweep");
  expect_journal_refused(d / "out", "sweep: is a symbolic link");
  EXPECT_TRUE(fs::exists(d / "target" / "sweep" / "thesis.tex"));
  fs::remove_all(d);
}

TEST(Journal, OnlyItsOwnFilesAreEverRemoved) {
  const fs::path d = fresh_dir("own");
  fs::create_directories(d / ".partial" / "sweep" / "data");
  std::ofstream(d / ".partial" / "sweep" / "notes.txt") << "the user's";
  expect_journal_refused(d, "holds files mppnet did not write");
  EXPECT_TRUE(fs::exists(d / ".partial" / "sweep" / "notes.txt"));
  EXPECT_TRUE(fs::exists(d / ".partial" / "sweep" / "data"));
  fs::remove_all(d);
}

TEST(Journal, AMalformedRecordDecodesToNothingAndIsRunAgain) {
  const fs::path d = fresh_dir("malformed");
  Journal(d, "sweep", kPrint).save("point-0000", {{"velue", 0.1}});
  const Journal again(d, "sweep", kPrint);
  ASSERT_NE(again.find("point-0000"), nullptr);
  const auto value = [](const nlohmann::json& r) { return r.at("value").get<double>(); };
  EXPECT_EQ(again.decoded("point-0000", value), std::nullopt);
  EXPECT_EQ(again.decoded("point-0001", value), std::nullopt);
  fs::remove_all(d);
}

TEST(FirstDifference, NamesThePathOfTheFirstChangedValue) {
  EXPECT_EQ(first_difference(kPrint, kPrint), "");
  EXPECT_EQ(first_difference({{"a", 1}, {"b", 2}}, {{"a", 1}, {"b", 3}}), "b: 2 before, 3 now");
  EXPECT_EQ(first_difference({{"a", 1}}, {{"a", 1}, {"seed", 8}}), "seed: absent before, 8 now");
  EXPECT_EQ(first_difference({{"a", 1}, {"k", "x"}}, {{"a", 1}}), "k: \"x\" before, absent now");
  EXPECT_EQ(first_difference({{"values", {0.1, 0.2}}}, {{"values", {0.1, 0.3}}}),
            "values[1]: 0.2 before, 0.3 now");
  EXPECT_EQ(first_difference({{"values", {0.1, 0.2}}}, {{"values", {0.1, 0.2, 0.3}}}),
            "values: 2 entries before, 3 now");
  EXPECT_EQ(first_difference(1, 2), "fingerprint: 1 before, 2 now");
  // Long values are cut to 40 characters: the quote, 36 letters and "...".
  EXPECT_EQ(first_difference({{"f", std::string(50, 'a')}}, {{"f", "b"}}),
            "f: \"" + std::string(36, 'a') + "... before, \"b\" now");
}

}  // namespace
}  // namespace mppnet::io::journal_test
