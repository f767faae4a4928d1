#pragma once
// Browser sessions (docs/sign-in.md, "Browser sessions"). The web client's
// session token travels in a cookie scripts cannot read (HttpOnly), that
// other sites' requests do not carry except on top-level navigations
// (SameSite=Lax), set when the client signs in and cleared when it signs
// out. API clients keep sending the token as `Authorization: Bearer`.
//
// CSRF: a request authenticated by the cookie alone with an unsafe method
// (anything but GET, HEAD and OPTIONS) must carry the X-Credence-CSRF header
// (OWASP's custom request header pattern). A page of another origin cannot
// add a header to a request without a CORS preflight, and Credence answers
// no preflight, so only the client's own scripts can send it. Requests that
// authenticate with `Authorization` or `X-Api-Key` need no header: a browser
// never adds those on its own.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"
#include "http/request.h"

namespace credence::http {

// Lowercased, as HttpRequest keeps header names. Any non-empty value will
// do (the web client sends "1"): what counts is that a script of this
// origin set it.
inline constexpr std::string_view kCsrfHeader = "x-credence-csrf";

class SessionCookie {
 public:
  // `secure` when the public URL is https: the cookie is then `Secure` and
  // named with the `__Host-` prefix, which browsers accept only with Secure,
  // Path=/ and no Domain, so no other host (a sibling subdomain) can set or
  // shadow it. Over plain http (development, a loopback test) it is neither.
  explicit SessionCookie(bool secure) : secure_(secure) {}
  // Secure exactly when `public_url` (--public-url) is https.
  static SessionCookie ForPublicUrl(std::string_view public_url);

  bool secure() const { return secure_; }
  // "__Host-credence_session" when secure, else "credence_session".
  std::string_view name() const;
  // The Set-Cookie value that keeps `token` for `max_age_seconds`.
  std::string Set(std::string_view token, int64_t max_age_seconds) const;
  // The Set-Cookie value that removes it.
  std::string Clear() const;
  // The cookie's value in `request`; empty when it carries none.
  std::string_view ValueIn(const HttpRequest& request) const;

 private:
  bool secure_;
};

// The value of the cookie `name` in a Cookie header; empty when absent.
std::string_view CookieValue(std::string_view cookie_header, std::string_view name);

// POST, PUT, PATCH, DELETE and unknown methods: not GET, HEAD or OPTIONS.
bool IsUnsafeMethod(Method method);

// Ok when `request` carries the CSRF header; else 403 csrf_header_missing.
Status CheckCsrfHeader(const HttpRequest& request);

}  // namespace credence::http
