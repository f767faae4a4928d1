#include "notify/delivery.h"

#include <curl/curl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <ctime>
#include <memory>
#include <mutex>

#include "telemetry/outbound_call.h"
#include "telemetry/span.h"

namespace credence::notify {
namespace {

namespace json = boost::json;

constexpr char kHex[] = "0123456789ABCDEF";
constexpr TimeMs kFirstRetryMs = 30'000;
constexpr TimeMs kMaxRetryMs = 3'600'000;

std::string LowerHex(const unsigned char* bytes, size_t n) {
  static constexpr char kLower[] = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (size_t i = 0; i < n; ++i) {
    out += kLower[bytes[i] >> 4];
    out += kLower[bytes[i] & 0x0f];
  }
  return out;
}

std::string Base64(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

// Length of the UTF-8 sequence that starts with `lead` (1 for stray bytes,
// so malformed input still advances).
size_t Utf8SequenceLength(unsigned char lead) {
  if (lead >= 0xf0 && lead < 0xf8) return 4;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc0) return 2;
  return 1;
}

// A header value never spans lines it did not fold itself.
std::string OneLine(std::string_view value) {
  std::string out(value);
  std::replace(out.begin(), out.end(), '\r', ' ');
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out;
}

// Error texts end up in a TEXT column and in JSON: printable ASCII only (a
// receiver's body may hold anything, and PostgreSQL refuses invalid UTF-8).
std::string Printable(std::string_view s, size_t max) {
  std::string out;
  for (const char c : s) {
    if (out.size() >= max) break;
    const auto u = static_cast<unsigned char>(c);
    out += (u >= 0x20 && u < 0x7f) ? c : (c == '\n' || c == '\r' || c == '\t') ? ' ' : '?';
  }
  return out;
}

struct CurlDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};
using CurlHandle = std::unique_ptr<CURL, CurlDeleter>;
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

void Append(Slist& list, const std::string& item) {
  curl_slist* grown = curl_slist_append(list.get(), item.c_str());
  if (grown == nullptr) throw std::bad_alloc();
  (void)list.release();
  list.reset(grown);
}

// A receiver's answer, read up to a bound.
struct Answer {
  size_t max = 0;
  std::string body;
  bool too_large = false;
};

size_t Collect(char* data, size_t size, size_t count, void* user) {
  auto* answer = static_cast<Answer*>(user);
  const size_t n = size * count;
  if (answer->body.size() + n > answer->max) {
    answer->body.append(data, answer->max - answer->body.size());
    answer->too_large = true;
    return 0;  // stops the transfer
  }
  answer->body.append(data, n);
  return n;
}

struct Upload {
  std::string_view data;
  size_t pos = 0;
};

size_t ReadUpload(char* buffer, size_t size, size_t count, void* user) {
  auto* u = static_cast<Upload*>(user);
  const size_t n = std::min(size * count, u->data.size() - u->pos);
  std::memcpy(buffer, u->data.data() + u->pos, n);
  u->pos += n;
  return n;
}

// Options every transfer shares: the timeout bounds the whole attempt, so a
// receiver that accepts and never answers costs at most `timeout_ms`.
void CommonOptions(CURL* c, const char* protocols, int64_t timeout_ms, char* error_buffer) {
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_ms));
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeout_ms));
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, protocols);
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error_buffer);
}

std::string TransportError(CURLcode rc, const char* error_buffer) {
  return Printable(error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(rc), 300);
}

}  // namespace

std::string SlackBody(std::string_view subject, std::string_view text) {
  std::string combined(subject);
  combined += '\n';
  combined += text;
  return json::serialize(json::object{{"text", combined}});
}

std::string TeamsBody(std::string_view subject, std::string_view text) {
  return json::serialize(json::object{{"@type", "MessageCard"},
                                      {"@context", "https://schema.org/extensions"},
                                      {"summary", subject},
                                      {"title", subject},
                                      {"text", text}});
}

std::string WebhookBody(const Delivery& d) {
  boost::system::error_code ec;
  json::value data = json::parse(d.data_json, ec);
  if (ec || !data.is_object()) data = json::object{};
  return json::serialize(json::object{{"event", d.event},
                                      {"deliveryId", d.id},
                                      {"tenantId", d.tenant_id},
                                      {"occurredAt", FormatTimestamp(d.created_at)},
                                      {"subject", d.subject},
                                      {"text", d.text},
                                      {"data", std::move(data)}});
}

std::string HmacSha256Hex(std::string_view key, std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
           data.size(), digest, &length) == nullptr)
    throw std::runtime_error("HMAC-SHA256 failed");
  return LowerHex(digest, length);
}

std::string WebhookSignature(std::string_view secret, std::string_view body) {
  return "sha256=" + HmacSha256Hex(secret, body);
}

