// Plugins (docs/plugins.md): the manifests of the plugins Credence ships
// (/api/plugins, /api/tenant/known-plugins, /tenant/plugins/available), a
// tenant's installations (/api/tenant/plugins...: install, enable, disable,
// uninstall, settings), the installed and active ones with their guards'
// health (/plugins), and each plugin's own routes, registered by plugin id
// (PluginRouteAdders) and added for the plugins in the registry.
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "core/ids.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/language.h"
#include "http/problem.h"
#include "http/router.h"
#include "plugins/approvals.h"
#include "plugins/content_rules.h"
#include "plugins/custom_guards.h"
#include "plugins/guard_pipeline.h"
#include "plugins/plugin_service.h"

namespace credence::http {
namespace json = boost::json;

namespace {

using plugins::Installation;
using plugins::Manifest;

// A manifest as the API answers it, its name and description in `language`.
json::object ManifestJson(const Manifest& m, std::string_view language) {
  json::object ui;
  for (const auto& [slot, component] : m.ui_contributions) ui[slot] = component;
  json::array guards;
  for (const auto& g : m.guards)
    guards.push_back(
        json::object{{"pluginId", m.id}, {"action", g.action.empty() ? json::value(nullptr) : json::value(g.action)}});
  json::array routes;
  for (const auto& r : m.routes) routes.push_back(json::object{{"method", r.method}, {"path", r.path}});
  const auto text = plugins::LocalizedText(m, language);
  return {{"id", m.id},
          {"name", text.name},
          {"version", m.version},
          {"description", text.description},
          {"category", m.category},
          {"hasSettings", m.has_settings},
          {"hasEndpoints", m.has_endpoints},
          {"uiContributions", std::move(ui)},
          {"dependencies", ToJsonArray(m.dependencies)},
          {"settingsSchema", plugins::SettingsJsonSchema(m)},
          {"guards", std::move(guards)},
          {"events", ToJsonArray(m.events)},
          {"routes", std::move(routes)}};
}

Schema ManifestSchema() {
  return Schema::Object({
      Required("id", Schema::String().Describe("kebab-case, unique")),
      Required("name", Schema::String()),
      Required("version", Schema::String().Describe("a semantic version")),
      Required("description", Schema::String()),
      Required("category", Schema::String()),
      Required("hasSettings", Schema::Boolean()),
      Required("hasEndpoints", Schema::Boolean()),
      Required("uiContributions", Schema::FreeObject().Describe("slot name -> client component name")),
      Required("dependencies", Schema::Array(Schema::String()).Describe("plugin ids installed first")),
      Required("settingsSchema", Schema::FreeObject().Describe("the JSON Schema of the plugin's settings object")),
      Required("guards", Schema::Array(Schema::Object({
                             Required("pluginId", Schema::String()),
                             Required("action", Schema::String().Nullable().Describe(
                                                    "the guarded action, e.g. Entry.Publish; null: every one")),
                         }))),
      Required("events", Schema::Array(Schema::String()).Describe("event types it handles")),
      Required("routes", Schema::Array(Schema::Object({
                             Required("method", Schema::String()),
                             Required("path", Schema::String()),
                         }))),
  });
}

json::object InstallationJson(const Installation& i) {
  return {{"pluginId", i.plugin_id},
          {"isEnabled", i.is_enabled},
          {"settingsJson", json::serialize(i.settings)},
          {"settings", i.settings},
          {"installedAt", FormatTimestamp(i.installed_at)},
          {"updatedAt", FormatTimestamp(i.updated_at)}};
}

std::vector<Property> InstallationFields() {
  return {
      Required("pluginId", Schema::String()),
      Required("isEnabled", Schema::Boolean()),
      Required("settingsJson", Schema::String().Describe("the settings as a JSON string (the spec's shape)")),
      Required("settings", Schema::FreeObject().Describe("the same settings as an object")),
      Required("installedAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
  };
}

Schema InstallationSchema() { return Schema::Object(InstallationFields()); }

json::object HealthJson(const plugins::GuardHealth& h) {
  return {{"status", h.failures == 0 ? "ok" : "degraded"},
          {"guardFailures", h.failures},
          {"lastError", h.last_error.empty() ? json::value(nullptr) : json::value(h.last_error)},
          {"lastFailureAt",
           h.last_failure_at == 0 ? json::value(nullptr) : json::value(FormatTimestamp(h.last_failure_at))}};
}

Schema ActivePluginSchema() {
  return Schema::Object({
      Required("id", Schema::String()),
      Required("name", Schema::String()),
      Required("version", Schema::String()),
      Required("uiContributions", Schema::Array(Schema::Object({
                                      Required("slot", Schema::String()),
                                      Required("componentName", Schema::String()),
                                      Required("pluginId", Schema::String()),
                                  }))),
      Required("settings", Schema::FreeObject()),
      Required("health",
               Schema::Object({
                   Required("status", Schema::String()
                                          .Enum({"ok", "degraded"})
                                          .Describe("degraded once a guard of the plugin threw or overran its time "
                                                    "(since the server started)")),
                   Required("guardFailures", Schema::Integer().Min(0)),
                   Required("lastError", Schema::String().Nullable()),
                   Required("lastFailureAt", Schema::Timestamp().Nullable()),
               })),
  });
}

json::array UiContributionsJson(const Manifest& m) {
  json::array out;
  for (const auto& [slot, component] : m.ui_contributions)
    out.push_back(json::object{{"slot", slot}, {"componentName", component}, {"pluginId", m.id}});
  return out;
}

Schema UiContributionSchema() {
  return Schema::Object({
      Required("slot", Schema::String()),
      Required("componentName", Schema::String()),
      Required("pluginId", Schema::String()),
  });
}

// The registry's manifests, in the caller's language (Content-Language says which).
HttpResponse ManifestsAnswer(const plugins::Registry& registry, const RequestContext& ctx) {
  const std::string_view language = TextLanguage(ctx);
  json::array out;
  for (const auto& m : registry.All()) out.push_back(ManifestJson(m, language));
  HttpResponse r = JsonResponse(200, out);
  AddContentLanguage(r, language);
  return r;
}

const std::vector<std::pair<std::string, Schema>>& IdParam() {
  static const std::vector<std::pair<std::string, Schema>> kParam = {
      {"id", Schema::String().Describe("a plugin id (kebab-case)")}};
  return kParam;
}

const Schema& SettingsRequest() {
  static const Schema kSchema =
      Schema::FreeObject().Describe("the settings object, checked against the plugin's settingsSchema");
  return kSchema;
}

// The content-rules installation of the caller's tenant when installed and
// enabled; 404 plugin_not_enabled otherwise (only enabled plugins' routes act).
Result<Installation> EnabledContentRules(const plugins::PluginService& service, const identity::Principal& caller) {
  auto i = service.Get(caller, "content-rules");
  if (!i || !i->is_enabled)
    return Error{ErrorKind::kNotFound,
                 "plugin_not_enabled",
                 "The content-rules plugin is not installed and enabled in this tenant.",
                 {},
                 {}};
  return i;
}

Schema ContentRulesSchema() {
  return Schema::Object({
      Required("pluginId", Schema::String()),
      Required("isEnabled", Schema::Boolean()),
      Required("rulesJson", Schema::String().Describe("the tenant's global rules as a JSON string (docs/plugins.md)")),
      Required("rules", Schema::FreeObject().Describe("the same rules as an object")),
      Required("updatedAt", Schema::Timestamp()),
  });
}

json::object ContentRulesJson(const Installation& i) {
  return {{"pluginId", i.plugin_id},
          {"isEnabled", i.is_enabled},
          {"rulesJson", json::serialize(i.settings)},
          {"rules", i.settings},
          {"updatedAt", FormatTimestamp(i.updated_at)}};
}

// The body of PUT /api/plugins/rules/tenant/global. GET's shape (and the hub
// rules'): {isEnabled?, rulesJson}, so that GET's answer can be sent back
// (pluginId and updatedAt are ignored; `rules`, when sent, must be the rules
// of rulesJson); or, as clients sent before, the bare rules object. A body
// with rulesJson or isEnabled is the first shape: neither is a rule.
struct GlobalRulesBody {
  json::object rules;
  bool in_rules_json = false;  // errors about the rules are then named rulesJson.<member>
};

Schema GlobalRulesRequest() {
  return Schema::Object({
                            Optional("isEnabled", Schema::Boolean().Describe("true or left out (GET answers true)")),
                            Optional("rulesJson", Schema::String().MaxLength(100000).Describe(
                                                      "the rules as a JSON object in a string, as GET answers them")),
                        })
      .Describe("{isEnabled?, rulesJson}, the shape GET answers (its other members are ignored; rules, when sent, "
                "must be the rules of rulesJson); or the bare rules object (docs/plugins.md)");
}

Result<GlobalRulesBody> GlobalRulesOf(json::object body) {
  if (!body.contains("rulesJson") && !body.contains("isEnabled")) return GlobalRulesBody{std::move(body), false};
  std::vector<FieldError> errors;
  // Types are the schema's: isEnabled a boolean, rulesJson a string.
  if (const auto* enabled = body.if_contains("isEnabled"); enabled != nullptr && !enabled->as_bool())
    errors.push_back({"isEnabled", "must be true: the global rules act while content-rules is enabled; "
                                   "POST /api/tenant/plugins/content-rules/disable turns it off"});
  json::object rules;
  if (const auto* text = body.if_contains("rulesJson"); text == nullptr) {
    errors.push_back({"rulesJson", "is required"});
  } else {
    boost::system::error_code ec;
    json::value parsed = json::parse(text->as_string(), ec);
    if (ec || !parsed.is_object()) {
      errors.push_back({"rulesJson", "must be a JSON object"});
    } else {
      rules = std::move(parsed.as_object());
      if (const auto* sent = body.if_contains("rules"); sent != nullptr && *sent != json::value(rules))
        errors.push_back({"rules", "must be the rules of rulesJson, or left out (rulesJson is what is stored)"});
    }
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return GlobalRulesBody{std::move(rules), true};
}

json::object ApprovalJson(const plugins::Approval& a) {
  const bool decided = !a.decided_by.empty();
  return {{"id", a.id},
          {"entryId", a.entry_id},
          {"status", a.status},
          {"requestedBy", a.requested_by},
          {"requestedAt", FormatTimestamp(a.requested_at)},
          {"requestComment", a.request_comment},
          {"decidedBy", decided ? json::value(a.decided_by) : json::value(nullptr)},
          {"decidedAt", decided ? json::value(FormatTimestamp(a.decided_at)) : json::value(nullptr)},
          {"decisionComment", decided ? json::value(a.decision_comment) : json::value(nullptr)}};
}

Schema ApprovalSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("entryId", Schema::Uuid()),
      Required("status", Schema::String().Enum({"Pending", "Approved", "Rejected"})),
      Required("requestedBy", Schema::Uuid()),
      Required("requestedAt", Schema::Timestamp()),
      Required("requestComment", Schema::String()),
      Required("decidedBy", Schema::Uuid().Nullable()),
      Required("decidedAt", Schema::Timestamp().Nullable()),
      Required("decisionComment", Schema::String().Nullable()),
  });
}

const Schema& CommentRequest(bool required) {
  static const Schema kOptional =
      Schema::Object({Optional("comment", Schema::String().MaxLength(plugins::kMaxApprovalComment))});
  static const Schema kRequired =
      Schema::Object({Required("comment", Schema::String().MinLength(1).MaxLength(plugins::kMaxApprovalComment))});
  return required ? kRequired : kOptional;
}

void AddApprovalRoutes(Router& router, const plugins::ApprovalService& approvals) {
  const std::string base = "/api/plugins/approval-workflow";
  const std::vector<std::pair<std::string, Schema>> entry_param = {{"entryId", Schema::Uuid()}};
  const std::vector<std::pair<std::string, Schema>> id_param = {{"id", Schema::Uuid()}};
  router.Add({Method::kGet,
              base + "/entries/{entryId}/approvals",
              Auth::kUser,
              "",
              [&approvals](RequestContext& ctx) {
                auto list = approvals.List(ctx.Caller(), CanonicalUuid(ctx.PathParam("entryId")));
                if (!list) return Problem(ctx, list.error());
                json::array out;
                for (const auto& a : *list) out.push_back(ApprovalJson(a));
                return JsonResponse(200, out);
              },
              {.summary = "approval-workflow: an entry's approval requests, newest first (Entry Viewer+). 404 "
                          "plugin_not_enabled unless the plugin is installed and enabled.",
               .tag = "plugins",
               .response = Schema::Array(ApprovalSchema()),
               .errors = {403, 404},
               .path_params = entry_param}});
  router.Add({Method::kPost,
              base + "/entries/{entryId}/request",
              Auth::kUser,
              "",
              [&approvals](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, CommentRequest(false));
                if (!body) return Problem(ctx, body.error());
                auto a = approvals.Request(ctx.Caller(), CanonicalUuid(ctx.PathParam("entryId")),
                                           GetString(*body, "comment"));
                if (!a) return Problem(ctx, a.error());
                return JsonResponse(201, ApprovalJson(*a));
              },
              {.summary = "approval-workflow: ask for approval to publish an entry (Entry Editor+). 409 "
                          "approval_pending while a request is pending.",
               .tag = "plugins",
               .request = CommentRequest(false),
               .response = ApprovalSchema(),
               .success_status = 201,
               .errors = {400, 403, 404, 409},
               .path_params = entry_param}});
  for (const bool approve : {true, false}) {
    router.Add({Method::kPost,
                base + "/approvals/{id}/" + (approve ? "approve" : "reject"),
                Auth::kUser,
                "",
                [&approvals, approve](RequestContext& ctx) {
                  auto body = ParseBody(ctx.request, CommentRequest(!approve));
                  if (!body) return Problem(ctx, body.error());
                  auto a = approvals.Decide(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")), approve,
                                            GetString(*body, "comment"));
                  if (!a) return Problem(ctx, a.error());
                  return JsonResponse(200, ApprovalJson(*a));
                },
                {.summary = std::string("approval-workflow: ") + (approve ? "approve" : "reject (with a comment)") +
                            " a pending request (an Editor or Admin of the entry other than its author and the "
                            "requester: else 403 approver_is_author). 409 approval_decided once decided.",
                 .tag = "plugins",
                 .request = CommentRequest(!approve),
                 .response = ApprovalSchema(),
                 .errors = {400, 403, 404, 409},
                 .path_params = id_param}});
  }
}

