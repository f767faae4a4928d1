#include "identity/scim/patch.h"
#include "core/text.h"

#include <array>
#include <cctype>
#include <string>
#include <utility>

#include "identity/scim/filter.h"

namespace credence::identity::scim {
namespace {

namespace json = boost::json;

// The canonical spelling of the attributes Credence stores, so a patched
// resource keeps one key per attribute whatever case the client used.
std::string Canonical(std::string_view lowercase) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 14> kNames{{
      {"username", "userName"},
      {"externalid", "externalId"},
      {"displayname", "displayName"},
      {"active", "active"},
      {"name", "name"},
      {"givenname", "givenName"},
      {"familyname", "familyName"},
      {"formatted", "formatted"},
      {"emails", "emails"},
      {"value", "value"},
      {"type", "type"},
      {"primary", "primary"},
      {"members", "members"},
      {"display", "display"},
  }};
  for (const auto& [lower, canonical] : kNames) {
    if (lower == lowercase) return std::string(canonical);
  }
  return std::string(lowercase);
}

Error Syntax(std::string detail) { return Error::InvalidArgument("invalidSyntax", std::move(detail)); }
Error InvalidValue(std::string detail) { return Error::InvalidArgument("invalidValue", std::move(detail)); }
Error NoTarget(std::string detail) { return Error::InvalidArgument("noTarget", std::move(detail)); }

// The key in `object` naming `lowercase` in any case, or nullptr.
json::value* Find(json::object& object, std::string_view lowercase) {
  for (auto& member : object) {
    if (AsciiLower(member.key()) == lowercase) return &member.value();
  }
  return nullptr;
}

void Erase(json::object& object, std::string_view lowercase) {
  for (auto it = object.begin(); it != object.end();) {
    if (AsciiLower(it->key()) == lowercase) {
      it = object.erase(it);
    } else {
      ++it;
    }
  }
}

// Entra's "True"/"False" for boolean attributes; other values unchanged.
Result<json::value> Normalize(std::string_view lowercase_name, json::value value) {
  if (IsBooleanAttribute(lowercase_name) && value.is_string()) {
    const std::string text = AsciiLower(std::string_view(value.as_string()));
    if (text == "true") return json::value(true);
    if (text == "false") return json::value(false);
    return InvalidValue("'" + std::string(lowercase_name) + "' must be a boolean");
  }
  return value;
}

Status Set(json::object& target, std::string_view lowercase_name, json::value value) {
  CR_TRY_ASSIGN(json::value normalized, Normalize(lowercase_name, std::move(value)));
  Erase(target, lowercase_name);
  target[Canonical(lowercase_name)] = std::move(normalized);
  return Ok();
}

// Sets `attribute[.sub]`, creating the complex attribute when absent.
Status SetPath(json::object& resource, const std::string& attribute, const std::string& sub, json::value value,
               bool merge_complex) {
  if (sub.empty()) {
    json::value* existing = Find(resource, attribute);
    // add with a complex value merges into the existing complex attribute
    // (RFC 7644 3.5.2.1); add to a multi-valued attribute appends.
    if (merge_complex && existing != nullptr && existing->is_object() && value.is_object()) {
      for (auto& member : value.as_object()) {
        CR_TRY(Set(existing->as_object(), AsciiLower(member.key()), member.value()));
      }
      return Ok();
    }
    if (merge_complex && existing != nullptr && existing->is_array()) {
      if (value.is_array()) {
        for (auto& v : value.as_array()) existing->as_array().push_back(v);
      } else {
        existing->as_array().push_back(std::move(value));
      }
      return Ok();
    }
    return Set(resource, attribute, std::move(value));
  }
  json::value* parent = Find(resource, attribute);
  if (parent == nullptr || parent->is_null()) {
    Erase(resource, attribute);
    parent = &(resource[Canonical(attribute)] = json::object());
  }
  if (!parent->is_object()) {
    return Error::InvalidArgument("invalidPath", "'" + attribute + "' has no sub-attribute '" + sub + "'");
  }
  return Set(parent->as_object(), sub, std::move(value));
}

bool ElementMatches(const json::value& element, const Filter& filter) {
  return element.is_object() && MatchesJson(element, filter);
}

// An operation whose path selects elements of a multi-valued attribute.
Status ApplyFiltered(json::object& resource, std::string_view op, const PatchPath& path, const json::value* value) {
  json::value* attribute = Find(resource, path.attribute);
  if (attribute != nullptr && !attribute->is_array()) {
    return Error::InvalidArgument("invalidPath", "'" + path.attribute + "' is not multi-valued");
  }
  if (op == "remove") {
    if (attribute == nullptr) return NoTarget("no '" + path.attribute + "' matches the filter");
    json::array& elements = attribute->as_array();
    bool matched = false;
    for (auto it = elements.begin(); it != elements.end();) {
      if (!ElementMatches(*it, *path.filter)) {
        ++it;
        continue;
      }
      matched = true;
      if (path.sub_attribute.empty()) {
        it = elements.erase(it);
      } else {
        Erase(it->as_object(), path.sub_attribute);
        ++it;
      }
    }
    if (!matched) return NoTarget("no '" + path.attribute + "' matches the filter");
    return Ok();
  }
  if (value == nullptr) return InvalidValue("'" + std::string(op) + "' needs a value");
  if (attribute == nullptr) attribute = &(resource[Canonical(path.attribute)] = json::array());
  json::array& elements = attribute->as_array();
  bool matched = false;
  for (auto& element : elements) {
    if (!ElementMatches(element, *path.filter)) continue;
    matched = true;
    if (path.sub_attribute.empty()) {
      if (!value->is_object()) return InvalidValue("'" + path.attribute + "' elements are objects");
      for (const auto& member : value->as_object()) {
        CR_TRY(Set(element.as_object(), AsciiLower(member.key()), member.value()));
      }
    } else {
      CR_TRY(Set(element.as_object(), path.sub_attribute, *value));
    }
  }
  if (matched) return Ok();
  // Entra replaces emails[type eq "work"].value on users that have no work
  // email yet; RFC 7644 would answer noTarget, which Entra reports as a
  // failed sync. An equality filter says exactly what the new element is, so
  // it is created; any other filter has no target.
  if (path.filter->op != CompareOp::kEq || path.filter->attribute.find('.') != std::string::npos) {
    return NoTarget("no '" + path.attribute + "' matches the filter");
  }
  json::object created;
  const CompareValue& key = path.filter->value;
  switch (key.kind) {
    case CompareValue::Kind::kString:
      created[Canonical(path.filter->attribute)] = key.text;
      break;
    case CompareValue::Kind::kBoolean:
      created[Canonical(path.filter->attribute)] = key.boolean;
      break;
    default:
      return NoTarget("no '" + path.attribute + "' matches the filter");
  }
  if (path.sub_attribute.empty()) {
    if (!value->is_object()) return InvalidValue("'" + path.attribute + "' elements are objects");
    for (const auto& member : value->as_object()) {
      CR_TRY(Set(created, AsciiLower(member.key()), member.value()));
    }
  } else {
    CR_TRY(Set(created, path.sub_attribute, *value));
  }
  elements.push_back(std::move(created));
  return Ok();
}

Status ApplyOne(json::object& resource, const json::value& operation) {
  if (!operation.is_object()) return Syntax("each operation must be an object");
  const json::object& o = operation.as_object();
  const json::value* op_value = o.if_contains("op");
  if (op_value == nullptr || !op_value->is_string()) return Syntax("an operation needs 'op'");
  // Entra sends "Add", "Replace", "Remove".
  const std::string op = AsciiLower(std::string_view(op_value->as_string()));
  if (op != "add" && op != "replace" && op != "remove") {
    return Syntax("unknown op '" + std::string(op_value->as_string()) + "'");
  }
  const json::value* path_value = o.if_contains("path");
  const json::value* value = o.if_contains("value");
  if (path_value != nullptr && !path_value->is_string()) return Syntax("'path' must be a string");
  const bool has_path = path_value != nullptr && !path_value->as_string().empty();

  if (!has_path) {
    if (op == "remove") return NoTarget("remove needs a path");
    if (value == nullptr || !value->is_object()) {
      return InvalidValue("an operation without a path needs an object value");
    }
    // Keys may themselves be paths (Entra: {"name.givenName": "Jo"}).
    for (const auto& member : value->as_object()) {
      CR_TRY_ASSIGN(PatchPath path, ParsePatchPath(member.key()));
      if (path.filter) return Error::InvalidArgument("invalidPath", "filters belong in 'path'");
      CR_TRY(SetPath(resource, path.attribute, path.sub_attribute, member.value(),
                     /*merge_complex=*/true));
    }
    return Ok();
  }

  CR_TRY_ASSIGN(PatchPath path, ParsePatchPath(std::string_view(path_value->as_string())));
  if (path.filter) return ApplyFiltered(resource, op, path, value);
  if (op == "remove") {
    if (path.sub_attribute.empty()) {
      Erase(resource, path.attribute);
    } else if (json::value* parent = Find(resource, path.attribute); parent != nullptr && parent->is_object()) {
      Erase(parent->as_object(), path.sub_attribute);
    }
    return Ok();
  }
  if (value == nullptr) return InvalidValue("'" + op + "' needs a value");
  return SetPath(resource, path.attribute, path.sub_attribute, *value,
                 /*merge_complex=*/op == "add");
}

}  // namespace

