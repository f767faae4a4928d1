#pragma once
// HTTP admission hooks: the third way to write an action guard (issue 15),
// as Kubernetes admission webhooks do. A tenant registers an https URL; on a
// guarded action Credence POSTs the guard context to it, signed like its
// webhooks (Standard Webhooks, decisions.md 8), and the hook answers allow
// or deny within a short timeout. Outbound rules apply (decisions.md 11):
// the host is resolved once, every address is checked against the policy
// and the connection is pinned to the checked address; redirects are never
// followed. Wire format: docs/admission-hooks.md.
//
// The caller (the plugin framework's guard pipeline) applies the spec's
// rule: a kError verdict counts as allow, and is logged, counted and shown
// in the plugin's health. This module only reports what happened.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"
#include "outbound/outbound.h"

namespace credence::plugins::admission {

// Bounds on a hook's answer; anything beyond them is kError "bad answer".
inline constexpr size_t kMaxAnswerBytes = size_t{64} * 1024;
inline constexpr size_t kMaxReasonCodeChars = 100;
inline constexpr size_t kMaxMessageChars = 1000;               // code points
inline constexpr size_t kMaxMetadataBytes = size_t{8} * 1024;  // serialized
// timeout_ms is clamped to [1, kMaxTimeoutMs]: a guard runs inside a user's
// request.
inline constexpr int64_t kMaxTimeoutMs = 10'000;

struct HookRequest {
  std::string url;            // https (http only where the policy allows loopback, i.e. development mode)
  std::string secret;         // whsec_...
  std::string context_json;   // {action, tenantId, userId, entityId, properties}: a JSON object
  int64_t timeout_ms = 2000;  // whole call, resolution and connect included
  outbound::Policy policy;    // decisions.md 11
};

struct HookVerdict {
  enum class Kind { kAllow, kDeny, kError };
  Kind kind = Kind::kAllow;
  std::string reason_code, message;  // kDeny
  std::string metadata_json = "{}";  // kDeny: a JSON object
  // kError, printable ASCII: "timed out after 2000 ms", "HTTP 500",
  // "url_not_allowed: ...", "host_unresolvable: ...", "bad answer: ...",
  // "bad request: ..." (a malformed secret or context), "HTTP request failed: ...".
  std::string error;
  int http_status = 0;      // the status answered, 0 when none
  int64_t duration_ms = 0;  // the whole call
};

// Calls the hook once. Never throws; thread-safe (one libcurl handle and one
// connection per call).
HookVerdict Call(const HookRequest& request);
// The same with the host resolved by `resolve` (tests; the system resolver
// otherwise). Resolution counts against the timeout.
HookVerdict Call(const HookRequest& request, const outbound::Resolver& resolve);

// Validates a hook URL at registration: at most 2000 characters, https
// (http only when policy.allow_loopback), a host, no user information or
// fragment, and a literal address (or localhost) allowed by the policy.
// 400 url_not_allowed (or validation_failed for an empty URL) naming `field`.
// A host name is checked when called, not here: its addresses may change.
Status ValidateHookUrl(std::string_view url, const outbound::Policy& policy, const std::string& field);

}  // namespace credence::plugins::admission
