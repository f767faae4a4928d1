#include "trust/config.h"

#include "core/json_text.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

namespace credence::trust {
namespace {

namespace json = boost::json;

constexpr int64_t kMaxDays = 3650;
constexpr size_t kMaxDisclaimer = 2000;
constexpr size_t kMaxVocabulary = 100;
constexpr size_t kMaxName = 64;

Result<json::object> ParseObject(std::string_view text, const char* what) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec || !v.is_object()) return Error::Validation({{what, "must be a JSON object"}});
  return std::move(v.as_object());
}

}  // namespace

bool PolicyOverride::empty() const {
  return !ai_retrievable && !customer_facing_allowed && !internal_only && !external_model_allowed &&
         !max_sensitivity_for_ai && !warn_before_expiry_days && !max_review_age_days &&
         !customer_facing_requires_review && !citation_required && !disclaimer_text && !warn_on_personal_data;
}

void Apply(const PolicyOverride& o, Policy& p) {
  if (o.ai_retrievable) p.ai_retrievable = *o.ai_retrievable;
  if (o.customer_facing_allowed) p.customer_facing_allowed = *o.customer_facing_allowed;
  if (o.internal_only) p.internal_only = *o.internal_only;
  if (o.external_model_allowed) p.external_model_allowed = *o.external_model_allowed;
  if (o.max_sensitivity_for_ai) p.max_sensitivity_for_ai = *o.max_sensitivity_for_ai;
  if (o.warn_before_expiry_days) p.warn_before_expiry_days = *o.warn_before_expiry_days;
  if (o.max_review_age_days) p.max_review_age_days = *o.max_review_age_days;
  if (o.customer_facing_requires_review) p.customer_facing_requires_review = *o.customer_facing_requires_review;
  if (o.citation_required) p.citation_required = *o.citation_required;
  if (o.warn_on_personal_data) p.warn_on_personal_data = *o.warn_on_personal_data;
  if (o.disclaimer_text) {
    if (o.disclaimer_text->empty())
      p.disclaimer_text.reset();
    else
      p.disclaimer_text = o.disclaimer_text;
  }
}

