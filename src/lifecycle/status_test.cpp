// The state table of docs/lifecycle.md, row by row, at and around every
// boundary. The clock is a parameter: nothing sleeps.
#include "lifecycle/status.h"

#include <gtest/gtest.h>

namespace credence::lifecycle {
namespace {

using kb::EntryStatus;

constexpr TimeMs kExpiry = 1'800'000'000'000;  // 2027-01-15T08:00:00Z
constexpr TimeMs kDay = kMsPerDay;
constexpr TimeMs kHour = 60 * 60 * 1000;

struct Row {
  const char* name;
  bool published;
  int warning_days;
  int grace_days;
  TimeMs now;
  EntryStatus expected;
};

class StateTable : public ::testing::TestWithParam<Row> {};

TEST_P(StateTable, StatusFollowsTheClock) {
  const Row& r = GetParam();
  const ExpiryFacts facts{r.published, kExpiry, std::nullopt};
  EXPECT_EQ(EffectiveStatus(facts, {r.warning_days, r.grace_days}, r.now), r.expected) << r.name;
}

INSTANTIATE_TEST_SUITE_P(
    Rows, StateTable,
    ::testing::Values(
        Row{"draft long before expiry", false, 14, 7, kExpiry - 100 * kDay, EntryStatus::kDraft},
        Row{"draft long after expiry never expires", false, 14, 7, kExpiry + 100 * kDay, EntryStatus::kDraft},
        Row{"published before the warning period", true, 14, 7, kExpiry - 15 * kDay, EntryStatus::kPublished},
        Row{"a millisecond before the warning period", true, 14, 7, kExpiry - 14 * kDay - 1, EntryStatus::kPublished},
        Row{"the warning period starts", true, 14, 7, kExpiry - 14 * kDay, EntryStatus::kExpiringSoon},
        Row{"inside the warning period", true, 14, 7, kExpiry - kHour, EntryStatus::kExpiringSoon},
        Row{"at the expiry date", true, 14, 7, kExpiry, EntryStatus::kWarning},
        Row{"inside the grace period", true, 14, 7, kExpiry + 6 * kDay, EntryStatus::kWarning},
        Row{"the grace period ends", true, 14, 7, kExpiry + 7 * kDay, EntryStatus::kExpired},
        Row{"long expired", true, 14, 7, kExpiry + 400 * kDay, EntryStatus::kExpired},
        Row{"no warning period: published until expiry", true, 0, 7, kExpiry - 1, EntryStatus::kPublished},
        Row{"no warning period: warning at expiry", true, 0, 7, kExpiry, EntryStatus::kWarning},
        Row{"no grace period: expired at expiry", true, 14, 0, kExpiry, EntryStatus::kExpired},
        Row{"no windows at all", true, 0, 0, kExpiry, EntryStatus::kExpired}),
    [](const ::testing::TestParamInfo<Row>& row) {
      std::string name = row.param.name;
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

TEST(ExpiryStatus, PausedExpiryStandsStillAtThePauseInstant) {
  const ExpiryFacts paused{true, kExpiry, kExpiry - 20 * kDay};
  const auto status = ComputeExpiryStatus(paused, {14, 7}, kExpiry + 30 * kDay);
  EXPECT_EQ(status.status, EntryStatus::kPublished);
  EXPECT_TRUE(status.is_paused);
  EXPECT_EQ(status.days_until_expiry, 20);
  EXPECT_FALSE(NextTransitionAt(paused, {14, 7}, kExpiry + 30 * kDay).has_value());
}

TEST(ExpiryStatus, DaysUntilExpiryRoundDownAndGoNegative) {
  const ExpiryFacts f{true, kExpiry, std::nullopt};
  EXPECT_EQ(ComputeExpiryStatus(f, {14, 7}, kExpiry - 36 * kHour).days_until_expiry, 1);
  EXPECT_EQ(ComputeExpiryStatus(f, {14, 7}, kExpiry - 12 * kHour).days_until_expiry, 0);
  EXPECT_EQ(ComputeExpiryStatus(f, {14, 7}, kExpiry + 12 * kHour).days_until_expiry, -1);
  EXPECT_EQ(ComputeExpiryStatus(f, {14, 7}, kExpiry + 2 * kDay).days_until_expiry, -2);
}

TEST(ExpiryStatus, WarningPeriodFlagMeansExpiringSoon) {
  const ExpiryFacts f{true, kExpiry, std::nullopt};
  EXPECT_FALSE(ComputeExpiryStatus(f, {14, 7}, kExpiry - 15 * kDay).is_in_warning_period);
  EXPECT_TRUE(ComputeExpiryStatus(f, {14, 7}, kExpiry - kDay).is_in_warning_period);
  EXPECT_FALSE(ComputeExpiryStatus(f, {14, 7}, kExpiry + kDay).is_in_warning_period);
}

TEST(NextTransition, WalksEveryBoundaryOnceThenStops) {
  const ExpiryFacts f{true, kExpiry, std::nullopt};
  const ExpiryWindows w{14, 7};
  TimeMs now = kExpiry - 100 * kDay;
  std::vector<EntryStatus> seen = {EffectiveStatus(f, w, now)};
  while (auto next = NextTransitionAt(f, w, now)) {
    ASSERT_GT(*next, now);
    now = *next;
    seen.push_back(EffectiveStatus(f, w, now));
  }
  EXPECT_EQ(seen, (std::vector<EntryStatus>{EntryStatus::kPublished, EntryStatus::kExpiringSoon,
                                            EntryStatus::kWarning, EntryStatus::kExpired}));
}

TEST(NextTransition, DraftsNeverTransitionOnTheirOwn) {
  EXPECT_FALSE(NextTransitionAt({false, kExpiry, std::nullopt}, {14, 7}, kExpiry - kDay).has_value());
}

}  // namespace
}  // namespace credence::lifecycle
