// SCIM 2.0 provisioning (RFC 7643/7644, docs/scim.md): /scim/v2/ for the
// identity providers (Okta, Entra ID), with a tenant key holding the scope
// scim and nothing else. Answers application/scim+json, errors in the SCIM
// error shape (http/scim_error.h), never problem+json. The rules are
// identity::ScimService's; this file reads requests and writes resources.
#include <boost/json.hpp>

#include <charconv>
#include <optional>
#include <string>

#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/router.h"
#include "http/scim_error.h"
#include "identity/scim/scim_service.h"

namespace credence::http {
namespace {

namespace json = boost::json;
using identity::ScimGroupRecord;
using identity::ScimUserRecord;

constexpr char kScimListResponseSchema[] = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
constexpr int64_t kScimMaxResults = 200;  // ScimServiceProviderConfig filter.maxResults
constexpr int64_t kScimDefaultCount = 100;

HttpResponse ScimJson(int status, const json::value& body, int64_t version = -1) {
  HttpResponse r;
  r.status = status;
  r.content_type = kScimContentType;
  r.body = json::serialize(body);
  if (version >= 0) r.WithHeader("ETag", identity::ScimETag(version));
  return r;
}

std::optional<std::string> ScimIfMatch(const HttpRequest& request) {
  const std::string_view v = request.Header("if-match");
  if (v.empty()) return std::nullopt;
  return std::string(v);
}

// An integer query parameter; absent: nullopt.
Result<std::optional<int64_t>> ScimIntParam(const HttpRequest& request, std::string_view name) {
  const auto text = request.QueryParam(name);
  if (!text) return std::optional<int64_t>();
  int64_t n = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), n);
  if (ec != std::errc() || end != text->data() + text->size() || text->empty())
    return Error::InvalidArgument("invalidValue", std::string(name) + " must be an integer.");
  return std::optional<int64_t>(n);
}

// RFC 7644 3.4.2.4: startIndex below 1 is 1; a negative count is 0.
Result<identity::ScimListRequest> ScimListRequestOf(const HttpRequest& request) {
  identity::ScimListRequest out;
  out.filter = request.QueryParam("filter");
  if (out.filter && out.filter->empty()) out.filter.reset();
  CR_TRY_ASSIGN(auto start, ScimIntParam(request, "startIndex"));
  CR_TRY_ASSIGN(auto count, ScimIntParam(request, "count"));
  out.start_index = std::max<int64_t>(1, start.value_or(1));
  out.count = std::clamp<int64_t>(count.value_or(kScimDefaultCount), 0, kScimMaxResults);
  if (const auto excluded = request.QueryParam("excludedAttributes"))
    out.with_members = excluded->find("members") == std::string::npos;
  return out;
}

identity::scim::ScimMeta ScimMetaOf(const std::string& base, std::string_view collection, const std::string& id,
                                    TimeMs created, TimeMs updated, int64_t version) {
  return {id, FormatTimestamp(created), FormatTimestamp(updated), base + "/" + std::string(collection) + "/" + id,
          identity::ScimETag(version)};
}

json::object ScimUserJson(const std::string& base, const ScimUserRecord& r) {
  return identity::scim::UserToJson(r.user, ScimMetaOf(base, "Users", r.id, r.created_at, r.updated_at, r.version));
}

json::object ScimGroupJson(const std::string& base, const ScimGroupRecord& r, bool with_members = true) {
  return identity::scim::GroupToJson(r.group, ScimMetaOf(base, "Groups", r.id, r.created_at, r.updated_at, r.version),
                                     with_members);
}

template <typename Record, typename ToJson>
json::object ScimListResponse(const identity::ScimPage<Record>& page, const identity::ScimListRequest& request,
                              ToJson&& to_json) {
  json::array resources;
  for (const auto& r : page.items) resources.push_back(to_json(r));
  return {{"schemas", json::array{kScimListResponseSchema}},
          {"totalResults", page.total},
          {"startIndex", request.start_index},
          {"itemsPerPage", static_cast<int64_t>(resources.size())},
          {"Resources", std::move(resources)}};
}

// --- Discovery (RFC 7644 section 4), the same for every tenant ---