Result<PolicyOverride> PolicyOverrideFromJson(std::string_view text) {
  CR_TRY_ASSIGN(json::object o, ParseObject(text, "policy"));
  PolicyOverride out;
  std::vector<FieldError> errors;
  auto boolean = [&](const json::value& v, const std::string& key, std::optional<bool>& field) {
    if (v.is_bool())
      field = v.as_bool();
    else
      errors.push_back({key, "must be a boolean"});
  };
  auto days = [&](const json::value& v, const std::string& key, std::optional<int64_t>& field) {
    if (!v.is_int64() || v.as_int64() < 0 || v.as_int64() > kMaxDays)
      errors.push_back({key, "must be an integer from 0 to " + std::to_string(kMaxDays)});
    else
      field = v.as_int64();
  };
  for (const auto& [k, v] : o) {
    const std::string key(k);
    if (key == "aiRetrievable") {
      boolean(v, key, out.ai_retrievable);
    } else if (key == "customerFacingAllowed") {
      boolean(v, key, out.customer_facing_allowed);
    } else if (key == "internalOnly") {
      boolean(v, key, out.internal_only);
    } else if (key == "externalModelAllowed") {
      boolean(v, key, out.external_model_allowed);
    } else if (key == "customerFacingRequiresReview") {
      boolean(v, key, out.customer_facing_requires_review);
    } else if (key == "citationRequired") {
      boolean(v, key, out.citation_required);
    } else if (key == "warnOnPersonalData") {
      boolean(v, key, out.warn_on_personal_data);
    } else if (key == "maxSensitivityForAi") {
      std::optional<Sensitivity> s;
      if (v.is_string()) s = ParseSensitivity(std::string(v.as_string()));
      if (!s)
        errors.push_back({key, "must be one of Public, Internal, Confidential, Restricted"});
      else
        out.max_sensitivity_for_ai = s;
    } else if (key == "warnBeforeExpiryDays") {
      days(v, key, out.warn_before_expiry_days);
    } else if (key == "maxReviewAgeDays") {
      days(v, key, out.max_review_age_days);
    } else if (key == "disclaimerText") {
      if (v.is_null())
        out.disclaimer_text = "";
      else if (!v.is_string() || v.as_string().size() > kMaxDisclaimer)
        errors.push_back({key, "must be a string of at most " + std::to_string(kMaxDisclaimer) + " bytes, or null"});
      else
        out.disclaimer_text = std::string(v.as_string());
    } else {
      errors.push_back({key, "is not a policy field"});
    }
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return out;
}

std::string PolicyOverrideToJson(const PolicyOverride& o) {
  json::object out;
  if (o.ai_retrievable) out["aiRetrievable"] = *o.ai_retrievable;
  if (o.customer_facing_allowed) out["customerFacingAllowed"] = *o.customer_facing_allowed;
  if (o.internal_only) out["internalOnly"] = *o.internal_only;
  if (o.external_model_allowed) out["externalModelAllowed"] = *o.external_model_allowed;
  if (o.max_sensitivity_for_ai) out["maxSensitivityForAi"] = SensitivityName(*o.max_sensitivity_for_ai);
  if (o.warn_before_expiry_days) out["warnBeforeExpiryDays"] = *o.warn_before_expiry_days;
  if (o.max_review_age_days) out["maxReviewAgeDays"] = *o.max_review_age_days;
  if (o.customer_facing_requires_review) out["customerFacingRequiresReview"] = *o.customer_facing_requires_review;
  if (o.citation_required) out["citationRequired"] = *o.citation_required;
  if (o.warn_on_personal_data) out["warnOnPersonalData"] = *o.warn_on_personal_data;
  if (o.disclaimer_text)
    out["disclaimerText"] = o.disclaimer_text->empty() ? json::value(nullptr) : json::value(*o.disclaimer_text);
  return json::serialize(out);
}

std::string PolicyToJson(const Policy& p) {
  // Written directly: it is part of every source's evidence.
  std::string out;
  out.reserve(300);
  JsonObjectWriter w(out);
  w.Bool("aiRetrievable", p.ai_retrievable)
      .Bool("customerFacingAllowed", p.customer_facing_allowed)
      .Bool("internalOnly", p.internal_only)
      .Bool("externalModelAllowed", p.external_model_allowed)
      .Str("maxSensitivityForAi", SensitivityName(p.max_sensitivity_for_ai))
      .Int("warnBeforeExpiryDays", p.warn_before_expiry_days)
      .Int("maxReviewAgeDays", p.max_review_age_days)
      .Bool("customerFacingRequiresReview", p.customer_facing_requires_review)
      .Bool("citationRequired", p.citation_required)
      .Bool("warnOnPersonalData", p.warn_on_personal_data)
      .OptStr("disclaimerText", p.disclaimer_text);
  w.Close();
  return out;
}

Result<ContextConfig> ContextConfigFromJson(std::string_view text) {
  CR_TRY_ASSIGN(json::object o, ParseObject(text, "config"));
  ContextConfig out;
  std::vector<FieldError> errors;
  auto names = [&](const char* key, std::set<std::string>& field) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr) return;
    if (!v->is_array() || v->as_array().size() > kMaxVocabulary) {
      errors.push_back({key, "must be an array of at most " + std::to_string(kMaxVocabulary) + " names"});
      return;
    }
    field.clear();
    for (size_t i = 0; i < v->as_array().size(); ++i) {
      const auto& n = v->as_array()[i];
      if (!n.is_string() || n.as_string().empty() || n.as_string().size() > kMaxName)
        errors.push_back({std::string(key) + "[" + std::to_string(i) + "]",
                          "must be a name of 1 to " + std::to_string(kMaxName) + " characters"});
      else
        field.insert(std::string(n.as_string()));
    }
  };
  for (const auto& [k, v] : o)
    if (k != "customerFacingChannels" && k != "internalChannels" && k != "actionRequiresReview")
      errors.push_back({std::string(k), "is not a context configuration field"});
  names("customerFacingChannels", out.customer_facing_channels);
  names("internalChannels", out.internal_channels);
  for (const auto& c : out.customer_facing_channels)
    if (out.internal_channels.count(c)) errors.push_back({"internalChannels", "'" + c + "' is also customer-facing"});
  if (const json::value* v = o.if_contains("actionRequiresReview")) {
    if (!v->is_object()) {
      errors.push_back({"actionRequiresReview", "must be an object of action name to review type"});
    } else {
      out.action_requires_review.clear();
      for (const auto& [action, type] : v->as_object()) {
        const ReviewStrength s =
            type.is_string() ? StrengthOfReviewType(std::string(type.as_string())) : ReviewStrength::kNone;
        if (s == ReviewStrength::kNone || action.empty() || action.size() > kMaxName)
          errors.push_back(
              {"actionRequiresReview." + std::string(action), "must be QuickReview, Attestation or FullReview"});
        else
          out.action_requires_review[std::string(action)] = s;
      }
    }
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return out;
}