bool IsBooleanAttribute(std::string_view lowercase_name) {
  return lowercase_name == "active" || lowercase_name == "primary";
}

Status ApplyPatch(json::object& resource, const json::value& body) {
  if (!body.is_object()) return Syntax("the body must be a PatchOp object");
  const json::object& o = body.as_object();
  // Okta and Entra both send the PatchOp schema; a body without it is most
  // likely a PUT sent to the wrong method, so it is refused.
  const json::value* schemas = o.if_contains("schemas");
  bool is_patch = false;
  if (schemas != nullptr && schemas->is_array()) {
    for (const auto& s : schemas->as_array()) {
      if (s.is_string() && std::string_view(s.as_string()) == kPatchOpSchema) is_patch = true;
    }
  }
  if (!is_patch) return Syntax("'schemas' must list " + std::string(kPatchOpSchema));
  const json::value* operations = nullptr;
  for (const auto& member : o) {
    if (AsciiLower(member.key()) == "operations") operations = &member.value();
  }
  if (operations == nullptr || !operations->is_array() || operations->as_array().empty()) {
    return Syntax("'Operations' must be a non-empty array");
  }
  for (const auto& operation : operations->as_array()) CR_TRY(ApplyOne(resource, operation));
  return Ok();
}

}  // namespace credence::identity::scim