TimeMs RetryDelay(int failed_attempts) {
  TimeMs delay = kFirstRetryMs;
  for (int i = 1; i < failed_attempts && delay < kMaxRetryMs; ++i) delay *= 2;
  return std::min(delay, kMaxRetryMs);
}

std::string EncodeHeaderValue(std::string_view value) {
  std::string line = OneLine(value);
  const bool plain = line.size() <= 200 && line.find("=?") == std::string::npos &&
                     std::all_of(line.begin(), line.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
  if (plain) return line;
  // Each encoded word holds whole characters (RFC 2047 section 5) and at
  // most 39 bytes, so a word is 64 characters and "Subject: " plus one word
  // stays within 78.
  std::string out;
  size_t i = 0;
  while (i < line.size()) {
    size_t end = i;
    while (end < line.size()) {
      const size_t next = end + Utf8SequenceLength(static_cast<unsigned char>(line[end]));
      if (next - i > 39) break;
      end = std::min(next, line.size());
    }
    if (!out.empty()) out += "\r\n ";
    out += "=?UTF-8?B?" + Base64(std::string_view(line).substr(i, end - i)) + "?=";
    i = end;
  }
  return out;
}

std::string QuotedPrintable(std::string_view text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    size_t column = 0;
    for (size_t i = 0; i < line.size(); ++i) {
      const auto b = static_cast<unsigned char>(line[i]);
      const bool last = i + 1 == line.size();
      auto encoded = [b] { return std::string{'=', kHex[b >> 4], kHex[b & 0x0f]}; };
      std::string token;
      if (b == '=' || (b < 0x20 && b != '\t') || b >= 0x7f || ((b == ' ' || b == '\t') && last) ||
          (b == '.' && column == 0))
        token = encoded();
      else
        token = std::string(1, static_cast<char>(b));
      // Lines stay within 76 characters, the soft break "=" included.
      if (column + token.size() > 75) {
        out += "=\r\n";
        column = 0;
        if (b == '.') token = encoded();
      }
      out += token;
      column += token.size();
    }
    out += "\r\n";
    // CRLF, CR and LF each end one line.
    start = end;
    if (start < text.size() && text[start] == '\r') {
      ++start;
      if (start < text.size() && text[start] == '\n') ++start;
    } else if (start < text.size()) {
      ++start;
    }
  }
  return out;
}

std::string Rfc5322Date(TimeMs t) {
  static constexpr std::array<const char*, 7> kDays = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const std::time_t seconds = static_cast<std::time_t>(t / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%s, %02d %s %04d %02d:%02d:%02d +0000", kDays[static_cast<size_t>(tm.tm_wday)],
                tm.tm_mday, kMonths[static_cast<size_t>(tm.tm_mon)], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                tm.tm_sec);
  return buffer;
}

std::string FormatEmail(const EmailMessage& m) {
  std::string out;
  out += "From: " + OneLine(m.from) + "\r\n";
  out += "To: ";
  for (size_t i = 0; i < m.to.size(); ++i) out += (i == 0 ? "" : ",\r\n ") + OneLine(m.to[i]);
  out += "\r\n";
  out += "Subject: " + EncodeHeaderValue(m.subject) + "\r\n";
  out += "Date: " + Rfc5322Date(m.date) + "\r\n";
  out += "Message-ID: <" + OneLine(m.message_id) + ">\r\n";
  out += "MIME-Version: 1.0\r\n";
  out += "Content-Type: text/plain; charset=utf-8\r\n";
  out += "Content-Transfer-Encoding: quoted-printable\r\n";
  for (const auto& [name, value] : m.extra_headers) out += OneLine(name) + ": " + OneLine(value) + "\r\n";
  out += "\r\n";
  out += QuotedPrintable(m.text);
  return out;
}

void InitCurl() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