json::object ScimServiceProviderConfig(const std::string& base) {
  return {
      {"schemas", json::array{"urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"}},
      {"patch", {{"supported", true}}},
      {"bulk", {{"supported", false}, {"maxOperations", 0}, {"maxPayloadSize", 0}}},
      {"filter", {{"supported", true}, {"maxResults", kScimMaxResults}}},
      {"changePassword", {{"supported", false}}},
      {"sort", {{"supported", false}}},
      {"etag", {{"supported", true}}},
      {"authenticationSchemes",
       json::array{{{"type", "oauthbearertoken"},
                    {"name", "SCIM key"},
                    {"description", "A tenant API key with the scope scim, sent as Authorization: Bearer."},
                    {"primary", true}}}},
      {"meta", {{"resourceType", "ServiceProviderConfig"}, {"location", base + "/ServiceProviderConfig"}}},
  };
}

json::object ScimResourceType(const std::string& base, std::string_view name, std::string_view endpoint,
                              std::string_view schema) {
  return {{"schemas", json::array{"urn:ietf:params:scim:schemas:core:2.0:ResourceType"}},
          {"id", name},
          {"name", name},
          {"endpoint", endpoint},
          {"schema", schema},
          {"meta", {{"resourceType", "ResourceType"}, {"location", base + "/ResourceTypes/" + std::string(name)}}}};
}

json::object ScimAttribute(std::string_view name, std::string_view type, bool required = false, bool multi = false,
                           std::string_view mutability = "readWrite", bool case_exact = false,
                           std::string_view uniqueness = "none") {
  return {{"name", name},
          {"type", type},
          {"multiValued", multi},
          {"required", required},
          {"caseExact", case_exact},
          {"mutability", mutability},
          {"returned", "default"},
          {"uniqueness", uniqueness}};
}

json::object WithScimSubAttributes(json::object attribute, json::array sub) {
  attribute["subAttributes"] = std::move(sub);
  return attribute;
}

json::object ScimSchemaResource(const std::string& base, std::string_view id, std::string_view name,
                                json::array attributes) {
  return {{"schemas", json::array{"urn:ietf:params:scim:schemas:core:2.0:Schema"}},
          {"id", id},
          {"name", name},
          {"attributes", std::move(attributes)},
          {"meta", {{"resourceType", "Schema"}, {"location", base + "/Schemas/" + std::string(id)}}}};
}

json::array ScimSchemas(const std::string& base) {
  json::array user_attributes{
      ScimAttribute("userName", "string", true, false, "readWrite", false, "server"),
      ScimAttribute("externalId", "string", false, false, "readWrite", true),
      WithScimSubAttributes(ScimAttribute("name", "complex"),
                            json::array{ScimAttribute("givenName", "string"), ScimAttribute("familyName", "string"),
                                        ScimAttribute("formatted", "string")}),
      ScimAttribute("displayName", "string"),
      WithScimSubAttributes(ScimAttribute("emails", "complex", false, true),
                            json::array{ScimAttribute("value", "string"), ScimAttribute("type", "string"),
                                        ScimAttribute("primary", "boolean")}),
      ScimAttribute("active", "boolean"),
  };
  json::array group_attributes{
      ScimAttribute("displayName", "string", true, false, "readWrite", false, "server"),
      ScimAttribute("externalId", "string", false, false, "readWrite", true),
      WithScimSubAttributes(ScimAttribute("members", "complex", false, true),
                            json::array{ScimAttribute("value", "string", false, false, "immutable", true),
                                        ScimAttribute("display", "string", false, false, "readOnly")}),
  };
  return json::array{
      ScimSchemaResource(base, identity::scim::kUserSchema, "User", std::move(user_attributes)),
      ScimSchemaResource(base, identity::scim::kGroupSchema, "Group", std::move(group_attributes)),
  };
}

json::object ScimListOf(json::array resources) {
  const auto n = static_cast<int64_t>(resources.size());
  return {{"schemas", json::array{kScimListResponseSchema}},
          {"totalResults", n},
          {"startIndex", 1},
          {"itemsPerPage", n},
          {"Resources", std::move(resources)}};
}

// --- Documentation of the routes ---

