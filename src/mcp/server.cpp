#include "mcp/server.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

#include "core/ids.h"
#include "identity/tenant_service.h"
#include "kb/entry_service.h"
#include "mcp/internal/protocol.h"
#include "mcp/internal/tools.h"
#include "mcp/markdown.h"
#include "trust/evaluation_json.h"
#include "trust/trust_service.h"

namespace credence::mcp {
namespace json = boost::json;
using internal::Era;
using internal::Message;

const std::vector<std::string>& SupportedVersions() {
  static const std::vector<std::string> kVersions = {std::string(kModernVersion), std::string(kLegacyVersion)};
  return kVersions;
}

// A call waiting for its trust decision: the evaluation handed to the
// ledger writer, and what makes the reply of it.
class PendingCall {
 public:
  std::shared_ptr<trust::PendingEvaluation> evaluation;
  std::function<Reply(const trust::Evaluation&)> finish;
  // An evaluation the ledger refused to take (validation after Start).
  std::function<Reply(const Error&)> fail;
};

namespace {

constexpr std::string_view kEntryUriPrefix = "credence://entries/";
// Candidates a search decides, per result asked for: blocked ones are
// dropped afterwards, so a few more are decided than are answered.
constexpr int kSearchCandidatesPerResult = 3;
constexpr int kMaxSearchCandidates = 50;
// Entries a resources/list page decides.
constexpr int kResourcePageSize = 50;

Reply Answer(std::string body) { return Reply{Reply::Kind::kAnswered, std::move(body), 0}; }

Reply Rejected(const json::value& id, int code, std::string_view message, const json::value& data = nullptr) {
  return Reply{Reply::Kind::kRejected, internal::ErrorText(id, code, message, data), code};
}

Reply InBandError(const json::value& id, int code, std::string_view message, const json::value& data = nullptr) {
  return Reply{Reply::Kind::kAnswered, internal::ErrorText(id, code, message, data), code};
}

std::string EntryUri(std::string_view entry_id) { return std::string(kEntryUriPrefix) + std::string(entry_id); }

std::optional<std::string> EntryIdOfUri(std::string_view uri) {
  if (!uri.starts_with(kEntryUriPrefix)) return std::nullopt;
  const std::string_view id = uri.substr(kEntryUriPrefix.size());
  if (!IsUuid(id)) return std::nullopt;
  return CanonicalUuid(id);
}

// What the trust plane answered for one source, read back from the JSON
// text evaluate answers (the ledger's evidence holds the same text).
struct Decided {
  json::object result;
  std::string decision;
  bool resolved = false;
  std::string entry_id;
  std::string title;
  std::string origin;
};

Decided Read(const trust::SourceResult& r) {
  Decided d;
  d.result = json::parse(r.json()).as_object();
  d.decision = std::string(trust::DecisionName(r.decision));
  d.resolved = d.result.at("resolved").as_bool();
  if (const auto* e = d.result.if_contains("entryId"); e && e->is_string()) d.entry_id = e->get_string();
  if (const auto* t = d.result.if_contains("title"); t && t->is_string()) d.title = t->get_string();
  if (const auto* o = d.result.if_contains("origin"); o && o->is_string()) d.origin = o->get_string();
  return d;
}

// The reasons an agent is told: code, dimension, severity, message.
json::array ReasonsOf(const json::object& result) {
  json::array out;
  for (const auto& r : result.at("reasons").as_array()) {
    const auto& o = r.as_object();
    out.push_back(json::object{{"code", o.at("code")},
                               {"dimension", o.at("dimension")},
                               {"severity", o.at("severity")},
                               {"message", o.at("message")}});
  }
  return out;
}

json::object ObligationsOf(const json::object& result) {
  const auto& req = result.at("requirements").as_object();
  return json::object{{"citationRequired", req.at("citationRequired")},
                      {"disclaimerRequired", req.at("disclaimerRequired")},
                      {"disclaimerText", req.at("disclaimerText")}};
}

// What an agent must do with a usable source, in words, for the text
// content beside the structured one.
std::string ObligationsText(const json::object& obligations) {
  std::string out;
  if (obligations.at("citationRequired").as_bool()) out += "Cite this source. ";
  if (obligations.at("disclaimerRequired").as_bool()) {
    out += "Show this disclaimer with the answer";
    if (obligations.at("disclaimerText").is_string())
      out += ": \"" + std::string(obligations.at("disclaimerText").as_string()) + "\"";
    out += ". ";
  }
  return out;
}

std::string ReasonsText(const json::array& reasons) {
  std::string out;
  for (const auto& r : reasons) {
    const auto& o = r.as_object();
    if (!out.empty()) out += "; ";
    out += std::string(o.at("code").as_string()) + " (" + std::string(o.at("severity").as_string()) +
           "): " + std::string(o.at("message").as_string());
  }
  return out;
}

json::value OptText(const std::string& s) { return s.empty() ? json::value(nullptr) : json::value(s); }

}  // namespace

struct McpServer::Impl {
  const trust::TrustService& trust;
  const kb::EntryService& entries;
  ServerInfo info;

