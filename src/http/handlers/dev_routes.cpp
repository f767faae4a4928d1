// Development mode only (404 otherwise): the test clock, and running the
// background jobs on demand so tests are deterministic (decisions in
// docs/lifecycle.md, "Time in tests").
#include "core/clock.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "lifecycle/scheduler.h"
#include "notify/outbox.h"

namespace credence::http {
namespace json = boost::json;

namespace {

json::object ClockJson(const SettableClock& clock) {
  return {{"now", FormatTimestamp(clock.Now())}, {"frozen", clock.IsSet()}};
}

Schema ClockSchema() {
  return Schema::Object({
      Required("now", Schema::Timestamp()),
      Required("frozen", Schema::Boolean().Describe("true once set; false: the system time")),
  });
}

Error NoTestClock() {
  return Error::NotFound("The clock can only be set when the server runs with --dev --test-clock.");
}

}  // namespace

void AddDevRoutes(Router& router, const Services& s) {
  SettableClock* clock = s.test_clock;

  router.Add({Method::kGet, "/dev/clock", Auth::kDevOnly, "",
              [clock](RequestContext& ctx) {
                if (clock == nullptr) return Problem(ctx, NoTestClock());
                return JsonResponse(200, ClockJson(*clock));
              },
              {.summary = "Development mode with --test-clock: the server's current time.",
               .tag = "dev",
               .response = ClockSchema(),
               .errors = {404}}});

  static const Schema kSetClock = Schema::Object({Required("now", Schema::Timestamp())});
  router.Add({Method::kPut, "/dev/clock", Auth::kDevOnly, "",
              [clock](RequestContext& ctx) {
                if (clock == nullptr) return Problem(ctx, NoTestClock());
                auto body = ParseBody(ctx.request, kSetClock);
                if (!body) return Problem(ctx, body.error());
                clock->Set(*ParseTimestamp(GetString(*body, "now")));
                return JsonResponse(200, ClockJson(*clock));
              },
              {.summary = "Development mode with --test-clock: freeze the server's clock at `now`.",
               .tag = "dev",
               .request = kSetClock,
               .response = ClockSchema(),
               .errors = {400, 404}}});

  router.Add({Method::kDelete, "/dev/clock", Auth::kDevOnly, "",
              [clock](RequestContext& ctx) {
                if (clock == nullptr) return Problem(ctx, NoTestClock());
                clock->Clear();
                return JsonResponse(200, ClockJson(*clock));
              },
              {.summary = "Development mode with --test-clock: back to the system time.",
               .tag = "dev",
               .response = ClockSchema(),
               .errors = {404}}});

  const Schema run_schema = Schema::Object({
      Required("scheduler", Schema::Object({
                                Required("checked", Schema::Integer().Min(0)),
                                Required("transitions", Schema::Integer().Min(0)),
                                Required("notifications", Schema::Integer().Min(0)),
                                Required("leaseHeld", Schema::Boolean()),
                            })),
      Required("outbox", Schema::Object({
                             Required("delivered", Schema::Integer().Min(0)),
                             Required("failed", Schema::Integer().Min(0)),
                             Required("dead", Schema::Integer().Min(0)),
                         })),
  });
  router.Add({Method::kPost, "/dev/jobs/run", Auth::kDevOnly, "",
              [&scheduler = s.scheduler, &outbox = s.outbox](RequestContext&) {
                const auto sr = scheduler.RunOnce();
                const auto orr = outbox.RunOnce();
                return JsonResponse(200, {{"scheduler",
                                           {{"checked", sr.checked},
                                            {"transitions", sr.transitions},
                                            {"notifications", sr.notifications},
                                            {"leaseHeld", sr.lease_held}}},
                                          {"outbox", {{"delivered", orr.delivered}, {"failed", orr.failed}, {"dead", orr.dead}}}});
              },
              {.summary = "Development mode: run the expiry scheduler, then the notification outbox, now.",
               .tag = "dev",
               .response = run_schema}});
}

}  // namespace credence::http
