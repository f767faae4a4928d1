// The AI application registry (/trust-admin/apps/...): apps, their
// app-bound keys and per-app stats, for tenant admins on a signed-in
// session. docs/apps.md; the keys' authentication is docs/credentials.md.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "core/ids.h"
#include "http/handlers/retention_json.h"
#include "http/handlers/routes.h"
#include "http/handlers/trust_json.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "identity/api_key_service.h"
#include "trust/admin_service.h"
#include "trust/app_registry.h"

namespace credence::http {
namespace json = boost::json;

namespace {


Schema ScopeSchema() { return Schema::String().Enum(identity::MachineScopes()); }

// An app's own rate limit (docs/apps.md, "Rate limit").
Schema RateLimitSchema() {
  return Schema::Object({
             Required("requestsPerSecond", Schema::Number().Describe("0.01 to 100000; the bucket's refill rate")),
             Required("burst", Schema::Integer().Min(1).Max(trust::kMaxAppBurst).Describe(
                                   "1 to 1000000; requests the app's keys may send at once")),
         })
      .Nullable()
      .Describe("the app's own limit on its keys' requests together, on top of each key's own limit (429 "
                "rate_limited, policy \"app\"); null: none");
}

json::value RateLimitJson(const std::optional<trust::AppRateLimit>& limit) {
  if (!limit) return nullptr;
  return json::object{{"requestsPerSecond", limit->requests_per_second}, {"burst", limit->burst}};
}

// The rateLimit member: absent (nullopt), null (a nullopt inside), or a
// limit. The schema checked the types; the registry checks the ranges.
std::optional<std::optional<trust::AppRateLimit>> RateLimitOf(const json::object& body) {
  const json::value* v = body.if_contains("rateLimit");
  if (v == nullptr) return std::nullopt;
  if (!v->is_object()) return std::optional<trust::AppRateLimit>();
  const json::object& o = v->get_object();
  trust::AppRateLimit limit;
  boost::system::error_code ec;
  if (const auto* rps = o.if_contains("requestsPerSecond")) limit.requests_per_second = rps->to_number<double>(ec);
  limit.burst = GetInt(o, "burst");
  return std::optional<trust::AppRateLimit>(limit);
}

Schema AppSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("name", Schema::String()),
      Required("description", Schema::String().Describe("\"\" when none")),
      Required("channel", Schema::String().Describe("where the app's answers are used (the context vocabulary's "
                                                    "channel names)")),
      Required("customerFacing",
               Schema::Boolean().Describe("how the tenant's context vocabulary classifies the channel now, as "
                                          "evaluation does: true for customer-facing channels and for channels "
                                          "in neither list")),
      Required("risk", Schema::String().Enum(trust::AppRisks()).Describe("declared by the owner (docs/apps.md)")),
      Required("defaultPolicy", PolicyOverrideSchema().Describe("the app's policy override; {} when none")),
      Required("ownerUserId", Schema::Uuid().Nullable()),
      Required("createdBy", Schema::Uuid().Nullable().Describe("the admin who registered the app")),
      Required("status", Schema::String().Enum({trust::kAppActive, trust::kAppArchived})),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
      Required("archivedAt", Schema::Timestamp().Nullable()),
      Required("archivedBy", Schema::Uuid().Nullable()),
      Required("rateLimit", RateLimitSchema()),
  });
}

json::object AppJson(const trust::App& a) {
  return {{"id", a.id},
          {"name", a.name},
          {"description", a.description},
          {"channel", a.channel},
          {"customerFacing", a.customer_facing},
          {"risk", a.risk},
          {"defaultPolicy", json::parse(trust::PolicyOverrideToJson(a.default_policy))},
          {"ownerUserId", OptJson(a.owner_id)},
          {"createdBy", OptJson(a.created_by)},
          {"status", a.status()},
          {"createdAt", FormatTimestamp(a.created_at)},
          {"updatedAt", FormatTimestamp(a.updated_at)},
          {"archivedAt", OptTime(a.archived_at)},
          {"archivedBy", OptJson(a.archived_by)},
          {"rateLimit", RateLimitJson(a.rate_limit)}};
}