  json::object ServerInfoJson() const {
    return json::object{{"name", info.name}, {"title", "Credence"}, {"version", info.version}};
  }

  // A result as `m`'s revision shapes it: 2026-07-28 adds resultType, the
  // cache hints of cacheable results (never cached: every retrieval is a
  // new decision) and the server's identity.
  json::object Shaped(const Message& m, json::object result, bool cacheable = false) const {
    if (m.era == Era::kModern) {
      result["resultType"] = "complete";
      if (cacheable) {
        result["ttlMs"] = 0;
        result["cacheScope"] = "private";
      }
      json::object meta;
      if (auto* existing = result.if_contains("_meta"); existing && existing->is_object()) meta = existing->as_object();
      meta[internal::kServerInfoKey] = ServerInfoJson();
      result["_meta"] = std::move(meta);
    }
    return result;
  }

  Reply Respond(const Message& m, json::object result, bool cacheable = false) const {
    return Answer(internal::ResultText(m.id, Shaped(m, std::move(result), cacheable)));
  }

  json::object Capabilities(const Message& m) const {
    if (m.era == Era::kModern) return json::object{{"tools", json::object{}}, {"resources", json::object{}}};
    return json::object{{"tools", json::object{{"listChanged", false}}},
                        {"resources", json::object{{"subscribe", false}, {"listChanged", false}}}};
  }

  // --- Methods --------------------------------------------------------

  Reply Initialize(const Message& m) const {
    const auto* requested = m.params.if_contains("protocolVersion");
    if (requested == nullptr || !requested->is_string())
      return InBandError(m.id, kInvalidParams, "Invalid params: initialize needs params.protocolVersion (a string)");
    // 2025-11-25 "Lifecycle": the version asked for when this server speaks
    // it, else the latest it does; never a 2026 revision, which has no
    // handshake.
    return Respond(m, json::object{{"protocolVersion", kLegacyVersion},
                                  {"capabilities", Capabilities(m)},
                                  {"serverInfo", ServerInfoJson()},
                                  {"instructions", info.instructions}});
  }

  Reply Discover(const Message& m) const {
    json::array versions;
    for (const auto& v : SupportedVersions()) versions.emplace_back(v);
    json::object result{{"supportedVersions", std::move(versions)},
                        {"capabilities", Capabilities(m)},
                        {"instructions", info.instructions}};
    // Describes the server, not a caller's data: any client may cache it.
    result = Shaped(m, std::move(result));
    result["ttlMs"] = 3'600'000;
    result["cacheScope"] = "private";
    return Answer(internal::ResultText(m.id, result));
  }

  Reply ListTools(const Message& m) const {
    if (auto cursor = m.params.if_contains("cursor"); cursor && !cursor->is_null())
      return InBandError(m.id, kInvalidParams, "Invalid params: tools/list has one page; there is no cursor to follow");
    return Respond(m, json::object{{"tools", internal::ToolDefinitions()}}, /*cacheable=*/true);
  }