// ---- script-guards and admission-hooks ----

using plugins::CustomGuard;
using plugins::CustomGuardKind;

json::object CustomGuardJson(const CustomGuard& g, bool with_secret = false) {
  json::object o{{"id", g.id},
                 {"name", g.name},
                 {"action", g.action.empty() ? json::value(nullptr) : json::value(g.action)},
                 {"isEnabled", g.is_enabled},
                 {"createdAt", FormatTimestamp(g.created_at)},
                 {"updatedAt", FormatTimestamp(g.updated_at)}};
  if (g.kind == CustomGuardKind::kScript) {
    o["source"] = g.source;
    o["version"] = g.version;
  } else {
    o["url"] = g.url;
    o["timeoutMs"] = g.timeout_ms;
    if (with_secret) o["secret"] = g.secret;
  }
  return o;
}

Schema CustomGuardSchema(CustomGuardKind kind, bool with_secret = false) {
  std::vector<Property> fields = {
      Required("id", Schema::Uuid()),
      Required("name", Schema::String()),
      Required("action", Schema::String().Nullable().Describe("the guarded action; null: every one")),
      Required("isEnabled", Schema::Boolean()),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
  };
  if (kind == CustomGuardKind::kScript) {
    fields.push_back(Required("source", Schema::String().Describe("Lua 5.4 defining guard(ctx)")));
    fields.push_back(Required("version", Schema::Integer().Min(1).Describe("bumped by every update")));
  } else {
    fields.push_back(Required("url", Schema::String()));
    fields.push_back(Required("timeoutMs", Schema::Integer()));
    if (with_secret)
      fields.push_back(Required(
          "secret", Schema::String().Describe("whsec_...: verifies the signature of the hook's requests; shown once")));
  }
  return Schema::Object(std::move(fields));
}

