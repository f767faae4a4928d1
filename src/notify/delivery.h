#pragma once
// One delivery on the wire: the payload each channel type receives, the
// email message, the webhook signature, the retry schedule, and sending
// with libcurl. Nothing here touches the store.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/clock.h"
#include "outbound/outbound.h"

namespace credence::notify {

// A queued delivery as the worker sends it.
struct Delivery {
  std::string id;
  std::string tenant_id;
  std::string channel_id;               // "" for a direct email (QueueEmail) or a webhook's
  std::string webhook_id;               // a webhook's delivery (webhook_service.h); `text` is its body
  std::string event;
  std::string subject;
  std::string text;
  std::string data_json;                // a JSON object
  std::vector<std::string> recipients;  // from the event (entry owners), or a direct email's; email only
  int attempts = 0;                     // attempts made before this one
  TimeMs created_at = 0;                // when the event was queued
};

// {"text": subject + "\n" + text}
std::string SlackBody(std::string_view subject, std::string_view text);
// An Office 365 connector MessageCard.
std::string TeamsBody(std::string_view subject, std::string_view text);
// {"event","deliveryId","tenantId","occurredAt","subject","text","data"}
std::string WebhookBody(const Delivery& d);

// Lowercase hex HMAC-SHA256 of `data` keyed with `key`.
std::string HmacSha256Hex(std::string_view key, std::string_view data);
// The X-Credence-Signature value: "sha256=" + HmacSha256Hex(secret, body).
std::string WebhookSignature(std::string_view secret, std::string_view body);

// How long to wait after the `failed_attempts`-th failed attempt (1-based):
// 30 s, doubling, at most one hour.
TimeMs RetryDelay(int failed_attempts);

// A header value as RFC 2047 encoded words (UTF-8, base64) when it is not
// plain printable ASCII; folded so that no line exceeds 78 characters.
// CR and LF become spaces, so the value cannot start another header.
std::string EncodeHeaderValue(std::string_view value);
// `text` as quoted-printable with CRLF line endings. A line starting with a
// dot has it encoded (=2E), so the message is safe from SMTP dot-stuffing
// mistakes on any client or relay.
std::string QuotedPrintable(std::string_view text);

struct EmailMessage {
  std::string from;
  std::vector<std::string> to;
  std::string subject;
  std::string text;
  std::string message_id;  // without angle brackets
  TimeMs date = 0;
  std::vector<std::pair<std::string, std::string>> extra_headers;  // ASCII
};
// An RFC 5322 message (CRLF line endings, MIME text/plain in UTF-8,
// quoted-printable), ready for SMTP DATA.
std::string FormatEmail(const EmailMessage& m);
// "Tue, 01 Jan 2030 00:00:00 +0000"
std::string Rfc5322Date(TimeMs t);

struct SendResult {
  bool ok = false;
  std::string error;  // for last_error when not ok
  long status = 0;    // the HTTP status answered, 0 when none
};

// Calls curl_global_init once; call before starting threads that send.
void InitCurl();

// POSTs `body` as application/json. 2xx is success; any other status, a
// redirect included (never followed), or a transport error is a failure.
// The host is resolved once and checked against `outbound`, and the
// connection is pinned to the address checked (docs/outbound.md): a refusal
// is a failure whose error starts with url_not_allowed. At most 64 KiB of
// the answer is read.
// One POST of a JSON body to an address already checked (outbound::Resolve):
// the connection is pinned to it, no proxy, no redirect followed. At most
// `max_answer_bytes` of the answer are read. The shared transfer of
// PostJson and admission hooks.
struct PinnedPost {
  const std::string& url;
  const outbound::PinnedTarget& target;
  const std::string& body;
  std::vector<std::string> header_lines;  // "Name: value", besides Content-Type
  int64_t timeout_ms = 0;                 // bounds the whole transfer
  const char* protocols = "http,https";
  const char* user_agent = "Credence/1";
  size_t max_answer_bytes = 64 * 1024;
  // Names the call's client span ("POST <purpose>", docs/tracing.md).
  const char* purpose = "webhook";
};
struct PostAnswer {
  bool sent = false;        // a status was answered (transport succeeded)
  bool timed_out = false;
  bool too_large = false;   // the answer passed max_answer_bytes (reading stopped there)
  std::string error;        // the transport's error when not sent
  long status = 0;
  std::string body;         // the answer, up to max_answer_bytes
};
PostAnswer PostPinned(const PinnedPost& request);

SendResult PostJson(const std::string& url, const std::string& body,
                    const std::vector<std::pair<std::string, std::string>>& headers, int64_t timeout_ms,
                    const outbound::Policy& outbound, const char* purpose = "webhook");

// Sends `message` through the SMTP server at `smtp_url` (MAIL FROM `from`,
// RCPT TO each of `recipients`).
SendResult SendMail(const std::string& smtp_url, const std::string& from, const std::vector<std::string>& recipients,
                    const std::string& message, int64_t timeout_ms);

}  // namespace credence::notify
