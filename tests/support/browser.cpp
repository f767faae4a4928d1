#include "support/browser.h"

#include "support/openapi_check.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

namespace credence::test {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string PercentEncodeForm(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

std::string PercentDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out.push_back(' ');
    } else if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
               std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::string DecodeEntities(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out.push_back(s[i]);
      continue;
    }
    const auto semi = s.find(';', i);
    if (semi == std::string_view::npos || semi - i > 10) {
      out.push_back('&');
      continue;
    }
    const std::string entity(s.substr(i + 1, semi - i - 1));
    if (entity == "amp") out.push_back('&');
    else if (entity == "lt") out.push_back('<');
    else if (entity == "gt") out.push_back('>');
    else if (entity == "quot") out.push_back('"');
    else if (entity == "apos") out.push_back('\'');
    else if (!entity.empty() && entity[0] == '#') {
      const long code = entity.size() > 1 && (entity[1] == 'x' || entity[1] == 'X') ? std::stol(entity.substr(2), nullptr, 16)
                                                                                     : std::stol(entity.substr(1));
      if (code < 0x80) out.push_back(static_cast<char>(code));  // enough for generated forms
    } else {
      out.append(s.substr(i, semi - i + 1));
    }
    i = semi;
  }
  return out;
}

// The attributes of a tag, from just after its name to its closing '>'.
std::vector<std::pair<std::string, std::string>> ParseAttributes(std::string_view tag) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t i = 0;
  while (i < tag.size()) {
    while (i < tag.size() && (std::isspace(static_cast<unsigned char>(tag[i])) || tag[i] == '/')) ++i;
    const size_t name_start = i;
    while (i < tag.size() && !std::isspace(static_cast<unsigned char>(tag[i])) && tag[i] != '=' && tag[i] != '/') ++i;
    if (i == name_start) {
      ++i;
      continue;
    }
    std::string name = Lower(std::string(tag.substr(name_start, i - name_start)));
    while (i < tag.size() && std::isspace(static_cast<unsigned char>(tag[i]))) ++i;
    std::string value;
    if (i < tag.size() && tag[i] == '=') {
      ++i;
      while (i < tag.size() && std::isspace(static_cast<unsigned char>(tag[i]))) ++i;
      if (i < tag.size() && (tag[i] == '"' || tag[i] == '\'')) {
        const char quote = tag[i++];
        const auto end = tag.find(quote, i);
        value = std::string(tag.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i));
        i = end == std::string_view::npos ? tag.size() : end + 1;
      } else {
        const size_t start = i;
        while (i < tag.size() && !std::isspace(static_cast<unsigned char>(tag[i]))) ++i;
        value = std::string(tag.substr(start, i - start));
      }
    }
    out.emplace_back(std::move(name), DecodeEntities(value));
  }
  return out;
}

std::string Attribute(const std::vector<std::pair<std::string, std::string>>& attributes, const std::string& name,
                      const std::string& fallback = "") {
  for (const auto& [n, v] : attributes)
    if (n == name) return v;
  return fallback;
}

// Splits "base?query#fragment".
struct UrlParts {
  std::string base, query, fragment;
  bool has_query = false;
};

UrlParts SplitUrl(const std::string& url) {
  UrlParts p;
  std::string rest = url;
  const auto hash = rest.find('#');
  if (hash != std::string::npos) {
    p.fragment = rest.substr(hash);
    rest.resize(hash);
  }
  const auto q = rest.find('?');
  if (q != std::string::npos) {
    p.has_query = true;
    p.query = rest.substr(q + 1);
    rest.resize(q);
  }
  p.base = rest;
  return p;
}

std::vector<std::string> SplitAmp(const std::string& query) {
  std::vector<std::string> out;
  std::stringstream ss(query);
  std::string part;
  while (std::getline(ss, part, '&'))
    if (!part.empty()) out.push_back(part);
  return out;
}

std::string JoinUrl(const UrlParts& p, const std::vector<std::string>& params) {
  std::string out = p.base;
  for (size_t i = 0; i < params.size(); ++i) out += (i == 0 ? "?" : "&") + params[i];
  return out + p.fragment;
}

}  // namespace

Browser::Browser() : curl_(curl_easy_init()) {
  // An empty cookie file turns on libcurl's cookie engine for this handle.
  curl_easy_setopt(static_cast<CURL*>(curl_), CURLOPT_COOKIEFILE, "");
}

Browser::~Browser() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

Hop Browser::Get(const std::string& url, const Headers& headers) { return Send("GET", url, "", headers); }

Hop Browser::PostForm(const std::string& url, const FormFields& fields, const Headers& headers) {
  Headers all = headers;
  all.emplace_back("Content-Type", "application/x-www-form-urlencoded");
  return Send("POST", url, FormEncode(fields), all);
}

