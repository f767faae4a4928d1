#include "core/json_parse.h"

#include <gtest/gtest.h>
#include <boost/json/error.hpp>
#include <boost/json/parse_options.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <cmath>
#include <string>

#include "kb/document.h"

namespace credence {
namespace {

double Read(const std::string& text) {
  boost::system::error_code ec;
  auto v = ParseJson(text, ec);
  EXPECT_FALSE(ec) << text;
  return v.as_double();
}

// Inputs Boost 1.81's own parser reads an ulp off (the second is its own
// serializer's output for the first).
TEST(ParseJson, ReadsDecimalsToTheNearestDouble) {
  EXPECT_EQ(Read("131.90e195"), 1.319e197);
  EXPECT_EQ(Read("1.3190000000000001E197"), 1.3190000000000001e197);
  EXPECT_EQ(Read("949192.1249e129"), 949192.1249e129);
  EXPECT_EQ(Read("-8359523578013691.82e-280"), -8359523578013691.82e-280);
}

TEST(ParseJson, SerializedNumbersReadBackUnchanged) {
  for (const char* text : {"131.90e195", "273.45e219", "52.913e96", "-491355117.61268941e198", "0.1", "-0E0"}) {
    boost::system::error_code ec;
    const auto once = boost::json::serialize(ParseJson(text, ec));
    EXPECT_EQ(boost::json::serialize(ParseJson(once, ec)), once) << text;
  }
}

TEST(ParseJson, KeepsIntegersAndOutOfRangeAsBoostDoes) {
  boost::system::error_code ec;
  EXPECT_TRUE(ParseJson("-12", ec).is_int64());
  EXPECT_TRUE(ParseJson("18446744073709551615", ec).is_uint64());
  EXPECT_TRUE(std::isinf(ParseJson("1e400", ec).as_double()));
  EXPECT_EQ(ParseJson("1e-400", ec).as_double(), 0.0);
}

TEST(ParseJson, RefusesWhatBoostRefuses) {
  boost::system::error_code ec;
  ParseJson("{\"a\":1} x", ec);
  EXPECT_EQ(ec, boost::json::error::extra_data);
  ParseJson("{\"a\":", ec);
  EXPECT_TRUE(ec);
  ParseJson("", ec);
  EXPECT_TRUE(ec);
  boost::json::parse_options shallow;
  shallow.max_depth = 2;
  ParseJson("[[[1]]]", ec, shallow);
  EXPECT_EQ(ec, boost::json::error::too_deep);
  auto v = ParseJson("{\"k\":[1,2.5,\"s\",true,null]}", ec);
  EXPECT_FALSE(ec);
  EXPECT_EQ(boost::json::serialize(v), "{\"k\":[1,2.5E0,\"s\",true,null]}");
}

// An editor document saved back unchanged keeps its bytes and block hashes.
TEST(ParseJson, EditorDocumentsAreAFixedPoint) {
  const std::string content =
      R"({"type":"doc","content":[{"type":"image","attrs":{"width":131.90e195,"h":949192.1249e129}}]})";
  auto first = kb::ParseOriginal(content, "content");
  ASSERT_TRUE(first);
  auto again = kb::ParseOriginal(first->content, "content");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->content, first->content);
  EXPECT_EQ(again->blocks.at(0).hash, first->blocks.at(0).hash);
  EXPECT_EQ(kb::BlockHash(first->blocks.at(0).node_json), first->blocks.at(0).hash);
}

}  // namespace
}  // namespace credence
