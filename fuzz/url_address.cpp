// URLs and outbound addresses: the crawler's CanonicalUrl and ResolveUrl
// (src/connectors/web/internal/url.*) on every link, redirect and sitemap
// entry, and the outbound checks (src/outbound) on every URL a tenant admin
// gives a webhook, channel, hook or connector: CheckUrl at creation,
// Resolve at delivery, whose address is pinned for libcurl.
//
// Input: "URL\nREFERENCE\nADDRESS,ADDRESS...": the URL, an href resolved
// against it (or against a fixed page when it is not one), and what the
// (fake) resolver answers for any host name.
//
// Invariants: nothing throws; canonical URLs are fixed points (the crawler
// canonicalizes URLs it already canonicalized) with an origin and a path;
// a resolved href is canonical; a URL Resolve accepts is pinned to an
// address the policy allows, and libcurl, which makes the request, reads
// the same host and port from the URL (else the pin would not apply and
// curl would resolve the name itself).
#include <arpa/inet.h>
#include <curl/curl.h>

#include <cstring>

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "connectors/web/internal/url.h"
#include "core/error.h"
#include "outbound/outbound.h"
#include "support/fuzz_support.h"

namespace {

using namespace credence;
namespace web = credence::connectors::web::internal;

std::vector<std::string_view> Split(std::string_view s, char sep, size_t max_parts) {
  std::vector<std::string_view> out;
  while (out.size() + 1 < max_parts) {
    const size_t at = s.find(sep);
    if (at == std::string_view::npos) break;
    out.push_back(s.substr(0, at));
    s.remove_prefix(at + 1);
  }
  out.push_back(s);
  return out;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

void CheckCanonical(const std::string& url) {
  FUZZ_CHECK(url.starts_with("http://") || url.starts_with("https://"), url);
  auto again = web::CanonicalUrl(url);
  FUZZ_CHECK(again.has_value() && *again == url, url);
  const std::string origin = web::OriginOf(url);
  const std::string path = web::PathAndQuery(url);
  FUZZ_CHECK(!path.empty() && path.front() == '/', url);
  FUZZ_CHECK(url.starts_with(origin.substr(0, origin.size() - 1)), url + " origin " + origin);
}

// The same name, or the same IP literal however written ("::fff:4" and
// "::15.255.0.4"): libcurl connects to a literal without looking it up.
bool SameHost(const std::string& a, const std::string& b) {
  if (a == b) return true;
  unsigned char x[16], y[16];
  if (inet_pton(AF_INET6, a.c_str(), x) == 1 && inet_pton(AF_INET6, b.c_str(), y) == 1) return std::memcmp(x, y, 16) == 0;
  if (inet_pton(AF_INET, a.c_str(), x) == 1 && inet_pton(AF_INET, b.c_str(), y) == 1) return std::memcmp(x, y, 4) == 0;
  return false;
}

// What libcurl makes of the URL, as the transfer parses it.
bool CurlHostPort(const std::string& url, std::string* host, long* port) {
  CURLU* u = curl_url();
  bool ok = curl_url_set(u, CURLUPART_URL, url.c_str(), CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK;
  char* h = nullptr;
  char* p = nullptr;
  ok = ok && curl_url_get(u, CURLUPART_HOST, &h, 0) == CURLUE_OK &&
       curl_url_get(u, CURLUPART_PORT, &p, CURLU_DEFAULT_PORT) == CURLUE_OK;
  if (ok) {
    *host = h;
    *port = std::strtol(p, nullptr, 10);
  }
  curl_free(h);
  curl_free(p);
  curl_url_cleanup(u);
  return ok;
}

void CheckOutbound(const std::string& url, const std::vector<std::string>& answers) {
  for (const outbound::Policy policy : {outbound::Policy{}, outbound::Policy{true, true}}) {
    const Status created = outbound::CheckUrl(url, policy, "url");
    if (!created)
      FUZZ_CHECK(created.error().kind == ErrorKind::kInvalidArgument && created.error().code == "url_not_allowed",
                 created.error().code);
    auto target = outbound::Resolve(url, policy, [&](const std::string&) { return answers; });
    if (!target) {
      const auto& e = target.error();
      FUZZ_CHECK(e.code == "url_not_allowed" || e.code == "host_unresolvable", e.code);
      continue;
    }
    const auto c = outbound::ClassifyAddress(target->address);
    FUZZ_CHECK(c.has_value() && outbound::Allowed(*c, policy), url + " -> " + target->address);
    FUZZ_CHECK(target->port > 0 && target->port < 65536, url);
    std::string curl_host;
    long curl_port = 0;
    if (!CurlHostPort(url, &curl_host, &curl_port)) continue;  // curl refuses the URL: no request
    if (curl_host.size() > 2 && curl_host.front() == '[') curl_host = curl_host.substr(1, curl_host.size() - 2);
    FUZZ_CHECK(SameHost(Lower(curl_host), target->host),
               url + ": curl reads host " + curl_host + ", pinned " + target->host);
    FUZZ_CHECK(curl_port == target->port, url + ": curl reads another port");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto parts = Split(input, '\n', 3);
  const std::string url(parts[0]);
  const std::string_view reference = parts.size() > 1 ? parts[1] : std::string_view();
  std::vector<std::string> answers;
  if (parts.size() > 2)
    for (auto a : Split(parts[2], ',', 8)) answers.emplace_back(a);

  (void)outbound::ClassifyAddress(url);
  auto canonical = web::CanonicalUrl(url);
  if (canonical) CheckCanonical(*canonical);
  const std::string base = canonical ? *canonical : "https://docs.example.com/guide/index.html";
  if (auto resolved = web::ResolveUrl(base, reference)) CheckCanonical(*resolved);
  CheckOutbound(url, answers);
  if (canonical) CheckOutbound(*canonical, answers);
  return 0;
}