Schema ActionField() {
  return Schema::String().Nullable().Describe(
      "Entry.Publish, Entry.Delete, Entry.Renew, Translation.MarkUpToDate or Hub.Delete; absent or null: every one");
}

const Schema& ScriptRequest() {
  static const Schema kSchema = Schema::Object({
      Required("name", Schema::String().MinLength(1).MaxLength(plugins::kMaxCustomGuardName)),
      Optional("action", ActionField()),
      Required("source", Schema::String()
                             .MinLength(1)
                             .MaxLength(static_cast<int64_t>(plugins::lua::kMaxSourceBytes))
                             .Describe("Lua 5.4 source defining guard(ctx); compiled at upload (400 naming source)")),
  });
  return kSchema;
}

const Schema& HookRequest() {
  static const Schema kSchema = Schema::Object({
      Required("name", Schema::String().MinLength(1).MaxLength(plugins::kMaxCustomGuardName)),
      Optional("action", ActionField()),
      Required("url", Schema::String().MinLength(1).MaxLength(2000).Describe("https (outbound rules apply)")),
      Optional("timeoutMs", Schema::Integer().Min(1).Max(plugins::kMaxHookTimeoutMs).Describe("default 1000")),
  });
  return kSchema;
}

const Schema& TestRequest() {
  static const Schema kSchema = Schema::Object({
      Required("context", Schema::Object({
                                             Required("action", Schema::String()),
                                             Optional("entityId", Schema::String()),
                                             Optional("properties", Schema::FreeObject()),
                                         })
                              .Describe("a sample guard context; tenantId and userId are the caller's")),
  });
  return kSchema;
}

