#include "identity/scim/user.h"
#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace credence::identity::scim {
namespace {

namespace json = boost::json;

constexpr size_t kMaxStringLength = 1024;  // well above any IdP's limits

const json::value* Member(const json::object& o, std::string_view lowercase) {
  for (const auto& m : o) {
    if (AsciiLower(m.key()) == lowercase) return &m.value();
  }
  return nullptr;
}

bool IsBlank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

// An optional string attribute; null is absent (Entra sends nulls).
std::optional<std::string> OptionalString(const json::object& o, std::string_view lowercase, const std::string& field,
                                          std::vector<FieldError>& errors) {
  const json::value* v = Member(o, lowercase);
  if (v == nullptr || v->is_null()) return std::nullopt;
  if (!v->is_string()) {
    errors.push_back({field, "must be a string"});
    return std::nullopt;
  }
  std::string s(v->as_string());
  if (s.size() > kMaxStringLength) {
    errors.push_back({field, "is too long"});
    return std::nullopt;
  }
  return s;
}

std::optional<bool> Boolean(const json::value& v) {
  if (v.is_bool()) return v.as_bool();
  if (v.is_string()) {
    const std::string s = AsciiLower(std::string_view(v.as_string()));
    if (s == "true") return true;
    if (s == "false") return false;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> ScimUser::SignInEmail() const {
  for (const auto& e : emails) {
    if (e.primary) return e.value;
  }
  if (!emails.empty()) return emails.front().value;
  if (user_name.find('@') != std::string::npos) return user_name;
  return std::nullopt;
}

std::string ScimUser::DisplayNameOrDefault() const {
  if (display_name && !IsBlank(*display_name)) return *display_name;
  std::string joined;
  if (given_name) joined = *given_name;
  if (family_name) joined += (joined.empty() ? "" : " ") + *family_name;
  if (!IsBlank(joined)) return joined;
  return user_name;
}

Result<ScimUser> ParseUser(const json::value& body) {
  if (!body.is_object()) return Error::InvalidArgument("invalidSyntax", "The body must be a SCIM User object.");
  const json::object& o = body.as_object();
  std::vector<FieldError> errors;
  ScimUser u;

  const auto user_name = OptionalString(o, "username", "userName", errors);
  if (!user_name || IsBlank(*user_name)) {
    if (errors.empty()) errors.push_back({"userName", "is required"});
  } else {
    u.user_name = *user_name;
  }
  u.external_id = OptionalString(o, "externalid", "externalId", errors);
  u.display_name = OptionalString(o, "displayname", "displayName", errors);

  if (const json::value* name = Member(o, "name"); name != nullptr && !name->is_null()) {
    if (!name->is_object()) {
      errors.push_back({"name", "must be an object"});
    } else {
      u.given_name = OptionalString(name->as_object(), "givenname", "name.givenName", errors);
      u.family_name = OptionalString(name->as_object(), "familyname", "name.familyName", errors);
      u.formatted_name = OptionalString(name->as_object(), "formatted", "name.formatted", errors);
    }
  }

  if (const json::value* active = Member(o, "active"); active != nullptr && !active->is_null()) {
    if (const auto b = Boolean(*active)) {
      u.active = *b;
    } else {
      errors.push_back({"active", "must be a boolean"});
    }
  }

  if (const json::value* emails = Member(o, "emails"); emails != nullptr && !emails->is_null()) {
    if (!emails->is_array()) {
      errors.push_back({"emails", "must be an array"});
    } else {
      int primaries = 0;
      for (size_t i = 0; i < emails->as_array().size(); ++i) {
        const json::value& e = emails->as_array()[i];
        const std::string field = "emails[" + std::to_string(i) + "]";
        if (!e.is_object()) {
          errors.push_back({field, "must be an object"});
          continue;
        }
        ScimEmail email;
        const auto value = OptionalString(e.as_object(), "value", field + ".value", errors);
        // An element whose value a PATCH removed is dropped, not an error.
        if (!value || IsBlank(*value)) continue;
        if (value->find('@') == std::string::npos) {
          errors.push_back({field + ".value", "must be an email address"});
          continue;
        }
        email.value = *value;
        email.type = OptionalString(e.as_object(), "type", field + ".type", errors).value_or("");
        if (const json::value* p = Member(e.as_object(), "primary"); p != nullptr && !p->is_null()) {
          const auto b = Boolean(*p);
          if (!b) errors.push_back({field + ".primary", "must be a boolean"});
          email.primary = b.value_or(false);
        }
        if (email.primary) ++primaries;
        u.emails.push_back(std::move(email));
      }
      // RFC 7643 section 2.4: at most one primary value.
      if (primaries > 1) errors.push_back({"emails", "at most one email may be primary"});
    }
  }

  if (!errors.empty()) {
    std::string detail = "Invalid User: " + errors.front().field + " " + errors.front().message + ".";
    return Error::InvalidArgument("invalidValue", std::move(detail), std::move(errors));
  }
  return u;
}

json::object UserToJson(const ScimUser& user, const ScimMeta& meta) {
  json::object o;
  o["schemas"] = json::array{kUserSchema};
  o["id"] = meta.id;
  if (user.external_id) o["externalId"] = *user.external_id;
  o["userName"] = user.user_name;
  json::object name;
  if (user.given_name) name["givenName"] = *user.given_name;
  if (user.family_name) name["familyName"] = *user.family_name;
  if (user.formatted_name) name["formatted"] = *user.formatted_name;
  if (!name.empty()) o["name"] = std::move(name);
  o["displayName"] = user.DisplayNameOrDefault();
  json::array emails;
  for (const auto& e : user.emails) {
    json::object j;
    j["value"] = e.value;
    if (!e.type.empty()) j["type"] = e.type;
    j["primary"] = e.primary;
    emails.push_back(std::move(j));
  }
  if (!emails.empty()) o["emails"] = std::move(emails);
  o["active"] = user.active;
  o["meta"] = MetaToJson("User", meta);
  return o;
}

json::object MetaToJson(std::string_view resource_type, const ScimMeta& meta) {
  json::object m;
  m["resourceType"] = resource_type;
  m["created"] = meta.created;
  m["lastModified"] = meta.last_modified;
  m["location"] = meta.location;
  if (!meta.version.empty()) m["version"] = meta.version;
  return m;
}

}  // namespace credence::identity::scim
