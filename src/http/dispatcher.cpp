#include "http/dispatcher.h"

#include "core/text.h"

#include <chrono>
#include <exception>
#include <functional>

#include <boost/algorithm/string/predicate.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include "core/ids.h"
#include "core/json_text.h"
#include "core/logging.h"
#include "core/outside_transaction.h"
#include "http/language.h"
#include "http/metrics.h"
#include "http/problem.h"
#include "http/rate_limiter.h"
#include "http/router.h"
#include "http/scim_error.h"
#include "http/static_site.h"
#include "identity/audit.h"
#include "identity/authenticator.h"
#include "identity/authorization.h"
#include "identity/scim/scim_service.h"
#include "storage/database.h"
#include "telemetry/span.h"

namespace credence::http {
namespace {

// A client-supplied request id is kept when it is short and plain, so a
// caller can correlate its own logs with ours.
std::string RequestIdFor(const HttpRequest& request) {
  std::string_view given = request.Header("x-request-id");
  if (!given.empty() && given.size() <= 64) {
    bool plain = true;
    for (char c : given)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) plain = false;
    if (plain) return std::string(given);
  }
  return NewId();
}

constexpr size_t kMaxUserAgentBytes = 512;

// What the audit log keeps of where a request came from.
identity::RequestMeta MetaOf(const HttpRequest& request, const std::string& request_id) {
  identity::RequestMeta meta;
  meta.request_id = request_id;
  meta.client_address = request.client_address;
  std::string_view agent = request.Header("user-agent");
  if (agent.size() > kMaxUserAgentBytes) {
    agent = agent.substr(0, kMaxUserAgentBytes);
    // Not in the middle of a UTF-8 sequence.
    while (!agent.empty() && (static_cast<unsigned char>(agent.back()) & 0xC0) == 0x80) agent.remove_suffix(1);
    if (!agent.empty() && (static_cast<unsigned char>(agent.back()) & 0x80) != 0) agent.remove_suffix(1);
  }
  meta.user_agent = std::string(agent);
  return meta;
}

// A signed-in caller refused by its role or its credential's kind or scope
// (403) on an admin-only route or on any route that would change
// something: security-relevant, so recorded (docs/audit.md). Reads refused
// on ordinary routes are not (they would flood the log with UI probing).
bool IsAuditedRefusal(const Route& route, Method method, const HttpResponse& response,
                      const std::optional<identity::Principal>& principal) {
  if (response.status != 403 || !principal || principal->tenant_id.empty()) return false;
  if (route.auth == Auth::kTenantAdmin) return true;
  return method != Method::kGet && method != Method::kHead && method != Method::kOptions;
}

std::string Quoted(std::string_view s) {
  std::string out;
  AppendJsonString(out, s);
  return out;
}

// Route-level access: authentication happened already; this checks the kind
// of principal the route admits. Finer checks (roles) are the handler's.
Status CheckAccess(const Route& route, const std::optional<identity::Principal>& principal) {
  if (route.auth == Auth::kPublic || route.auth == Auth::kDevOnly) return Ok();
  if (!principal) return Error::Unauthenticated("missing_credentials", "This endpoint needs a bearer token.");
  // A SCIM key provisions and does nothing else, and nothing else
  // provisions: a stolen session cannot create users, a SCIM token cannot
  // read knowledge (docs/scim.md).
  if (route.auth == Auth::kScimKey) {
    if (!identity::IsScimKey(*principal))
      return Error::Unauthenticated("invalid_token",
                                    "/scim/v2/ takes only a SCIM key (a tenant API key with the scope scim).");
    return Ok();
  }
  if (!principal->is_user() && principal->HasScope(identity::kScimScope))
    return Error::Unauthenticated("invalid_token", "A SCIM key is accepted only under /scim/v2/.");
  if (route.auth == Auth::kSignedIn) return identity::RequireUser(*principal);
  // A session signed in to several tenants reaches tenant data only once one
  // is selected (decisions.md 10).
  if (!principal->has_tenant())
    return Error{ErrorKind::kPermissionDenied,
                 "tenant_not_selected",
                 "Select a tenant first: GET /auth/tenants, then POST /auth/select-tenant.",
                 {},
                 {}};
  // RFC 8707: a token bound to a resource is good there only, and a
  // resource takes no token requested for the REST API (the MCP spec forbids
  // passing tokens through to other resources).
  if (principal->access_token && principal->audience != route.resource)
    return Error::Unauthenticated(
        "invalid_token", principal->audience.empty()
                             ? "This endpoint takes an app key, or an access token requested with resource=" +
                                   route.resource + "."
                             : "The access token was requested for " + principal->audience +
                                   " and is accepted only there.");
  if (route.auth == Auth::kUser) return identity::RequireUser(*principal);
  if (route.auth == Auth::kTenantAdmin) return identity::RequireGlobalAdmin(*principal);
  // An empty scope admits any machine credential of the tenant (e.g. whoami).
  if (route.auth == Auth::kUserOrMachine && !principal->is_user() && !route.scope.empty() &&
      !principal->HasScope(route.scope)) {
    Error e = Error::PermissionDenied("The credential lacks the scope " + route.scope + ".");
    e.code = "insufficient_scope";
    return std::move(e).With("scope", Quoted(route.scope));
  }
  return Ok();
}

// Declared path parameters (e.g. UUID ids) are checked here, once, so a
// malformed id is a 400 naming the parameter on every route.
Status ValidatePathParams(const Route& route, const std::vector<std::pair<std::string_view, std::string>>& params) {
  std::vector<FieldError> errors;
  for (const auto& [name, schema] : route.doc.path_params) {
    for (const auto& [param, value] : params) {
      if (param != name) continue;
      schema.Validate(boost::json::value(value), std::string(name), errors);
    }
  }
  if (errors.empty()) return Ok();
  return Error::InvalidArgument("invalid_path_parameter", "A path parameter is malformed.", std::move(errors));
}

// Text from the URL ends up in answers (an id echoed back, a filter named
// in an error), and JSON must be UTF-8: a parameter that decodes to bytes
// that are not is refused here, once, for every route.
Status ValidateEncoding(const HttpRequest& request,
                        const std::vector<std::pair<std::string_view, std::string>>& path_params) {
  std::vector<FieldError> errors;
  for (const auto& [name, value] : request.QueryParams())
    if (!IsValidUtf8(name) || !IsValidUtf8(value))
      errors.push_back({IsValidUtf8(name) ? name : std::string("(query)"), "must be UTF-8 once percent-decoded"});
  if (!errors.empty())
    return Error::InvalidArgument("invalid_query_parameter", "A query parameter is not UTF-8.", std::move(errors));
  for (const auto& [name, value] : path_params)
    if (!IsValidUtf8(value)) errors.push_back({std::string(name), "must be UTF-8 once percent-decoded"});
  if (!errors.empty())
    return Error::InvalidArgument("invalid_path_parameter", "A path parameter is malformed.", std::move(errors));
  return Ok();
}

// RFC 9728 section 5.1: a protected resource's Bearer challenges name its
// metadata, which is how an MCP client finds where to get a token.
void AddResourceMetadata(HttpResponse& response, const std::string& metadata_url) {
  for (auto& [name, value] : response.headers) {
    if (!boost::algorithm::iequals(name, "www-authenticate") || !value.starts_with("Bearer ")) continue;
    value.insert(7, "resource_metadata=\"" + metadata_url + "\", ");
  }
}

// Seconds a client should wait after a disk-full or I/O failure.
constexpr std::string_view kStorageFailureRetryAfter = "30";

// Runs `handle` and maps what it throws: a storage conflict is 409, a busy
// store 503 with Retry-After, a full disk or an I/O error 503 with its own
// code and a longer Retry-After, anything else a logged 500.
// A template, not a std::function: the synchronous path calls it once per
// request and should not allocate for it. `language` gives the answer's
// language (http/language.h) once the caller is known.
template <typename Language, typename Handle>
HttpResponse Guarded(const Route& route, const std::string& request_id, std::string_view path, Language&& language,
                     Handle&& handle) {
  auto fail = [&](const Error& e) { return ProblemResponse(e, path, request_id, language()); };
  try {
    return handle();
  } catch (const storage::StorageError& e) {
    // A store that is unreachable or busy for a moment (a failover: every
    // request of its few seconds meets it) is a warning; the rest are errors.
    const bool passing = e.kind() == storage::StorageError::Kind::kBusy ||
                         e.kind() == storage::StorageError::Kind::kUnavailable;
    LogLine(passing ? LogLevel::kWarn : LogLevel::kError, "storage error")
        .Str("requestId", request_id)
        .Str("route", route.path)
        .Str("error", e.what());
    if (e.kind() == storage::StorageError::Kind::kUniqueViolation)
      return fail(Error::Conflict("conflict", "The request conflicts with existing data."));
    if (e.kind() == storage::StorageError::Kind::kStorageFull || e.kind() == storage::StorageError::Kind::kIoError) {
      // The operator has to act (free space, replace a disk); /readyz says
      // not ready meanwhile. Nothing was committed.
      const bool full = e.kind() == storage::StorageError::Kind::kStorageFull;
      HttpResponse r = fail(Error{
          ErrorKind::kUnavailable,
          full ? "storage_full" : "storage_io_error",
          full ? "The store is out of space; nothing was written. Retry later."
               : "The store failed to read or write; nothing was written. Retry later.",
          {},
          {}}.With("retryAfter", "\"" + std::string(kStorageFailureRetryAfter) + "\""));
      r.WithHeader("Retry-After", std::string(kStorageFailureRetryAfter));
      return r;
    }
    if (e.kind() == storage::StorageError::Kind::kBusy || e.kind() == storage::StorageError::Kind::kUnavailable) {
      HttpResponse r =
          fail(Error{ErrorKind::kUnavailable, "storage_unavailable", "The store is busy; retry shortly.", {}, {}}.With(
              "retryAfter", "\"1\""));
      r.WithHeader("Retry-After", "1");
      return r;
    }
    return fail(Error::Internal("An internal error occurred; quote the request id when reporting it."));
  } catch (const std::exception& e) {
    LogLine(LogLevel::kError, "handler failed")
        .Str("requestId", request_id)
        .Str("route", route.path)
        .Str("error", e.what());
  } catch (...) {
    LogLine(LogLevel::kError, "handler failed").Str("requestId", request_id).Str("route", route.path);
  }
  return fail(Error::Internal("An internal error occurred; quote the request id when reporting it."));
}

// Headers every answer carries (docs/decisions.md, "Response headers"):
// nosniff, and no-store unless the route chose its own caching.
void AddStandardHeaders(HttpResponse& response) {
  response.WithHeader("X-Content-Type-Options", "nosniff");
  for (const auto& [name, value] : response.headers)
    if (boost::algorithm::iequals(name, "cache-control")) return;
  response.WithHeader("Cache-Control", "no-store");
}

// The RateLimit-Policy and RateLimit headers of the limits that applied
// (draft-ietf-httpapi-ratelimit-headers), on whatever the request answered.
struct RateLimitHeaders {
  std::string policy, state;
  void AddTo(HttpResponse& response) const {
    if (policy.empty()) return;
    response.WithHeader("RateLimit-Policy", policy);
    response.WithHeader("RateLimit", state);
  }
};

Error RateLimited(const RateLimitVerdict& verdict) {
  return Error{ErrorKind::kRateLimited,
               "rate_limited",
               "Too many requests for this " + verdict.refused_by + "; retry after " +
                   std::to_string(verdict.retry_after) + " s.",
               {},
               {}}
      .With("retryAfter", "\"" + std::to_string(verdict.retry_after) + "\"")
      .With("policy", Quoted(verdict.refused_by));
}

// The request's span (docs/tracing.md): the caller's traceparent continued
// (or a new trace), made current for everything the request does. Not even
// the headers are read when tracing is off. Health probes are not traced:
// a load balancer asks every few seconds and the traces would be noise.
telemetry::Span StartRequestSpan(const HttpRequest& request) {
  if (!telemetry::TracingEnabled()) return {};
  if (request.path() == "/healthz" || request.path() == "/readyz") return {};
  telemetry::Span span =
      telemetry::Span::Server(request.method_name, request.Header("traceparent"), request.Header("tracestate"));
  if (span.recording()) {
    span.SetString("http.request.method", request.method_name)
        .SetString("url.path", request.path())
        .SetString("url.scheme", "http")
        .SetString("client.address", request.client_address)
        .SetString("user_agent.original", request.Header("user-agent").substr(0, kMaxUserAgentBytes));
  }
  return span;
}

void EndRequestSpan(telemetry::Span& span, const Route* route, int status, std::string_view request_id,
                    std::string_view tenant) {
  if (span.recording()) {
    if (route != nullptr) span.SetString("http.route", route->path);
    span.SetInt("http.response.status_code", status).SetString("credence.request_id", request_id);
    if (!tenant.empty()) span.SetString("credence.tenant_id", tenant);
    // A server span fails on 5xx only: a 4xx is the caller's error, not ours
    // (OTel HTTP semantic conventions).
    if (status >= 500) span.SetError("HTTP " + std::to_string(status));
  }
  span.End();
}

}  // namespace

