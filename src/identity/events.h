#pragma once
// Domain events as the services that cause them see them (docs/webhooks.md):
// one interface, emitted inside the caller's own write transaction, so an
// event exists if and only if the action that caused it was committed.
//
// Why an interface here, like AuditRecorder (audit.h): the services that
// publish entries, revoke keys or block sources live in identity, kb and
// trust; the webhooks that deliver the events (their table, the outbox) live
// in notify. identity declares what the emitters need, notify::WebhookService
// implements it, and app/service_set hands the one implementation to every
// emitting service.
#include <functional>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>

namespace credence::storage {
class TenantSession;
}

namespace credence::identity {

class EventSink {
 public:
  virtual ~EventSink() = default;

  // Queues event `type` (one of the catalog's, e.g. "entry.published") with
  // `data` for every enabled webhook of `tx`'s tenant subscribed to it,
  // inside `tx` (a write transaction the caller commits). Ids and codes
  // only: never a secret or a document's text. Cheap when the tenant has no
  // webhook (one indexed read). Throws what storage throws, and
  // std::invalid_argument for a type not in the catalog.
  virtual void Emit(storage::TenantSession& tx, std::string_view type, const boost::json::object& data) const = 0;

  // The same, with the data built only when some webhook is subscribed:
  // for hot paths (a blocked evaluation), where building it for nobody
  // would cost more than the check.
  virtual void EmitLazy(storage::TenantSession& tx, std::string_view type,
                        const std::function<boost::json::object()>& data) const {
    Emit(tx, type, data());
  }

  // Whether anything in `tx`'s tenant would receive `type`: for events
  // whose occurrence itself costs work to find out (a translation becoming
  // stale), so the work is skipped when nobody listens. True unless a sink
  // knows better.
  virtual bool Wants(storage::TenantSession& /*tx*/, std::string_view /*type*/) const { return true; }
};

// Emits nothing: for tools and tests that build a service alone.
class NoEvents final : public EventSink {
 public:
  void Emit(storage::TenantSession&, std::string_view, const boost::json::object&) const override {}
  void EmitLazy(storage::TenantSession&, std::string_view, const std::function<boost::json::object()>&) const override {
  }
  bool Wants(storage::TenantSession&, std::string_view) const override { return false; }
};
inline const NoEvents kNoEvents{};

}  // namespace credence::identity
