#pragma once
// A scripted browser for sign-in tests: one libcurl handle with a cookie
// jar (cookies are kept and sent by host and path, as a browser does; note
// that cookies ignore the port, so Credence and a provider on 127.0.0.1 see
// each other's cookies, as they would in a real browser), and no automatic
// redirects: every request is one Hop, and the test (or the helpers in
// support/oidc.h) decides whether to follow its Location. Plus the small
// HTML form and URL helpers a sign-in page needs.
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "support/http_client.h"

namespace credence::test {

// One request and its answer.
struct Hop {
  std::string method;
  std::string url;                       // what was requested
  Response response;                     // status, lowercased headers, body
  std::string location;                  // the Location header resolved to an absolute URL, "" when none
  std::vector<std::string> set_cookies;  // every Set-Cookie header value, in order

  int status() const { return response.status; }
  const std::string& body() const { return response.body; }
  bool IsRedirect() const { return response.status >= 300 && response.status < 400 && !location.empty(); }
};

// A cookie in the jar (from libcurl's cookie engine).
struct Cookie {
  std::string domain;
  std::string path;
  std::string name;
  std::string value;
  bool http_only = false;
  bool secure = false;
  long long expires = 0;  // Unix seconds; 0 for a session cookie
};

using FormFields = std::vector<std::pair<std::string, std::string>>;

class Browser {
 public:
  Browser();
  ~Browser();
  Browser(const Browser&) = delete;
  Browser& operator=(const Browser&) = delete;

  Hop Get(const std::string& url, const Headers& headers = {});
  // An application/x-www-form-urlencoded POST, as a form submission.
  Hop PostForm(const std::string& url, const FormFields& fields, const Headers& headers = {});
  // Any request with a body of its own (e.g. JSON).
  Hop Send(const std::string& method, const std::string& url, const std::string& body = "",
           const Headers& headers = {});

  // Follows redirects from `hop` (GET, as browsers do after 302/303) until a
  // hop is not a redirect, or `stop_before(location)` is true for the next
  // Location (that URL is then not requested). Returns the hops requested,
  // `hop` not included.
  std::vector<Hop> FollowRedirects(const Hop& hop, const std::function<bool(const std::string&)>& stop_before = {},
                                   int max_hops = 20);

  std::vector<Cookie> Cookies() const;
  // The value of the first cookie called `name`, if any.
  std::optional<std::string> CookieValue(const std::string& name) const;
  // Removes every cookie called `name` (e.g. to sign in without the state cookie).
  void DropCookie(const std::string& name);
  void ClearCookies();

  // Every hop this browser made, in order (for failure messages).
  const std::vector<Hop>& history() const { return history_; }
  // The history as readable text: one line per hop.
  std::string Trace() const;

 private:
  void* curl_;
  std::vector<Hop> history_;
};

// An HTML <form> and its <input> fields, as parsed by ParseForms.
struct HtmlForm {
  std::string action;  // resolved against the page's URL
  std::string method;  // lowercase; "get" when absent
  struct Field {
    std::string name;
    std::string type;  // lowercase; "text" when absent
    std::string value;
  };
  std::vector<Field> fields;

  bool Has(const std::string& name) const;
  std::string Value(const std::string& name) const;
  // Sets the value of the named field (adds it when missing).
  void Set(const std::string& name, const std::string& value);
  FormFields Fields() const;
};

// The forms of an HTML page (a small scanner, enough for generated pages
// such as oidc-provider's: quoted or bare attributes, entities decoded).
std::vector<HtmlForm> ParseForms(const std::string& html, const std::string& page_url);
// Submits `form` as a browser would (POST form-encoded, or GET with a query).
Hop Submit(Browser& browser, const HtmlForm& form);

// URL helpers.
std::string ResolveUrl(const std::string& base, const std::string& reference);
// The decoded value of query parameter `name`, if present.
std::optional<std::string> QueryParam(const std::string& url, const std::string& name);
// `url` with query parameter `name` set to `value` (replaced, or added).
std::string WithQueryParam(const std::string& url, const std::string& name, const std::string& value);
// `url` without query parameter `name`.
std::string WithoutQueryParam(const std::string& url, const std::string& name);
// "a=1&b=2", form-encoded.
std::string FormEncode(const FormFields& fields);
std::string FormDecode(std::string_view encoded);

}  // namespace credence::test
