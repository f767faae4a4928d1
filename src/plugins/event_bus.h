#pragma once
// The in-process event bus (docs/plugins.md, "Events"): implements
// identity::EventSink in front of the webhooks (notify::WebhookService), so
// every event of the webhooks' catalog that a service emits reaches both.
// The webhooks queue theirs inside the action's transaction, as before; the
// handlers of the tenant's enabled plugins that declare the event run once
// that transaction has committed (storage::Session::AfterCommit), each in
// its own transaction: a handler's failure is logged and counted
// (credence_plugin_event_handlers_total in /metrics) and never undoes the
// action. A handler with an outside side effect must queue it through the
// outbox (none of the shipped handlers has one). Thread-safe.
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

#include "identity/events.h"
#include "plugins/plugin_service.h"

namespace credence::storage {
class Database;
}

namespace credence::plugins {

class EventBus final : public identity::EventSink {
 public:
  EventBus(storage::Database& db, const Registry& registry, const identity::EventSink& webhooks);

  void Emit(storage::TenantSession& tx, std::string_view type, const boost::json::object& data) const override;
  void EmitLazy(storage::TenantSession& tx, std::string_view type,
                const std::function<boost::json::object()>& data) const override;
  bool Wants(storage::TenantSession& tx, std::string_view type) const override;

  // Prometheus text: handler runs by plugin, event and outcome (ok, error).
  std::string RenderPrometheus() const;

 private:
  bool Handled(std::string_view type) const;
  void Dispatch(const std::string& tenant_id, const std::string& type, const boost::json::object& data) const;

  storage::Database& db_;
  const Registry& registry_;
  const identity::EventSink& webhooks_;
  mutable std::mutex mu_;
  // (plugin, event, outcome) -> runs; guarded by mu_.
  mutable std::map<std::tuple<std::string, std::string, std::string>, int64_t> counts_;
};

}  // namespace credence::plugins
