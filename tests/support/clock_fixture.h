#pragma once
// Time in API tests: the shared server runs with --test-clock and without
// background jobs, so a test sets the time and runs the jobs itself; it
// never sleeps.
#include <boost/json/object.hpp>

#include <string>

#include "support/api_fixture.h"

namespace credence::test {

// Freezes the server's clock at `iso` (e.g. "2030-01-01T00:00:00Z").
void SetServerTime(HttpClient& client, const std::string& iso);
// Moves the frozen clock by `days` (freezing it at the current time first).
void AdvanceServerDays(HttpClient& client, double days);
// Back to the system time.
void ResetServerTime(HttpClient& client);
// The server's current time, ISO 8601.
std::string ServerTime(HttpClient& client);
// POST /dev/jobs/run: one scheduler pass, then one outbox pass; the answer.
boost::json::object RunJobs(HttpClient& client);

// ApiTest whose tests may move the clock: it is reset after each test, so
// other tests see the system time.
class ClockedApiTest : public ApiTest {
 protected:
  void TearDown() override;
};

}  // namespace credence::test
