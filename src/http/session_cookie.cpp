#include "http/session_cookie.h"

namespace credence::http {

SessionCookie SessionCookie::ForPublicUrl(std::string_view public_url) {
  return SessionCookie(public_url.starts_with("https://"));
}

std::string_view SessionCookie::name() const {
  return secure_ ? "__Host-credence_session" : "credence_session";
}

std::string SessionCookie::Set(std::string_view token, int64_t max_age_seconds) const {
  std::string out(name());
  out += '=';
  out += token;
  out += "; Path=/; Max-Age=" + std::to_string(max_age_seconds) + "; HttpOnly; SameSite=Lax";
  if (secure_) out += "; Secure";
  return out;
}

std::string SessionCookie::Clear() const {
  std::string out(name());
  out += "=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax";
  if (secure_) out += "; Secure";
  return out;
}

std::string_view SessionCookie::ValueIn(const HttpRequest& request) const {
  return CookieValue(request.Header("cookie"), name());
}

std::string_view CookieValue(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    const auto semi = header.find(';');
    std::string_view pair = header.substr(0, semi);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    if (pair.size() > name.size() && pair.substr(0, name.size()) == name && pair[name.size()] == '=')
      return pair.substr(name.size() + 1);
    if (semi == std::string_view::npos) break;
    header.remove_prefix(semi + 1);
  }
  return {};
}

bool IsUnsafeMethod(Method method) {
  return method != Method::kGet && method != Method::kHead && method != Method::kOptions;
}

Status CheckCsrfHeader(const HttpRequest& request) {
  if (!request.Header(kCsrfHeader).empty()) return Ok();
  return Error{ErrorKind::kPermissionDenied,
               "csrf_header_missing",
               "A request signed in by the session cookie that changes something must carry the "
               "X-Credence-CSRF header (any value); API clients send Authorization: Bearer instead.",
               {},
               {}};
}

}  // namespace credence::http
