#include "plugins/admission/admission_hook.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/url/parse.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "core/clock.h"
#include "core/ids.h"
#include "core/json_numbers.h"
#include "notify/delivery.h"
#include "notify/webhook.h"
#include "plugins/admission/internal/answer.h"

namespace credence::plugins::admission {
namespace {

namespace json = boost::json;
using SteadyClock = std::chrono::steady_clock;

constexpr size_t kMaxUrlChars = 2000;
constexpr std::string_view kEventType = "guard.request";
constexpr std::string_view kDefaultDenyMessage = "The action was denied by an admission hook.";

// Errors end up in logs, metrics and the plugin's health: printable ASCII
// only, bounded (a receiver's answer may hold anything).
std::string Printable(std::string_view s, size_t max = 300) {
  std::string out;
  for (const char c : s) {
    if (out.size() >= max) break;
    const auto u = static_cast<unsigned char>(c);
    out += (u >= 0x20 && u < 0x7f) ? c : (c == '\n' || c == '\r' || c == '\t') ? ' ' : '?';
  }
  return out;
}

HookVerdict Failed(std::string_view error, int http_status = 0) {
  HookVerdict v;
  v.kind = HookVerdict::Kind::kError;
  v.error = Printable(error);
  v.http_status = http_status;
  return v;
}

std::string ErrorText(const Error& e) {
  if (e.code == "validation_failed" && !e.fields.empty()) return "url_not_allowed: the URL " + e.fields[0].message;
  return e.code + ": " + e.detail;
}

Error NotAllowed(const std::string& field, const std::string& reason) {
  return Error::InvalidArgument("url_not_allowed", "The URL is not allowed: " + reason, {{field, reason}});
}

bool IsSnakeCase(std::string_view s) {
  if (s.empty() || s.size() > kMaxReasonCodeChars || s.front() < 'a' || s.front() > 'z' || s.back() == '_')
    return false;
  char previous = 0;
  for (const char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c == '_' && previous != '_');
    if (!ok) return false;
    previous = c;
  }
  return true;
}

// Code points of valid UTF-8 (Boost.JSON has validated it).
size_t CodePoints(std::string_view s) {
  return static_cast<size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xc0) != 0x80; }));
}

}  // namespace

namespace internal {

HookVerdict ParseAnswer(std::string_view body, int status) {
  boost::system::error_code ec;
  const json::value answer = json::parse(body, ec);
  if (ec) return Failed("bad answer: not JSON", status);
  const json::object* o = answer.if_object();
  if (o == nullptr) return Failed("bad answer: not a JSON object", status);
  const json::value* allowed = o->if_contains("allowed");
  if (allowed == nullptr || !allowed->is_bool())
    return Failed("bad answer: \"allowed\" is missing or not a boolean", status);
  HookVerdict v;
  v.http_status = status;
  if (allowed->get_bool()) return v;  // other members are ignored when allowing
  v.kind = HookVerdict::Kind::kDeny;
  const json::value* reason = o->if_contains("reasonCode");
  if (reason == nullptr || !reason->is_string() || !IsSnakeCase(reason->get_string()))
    return Failed("bad answer: a denial needs \"reasonCode\" in snake_case, at most 100 characters", status);
  v.reason_code = std::string(reason->get_string());
  v.message = std::string(kDefaultDenyMessage);
  if (const json::value* m = o->if_contains("message"); m != nullptr && !m->is_null()) {
    if (!m->is_string() || CodePoints(m->get_string()) > kMaxMessageChars)
      return Failed("bad answer: \"message\" must be a string of at most 1000 characters", status);
    if (!m->get_string().empty()) v.message = std::string(m->get_string());
  }
  if (const json::value* m = o->if_contains("metadata"); m != nullptr && !m->is_null()) {
    if (!m->is_object()) return Failed("bad answer: \"metadata\" must be an object", status);
    if (!AllNumbersFinite(*m))
      return Failed("bad answer: \"metadata\" holds a number beyond a double's range", status);
    v.metadata_json = json::serialize(*m);
    if (v.metadata_json.size() > kMaxMetadataBytes)
      return Failed("bad answer: \"metadata\" is larger than 8 KiB", status);
  }
  return v;
}

}  // namespace internal