std::vector<Property> KeyProperties() {
  return {
      Required("id", Schema::Uuid().Describe("stays the same when the key is regenerated")),
      Required("appId", Schema::Uuid()),
      Required("name", Schema::String()),
      Required("clientId", Schema::String().Describe("the client_id at /connect/token; stays when regenerated")),
      Required("secretPrefix", Schema::String().Describe("the first 15 characters of the current secret, to "
                                                         "tell secrets apart (not a credential)")),
      Required("scopes", Schema::Array(ScopeSchema())),
      Required("expiresAt", Schema::Timestamp()),
      Required("status",
               Schema::String()
                   .Enum({identity::kKeyEnabled, identity::kKeyDisabled, identity::kKeyExpired, identity::kKeyRevoked})
                   .Describe("revoked, else expired, else disabled, else enabled")),
      Required("createdBy", Schema::Uuid()),
      Required("createdAt", Schema::Timestamp()),
      Required("history", Schema::Array(Schema::Object({
                                            Required("event", Schema::String().Enum({"created", "disabled", "enabled",
                                                                                     "regenerated", "revoked"})),
                                            Required("at", Schema::Timestamp()),
                                            Required("byUserId", Schema::Uuid().Nullable()),
                                        }))
                              .Describe("oldest first")),
  };
}

Schema KeySchema() { return Schema::Object(KeyProperties()); }

Schema KeyWithSecretSchema() {
  auto properties = KeyProperties();
  properties.push_back(Required(
      "clientSecret", Schema::String().Describe("crd_sk_...; shown only in this answer. Send it as Authorization: "
                                                "Bearer, as X-Api-Key, or as client_secret at /connect/token")));
  return Schema::Object(std::move(properties));
}

json::object KeyJson(const identity::AppKey& a) {
  const identity::ApiKey& k = a.key;
  json::array history;
  for (const auto& e : a.history)
    history.push_back({{"event", e.event}, {"at", FormatTimestamp(e.at)}, {"byUserId", OptJson(e.by_user_id)}});
  return {{"id", k.id},
          {"appId", a.app_id},
          {"name", k.name},
          {"clientId", k.client_id},
          {"secretPrefix", k.secret_prefix},
          {"scopes", ToJsonArray(k.scopes)},
          {"expiresAt", OptTime(k.expires_at)},
          {"status", a.status},
          {"createdBy", k.created_by},
          {"createdAt", FormatTimestamp(k.created_at)},
          {"history", std::move(history)}};
}

// The secret travels once; nothing may keep the answer.
HttpResponse KeyWithSecret(int status, const identity::CreatedAppKey& created) {
  json::object out = KeyJson(created.key);
  out["clientSecret"] = created.secret;
  HttpResponse r = JsonResponse(status, out);
  r.WithHeader("Cache-Control", "no-store");
  return r;
}

Schema StatsSchema() {
  auto count = [] { return Schema::Integer().Min(0); };
  return Schema::Object({
      Required("appId", Schema::Uuid()),
      Required("from", Schema::String().Describe("YYYY-MM-DD (UTC), inclusive")),
      Required("to", Schema::String().Describe("YYYY-MM-DD (UTC), inclusive")),
      Required("decisions", Schema::Object({Required("total", count()), Required("allow", count()),
                                            Required("warn", count()), Required("block", count())})
                                .Describe("evaluate and filter-sources calls made with the app's keys, by "
                                          "overall decision")),
      Required("sourceDecisions",
               Schema::Object({Required("total", count()), Required("allowed", count()), Required("warned", count()),
                               Required("blocked", count()), Required("escalated", count())})
                   .Describe("the per-source counts of those decisions, summed")),
      Required("keys", Schema::Array(Schema::Object({
                                         Required("keyId", Schema::Uuid()),
                                         Required("name", Schema::String()),
                                         Required("requests", count().Describe("decisions made with the key")),
                                         Required("lastRequestAt", Schema::Timestamp().Nullable()),
                                     }))
                           .Describe("every key of the app, oldest first, also those without requests")),
      Required("archived", ArchivedWindowSchema()),
  });
}

