#include "plugins/event_bus.h"

#include <algorithm>
#include <exception>
#include <tuple>

#include "core/logging.h"
#include "storage/session.h"

namespace credence::plugins {
namespace json = boost::json;

EventBus::EventBus(storage::Database& db, const Registry& registry, const identity::EventSink& webhooks)
    : db_(db), registry_(registry), webhooks_(webhooks) {}

bool EventBus::Handled(std::string_view type) const {
  return std::any_of(registry_.All().begin(), registry_.All().end(), [&](const Manifest& m) {
    return std::find(m.events.begin(), m.events.end(), type) != m.events.end();
  });
}

void EventBus::Emit(storage::TenantSession& tx, std::string_view type, const json::object& data) const {
  webhooks_.Emit(tx, type, data);
  if (!Handled(type)) return;
  tx.session().AfterCommit([this, tenant = tx.tenant_id(), t = std::string(type), data] { Dispatch(tenant, t, data); });
}

void EventBus::EmitLazy(storage::TenantSession& tx, std::string_view type,
                        const std::function<json::object()>& data) const {
  if (!Handled(type)) {
    webhooks_.EmitLazy(tx, type, data);
    return;
  }
  Emit(tx, type, data());
}

bool EventBus::Wants(storage::TenantSession& tx, std::string_view type) const {
  return Handled(type) || webhooks_.Wants(tx, type);
}

void EventBus::Dispatch(const std::string& tenant_id, const std::string& type, const json::object& data) const {
  std::vector<Installation> enabled;
  try {
    storage::Session session(db_, storage::TxMode::kRead);
    storage::TenantSession tx(session, tenant_id);
    enabled = ReadInstallations(tx, true);
  } catch (const std::exception& e) {
    LogLine(LogLevel::kWarn, "plugin event dispatch failed")
        .Str("tenant", tenant_id)
        .Str("event", type)
        .Str("error", e.what());
    return;
  }
  for (const auto& module : registry_.Modules()) {
    const Manifest& m = module.manifest;
    if (std::find(m.events.begin(), m.events.end(), type) == m.events.end()) continue;
    auto inst =
        std::find_if(enabled.begin(), enabled.end(), [&](const Installation& i) { return i.plugin_id == m.id; });
    if (inst == enabled.end()) continue;
    std::string outcome = "ok";
    try {
      storage::Session session(db_, storage::TxMode::kWrite);
      storage::TenantSession tx(session, tenant_id);
      module.on_event(tx, inst->settings, type, data);
      session.Commit();
    } catch (const std::exception& e) {
      outcome = "error";  // the action stays committed
      LogLine(LogLevel::kWarn, "plugin event handler failed")
          .Str("tenant", tenant_id)
          .Str("plugin", m.id)
          .Str("event", type)
          .Str("error", e.what());
    }
    std::lock_guard lock(mu_);
    ++counts_[{m.id, type, outcome}];
  }
}

std::string EventBus::RenderPrometheus() const {
  std::string out =
      "# HELP credence_plugin_event_handlers_total Plugin event handler runs by plugin, event and outcome "
      "(ok, error; an error never undoes the action).\n"
      "# TYPE credence_plugin_event_handlers_total counter\n";
  std::lock_guard lock(mu_);
  for (const auto& [key, n] : counts_)
    out += "credence_plugin_event_handlers_total{plugin=\"" + std::get<0>(key) + "\",event=\"" + std::get<1>(key) +
           "\",outcome=\"" + std::get<2>(key) + "\"} " + std::to_string(n) + "\n";
  return out;
}

}  // namespace credence::plugins
