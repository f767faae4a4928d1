#include "mcp/internal/tools.h"

#include <boost/json/parse.hpp>

#include "core/clock.h"
#include "core/ids.h"
#include "core/text.h"
#include "identity/tenant_service.h"

namespace credence::mcp::internal {
namespace json = boost::json;

namespace {

// The JSON Schemas, as text: read once, then served as parsed.
constexpr const char* kReasonSchema = R"json({
  "type": "object",
  "properties": {
    "code": {"type": "string", "description": "the rule (docs/trust-rules.md)"},
    "dimension": {"type": "string", "enum": ["freshness", "ownership", "provenance", "policy", "sensitivity", "context"]},
    "severity": {"type": "string", "enum": ["allow", "warn", "block"]},
    "message": {"type": "string"}
  },
  "required": ["code", "dimension", "severity", "message"]
})json";

constexpr const char* kObligationsSchema = R"json({
  "type": "object",
  "description": "What using the source obliges the answer to carry",
  "properties": {
    "citationRequired": {"type": "boolean"},
    "disclaimerRequired": {"type": "boolean"},
    "disclaimerText": {"type": ["string", "null"]}
  },
  "required": ["citationRequired", "disclaimerRequired", "disclaimerText"]
})json";

constexpr const char* kLanguageSchema = R"json({
  "type": "string", "minLength": 2, "maxLength": 16,
  "description": "a language code, e.g. es: entries are read in their translation into it where there is one, and the decision weighs that translation"
})json";

json::value Parse(const char* text) { return json::parse(text); }

json::object SearchTool() {
  json::object input{
      {"type", "object"},
      {"properties",
       json::object{{"query", json::object{{"type", "string"},
                                           {"minLength", 1},
                                           {"maxLength", kMaxQueryLength},
                                           {"description", "words to find in titles and text; a trailing * "
                                                           "matches a prefix"}}},
                    {"language", Parse(kLanguageSchema)},
                    {"limit", json::object{{"type", "integer"},
                                           {"minimum", 1},
                                           {"maximum", kMaxSearchLimit},
                                           {"default", 5},
                                           {"description", "results to return at most"}}}}},
      {"required", json::array{"query"}},
      {"additionalProperties", false}};
  json::object item{
      {"type", "object"},
      {"properties",
       json::object{{"uri", json::object{{"type", "string"}, {"description", "credence://entries/{id}: read it "
                                                                            "with read_entry or resources/read"}}},
                    {"entryId", json::object{{"type", "string"}}},
                    {"sourceId", json::object{{"type", "string"}}},
                    {"title", json::object{{"type", "string"}}},
                    {"snippet", json::object{{"type", "string"}}},
                    {"originalLanguage", json::object{{"type", "string"}}},
                    {"decision", json::object{{"type", "string"}, {"enum", json::array{"allow", "warn"}}}},
                    {"reasons", json::object{{"type", "array"}, {"items", Parse(kReasonSchema)}}},
                    {"obligations", Parse(kObligationsSchema)},
                    {"freshnessScore", json::object{{"type", "integer"}, {"minimum", 0}, {"maximum", 100}}},
                    {"status", json::object{{"type", "string"}}}}},
      {"required", json::array{"uri", "entryId", "sourceId", "title", "snippet", "originalLanguage", "decision",
                               "reasons", "obligations", "freshnessScore", "status"}}};
  json::object output{
      {"type", "object"},
      {"properties",
       json::object{{"query", json::object{{"type", "string"}}},
                    {"decisionId", json::object{{"type", json::array{"string", "null"}},
                                                {"description", "the ledger decision that covered every candidate; "
                                                                "null when nothing matched"}}},
                    {"results", json::object{{"type", "array"}, {"items", std::move(item)}}},
                    {"withheld", json::object{{"type", "integer"},
                                              {"minimum", 0},
                                              {"description", "matches the trust policy blocked (never shown)"}}}}},
      {"required", json::array{"query", "decisionId", "results", "withheld"}}};
  return json::object{
      {"name", "search_knowledge"},
      {"title", "Search trusted knowledge"},
      {"description",
       "Search the company knowledge base. Returns only entries this application may use now: every match is "
       "decided by Credence's trust policy, blocked ones are left out, warned ones carry their reasons and the "
       "obligations to follow (citation, disclaimer). The decision is recorded (decisionId)."},
      {"inputSchema", std::move(input)},
      {"outputSchema", std::move(output)},
      {"annotations", json::object{{"readOnlyHint", true}, {"openWorldHint", false}}}};
}