std::string ContextConfigToJson(const ContextConfig& c) {
  json::array customer;
  for (const auto& n : c.customer_facing_channels) customer.push_back(json::value(n));
  json::array internal;
  for (const auto& n : c.internal_channels) internal.push_back(json::value(n));
  json::object actions;
  for (const auto& [a, s] : c.action_requires_review) actions[a] = ReviewTypeOfStrength(s);
  return json::serialize(json::object{{"customerFacingChannels", std::move(customer)},
                                      {"internalChannels", std::move(internal)},
                                      {"actionRequiresReview", std::move(actions)}});
}

void Classify(const ContextConfig& config, Context& c) {
  const bool customer = config.customer_facing_channels.count(c.channel) > 0;
  const bool internal = config.internal_channels.count(c.channel) > 0;
  c.channel_known = customer || internal;
  c.customer_facing = customer || !c.channel_known;
  const auto it = config.action_requires_review.find(c.action);
  c.action_requires = it == config.action_requires_review.end() ? ReviewStrength::kNone : it->second;
}

bool IsCustomerFacing(const ContextConfig& config, const std::string& channel) {
  Context c;
  c.channel = channel;
  Classify(config, c);
  return c.customer_facing;
}

void ClassifyForApp(const ContextConfig& config, const AppProfile& app, Context& c) {
  if (c.channel.empty()) c.channel = app.channel;
  Classify(config, c);
  if (c.channel == app.channel) return;
  c.customer_facing = c.customer_facing || IsCustomerFacing(config, app.channel);
  c.app_channel = app.channel;
}

bool Tighten(const PolicyOverride& app, Policy& p) {
  bool changed = false;
  auto lower = [&changed](const std::optional<bool>& allowed, bool& field) {
    if (allowed && !*allowed && field) field = false, changed = true;
  };
  auto raise = [&changed](const std::optional<bool>& required, bool& field) {
    if (required && *required && !field) field = true, changed = true;
  };
  lower(app.ai_retrievable, p.ai_retrievable);
  lower(app.customer_facing_allowed, p.customer_facing_allowed);
  lower(app.external_model_allowed, p.external_model_allowed);
  raise(app.internal_only, p.internal_only);
  raise(app.customer_facing_requires_review, p.customer_facing_requires_review);
  raise(app.citation_required, p.citation_required);
  raise(app.warn_on_personal_data, p.warn_on_personal_data);
  if (app.max_sensitivity_for_ai && *app.max_sensitivity_for_ai < p.max_sensitivity_for_ai)
    p.max_sensitivity_for_ai = *app.max_sensitivity_for_ai, changed = true;
  if (app.warn_before_expiry_days && *app.warn_before_expiry_days > p.warn_before_expiry_days)
    p.warn_before_expiry_days = *app.warn_before_expiry_days, changed = true;
  if (app.max_review_age_days && *app.max_review_age_days < p.max_review_age_days)
    p.max_review_age_days = *app.max_review_age_days, changed = true;
  // A disclaimer is an obligation: the app's is added to the source's.
  if (app.disclaimer_text && !app.disclaimer_text->empty()) {
    if (!p.disclaimer_text) {
      p.disclaimer_text = app.disclaimer_text;
      changed = true;
    } else if (p.disclaimer_text->find(*app.disclaimer_text) == std::string::npos) {
      *p.disclaimer_text += "\n\n" + *app.disclaimer_text;
      changed = true;
    }
  }
  return changed;
}

std::string AppJson(const AppProfile& app) {
  return json::serialize(json::object{{"id", app.id},
                                      {"name", app.name},
                                      {"ownerId", app.owner_id ? json::value(*app.owner_id) : json::value(nullptr)},
                                      {"channel", app.channel},
                                      {"risk", app.risk}});
}

}  // namespace credence::trust
