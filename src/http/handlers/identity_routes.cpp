#include "core/ids.h"
#include "http/handlers/identity_json.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "http/session_cookie.h"
#include "identity/session_service.h"
#include "identity/sign_in_service.h"
#include "identity/tenant_service.h"
#include "identity/user_service.h"
#include "plugins/plugin_service.h"

namespace credence::http {
namespace json = boost::json;
using identity::TenantService;

namespace {

json::object TenantJson(const identity::Tenant& t) {
  return {{"id", t.id},
          {"name", t.name},
          {"slug", t.slug},
          {"domain", t.domain ? json::value(*t.domain) : json::value(nullptr)},
          {"allowAllUsers", t.allow_all_users},
          {"enabledLanguages", ToJsonArray(t.enabled_languages)},
          {"enabledPlugins", ToJsonArray(t.enabled_plugins)},
          {"defaultLanguage", t.default_language},
          {"createdAt", FormatTimestamp(t.created_at)}};
}

Schema UserSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("email", Schema::String()),
      Required("displayName", Schema::String()),
      Required("tenantId", Schema::Uuid()),
      Required("tenantRole", Schema::String().Enum({"Owner", "Member", "Guest"})),
      Required("isGlobalAdmin", Schema::Boolean()),
      Required("preferredLanguage", Schema::String().Nullable()),
  });
}

Schema TenantSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("name", Schema::String()),
      Required("slug", Schema::String()),
      Required("domain", Schema::String().Nullable()),
      Required("allowAllUsers", Schema::Boolean()),
      Required("enabledLanguages", Schema::Array(Schema::String())),
      Required("enabledPlugins", Schema::Array(Schema::String())),
      Required("defaultLanguage", Schema::String()),
      Required("createdAt", Schema::Timestamp()),
  });
}

bool IsKebabId(std::string_view s) {
  if (s.empty() || s.size() > 64 || s.front() == '-' || s.back() == '-') return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

bool IsHostName(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.')) return false;
  return s.front() != '.' && s.back() != '.' && s.front() != '-';
}

}  // namespace

