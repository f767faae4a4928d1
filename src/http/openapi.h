#pragma once
// Builds the OpenAPI 3.1 document from the router's route table, so every
// served route is documented by construction.
#include <string>
#include <vector>

#include "http/schema.h"

namespace credence::http {

class Router;

// One entry of the document's `webhooks` map (OpenAPI 3.1): an event type
// and the schema of the payload a receiver gets.
struct WebhookDoc {
  std::string event;
  std::string description;
  Schema payload;
};

std::string BuildOpenApiDocument(const Router& router, const std::string& version,
                                 const std::vector<WebhookDoc>& webhooks = {});

}  // namespace credence::http