json::object ReadTool() {
  json::object input{
      {"type", "object"},
      {"properties",
       json::object{{"entryId", json::object{{"type", "string"},
                                             {"description", "the entry's id (from search_knowledge)"}}},
                    {"sourceId", json::object{{"type", "string"},
                                              {"minLength", 1},
                                              {"maxLength", 2048},
                                              {"description", "or a source id: entry:<id>, <connector>:<external "
                                                              "id>, or a URL"}}},
                    {"language", Parse(kLanguageSchema)}}},
      {"additionalProperties", false},
      {"description", "exactly one of entryId and sourceId"}};
  json::object output{
      {"type", "object"},
      {"properties",
       json::object{{"decisionId", json::object{{"type", "string"}}},
                    {"sourceId", json::object{{"type", "string"}}},
                    {"entryId", json::object{{"type", json::array{"string", "null"}}}},
                    {"uri", json::object{{"type", json::array{"string", "null"}}}},
                    {"title", json::object{{"type", json::array{"string", "null"}}}},
                    {"language", json::object{{"type", json::array{"string", "null"}},
                                              {"description", "the language of the content returned"}}},
                    {"decision", json::object{{"type", "string"}, {"enum", json::array{"allow", "warn", "block"}}}},
                    {"reasons", json::object{{"type", "array"}, {"items", Parse(kReasonSchema)}}},
                    {"obligations", Parse(kObligationsSchema)},
                    {"contentIncluded", json::object{{"type", "boolean"}}}}},
      {"required", json::array{"decisionId", "sourceId", "entryId", "uri", "title", "language", "decision", "reasons",
                               "obligations", "contentIncluded"}}};
  return json::object{
      {"name", "read_entry"},
      {"title", "Read a trusted entry"},
      {"description",
       "Read one entry of the knowledge base as Markdown, if the trust policy lets this application use it now. "
       "A blocked source is a tool error naming the reasons; a warned one comes with the reasons and obligations "
       "to follow. The decision is recorded (decisionId)."},
      {"inputSchema", std::move(input)},
      {"outputSchema", std::move(output)},
      {"annotations", json::object{{"readOnlyHint", true}, {"openWorldHint", false}}}};
}

