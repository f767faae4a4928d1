#include "kb/action_guard.h"

#include <boost/json/serialize.hpp>

namespace credence::kb {

Error GuardDeniedError(const GuardDenial& denial) {
  Error e{
      ErrorKind::kGuardDenied, "guard_denied", "A plugin action guard denied the action: " + denial.message, {}, {}};
  return std::move(e)
      .With("reasonCode", boost::json::serialize(boost::json::value(denial.reason_code)))
      .With("message", boost::json::serialize(boost::json::value(denial.message)))
      .With("metadata", boost::json::serialize(denial.metadata))
      .With("pluginId", boost::json::serialize(boost::json::value(denial.plugin_id)));
}

}  // namespace credence::kb