Hop Browser::Send(const std::string& method, const std::string& url, const std::string& body, const Headers& headers) {
  CURL* curl = static_cast<CURL*>(curl_);
  // A reset keeps the cookies (and connections); the engine is switched on again.
  curl_easy_reset(curl);
  curl_easy_setopt(curl, CURLOPT_COOKIEFILE, "");
  Hop hop;
  hop.method = method;
  hop.url = url;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  if (method == "GET") {
    curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  } else {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  }
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, WriteBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &hop.response.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, WriteHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &hop.response.headers);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 30000L);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "credence-test-browser");
  curl_slist* list = nullptr;
  bool has_content_type = false;
  for (const auto& [name, value] : headers) {
    list = curl_slist_append(list, (name + ": " + value).c_str());
    if (Lower(name) == "content-type") has_content_type = true;
  }
  if (!body.empty() && !has_content_type) list = curl_slist_append(list, "Content-Type: application/json");
  list = curl_slist_append(list, "Expect:");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  const CURLcode rc = curl_easy_perform(curl);
  curl_slist_free_all(list);
  if (rc != CURLE_OK) {
    hop.response.status = 0;
    hop.response.body = curl_easy_strerror(rc);
    history_.push_back(hop);
    return hop;
  }
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  hop.response.status = static_cast<int>(status);
  for (const auto& [name, value] : hop.response.headers)
    if (name == "set-cookie") hop.set_cookies.push_back(value);
  const std::string location = hop.response.Header("location");
  if (!location.empty()) hop.location = ResolveUrl(url, location);
  // Credence's answers are checked against its OpenAPI document, as
  // HttpClient's are (the provider's are not: its origin is not registered).
  if (const auto scheme = url.find("://"); scheme != std::string::npos) {
    const auto slash = url.find('/', scheme + 3);
    CheckAgainstOpenApi(url.substr(0, slash), method, slash == std::string::npos ? "/" : url.substr(slash),
                        hop.response);
  }
  history_.push_back(hop);
  return hop;
}

std::vector<Hop> Browser::FollowRedirects(const Hop& hop, const std::function<bool(const std::string&)>& stop_before,
                                          int max_hops) {
  std::vector<Hop> hops;
  const Hop* current = &hop;
  for (int i = 0; i < max_hops && current->IsRedirect(); ++i) {
    if (stop_before && stop_before(current->location)) return hops;
    // 307/308 keep the method and body; sign-in flows use 302/303 only.
    hops.push_back(Get(current->location));
    current = &hops.back();
  }
  if (current->IsRedirect() && !(stop_before && stop_before(current->location)))
    throw std::runtime_error("more than " + std::to_string(max_hops) + " redirects:\n" + Trace());
  return hops;
}

std::vector<Cookie> Browser::Cookies() const {
  std::vector<Cookie> out;
  curl_slist* list = nullptr;
  curl_easy_getinfo(static_cast<CURL*>(curl_), CURLINFO_COOKIELIST, &list);
  for (curl_slist* item = list; item != nullptr; item = item->next) {
    // Netscape format: domain, tailmatch, path, secure, expires, name, value.
    std::vector<std::string> parts;
    std::stringstream ss(item->data);
    std::string part;
    while (std::getline(ss, part, '\t')) parts.push_back(part);
    if (parts.size() < 6) continue;
    Cookie c;
    c.domain = parts[0];
    if (c.domain.rfind("#HttpOnly_", 0) == 0) {
      c.http_only = true;
      c.domain.erase(0, 10);
    }
    c.path = parts[2];
    c.secure = parts[3] == "TRUE";
    c.expires = std::stoll(parts[4]);
    c.name = parts[5];
    c.value = parts.size() > 6 ? parts[6] : "";
    out.push_back(std::move(c));
  }
  curl_slist_free_all(list);
  return out;
}

std::optional<std::string> Browser::CookieValue(const std::string& name) const {
  for (const auto& c : Cookies())
    if (c.name == name) return c.value;
  return std::nullopt;
}

void Browser::DropCookie(const std::string& name) {
  CURL* curl = static_cast<CURL*>(curl_);
  curl_slist* list = nullptr;
  curl_easy_getinfo(curl, CURLINFO_COOKIELIST, &list);
  std::vector<std::string> keep;
  for (curl_slist* item = list; item != nullptr; item = item->next) {
    const std::string line = item->data;
    std::vector<std::string> parts;
    std::stringstream ss(line);
    std::string part;
    while (std::getline(ss, part, '\t')) parts.push_back(part);
    if (parts.size() >= 6 && parts[5] == name) continue;
    keep.push_back(line);
  }
  curl_slist_free_all(list);
  curl_easy_setopt(curl, CURLOPT_COOKIELIST, "ALL");
  for (const auto& line : keep) curl_easy_setopt(curl, CURLOPT_COOKIELIST, line.c_str());
}

void Browser::ClearCookies() { curl_easy_setopt(static_cast<CURL*>(curl_), CURLOPT_COOKIELIST, "ALL"); }

