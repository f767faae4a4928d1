#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/metrics.h"
#include "plugins/event_bus.h"
#include "plugins/guard_pipeline.h"
#include "http/router.h"
#include "storage/database.h"

namespace credence::http {

void AddSystemRoutes(Router& router, const Services& s, const OpenApiHolder& openapi) {
  const Schema status_schema = Schema::Object({Required("status", Schema::String())});

  router.Add({Method::kGet, "/healthz", Auth::kPublic, "",
              [](RequestContext&) { return JsonResponse(200, {{"status", "ok"}}); },
              {.summary = "Liveness: the process is up and serving.", .tag = "system", .response = status_schema}});

  router.Add({Method::kGet, "/readyz", Auth::kPublic, "",
              [&db = s.db](RequestContext&) {
                // After a disk-full or I/O error, ready again only once a
                // probe write commits (storage::Database::Readiness).
                HttpResponse r;
                switch (db.Readiness()) {
                  case storage::Database::Health::kReady: r = JsonResponse(200, {{"status", "ready"}}); break;
                  case storage::Database::Health::kUnreachable:
                    r = JsonResponse(503, {{"status", "storage_unreachable"}});
                    break;
                  case storage::Database::Health::kFull: r = JsonResponse(503, {{"status", "storage_full"}}); break;
                  case storage::Database::Health::kIoError:
                    r = JsonResponse(503, {{"status", "storage_io_error"}});
                    break;
                }
                if (r.status == 503) r.WithHeader("Retry-After", "5");
                return r;
              },
              {.summary = "Readiness: the store answers, and writes succeed (after a disk-full or I/O error, not "
                          "ready until a probe write commits). 503 with status storage_unreachable, storage_full "
                          "or storage_io_error otherwise.",
               .tag = "system",
               .response = status_schema,
               .foreign_errors = {503},
               .foreign_error_schema = status_schema}});

  router.Add({Method::kGet, "/metrics", Auth::kPublic, "",
              [&metrics = s.metrics, &guards = s.guards, &bus = s.event_bus](RequestContext&) {
                HttpResponse r;
                r.content_type = "text/plain; version=0.0.4; charset=utf-8";
                r.body = metrics.RenderPrometheus() + guards.RenderPrometheus() + bus.RenderPrometheus();
                return r;
              },
              {.summary = "Prometheus metrics: requests by route and status, latency histogram, plugin guard verdicts.",
               .tag = "system",
               .response = Schema::String(),
               .response_content_type = "text/plain"}});

  router.Add({Method::kGet, "/openapi.json", Auth::kPublic, "",
              [openapi](RequestContext&) {
                HttpResponse r;
                r.content_type = "application/json";
                r.body = **openapi;
                // The same document for every caller, fixed for the process's
                // life: the one route that may be cached (docs/decisions.md).
                r.WithHeader("Cache-Control", "public, max-age=300");
                return r;
              },
              {.summary = "This OpenAPI 3.1 document.", .tag = "system", .response = Schema::FreeObject()}});
}

}  // namespace credence::http
