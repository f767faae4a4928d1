// Sign-in (decisions.md 10, docs/sign-in.md): /auth/login, /auth/callback,
// /auth/logout, /auth/tenants, /auth/select-tenant, /auth/providers.
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "core/ids.h"
#include "http/handlers/identity_json.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "http/session_cookie.h"
#include "identity/session_service.h"
#include "identity/sign_in_service.h"

namespace credence::http {
namespace json = boost::json;

namespace {

// Binds a login's state to the browser that started it. HttpOnly (scripts
// never need it), SameSite=Lax (it must come back on the provider's
// top-level redirect to the callback), scoped to /auth.
constexpr std::string_view kLoginCookie = "credence_oidc";

json::array TenantsJson(const std::vector<identity::UserTenant>& tenants) {
  json::array out;
  for (const auto& t : tenants)
    out.push_back(json::object{{"id", t.id}, {"name", t.name}, {"slug", t.slug}, {"role", identity::TenantRoleName(t.role)}});
  return out;
}

Schema SignInUserSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("email", Schema::String()),
      Required("displayName", Schema::String()),
      Required("tenantId", Schema::Uuid().Nullable()),
      Required("tenantRole", Schema::String().Enum({"Owner", "Member", "Guest"}).Nullable()),
      Required("isGlobalAdmin", Schema::Boolean()),
      Required("preferredLanguage", Schema::String().Nullable()),
  });
}

Schema TenantListSchema() {
  return Schema::Array(Schema::Object({Required("id", Schema::Uuid()), Required("name", Schema::String()),
                                       Required("slug", Schema::String()),
                                       Required("role", Schema::String().Enum({"Owner", "Member", "Guest"}))}));
}

Schema SignedInSchema() {
  return Schema::Object({Required("user", SignInUserSchema()),
                         Optional("token", Schema::String().Describe(
                                               "the session token (crd_ss_...); absent when the session was put in "
                                               "the browser's cookie (\"cookie\": true)")),
                         Required("expiresAt", Schema::Timestamp()), Required("tenants", TenantListSchema())});
}


}  // namespace

