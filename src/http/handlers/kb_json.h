#pragma once
// JSON shapes of the knowledge base's records, and their schemas for OpenAPI.
#include <boost/json/object.hpp>

#include "http/schema.h"
#include "kb/model.h"

namespace credence::http {

boost::json::object HubJson(const kb::Hub& hub);
boost::json::object EntryJson(const kb::Entry& entry, bool with_content);
boost::json::object EntryViewJson(const kb::EntryView& view);
boost::json::object TranslationSummaryJson(const kb::TranslationSummary& summary);

Schema HubSchema();
Schema EntrySchema(bool with_content);
Schema TranslationSummarySchema();

}  // namespace credence::http