  Reply ListResourceTemplates(const Message& m) const {
    json::array templates{json::object{
        {"uriTemplate", "credence://entries/{id}"},
        {"name", "entry"},
        {"title", "Knowledge base entry"},
        {"description", "An entry of the knowledge base as Markdown, by its id; read through the trust gate "
                        "(blocked entries are refused with the reasons)."},
        {"mimeType", "text/markdown"}}};
    return Respond(m, json::object{{"resourceTemplates", std::move(templates)}}, /*cacheable=*/true);
  }

  trust::ContextInput McpContext(std::string_view what, const std::string& language) const {
    trust::ContextInput c;
    c.actor_type = "ai_agent";
    c.actor_label = "mcp " + std::string(what);
    c.language = language;
    return c;
  }

  Result<McpServer::Started> Decide(const identity::Principal& caller, std::vector<std::string> sources,
                                    const trust::ContextInput& context, std::function<void()> committed,
                                    std::function<Reply(const trust::Evaluation&)> finish,
                                    std::function<Reply(const Error&)> fail) const {
    std::vector<std::string_view> ids(sources.begin(), sources.end());
    auto started = trust.StartEvaluate(caller, ids, context, trust::Endpoint::kMcp, std::move(committed));
    if (!started) return McpServer::Started(fail(started.error()));
    auto call = std::make_shared<PendingCall>();
    call->evaluation = std::move(*started);
    call->finish = std::move(finish);
    call->fail = std::move(fail);
    return McpServer::Started(std::move(call));
  }

  // --- Tools ----------------------------------------------------------

  Result<McpServer::Started> CallTool(const identity::Principal& caller, const Message& m,
                                      std::function<void()> committed) const {
    const auto* name = m.params.if_contains("name");
    if (name == nullptr || !name->is_string())
      return McpServer::Started(InBandError(m.id, kInvalidParams, "Invalid params: tools/call needs params.name"));
    json::object args;
    if (const auto* a = m.params.if_contains("arguments"); a && !a->is_null()) {
      if (!a->is_object())
        return McpServer::Started(InBandError(m.id, kInvalidParams, "Invalid params: arguments must be an object"));
      args = a->get_object();
    }
    const std::string tool(name->get_string());
    if (tool == "search_knowledge") return SearchKnowledge(caller, m, args, std::move(committed));
    if (tool == "read_entry") return ReadEntry(caller, m, args, std::move(committed));
    if (tool == "evaluate_sources") return EvaluateSources(caller, m, args, std::move(committed));
    return McpServer::Started(InBandError(m.id, kInvalidParams, "Unknown tool: " + tool,
                                          json::object{{"tool", tool}}));
  }

  // A tool's failure the model can act on (2025-11-25 "Error Handling":
  // input validation errors are tool execution errors).
  Reply ToolError(const Message& m, std::string text, json::object structured = {}) const {
    json::object result{{"content", json::array{json::object{{"type", "text"}, {"text", std::move(text)}}}},
                        {"isError", true}};
    if (!structured.empty()) result["structuredContent"] = std::move(structured);
    return Respond(m, std::move(result));
  }

  Reply ToolResult(const Message& m, json::object structured, json::array extra_content = {}) const {
    json::array content = std::move(extra_content);
    // 2025-11-25 "Structured Content": the serialized JSON in a text block
    // too, for clients that read only text.
    content.push_back(json::object{{"type", "text"}, {"text", json::serialize(structured)}});
    return Respond(m, json::object{{"content", std::move(content)},
                                  {"structuredContent", std::move(structured)},
                                  {"isError", false}});
  }

  Reply ValidationToolError(const Message& m, const Error& e) const {
    std::string text = "Invalid arguments: " + e.detail;
    for (const auto& f : e.fields) text += " " + f.field + " " + f.message + ".";
    return ToolError(m, std::move(text));
  }

