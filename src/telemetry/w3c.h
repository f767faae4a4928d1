#pragma once
// W3C Trace Context (https://www.w3.org/TR/trace-context/): the
// `traceparent` header read from requests and written on outbound calls,
// and the `tracestate` header passed on. Pure functions.
#include <optional>
#include <string>
#include <string_view>

#include "core/trace_context.h"

namespace credence::telemetry {

// The context a `traceparent` value carries, or nullopt when it is invalid
// (section 3.2): version 00 is exactly 55 characters; a later version may be
// longer only with a '-' after the 55th; version ff, uppercase hex, an
// all-zero trace or parent id are invalid. Of the flags only "sampled" is
// kept. The caller starts a new trace for an invalid one, as the spec says.
std::optional<TraceContext> ParseTraceparent(std::string_view value);

// "00-<trace id>-<span id>-<flags>" of `context` (valid).
std::string FormatTraceparent(const TraceContext& context);

// Whether a `tracestate` value may be passed on: at most 512 characters and
// 32 list members, printable ASCII only. Its members are not interpreted:
// Credence adds none of its own.
bool UsableTracestate(std::string_view value);

}  // namespace credence::telemetry