Schema TestResultSchema() {
  return Schema::Object({
      Required("verdict", Schema::String().Enum({"allow", "deny", "error"}).Describe("error counts as allow")),
      Required("reasonCode", Schema::String().Nullable()),
      Required("message", Schema::String().Nullable()),
      Required("metadata", Schema::FreeObject().Nullable()),
      Required("errorKind", Schema::String().Nullable().Describe("budget, memory, timeout, runtime or bad_result")),
      Required("error", Schema::String().Nullable()),
      Required("instructions", Schema::Integer()),
      Required("durationMs", Schema::Integer()),
  });
}

json::object TestResultJson(const plugins::ScriptTestResult& r) {
  using K = plugins::lua::Verdict::Kind;
  const auto& v = r.verdict;
  const bool deny = v.kind == K::kDeny;
  const bool error = v.kind == K::kError;
  json::value metadata = nullptr;
  if (deny) {
    boost::system::error_code ec;
    metadata = json::parse(v.metadata_json, ec);
    if (ec || !metadata.is_object()) metadata = json::object{};
  }
  return {{"verdict", deny    ? "deny"
                      : error ? "error"
                              : "allow"},
          {"reasonCode", deny ? json::value(v.reason_code) : json::value(nullptr)},
          {"message", deny ? json::value(v.message) : json::value(nullptr)},
          {"metadata", std::move(metadata)},
          {"errorKind", error ? json::value(v.error_kind) : json::value(nullptr)},
          {"error", error ? json::value(v.error) : json::value(nullptr)},
          {"instructions", v.instructions},
          {"durationMs", r.duration_ms}};
}