// What every answer gets once it is final: the request id header, the
// standard headers, the metric and the access log line.
void Dispatcher::Conclude(HttpResponse& response, const Route* route, Method method, std::string_view method_name,
                          const std::string& request_id, std::string_view tenant, Clock::time_point started) const {
  response.WithHeader("X-Request-Id", request_id);
  AddStandardHeaders(response);
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  metrics_.Record(route, method, response.status, seconds);
  LogLine(LogLevel::kInfo, "request")
      .Str("requestId", request_id)
      .Str("method", method_name)
      .Str("route", route != nullptr ? std::string_view(route->path) : std::string_view("unmatched"))
      .Int("status", response.status)
      .Num("durationMs", seconds * 1000)
      .Str("tenant", tenant);
}

HttpResponse Dispatcher::Dispatch(const HttpRequest& request) const {
  const auto started = Clock::now();
  telemetry::Span span = StartRequestSpan(request);
  RequestContext ctx(request, RequestIdFor(request));
  ctx.meta = MetaOf(request, ctx.request_id);
  const Route* route = nullptr;
  HttpResponse response;

  auto fail = [&](const Error& e) { response = Problem(ctx, e); };

  Router::Match match = router_.Find(request.method, request.path());
  switch (match.outcome) {
    case Router::Match::Outcome::kNotFound:
      if (site_ != nullptr) {
        if (auto page = site_->Serve(request)) {
          response = std::move(*page);
          break;
        }
      }
      fail(Error{
          ErrorKind::kNotFound, "route_not_found", "No route matches " + std::string(request.path()) + ".", {}, {}});
      break;
    case Router::Match::Outcome::kMethodNotAllowed:
      fail(Error{
          ErrorKind::kMethodNotAllowed,
          "method_not_allowed",
          std::string(request.method_name) + " is not allowed here; allowed: " + match.allow + ".",
          {},
          {}}.With("allow", Quoted(match.allow)));
      break;
    case Router::Match::Outcome::kBadPath:
      fail(Error::InvalidArgument("invalid_path", "The path contains a malformed percent-escape."));
      break;
    case Router::Match::Outcome::kFound:
      route = match.route;
      // Named by the route template, not the path, so ids do not make
      // every request a span name of its own.
      if (span.recording()) span.SetName(request.method_name + " " + route->path);
      break;
  }

  if (route != nullptr && route->auth == Auth::kDevOnly && !dev_mode_) {
    fail(Error{
        ErrorKind::kNotFound, "route_not_found", "No route matches " + std::string(request.path()) + ".", {}, {}});
    route = nullptr;
  }

  RateLimitHeaders rate_headers;
  if (route != nullptr) {
    ctx.path_params = std::move(match.params);
    const auto language = [&ctx] { return TextLanguage(ctx); };
    response = Guarded(*route, ctx.request_id, request.path(), language, [&]() -> HttpResponse {
      identity::Credentials credentials{request.Header("authorization"), request.Header("x-api-key"), {}};
      if (session_cookie_ && credentials.authorization.empty() && credentials.api_key.empty()) {
        credentials.session_cookie = session_cookie_->ValueIn(request);
        // Checked before the session is read: a forged request costs no lookup.
        if (!credentials.session_cookie.empty() && IsUnsafeMethod(request.method))
          if (Status csrf = CheckCsrfHeader(request); !csrf) {
            LogLine(LogLevel::kWarn, "request refused: session cookie without the CSRF header")
                .Str("requestId", ctx.request_id)
                .Str("route", route->path)
                .Str("clientAddress", request.client_address);
            return Problem(ctx, csrf.error());
          }
      }
      auto principal = authenticator_.Authenticate(credentials);
      if (!principal && route->auth != Auth::kPublic && route->auth != Auth::kDevOnly)
        return Problem(ctx, principal.error());
      if (principal) {
        ctx.principal = std::move(*principal);  // nullopt when no credential was sent
        if (ctx.principal) ctx.principal->request = ctx.meta;
      }
      if (rate_limiter_ != nullptr) {
        RateLimitVerdict verdict = rate_limiter_->Check(ctx.principal ? &*ctx.principal : nullptr,
                                                        route->limit_by_address, request.client_address);
        rate_headers = {std::move(verdict.policy), std::move(verdict.state)};
        if (verdict.refused) return Problem(ctx, RateLimited(verdict));
      }
      if (Status access = CheckAccess(*route, ctx.principal); !access)
        return Problem(ctx, access.error());
      if (Status params = ValidatePathParams(*route, ctx.path_params); !params)
        return Problem(ctx, params.error());
      if (Status encoding = ValidateEncoding(request, ctx.path_params); !encoding)
        return Problem(ctx, encoding.error());
      // Slow work a handler meets inside a write transaction (an admission
      // hook's call) is done outside it, and the handler run again.
      return RunWithWorkOutsideTransaction([&] { return route->handler(ctx); });
    });
    // The identity providers parse SCIM errors only (RFC 7644 3.12).
    if (route->auth == Auth::kScimKey) ProblemToScimError(response);
    if (!route->resource_metadata.empty()) AddResourceMetadata(response, route->resource_metadata);
    rate_headers.AddTo(response);
  }

  const std::string_view tenant = ctx.principal ? std::string_view(ctx.principal->tenant_id) : std::string_view();
  if (response.pending) {
    // Finished later, on the server's thread: map errors and log then. The
    // span goes along (its context made current there, so the finishing
    // step's log lines and spans join the request's trace) and ends then.
    span.Deactivate();
    const TraceContext trace = span.context();
    auto open_span = span.recording() ? std::make_shared<telemetry::Span>(std::move(span)) : nullptr;
    response.pending->Wrap([this, route, started, method = request.method, method_name = request.method_name,
                            request_id = ctx.request_id, path = std::string(request.path()),
                            tenant = std::string(tenant), rate_headers = std::move(rate_headers), trace,
                            open_span, language = TextLanguage(ctx)](const PendingResponse::Step& finish) {
      ScopedTraceContext in_trace(trace);
      HttpResponse r = Guarded(*route, request_id, path, [language] { return language; }, finish);
      rate_headers.AddTo(r);
      Conclude(r, route, method, method_name, request_id, tenant, started);
      if (open_span) EndRequestSpan(*open_span, route, r.status, request_id, tenant);
      return r;
    });
    return response;
  }
  if (audit_ != nullptr && route != nullptr && IsAuditedRefusal(*route, request.method, response, ctx.principal))
    RecordRefusal(match.path_template, request.method_name, response, *ctx.principal);
  Conclude(response, route, request.method, request.method_name, ctx.request_id, tenant, started);
  EndRequestSpan(span, route, response.status, ctx.request_id, tenant);
  return response;
}

