#include "core/clock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "core/ids.h"

namespace credence {
namespace {

constexpr TimeMs kSecond = 1000;
constexpr TimeMs kMinute = 60 * kSecond;
constexpr TimeMs kHour = 60 * kMinute;

// 2024-02-29T12:34:56Z
constexpr TimeMs kLeapDayNoon = 1709210096000;

TEST(FormatTimestamp, EpochIsMidnightJanuaryFirst1970) {
  EXPECT_EQ(FormatTimestamp(0), "1970-01-01T00:00:00.000Z");
}

TEST(FormatTimestamp, LeapDay) {
  EXPECT_EQ(FormatTimestamp(kLeapDayNoon), "2024-02-29T12:34:56.000Z");
  EXPECT_EQ(FormatTimestamp(951782400000), "2000-02-29T00:00:00.000Z");
}

TEST(FormatTimestamp, AlwaysThreeDigitMillis) {
  EXPECT_EQ(FormatTimestamp(kLeapDayNoon + 7), "2024-02-29T12:34:56.007Z");
  EXPECT_EQ(FormatTimestamp(kLeapDayNoon + 123), "2024-02-29T12:34:56.123Z");
  EXPECT_EQ(FormatTimestamp(1795368727123), "2026-11-22T17:32:07.123Z");
}

TEST(FormatTimestamp, BeforeEpochCountsBackwards) {
  EXPECT_EQ(FormatTimestamp(-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(FormatTimestamp(-kMsPerDay), "1969-12-31T00:00:00.000Z");
}

TEST(FormatTimestamp, AlwaysEndsInZ) {
  for (TimeMs t : {TimeMs{0}, kLeapDayNoon, TimeMs{4102444800000}, TimeMs{-5}}) {
    const std::string s = FormatTimestamp(t);
    ASSERT_FALSE(s.empty());
    EXPECT_EQ(s.back(), 'Z') << s;
    EXPECT_EQ(s.size(), 24u) << s;
  }
}

TEST(ParseTimestamp, UtcWithZ) {
  EXPECT_EQ(ParseTimestamp("2024-02-29T12:34:56Z"), kLeapDayNoon);
  EXPECT_EQ(ParseTimestamp("2024-02-29t12:34:56z"), kLeapDayNoon);
  EXPECT_EQ(ParseTimestamp("1970-01-01T00:00:00Z"), 0);
}

TEST(ParseTimestamp, PositiveOffsetIsSubtracted) {
  EXPECT_EQ(ParseTimestamp("2024-02-29T14:34:56+02:00"), kLeapDayNoon);
}

TEST(ParseTimestamp, NegativeOffsetIsAdded) {
  EXPECT_EQ(ParseTimestamp("2024-02-29T07:04:56-05:30"), kLeapDayNoon);
}

TEST(ParseTimestamp, OffsetCanCrossMidnight) {
  EXPECT_EQ(ParseTimestamp("2024-03-01T01:00:00+02:00"), ParseTimestamp("2024-02-29T23:00:00Z"));
}

TEST(ParseTimestamp, FractionsOfOneToNineDigits) {
  EXPECT_EQ(ParseTimestamp("2024-02-29T12:34:56.1Z"), kLeapDayNoon + 100);
  EXPECT_EQ(ParseTimestamp("2024-02-29T12:34:56.12Z"), kLeapDayNoon + 120);
  EXPECT_EQ(ParseTimestamp("2024-02-29T12:34:56.123Z"), kLeapDayNoon + 123);
  EXPECT_EQ(ParseTimestamp("2024-02-29T12:34:56.1234Z"), kLeapDayNoon + 123);
  EXPECT_EQ(ParseTimestamp("2024-02-29T12:34:56.123456Z"), kLeapDayNoon + 123);
  EXPECT_EQ(ParseTimestamp("2024-02-29T12:34:56.999999999Z"), kLeapDayNoon + 999);
  EXPECT_EQ(ParseTimestamp("2024-02-29T14:34:56.5+02:00"), kLeapDayNoon + 500);
}

TEST(ParseTimestamp, PlainDateIsMidnightUtc) {
  EXPECT_EQ(ParseTimestamp("2024-02-29"), kLeapDayNoon - 12 * kHour - 34 * kMinute - 56 * kSecond);
  EXPECT_EQ(ParseTimestamp("1970-01-01"), 0);
}

TEST(ParseTimestamp, RejectsLocalTimeWithoutOffset) {
  EXPECT_FALSE(ParseTimestamp("2024-02-29T12:34:56"));
  EXPECT_FALSE(ParseTimestamp("2024-02-29T12:34:56.123"));
}

TEST(ParseTimestamp, RejectsImpossibleDates) {
  EXPECT_FALSE(ParseTimestamp("2024-13-01T00:00:00Z"));
  EXPECT_FALSE(ParseTimestamp("2024-00-10"));
  EXPECT_FALSE(ParseTimestamp("2024-02-30T00:00:00Z"));
  EXPECT_FALSE(ParseTimestamp("2023-02-29"));
  EXPECT_FALSE(ParseTimestamp("1900-02-29"));
  EXPECT_FALSE(ParseTimestamp("2024-04-31"));
  EXPECT_FALSE(ParseTimestamp("2024-01-00"));
}

TEST(ParseTimestamp, RejectsImpossibleTimes) {
  EXPECT_FALSE(ParseTimestamp("2024-01-01T24:00:00Z"));
  EXPECT_FALSE(ParseTimestamp("2024-01-01T12:60:00Z"));
  EXPECT_FALSE(ParseTimestamp("2024-01-01T12:00:61Z"));
  EXPECT_FALSE(ParseTimestamp("2024-01-01T12:00:00+24:00"));
}

TEST(ParseTimestamp, RejectsGarbage) {
  for (const char* text : {"", "garbage", "2024", "2024-1-1", "2024/01/01", "2024-01-01T", "2024-01-01X00:00:00Z",
                           "2024-01-01T12:00Z", "2024-01-01T12:00:00.Z", "2024-01-01T12:00:00ZZ",
                           "2024-01-01T12:00:00+0200", "2024-01-01T12:00:00+02", "2024-01-01T12:00:00 UTC",
                           "2024-01-01T12:00:00Z ", " 2024-01-01"}) {
    EXPECT_FALSE(ParseTimestamp(text)) << '"' << text << '"';
  }
}

TEST(Timestamp, RoundTripsThroughFormatAndParse) {
  for (TimeMs t : {TimeMs{0}, kLeapDayNoon, kLeapDayNoon + 1, TimeMs{1795368727123}, TimeMs{-1},
                   TimeMs{253402300799999}}) {
    const std::string text = FormatTimestamp(t);
    EXPECT_EQ(ParseTimestamp(text), t) << text;
  }
}

TEST(ManualClock, MovesOnlyWhenTold) {
  ManualClock clock(1000);
  EXPECT_EQ(clock.Now(), 1000);
  clock.Advance(kMsPerDay);
  EXPECT_EQ(clock.Now(), 1000 + kMsPerDay);
  clock.Set(5);
  EXPECT_EQ(clock.Now(), 5);
}

bool IsLowerHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

TEST(NewId, IsALowercaseUuidVersion7WithRfcVariant) {
  for (int i = 0; i < 100; ++i) {
    const std::string id = NewId();
    ASSERT_EQ(id.size(), 36u) << id;
    EXPECT_TRUE(IsUuid(id)) << id;
    for (size_t k = 0; k < id.size(); ++k) {
      if (k == 8 || k == 13 || k == 18 || k == 23) {
        EXPECT_EQ(id[k], '-') << id;
      } else {
        EXPECT_TRUE(IsLowerHex(id[k])) << id;
      }
    }
    EXPECT_EQ(id[14], '7') << id;
    EXPECT_NE(std::string("89ab").find(id[19]), std::string::npos) << id;
  }
}

TEST(NewId, EmbedsTheCurrentUnixMillis) {
  const TimeMs before = SystemClock().Now();
  const std::string id = NewId();
  const TimeMs after = SystemClock().Now();
  const std::string hex = id.substr(0, 8) + id.substr(9, 4);
  const TimeMs embedded = static_cast<TimeMs>(std::stoull(hex, nullptr, 16));
  EXPECT_GE(embedded, before);
  EXPECT_LE(embedded, after);
}

TEST(NewId, UniqueOverTenThousandCalls) {
  std::set<std::string> ids;
  for (int i = 0; i < 10000; ++i) ids.insert(NewId());
  EXPECT_EQ(ids.size(), 10000u);
}

TEST(NewId, SortsByCreationTimeAcrossMilliseconds) {
  std::string previous = NewId();
  for (int i = 0; i < 5; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const std::string next = NewId();
    EXPECT_LT(previous, next);
    previous = next;
  }
}

TEST(IsUuid, AcceptsLowerAndUpperCase) {
  EXPECT_TRUE(IsUuid("0190f3a2-7b1c-7def-8abc-0123456789ab"));
  EXPECT_TRUE(IsUuid("0190F3A2-7B1C-7DEF-8ABC-0123456789AB"));
  EXPECT_TRUE(IsUuid("00000000-0000-0000-0000-000000000000"));
}

TEST(IsUuid, RejectsWrongLengthDashesOrCharacters) {
  EXPECT_FALSE(IsUuid(""));
  EXPECT_FALSE(IsUuid("0190f3a2-7b1c-7def-8abc-0123456789a"));
  EXPECT_FALSE(IsUuid("0190f3a2-7b1c-7def-8abc-0123456789abc"));
  EXPECT_FALSE(IsUuid("0190f3a27b1c7def8abc0123456789ab"));
  EXPECT_FALSE(IsUuid("0190f3a2_7b1c-7def-8abc-0123456789ab"));
  EXPECT_FALSE(IsUuid("0190f3a-27b1c-7def-8abc-0123456789ab"));
  EXPECT_FALSE(IsUuid("0190f3a2-7b1c-7def-8abc-0123456789ag"));
  EXPECT_FALSE(IsUuid("{190f3a2-7b1c-7def-8abc-0123456789ab}"));
  EXPECT_FALSE(IsUuid("0190f3a2-7b1c-7def-8abc 0123456789ab"));
}

TEST(CanonicalUuid, Lowercases) {
  EXPECT_EQ(CanonicalUuid("0190F3A2-7B1C-7DEF-8ABC-0123456789AB"), "0190f3a2-7b1c-7def-8abc-0123456789ab");
}

TEST(Sha256Hex, KnownVectors) {
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Base64UrlEncode, Rfc4648VectorsWithoutPadding) {
  EXPECT_EQ(Base64UrlEncode(""), "");
  EXPECT_EQ(Base64UrlEncode("f"), "Zg");
  EXPECT_EQ(Base64UrlEncode("fo"), "Zm8");
  EXPECT_EQ(Base64UrlEncode("foo"), "Zm9v");
  EXPECT_EQ(Base64UrlEncode("foob"), "Zm9vYg");
  EXPECT_EQ(Base64UrlEncode("fooba"), "Zm9vYmE");
  EXPECT_EQ(Base64UrlEncode("foobar"), "Zm9vYmFy");
}

TEST(Base64UrlEncode, UsesUrlSafeAlphabet) {
  EXPECT_EQ(Base64UrlEncode("\xfb\xff"), "-_8");
  EXPECT_EQ(Base64UrlEncode("\xff\xff\xff"), "____");
  EXPECT_EQ(Base64UrlEncode(std::string("\0\0\0", 3)), "AAAA");
  const std::string encoded = Base64UrlEncode(SecureRandomBytes(300));
  EXPECT_EQ(encoded.size(), 400u);
  EXPECT_EQ(encoded.find_first_of("+/="), std::string::npos);
}

TEST(SecureRandomBytes, ReturnsRequestedLengthAndVaries) {
  EXPECT_EQ(SecureRandomBytes(32).size(), 32u);
  EXPECT_NE(SecureRandomBytes(32), SecureRandomBytes(32));
}

}  // namespace
}  // namespace credence
