#include "core/date_window.h"

#include <gtest/gtest.h>

namespace credence {
namespace {

const TimeMs kNow = *ParseTimestamp("2026-11-22T17:30:00Z");

TEST(DateWindow, BothEndsAreWholeUtcDaysAndInclusive) {
  auto w = ParseDateWindow("2026-11-01", "2026-11-03", kNow);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->from, "2026-11-01");
  EXPECT_EQ(w->to, "2026-11-03");
  EXPECT_EQ(w->from_ms, *ParseTimestamp("2026-11-01T00:00:00Z"));
  EXPECT_EQ(w->end_ms, *ParseTimestamp("2026-11-04T00:00:00Z"));
}

TEST(DateWindow, DefaultsToTheLastThirtyDaysEndingToday) {
  auto w = ParseDateWindow(std::nullopt, std::nullopt, kNow);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->to, "2026-11-22");
  EXPECT_EQ(w->from, "2026-10-24");
  EXPECT_EQ((w->end_ms - w->from_ms) / kMsPerDay, kDefaultWindowDays);
}

TEST(DateWindow, RefusesTimestampsReversedAndOverlongWindows) {
  EXPECT_FALSE(ParseDateWindow("2026-11-01T00:00:00Z", std::nullopt, kNow).ok());
  EXPECT_FALSE(ParseDateWindow("yesterday", std::nullopt, kNow).ok());
  EXPECT_FALSE(ParseDateWindow("2026-02-30", std::nullopt, kNow).ok());
  auto reversed = ParseDateWindow("2026-11-05", "2026-11-01", kNow);
  ASSERT_FALSE(reversed.ok());
  EXPECT_EQ(reversed.error().fields.at(0).field, "to");
  EXPECT_FALSE(ParseDateWindow("2000-01-01", "2026-01-01", kNow).ok());
  EXPECT_TRUE(ParseDateWindow("2026-11-22", "2026-11-22", kNow).ok());
}

}  // namespace
}  // namespace credence