Schema ScimMetaSchema() {
  return Schema::Object({
      Required("resourceType", Schema::String()),
      Required("created", Schema::Timestamp()),
      Required("lastModified", Schema::Timestamp()),
      Required("location", Schema::String()),
      Optional("version", Schema::String().Describe("the weak ETag, W/\"<version>\"")),
  });
}

Schema ScimUserSchema() {
  return Schema::Object({
      Required("schemas", Schema::Array(Schema::String())),
      Required("id", Schema::String()),
      Optional("externalId", Schema::String()),
      Required("userName", Schema::String()),
      Optional("name",
               Schema::Object({Optional("givenName", Schema::String()), Optional("familyName", Schema::String()),
                               Optional("formatted", Schema::String())})),
      Required("displayName", Schema::String()),
      Optional("emails",
               Schema::Array(Schema::Object({Required("value", Schema::String()), Optional("type", Schema::String()),
                                             Required("primary", Schema::Boolean())}))),
      Required("active", Schema::Boolean()),
      Required("meta", ScimMetaSchema()),
  });
}

Schema ScimGroupSchema() {
  return Schema::Object({
      Required("schemas", Schema::Array(Schema::String())),
      Required("id", Schema::String()),
      Optional("externalId", Schema::String()),
      Required("displayName", Schema::String()),
      Optional("members", Schema::Array(Schema::Object(
                              {Required("value", Schema::String()), Optional("display", Schema::String())}))),
      Required("meta", ScimMetaSchema()),
  });
}

Schema ScimListSchema(Schema item) {
  return Schema::Object({
      Required("schemas", Schema::Array(Schema::String())),
      Required("totalResults", Schema::Integer()),
      Required("startIndex", Schema::Integer()),
      Required("itemsPerPage", Schema::Integer()),
      Required("Resources", Schema::Array(std::move(item))),
  });
}

// Every status a SCIM route answers besides success is a SCIM error; the
// server and the dispatcher may still answer 400/413/500/503 as problems
// before the route is reached.
RouteDoc ScimDoc(std::string summary, std::optional<Schema> response, std::vector<int> errors, int success = 200) {
  RouteDoc doc;
  doc.summary = std::move(summary);
  doc.tag = "scim";
  doc.response = std::move(response);
  doc.response_content_type = kScimContentType;
  doc.success_status = success;
  doc.errors = errors;
  doc.foreign_errors = {400, 401, 403, 404, 409, 412, 429, 500, 503};
  doc.foreign_error_schema = ScimErrorSchema();
  doc.foreign_error_content_type = kScimContentType;
  return doc;
}

RouteDoc WithScimBody(RouteDoc doc) {
  doc.request = Schema::Any().Describe("a SCIM resource or PatchOp (RFC 7643/7644)");
  doc.request_content_type = kScimContentType;
  return doc;
}

RouteDoc WithScimListQuery(RouteDoc doc) {
  doc.query = {
      {"filter", Schema::String(), false,
       "one comparison, e.g. userName eq \"jo@example.com\" (and/or/not are invalidFilter)"},
      {"startIndex", Schema::Integer(), false, "1-based; below 1 is 1"},
      {"count", Schema::Integer(), false, "at most 200 (default 100)"},
      {"excludedAttributes", Schema::String(), false, "members: groups without their members"},
      {"attributes", Schema::String(), false, "accepted and ignored: every attribute is answered"},
  };
  return doc;
}

// The answer for one resource: `status` with its ETag (and, for 201, its
// Location), or the SCIM error.
template <typename Record, typename ToJson>
HttpResponse ScimAnswer(const Result<Record>& record, ToJson&& to_json, int status = 200) {
  if (!record) return ScimErrorFor(record.error());
  const json::object body = to_json(*record);
  HttpResponse r = ScimJson(status, body, record->version);
  if (status == 201) r.WithHeader("Location", std::string(body.at("meta").at("location").as_string()));
  return r;
}

// Runs `call` with the request's JSON body, or answers the SCIM error.
template <typename Call>
HttpResponse WithScimJson(const RequestContext& ctx, Call&& call) {
  auto body = ParseJsonBody(ctx.request);
  if (!body) return ScimErrorFor(body.error());
  return call(*body);
}

