#pragma once
// Turns an HttpRequest into an HttpResponse: request id, routing (404/405),
// authentication and route-level access, the handler, error mapping, the
// access log line and metrics. Never throws. Knows nothing of sockets, so
// it is unit-testable and the Beast server stays a thin shell around it.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "http/request.h"
#include "http/session_cookie.h"

namespace credence::identity {
class Authenticator;
class AuditRecorder;
struct Principal;
}

namespace credence::http {

class Metrics;
class RateLimiter;
class Router;
class StaticSite;
struct Route;

class Dispatcher {
 public:
  // `audit`, when given, records refused actions (access.denied,
  // docs/audit.md).
  Dispatcher(const Router& router, const identity::Authenticator& authenticator, Metrics& metrics, bool dev_mode,
             const identity::AuditRecorder* audit = nullptr)
      : router_(router), authenticator_(authenticator), metrics_(metrics), dev_mode_(dev_mode), audit_(audit) {}

  // A handler may answer later (HttpResponse::pending): then the answer
  // returned is pending too, and its Finish() maps errors and logs.
  HttpResponse Dispatch(const HttpRequest& request) const;

  // `site`, when set, answers GET and HEAD requests for non-API paths no
  // route matches (the web client, --web-dir); it must outlive this.
  void ServeStaticSite(const StaticSite* site) { site_ = site; }

  // `limiter`, when set, limits request rates once the caller is
  // authenticated (429 rate_limited, RateLimit headers); it must outlive
  // this.
  void LimitRates(const RateLimiter* limiter) { rate_limiter_ = limiter; }

  // Reads the browser session cookie (http/session_cookie.h) when a request
  // sends neither Authorization nor X-Api-Key; an unsafe request signed in
  // that way without the CSRF header is refused (403 csrf_header_missing)
  // before anything else. Without this call cookies are ignored.
  void AcceptSessionCookie(SessionCookie cookie) { session_cookie_ = cookie; }

  // For requests the server refuses before they are complete (body too
  // large, malformed, timed out): the same problem shape, log line and metric.
  HttpResponse Reject(const Error& error, Method method, std::string_view target) const;

 private:
  using Clock = std::chrono::steady_clock;
  // `path_template`: the path or alias the request matched, so the entry
  // names the route as the caller used it.
  void RecordRefusal(std::string_view path_template, std::string_view method_name, const HttpResponse& response,
                     const identity::Principal& caller) const;
  void Conclude(HttpResponse& response, const Route* route, Method method, std::string_view method_name,
                const std::string& request_id, std::string_view tenant, Clock::time_point started) const;

  const Router& router_;
  const identity::Authenticator& authenticator_;
  Metrics& metrics_;
  const bool dev_mode_;
  const identity::AuditRecorder* audit_;
  const StaticSite* site_ = nullptr;
  const RateLimiter* rate_limiter_ = nullptr;
  std::optional<SessionCookie> session_cookie_;
};

}  // namespace credence::http