json::object StatsJson(const trust::AppStats& s) {
  json::array keys;
  for (const auto& k : s.keys)
    keys.push_back({{"keyId", k.key_id},
                    {"name", k.name},
                    {"requests", k.requests},
                    {"lastRequestAt", OptTime(k.last_request_at)}});
  const auto& d = s.decisions;
  const auto& sd = s.source_decisions;
  return {{"appId", s.app_id},
          {"from", s.window.from},
          {"to", s.window.to},
          {"decisions", {{"total", d.total}, {"allow", d.allow}, {"warn", d.warn}, {"block", d.block}}},
          {"sourceDecisions",
           {{"total", sd.total},
            {"allowed", sd.allowed},
            {"warned", sd.warned},
            {"blocked", sd.blocked},
            {"escalated", sd.escalated}}},
          {"keys", std::move(keys)}};
}

// The defaultPolicy member, through the trust plane's codec (which refuses
// unknown fields); its field errors are named under defaultPolicy.
Result<std::optional<trust::PolicyOverride>> DefaultPolicyOf(const json::object& body) {
  const json::value* v = body.if_contains("defaultPolicy");
  if (v == nullptr || v->is_null()) return std::optional<trust::PolicyOverride>();
  auto policy = trust::PolicyOverrideFromRequest(json::serialize(*v));
  if (!policy) {
    Error e = std::move(policy).error();
    for (auto& f : e.fields) f.field = "defaultPolicy." + f.field;
    return e;
  }
  return std::optional<trust::PolicyOverride>(std::move(*policy));
}

std::optional<std::string> OwnerOf(const json::object& body) {
  auto owner = GetOptString(body, "ownerUserId");
  if (owner && IsUuid(*owner)) return CanonicalUuid(*owner);
  return owner;
}

std::string AppId(const RequestContext& ctx) { return CanonicalUuid(ctx.PathParam("id")); }
std::string KeyId(const RequestContext& ctx) { return CanonicalUuid(ctx.PathParam("keyId")); }

}  // namespace