PostAnswer PostPinned(const PinnedPost& request) {
  // The callee continues the caller's trace (W3C traceparent).
  telemetry::OutboundCall call(request.purpose, "POST", request.url);
  InitCurl();
  CurlHandle c(curl_easy_init());
  if (!c) return {.error = "cannot create an HTTP client"};
  char error_buffer[CURL_ERROR_SIZE] = {};
  CommonOptions(c.get(), request.protocols, request.timeout_ms, error_buffer);
  Slist list;
  Append(list, "Content-Type: application/json");
  // Without this curl may wait for "100 Continue" before sending the body.
  Append(list, "Expect:");
  for (const auto& line : request.header_lines) Append(list, line);
  for (const auto& line : call.HeaderLines()) Append(list, line);
  // Connect to the address that was checked, whatever DNS answers next.
  Slist pinned;
  Append(pinned, request.target.curl_resolve_entry());
  Answer answer{.max = request.max_answer_bytes};
  curl_easy_setopt(c.get(), CURLOPT_RESOLVE, pinned.get());
  // A proxy from the environment would resolve the host itself and undo the pin.
  curl_easy_setopt(c.get(), CURLOPT_PROXY, "");
  curl_easy_setopt(c.get(), CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(c.get(), CURLOPT_POST, 1L);
  curl_easy_setopt(c.get(), CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(c.get(), CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(c.get(), CURLOPT_HTTPHEADER, list.get());
  curl_easy_setopt(c.get(), CURLOPT_USERAGENT, request.user_agent);
  curl_easy_setopt(c.get(), CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c.get(), CURLOPT_WRITEFUNCTION, &Collect);
  curl_easy_setopt(c.get(), CURLOPT_WRITEDATA, &answer);
  const CURLcode rc = curl_easy_perform(c.get());
  PostAnswer out;
  curl_easy_getinfo(c.get(), CURLINFO_RESPONSE_CODE, &out.status);
  out.too_large = answer.too_large;
  out.body = std::move(answer.body);
  out.timed_out = rc == CURLE_OPERATION_TIMEDOUT;
  // An answer stopped at the bound was cut, not failed: its status counts.
  out.sent = (rc == CURLE_OK || (out.too_large && rc == CURLE_WRITE_ERROR)) && out.status != 0;
  if (!out.sent) out.error = TransportError(rc, error_buffer);
  call.Finish(out.status, out.sent ? std::string_view() : std::string_view(out.error));
  return out;
}

SendResult PostJson(const std::string& url, const std::string& body,
                    const std::vector<std::pair<std::string, std::string>>& headers, int64_t timeout_ms,
                    const outbound::Policy& outbound, const char* purpose) {
  auto target = outbound::Resolve(url, outbound);
  if (!target) return {false, target.error().code + ": " + target.error().detail};
  PinnedPost request{.url = url, .target = *target, .body = body, .timeout_ms = timeout_ms,
                     .user_agent = "Credence-Notify/1", .purpose = purpose};
  for (const auto& [name, value] : headers) request.header_lines.push_back(OneLine(name) + ": " + OneLine(value));
  const PostAnswer answer = PostPinned(request);
  if (!answer.sent) return {false, "HTTP request failed: " + answer.error};
  if (answer.status >= 200 && answer.status < 300) return {true, "", answer.status};
  std::string error = "HTTP " + std::to_string(answer.status);
  if (!answer.body.empty()) error += ": " + Printable(answer.body, 200);
  return {false, error, answer.status};
}

SendResult SendMail(const std::string& smtp_url, const std::string& from, const std::vector<std::string>& recipients,
                    const std::string& message, int64_t timeout_ms) {
  if (smtp_url.empty()) return {false, "no SMTP server is configured (--smtp-url)"};
  if (recipients.empty()) return {false, "no recipients"};
  telemetry::Span span("smtp send", telemetry::SpanKind::kClient);
  if (span.recording()) {
    const telemetry::HostPort server = telemetry::HostPortOf(smtp_url);
    span.SetString("server.address", server.host).SetInt("credence.smtp.recipients", static_cast<int64_t>(recipients.size()));
    if (server.port != 0) span.SetInt("server.port", server.port);
  }
  InitCurl();
  CurlHandle c(curl_easy_init());
  if (!c) return {false, "cannot create an SMTP client"};
  char error_buffer[CURL_ERROR_SIZE] = {};
  CommonOptions(c.get(), "smtp,smtps", timeout_ms, error_buffer);
  Slist rcpt;
  for (const auto& r : recipients) Append(rcpt, "<" + r + ">");
  const std::string mail_from = "<" + from + ">";
  Upload upload{message};
  curl_easy_setopt(c.get(), CURLOPT_URL, smtp_url.c_str());
  curl_easy_setopt(c.get(), CURLOPT_MAIL_FROM, mail_from.c_str());
  curl_easy_setopt(c.get(), CURLOPT_MAIL_RCPT, rcpt.get());
  curl_easy_setopt(c.get(), CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(c.get(), CURLOPT_READFUNCTION, &ReadUpload);
  curl_easy_setopt(c.get(), CURLOPT_READDATA, &upload);
  curl_easy_setopt(c.get(), CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(message.size()));
  const CURLcode rc = curl_easy_perform(c.get());
  if (rc == CURLE_OK) return {true, ""};
  long reply = 0;
  curl_easy_getinfo(c.get(), CURLINFO_RESPONSE_CODE, &reply);
  std::string error = "SMTP failed: " + TransportError(rc, error_buffer);
  if (reply != 0) error += " (last reply " + std::to_string(reply) + ")";
  span.SetError(error);
  return {false, error};
}

}  // namespace credence::notify
