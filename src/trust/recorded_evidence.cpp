#include "trust/recorded_evidence.h"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <unordered_map>

#include "trust/config.h"
#include "trust/rules.h"

namespace credence::trust {
namespace {

namespace json = boost::json;

const std::unordered_map<std::string_view, int>& BitOfCode() {
  static const auto* const bits = [] {
    auto* out = new std::unordered_map<std::string_view, int>();
    const auto catalog = RuleCatalog();
    for (size_t i = 0; i < catalog.size(); ++i) out->emplace(catalog[i].code, static_cast<int>(i));
    return out;
  }();
  return *bits;
}

std::string_view Str(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

std::optional<std::string> OptStr(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

bool Bool(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_bool() && v->get_bool();
}

int64_t Int(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_int64() ? v->get_int64() : 0;
}

std::optional<TimeMs> Time(const json::object& o, std::string_view key) {
  const std::string_view text = Str(o, key);
  if (text.empty()) return std::nullopt;
  return ParseTimestamp(text);
}

}  // namespace

ReasonSet ReasonBit(std::string_view code) {
  const auto& bits = BitOfCode();
  const auto it = bits.find(code);
  return it == bits.end() ? 0 : ReasonSet{1} << it->second;
}

const Rule& RuleOfBit(int index) { return RuleCatalog()[static_cast<size_t>(index)]; }

ReasonSet ReasonsOf(const SourceDecision& decision) {
  ReasonSet out = 0;
  for (const Reason& r : decision.reasons) out |= ReasonBit(r.code);
  return out;
}

std::optional<RecordedSource> ParseRecordedSource(std::string_view evidence_body) {
  boost::system::error_code ec;
  const json::value v = json::parse(evidence_body, ec);
  if (ec || !v.is_object()) return std::nullopt;
  const json::value* result_value = v.as_object().if_contains("result");
  const json::value* state_value = v.as_object().if_contains("state");
  if (result_value == nullptr || !result_value->is_object() || state_value == nullptr || !state_value->is_object())
    return std::nullopt;
  const json::object& result = result_value->get_object();
  const json::object& st = state_value->get_object();

  RecordedSource out;
  SourceState& s = out.state;
  s.source_id = std::string(Str(result, "sourceId"));
  out.decision = DecisionFromName(Str(result, "decision"));
  if (const json::value* reasons = result.if_contains("reasons"); reasons != nullptr && reasons->is_array()) {
    for (const json::value& r : reasons->get_array()) {
      if (!r.is_object()) continue;
      const std::string_view code = Str(r.get_object(), "code");
      out.reasons |= ReasonBit(code);
      // Not in the state: the rule's data says how many blocks it counted.
      if (code == "machine_translation_unreviewed")
        if (const json::value* data = r.get_object().if_contains("data"); data != nullptr && data->is_object())
          s.machine_translation_blocks = Int(data->get_object(), "machineTranslatedBlocks");
    }
  }
  s.resolved = Bool(st, "resolved");
  if (!s.resolved) return out;

  s.entry_id = std::string(Str(result, "entryId"));
  s.title = std::string(Str(result, "title"));
  s.origin = Str(st, "origin") == OriginName(Origin::kConnected) ? Origin::kConnected : Origin::kNative;
  const std::string_view status = Str(st, "status");
  s.removed = status == "Removed";
  s.status = s.removed ? kb::EntryStatus::kPublished : kb::ParseEntryStatus(status).value_or(kb::EntryStatus::kDraft);
  s.version = Int(st, "version");
  s.content_updated_at = Time(st, "contentUpdatedAt").value_or(0);
  s.expiry_at = Time(st, "expiryDate").value_or(0);
  s.last_reviewed_at = Time(st, "lastReviewedAt");
  s.last_review = StrengthOfReviewType(Str(st, "lastReviewType"));
  s.owner_id = OptStr(st, "ownerId");
  s.owner_active = Bool(st, "ownerActive");
  s.sensitivity = ParseSensitivity(Str(st, "sensitivity")).value_or(Sensitivity::kInternal);
  s.has_secrets = Bool(st, "hasSecrets");
  s.has_personal_data = Bool(st, "hasPersonalData");
  s.language = OptStr(st, "language");
  s.translation_missing = Bool(st, "translationMissing");
  s.stale_translation_blocks = Int(st, "staleTranslationBlocks");
  s.external_url = OptStr(st, "externalUrl");
  out.policy_source = std::string(Str(st, "policySource"));
  // The effective policy is written with every field (PolicyToJson): as an
  // override over the defaults it gives itself back.
  if (const json::value* policy = st.if_contains("policy"); policy != nullptr && policy->is_object()) {
    if (auto o = PolicyOverrideFromJson(json::serialize(*policy))) Apply(*o, out.policy);
  }
  return out;
}

int64_t DaysUntilExpiryAt(const SourceState& state, TimeMs t) {
  if (state.origin != Origin::kNative) return 0;
  const TimeMs left = state.expiry_at - t;
  return left >= 0 ? left / kMsPerDay : -((-left + kMsPerDay - 1) / kMsPerDay);
}

}  // namespace credence::trust