void AddAppRoutes(Router& router, const Services& s) {
  const trust::AppRegistry& apps = s.apps;

  auto name = [] { return Schema::String().MinLength(1).MaxLength(static_cast<int64_t>(trust::kMaxAppNameLength)); };
  auto channel = [] {
    return Schema::String().MinLength(1).MaxLength(static_cast<int64_t>(trust::kMaxAppChannelLength));
  };
  auto description = [] { return Schema::String().MaxLength(static_cast<int64_t>(trust::kMaxAppDescriptionLength)); };
  const std::vector<std::pair<std::string, Schema>> app_param = {{"id", Schema::Uuid()}};
  const std::vector<std::pair<std::string, Schema>> key_params = {{"id", Schema::Uuid()}, {"keyId", Schema::Uuid()}};

  // ---- Apps.

  router.Add({Method::kGet,
              "/trust-admin/apps",
              Auth::kTenantAdmin,
              "",
              [&apps](RequestContext& ctx) {
                const auto archived = ctx.request.QueryParam("includeArchived");
                if (archived && *archived != "true" && *archived != "false")
                  return Problem(ctx, Error::Validation({{"includeArchived", "must be true or false"}}));
                auto list = apps.List(ctx.Caller(), archived && *archived == "true");
                if (!list) return Problem(ctx, list.error());
                json::array items;
                for (const auto& a : *list) items.push_back(AppJson(a));
                return JsonResponse(200, json::object{{"items", std::move(items)}});
              },
              {.summary = "The tenant's registered AI applications (tenant admins): active ones by name, then, with "
                          "includeArchived=true, archived ones.",
               .tag = "apps",
               .response = Schema::Object({Required("items", Schema::Array(AppSchema()))}),
               .query = {{"includeArchived", Schema::Boolean(), false, "also archived apps (default false)"}},
               .errors = {400, 403}}});

  static const Schema kRegisterRequest = Schema::Object({
      Required("name", name().Describe("trimmed; unique among the tenant's active apps (409 app_name_taken)")),
      Required("channel", channel().Describe("trimmed; a channel of the context vocabulary, or any other name "
                                             "(then customer-facing, as evaluation treats unknown channels)")),
      Required("risk", Schema::String().Enum(trust::AppRisks())),
      // null is the same as leaving a field out (docs/apps.md).
      Optional("defaultPolicy", PolicyOverrideSchema(Schema::Use::kRequest)
                                    .Nullable()
                                    .Describe("a partial policy override; unknown fields are refused; default {}")),
      Optional("ownerUserId", Schema::Uuid().Nullable().Describe("an active member of the tenant; default the caller")),
      Optional("description", description().Nullable()),
      Optional("rateLimit", RateLimitSchema()),
  });
  router.Add({Method::kPost,
              "/trust-admin/apps",
              Auth::kTenantAdmin,
              "",
              [&apps](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kRegisterRequest);
                if (!body) return Problem(ctx, body.error());
                auto policy = DefaultPolicyOf(*body);
                if (!policy) return Problem(ctx, policy.error());
                trust::NewApp request;
                request.name = GetString(*body, "name");
                request.channel = GetString(*body, "channel");
                request.risk = GetString(*body, "risk");
                request.default_policy = policy->value_or(trust::PolicyOverride{});
                request.owner_id = OwnerOf(*body);
                request.description = GetString(*body, "description");
                request.rate_limit = RateLimitOf(*body).value_or(std::nullopt);
                auto app = apps.Register(ctx.Caller(), request);
                if (!app) return Problem(ctx, app.error());
                return JsonResponse(201, AppJson(*app));
              },
              {.summary = "Register an AI application (tenant admins).",
               .tag = "apps",
               .request = kRegisterRequest,
               .response = AppSchema(),
               .success_status = 201,
               .errors = {400, 403, 409}}});

  router.Add({Method::kGet,
              "/trust-admin/apps/{id}",
              Auth::kTenantAdmin,
              "",
              [&apps](RequestContext& ctx) {
                auto app = apps.Get(ctx.Caller(), AppId(ctx));
                if (!app) return Problem(ctx, app.error());
                return JsonResponse(200, AppJson(*app));
              },
              {.summary = "One app, active or archived (tenant admins).",
               .tag = "apps",
               .response = AppSchema(),
               .errors = {403, 404},
               .path_params = app_param}});

  static const Schema kUpdateRequest = Schema::Object({
      // null is the same as leaving a field out (docs/apps.md), but for
      // rateLimit, where it clears.
      Optional("name", name().Nullable().Describe("trimmed; unique among the tenant's active apps")),
      Optional("channel", channel().Nullable()),
      Optional("risk", Schema::String().Enum(trust::AppRisks()).Nullable()),
      Optional("defaultPolicy", PolicyOverrideSchema(Schema::Use::kRequest)
                                    .Nullable()
                                    .Describe("replaces the whole override; {} clears it")),
      Optional("ownerUserId", Schema::Uuid().Nullable().Describe("an active member of the tenant")),
      Optional("description", description().Nullable().Describe("\"\" clears it")),
      Optional("rateLimit", RateLimitSchema().Describe("replaces the app's own rate limit; null clears it")),
  });
  router.Add({Method::kPatch,
              "/trust-admin/apps/{id}",
              Auth::kTenantAdmin,
              "",
              [&apps](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kUpdateRequest);
                if (!body) return Problem(ctx, body.error());
                auto policy = DefaultPolicyOf(*body);
                if (!policy) return Problem(ctx, policy.error());
                trust::AppPatch patch;
                patch.name = GetOptString(*body, "name");
                patch.channel = GetOptString(*body, "channel");
                patch.risk = GetOptString(*body, "risk");
                patch.default_policy = std::move(*policy);
                patch.owner_id = OwnerOf(*body);
                patch.description = GetOptString(*body, "description");
                patch.rate_limit = RateLimitOf(*body);
                auto app = apps.Update(ctx.Caller(), AppId(ctx), patch);
                if (!app) return Problem(ctx, app.error());
                return JsonResponse(200, AppJson(*app));
              },
              {.summary = "Change an app (tenant admins): the fields sent are replaced, the others kept (null is "
                          "the same as leaving a field out, except for rateLimit, which null clears). An archived app cannot be changed (409 app_archived).",
               .tag = "apps",
               .request = kUpdateRequest,
               .response = AppSchema(),
               .errors = {400, 403, 404, 409},
               .path_params = app_param}});

  router.Add({Method::kPost,
              "/trust-admin/apps/{id}/archive",
              Auth::kTenantAdmin,
              "",
              [&apps](RequestContext& ctx) {
                auto app = apps.Archive(ctx.Caller(), AppId(ctx));
                if (!app) return Problem(ctx, app.error());
                return JsonResponse(200, AppJson(*app));
              },
              {.summary = "Archive an app (tenant admins): every key of it is revoked in the same transaction, "
                          "with a revoked event in its history; the app, its keys and its decisions stay. A "
                          "second archive is 409 app_archived.",
               .tag = "apps",
               .response = AppSchema(),
               .errors = {403, 404, 409},
               .path_params = app_param}});

  // ---- Keys.

  static const Schema kMintRequest = Schema::Object({
      Required("name", Schema::String()
                           .MinLength(1)
                           .MaxLength(static_cast<int64_t>(identity::kMaxApiKeyNameLength))
                           .Describe("trimmed; need not be unique")),
      Required("expiresAt",
               Schema::Timestamp().Describe("required: in the future, at most the server's --app-key-max-days (default "
                                            "365) ahead")),
      Optional(
          "scopes",
          Schema::Array(ScopeSchema()).MinItems(1).Describe("a non-empty set without repeats; default every scope")),
  });
  router.Add({Method::kPost,
              "/trust-admin/apps/{id}/keys",
              Auth::kTenantAdmin,
              "",
              [&apps](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kMintRequest);
                if (!body) return Problem(ctx, body.error());
                identity::NewAppKey request;
                request.name = GetString(*body, "name");
                if (auto expires = GetOptString(*body, "expiresAt")) request.expires_at = ParseTimestamp(*expires);
                if (const auto* scopes = body->if_contains("scopes"); scopes != nullptr && !scopes->is_null())
                  request.scopes = GetStringArray(*body, "scopes");
                auto created = apps.MintKey(ctx.Caller(), AppId(ctx), request);
                if (!created) return Problem(ctx, created.error());
                return KeyWithSecret(201, *created);
              },
              {.summary = "Mint a key bound to the app (tenant admins). Every decision made with it, directly or "
                          "through /connect/token, records the app and the key. The answer is the only one that "
                          "shows the secret. 409 app_archived for an archived app.",
               .tag = "apps",
               .request = kMintRequest,
               .response = KeyWithSecretSchema(),
               .success_status = 201,
               .errors = {400, 403, 404, 409},
               .path_params = app_param}});

  router.Add({Method::kGet,
              "/trust-admin/apps/{id}/keys",
              Auth::kTenantAdmin,
              "",
              [&apps](RequestContext& ctx) {
                auto list = apps.ListKeys(ctx.Caller(), AppId(ctx));
                if (!list) return Problem(ctx, list.error());
                json::array items;
                for (const auto& k : *list) items.push_back(KeyJson(k));
                return JsonResponse(200, json::object{{"items", std::move(items)}});
              },
              {.summary = "Every key of the app, oldest first, with its status and history (tenant admins); "
                          "disabled, expired and revoked keys included. Never the secret.",
               .tag = "apps",
               .response = Schema::Object({Required("items", Schema::Array(KeySchema()))}),
               .errors = {403, 404},
               .path_params = app_param}});

  for (const bool enable : {false, true}) {
    router.Add({Method::kPost,
                enable ? "/trust-admin/apps/{id}/keys/{keyId}/enable" : "/trust-admin/apps/{id}/keys/{keyId}/disable",
                Auth::kTenantAdmin,
                "",
                [&apps, enable](RequestContext& ctx) {
                  auto key = apps.SetKeyEnabled(ctx.Caller(), AppId(ctx), KeyId(ctx), enable);
                  if (!key) return Problem(ctx, key.error());
                  return JsonResponse(200, KeyJson(*key));
                },
                {.summary = enable ? "Enable a disabled key again (tenant admins); it works at once. Enabling an "
                                     "enabled key changes nothing (200, no history event). 409 for a revoked key "
                                     "(key_revoked) or an archived app (app_archived)."
                                   : "Disable a key (tenant admins): from now on it is refused (401 key_disabled; "
                                     "the token endpoint answers invalid_client); access tokens already issued "
                                     "stay valid until they expire. Disabling a disabled key changes nothing "
                                     "(200, no history event). 409 for a revoked key or an archived app.",
                 .tag = "apps",
                 .response = KeySchema(),
                 .errors = {403, 404, 409},
                 .path_params = key_params}});
  }

  router.Add({Method::kPost,
              "/trust-admin/apps/{id}/keys/{keyId}/regenerate",
              Auth::kTenantAdmin,
              "",
              [&apps](RequestContext& ctx) {
                auto created = apps.RegenerateKey(ctx.Caller(), AppId(ctx), KeyId(ctx));
                if (!created) return Problem(ctx, created.error());
                return KeyWithSecret(200, *created);
              },
              {.summary = "Rotate a key in place (tenant admins): a new secret is issued and the old one stops "
                          "authenticating at once; id, clientId, scopes, expiry, enabled state and history are "
                          "kept. 409 for a revoked (key_revoked) or expired (key_expired) key or an archived app.",
               .tag = "apps",
               .response = KeyWithSecretSchema(),
               .errors = {403, 404, 409},
               .path_params = key_params}});

  // ---- Stats.

  router.Add({Method::kGet,
              "/trust-admin/apps/{id}/stats",
              Auth::kTenantAdmin,
              "",
              [&apps, &s](RequestContext& ctx) {
                auto stats =
                    apps.Stats(ctx.Caller(), AppId(ctx), ctx.request.QueryParam("from"), ctx.request.QueryParam("to"));
                if (!stats) return Problem(ctx, stats.error());
                // Counted from the ledger's rows: a window reaching archived
                // decisions says so (docs/retention.md).
                auto out = StatsJson(*stats);
                out["archived"] = ArchivedWindowJson(s, ctx.Caller().tenant_id, "decisions",
                                                     stats->window.from_ms, stats->window.end_ms);
                return JsonResponse(200, out);
              },
              {.summary = "Decision counts and per-key request volume of the app over a window of UTC days, both "
                          "ends inclusive (tenant admins); archived apps too.",
               .tag = "apps",
               .response = StatsSchema(),
               .query = {{"from", Schema::String(), false, "YYYY-MM-DD; default 30 days before to"},
                         {"to", Schema::String(), false, "YYYY-MM-DD; default today (UTC)"}},
               .errors = {400, 403, 404},
               .path_params = app_param}});
}

}  // namespace credence::http