  Result<McpServer::Started> SearchKnowledge(const identity::Principal& caller, const Message& m,
                                             const json::object& args, std::function<void()> committed) const {
    auto input = internal::ParseSearchArguments(args);
    if (!input) return McpServer::Started(ValidationToolError(m, input.error()));
    const int candidates = std::min(input->limit * kSearchCandidatesPerResult, kMaxSearchCandidates);
    auto found = entries.SearchForApplication(caller, input->query, candidates);
    if (!found) return McpServer::Started(ValidationToolError(m, found.error()));
    if (found->empty()) {
      // Nothing to decide: no ledger record, so no decision id.
      return McpServer::Started(ToolResult(m, json::object{{"query", input->query},
                                                           {"decisionId", nullptr},
                                                           {"results", json::array{}},
                                                           {"withheld", 0}}));
    }
    std::vector<std::string> sources;
    for (const auto& r : *found) sources.push_back("entry:" + r.id);
    auto hits = std::make_shared<std::vector<kb::SearchResult>>(std::move(*found));
    return Decide(
        caller, std::move(sources), McpContext("search_knowledge", input->language), std::move(committed),
        [this, m, hits, limit = input->limit, query = input->query,
         language = input->language](const trust::Evaluation& e) {
          json::array results;
          int64_t withheld = 0;
          for (size_t i = 0; i < e.results.size(); ++i) {
            // Blocked candidates are not told of, not even by title.
            if (e.results[i].decision == trust::Decision::kBlock) {
              ++withheld;
              continue;
            }
            if (static_cast<int>(results.size()) == limit) continue;
            const Decided d = Read(e.results[i]);
            const kb::SearchResult& hit = (*hits)[i];
            results.push_back(json::object{{"uri", EntryUri(hit.id)},
                                           {"entryId", hit.id},
                                           {"sourceId", "entry:" + hit.id},
                                           {"title", hit.title},
                                           {"snippet", hit.snippet},
                                           {"originalLanguage", hit.original_language},
                                           {"decision", d.decision},
                                           {"reasons", ReasonsOf(d.result)},
                                           {"obligations", ObligationsOf(d.result)},
                                           {"freshnessScore", d.result.at("freshnessScore")},
                                           {"status", d.result.at("classification")}});
          }
          return ToolResult(m, json::object{{"query", query},
                                            {"decisionId", e.decision_id},
                                            {"results", std::move(results)},
                                            {"withheld", withheld}});
        },
        [this, m](const Error& e) { return ValidationToolError(m, e); });
  }

  // The content of a usable source: an entry as Markdown in the language
  // asked for (its translation where there is one); a connected document's
  // text is never kept by Credence, so it is a link to where it lives.
  Result<json::array> ContentOf(const identity::Principal& caller, const Decided& d, const std::string& language,
                                json::object& structured) const {
    json::array content;
    if (d.origin == "Connected") {
      structured["contentIncluded"] = false;
      // Where the document lives, from its metadata (decision-free).
      auto metadata = trust.Metadata(caller, std::string(d.result.at("sourceId").as_string()));
      if (metadata) {
        boost::system::error_code ec;
        json::value v = json::parse(metadata->json, ec);
        if (!ec && v.is_object())
          if (const auto* u = v.as_object().if_contains("externalUrl"); u && u->is_string())
            content.push_back(json::object{{"type", "resource_link"},
                                           {"uri", u->get_string()},
                                           {"name", d.title.empty() ? std::string(u->get_string()) : d.title}});
      }
      return content;
    }
    auto view = entries.ReadForApplication(caller, d.entry_id, language);
    if (!view) return view.error();
    const std::string uri = EntryUri(d.entry_id);
    std::string title = view->entry.title;
    if (view->is_translation && view->translation && !view->translation->title.empty())
      title = view->translation->title;
    structured["title"] = title;
    structured["language"] = view->language;
    structured["contentIncluded"] = true;
    content.push_back(json::object{
        {"type", "resource"},
        {"resource", json::object{{"uri", uri}, {"mimeType", "text/markdown"},
                                  {"text", "# " + title + "\n\n" + DocumentMarkdown(view->entry.content)}}}});
    return content;
  }

