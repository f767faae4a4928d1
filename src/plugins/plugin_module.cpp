#include "plugins/plugin_module.h"

#include <utility>

#include <boost/json/serialize.hpp>

namespace credence::plugins {
namespace json = boost::json;

const std::string& GuardCall::ContextJson() const {
  if (context_json_cache->empty())
    *context_json_cache = json::serialize(json::object{{"action", context.action},
                                                       {"tenantId", context.tenant_id},
                                                       {"userId", context.user_id},
                                                       {"entityId", context.entity_id},
                                                       {"properties", context.properties}});
  return *context_json_cache;
}

namespace {

class FunctionGuard final : public Guard {
 public:
  explicit FunctionGuard(std::function<std::optional<kb::GuardDenial>(const GuardCall&)> check)
      : check_(std::move(check)) {}
  std::optional<kb::GuardDenial> Check(const GuardCall& call) const override { return check_(call); }

 private:
  std::function<std::optional<kb::GuardDenial>(const GuardCall&)> check_;
};

}  // namespace

std::unique_ptr<const Guard> GuardOf(std::function<std::optional<kb::GuardDenial>(const GuardCall&)> check) {
  return std::make_unique<FunctionGuard>(std::move(check));
}

}  // namespace credence::plugins
