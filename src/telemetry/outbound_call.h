#pragma once
// The client span of one outbound call (a webhook, a hook, a translation,
// a fetch, an OpenID provider) and the W3C headers that carry its context
// to the callee. Made around the call on the thread that makes it: a child
// of the current span (the request's, or a background job's).
//
// The URL is not recorded, only its host and port: webhook and chat URLs
// carry secrets in their paths (a Slack incoming webhook's is one).
#include <string>
#include <string_view>
#include <vector>

#include "telemetry/span.h"

namespace credence::telemetry {

class OutboundCall {
 public:
  // Named "<method> <purpose>", e.g. "POST webhook".
  OutboundCall(std::string_view purpose, std::string_view method, std::string_view url);

  // "traceparent: ..." (and "tracestate: ...") for the request, or none
  // when no trace is current. Sent for unsampled traces too, flagged so,
  // so the callee follows the decision.
  std::vector<std::string> HeaderLines() const;

  // The answer's status (0 when none came) and the transport error, if any.
  // A status of 400 and above or an error marks the span failed.
  void Finish(long status, std::string_view error = {});

  Span& span() { return span_; }

 private:
  Span span_;
};

// The host and port of an http(s) URL (port from the scheme when absent),
// for server.address and server.port; empty host when unparsable.
struct HostPort {
  std::string host;
  int port = 0;
};
HostPort HostPortOf(std::string_view url);

}  // namespace credence::telemetry