json::object EvaluateTool() {
  json::object context{
      {"type", "object"},
      {"properties",
       json::object{{"actorType", json::object{{"type", "string"}, {"maxLength", 200}}},
                    {"actorLabel", json::object{{"type", "string"}, {"maxLength", 200}}},
                    {"action", json::object{{"type", "string"}, {"maxLength", 200}}},
                    {"channel", json::object{{"type", "string"},
                                             {"maxLength", 200},
                                             {"description", "defaults to the application's registered channel"}}},
                    {"externalModel", json::object{{"type", "boolean"}}},
                    {"language", json::object{{"type", "string"}, {"maxLength", 16}}}}},
      {"additionalProperties", false}};
  json::object input{
      {"type", "object"},
      {"properties",
       json::object{{"sources", json::object{{"type", "array"},
                                             {"items", json::object{{"type", "string"},
                                                                    {"minLength", 1},
                                                                    {"maxLength", 2048}}},
                                             {"minItems", 1},
                                             {"maxItems", trust::kMaxSourcesPerRequest},
                                             {"description", "entry:<id>, <connector>:<external id>, or URLs"}}},
                    {"context", std::move(context)}}},
      {"required", json::array{"sources"}},
      {"additionalProperties", false}};
  json::object source{
      {"type", "object"},
      {"properties",
       json::object{{"sourceId", json::object{{"type", "string"}}},
                    {"resolved", json::object{{"type", "boolean"}}},
                    {"entryId", json::object{{"type", json::array{"string", "null"}}}},
                    {"title", json::object{{"type", json::array{"string", "null"}}}},
                    {"origin", json::object{{"type", json::array{"string", "null"}}}},
                    {"decision", json::object{{"type", "string"}, {"enum", json::array{"allow", "warn", "block"}}}},
                    {"escalated", json::object{{"type", "boolean"}}},
                    {"reasons", json::object{{"type", "array"}, {"items", json::object{{"type", "object"}}}}},
                    {"freshnessScore", json::object{{"type", "integer"}}},
                    {"classification", json::object{{"type", "string"}}},
                    {"sensitivity", json::object{{"type", json::array{"string", "null"}}}},
                    {"policySource", json::object{{"type", "string"}}},
                    {"recommendedAction", json::object{{"type", "string"}}},
                    {"requirements", Parse(kObligationsSchema)}}},
      {"required", json::array{"sourceId", "resolved", "decision", "escalated", "reasons", "requirements"}}};
  json::object output{
      {"type", "object"},
      {"description", "the answer of POST /api/trust/evaluate"},
      {"properties",
       json::object{{"decisionId", json::object{{"type", "string"}}},
                    {"evaluatedAt", json::object{{"type", "string"}}},
                    {"overallDecision", json::object{{"type", "string"}, {"enum", json::array{"allow", "warn", "block"}}}},
                    {"results", json::object{{"type", "array"}, {"items", std::move(source)}}}}},
      {"required", json::array{"decisionId", "evaluatedAt", "overallDecision", "results"}}};
  return json::object{
      {"name", "evaluate_sources"},
      {"title", "Evaluate sources"},
      {"description",
       "Ask whether sources may be used now, by this application, for this purpose: per source allow, warn or "
       "block with reasons and obligations, as POST /api/trust/evaluate answers. The decision is recorded."},
      {"inputSchema", std::move(input)},
      {"outputSchema", std::move(output)},
      {"annotations", json::object{{"readOnlyHint", true}, {"openWorldHint", false}}}};
}

// Arguments the schema does not name are refused rather than ignored: a
// misspelt one would otherwise change the answer silently.
void RefuseUnknown(const json::object& args, std::initializer_list<std::string_view> known,
                   std::vector<FieldError>& errors) {
  for (const auto& [key, value] : args) {
    bool ok = false;
    for (auto k : known) ok = ok || key == k;
    if (!ok) errors.push_back({std::string(key), "is not an argument of this tool"});
  }
}

std::optional<std::string> StringArg(const json::object& args, std::string_view name, std::vector<FieldError>& errors) {
  const auto* v = args.if_contains(name);
  if (v == nullptr || v->is_null()) return std::nullopt;
  if (!v->is_string()) {
    errors.push_back({std::string(name), "must be a string"});
    return std::nullopt;
  }
  return std::string(v->get_string());
}

std::string LanguageArg(const json::object& args, std::vector<FieldError>& errors) {
  auto language = StringArg(args, "language", errors);
  if (!language) return {};
  if (!identity::IsKnownLanguage(*language)) {
    errors.push_back({"language", "is not a known language code (e.g. en, es, de)"});
    return {};
  }
  return *language;
}

Error Invalid(std::vector<FieldError> errors) { return Error::Validation(std::move(errors)); }

}  // namespace

const json::array& ToolDefinitions() {
  static const json::array kTools{SearchTool(), ReadTool(), EvaluateTool()};
  return kTools;
}

