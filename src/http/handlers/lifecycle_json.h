#pragma once
// JSON shapes of the lifecycle module shared by several route files.
#include <boost/json/object.hpp>

#include "http/schema.h"
#include "lifecycle/status.h"

namespace credence::http {

// {expiryDate, daysUntilExpiry, isInWarningPeriod, isPaused, status}: the
// spec's expiry status.
boost::json::object ExpiryStatusJson(const lifecycle::ExpiryStatus& status);
Schema ExpiryStatusSchema();

}  // namespace credence::http
