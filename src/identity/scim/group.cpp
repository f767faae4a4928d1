#include "identity/scim/group.h"

#include <algorithm>
#include <utility>

#include "core/text.h"
#include "identity/group_service.h"
#include "identity/scim/filter.h"
#include "identity/scim/patch.h"
#include "identity/scim/user.h"

namespace credence::identity::scim {
namespace {

namespace json = boost::json;

constexpr size_t kMaxGroupIdLength = 200;

Error GroupSyntaxError(std::string detail) { return Error::InvalidArgument("invalidSyntax", std::move(detail)); }
Error GroupValueError(std::string detail) { return Error::InvalidArgument("invalidValue", std::move(detail)); }
Error GroupPathError(std::string detail) { return Error::InvalidArgument("invalidPath", std::move(detail)); }

const json::value* MemberOf(const json::object& o, std::string_view lowercase) {
  for (const auto& m : o)
    if (AsciiLower(m.key()) == lowercase) return &m.value();
  return nullptr;
}

// The member ids of a `members` value: an array of {"value": id} objects,
// or one such object (Okta sends an array, some clients one object).
Result<std::vector<std::string>> MemberIds(const json::value& value) {
  std::vector<std::string> ids;
  if (value.is_null()) return ids;
  const json::array single{value};
  const json::array& elements = value.is_array() ? value.as_array() : single;
  for (const auto& e : elements) {
    const json::value* id = e.is_object() ? MemberOf(e.as_object(), "value") : nullptr;
    if (id == nullptr || !id->is_string() || id->as_string().empty() || id->as_string().size() > kMaxGroupIdLength)
      return GroupValueError("each member must be an object with a 'value' (the user's id)");
    ids.emplace_back(id->as_string());
  }
  return ids;
}

void AddMembers(ScimGroup& group, const std::vector<std::string>& ids) {
  for (const auto& id : ids) {
    const bool present = std::any_of(group.members.begin(), group.members.end(),
                                     [&](const ScimGroupMember& m) { return m.value == id; });
    if (!present) group.members.push_back({id, ""});
  }
}

void RemoveMembers(ScimGroup& group, const std::vector<std::string>& ids) {
  std::erase_if(group.members,
                [&](const ScimGroupMember& m) { return std::find(ids.begin(), ids.end(), m.value) != ids.end(); });
}

// One operation on `members`: `path` is the parsed path (attribute
// "members"), `value` the operation's value or nullptr.
Status ApplyMemberOp(ScimGroup& group, std::string_view op, const PatchPath& path, const json::value* value) {
  if (!path.sub_attribute.empty()) return GroupPathError("members can only be changed whole or by value");
  if (path.filter) {
    // Okta: {"op":"remove","path":"members[value eq \"id\"]"}.
    if (op != "remove") return GroupPathError("a member filter is supported only with remove");
    if (path.filter->attribute != "value" || path.filter->op != CompareOp::kEq ||
        path.filter->value.kind != CompareValue::Kind::kString)
      return GroupPathError("members can be selected only by 'value eq \"id\"'");
    RemoveMembers(group, {path.filter->value.text});
    return Ok();
  }
  if (op == "remove") {
    // Entra: {"op":"Remove","path":"members","value":[{"value":"id"}]}
    // removes those members; without a value, every member (RFC 7644).
    if (value == nullptr || value->is_null()) {
      group.members.clear();
      return Ok();
    }
    CR_TRY_ASSIGN(auto ids, MemberIds(*value));
    RemoveMembers(group, ids);
    return Ok();
  }
  if (value == nullptr) return GroupValueError("'" + std::string(op) + "' of members needs a value");
  CR_TRY_ASSIGN(auto ids, MemberIds(*value));
  if (op == "replace") group.members.clear();
  AddMembers(group, ids);
  return Ok();
}

bool ListsPatchOpSchema(const json::object& body) {
  const json::value* schemas = body.if_contains("schemas");
  if (schemas == nullptr || !schemas->is_array()) return false;
  return std::any_of(schemas->as_array().begin(), schemas->as_array().end(), [](const json::value& s) {
    return s.is_string() && std::string_view(s.as_string()) == kPatchOpSchema;
  });
}

}  // namespace

Result<ScimGroup> ParseGroup(const json::value& body) {
  if (!body.is_object()) return GroupSyntaxError("The body must be a SCIM Group object.");
  const json::object& o = body.as_object();
  ScimGroup g;
  const json::value* name = MemberOf(o, "displayname");
  if (name == nullptr || !name->is_string() || Trim(std::string_view(name->as_string())).empty())
    return Error::InvalidArgument("invalidValue", "Invalid Group: displayName is required.",
                                  {{"displayName", "is required"}});
  g.display_name = Trim(std::string_view(name->as_string()));
  if (Utf8Length(g.display_name) > kMaxGroupNameLength)
    return Error::InvalidArgument(
        "invalidValue", "Invalid Group: displayName is too long.",
        {{"displayName", "must be at most " + std::to_string(kMaxGroupNameLength) + " characters"}});
  if (const json::value* external = MemberOf(o, "externalid"); external != nullptr && !external->is_null()) {
    if (!external->is_string() || external->as_string().size() > kMaxGroupIdLength)
      return Error::InvalidArgument("invalidValue", "Invalid Group: externalId must be a short string.",
                                    {{"externalId", "must be a string"}});
    g.external_id = std::string(external->as_string());
  }
  if (const json::value* members = MemberOf(o, "members"); members != nullptr) {
    CR_TRY_ASSIGN(auto ids, MemberIds(*members));
    AddMembers(g, ids);
  }
  return g;
}

Status ApplyGroupPatch(ScimGroup& group, const json::value& body) {
  if (!body.is_object()) return GroupSyntaxError("the body must be a PatchOp object");
  const json::object& o = body.as_object();
  if (!ListsPatchOpSchema(o)) return GroupSyntaxError("'schemas' must list " + std::string(kPatchOpSchema));
  const json::value* operations = MemberOf(o, "operations");
  if (operations == nullptr || !operations->is_array() || operations->as_array().empty())
    return GroupSyntaxError("'Operations' must be a non-empty array");

  // Everything but members is patched as the generic applier does it, on
  // the group's other attributes, in the operations' order.
  json::object attributes;
  attributes["displayName"] = group.display_name;
  if (group.external_id) attributes["externalId"] = *group.external_id;
  for (const auto& operation : operations->as_array()) {
    if (!operation.is_object()) return GroupSyntaxError("each operation must be an object");
    const json::value* op_value = operation.as_object().if_contains("op");
    if (op_value == nullptr || !op_value->is_string()) return GroupSyntaxError("an operation needs 'op'");
    const std::string op = AsciiLower(std::string_view(op_value->as_string()));
    const json::value* path_value = operation.as_object().if_contains("path");
    const json::value* value = operation.as_object().if_contains("value");
    json::object rest = operation.as_object();
    if (path_value != nullptr && path_value->is_string() && !path_value->as_string().empty()) {
      CR_TRY_ASSIGN(PatchPath path, ParsePatchPath(std::string_view(path_value->as_string())));
      if (path.attribute == "members") {
        if (op != "add" && op != "replace" && op != "remove")
          return GroupSyntaxError("unknown op '" + std::string(op_value->as_string()) + "'");
        CR_TRY(ApplyMemberOp(group, op, path, value));
        continue;
      }
    } else if (value != nullptr && value->is_object()) {
      // A value object without a path may name members beside other
      // attributes (and Okta's rename sends the group's id, ignored).
      json::object others;
      for (const auto& m : value->as_object()) {
        const std::string key = AsciiLower(m.key());
        if (key == "members") {
          if (op != "add" && op != "replace") return GroupSyntaxError("members in a value object need add or replace");
          CR_TRY(ApplyMemberOp(group, op, PatchPath{"members", std::nullopt, ""}, &m.value()));
        } else if (key != "id" && key != "schemas" && key != "meta") {
          others[m.key()] = m.value();
        }
      }
      if (others.empty()) continue;
      rest["value"] = std::move(others);
    }
    const json::object one{{"schemas", json::array{kPatchOpSchema}}, {"Operations", json::array{std::move(rest)}}};
    CR_TRY(ApplyPatch(attributes, one));
  }
  CR_TRY_ASSIGN(ScimGroup patched, ParseGroup(attributes));
  group.display_name = std::move(patched.display_name);
  group.external_id = std::move(patched.external_id);
  return Ok();
}

json::object GroupToJson(const ScimGroup& group, const ScimMeta& meta, bool with_members) {
  json::object o;
  o["schemas"] = json::array{kGroupSchema};
  o["id"] = meta.id;
  if (group.external_id) o["externalId"] = *group.external_id;
  o["displayName"] = group.display_name;
  if (with_members) {
    json::array members;
    for (const auto& m : group.members) {
      json::object j{{"value", m.value}};
      if (!m.display.empty()) j["display"] = m.display;
      members.push_back(std::move(j));
    }
    o["members"] = std::move(members);
  }
  o["meta"] = MetaToJson("Group", meta);
  return o;
}

}  // namespace credence::identity::scim