Result<SearchArguments> ParseSearchArguments(const json::object& args) {
  std::vector<FieldError> errors;
  RefuseUnknown(args, {"query", "language", "limit"}, errors);
  SearchArguments out;
  auto query = StringArg(args, "query", errors);
  if (!query && !args.contains("query")) errors.push_back({"query", "is required"});
  if (query) {
    if (Trim(*query).empty()) errors.push_back({"query", "must not be blank"});
    if (query->size() > kMaxQueryLength)
      errors.push_back({"query", "must be at most " + std::to_string(kMaxQueryLength) + " characters"});
    out.query = *query;
  }
  out.language = LanguageArg(args, errors);
  if (const auto* limit = args.if_contains("limit"); limit && !limit->is_null()) {
    const bool integral = limit->is_int64() || limit->is_uint64() ||
                          (limit->is_double() && limit->get_double() == static_cast<double>(static_cast<int64_t>(limit->get_double())));
    const double value = limit->is_double() ? limit->get_double()
                         : limit->is_int64() ? static_cast<double>(limit->get_int64())
                         : limit->is_uint64() ? static_cast<double>(limit->get_uint64()) : 0;
    if (!integral || value < 1 || value > kMaxSearchLimit)
      errors.push_back({"limit", "must be an integer from 1 to " + std::to_string(kMaxSearchLimit)});
    else
      out.limit = static_cast<int>(value);
  }
  if (!errors.empty()) return Invalid(std::move(errors));
  return out;
}

Result<ReadArguments> ParseReadArguments(const json::object& args) {
  std::vector<FieldError> errors;
  RefuseUnknown(args, {"entryId", "sourceId", "language"}, errors);
  ReadArguments out;
  auto entry = StringArg(args, "entryId", errors);
  auto source = StringArg(args, "sourceId", errors);
  if (entry && source) errors.push_back({"entryId", "give entryId or sourceId, not both"});
  if (!entry && !source && errors.empty()) errors.push_back({"entryId", "give entryId or sourceId"});
  if (entry && !source) {
    if (!IsUuid(*entry))
      errors.push_back({"entryId", "must be an entry id (a UUID, as search_knowledge answers it)"});
    else
      out.source_id = "entry:" + CanonicalUuid(*entry);
  }
  if (source && !entry) {
    if (source->empty() || source->size() > 2048)
      errors.push_back({"sourceId", "must be 1 to 2048 characters"});
    else
      out.source_id = *source;
  }
  out.language = LanguageArg(args, errors);
  if (!errors.empty()) return Invalid(std::move(errors));
  return out;
}

Result<EvaluateArguments> ParseEvaluateArguments(const json::object& args) {
  std::vector<FieldError> errors;
  RefuseUnknown(args, {"sources", "context"}, errors);
  EvaluateArguments out;
  const auto* sources = args.if_contains("sources");
  if (sources == nullptr || !sources->is_array()) {
    errors.push_back({"sources", "is required: an array of source ids"});
  } else {
    for (size_t i = 0; i < sources->get_array().size(); ++i) {
      const auto& s = sources->get_array()[i];
      if (!s.is_string())
        errors.push_back({"sources[" + std::to_string(i) + "]", "must be a string"});
      else
        out.sources.emplace_back(s.get_string());
    }
  }
  if (const auto* c = args.if_contains("context"); c && !c->is_null()) {
    if (!c->is_object()) {
      errors.push_back({"context", "must be an object"});
    } else {
      const json::object& o = c->get_object();
      RefuseUnknown(o, {"actorType", "actorLabel", "action", "channel", "externalModel", "language"}, errors);
      auto text = [&](std::string_view name, std::string& into) {
        const auto* v = o.if_contains(name);
        if (v == nullptr || v->is_null()) return;
        if (!v->is_string())
          errors.push_back({"context." + std::string(name), "must be a string"});
        else
          into = v->get_string();
      };
      text("actorType", out.context.actor_type);
      text("actorLabel", out.context.actor_label);
      text("action", out.context.action);
      text("channel", out.context.channel);
      text("language", out.context.language);
      if (const auto* v = o.if_contains("externalModel"); v && !v->is_null()) {
        if (!v->is_bool())
          errors.push_back({"context.externalModel", "must be a boolean"});
        else
          out.context.external_model = v->get_bool();
      }
    }
  }
  // The rest (1 to 100 sources of 1 to 2048 characters, context lengths and
  // language) is evaluate's own validation, answered the same way.
  if (!errors.empty()) return Invalid(std::move(errors));
  return out;
}

}  // namespace credence::mcp::internal