  Result<McpServer::Started> ReadEntry(const identity::Principal& caller, const Message& m, const json::object& args,
                                       std::function<void()> committed) const {
    auto input = internal::ParseReadArguments(args);
    if (!input) return McpServer::Started(ValidationToolError(m, input.error()));
    return Decide(
        caller, {input->source_id}, McpContext("read_entry", input->language), std::move(committed),
        [this, m, caller, language = input->language](const trust::Evaluation& e) {
          const Decided d = Read(e.results.front());
          json::object structured{{"decisionId", e.decision_id},
                                  {"sourceId", d.result.at("sourceId")},
                                  {"entryId", OptText(d.entry_id)},
                                  {"decision", d.decision},
                                  {"reasons", ReasonsOf(d.result)},
                                  {"obligations", ObligationsOf(d.result)}};
          if (e.results.front().decision == trust::Decision::kBlock) {
            const std::string reasons = ReasonsText(structured.at("reasons").as_array());
            structured["uri"] = nullptr;
            structured["title"] = nullptr;
            structured["language"] = nullptr;
            structured["contentIncluded"] = false;
            return ToolError(m,
                             "Blocked by Credence's trust policy (decision " + e.decision_id +
                                 "); do not use this source. Reasons: " + reasons,
                             std::move(structured));
          }
          structured["uri"] = d.origin == "Connected" ? json::value(nullptr) : json::value(EntryUri(d.entry_id));
          structured["title"] = OptText(d.title);
          structured["language"] = nullptr;
          auto content = ContentOf(caller, d, language, structured);
          if (!content) return ToolError(m, "The entry could not be read: " + content.error().detail);
          std::string note = d.decision == "warn" ? "Usable with care (decision " + e.decision_id + "). " +
                                                        ReasonsText(structured.at("reasons").as_array()) + ". "
                                                  : "Allowed (decision " + e.decision_id + "). ";
          note += ObligationsText(structured.at("obligations").as_object());
          if (d.origin == "Connected")
            note += "Credence keeps no text of connected documents; read it where it lives.";
          content->push_back(json::object{{"type", "text"}, {"text", note}});
          return ToolResult(m, std::move(structured), std::move(*content));
        },
        [this, m](const Error& e) { return ValidationToolError(m, e); });
  }

  Result<McpServer::Started> EvaluateSources(const identity::Principal& caller, const Message& m,
                                             const json::object& args, std::function<void()> committed) const {
    auto input = internal::ParseEvaluateArguments(args);
    if (!input) return McpServer::Started(ValidationToolError(m, input.error()));
    return Decide(
        caller, std::move(input->sources), input->context, std::move(committed),
        [this, m](const trust::Evaluation& e) {
          // The answer of POST /api/trust/evaluate, spliced from the
          // per-source texts as that route does.
          std::string structured = trust::EvaluationJson(e);
          std::string result;
          result.reserve(2 * structured.size() + 256);
          result += "{\"content\":[{\"type\":\"text\",\"text\":";
          result += json::serialize(json::string(structured));
          result += "}],\"structuredContent\":";
          result += structured;
          result += ",\"isError\":false";
          if (m.era == Era::kModern) {
            result += ",\"resultType\":\"complete\",\"_meta\":";
            result += json::serialize(json::object{{internal::kServerInfoKey, ServerInfoJson()}});
          }
          result += '}';
          return Answer(internal::ResultText(m.id, result));
        },
        [this, m](const Error& e) { return ValidationToolError(m, e); });
  }

  // --- Resources ------------------------------------------------------

