#pragma once
// What answers over archived windows add (docs/retention.md): a pointer to
// the archives instead of counting only what the database still holds.
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "core/clock.h"
#include "core/error.h"
#include "http/schema.h"

namespace credence::http {

struct Services;

// null, or {before, archives} when [from, to) of `kind` reaches archived records.
boost::json::value ArchivedWindowJson(const Services& services, const std::string& tenant_id, std::string_view kind,
                                      TimeMs from, TimeMs to);
Schema ArchivedWindowSchema();
// A 410 decision_archived naming the archives of the decision's time (a
// UUID v7 carries it) when decisions of then were archived; else nullopt.
std::optional<Error> ArchivedDecision(const Services& services, const std::string& tenant_id,
                                      const std::string& decision_id);

}  // namespace credence::http