void Dispatcher::RecordRefusal(std::string_view path_template, std::string_view method_name,
                               const HttpResponse& response, const identity::Principal& caller) const {
  std::string code;
  boost::system::error_code ec;
  const boost::json::value body = boost::json::parse(response.body, ec);
  if (!ec && body.is_object())
    if (const auto* c = body.as_object().if_contains("code"); c && c->is_string()) code = std::string(c->as_string());
  const std::string route_name = std::string(method_name) + " " + std::string(path_template);
  identity::AuditEvent event = identity::AuditOf(caller, "access.denied", {"route", route_name},
                                                 {{"method", method_name}, {"route", path_template}, {"code", code}});
  event.outcome = identity::AuditOutcome::kDenied;
  try {
    audit_->RecordAlone(caller.tenant_id, event);
  } catch (const std::exception& e) {
    // The refusal stands either way; a store that cannot take the entry
    // is logged, not answered.
    LogLine(LogLevel::kError, "audit record failed")
        .Str("requestId", caller.request.request_id)
        .Str("action", "access.denied")
        .Str("error", e.what());
  }
}

HttpResponse Dispatcher::Reject(const Error& error, Method method, std::string_view target) const {
  const std::string request_id = NewId();
  const std::string_view path = target.substr(0, target.find('?'));
  HttpResponse response = ProblemResponse(error, path, request_id);
  response.WithHeader("X-Request-Id", request_id);
  AddStandardHeaders(response);
  metrics_.Record(nullptr, method, response.status, 0);
  LogLine(LogLevel::kInfo, "request")
      .Str("requestId", request_id)
      .Str("method", MethodName(method))
      .Str("route", "unmatched")
      .Int("status", response.status)
      .Str("error", error.code);
  return response;
}

}  // namespace credence::http