  Result<McpServer::Started> ListResources(const identity::Principal& caller, const Message& m,
                                           std::function<void()> committed) const {
    std::string after;
    if (const auto* c = m.params.if_contains("cursor"); c && !c->is_null()) {
      // The cursor is the last entry id of the previous page.
      if (!c->is_string() || !IsUuid(c->get_string()))
        return McpServer::Started(InBandError(m.id, kInvalidParams, "Invalid params: cursor is not one this server gave"));
      after = CanonicalUuid(c->get_string());
    }
    auto page = entries.ListForApplication(caller, after, kResourcePageSize);
    if (!page) return page.error();
    if (page->empty()) return McpServer::Started(Respond(m, json::object{{"resources", json::array{}}}, true));
    std::vector<std::string> sources;
    for (const auto& entry : *page) sources.push_back("entry:" + entry.id);
    const bool more = static_cast<int>(page->size()) == kResourcePageSize;
    auto listed = std::make_shared<std::vector<kb::Entry>>(std::move(*page));
    return Decide(
        caller, std::move(sources), McpContext("resources/list", ""), std::move(committed),
        [this, m, listed, more](const trust::Evaluation& e) {
          json::array resources;
          for (size_t i = 0; i < e.results.size(); ++i) {
            if (e.results[i].decision == trust::Decision::kBlock) continue;
            const kb::Entry& entry = (*listed)[i];
            resources.push_back(json::object{
                {"uri", EntryUri(entry.id)},
                {"name", entry.hub_key + "/" + entry.key},
                {"title", entry.title},
                {"mimeType", "text/markdown"},
                {"_meta", json::object{{"credence/trust", json::object{{"decisionId", e.decision_id},
                                                                      {"decision", trust::DecisionName(e.results[i].decision)}}}}}});
          }
          json::object result{{"resources", std::move(resources)}};
          if (more) result["nextCursor"] = listed->back().id;
          return Respond(m, std::move(result), /*cacheable=*/true);
        },
        [m](const Error& e) { return InBandError(m.id, kInternalError, e.detail); });
  }

  Result<McpServer::Started> ReadResource(const identity::Principal& caller, const Message& m,
                                          std::function<void()> committed) const {
    const auto* uri = m.params.if_contains("uri");
    if (uri == nullptr || !uri->is_string())
      return McpServer::Started(InBandError(m.id, kInvalidParams, "Invalid params: resources/read needs params.uri"));
    const auto entry_id = EntryIdOfUri(uri->get_string());
    const int not_found = m.era == Era::kModern ? kInvalidParams : kLegacyResourceNotFound;
    if (!entry_id)
      return McpServer::Started(InBandError(m.id, not_found,
                                            "Resource not found: this server's resources are credence://entries/{id}",
                                            json::object{{"uri", uri->get_string()}}));
    std::string language;
    if (const auto* meta = m.params.if_contains("_meta"); meta && meta->is_object())
      if (const auto* l = meta->get_object().if_contains("credence/language"); l && l->is_string())
        language = l->get_string();
    return Decide(
        caller, {"entry:" + *entry_id}, McpContext("resources/read", language), std::move(committed),
        [this, m, caller, not_found, language, requested = std::string(uri->get_string())](
            const trust::Evaluation& e) {
          const Decided d = Read(e.results.front());
          const json::array reasons = ReasonsOf(d.result);
          const json::object decision{{"decisionId", e.decision_id}, {"decision", d.decision},
                                      {"reasons", reasons}, {"obligations", ObligationsOf(d.result)}};
          // An unknown id and another tenant's look alike: not found.
          if (!d.resolved)
            return InBandError(m.id, not_found, "Resource not found: " + requested,
                               json::object{{"uri", requested}, {"decisionId", e.decision_id}});
          if (e.results.front().decision == trust::Decision::kBlock)
            return InBandError(m.id, kBlockedByTrust,
                               "Blocked by Credence's trust policy: " + ReasonsText(reasons),
                               json::object{{"uri", requested},
                                            {"decisionId", e.decision_id},
                                            {"reasons", reasons}});
          auto view = entries.ReadForApplication(caller, d.entry_id, language);
          if (!view) return InBandError(m.id, not_found, "Resource not found: " + requested);
          std::string title = view->entry.title;
          if (view->is_translation && view->translation && !view->translation->title.empty())
            title = view->translation->title;
          json::array contents{json::object{
              {"uri", EntryUri(d.entry_id)},
              {"mimeType", "text/markdown"},
              {"text", "# " + title + "\n\n" + DocumentMarkdown(view->entry.content)},
              {"_meta", json::object{{"credence/trust", decision}}}}};
          return Respond(m, json::object{{"contents", std::move(contents)}}, /*cacheable=*/true);
        },
        [m](const Error& e) { return InBandError(m.id, kInternalError, e.detail); });
  }

