#include "translation/translator.h"

#include <curl/curl.h>
#include <boost/json.hpp>

#include <cctype>
#include <map>

#include "telemetry/outbound_call.h"

namespace credence::translation {
namespace json = boost::json;
namespace {

Error Upstream(std::string code, std::string detail) {
  Error e;
  e.kind = ErrorKind::kUpstreamFailed;
  e.code = std::move(code);
  e.detail = std::move(detail);
  return e;
}

struct HttpResponse {
  long status = 0;
  std::string body;
};

size_t Collect(char* data, size_t size, size_t n, void* out) {
  auto* body = static_cast<std::string*>(out);
  if (body->size() < size_t{8} * 1024 * 1024) body->append(data, size * n);
  return size * n;
}

std::string UrlEncode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::string Form(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string out;
  for (const auto& [k, v] : fields) {
    if (!out.empty()) out.push_back('&');
    out += UrlEncode(k) + "=" + UrlEncode(v);
  }
  return out;
}

// One POST. `provider` names the provider in error details.
Result<HttpResponse> Post(std::string_view provider, const std::string& url, const std::string& body,
                          const std::vector<std::string>& headers, long timeout_ms) {
  telemetry::OutboundCall call("translation", "POST", url);
  if (call.span().recording()) call.span().SetString("credence.translation.provider", provider);
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> c(curl_easy_init(), &curl_easy_cleanup);
  if (!c) return Error::Internal("curl_easy_init failed");
  curl_slist* list = nullptr;
  for (const auto& h : headers) list = curl_slist_append(list, h.c_str());
  for (const auto& h : call.HeaderLines()) list = curl_slist_append(list, h.c_str());
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> hold(list, &curl_slist_free_all);
  HttpResponse response;
  char error_buffer[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(c.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c.get(), CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(c.get(), CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  curl_easy_setopt(c.get(), CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c.get(), CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(c.get(), CURLOPT_PROXY, "");
  curl_easy_setopt(c.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(c.get(), CURLOPT_POST, 1L);
  curl_easy_setopt(c.get(), CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(c.get(), CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(c.get(), CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(c.get(), CURLOPT_USERAGENT, "Credence-MT/1");
  curl_easy_setopt(c.get(), CURLOPT_WRITEFUNCTION, &Collect);
  curl_easy_setopt(c.get(), CURLOPT_WRITEDATA, &response.body);
  const CURLcode rc = curl_easy_perform(c.get());
  if (rc != CURLE_OK) call.Finish(0, rc == CURLE_OPERATION_TIMEDOUT ? "timed out" : curl_easy_strerror(rc));
  if (rc == CURLE_OPERATION_TIMEDOUT)
    return Upstream("mt_timeout",
                    std::string(provider) + " did not answer within " + std::to_string(timeout_ms) + " ms.");
  if (rc != CURLE_OK)
    return Upstream("mt_unavailable", std::string(provider) + " could not be reached: " +
                                          (error_buffer[0] ? error_buffer : curl_easy_strerror(rc)));
  curl_easy_getinfo(c.get(), CURLINFO_RESPONSE_CODE, &response.status);
  call.Finish(response.status);
  return response;
}

// The HTTP statuses every provider shares.
std::optional<Error> StatusError(std::string_view provider, const HttpResponse& r) {
  const std::string p(provider);
  if (r.status == 401 || r.status == 403)
    return Upstream("mt_auth_failed", p + " refused the API key (HTTP " + std::to_string(r.status) + ").");
  if (r.status == 456 || r.status == 429)
    return Upstream("mt_quota_exceeded",
                    p + " reports its quota or rate limit exceeded (HTTP " + std::to_string(r.status) + ").");
  if (r.status >= 500) return Upstream("mt_unavailable", p + " failed (HTTP " + std::to_string(r.status) + ").");
  return std::nullopt;
}

Error BadResponse(std::string_view provider, const std::string& what) {
  return Upstream("mt_bad_response", std::string(provider) + " answered unexpectedly: " + what);
}

Result<json::value> ParseJson(std::string_view provider, const std::string& body) {
  boost::system::error_code ec;
  json::value v = json::parse(body, ec);
  if (ec) return BadResponse(provider, "not JSON");
  return v;
}

std::string TrimSlash(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

// --- Apertium APY -----------------------------------------------------------

class Apertium : public Translator {
 public:
  Apertium(std::string url, long timeout_ms) : url_(TrimSlash(std::move(url))), timeout_ms_(timeout_ms) {}
  std::string_view Name() const override { return "apertium"; }

  Result<std::vector<std::string>> Translate(const std::vector<std::string>& texts, const std::string& source,
                                             const std::string& target, const GlossaryInput*) const override {
    // APY translates one q per request; one request per text of the block
    // (the texts of a block are few, and APY keeps its pipeline warm).
    const std::string pair = ApertiumCode(source) + "|" + ApertiumCode(target);
    std::vector<std::string> out;
    for (const auto& text : texts) {
      if (text.find_first_not_of(" \t\n") == std::string::npos) {
        out.push_back(text);
        continue;
      }
      CR_TRY_ASSIGN(HttpResponse r, Post("Apertium", url_ + "/translate",
                                         Form({{"langpair", pair}, {"q", text}, {"markUnknown", "no"}}),
                                         {"Content-Type: application/x-www-form-urlencoded"}, timeout_ms_));
      if (r.status == 400 && r.body.find("not installed") != std::string::npos)
        return Error::InvalidArgument("mt_unsupported_pair", "Apertium has no pair " + pair + " installed.");
      if (auto e = StatusError("Apertium", r)) return *e;
      if (r.status != 200) return BadResponse("Apertium", "HTTP " + std::to_string(r.status));
      CR_TRY_ASSIGN(json::value v, ParseJson("Apertium", r.body));
      const auto* data = v.is_object() ? v.as_object().if_contains("responseData") : nullptr;
      const auto* t = data && data->is_object() ? data->as_object().if_contains("translatedText") : nullptr;
      if (!t || !t->is_string()) return BadResponse("Apertium", "no responseData.translatedText");
      out.emplace_back(t->as_string());
    }
    return out;
  }

 private:
  std::string url_;
  long timeout_ms_;
};

// --- LibreTranslate ---------------------------------------------------------

class LibreTranslate : public Translator {
 public:
  LibreTranslate(std::string url, std::string key, long timeout_ms)
      : url_(TrimSlash(std::move(url))), key_(std::move(key)), timeout_ms_(timeout_ms) {}
  std::string_view Name() const override { return "libretranslate"; }

  Result<std::vector<std::string>> Translate(const std::vector<std::string>& texts, const std::string& source,
                                             const std::string& target, const GlossaryInput*) const override {
    if (texts.empty()) return std::vector<std::string>{};
    json::object body{{"q", json::value_from(texts)}, {"source", source}, {"target", target}, {"format", "text"}};
    if (!key_.empty()) body["api_key"] = key_;
    CR_TRY_ASSIGN(HttpResponse r, Post("LibreTranslate", url_ + "/translate", json::serialize(body),
                                       {"Content-Type: application/json"}, timeout_ms_));
    if (auto e = StatusError("LibreTranslate", r)) return *e;
    if (r.status == 400) return Error::InvalidArgument("mt_unsupported_pair", "LibreTranslate refused: " + r.body);
    if (r.status != 200) return BadResponse("LibreTranslate", "HTTP " + std::to_string(r.status));
    CR_TRY_ASSIGN(json::value v, ParseJson("LibreTranslate", r.body));
    const auto* t = v.is_object() ? v.as_object().if_contains("translatedText") : nullptr;
    if (!t || !t->is_array() || t->as_array().size() != texts.size())
      return BadResponse("LibreTranslate", "translatedText is not an array of one text per q");
    std::vector<std::string> out;
    for (const auto& x : t->as_array()) {
      if (!x.is_string()) return BadResponse("LibreTranslate", "a translatedText item is not a string");
      out.emplace_back(x.as_string());
    }
    return out;
  }

 private:
  std::string url_;
  std::string key_;
  long timeout_ms_;
};

// --- DeepL API v2 -----------------------------------------------------------

std::string DeepLCode(std::string_view bcp47, bool target) {
  std::string up;
  for (char c : bcp47) up.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  if (!target) return up.substr(0, up.find('-'));  // source languages have no variants
  if (up == "EN") return "EN-US";                  // DeepL wants a variant for English and Portuguese
  if (up == "PT") return "PT-PT";
  return up;
}

class DeepL : public Translator {
 public:
  DeepL(std::string url, std::string key, long timeout_ms)
      : url_(TrimSlash(std::move(url))), key_(std::move(key)), timeout_ms_(timeout_ms) {}
  std::string_view Name() const override { return "deepl"; }
  bool SupportsGlossaries() const override { return true; }

  Result<std::vector<std::string>> Translate(const std::vector<std::string>& texts, const std::string& source,
                                             const std::string& target, const GlossaryInput* glossary) const override {
    if (texts.empty()) return std::vector<std::string>{};
    json::object body{{"text", json::value_from(texts)},
                      {"source_lang", DeepLCode(source, false)},
                      {"target_lang", DeepLCode(target, true)}};
    if (glossary && glossary->provider_glossary_id) body["glossary_id"] = *glossary->provider_glossary_id;
    CR_TRY_ASSIGN(HttpResponse r, Post("DeepL", url_ + "/v2/translate", json::serialize(body), Headers(), timeout_ms_));
    if (auto e = StatusError("DeepL", r)) return *e;
    if (r.status == 400) return Error::InvalidArgument("mt_unsupported_pair", "DeepL refused: " + r.body);
    if (r.status != 200) return BadResponse("DeepL", "HTTP " + std::to_string(r.status));
    CR_TRY_ASSIGN(json::value v, ParseJson("DeepL", r.body));
    const auto* t = v.is_object() ? v.as_object().if_contains("translations") : nullptr;
    if (!t || !t->is_array() || t->as_array().size() != texts.size())
      return BadResponse("DeepL", "translations is not an array of one item per text");
    std::vector<std::string> out;
    for (const auto& x : t->as_array()) {
      const auto* s = x.is_object() ? x.as_object().if_contains("text") : nullptr;
      if (!s || !s->is_string()) return BadResponse("DeepL", "a translation has no text");
      out.emplace_back(s->as_string());
    }
    return out;
  }

  Result<std::string> SyncGlossary(const std::string& name, const std::string& source, const std::string& target,
                                   const std::vector<Term>& terms) const override {
    // DeepL's glossaries are immutable (v2): each sync creates a new one.
    std::string tsv;
    for (const auto& t : terms) {
      auto clean = [](std::string s) {
        for (char& c : s)
          if (c == '\t' || c == '\n' || c == '\r') c = ' ';
        return s;
      };
      tsv += clean(t.source) + "\t" + clean(t.target) + "\n";
    }
    json::object body{{"name", name},
                      {"source_lang", DeepLCode(source, false)},
                      {"target_lang", DeepLCode(target, false)},
                      {"entries", tsv},
                      {"entries_format", "tsv"}};
    CR_TRY_ASSIGN(HttpResponse r,
                  Post("DeepL", url_ + "/v2/glossaries", json::serialize(body), Headers(), timeout_ms_));
    if (auto e = StatusError("DeepL", r)) return *e;
    if (r.status == 400) return Error::InvalidArgument("mt_glossary_refused", "DeepL refused the glossary: " + r.body);
    if (r.status != 200 && r.status != 201) return BadResponse("DeepL", "HTTP " + std::to_string(r.status));
    CR_TRY_ASSIGN(json::value v, ParseJson("DeepL", r.body));
    const auto* id = v.is_object() ? v.as_object().if_contains("glossary_id") : nullptr;
    if (!id || !id->is_string()) return BadResponse("DeepL", "no glossary_id");
    return std::string(id->as_string());
  }

 private:
  std::vector<std::string> Headers() const {
    return {"Content-Type: application/json", "Authorization: DeepL-Auth-Key " + key_};
  }
  std::string url_;
  std::string key_;
  long timeout_ms_;
};

}  // namespace

Result<std::string> Translator::SyncGlossary(const std::string&, const std::string&, const std::string&,
                                             const std::vector<Term>&) const {
  return Error::Conflict("glossary_sync_unsupported",
                         "The provider '" + std::string(Name()) +
                             "' does not store glossaries; its translations apply glossary terms by placeholder "
                             "protection instead (docs/machine-translation.md).");
}

std::unique_ptr<Translator> MakeApertium(std::string base_url, long timeout_ms) {
  return std::make_unique<Apertium>(std::move(base_url), timeout_ms);
}
std::unique_ptr<Translator> MakeLibreTranslate(std::string base_url, std::string api_key, long timeout_ms) {
  return std::make_unique<LibreTranslate>(std::move(base_url), std::move(api_key), timeout_ms);
}
std::unique_ptr<Translator> MakeDeepL(std::string base_url, std::string auth_key, long timeout_ms) {
  return std::make_unique<DeepL>(std::move(base_url), std::move(auth_key), timeout_ms);
}

TranslatorSet::TranslatorSet(const ProviderConfig& config) : default_name_(config.default_provider) {
  if (!config.apertium_url.empty()) translators_.push_back(MakeApertium(config.apertium_url, config.timeout_ms));
  if (!config.libretranslate_url.empty())
    translators_.push_back(MakeLibreTranslate(config.libretranslate_url, config.libretranslate_key, config.timeout_ms));
  if (!config.deepl_url.empty())
    translators_.push_back(MakeDeepL(config.deepl_url, config.deepl_key, config.timeout_ms));
}

const Translator* TranslatorSet::Find(std::string_view name) const {
  for (const auto& t : translators_)
    if (t->Name() == name) return t.get();
  return nullptr;
}

std::vector<std::string> TranslatorSet::Names() const {
  std::vector<std::string> out;
  if (const auto* d = Default()) out.emplace_back(d->Name());
  for (const auto& t : translators_)
    if (t.get() != Default()) out.emplace_back(t->Name());
  return out;
}

const Translator* TranslatorSet::Default() const {
  if (const auto* t = Find(default_name_)) return t;
  return translators_.empty() ? nullptr : translators_.front().get();
}

std::string ApertiumCode(std::string_view bcp47) {
  static const std::map<std::string, std::string, std::less<>> kCodes = {
      {"en", "eng"}, {"es", "spa"}, {"ca", "cat"}, {"fr", "fra"}, {"pt", "por"},      {"it", "ita"},
      {"de", "deu"}, {"nl", "nld"}, {"eu", "eus"}, {"gl", "glg"}, {"oc", "oci"},      {"ro", "ron"},
      {"nb", "nob"}, {"nn", "nno"}, {"da", "dan"}, {"sv", "swe"}, {"en-US", "eng_US"}};
  auto it = kCodes.find(bcp47);
  if (it != kCodes.end()) return it->second;
  auto primary = bcp47.substr(0, bcp47.find('-'));
  it = kCodes.find(primary);
  return it != kCodes.end() ? it->second : std::string(bcp47);
}

namespace {
constexpr std::string_view kTokenPrefix = "ZXQ";

bool MatchAt(std::string_view text, size_t at, const Term& term) {
  if (at + term.source.size() > text.size()) return false;
  for (size_t i = 0; i < term.source.size(); ++i) {
    unsigned char a = text[at + i], b = term.source[i];
    if (term.case_sensitive ? a != b : std::tolower(a) != std::tolower(b)) return false;
  }
  // Whole words only.
  auto word = [](unsigned char c) { return std::isalnum(c) || c >= 0x80; };
  if (at > 0 && word(text[at - 1])) return false;
  size_t end = at + term.source.size();
  return end >= text.size() || !word(text[end]);
}
}  // namespace

Protected ProtectTerms(std::string_view text, const std::vector<Term>& terms) {
  Protected out;
  // Longest terms first, so "access key" wins over "key".
  std::vector<const Term*> order;
  for (const auto& t : terms)
    if (!t.source.empty()) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(),
                   [](const Term* a, const Term* b) { return a->source.size() > b->source.size(); });
  size_t i = 0;
  while (i < text.size()) {
    const Term* hit = nullptr;
    for (const Term* t : order)
      if (MatchAt(text, i, *t)) {
        hit = t;
        break;
      }
    if (!hit) {
      out.text.push_back(text[i++]);
      continue;
    }
    out.text += std::string(kTokenPrefix) + std::to_string(out.replacements.size() + 1);
    out.replacements.push_back(hit->target);
    i += hit->source.size();
  }
  return out;
}

std::string RestoreTerms(std::string_view translated, const std::vector<std::string>& replacements) {
  if (replacements.empty()) return std::string(translated);
  std::string out;
  size_t i = 0;
  while (i < translated.size()) {
    if (translated.substr(i, kTokenPrefix.size()) == kTokenPrefix) {
      size_t j = i + kTokenPrefix.size();
      size_t n = 0;
      while (j < translated.size() && std::isdigit(static_cast<unsigned char>(translated[j])))
        n = n * 10 + static_cast<size_t>(translated[j++] - '0');
      if (j > i + kTokenPrefix.size() && n >= 1 && n <= replacements.size()) {
        out += replacements[n - 1];
        i = j;
        continue;
      }
    }
    out.push_back(translated[i++]);
  }
  return out;
}

}  // namespace credence::translation
