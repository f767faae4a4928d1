#pragma once
// Knowledge-base helpers for API tests: editor documents, hubs and entries.
#include <boost/json/value.hpp>

#include <string>
#include <vector>

#include "support/api_fixture.h"

namespace credence::test {

// A document of paragraphs with the given texts; `ids` (when given) become
// the blocks' attrs.blockId.
std::string Doc(const std::vector<std::string>& texts, const std::vector<std::string>& ids = {});

// The blockIds of a serialized document, in order.
std::vector<std::string> BlockIds(const std::string& content);
// The texts of a serialized document's blocks, in order.
std::vector<std::string> BlockTexts(const std::string& content);

// Creates a hub as `token` (a global admin); returns its JSON.
boost::json::value MakeHub(HttpClient& api, const std::string& token, const std::string& key,
                           const std::string& default_org_role = "");
// Creates an entry in `hub_key`; returns its JSON (content has the assigned ids).
boost::json::value MakeEntry(HttpClient& api, const std::string& token, const std::string& hub_key,
                             const std::string& key, const std::vector<std::string>& texts,
                             const std::string& language = "en");

// The trust tests' usual knowledge: a hub `hub_key` editors write in (entries
// expire after a year) holding one entry of `texts`, published and fully
// reviewed by the tenant's editor, fresh and owned. Returns the entry's id.
std::string MakeReviewedEntry(HttpClient& api, const TestTenant& tenant, const std::string& hub_key,
                              const std::string& key, const std::vector<std::string>& texts);

}  // namespace credence::test