std::string Browser::Trace() const {
  std::string out;
  for (const auto& h : history_) {
    out += h.method + " " + h.url + " -> " + std::to_string(h.status());
    if (!h.location.empty()) out += " Location: " + h.location;
    if (!h.IsRedirect() && !h.body().empty()) out += " body: " + h.body().substr(0, 300);
    out += "\n";
  }
  return out;
}

bool HtmlForm::Has(const std::string& name) const {
  return std::any_of(fields.begin(), fields.end(), [&](const Field& f) { return f.name == name; });
}

std::string HtmlForm::Value(const std::string& name) const {
  for (const auto& f : fields)
    if (f.name == name) return f.value;
  return {};
}

void HtmlForm::Set(const std::string& name, const std::string& value) {
  for (auto& f : fields)
    if (f.name == name) {
      f.value = value;
      return;
    }
  fields.push_back({name, "text", value});
}

FormFields HtmlForm::Fields() const {
  FormFields out;
  for (const auto& f : fields)
    if (!f.name.empty() && f.type != "submit" && f.type != "button") out.emplace_back(f.name, f.value);
  return out;
}

std::vector<HtmlForm> ParseForms(const std::string& html, const std::string& page_url) {
  std::vector<HtmlForm> forms;
  const std::string lower = Lower(html);
  size_t pos = 0;
  while ((pos = lower.find("<form", pos)) != std::string::npos) {
    const auto tag_end = lower.find('>', pos);
    if (tag_end == std::string::npos) break;
    const auto attributes = ParseAttributes(std::string_view(html).substr(pos + 5, tag_end - pos - 5));
    HtmlForm form;
    form.action = ResolveUrl(page_url, Attribute(attributes, "action", page_url));
    form.method = Lower(Attribute(attributes, "method", "get"));
    auto form_end = lower.find("</form", tag_end);
    if (form_end == std::string::npos) form_end = lower.size();
    size_t input = tag_end;
    while ((input = lower.find("<input", input)) != std::string::npos && input < form_end) {
      const auto input_end = lower.find('>', input);
      if (input_end == std::string::npos) break;
      const auto a = ParseAttributes(std::string_view(html).substr(input + 6, input_end - input - 6));
      form.fields.push_back({Attribute(a, "name"), Lower(Attribute(a, "type", "text")), Attribute(a, "value")});
      input = input_end;
    }
    forms.push_back(std::move(form));
    pos = tag_end;
  }
  return forms;
}

Hop Submit(Browser& browser, const HtmlForm& form) {
  if (form.method == "post") return browser.PostForm(form.action, form.Fields());
  UrlParts p = SplitUrl(form.action);
  return browser.Get(JoinUrl(p, SplitAmp(FormEncode(form.Fields()))));
}

std::string ResolveUrl(const std::string& base, const std::string& reference) {
  CURLU* url = curl_url();
  std::string out = reference;
  if (curl_url_set(url, CURLUPART_URL, base.c_str(), 0) == CURLUE_OK &&
      curl_url_set(url, CURLUPART_URL, reference.c_str(), 0) == CURLUE_OK) {
    char* full = nullptr;
    if (curl_url_get(url, CURLUPART_URL, &full, 0) == CURLUE_OK) {
      out = full;
      curl_free(full);
    }
  }
  curl_url_cleanup(url);
  return out;
}

std::optional<std::string> QueryParam(const std::string& url, const std::string& name) {
  for (const auto& pair : SplitAmp(SplitUrl(url).query)) {
    const auto eq = pair.find('=');
    if (PercentDecode(pair.substr(0, eq)) == name)
      return eq == std::string::npos ? std::string() : PercentDecode(pair.substr(eq + 1));
  }
  return std::nullopt;
}

std::string WithQueryParam(const std::string& url, const std::string& name, const std::string& value) {
  const UrlParts p = SplitUrl(url);
  std::vector<std::string> params;
  bool replaced = false;
  const std::string encoded = PercentEncodeForm(name) + "=" + PercentEncodeForm(value);
  for (const auto& pair : SplitAmp(p.query)) {
    if (PercentDecode(pair.substr(0, pair.find('='))) == name) {
      if (!replaced) params.push_back(encoded);
      replaced = true;
    } else {
      params.push_back(pair);
    }
  }
  if (!replaced) params.push_back(encoded);
  return JoinUrl(p, params);
}

std::string WithoutQueryParam(const std::string& url, const std::string& name) {
  const UrlParts p = SplitUrl(url);
  std::vector<std::string> params;
  for (const auto& pair : SplitAmp(p.query))
    if (PercentDecode(pair.substr(0, pair.find('='))) != name) params.push_back(pair);
  return JoinUrl(p, params);
}

std::string FormEncode(const FormFields& fields) {
  std::string out;
  for (const auto& [name, value] : fields) {
    if (!out.empty()) out += '&';
    out += PercentEncodeForm(name) + "=" + PercentEncodeForm(value);
  }
  return out;
}

std::string FormDecode(std::string_view encoded) { return PercentDecode(encoded); }

}  // namespace credence::test
