#include "support/kb_fixture.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <stdexcept>

namespace credence::test {
namespace json = boost::json;

std::string Doc(const std::vector<std::string>& texts, const std::vector<std::string>& ids) {
  json::array nodes;
  for (size_t i = 0; i < texts.size(); ++i) {
    json::object node{{"type", "paragraph"},
                      {"content", json::array{json::object{{"type", "text"}, {"text", texts[i]}}}}};
    if (i < ids.size()) node["attrs"] = json::object{{"blockId", ids[i]}};
    nodes.push_back(std::move(node));
  }
  return json::serialize(json::object{{"type", "doc"}, {"content", std::move(nodes)}});
}

std::vector<std::string> BlockIds(const std::string& content) {
  std::vector<std::string> out;
  const auto doc = json::parse(content);
  for (const auto& node : doc.at("content").as_array()) out.emplace_back(node.at("attrs").at("blockId").as_string());
  return out;
}

std::vector<std::string> BlockTexts(const std::string& content) {
  std::vector<std::string> out;
  const auto doc = json::parse(content);
  for (const auto& node : doc.at("content").as_array())
    out.emplace_back(node.at("content").as_array()[0].at("text").as_string());
  return out;
}

json::value MakeHub(HttpClient& api, const std::string& token, const std::string& key,
                    const std::string& default_org_role) {
  json::object body{{"key", key}, {"name", "Hub " + key}, {"defaultExpiryDays", 90}};
  if (!default_org_role.empty()) body["defaultOrgRole"] = default_org_role;
  auto r = api.Post("/api/hubs", body, token);
  if (r.status != 201) throw std::runtime_error("hub creation failed: " + r.body);
  return r.Json();
}

json::value MakeEntry(HttpClient& api, const std::string& token, const std::string& hub_key, const std::string& key,
                      const std::vector<std::string>& texts, const std::string& language) {
  auto r = api.Post("/api/entries",
                    {{"hubKey", hub_key},
                     {"key", key},
                     {"originalLanguage", language},
                     {"title", "Entry " + key},
                     {"content", Doc(texts)}},
                    token);
  if (r.status != 201) throw std::runtime_error("entry creation failed: " + r.body);
  return r.Json();
}

std::string MakeReviewedEntry(HttpClient& api, const TestTenant& tenant, const std::string& hub_key,
                              const std::string& key, const std::vector<std::string>& texts) {
  auto hub =
      api.Post("/api/hubs",
               {{"key", hub_key}, {"name", "Hub " + hub_key}, {"defaultExpiryDays", 365}, {"defaultOrgRole", "Editor"}},
               tenant.token("admin"));
  if (hub.status != 201) throw std::runtime_error("hub creation failed: " + hub.body);
  const std::string id(MakeEntry(api, tenant.token("editor"), hub_key, key, texts).at("id").as_string());
  auto published = api.Post("/api/entries/" + id + "/publish", json::object{}, tenant.token("editor"));
  if (published.status != 200) throw std::runtime_error("publishing failed: " + published.body);
  auto review = api.Post("/api/entries/" + id + "/review", {{"reviewType", "FullReview"}, {"timeSpentSeconds", 60}},
                         tenant.token("editor"));
  if (review.status != 200) throw std::runtime_error("the review failed: " + review.body);
  return id;
}

}  // namespace credence::test