  // --- Dispatch -------------------------------------------------------

  Result<McpServer::Started> Dispatch(const identity::Principal& caller, const Message& m,
                                      std::function<void()> committed) const {
    // Notifications get no response (JSON-RPC); 202 says they were taken.
    if (m.notification) return McpServer::Started(Reply{Reply::Kind::kAccepted, "", 0});
    const bool modern = m.era == Era::kModern;
    const std::string& method = m.method;
    if (method == "initialize" && !modern) return McpServer::Started(Initialize(m));
    if (method == "server/discover" && modern) return McpServer::Started(Discover(m));
    if (method == "ping" && !modern) return McpServer::Started(Respond(m, json::object{}));
    if (method == "tools/list") return McpServer::Started(ListTools(m));
    if (method == "tools/call") return CallTool(caller, m, std::move(committed));
    if (method == "resources/list") return ListResources(caller, m, std::move(committed));
    if (method == "resources/templates/list") return McpServer::Started(ListResourceTemplates(m));
    if (method == "resources/read") return ReadResource(caller, m, std::move(committed));
    const std::string text = "Method not found: " + method;
    // 2026-07-28 "Protocol Version Header": an unknown method is a 404 with
    // -32601; in 2025-11-25 it is an ordinary error response.
    if (modern) return McpServer::Started(Rejected(m.id, kMethodNotFound, text));
    return McpServer::Started(InBandError(m.id, kMethodNotFound, text));
  }
};

McpServer::McpServer(const trust::TrustService& trust, const kb::EntryService& entries, ServerInfo info)
    : impl_(std::make_unique<Impl>(Impl{trust, entries, std::move(info)})) {
  if (impl_->info.instructions.empty())
    impl_->info.instructions =
        "Credence is the company's trusted knowledge base. search_knowledge finds entries you may use now; "
        "read_entry reads one; evaluate_sources asks whether sources you already have may be used. Every "
        "retrieval is a recorded trust decision: use only what is returned, follow each result's obligations "
        "(cite when citationRequired, show disclaimerText when disclaimerRequired), and do not use a source "
        "that was blocked.";
}

McpServer::~McpServer() = default;

Result<McpServer::Started> McpServer::Start(const identity::Principal& caller, const Inbound& inbound,
                                            std::function<void()> committed) const {
  if (caller.is_user() || caller.app_id.empty())
    return Error{ErrorKind::kPermissionDenied, "app_key_required",
                 "MCP is for AI applications: connect with an app key (POST /trust-admin/apps/{id}/keys) or an "
                 "access token issued to one.",
                 {},
                 {}};
  auto classified = internal::Classify(inbound);
  if (auto* rejection = std::get_if<internal::Rejection>(&classified))
    return Started(Rejected(rejection->id, rejection->code, rejection->message, rejection->data));
  return impl_->Dispatch(caller, std::get<Message>(classified), std::move(committed));
}

Reply McpServer::Finish(PendingCall& call) const {
  auto e = impl_->trust.FinishEvaluate(*call.evaluation);
  if (!e) return call.fail(e.error());
  return call.finish(*e);
}

}  // namespace credence::mcp