void AddSignInRoutes(Router& router, const Services& s) {
  const identity::SignInService& sign_in = s.sign_in;
  const identity::SessionService& sessions = s.sessions;
  const SessionCookie session_cookie = SessionCookie::ForPublicUrl(sign_in.PublicUrl());
  const bool secure_cookie = session_cookie.secure();

  auto login = [&sign_in, secure_cookie](RequestContext& ctx, const std::string& provider) {
    auto redirect = sign_in.BeginLogin(provider);
    if (!redirect) return Problem(ctx, redirect.error());
    HttpResponse r;
    r.status = 302;
    r.WithHeader("Location", redirect->location);
    r.WithHeader("Set-Cookie", std::string(kLoginCookie) + "=" + redirect->browser_binding +
                                   "; Path=/auth; Max-Age=600; HttpOnly; SameSite=Lax" +
                                   (secure_cookie ? "; Secure" : ""));
    r.WithHeader("Cache-Control", "no-store");
    return r;
  };
  const RouteDoc login_doc{.summary = "Start signing in with a configured OpenID Connect provider: 302 to the "
                                      "provider, with a short-lived cookie binding the login to this browser.",
                           .tag = "sign-in",
                           .success_status = 302,
                           .errors = {404, 429, 502}};
  router.Add(LimitedByAddress({Method::kGet, "/auth/login/{provider}", Auth::kPublic, "",
              [login](RequestContext& ctx) { return login(ctx, ctx.PathParam("provider")); }, login_doc}));
  RouteDoc query_login_doc = login_doc;
  query_login_doc.query = {{"provider", Schema::String(), true, "the configured provider name"}};
  query_login_doc.errors = {400, 404, 429, 502};
  router.Add(LimitedByAddress({Method::kGet, "/auth/login", Auth::kPublic, "",
              [login](RequestContext& ctx) {
                auto provider = ctx.request.QueryParam("provider");
                if (!provider || provider->empty())
                  return Problem(ctx, Error::InvalidArgument("missing_provider", "Name a provider: ?provider=<name>.",
                                                             {{"provider", "is required"}}));
                return login(ctx, *provider);
              },
              query_login_doc}));

  // `in_cookie`: the web client's form; the session goes into the browser
  // session cookie and its token is not in the answer, so no script sees it.
  auto finish = [&sign_in, &sessions, session_cookie](RequestContext& ctx, const std::string& code,
                                                       const std::string& state, const std::string& provider_error,
                                                       const std::string& issuer, bool in_cookie) {
    const std::string binding(CookieValue(ctx.request.Header("cookie"), kLoginCookie));
    auto signed_in = sign_in.CompleteLogin(code, state, binding, provider_error, issuer, ctx.meta);
    if (!signed_in) return Problem(ctx, signed_in.error());
    json::object answer{{"user", UserJson(signed_in->user)},
                        {"expiresAt", FormatTimestamp(signed_in->expires_at)},
                        {"tenants", TenantsJson(signed_in->tenants)}};
    if (!in_cookie) answer["token"] = signed_in->token;
    HttpResponse r = JsonResponse(200, answer);
    r.WithHeader("Set-Cookie", std::string(kLoginCookie) + "=; Path=/auth; Max-Age=0; HttpOnly; SameSite=Lax");
    if (in_cookie)
      r.WithHeader("Set-Cookie", session_cookie.Set(signed_in->token, sessions.policy().absolute_ms / 1000));
    r.WithHeader("Cache-Control", "no-store");
    return r;
  };
  const std::vector<int> callback_errors = {400, 401, 403, 404, 502};
  router.Add({Method::kGet, "/auth/callback", Auth::kPublic, "",
              [finish, &sign_in](RequestContext& ctx) {
                // A browser (the provider's top-level redirect) goes on to the
                // web client, which completes the sign-in with POST; the
                // binding cookie (Path=/auth) goes with that POST.
                if (!sign_in.BrowserReturnPath().empty() &&
                    ctx.request.Header("accept").find("text/html") != std::string_view::npos) {
                  HttpResponse r;
                  r.status = 303;
                  r.WithHeader("Location", sign_in.BrowserReturnPath() + "?" + std::string(ctx.request.query()));
                  r.WithHeader("Cache-Control", "no-store");
                  r.WithHeader("Referrer-Policy", "no-referrer");
                  return r;
                }
                std::string error = ctx.request.QueryParam("error").value_or("");
                if (auto d = ctx.request.QueryParam("error_description"); !error.empty() && d) error += ": " + *d;
                return finish(ctx, ctx.request.QueryParam("code").value_or(""),
                              ctx.request.QueryParam("state").value_or(""), error,
                              ctx.request.QueryParam("iss").value_or(""), /*in_cookie=*/false);
              },
              {.summary = "Where the provider returns the browser (redirect URI <public-url>/auth/callback): "
                          "completes the sign-in like POST /auth/callback. When the server serves the web client (--web-dir), a "
                          "browser (Accept: text/html) is sent on with 303 to the client's /sign-in/callback with the "
                          "same query, and the client completes the sign-in with POST /auth/callback.",
               .tag = "sign-in",
               .response = SignedInSchema(),
               .other_success = {303},
               .query = {{"code", Schema::String(), false, "the authorization code"},
                         {"state", Schema::String(), true, "the login's state"},
                         {"error", Schema::String(), false, "the provider's error instead of a code"},
                         {"iss", Schema::String(), false, "the issuer (RFC 9207); must be the login's provider"}},
               .errors = callback_errors}});
  static const Schema kCallbackRequest =
      Schema::Object({Required("code", Schema::String().MinLength(1).MaxLength(4096)),
                      Required("state", Schema::String().MinLength(1).MaxLength(512)),
                      Optional("iss", Schema::String().MaxLength(2048).Describe("the callback's iss (RFC 9207)")),
                      Optional("cookie", SessionCookieRequested())});
  router.Add({Method::kPost, "/auth/callback", Auth::kPublic, "",
              [finish](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kCallbackRequest);
                if (!body) return Problem(ctx, body.error());
                const bool in_cookie = GetBool(*body, "cookie");
                // Before the login is used: a refused request leaves it to the real one.
                if (in_cookie)
                  if (Status csrf = CheckCsrfHeader(ctx.request); !csrf) return Problem(ctx, csrf.error());
                return finish(ctx, GetString(*body, "code"), GetString(*body, "state"), "", GetString(*body, "iss"),
                              in_cookie);
              },
              {.summary = "Complete a sign-in with the code and state the provider returned (the web client's "
                          "form); answers the user, an opaque session token and the user's tenants. With "
                          "\"cookie\": true (and the X-Credence-CSRF header) the session is set in the browser "
                          "session cookie instead and the answer carries no token.",
               .tag = "sign-in",
               .request = kCallbackRequest,
               .response = SignedInSchema(),
               .errors = callback_errors}});

  router.Add({Method::kPost, "/auth/logout", Auth::kPublic, "",
              [&sessions, session_cookie](RequestContext& ctx) {
                const bool had = ctx.principal && !ctx.principal->session_id.empty();
                if (had) sessions.End(*ctx.principal);
                HttpResponse r = JsonResponse(200, json::object{{"signedOut", had}});
                // Whatever the cookie held (an ended session too), the browser drops it.
                if (!session_cookie.ValueIn(ctx.request).empty()) r.WithHeader("Set-Cookie", session_cookie.Clear());
                return r;
              },
              {.summary = "End the caller's session at once (and clear the browser session cookie). Without a "
                          "session there is nothing to end (signedOut false).",
               .tag = "sign-in",
               .response = Schema::Object({Required("signedOut", Schema::Boolean())})}});

  router.Add({Method::kGet, "/auth/tenants", Auth::kSignedIn, "",
              [&sign_in](RequestContext& ctx) {
                return JsonResponse(200, TenantsJson(sign_in.TenantsOf(ctx.Caller().user_id)));
              },
              {.summary = "The signed-in user's tenants, with their role.", .tag = "sign-in",
               .response = TenantListSchema()}});

  static const Schema kSelectRequest = Schema::Object({Required("tenantId", Schema::Uuid())});
  router.Add({Method::kPost, "/auth/select-tenant", Auth::kSignedIn, "",
              [&sessions](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kSelectRequest);
                if (!body) return Problem(ctx, body.error());
                auto selected = sessions.SelectTenant(ctx.Caller(), CanonicalUuid(GetString(*body, "tenantId")));
                if (!selected) return Problem(ctx, selected.error());
                return JsonResponse(200, json::object{{"user", UserJson(identity::TenantService::ProfileOf(*selected))}});
              },
              {.summary = "Scope the session to one of the user's tenants; later calls act in it.",
               .tag = "sign-in",
               .request = kSelectRequest,
               .response = Schema::Object({Required("user", SignInUserSchema())}),
               .errors = {404}}});

  router.Add({Method::kGet, "/auth/providers", Auth::kPublic, "",
              [&sign_in](RequestContext&) {
                json::array out;
                for (const auto& name : sign_in.ProviderNames())
                  out.push_back(json::object{{"name", name}, {"loginUrl", "/auth/login/" + name}});
                return JsonResponse(200, out);
              },
              {.summary = "The configured sign-in providers.",
               .tag = "sign-in",
               .response = Schema::Array(Schema::Object(
                   {Required("name", Schema::String()), Required("loginUrl", Schema::String())}))}});
}

}  // namespace credence::http