namespace {

// Resolution on its own thread, waited for until the deadline: getaddrinfo
// cannot be cancelled, and a slow DNS server must not stretch a guard past
// its timeout. A late answer is dropped with the thread's shared state.
outbound::Resolver BoundedResolver(const outbound::Resolver& resolve, SteadyClock::time_point deadline,
                                   bool* timed_out) {
  return [resolve, deadline, timed_out](const std::string& host) -> std::vector<std::string> {
    struct Shared {
      std::mutex mu;
      std::condition_variable cv;
      bool done = false;                   // guarded by mu
      std::vector<std::string> addresses;  // guarded by mu
    };
    auto shared = std::make_shared<Shared>();
    std::thread([shared, resolve, host] {
      std::vector<std::string> addresses;
      try {
        addresses = resolve(host);
      } catch (...) {  // an unresolvable host, as far as the caller can tell
      }
      const std::lock_guard lock(shared->mu);
      shared->addresses = std::move(addresses);
      shared->done = true;
      shared->cv.notify_all();
    }).detach();
    std::unique_lock lock(shared->mu);
    if (!shared->cv.wait_until(lock, deadline, [&] { return shared->done; })) {
      *timed_out = true;
      return {};
    }
    return std::move(shared->addresses);
  };
}

HookVerdict CallUnguarded(const HookRequest& request, const outbound::Resolver& resolve,
                          SteadyClock::time_point start) {
  const int64_t timeout_ms = std::clamp<int64_t>(request.timeout_ms, 1, kMaxTimeoutMs);
  const std::string timed_out_text = "timed out after " + std::to_string(timeout_ms) + " ms";
  const auto deadline = start + std::chrono::milliseconds(timeout_ms);

  if (auto valid = ValidateHookUrl(request.url, request.policy, "url"); !valid) return Failed(ErrorText(valid.error()));
  if (!notify::WebhookSecretKey(request.secret)) return Failed("bad request: the secret is not a whsec_ secret");
  {
    boost::system::error_code ec;
    const json::value context = json::parse(request.context_json, ec);
    if (ec || !context.is_object()) return Failed("bad request: the context is not a JSON object");
  }

  bool resolve_timed_out = false;
  auto target = outbound::Resolve(request.url, request.policy, BoundedResolver(resolve, deadline, &resolve_timed_out));
  if (resolve_timed_out) return Failed(timed_out_text + " (resolving the host)");
  if (!target) return Failed(ErrorText(target.error()));

  const TimeMs now = SystemClock().Now();
  const std::string body = notify::WebhookPayload(kEventType, now, request.context_json);
  const std::string id = NewId();
  const int64_t timestamp = now / 1000;
  const std::string signature = notify::StandardWebhookSignature(request.secret, id, timestamp, body);

  const auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now()).count();
  if (remaining <= 0) return Failed(timed_out_text);

  const notify::PostAnswer answer = notify::PostPinned({
      .url = request.url,
      .target = *target,
      .body = body,
      .header_lines = {"Accept: application/json", "webhook-id: " + id,
                       "webhook-timestamp: " + std::to_string(timestamp), "webhook-signature: " + signature},
      .timeout_ms = remaining,
      .protocols = request.policy.allow_loopback ? "http,https" : "https",
      .user_agent = "Credence-Admission/1",
      .max_answer_bytes = kMaxAnswerBytes,
      .purpose = "admission-hook",
  });
  const int status = static_cast<int>(answer.status);
  if (answer.timed_out) return Failed(timed_out_text, status);
  if (answer.too_large) return Failed("bad answer: larger than " + std::to_string(kMaxAnswerBytes) + " bytes", status);
  if (!answer.sent) return Failed("HTTP request failed: " + answer.error, status);
  if (status >= 300 && status < 400)
    return Failed("HTTP " + std::to_string(status) + " (redirects are not followed)", status);
  if (status < 200 || status >= 300) return Failed("HTTP " + std::to_string(status), status);
  return internal::ParseAnswer(answer.body, status);
}

}  // namespace

HookVerdict Call(const HookRequest& request) { return Call(request, outbound::SystemResolve); }

HookVerdict Call(const HookRequest& request, const outbound::Resolver& resolve) {
  const auto start = SteadyClock::now();
  HookVerdict v;
  try {
    v = CallUnguarded(request, resolve, start);
  } catch (const std::exception& e) {
    v = Failed(std::string("internal error: ") + e.what());
  } catch (...) {
    v = Failed("internal error");
  }
  v.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - start).count();
  return v;
}

Status ValidateHookUrl(std::string_view url, const outbound::Policy& policy, const std::string& field) {
  if (url.empty()) return Error::Validation({{field, "is required"}});
  if (url.size() > kMaxUrlChars) return Error::Validation({{field, "is longer than 2000 characters"}});
  if (auto parsed = boost::urls::parse_absolute_uri(url)) {
    std::string scheme(parsed->scheme());
    for (auto& ch : scheme) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (scheme == "http" && !policy.allow_loopback)
      return NotAllowed(field, "an admission hook must use https (http only in development mode)");
    if (parsed->has_userinfo()) return NotAllowed(field, "it contains user information");
  }
  // parse_absolute_uri refuses a fragment; name it rather than "not an absolute URL".
  if (url.find('#') != std::string_view::npos) return NotAllowed(field, "it has a fragment");
  return outbound::CheckUrl(url, policy, field);
}

}  // namespace credence::plugins::admission
