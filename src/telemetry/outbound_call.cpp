#include "telemetry/outbound_call.h"

#include <charconv>

namespace credence::telemetry {

HostPort HostPortOf(std::string_view url) {
  HostPort out;
  const size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return out;
  const std::string_view scheme = url.substr(0, scheme_end);
  std::string_view authority = url.substr(scheme_end + 3);
  authority = authority.substr(0, authority.find_first_of("/?#"));
  if (const size_t at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
  std::string_view port;
  if (authority.starts_with('[')) {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return out;
    out.host = std::string(authority.substr(1, close - 1));
    if (close + 1 < authority.size() && authority[close + 1] == ':') port = authority.substr(close + 2);
  } else {
    const size_t colon = authority.find(':');
    out.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port = authority.substr(colon + 1);
  }
  int number = 0;
  if (!port.empty() && std::from_chars(port.data(), port.data() + port.size(), number).ec == std::errc())
    out.port = number;
  else if (scheme == "https")
    out.port = 443;
  else if (scheme == "http")
    out.port = 80;
  return out;
}

OutboundCall::OutboundCall(std::string_view purpose, std::string_view method, std::string_view url)
    : span_(std::string(method) + " " + std::string(purpose), SpanKind::kClient) {
  if (!span_.recording()) return;
  const HostPort target = HostPortOf(url);
  span_.SetString("http.request.method", method);
  span_.SetString("server.address", target.host);
  if (target.port != 0) span_.SetInt("server.port", target.port);
  span_.SetString("url.scheme", url.substr(0, url.find("://")));
  span_.SetString("credence.outbound", purpose);
}

std::vector<std::string> OutboundCall::HeaderLines() const {
  std::vector<std::string> lines;
  if (std::string line = TraceparentHeaderLine(); !line.empty()) {
    lines.push_back(std::move(line));
    if (std::string state = TracestateHeaderLine(); !state.empty()) lines.push_back(std::move(state));
  }
  return lines;
}

void OutboundCall::Finish(long status, std::string_view error) {
  if (span_.recording()) {
    if (status != 0) span_.SetInt("http.response.status_code", status);
    if (!error.empty())
      span_.SetError(error);
    else if (status >= 400)
      span_.SetError("HTTP " + std::to_string(status));
  }
  span_.End();
}

}  // namespace credence::telemetry
