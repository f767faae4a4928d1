// Development mode only (404 otherwise): the test clock, and running the
// background jobs on demand so tests are deterministic (decisions in
// docs/lifecycle.md, "Time in tests").
#include <boost/json/parse.hpp>

#include <algorithm>
#include <cstdlib>

#include "analytics/analytics_service.h"
#include "core/clock.h"
#include "connectors/sync_engine.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "integrity/chain_heads.h"
#include "integrity/merkle_log.h"
#include "lifecycle/scheduler.h"
#include "notify/outbox.h"
#include "reports/report_service.h"
#include "translation/jobs.h"

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
      Required("reports", Schema::Object({
                              Required("tenants", Schema::Integer().Min(0)),
                              Required("decisions", Schema::Integer().Min(0)),
                              Required("usage", Schema::Integer().Min(0)),
                              Required("evidence", Schema::Integer().Min(0)),
                          }).Describe("the reports' rollup (docs/reports.md): what it folded")),
      Required("chainHeads", Schema::Object({
                                 Required("tenants", Schema::Integer().Min(0)),
                                 Required("signed", Schema::Integer().Min(0)),
                                 Required("refused", Schema::Integer().Min(0)),
                                 Required("failed", Schema::Integer().Min(0)),
                             }).Describe("chain heads signed (docs/trust.md, \"Signed chain heads\")")),
      Required("checkpoints", Schema::Object({
                                  Required("tenants", Schema::Integer().Min(0)),
                                  Required("leaves", Schema::Integer().Min(0)),
                                  Required("signed", Schema::Integer().Min(0)),
                                  Required("refused", Schema::Integer().Min(0)),
                                  Required("failed", Schema::Integer().Min(0)),
                              }).Describe("leaves added to the tenants' Merkle logs and checkpoints signed "
                                          "(docs/receipts.md)")),
      Required("translations", Schema::Object({
                                   Required("claimed", Schema::Integer().Min(0)),
                                   Required("translated", Schema::Integer().Min(0)),
                                   Required("failed", Schema::Integer().Min(0)),
                                   Required("gaveUp", Schema::Integer().Min(0)),
                               }).Describe("the machine-translation triggers' jobs (docs/machine-translation.md, "
                                           "\"Triggers\"): claimed, translated, failed (retried later), given up")),
  });
  // The benchmark floor for the trust endpoints (docs/performance.md): the
  // same authentication (a trust:evaluate credential), a JSON body parsed,
  // and an answer of ?bytes= bytes, without evaluating or writing anything.
  router.Add({Method::kPost, "/dev/floor", Auth::kUserOrMachine, "trust:evaluate",
              [dev = s.dev_mode](RequestContext& ctx) {
                if (!dev) return Problem(ctx, Error::NotFound("Development mode only."));
                boost::system::error_code ec;
                const json::value body = json::parse(ctx.request.body, ec);
                if (ec) return Problem(ctx, Error::InvalidArgument("malformed_json", "The body is not JSON."));
                size_t bytes = 2;
                if (auto b = ctx.request.QueryParam("bytes")) bytes = std::strtoul(b->c_str(), nullptr, 10);
                bytes = std::min<size_t>(std::max<size_t>(bytes, 16), 1 << 20);
                HttpResponse r;
                r.status = 200;
                r.content_type = "application/json";
                r.body = "{\"padding\":\"" + std::string(bytes - 15, 'x') + "\"}";
                return r;
              },
              {.summary = "Development mode: the trust benchmark's floor; authenticates like evaluate, parses the "
                          "body, answers ?bytes= bytes, evaluates and records nothing.",
               .tag = "dev",
               .response = Schema::Object({Required("padding", Schema::String())}),
               .query = {{"bytes", Schema::Integer().Min(16), false, "size of the answer"}},
               .errors = {404}}});

  router.Add({Method::kPost, "/dev/analytics/run", Auth::kDevOnly, "",
              [&analytics = s.analytics](RequestContext&) {
                const int64_t written = analytics.FlushReads();
                const auto pruned = analytics.Prune();
                return JsonResponse(200, {{"readsWritten", written}, {"eventsPruned", pruned.events_deleted}});
              },
              {.summary = "Development mode: write the buffered read events now, then prune raw analytics events "
                          "past each tenant's retention (what the background jobs do every second and hourly).",
               .tag = "dev",
               .response = Schema::Object({Required("readsWritten", Schema::Integer().Min(0)),
                                           Required("eventsPruned", Schema::Integer().Min(0))})}});

  router.Add({Method::kPost, "/dev/connectors/run", Auth::kDevOnly, "",
              [&syncer = s.connector_syncer](RequestContext&) {
                const auto c = syncer.RunOnce();
                return JsonResponse(200, {{"scheduled", c.scheduled},
                                          {"started", c.started},
                                          {"succeeded", c.succeeded},
                                          {"failed", c.failed},
                                          {"leaseHeld", c.lease_held}});
              },
              {.summary = "Development mode: one pass of the connector syncs now (queue the due scheduled runs, "
                          "then run the open runs); answers when it is done.",
               .tag = "dev",
               .response = Schema::Object({Required("scheduled", Schema::Integer()),
                                           Required("started", Schema::Integer()),
                                           Required("succeeded", Schema::Integer()),
                                           Required("failed", Schema::Integer()),
                                           Required("leaseHeld", Schema::Integer())})}});

  router.Add({Method::kPost, "/dev/jobs/run", Auth::kDevOnly, "",
              [&scheduler = s.scheduler, &outbox = s.outbox, &reports = s.reports,
               &heads = s.chain_heads, &logs = s.merkle_logs, &mt_jobs = s.translation_jobs](RequestContext&) {
                const auto sr = scheduler.RunOnce();
                const auto orr = outbox.RunOnce();
                const auto rr = reports.RunRollup();
                const auto hr = heads.SignMovedHeads();
                const auto cr = logs.BuildAndSign();
                const auto tr = mt_jobs.RunOnce();
                return JsonResponse(200, {{"scheduler",
                                           {{"checked", sr.checked},
                                            {"transitions", sr.transitions},
                                            {"notifications", sr.notifications},
                                            {"leaseHeld", sr.lease_held}}},
                                          {"outbox", {{"delivered", orr.delivered}, {"failed", orr.failed}, {"dead", orr.dead}}},
                                          {"reports",
                                           {{"tenants", rr.tenants},
                                            {"decisions", rr.decisions},
                                            {"usage", rr.usage},
                                            {"evidence", rr.evidence}}},
                                          {"chainHeads",
                                           {{"tenants", hr.tenants},
                                            {"signed", hr.signed_heads},
                                            {"refused", hr.refused},
                                            {"failed", hr.failed}}},
                                          {"checkpoints",
                                           {{"tenants", cr.tenants},
                                            {"leaves", cr.leaves},
                                            {"signed", cr.checkpoints},
                                            {"refused", cr.refused},
                                            {"failed", cr.failed}}},
                                          {"translations",
                                           {{"claimed", tr.claimed},
                                            {"translated", tr.translated},
                                            {"failed", tr.failed},
                                            {"gaveUp", tr.gave_up}}}});
              },
              {.summary = "Development mode: run the expiry scheduler, the notification outbox, the reports' rollup and "
                          "the chain-head signing, the checkpoints of the Merkle logs and the machine-translation "
                          "jobs, now.",
               .tag = "dev",
               .response = run_schema}});
}

}  // namespace credence::http