HttpResponse ScimDeleted(const Status& deleted) {
  if (!deleted) return ScimErrorFor(deleted.error());
  HttpResponse r;
  r.status = 204;
  return r;
}

// A list: the request read from the query, `list` called with it.
template <typename List, typename ToJson>
HttpResponse ScimListAnswer(const RequestContext& ctx, List&& list, ToJson&& to_json) {
  auto request = ScimListRequestOf(ctx.request);
  if (!request) return ScimErrorFor(request.error());
  auto page = list(*request);
  if (!page) return ScimErrorFor(page.error());
  return ScimJson(200, ScimListResponse(*page, *request, [&](const auto& r) { return to_json(r, *request); }));
}

}  // namespace

void AddScimRoutes(Router& router, const Services& s) {
  const identity::ScimService& scim = s.scim;
  const std::string base = s.mcp_endpoint.public_url + "/scim/v2";
  const auto user_json = [base](const ScimUserRecord& r) { return ScimUserJson(base, r); };
  const auto group_json = [base](const ScimGroupRecord& r) { return ScimGroupJson(base, r); };

  router.Add({Method::kGet, "/scim/v2/ServiceProviderConfig", Auth::kScimKey, "",
              [base](RequestContext&) { return ScimJson(200, ScimServiceProviderConfig(base)); },
              ScimDoc("SCIM: what this service provider supports (RFC 7644 section 5).", Schema::Any(), {})});
  router.Add({Method::kGet, "/scim/v2/ResourceTypes", Auth::kScimKey, "",
              [base](RequestContext&) {
                return ScimJson(200, ScimListOf(json::array{
                                         ScimResourceType(base, "User", "/Users", identity::scim::kUserSchema),
                                         ScimResourceType(base, "Group", "/Groups", identity::scim::kGroupSchema)}));
              },
              ScimDoc("SCIM: the resource types, User and Group.", Schema::Any(), {})});
  router.Add({Method::kGet, "/scim/v2/Schemas", Auth::kScimKey, "",
              [base](RequestContext&) { return ScimJson(200, ScimListOf(ScimSchemas(base))); },
              ScimDoc("SCIM: the User and Group attributes supported.", Schema::Any(), {})});

  // --- Users ---
  router.Add({Method::kGet, "/scim/v2/Users", Auth::kScimKey, "",
              [&scim, user_json](RequestContext& ctx) {
                return ScimListAnswer(
                    ctx, [&](const identity::ScimListRequest& r) { return scim.ListUsers(ctx.Caller(), r); },
                    [&](const ScimUserRecord& r, const identity::ScimListRequest&) { return user_json(r); });
              },
              WithScimListQuery(
                  ScimDoc("SCIM: the provisioned users, filtered and paged.", ScimListSchema(ScimUserSchema()), {}))});
  router.Add({Method::kPost, "/scim/v2/Users", Auth::kScimKey, "",
              [&scim, user_json](RequestContext& ctx) {
                return WithScimJson(ctx, [&](const json::value& body) {
                  return ScimAnswer(scim.CreateUser(ctx.Caller(), body), user_json, 201);
                });
              },
              WithScimBody(ScimDoc("SCIM: provision a user (a member of the tenant; an existing person with the email "
                                   "joins it).",
                                   ScimUserSchema(), {409}, 201))});
  router.Add({Method::kGet, "/scim/v2/Users/{id}", Auth::kScimKey, "",
              [&scim, user_json](RequestContext& ctx) {
                return ScimAnswer(scim.GetUser(ctx.Caller(), ctx.PathParam("id")), user_json);
              },
              ScimDoc("SCIM: a provisioned user.", ScimUserSchema(), {})});
  router.Add({Method::kPut, "/scim/v2/Users/{id}", Auth::kScimKey, "",
              [&scim, user_json](RequestContext& ctx) {
                return WithScimJson(ctx, [&](const json::value& body) {
                  return ScimAnswer(scim.ReplaceUser(ctx.Caller(), ctx.PathParam("id"), body, ScimIfMatch(ctx.request)),
                                    user_json);
                });
              },
              WithScimBody(ScimDoc("SCIM: replace a user; active false ends their access and sessions at once.",
                                   ScimUserSchema(), {409, 412}))});
  router.Add({Method::kPatch, "/scim/v2/Users/{id}", Auth::kScimKey, "",
              [&scim, user_json](RequestContext& ctx) {
                return WithScimJson(ctx, [&](const json::value& body) {
                  return ScimAnswer(scim.PatchUser(ctx.Caller(), ctx.PathParam("id"), body, ScimIfMatch(ctx.request)),
                                    user_json);
                });
              },
              WithScimBody(ScimDoc("SCIM: change a user with a PatchOp (Okta's and Entra ID's forms).",
                                   ScimUserSchema(), {409, 412}))});
  router.Add({Method::kDelete, "/scim/v2/Users/{id}", Auth::kScimKey, "",
              [&scim](RequestContext& ctx) {
                return ScimDeleted(scim.DeleteUser(ctx.Caller(), ctx.PathParam("id"), ScimIfMatch(ctx.request)));
              },
              ScimDoc("SCIM: deprovision a user: their access, sessions and group memberships in the tenant end.",
                      std::nullopt, {412}, 204)});

  // --- Groups ---
  router.Add({Method::kGet, "/scim/v2/Groups", Auth::kScimKey, "",
              [&scim, base](RequestContext& ctx) {
                return ScimListAnswer(
                    ctx, [&](const identity::ScimListRequest& r) { return scim.ListGroups(ctx.Caller(), r); },
                    [&](const ScimGroupRecord& r, const identity::ScimListRequest& request) {
                      return ScimGroupJson(base, r, request.with_members);
                    });
              },
              WithScimListQuery(
                  ScimDoc("SCIM: the tenant's groups, filtered and paged.", ScimListSchema(ScimGroupSchema()), {}))});
  router.Add({Method::kPost, "/scim/v2/Groups", Auth::kScimKey, "",
              [&scim, group_json](RequestContext& ctx) {
                return WithScimJson(ctx, [&](const json::value& body) {
                  return ScimAnswer(scim.CreateGroup(ctx.Caller(), body), group_json, 201);
                });
              },
              WithScimBody(
                  ScimDoc("SCIM: create a group (a tenant group) with its members.", ScimGroupSchema(), {409}, 201))});
  router.Add({Method::kGet, "/scim/v2/Groups/{id}", Auth::kScimKey, "",
              [&scim, group_json](RequestContext& ctx) {
                return ScimAnswer(scim.GetGroup(ctx.Caller(), ctx.PathParam("id")), group_json);
              },
              ScimDoc("SCIM: a group with its members.", ScimGroupSchema(), {})});
  router.Add({Method::kPut, "/scim/v2/Groups/{id}", Auth::kScimKey, "",
              [&scim, group_json](RequestContext& ctx) {
                return WithScimJson(ctx, [&](const json::value& body) {
                  return ScimAnswer(
                      scim.ReplaceGroup(ctx.Caller(), ctx.PathParam("id"), body, ScimIfMatch(ctx.request)), group_json);
                });
              },
              WithScimBody(ScimDoc("SCIM: replace a group's name and member set.", ScimGroupSchema(), {409, 412}))});
  router.Add({Method::kPatch, "/scim/v2/Groups/{id}", Auth::kScimKey, "",
              [&scim, group_json](RequestContext& ctx) {
                return WithScimJson(ctx, [&](const json::value& body) {
                  return ScimAnswer(scim.PatchGroup(ctx.Caller(), ctx.PathParam("id"), body, ScimIfMatch(ctx.request)),
                                    group_json);
                });
              },
              WithScimBody(ScimDoc("SCIM: rename a group or add and remove members (Okta's group push, Entra ID's "
                                   "Add/Remove).",
                                   ScimGroupSchema(), {409, 412}))});
  router.Add({Method::kDelete, "/scim/v2/Groups/{id}", Auth::kScimKey, "",
              [&scim](RequestContext& ctx) {
                return ScimDeleted(scim.DeleteGroup(ctx.Caller(), ctx.PathParam("id"), ScimIfMatch(ctx.request)));
              },
              ScimDoc("SCIM: delete a group; what was granted to it goes with it.", std::nullopt, {412}, 204)});
}

}  // namespace credence::http
