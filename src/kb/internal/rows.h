#pragma once
// Row mapping for the column lists in queries.h.
#include "kb/model.h"
#include "storage/rows.h"

namespace credence::kb::internal {

inline constexpr int kHubColumnCount = 13;
inline constexpr int kEntryColumnCount = 18;

Hub HubFromRow(const storage::Row& row, int first = 0);
Entry EntryFromRow(const storage::Row& row, int first = 0);
// Replaces the stored status (Draft or Published) with the one a reader
// sees at `now`.
void DeriveStatus(Entry& entry, TimeMs now);

}  // namespace credence::kb::internal
