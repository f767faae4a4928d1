#include "connectors/settings.h"

#include <git2.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>
#include <set>

#include "connectors/connector.h"
#include "connectors/credential.h"
#include "connectors/git_repo.h"
#include "core/ids.h"
#include "outbound/outbound.h"
#include "trust/admin_service.h"

namespace credence::connectors {
namespace {

namespace json = boost::json;

bool HasSpace(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) return true;
  return false;
}

bool IsRepositoryUrl(std::string_view url) {
  if (url.empty() || url.size() > trust::kMaxUrlLength || HasSpace(url)) return false;
  return url.front() == '/' || url.rfind("file://", 0) == 0 || url.rfind("http://", 0) == 0 ||
         url.rfind("https://", 0) == 0 || (IsSshUrl(url) && !SshHostOf(url).empty());
}

// user:password@ in an http(s) URL would be stored, shown and logged in
// clear: credentials go in the connector's write-only credential instead.
bool HasUserInfo(std::string_view url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string_view::npos || !(url.starts_with("http://") || url.starts_with("https://"))) return false;
  std::string_view authority = url.substr(scheme + 3);
  authority = authority.substr(0, authority.find_first_of("/?#"));
  return authority.find('@') != std::string_view::npos;
}

// "SHA256:" and 43 characters of unpadded base64 (a SHA-256), as ssh-keygen -l prints.
bool IsSshFingerprint(std::string_view f) {
  if (!f.starts_with("SHA256:")) return false;
  f.remove_prefix(7);
  while (!f.empty() && f.back() == '=') f.remove_suffix(1);
  auto raw = Base64Decode(f, false);
  return raw && raw->size() == 32;
}

bool IsBranchName(const std::string& branch) {
  if (branch.empty() || branch.size() > 255) return false;
  InitLibgit2();
  int valid = 0;
  return git_reference_name_is_valid(&valid, ("refs/heads/" + branch).c_str()) == 0 && valid == 1;
}

class Reader {
 public:
  Reader(const json::object& o, std::vector<FieldError>& errors) : o_(o), errors_(errors) {}

  std::optional<std::string> Str(const char* name, bool required, size_t max = 2048) {
    seen_.insert(name);
    const json::value* v = o_.if_contains(name);
    if (v == nullptr || v->is_null()) {
      if (required) Error(name, "is required");
      return std::nullopt;
    }
    if (!v->is_string() || v->as_string().empty() || v->as_string().size() > max) {
      Error(name, "must be a string of 1 to " + std::to_string(max) + " characters");
      return std::nullopt;
    }
    return std::string(v->as_string());
  }
  std::optional<int64_t> Int(const char* name, int64_t min, int64_t max) {
    seen_.insert(name);
    const json::value* v = o_.if_contains(name);
    if (v == nullptr || v->is_null()) return std::nullopt;
    if (!v->is_int64() || v->as_int64() < min || v->as_int64() > max) {
      Error(name, "must be an integer from " + std::to_string(min) + " to " + std::to_string(max));
      return std::nullopt;
    }
    return v->as_int64();
  }
  std::vector<std::string> Urls(const char* name, size_t max_items) {
    seen_.insert(name);
    std::vector<std::string> out;
    const json::value* v = o_.if_contains(name);
    if (v == nullptr || v->is_null()) return out;
    if (!v->is_array() || v->as_array().size() > max_items) {
      Error(name, "must be an array of at most " + std::to_string(max_items) + " http(s) URLs");
      return out;
    }
    for (const auto& item : v->as_array()) {
      if (!item.is_string() || !trust::IsSourceUrl(item.as_string())) {
        Error(name, "must be an array of http(s) URLs");
        return {};
      }
      out.emplace_back(item.as_string());
    }
    return out;
  }
  void Error(const std::string& name, std::string message) {
    errors_.push_back({"settings." + name, std::move(message)});
  }
  void RejectUnknown() {
    for (const auto& [k, v] : o_)
      if (!seen_.count(std::string(k))) Error(std::string(k), "is not a setting of this kind");
  }

