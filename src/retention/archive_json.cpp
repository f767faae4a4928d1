#include "retention/archive_json.h"

#include <boost/json/array.hpp>

namespace credence::retention {

namespace json = boost::json;

json::object ArchiveJson(const ArchiveInfo& a) {
  auto opt_int = [](const std::optional<int64_t>& v) { return v ? json::value(*v) : json::value(nullptr); };
  auto opt_text = [](const std::optional<std::string>& v) { return v ? json::value(*v) : json::value(nullptr); };
  return {{"id", a.id},
          {"kind", a.kind},
          {"period", a.period},
          {"file", a.file},
          {"sha256", a.sha256},
          {"bytes", a.bytes},
          {"records", a.records},
          {"fromSequence", opt_int(a.from_seq)},
          {"toSequence", opt_int(a.to_seq)},
          {"lastHash", opt_text(a.last_hash)},
          {"firstDecisionId", opt_text(a.first_id)},
          {"lastDecisionId", opt_text(a.last_id)},
          {"from", FormatTimestamp(a.from_time)},
          {"to", FormatTimestamp(a.to_time)},
          {"createdAt", FormatTimestamp(a.created_at)}};
}

json::object ArchivedWindowJson(const RetentionService::ArchivedWindow& window) {
  json::array files;
  for (const auto& a : window.archives) files.push_back(ArchiveJson(a));
  return {{"before", FormatTimestamp(window.before)}, {"archives", std::move(files)}};
}

}  // namespace credence::retention
