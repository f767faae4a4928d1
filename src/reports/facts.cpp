#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include "reports/internal/facts.h"

namespace credence::reports::internal {
namespace {

namespace json = boost::json;

std::optional<std::string> OptStr(const json::object* o, std::string_view key) {
  if (o == nullptr) return std::nullopt;
  const json::value* v = o->if_contains(key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->as_string());
}

bool Flag(const json::object* o, std::string_view key) {
  if (o == nullptr) return false;
  const json::value* v = o->if_contains(key);
  return v != nullptr && v->is_bool() && v->as_bool();
}

}  // namespace

EvidenceFacts ExtractFacts(std::string_view body) {
  EvidenceFacts f;
  boost::system::error_code ec;
  const json::value doc = json::parse(body, ec);
  if (ec || !doc.is_object()) return f;
  const json::value* rv = doc.as_object().if_contains("result");
  const json::value* sv = doc.as_object().if_contains("state");
  const json::object* result = rv != nullptr && rv->is_object() ? &rv->as_object() : nullptr;
  const json::object* state = sv != nullptr && sv->is_object() ? &sv->as_object() : nullptr;
  f.source_id = OptStr(result, "sourceId").value_or("");
  if (Flag(result, "resolved")) {
    f.entry_id = OptStr(result, "entryId").value_or("");
    f.origin = OptStr(result, "origin");
    f.title = OptStr(result, "title");
  }
  f.decision = OptStr(result, "decision").value_or("");
  f.escalated = Flag(result, "escalated");
  f.classification = OptStr(result, "classification").value_or("Unresolved");
  f.stale = f.classification == "Expired" || f.classification == "Warning";
  f.sensitivity = OptStr(result, "sensitivity");
  if (auto e = OptStr(state, "expiryDate")) f.expiry_at = ParseTimestamp(*e);
  f.owner_id = OptStr(state, "ownerId");
  f.owner_active = Flag(state, "ownerActive");
  if (result != nullptr)
    if (const json::value* reasons = result->if_contains("reasons"); reasons != nullptr && reasons->is_array())
      for (const auto& r : reasons->as_array()) {
        if (!r.is_object()) continue;
        const auto* o = &r.as_object();
        if (OptStr(o, "severity") == "block")
          if (auto code = OptStr(o, "code")) f.block_reasons.push_back(*code);
      }
  return f;
}

}  // namespace credence::reports::internal
