// io/csv_test.cpp: RFC 4180 quoting and round-trip numbers.
#include "io/csv.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace mppnet::io {
namespace {

TEST(Csv, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(cell(std::string("plain")), "plain");
  EXPECT_EQ(cell(std::string("a,b")), "\"a,b\"");
  EXPECT_EQ(cell(std::string("say \"hi\"")), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(cell(std::string("two\nlines")), "\"two\nlines\"");
  EXPECT_EQ(cell(std::string("cr\rhere")), "\"cr\rhere\"");
  EXPECT_EQ(cell(std::string("")), "");
  EXPECT_EQ(cell(std::string("\"")), "\"\"\"\"");  // one quote: doubled, then enclosed
}

TEST(Csv, NumbersRoundTrip) {
  EXPECT_EQ(cell(0.1), "0.1");
  EXPECT_EQ(std::strtod(cell(1.0 / 3.0).c_str(), nullptr), 1.0 / 3.0);
  EXPECT_EQ(cell(std::int64_t{-42}), "-42");
  // 0.1 + 0.2 is not 0.3 in binary; 17 significant digits are the shortest text that reads back exactly.
  EXPECT_EQ(cell(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(std::strtod(cell(1e300).c_str(), nullptr), 1e300);
  EXPECT_EQ(cell(2.0), "2");
  EXPECT_EQ(cell(std::int64_t{9007199254740993}), "9007199254740993");  // 2^53 + 1: exact as an integer
}

TEST(Csv, TableHasHeaderAndRows) {
  CsvTable t({"load", "name"});
  t.add_row({cell(0.5), cell(std::string("x,y"))});
  EXPECT_EQ(t.str(), "load,name\n0.5,\"x,y\"\n");
}

}  // namespace
}  // namespace mppnet::io
