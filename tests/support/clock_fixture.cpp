#include "support/clock_fixture.h"

#include <stdexcept>

#include "core/clock.h"

namespace credence::test {

void SetServerTime(HttpClient& client, const std::string& iso) {
  auto r = client.Put("/dev/clock", {{"now", iso}});
  if (r.status != 200) throw std::runtime_error("PUT /dev/clock failed: " + r.body);
}

std::string ServerTime(HttpClient& client) {
  auto r = client.Get("/dev/clock");
  if (r.status != 200) throw std::runtime_error("GET /dev/clock failed: " + r.body);
  return Str(r.Json(), "now");
}

void AdvanceServerDays(HttpClient& client, double days) {
  const auto now = ParseTimestamp(ServerTime(client));
  if (!now) throw std::runtime_error("unreadable server time");
  SetServerTime(client, FormatTimestamp(*now + static_cast<TimeMs>(days * static_cast<double>(kMsPerDay))));
}

void ResetServerTime(HttpClient& client) {
  auto r = client.Delete("/dev/clock");
  if (r.status != 200) throw std::runtime_error("DELETE /dev/clock failed: " + r.body);
}

boost::json::object RunJobs(HttpClient& client) {
  auto r = client.Post("/dev/jobs/run", boost::json::object{});
  if (r.status != 200) throw std::runtime_error("POST /dev/jobs/run failed: " + r.body);
  return r.Json().as_object();
}

void ClockedApiTest::TearDown() {
  if (!BackendUnavailable()) ResetServerTime(api());
  ApiTest::TearDown();
}

}  // namespace credence::test
