#pragma once
// Each kind's settings (docs/connectors.md, "Kinds and their settings"):
// validated at create and update (400 naming settings.<field>), stored with
// their defaults filled in, and read back by the sync.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace credence::connectors {

struct GitSettings {
  std::string url;  // an absolute local path, file://, http://, https://, ssh:// or scp-like user@host:path
  std::string branch = "main";
  // ssh URLs: the server's host key, as `ssh-keygen -lf` prints it
  // ("SHA256:<base64>"); a fetch from a server showing another key fails.
  std::optional<std::string> ssh_host_key;
  std::optional<std::string> web_url_template;  // {branch} and {path} are replaced
  int64_t max_file_bytes = 1 << 20;
};

struct WebSettings {
  std::vector<std::string> start_urls;
  std::optional<std::string> sitemap_url;
  int64_t max_pages = 1000;
  int64_t max_depth = 3;
  std::vector<std::string> include_prefixes;
  int64_t request_timeout_ms = 10'000;
  std::string user_agent = "CredenceConnector/1.0";
  int64_t max_page_bytes = 5 << 20;
};

// Where git connectors may read from (docs/connectors.md, "Where a git
// connector may read"). Local repositories (a path, file://) are the
// server's own files: only when the operator allows them, and never under
// the data directory (the mirrors of every tenant's connectors are there).
// Remote URLs follow the connectors' outbound rule (outbound::ConnectorPolicy).
struct RepositoryPolicy {
  bool allow_local = false;
  std::string data_dir;
};
// The error when `url` may not be read under `policy`, else nullopt.
std::optional<std::string> RepositoryRefusal(const std::string& url, const RepositoryPolicy& policy);

// The settings of `kind` from JSON object text, with every field error
// (settings.<name>); the answer is the canonical JSON with defaults.
Result<std::string> ValidateSettings(const std::string& kind, const std::string& json_text,
                                     const RepositoryPolicy& policy);

// Stored settings, which ValidateSettings produced.
GitSettings GitSettingsFromJson(const std::string& json_text);
WebSettings WebSettingsFromJson(const std::string& json_text);

// Implemented beside the web kind: the crawler's own checks of settings
// that already passed the JSON-level ones (empty when the crawler is not
// built in).
std::vector<FieldError> CheckCrawlSettings(const WebSettings& settings);

}  // namespace credence::connectors