 private:
  const json::object& o_;
  std::vector<FieldError>& errors_;
  std::set<std::string> seen_;
};

json::object GitJson(const GitSettings& g) {
  json::object o{{"url", g.url}, {"branch", g.branch}, {"maxFileBytes", g.max_file_bytes}};
  o["webUrlTemplate"] = g.web_url_template ? json::value(*g.web_url_template) : json::value(nullptr);
  o["sshHostKey"] = g.ssh_host_key ? json::value(*g.ssh_host_key) : json::value(nullptr);
  return o;
}

json::object WebJson(const WebSettings& w) {
  json::array starts, prefixes;
  for (const auto& u : w.start_urls) starts.emplace_back(u);
  for (const auto& u : w.include_prefixes) prefixes.emplace_back(u);
  json::object o{{"startUrls", starts},
                 {"maxPages", w.max_pages},
                 {"maxDepth", w.max_depth},
                 {"includePrefixes", prefixes},
                 {"requestTimeoutMs", w.request_timeout_ms},
                 {"userAgent", w.user_agent},
                 {"maxPageBytes", w.max_page_bytes}};
  o["sitemapUrl"] = w.sitemap_url ? json::value(*w.sitemap_url) : json::value(nullptr);
  return o;
}

}  // namespace

std::optional<std::string> RepositoryRefusal(const std::string& url, const RepositoryPolicy& policy) {
  namespace fs = std::filesystem;
  std::optional<std::string> path;
  if (!url.empty() && url.front() == '/') path = url;
  if (url.rfind("file://", 0) == 0) path = url.substr(7);
  if (!path) {
    // An ssh host follows the same rule as an http one: checked as the
    // equivalent http URL (a literal address now, names before each fetch).
    const std::string host = IsSshUrl(url) ? SshHostOf(url) : std::string();
    const std::string as_http =
        host.empty() ? url : "http://" + (host.find(':') != std::string::npos ? "[" + host + "]" : host) + "/";
    auto checked = outbound::CheckUrl(as_http, outbound::ConnectorPolicy(), "settings.url");
    if (!checked) return checked.error().fields.empty() ? checked.error().detail : checked.error().fields[0].message;
    return std::nullopt;
  }
  if (!policy.allow_local)
    return "local repositories are not allowed on this server (the operator's --allow-local-repositories)";
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(fs::path(*path), ec);
  const fs::path data = fs::weakly_canonical(fs::path(policy.data_dir.empty() ? "." : policy.data_dir), ec);
  const std::string t = target.string() + "/";
  const std::string d = data.string() + "/";
  if (t.rfind(d, 0) == 0 || d.rfind(t, 0) == 0) return "must not be in (or contain) the server's data directory";
  return std::nullopt;
}

