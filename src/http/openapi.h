#pragma once
// Builds the OpenAPI 3.1 document from the router's route table, so every
// served route is documented by construction.
#include <string>

namespace credence::http {

class Router;

std::string BuildOpenApiDocument(const Router& router, const std::string& version);

}  // namespace credence::http
