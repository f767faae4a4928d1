#include "notify/webhook.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

namespace credence::notify {
namespace {

namespace json = boost::json;

constexpr std::string_view kSecretPrefix = "whsec_";

std::string Base64(const unsigned char* bytes, size_t n) {
  std::string out(4 * ((n + 2) / 3) + 1, '\0');
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes, static_cast<int>(n));
  out.resize(static_cast<size_t>(written));
  return out;
}

std::optional<std::string> Base64Decode(std::string_view text) {
  if (text.empty() || text.size() % 4 != 0) return std::nullopt;
  for (const char c : text)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/' || c == '=')) return std::nullopt;
  std::string out(text.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  size_t len = static_cast<size_t>(n);
  // EVP_DecodeBlock counts the padding as zero bytes.
  if (text.back() == '=') --len;
  if (text.size() >= 2 && text[text.size() - 2] == '=') --len;
  out.resize(len);
  return out;
}

}  // namespace

const std::vector<WebhookEventType>& WebhookCatalog() {
  static const std::vector<WebhookEventType> kCatalog = {
      {"entry.published", "An entry was published (created published, or a draft published)."},
      {"entry.updated", "An entry's content or metadata was saved."},
      {"entry.deleted", "An entry was deleted."},
      {"entry.expiring", "An entry entered its expiry warning window (expiring soon or warning)."},
      {"entry.expired", "An entry reached its expiry date."},
      {"entry.renewed", "An entry was renewed: its expiry date moved forward."},
      {"review.submitted", "A review of an entry was submitted."},
      {"translation.stale", "A translation became stale because its original changed."},
      {"translation.updated", "A translation was saved."},
      {"trust.decision.blocked", "An evaluation blocked or escalated a source (ids and codes only)."},
      {"apikey.created", "A tenant API key was created."},
      {"apikey.revoked", "A tenant API key was revoked."},
      {"app.key.disabled", "An app-bound key was disabled."},
      {"connector.sync.failed", "A connector's synchronisation failed."},
      {"scanning.secret.detected", "Content scanning found a secret in a document (never the secret itself)."},
  };
  return kCatalog;
}

std::vector<std::string> WebhookEventTypes() {
  std::vector<std::string> out;
  for (const auto& e : WebhookCatalog()) out.emplace_back(e.type);
  return out;
}

bool IsWebhookEventType(std::string_view type) {
  const auto& c = WebhookCatalog();
  return std::any_of(c.begin(), c.end(), [&](const WebhookEventType& e) { return e.type == type; });
}

std::string NewWebhookSecret() {
  std::array<unsigned char, 24> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1)
    throw std::runtime_error("no random bytes for a webhook secret");
  return std::string(kSecretPrefix) + Base64(bytes.data(), bytes.size());
}

std::optional<std::string> WebhookSecretKey(std::string_view secret) {
  if (!secret.starts_with(kSecretPrefix)) return std::nullopt;
  auto key = Base64Decode(secret.substr(kSecretPrefix.size()));
  if (!key || key->empty()) return std::nullopt;
  return key;
}

std::string StandardWebhookSignature(std::string_view secret, std::string_view msg_id, int64_t timestamp_seconds,
                                     std::string_view body) {
  const auto key = WebhookSecretKey(secret);
  if (!key) throw std::invalid_argument("not a whsec_ secret");
  std::string content;
  content.reserve(msg_id.size() + body.size() + 24);
  content.append(msg_id).append(".").append(std::to_string(timestamp_seconds)).append(".").append(body);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key->data(), static_cast<int>(key->size()),
           reinterpret_cast<const unsigned char*>(content.data()), content.size(), digest, &length) == nullptr)
    throw std::runtime_error("HMAC-SHA256 failed");
  return "v1," + Base64(digest, length);
}

std::string WebhookPayload(std::string_view type, TimeMs timestamp, std::string_view data_json) {
  boost::system::error_code ec;
  json::value data = json::parse(data_json, ec);
  if (ec || !data.is_object()) data = json::object{};
  return json::serialize(
      json::object{{"type", type}, {"timestamp", FormatTimestamp(timestamp)}, {"data", std::move(data)}});
}

TimeMs WebhookRetryDelay(int failed_attempts, double jitter) {
  static constexpr std::array<TimeMs, 7> kDelays = {5'000,      300'000,    1'800'000, 7'200'000,
                                                    18'000'000, 36'000'000, 36'000'000};
  const size_t i = static_cast<size_t>(std::clamp(failed_attempts, 1, static_cast<int>(kDelays.size())) - 1);
  const double j = std::clamp(jitter, 0.0, 0.999999);
  return kDelays[i] + static_cast<TimeMs>(static_cast<double>(kDelays[i]) * 0.2 * j);
}

}  // namespace credence::notify