Result<std::string> ValidateSettings(const std::string& kind, const std::string& json_text,
                                     const RepositoryPolicy& policy) {
  json::value parsed;
  boost::system::error_code ec;
  parsed = json::parse(json_text, ec);
  if (ec || !parsed.is_object()) return Error::Validation({{"settings", "must be a JSON object"}});
  const json::object& o = parsed.as_object();
  std::vector<FieldError> errors;
  Reader r(o, errors);
  std::string out;
  if (kind == kKindGit) {
    GitSettings g;
    if (auto url = r.Str("url", true)) {
      if (!IsRepositoryUrl(*url))
        r.Error("url",
                "must be an absolute local path, a file://, http://, https:// or ssh:// URL, or user@host:path, "
                "without white space");
      else if (HasUserInfo(*url))
        r.Error("url", "must not hold a user name or password: give them as the connector's credential");
      else if (auto refused = RepositoryRefusal(*url, policy))
        r.Error("url", *refused);
      else
        g.url = *url;
    }
    if (auto branch = r.Str("branch", false, 255)) {
      if (IsBranchName(*branch))
        g.branch = *branch;
      else
        r.Error("branch", "is not a valid branch name");
    }
    if (auto t = r.Str("webUrlTemplate", false)) {
      if (t->find("{path}") == std::string::npos || !trust::IsSourceUrl(*t))
        r.Error("webUrlTemplate", "must be an http(s) URL containing {path} (and optionally {branch})");
      else
        g.web_url_template = *t;
    }
    if (auto m = r.Int("maxFileBytes", 1, 20 << 20)) g.max_file_bytes = *m;
    if (auto k = r.Str("sshHostKey", false, 100)) {
      if (!IsSshFingerprint(*k))
        r.Error("sshHostKey", "must be a SHA-256 host key fingerprint as ssh-keygen -lf prints it (SHA256:...)");
      else
        g.ssh_host_key = *k;
    }
    if (!g.url.empty() && IsSshUrl(g.url) && !g.ssh_host_key && errors.empty())
      r.Error("sshHostKey",
              "is required for an ssh URL: the server's host key fingerprint (ssh-keyscan HOST | ssh-keygen -lf -)");
    if (!g.url.empty() && !IsSshUrl(g.url) && g.ssh_host_key) r.Error("sshHostKey", "is only for ssh URLs");
    r.RejectUnknown();
    out = json::serialize(GitJson(g));
  } else if (kind == kKindWeb) {
    WebSettings w;
    w.start_urls = r.Urls("startUrls", 100);
    if (auto s = r.Str("sitemapUrl", false)) {
      if (trust::IsSourceUrl(*s))
        w.sitemap_url = *s;
      else
        r.Error("sitemapUrl", "must be an http(s) URL");
    }
    if (w.start_urls.empty() && !w.sitemap_url && errors.empty())
      r.Error("startUrls", "is required unless sitemapUrl is given");
    if (auto v = r.Int("maxPages", 1, 100'000)) w.max_pages = *v;
    if (auto v = r.Int("maxDepth", 0, 20)) w.max_depth = *v;
    w.include_prefixes = r.Urls("includePrefixes", 100);
    if (auto v = r.Int("requestTimeoutMs", 100, 120'000)) w.request_timeout_ms = *v;
    if (auto v = r.Str("userAgent", false, 200)) w.user_agent = *v;
    if (auto v = r.Int("maxPageBytes", 1024, 100 << 20)) w.max_page_bytes = *v;
    r.RejectUnknown();
    if (errors.empty())
      for (auto& e : CheckCrawlSettings(w)) errors.push_back(std::move(e));
    out = json::serialize(WebJson(w));
  } else {
    r.RejectUnknown();  // push has no settings
    out = "{}";
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return out;
}

GitSettings GitSettingsFromJson(const std::string& json_text) {
  GitSettings g;
  const json::object o = json::parse(json_text).as_object();
  g.url = std::string(o.at("url").as_string());
  g.branch = std::string(o.at("branch").as_string());
  if (const auto* t = o.if_contains("webUrlTemplate"); t && t->is_string())
    g.web_url_template = std::string(t->as_string());
  if (const auto* m = o.if_contains("maxFileBytes"); m && m->is_int64()) g.max_file_bytes = m->as_int64();
  if (const auto* k = o.if_contains("sshHostKey"); k && k->is_string()) g.ssh_host_key = std::string(k->as_string());
  return g;
}

WebSettings WebSettingsFromJson(const std::string& json_text) {
  WebSettings w;
  const json::object o = json::parse(json_text).as_object();
  for (const auto& u : o.at("startUrls").as_array()) w.start_urls.emplace_back(u.as_string());
  if (const auto* s = o.if_contains("sitemapUrl"); s && s->is_string()) w.sitemap_url = std::string(s->as_string());
  w.max_pages = o.at("maxPages").as_int64();
  w.max_depth = o.at("maxDepth").as_int64();
  for (const auto& u : o.at("includePrefixes").as_array()) w.include_prefixes.emplace_back(u.as_string());
  w.request_timeout_ms = o.at("requestTimeoutMs").as_int64();
  w.user_agent = std::string(o.at("userAgent").as_string());
  w.max_page_bytes = o.at("maxPageBytes").as_int64();
  return w;
}

}  // namespace credence::connectors
