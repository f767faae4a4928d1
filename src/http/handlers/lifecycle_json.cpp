#include "http/handlers/lifecycle_json.h"

#include <string>
#include <vector>

#include "kb/model.h"

namespace credence::http {

boost::json::object ExpiryStatusJson(const lifecycle::ExpiryStatus& st) {
  return {{"expiryDate", FormatTimestamp(st.expiry_at)},
          {"daysUntilExpiry", st.days_until_expiry},
          {"isInWarningPeriod", st.is_in_warning_period},
          {"isPaused", st.is_paused},
          {"status", kb::EntryStatusName(st.status)}};
}

Schema ExpiryStatusSchema() {
  std::vector<std::string> statuses;
  for (auto st : {kb::EntryStatus::kDraft, kb::EntryStatus::kPublished, kb::EntryStatus::kExpiringSoon,
                  kb::EntryStatus::kWarning, kb::EntryStatus::kExpired})
    statuses.emplace_back(kb::EntryStatusName(st));
  return Schema::Object({
      Required("expiryDate", Schema::Timestamp()),
      Required("daysUntilExpiry",
               Schema::Integer().Describe("whole days to the expiry date, rounded down; negative once past")),
      Required("isInWarningPeriod", Schema::Boolean().Describe("ExpiringSoon")),
      Required("isPaused", Schema::Boolean()),
      Required("status", Schema::String().Enum(statuses).Describe("derived from the clock (docs/lifecycle.md)")),
  });
}

}  // namespace credence::http