void AddCustomGuardRoutes(Router& router, const plugins::CustomGuardService& service, CustomGuardKind kind) {
  const std::vector<std::pair<std::string, Schema>> id_param = {{"id", Schema::Uuid()}};
  const bool script = kind == CustomGuardKind::kScript;
  const std::string plugin(plugins::CustomGuardPlugin(kind));
  const std::string base = "/api/plugins/" + plugin + (script ? "/scripts" : "/hooks");
  const std::string noun = script ? "guard script" : "admission hook";
  const std::string gate = " (global admin; 404 plugin_not_enabled unless " + plugin + " is installed and enabled)";
  router.Add({Method::kGet,
              base,
              Auth::kTenantAdmin,
              "",
              [&service, kind](RequestContext& ctx) {
                auto list = service.List(ctx.Caller(), kind);
                if (!list) return Problem(ctx, list.error());
                json::array out;
                for (const auto& g : *list) out.push_back(CustomGuardJson(g));
                return JsonResponse(200, out);
              },
              {.summary = plugin + ": the tenant's " + noun + "s, oldest first" + gate + ".",
               .tag = "plugins",
               .response = Schema::Array(CustomGuardSchema(kind)),
               .errors = {403, 404}}});
  router.Add({Method::kPost,
              base,
              Auth::kTenantAdmin,
              "",
              [&service, kind](RequestContext& ctx) {
                const bool is_script = kind == CustomGuardKind::kScript;
                auto body = ParseBody(ctx.request, is_script ? ScriptRequest() : HookRequest());
                if (!body) return Problem(ctx, body.error());
                const std::string action = GetOptString(*body, "action").value_or("");
                auto g = is_script ? service.CreateScript(
                                         ctx.Caller(), {GetString(*body, "name"), action, GetString(*body, "source")})
                                   : service.CreateHook(ctx.Caller(),
                                                        {GetString(*body, "name"), action, GetString(*body, "url"),
                                                         GetInt(*body, "timeoutMs", plugins::kDefaultHookTimeoutMs)});
                if (!g) return Problem(ctx, g.error());
                return JsonResponse(201, CustomGuardJson(*g, /*with_secret=*/true));
              },
              {.summary = script ? "script-guards: upload a guard script, compiled at once (a syntax error is 400 "
                                   "naming source); enabled" +
                                       gate + "."
                                 : "admission-hooks: register an admission hook, enabled; the secret that signs its "
                                   "requests is in this answer only. The URL is checked against the outbound rules "
                                   "(400 url_not_allowed)" +
                                       gate + ".",
               .tag = "plugins",
               .request = script ? ScriptRequest() : HookRequest(),
               .response = CustomGuardSchema(kind, true),
               .success_status = 201,
               .errors = {400, 403, 404}}});
  if (script)
    router.Add({Method::kPut,
                base + "/{id}",
                Auth::kTenantAdmin,
                "",
                [&service](RequestContext& ctx) {
                  auto body = ParseBody(ctx.request, ScriptRequest());
                  if (!body) return Problem(ctx, body.error());
                  auto g = service.UpdateScript(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")),
                                                {GetString(*body, "name"), GetOptString(*body, "action").value_or(""),
                                                 GetString(*body, "source")});
                  if (!g) return Problem(ctx, g.error());
                  return JsonResponse(200, CustomGuardJson(*g));
                },
                {.summary = "script-guards: replace a script (a new version, compiled at once)" + gate + ".",
                 .tag = "plugins",
                 .request = ScriptRequest(),
                 .response = CustomGuardSchema(kind),
                 .errors = {400, 403, 404},
                 .path_params = id_param}});
  router.Add({Method::kDelete,
              base + "/{id}",
              Auth::kTenantAdmin,
              "",
              [&service, kind](RequestContext& ctx) {
                auto done = service.Delete(ctx.Caller(), kind, CanonicalUuid(ctx.PathParam("id")));
                if (!done) return Problem(ctx, done.error());
                return NoContent();
              },
              {.summary = plugin + ": delete a " + noun + gate + ".",
               .tag = "plugins",
               .success_status = 204,
               .errors = {403, 404},
               .path_params = id_param}});
  for (const bool enable : {true, false})
    router.Add({Method::kPost,
                base + "/{id}/" + (enable ? "enable" : "disable"),
                Auth::kTenantAdmin,
                "",
                [&service, kind, enable](RequestContext& ctx) {
                  auto g = service.SetEnabled(ctx.Caller(), kind, CanonicalUuid(ctx.PathParam("id")), enable);
                  if (!g) return Problem(ctx, g.error());
                  return JsonResponse(200, CustomGuardJson(*g));
                },
                {.summary = plugin + ": " + (enable ? "enable" : "disable") + " a " + noun + gate + ".",
                 .tag = "plugins",
                 .response = CustomGuardSchema(kind),
                 .errors = {403, 404},
                 .path_params = id_param}});
  if (script)
    router.Add({Method::kPost,
                base + "/{id}/test",
                Auth::kTenantAdmin,
                "",
                [&service](RequestContext& ctx) {
                  auto body = ParseBody(ctx.request, TestRequest());
                  if (!body) return Problem(ctx, body.error());
                  auto r = service.TestScript(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")),
                                              body->at("context").as_object());
                  if (!r) return Problem(ctx, r.error());
                  return JsonResponse(200, TestResultJson(*r));
                },
                {.summary = "script-guards: a dry run of a script (enabled or not) on a sample context, with the "
                            "plugin's limits; nothing is recorded" +
                            gate + ".",
                 .tag = "plugins",
                 .request = TestRequest(),
                 .response = TestResultSchema(),
                 .errors = {400, 403, 404},
                 .path_params = id_param}});
}

