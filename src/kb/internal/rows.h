#pragma once
// Row mapping for the column lists in queries.h.
#include "kb/model.h"
#include "storage/rows.h"

namespace credence::kb::internal {

inline constexpr int kHubColumnCount = 13;
inline constexpr int kEntryColumnCount = 15;

Hub HubFromRow(const storage::Row& row, int first = 0);
Entry EntryFromRow(const storage::Row& row, int first = 0);

}  // namespace credence::kb::internal
