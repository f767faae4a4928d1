#include "core/text.h"

#include <gtest/gtest.h>

#include <string>

namespace credence {
namespace {

TEST(Utf8, WellFormedTextIsValid) {
  for (const std::string s :
       {"", "plain ascii", "Grüße", "日本語", "emoji \xF0\x9F\x98\x80", "\xEF\xBF\xBD", "\xF4\x8F\xBF\xBF"})
    EXPECT_TRUE(IsValidUtf8(s)) << s;
}

TEST(Utf8, MalformedTextIsNot) {
  for (const std::string s :
       {"\xFF\xFE", "\x80", "\xC3", "\xC3\x28", "\xC0\xAF" /* overlong / */, "\xE0\x80\xAF" /* overlong */,
        "\xED\xA0\x80" /* surrogate */, "\xF4\x90\x80\x80" /* above U+10FFFF */, "\xF5\x80\x80\x80", "ok\xE2\x82"})
    EXPECT_FALSE(IsValidUtf8(s)) << testing::PrintToString(s);
}

}  // namespace
}  // namespace credence
