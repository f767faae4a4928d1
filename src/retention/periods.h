#pragma once
// Calendar months for retention (docs/retention.md): a record is archived
// once the whole UTC month it falls in is older than the tenant's
// retention, so every archive file holds one month and a record stays at
// least its retention (and less than a month more).
#include <string>

#include "core/clock.h"

namespace credence::retention {

inline constexpr int kMinRetentionMonths = 6;  // EU AI Act Art. 26(6): deployers keep logs at least six months
inline constexpr int kMaxRetentionMonths = 120;
inline constexpr int kDefaultRetentionMonths = 13;

// The first millisecond of the UTC calendar month containing `t`.
TimeMs MonthStart(TimeMs t);
// `t` moved by `months` calendar months (negative: back); a day past the end
// of the target month becomes its last day, the time of day is kept.
TimeMs AddMonths(TimeMs t, int months);
// "YYYY-MM" of the UTC month containing `t`.
std::string MonthName(TimeMs t);
// Records before this time are due for archiving under a retention of
// `months`: the start of the month containing now - months.
TimeMs ArchiveDueBefore(TimeMs now, int months);

}  // namespace credence::retention
