// io/printable_test.cpp: well-formed UTF-8 passes as it is; control characters and malformed bytes are
// escaped one byte at a time, with the cases of Unicode's table 3-7 at each boundary.
#include "io/printable.hpp"

#include <gtest/gtest.h>

namespace mppnet::io {
namespace {

TEST(Printable, KeepsWellFormedUtf8AndEscapesControlCharacters) {
  EXPECT_EQ(printable("results/été-π-𝄞"), "results/été-π-𝄞");
  EXPECT_EQ(printable("a\nb\tc\x1b[2J\x7f"), "a\\x0ab\\x09c\\x1b[2J\\x7f");
  EXPECT_EQ(printable("a\nb", true), "a\nb");
  EXPECT_EQ(printable(std::string_view("a\0b", 3)), "a\\x00b");
}

TEST(Printable, EscapesMalformedBytes) {
  EXPECT_EQ(printable("\xff"), "\\xff");
  EXPECT_EQ(printable("a\xc3"), "a\\xc3");                           // cut short
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(printable("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");           // overlong
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a surrogate
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(printable("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");      // U+10FFFF itself
}

TEST(Printable, Utf8Validity) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("plain, été, 𝄞"));
  EXPECT_FALSE(is_valid_utf8("caf\xe9"));  // Latin-1
  EXPECT_FALSE(is_valid_utf8("\xed\xbf\xbf"));
}

}  // namespace
}  // namespace mppnet::io