void AddIdentityRoutes(Router& router, const Services& s) {
  const TenantService& tenants = s.tenants;

  router.Add({Method::kGet, "/auth/dev-tenants", Auth::kDevOnly, "",
              [&tenants](RequestContext&) {
                json::array out;
                for (const auto& t : tenants.ListAll())
                  out.push_back(json::object{{"id", t.id}, {"name", t.name}, {"slug", t.slug}});
                return JsonResponse(200, out);
              },
              {.summary = "Development mode: the tenants one can sign in to.",
               .tag = "auth",
               .response = Schema::Array(Schema::Object({Required("id", Schema::Uuid()),
                                                         Required("name", Schema::String()),
                                                         Required("slug", Schema::String())}))}});

  static const Schema kDevLoginRequest = Schema::Object({
      Required("persona", Schema::String().MinLength(1).MaxLength(64).Describe("admin, editor, viewer or guest")),
      Required("tenantId", Schema::Uuid()),
      Optional("session", Schema::Boolean().Describe("answer a real session token (crd_ss_...) instead of a "
                                                     "development token, for trying sessions without a provider")),
      Optional("cookie", SessionCookieRequested()),
  });
  const identity::SessionService& sessions = s.sessions;
  // The web client's personas sign in as a person does (docs/sign-in.md,
  // "Browser sessions"): a real session, in the cookie.
  const SessionCookie session_cookie = SessionCookie::ForPublicUrl(s.sign_in.PublicUrl());
  router.Add(LimitedByAddress({Method::kPost, "/auth/dev-login", Auth::kDevOnly, "",
              [&tenants, &sessions, session_cookie](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kDevLoginRequest);
                if (!body) return Problem(ctx, body.error());
                const bool in_cookie = GetBool(*body, "cookie");
                if (in_cookie)
                  if (Status csrf = CheckCsrfHeader(ctx.request); !csrf) return Problem(ctx, csrf.error());
                auto login = tenants.DevLogin(GetString(*body, "persona"), CanonicalUuid(GetString(*body, "tenantId")));
                if (!login) return Problem(ctx, login.error());
                if (in_cookie || GetBool(*body, "session"))
                  login->token = sessions.StartStandalone({login->user.id, login->user.tenant_id, "dev", {},
                                                           std::string(ctx.request.Header("user-agent"))}).token;
                if (!in_cookie) return JsonResponse(200, {{"token", login->token}, {"user", UserJson(login->user)}});
                HttpResponse r = JsonResponse(200, {{"user", UserJson(login->user)}});
                r.WithHeader("Set-Cookie", session_cookie.Set(login->token, sessions.policy().absolute_ms / 1000));
                return r;
              },
              {.summary = "Development mode: sign in as a persona; the token is dev-token-<tenant_id>:<user_id>, "
                          "or a session token with \"session\": true. With \"cookie\": true (and the "
                          "X-Credence-CSRF header) a session is set in the browser session cookie and the answer "
                          "carries no token.",
               .tag = "auth",
               .request = kDevLoginRequest,
               .response = Schema::Object({Optional("token", Schema::String().Describe(
                                                                 "absent when the session is in the cookie")),
                                           Required("user", UserSchema())}),
               .errors = {404}}}));

  static const Schema kCreateTenantRequest = Schema::Object({
      Required("name", Schema::String().MinLength(1).MaxLength(200)),
      Required("slug", Schema::String().MinLength(1).MaxLength(63).Check(
                           IsSlug, "must be URL-safe: lowercase letters, digits and inner hyphens")),
      Optional("domain", Schema::String().MaxLength(253).Check(IsHostName, "must be a host name")),
      Optional("allowAllUsers", Schema::Boolean()),
      Optional("enabledLanguages", Schema::Array(Schema::String().MinLength(2).MaxLength(16)).MaxItems(100)),
      Optional("enabledPlugins", Schema::Array(Schema::String().Check(IsKebabId, "must be a kebab-case plugin id"))
                                     .MaxItems(100)),
  });
  auto create_tenant = [&tenants, &plugins = s.plugins](RequestContext& ctx) {
    auto body = ParseBody(ctx.request, kCreateTenantRequest);
    if (!body) return Problem(ctx, body.error());
    // Who may (outside development mode: a signed-in person, as its Owner,
    // within the daily limit) is the service's decision.
    identity::NewTenant request;
    request.name = GetString(*body, "name");
    request.slug = GetString(*body, "slug");
    request.domain = GetOptString(*body, "domain");
    request.allow_all_users = GetBool(*body, "allowAllUsers");
    request.enabled_languages = GetStringArray(*body, "enabledLanguages");
    request.enabled_plugins = GetStringArray(*body, "enabledPlugins");
    if (auto known = plugins::PluginService::CheckKnown(plugins.registry(), request.enabled_plugins); !known)
      return Problem(ctx, known.error());
    auto tenant = tenants.Create(request, ctx.principal ? &*ctx.principal : nullptr, ctx.meta);
    if (!tenant) return Problem(ctx, tenant.error());
    // enabledPlugins are installed (dependencies first) once the tenant exists.
    if (auto installed = plugins.InstallAtProvisioning(tenant->id, request.enabled_plugins); !installed)
      return Problem(ctx, installed.error());
    return JsonResponse(201, TenantJson(*tenant));
  };
  router.Add(Aliased({"/tenant/create"},
                     {Method::kPost,
                      "/api/tenant/create",
                      Auth::kPublic,
                      "",
                      create_tenant,
                      {.summary = "Provision a workspace. In development mode anyone may, and the four personas are "
                                  "created; otherwise a signed-in person (no tenant needed) becomes its Owner, at most "
                                  "--tenant-creations-per-day a day.",
                       .tag = "tenants",
                       .request = kCreateTenantRequest,
                       .response = TenantSchema(),
                       .success_status = 201,
                       .errors = {401, 403, 409, 429}}}));

  // A person with no workspace is offered to create one only when the
  // server would let them (the web client's "no workspace" page).
  router.Add({Method::kGet, "/auth/tenant-creation", Auth::kSignedIn, "",
              [&tenants](RequestContext& ctx) {
                const auto allowance = tenants.CreationAllowance(ctx.Caller());
                json::object out{{"allowed", allowance.allowed}};
                if (allowance.per_day >= 0) out["perDay"] = allowance.per_day;
                if (allowance.remaining >= 0) out["remainingToday"] = allowance.remaining;
                return JsonResponse(200, out);
              },
              {.summary = "Whether the signed-in person may create a workspace now (POST /api/tenant/create): "
                          "always in development mode (no limit given), else within --tenant-creations-per-day.",
               .tag = "tenants",
               .response = Schema::Object({Required("allowed", Schema::Boolean()),
                                           Optional("perDay", Schema::Integer()),
                                           Optional("remainingToday", Schema::Integer())})}});

  router.Add({Method::kGet, "/api/tenant/known-languages", Auth::kPublic, "",
              [](RequestContext&) {
                json::array out;
                for (const auto& l : identity::KnownLanguages())
                  out.push_back(
                      json::object{{"code", l.code}, {"displayName", l.display_name}, {"nativeName", l.native_name}});
                return JsonResponse(200, out);
              },
              {.summary = "Languages the platform supports.",
               .tag = "tenants",
               .response = Schema::Array(Schema::Object({Required("code", Schema::String()),
                                                         Required("displayName", Schema::String()),
                                                         Required("nativeName", Schema::String())}))}});

  router.Add(Aliased(
      {"/users/me"},
      {Method::kGet,
       "/api/users/me",
       Auth::kUser,
       "",
       [](RequestContext& ctx) { return JsonResponse(200, UserJson(TenantService::ProfileOf(ctx.Caller()))); },
       {.summary = "The signed-in user's profile and tenant role.", .tag = "users", .response = UserSchema()}}));

  const identity::UserService& users = s.users;
  const Schema user_list_item = Schema::Object({
      Required("id", Schema::Uuid()),
      Required("email", Schema::String()),
      Required("displayName", Schema::String()),
      Required("tenantRole", Schema::String().Enum({"Owner", "Member", "Guest"})),
      Required("preferredLanguage", Schema::String().Nullable()),
      Required("joinedAt", Schema::Timestamp()),
  });
  router.Add(Aliased(
      {"/users"},
      {Method::kGet,
       "/api/users",
       Auth::kUser,
       "",
       [&users](RequestContext& ctx) {
         json::array out;
         for (const auto& u : users.List(ctx.Caller())) {
           out.push_back(json::object{
               {"id", u.id},
               {"email", u.email},
               {"displayName", u.display_name},
               {"tenantRole", identity::TenantRoleName(u.role)},
               {"preferredLanguage", u.preferred_language ? json::value(*u.preferred_language) : json::value(nullptr)},
               {"joinedAt", FormatTimestamp(u.joined_at)}});
         }
         return JsonResponse(200, out);
       },
       {.summary = "Active users of the tenant, for pickers.",
        .tag = "users",
        .response = Schema::Array(user_list_item)}}));

  static const Schema kPreferredLanguageRequest =
      Schema::Object({Required("languageCode", Schema::String().MinLength(2).MaxLength(16))});
  router.Add(Aliased({"/users/me/preferred-language"},
                     {Method::kPut,
                      "/api/users/me/preferred-language",
                      Auth::kUser,
                      "",
                      [&users](RequestContext& ctx) {
                        auto body = ParseBody(ctx.request, kPreferredLanguageRequest);
                        if (!body) return Problem(ctx, body.error());
                        const std::string code = GetString(*body, "languageCode");
                        if (auto set = users.SetPreferredLanguage(ctx.Caller(), code); !set)
                          return Problem(ctx, set.error());
                        return JsonResponse(200, {{"preferredLanguage", code}});
                      },
                      {.summary = "Set the signed-in user's preferred UI language.",
                       .tag = "users",
                       .request = kPreferredLanguageRequest,
                       .response = Schema::Object({Required("preferredLanguage", Schema::String().Nullable())})}}));
  router.Add(Aliased(
      {"/users/me/preferred-language"},
      {Method::kDelete,
       "/api/users/me/preferred-language",
       Auth::kUser,
       "",
       [&users](RequestContext& ctx) {
         if (auto cleared = users.ClearPreferredLanguage(ctx.Caller()); !cleared) return Problem(ctx, cleared.error());
         return NoContent();
       },
       {.summary = "Clear the signed-in user's preferred UI language.", .tag = "users", .success_status = 204}}));

  static const Schema kRoleRequest =
      Schema::Object({Required("role", Schema::String().Enum({"Owner", "Member", "Guest"}))});
  router.Add(Aliased({"/users/{id}/role"},
                     {Method::kPut,
                      "/api/users/{id}/role",
                      Auth::kTenantAdmin,
                      "",
                      [&users](RequestContext& ctx) {
                        auto body = ParseBody(ctx.request, kRoleRequest);
                        if (!body) return Problem(ctx, body.error());
                        const auto role = identity::ParseTenantRole(GetString(*body, "role"));
                        if (!role) return Problem(ctx, Error::Validation({{"role", "must be Owner, Member or Guest"}}));
                        const std::string id = CanonicalUuid(ctx.PathParam("id"));
                        if (auto changed = users.ChangeRole(ctx.Caller(), id, *role); !changed)
                          return Problem(ctx, changed.error());
                        return JsonResponse(200, json::object{{"userId", id}, {"tenantRole", GetString(*body, "role")}});
                      },
                      {.summary = "Change a member's tenant role (global admin). The last Owner cannot stop being "
                                  "one (400 last_owner); the new role holds from the member's next request.",
                       .tag = "users",
                       .request = kRoleRequest,
                       .response = Schema::Object({Required("userId", Schema::Uuid()),
                                                   Required("tenantRole", Schema::String().Enum({"Owner", "Member", "Guest"}))}),
                       .errors = {400, 404},
                       .path_params = {{"id", Schema::Uuid()}}}}));

  router.Add(Aliased({"/users/{id}"},
                     {Method::kDelete,
                      "/api/users/{id}",
                      Auth::kUser,
                      "",
                      [&users](RequestContext& ctx) {
                        auto removed = users.RemoveFromTenant(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                        if (!removed) return Problem(ctx, removed.error());
                        return NoContent();
                      },
                      {.summary = "Remove a user from the tenant (global admin). Their content stays, owned by an "
                                  "inactive member until transferred.",
                       .tag = "users",
                       .success_status = 204,
                       .errors = {400, 404},
                       .path_params = {{"id", Schema::Uuid()}}}}));
}

}  // namespace credence::http