void AddContentRulesRoutes(Router& router, const Services& s) {
  const plugins::PluginService& service = s.plugins;
  // content-rules' hub rules.
  static const Schema kHubRulesRequest = Schema::Object({
      Required("isEnabled", Schema::Boolean()),
      Required("rulesJson", Schema::String().MaxLength(100000).Describe(
                                "a JSON object of the global rules' shape (docs/plugins.md), which tightens them")),
  });
  static const Schema kHubRulesResponse = Schema::Object({
      Required("hubKey", Schema::String()),
      Required("isEnabled", Schema::Boolean()),
      Required("rulesJson", Schema::String()),
      Required("rules", Schema::FreeObject()),
      Required("updatedAt", Schema::Timestamp().Nullable().Describe("null until set")),
  });
  auto hub_rules_json = [](const plugins::HubRules& r) {
    return json::object{
        {"hubKey", r.hub_key},
        {"isEnabled", r.is_enabled},
        {"rulesJson", json::serialize(r.rules)},
        {"rules", r.rules},
        {"updatedAt", r.updated_at ? json::value(FormatTimestamp(*r.updated_at)) : json::value(nullptr)}};
  };
  router.Add({Method::kGet,
              "/api/hubs/{hubKey}/rules",
              Auth::kUser,
              "",
              [&rules = s.content_rules, hub_rules_json](RequestContext& ctx) {
                auto r = rules.Get(ctx.Caller(), ctx.PathParam("hubKey"));
                if (!r) return Problem(ctx, r.error());
                return JsonResponse(200, hub_rules_json(*r));
              },
              {.summary = "content-rules: the hub's rules (hub Viewer+), which tighten the tenant's global rules "
                          "when enabled. 404 plugin_not_enabled unless content-rules is installed and enabled.",
               .tag = "plugins",
               .response = kHubRulesResponse,
               .errors = {404}}});
  router.Add({Method::kPut,
              "/api/hubs/{hubKey}/rules",
              Auth::kUser,
              "",
              [&rules = s.content_rules, hub_rules_json](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kHubRulesRequest);
                if (!body) return Problem(ctx, body.error());
                auto r = rules.Put(ctx.Caller(), ctx.PathParam("hubKey"), GetBool(*body, "isEnabled"),
                                   GetString(*body, "rulesJson"));
                if (!r) return Problem(ctx, r.error());
                return JsonResponse(200, hub_rules_json(*r));
              },
              {.summary = "content-rules: set the hub's rules (hub Admin+): isEnabled and rulesJson, both required; "
                          "400 naming rulesJson or rulesJson.<member>.",
               .tag = "plugins",
               .request = kHubRulesRequest,
               .response = kHubRulesResponse,
               .errors = {400, 403, 404}}});

  // content-rules' routes: the tenant's global rules are its settings.
  router.Add({Method::kGet,
              "/api/plugins/rules/tenant/global",
              Auth::kUser,
              "",
              [&service](RequestContext& ctx) {
                auto i = EnabledContentRules(service, ctx.Caller());
                if (!i) return Problem(ctx, i.error());
                return JsonResponse(200, ContentRulesJson(*i));
              },
              {.summary = "content-rules: the tenant's global content rules, checked at publish. 404 "
                          "plugin_not_enabled unless content-rules is installed and enabled.",
               .tag = "plugins",
               .response = ContentRulesSchema(),
               .errors = {404}}});
  router.Add({Method::kPut,
              "/api/plugins/rules/tenant/global",
              Auth::kTenantAdmin,
              "",
              [&service](RequestContext& ctx) {
                auto i = EnabledContentRules(service, ctx.Caller());
                if (!i) return Problem(ctx, i.error());
                static const Schema kRequest = GlobalRulesRequest();
                auto body = ParseBody(ctx.request, kRequest);
                if (!body) return Problem(ctx, body.error());
                auto rules = GlobalRulesOf(std::move(*body));
                if (!rules) return Problem(ctx, rules.error());
                auto updated = service.UpdateSettings(ctx.Caller(), "content-rules", rules->rules);
                if (!updated) {
                  Error e = std::move(updated).error();
                  if (rules->in_rules_json)
                    for (auto& f : e.fields) f.field = "rulesJson." + f.field;
                  return Problem(ctx, e);
                }
                return JsonResponse(200, ContentRulesJson(*updated));
              },
              {.summary = "content-rules: replace the tenant's global content rules (global admin): "
                          "{isEnabled?, rulesJson} as GET answers them and as the hub rules take them, or the bare "
                          "rules object (requiredHeadings, forbiddenTerms, maxTitleLength, maxTextLength, ...; "
                          "docs/plugins.md). 400 validation_failed naming each refused member (rulesJson.<member> "
                          "in the first shape).",
               .tag = "plugins",
               .request = GlobalRulesRequest(),
               .response = ContentRulesSchema(),
               .errors = {400, 403, 404}}});
}

