// safe-delete (docs/plugins.md): deleting an entry AI applications used
// within `days` (usage records naming it, or evaluations of it by a
// registered app in the ledger's rollup) needs confirmed=true and a reason.
#include <set>
#include <string>

#include <boost/json/array.hpp>

#include "core/text.h"
#include "plugins/internal/guard_support.h"
#include "plugins/internal/modules.h"
#include "reports/entry_activity.h"
#include "trust/entry_usage.h"

namespace credence::plugins {
namespace json = boost::json;
namespace {

std::optional<kb::GuardDenial> SafeDeleteGuard(const GuardCall& call, TimeMs now) {
  const kb::GuardContext& context = call.context;
  int64_t days = 30;
  if (const auto* v = call.settings.if_contains("days"); v && v->is_int64()) days = v->as_int64();
  const TimeMs since = now - days * 24 * 60 * 60 * 1000;
  const auto usage = trust::RecentEntryUsage(call.tx, context.entity_id, since);
  const auto evaluated = reports::AppEvaluationsOf(call.tx, context.entity_id, since);
  if (usage.usage_count == 0 && evaluated.evaluations == 0) return std::nullopt;
  const auto* confirmed = context.properties.if_contains("confirmed");
  const auto reason = Trim(internal::StringProperty(context, "reason"));
  if (confirmed && confirmed->is_bool() && confirmed->as_bool() && !reason.empty()) return std::nullopt;
  std::set<std::string> app_ids(usage.app_ids.begin(), usage.app_ids.end());
  app_ids.insert(evaluated.app_ids.begin(), evaluated.app_ids.end());
  json::array apps;
  for (const auto& a : app_ids) apps.push_back(json::string(a));
  return internal::Deny("entry_used_by_ai",
                        "AI applications used this entry in the last " + std::to_string(days) +
                            " days; confirm the delete with a reason.",
                        {{"usageCount", usage.usage_count},
                         {"appEvaluations", evaluated.evaluations},
                         {"appIds", std::move(apps)},
                         {"days", days},
                         {"confirmationRequired", true}});
}

}  // namespace

PluginModule internal::SafeDeleteModule(const Clock& clock) {
  return {.manifest = ShippedManifest("safe-delete"),
          .guard = GuardOf([&clock](const GuardCall& call) { return SafeDeleteGuard(call, clock.Now()); })};
}

}  // namespace credence::plugins