// The routes of each backend plugin, by plugin id: a plugin registers its
// guard and event handler with its manifest (plugins/plugin_module.h), and
// its routes here, since http sits above plugins. AddPluginRoutes adds
// those of the plugins in the registry.
using PluginRouteAdder = void (*)(Router&, const Services&);
const std::map<std::string, PluginRouteAdder, std::less<>>& PluginRouteAdders() {
  static const std::map<std::string, PluginRouteAdder, std::less<>> kAdders = {
      {"content-rules", AddContentRulesRoutes},
      {"approval-workflow", [](Router& router, const Services& s) { AddApprovalRoutes(router, s.approvals); }},
      {"script-guards",
       [](Router& router, const Services& s) {
         AddCustomGuardRoutes(router, s.custom_guards, CustomGuardKind::kScript);
       }},
      {"admission-hooks",
       [](Router& router, const Services& s) {
         AddCustomGuardRoutes(router, s.custom_guards, CustomGuardKind::kHook);
       }},
  };
  return kAdders;
}

}  // namespace

void AddPluginRoutes(Router& router, const Services& s) {
  const plugins::PluginService& service = s.plugins;
  const plugins::GuardPipeline& guards = s.guards;
  const plugins::Registry& registry = service.registry();

  router.Add({Method::kGet,
              "/api/tenant/known-plugins",
              Auth::kPublic,
              "",
              [&registry](RequestContext& ctx) { return ManifestsAnswer(registry, ctx); },
              {.summary = "The plugin manifests this server offers, for provisioning (enabledPlugins of tenant "
                          "create). Names and descriptions follow the caller's preferred language when signed in, else "
                          "Accept-Language (English and Spanish).",
               .tag = "plugins",
               .response = Schema::Array(ManifestSchema())}});
  router.Add({Method::kGet,
              "/api/plugins",
              Auth::kUser,
              "",
              [&registry](RequestContext& ctx) { return ManifestsAnswer(registry, ctx); },
              {.summary = "Every plugin available: the manifests with their settings schema, guards, events and "
                          "routes. Names and descriptions follow the caller's preferred language, else Accept-Language "
                          "(English and Spanish).",
               .tag = "plugins",
               .response = Schema::Array(ManifestSchema())}});
  router.Add(Aliased({"/tenant/plugins/available"},
                     {Method::kGet,
                      "/api/tenant/plugins/available",
                      Auth::kUser,
                      "",
                      [&registry, &service](RequestContext& ctx) {
                        auto installed = service.List(ctx.Caller());
                        if (!installed) return Problem(ctx, installed.error());
                        const std::string_view language = TextLanguage(ctx);
                        json::array out;
                        for (const auto& m : registry.All()) {
                          auto o = ManifestJson(m, language);
                          bool is_installed = false;
                          for (const auto& i : *installed) is_installed |= i.plugin_id == m.id;
                          o["installed"] = is_installed;
                          out.push_back(std::move(o));
                        }
                        HttpResponse r = JsonResponse(200, out);
                        AddContentLanguage(r, language);
                        return r;
                      },
                      {.summary = "Plugins available to install, each with whether the tenant installed it. Names and "
                                  "descriptions follow the caller's preferred language, else Accept-Language.",
                       .tag = "plugins",
                       .response = Schema::Array([] {
                         auto fields = std::vector<Property>{};
                         return Schema::Object({
                             Required("id", Schema::String()),
                             Required("name", Schema::String()),
                             Required("version", Schema::String()),
                             Required("description", Schema::String()),
                             Required("category", Schema::String()),
                             Required("hasSettings", Schema::Boolean()),
                             Required("hasEndpoints", Schema::Boolean()),
                             Required("uiContributions", Schema::FreeObject()),
                             Required("dependencies", Schema::Array(Schema::String())),
                             Required("settingsSchema", Schema::FreeObject()),
                             Required("guards", Schema::Array(Schema::Object({
                                                    Required("pluginId", Schema::String()),
                                                    Required("action", Schema::String().Nullable()),
                                                }))),
                             Required("events", Schema::Array(Schema::String())),
                             Required("routes", Schema::Array(Schema::Object({
                                                    Required("method", Schema::String()),
                                                    Required("path", Schema::String()),
                                                }))),
                             Required("installed", Schema::Boolean()),
                         });
                       }())}}));
  router.Add({Method::kGet,
              "/api/plugins/{id}/ui-contributions",
              Auth::kUser,
              "",
              [&registry](RequestContext& ctx) {
                const Manifest* m = registry.Find(ctx.PathParam("id"));
                if (!m) return Problem(ctx, Error::NotFound("No such plugin."));
                return JsonResponse(200, UiContributionsJson(*m));
              },
              {.summary = "The UI contributions of a plugin: slot, componentName, pluginId.",
               .tag = "plugins",
               .response = Schema::Array(UiContributionSchema()),
               .errors = {404},
               .path_params = IdParam()}});
  router.Add({Method::kGet,
              "/plugins",
              Auth::kUser,
              "",
              [&registry, &service, &guards](RequestContext& ctx) {
                auto installed = service.List(ctx.Caller());
                if (!installed) return Problem(ctx, installed.error());
                const std::string_view language = TextLanguage(ctx);
                json::array out;
                for (const auto& i : *installed) {
                  if (!i.is_enabled) continue;
                  const Manifest* m = registry.Find(i.plugin_id);
                  out.push_back(json::object{{"id", m->id},
                                             {"name", plugins::LocalizedText(*m, language).name},
                                             {"version", m->version},
                                             {"uiContributions", UiContributionsJson(*m)},
                                             {"settings", i.settings},
                                             {"health", HealthJson(guards.Health(ctx.Caller().tenant_id, m->id))}});
                }
                HttpResponse r = JsonResponse(200, out);
                AddContentLanguage(r, language);
                return r;
              },
              {.summary = "The plugins installed and active (enabled) in the tenant, with their UI contributions, "
                          "settings and their guards' health. Names follow the caller's preferred language, else "
                          "Accept-Language.",
               .tag = "plugins",
               .response = Schema::Array(ActivePluginSchema())}});
  router.Add(
      Aliased({"/tenant/plugins"}, {Method::kGet,
                                    "/api/tenant/plugins",
                                    Auth::kUser,
                                    "",
                                    [&service](RequestContext& ctx) {
                                      auto installed = service.List(ctx.Caller());
                                      if (!installed) return Problem(ctx, installed.error());
                                      json::array out;
                                      for (const auto& i : *installed) out.push_back(InstallationJson(i));
                                      return JsonResponse(200, out);
                                    },
                                    {.summary = "The tenant's plugin installations (enabled or not), by plugin id.",
                                     .tag = "plugins",
                                     .response = Schema::Array(InstallationSchema())}}));
  router.Add(Aliased({"/tenant/plugins/{id}/install"},
                     {Method::kPost,
                      "/api/tenant/plugins/{id}/install",
                      Auth::kTenantAdmin,
                      "",
                      [&service](RequestContext& ctx) {
                        auto i = service.Install(ctx.Caller(), ctx.PathParam("id"));
                        if (!i) return Problem(ctx, i.error());
                        return JsonResponse(201, InstallationJson(*i));
                      },
                      {.summary = "Install a plugin into the tenant (global admin), enabled. 409 "
                                  "plugin_dependency_missing (missingPlugin names it) until its dependencies are "
                                  "installed and enabled; 409 plugin_already_installed.",
                       .tag = "plugins",
                       .response = InstallationSchema(),
                       .success_status = 201,
                       .errors = {403, 404, 409},
                       .path_params = IdParam()}}));
  for (const bool enable : {true, false}) {
    const std::string verb = enable ? "enable" : "disable";
    router.Add(Aliased({"/tenant/plugins/{id}/" + verb},
                       {Method::kPost,
                        "/api/tenant/plugins/{id}/" + verb,
                        Auth::kTenantAdmin,
                        "",
                        [&service, enable](RequestContext& ctx) {
                          auto i = service.SetEnabled(ctx.Caller(), ctx.PathParam("id"), enable);
                          if (!i) return Problem(ctx, i.error());
                          return JsonResponse(200, InstallationJson(*i));
                        },
                        {.summary = enable ? "Enable an installed plugin (global admin); 409 "
                                             "plugin_dependency_missing while a dependency is not enabled."
                                           : "Disable an installed plugin (global admin): its guards and routes stop "
                                             "acting for the tenant; 409 plugin_required while an enabled plugin "
                                             "depends on it.",
                         .tag = "plugins",
                         .response = InstallationSchema(),
                         .errors = {403, 404, 409},
                         .path_params = IdParam()}}));
  }
  router.Add(Aliased({"/tenant/plugins/{id}"},
                     {Method::kDelete,
                      "/api/tenant/plugins/{id}",
                      Auth::kTenantAdmin,
                      "",
                      [&service](RequestContext& ctx) {
                        auto done = service.Uninstall(ctx.Caller(), ctx.PathParam("id"));
                        if (!done) return Problem(ctx, done.error());
                        return NoContent();
                      },
                      {.summary = "Uninstall a plugin (global admin), dropping its settings; 409 plugin_required "
                                  "while an installed plugin depends on it.",
                       .tag = "plugins",
                       .success_status = 204,
                       .errors = {403, 404, 409},
                       .path_params = IdParam()}}));
  router.Add(Aliased({"/tenant/plugins/{id}/settings"},
                     {Method::kPut,
                      "/api/tenant/plugins/{id}/settings",
                      Auth::kTenantAdmin,
                      "",
                      [&service](RequestContext& ctx) {
                        auto body = ParseBody(ctx.request, SettingsRequest());
                        if (!body) return Problem(ctx, body.error());
                        auto i = service.UpdateSettings(ctx.Caller(), ctx.PathParam("id"), *body);
                        if (!i) return Problem(ctx, i.error());
                        return JsonResponse(200, InstallationJson(*i));
                      },
                      {.summary = "Replace an installed plugin's settings (global admin). 400 validation_failed "
                                  "naming each member its settingsSchema refuses; 400 plugin_has_no_settings.",
                       .tag = "plugins",
                       .request = SettingsRequest(),
                       .response = InstallationSchema(),
                       .errors = {400, 403, 404},
                       .path_params = IdParam()}}));

  // Each plugin's own routes, in registry order; a plugin without
  // registered routes must declare none.
  for (const Manifest& m : registry.All()) {
    const auto adder = PluginRouteAdders().find(m.id);
    if (adder != PluginRouteAdders().end())
      adder->second(router, s);
    else if (!m.routes.empty())
      throw std::logic_error("plugin '" + m.id + "' declares routes but registered none");
  }
}

}  // namespace credence::http
