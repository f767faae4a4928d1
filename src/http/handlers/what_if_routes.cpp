// Policy what-if (/trust-admin/what-if, docs/what-if.md): a proposed
// change in the shapes of the endpoints that would publish it, replayed
// over the recorded decisions by trust::WhatIfService. Thin: it reads the
// change and lays the answer out.
#include <boost/json/serialize.hpp>

#include "http/handlers/routes.h"
#include "http/handlers/trust_json.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "trust/admin_service.h"
#include "trust/what_if.h"

namespace credence::http {
namespace json = boost::json;

namespace {

const std::vector<std::string>& TargetNames() {
  static const std::vector<std::string> names{"tenant-policy", "hub-policy", "source-policy", "app-policy",
                                              "sensitivity"};
  return names;
}

const std::vector<std::string>& DecisionNames() {
  static const std::vector<std::string> names{"allow", "warn", "block"};
  return names;
}

Schema SensitivityFactsSchema() {
  return Schema::Object({
      Required("classification", Schema::String().Enum(SensitivityNames())),
      Required("hasSecrets", Schema::Boolean()),
      Required("hasPersonalData", Schema::Boolean()),
  });
}

Schema ChangeSchema() {
  return Schema::Object({
      Required("target",
               Schema::String()
                   .Enum(TargetNames())
                   .Describe("what the change would publish: tenant-policy (PUT /trust-admin/policies/tenant), "
                             "hub-policy (PUT /trust-admin/policies/hubs/{hubKey}), source-policy (PUT "
                             "/trust-admin/policies/sources), app-policy (an app's defaultPolicy), sensitivity "
                             "(PUT /trust-admin/sensitivity)")),
      Optional("hubKey", Schema::String().Describe("hub-policy: the hub")),
      Optional("sourceId",
               Schema::String().Describe("source-policy, sensitivity: entry:<id> or <connector_key>:<external_id>")),
      Optional("appId", Schema::String().Describe("app-policy: the app")),
      Optional("policy", PolicyOverrideSchema(Schema::Use::kRequest)
                             .Describe("the policy targets: the level's new override, as its PUT takes it; {} "
                                       "removes it")),
      Optional("defaultPolicy", PolicyOverrideSchema(Schema::Use::kRequest)
                                    .Describe("app-policy: the app's new default policy; {} removes it")),
      Optional("sensitivity", SensitivityFactsSchema().Nullable().Describe(
                                  "sensitivity: the source's new facts; null removes them (the defaults apply)")),
  });
}

Schema MovesSchema() {
  return Schema::Array(Schema::Object({
                           Required("from", Schema::String().Enum(DecisionNames())),
                           Required("to", Schema::String().Enum(DecisionNames())),
                           Required("decisions", Schema::Integer().Min(1)),
                       }))
      .Describe(
          "decisions (or source decisions) whose outcome the change moves, by before and after; only "
          "pairs that differ, most first");
}

Schema ReasonShiftsSchema() {
  return Schema::Array(Schema::Object({
      Required("code", Schema::String()),
      Required("dimension", Schema::String()),
      Required("sources", Schema::Integer().Describe("source decisions that gain (or lose) it")),
      Required("decisions", Schema::Integer().Describe("decisions with at least one such source")),
  }));
}

Schema ResultSchema() {
  return Schema::Object({
      Required("from", Schema::String()),
      Required("to", Schema::String()),
      Required("replayed", Schema::Integer().Describe("recorded decisions of the window (and filters) decided again")),
      Required("changed", Schema::Integer().Describe("decisions whose overall outcome the change moves")),
      Required("sourcesChanged", Schema::Integer().Describe("source decisions whose outcome or reasons it changes")),
      Required("drifted", Schema::Integer().Describe(
                              "decisions today's configuration alone decides differently from the record (a "
                              "policy, an app or the context vocabulary changed since): the change is compared "
                              "with today's configuration, never blamed for that")),
      Required("moves", MovesSchema()),
      Required("sourceMoves", MovesSchema()),
      Required("groups", Schema::Array(Schema::Object({
                                           Required("appId", Schema::String().Nullable()),
                                           Required("appName", Schema::String().Nullable()),
                                           Required("channel", Schema::String()),
                                           Required("replayed", Schema::Integer()),
                                           Required("changed", Schema::Integer()),
                                           Required("moves", MovesSchema()),
                                       }))
                             .Describe("per app and effective channel")),
      Required("reasonsAppearing", ReasonShiftsSchema()),
      Required("reasonsVanishing", ReasonShiftsSchema()),
      Required("examples",
               Schema::Array(Schema::Object({
                                 Required("decisionId", Schema::String()),
                                 Required("evaluatedAt", Schema::Timestamp()),
                                 Required("appId", Schema::String().Nullable()),
                                 Required("channel", Schema::String()),
                                 Required("recorded", Schema::String().Enum(DecisionNames())),
                                 Required("before", Schema::String().Enum(DecisionNames())),
                                 Required("after", Schema::String().Enum(DecisionNames())),
                                 Required("sources", Schema::Array(Schema::Object({
                                                         Required("sourceId", Schema::String()),
                                                         Required("title", Schema::String()),
                                                         Required("before", Schema::String().Enum(DecisionNames())),
                                                         Required("after", Schema::String().Enum(DecisionNames())),
                                                         Required("reasonsAdded", Schema::Array(Schema::String())),
                                                         Required("reasonsRemoved", Schema::Array(Schema::String())),
                                                     }))),
                             }))
                   .Describe("the first decisions (oldest first) the change alters, with their changed sources")),
      Required("durationMs", Schema::Integer()),
  });
}

// The policy member named `key` of change `i`, through the trust plane's
// codec; its field errors are named under the change.
Result<trust::PolicyOverride> PolicyOf(const json::object& change, std::string_view key, size_t i) {
  const json::value* v = change.if_contains(key);
  const std::string prefix = "changes[" + std::to_string(i) + "]." + std::string(key);
  if (v == nullptr || v->is_null()) return Error::Validation({{prefix, "is required for this target"}});
  auto policy = trust::PolicyOverrideFromRequest(json::serialize(*v));
  if (!policy) {
    Error e = std::move(policy).error();
    for (auto& f : e.fields) f.field = prefix + "." + f.field;
    return e;
  }
  return policy;
}

Result<trust::WhatIfRequest> RequestOf(const json::object& body) {
  trust::WhatIfRequest out;
  out.from = GetOptString(body, "from");
  out.to = GetOptString(body, "to");
  out.app_id = GetOptString(body, "appId");
  out.channel = GetOptString(body, "channel");
  const json::array& changes = body.at("changes").get_array();
  std::vector<FieldError> errors;
  for (size_t i = 0; i < changes.size(); ++i) {
    const json::object& c = changes[i].get_object();
    trust::ProposedChange change;
    const std::string at = "changes[" + std::to_string(i) + "].";
    const auto target = trust::ParseChangeTarget(GetString(c, "target"));
    if (!target) {  // the schema's enum refused it already; kept safe
      errors.push_back({at + "target", "unknown target"});
      continue;
    }
    change.target = *target;
    auto need = [&](const char* key) {
      auto v = GetOptString(c, key);
      if (!v || v->empty()) errors.push_back({at + key, "is required for this target"});
      return v.value_or("");
    };
    auto policy = [&](const char* key) {
      auto p = PolicyOf(c, key, i);
      if (!p) {
        for (auto& f : p.error().fields) errors.push_back(f);
        return trust::PolicyOverride{};
      }
      return *p;
    };
    switch (change.target) {
      case trust::ChangeTarget::kTenantPolicy:
        change.policy = policy("policy");
        break;
      case trust::ChangeTarget::kHubPolicy:
        change.name = need("hubKey");
        change.policy = policy("policy");
        break;
      case trust::ChangeTarget::kSourcePolicy:
        change.name = need("sourceId");
        change.policy = policy("policy");
        break;
      case trust::ChangeTarget::kAppPolicy:
        change.name = need("appId");
        change.policy = policy("defaultPolicy");
        break;
      case trust::ChangeTarget::kSensitivity: {
        change.name = need("sourceId");
        const json::value* facts = c.if_contains("sensitivity");
        if (facts == nullptr) {
          errors.push_back({at + "sensitivity", "is required for this target (null removes the facts)"});
        } else if (facts->is_object()) {
          const json::object& f = facts->get_object();
          change.sensitivity = trust::SensitivityFacts{
              trust::ParseSensitivity(GetString(f, "classification")).value_or(trust::Sensitivity::kInternal),
              GetBool(f, "hasSecrets"), GetBool(f, "hasPersonalData")};
        }
        break;
      }
    }
    out.changes.push_back(std::move(change));
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return out;
}

json::array MovesJson(const trust::MoveCounts& moves) {
  struct Move {
    int from, to;
    int64_t count;
  };
  std::vector<Move> list;
  for (int from = 0; from < 3; ++from)
    for (int to = 0; to < 3; ++to)
      if (from != to && moves[from][to] > 0) list.push_back({from, to, moves[from][to]});
  std::stable_sort(list.begin(), list.end(), [](const Move& a, const Move& b) { return a.count > b.count; });
  json::array out;
  for (const Move& m : list)
    out.push_back(
        json::object{{"from", DecisionNames()[m.from]}, {"to", DecisionNames()[m.to]}, {"decisions", m.count}});
  return out;
}

json::array ShiftsJson(const std::vector<trust::ReasonShift>& shifts) {
  json::array out;
  for (const auto& s : shifts)
    out.push_back(json::object{{"code", s.code},
                               {"dimension", trust::DimensionName(s.dimension)},
                               {"sources", s.sources},
                               {"decisions", s.decisions}});
  return out;
}

json::array CodesJson(const std::vector<std::string>& codes) {
  json::array out;
  for (const auto& c : codes) out.emplace_back(c);
  return out;
}

json::object ResultJson(const trust::WhatIfResult& r) {
  auto name = [](trust::Decision d) { return trust::DecisionName(d); };
  json::array groups;
  for (const auto& g : r.groups)
    groups.push_back(json::object{{"appId", OptJson(g.app_id)},
                                  {"appName", OptJson(g.app_name)},
                                  {"channel", g.channel},
                                  {"replayed", g.replayed},
                                  {"changed", g.changed},
                                  {"moves", MovesJson(g.moves)}});
  json::array examples;
  for (const auto& e : r.examples) {
    json::array sources;
    for (const auto& s : e.sources)
      sources.push_back(json::object{{"sourceId", s.source_id},
                                     {"title", s.title},
                                     {"before", name(s.before)},
                                     {"after", name(s.after)},
                                     {"reasonsAdded", CodesJson(s.reasons_added)},
                                     {"reasonsRemoved", CodesJson(s.reasons_removed)}});
    examples.push_back(json::object{{"decisionId", e.decision_id},
                                    {"evaluatedAt", FormatTimestamp(e.evaluated_at)},
                                    {"appId", OptJson(e.app_id)},
                                    {"channel", e.channel},
                                    {"recorded", name(e.recorded)},
                                    {"before", name(e.before)},
                                    {"after", name(e.after)},
                                    {"sources", std::move(sources)}});
  }
  return json::object{{"from", r.window.from},
                      {"to", r.window.to},
                      {"replayed", r.replayed},
                      {"changed", r.changed},
                      {"sourcesChanged", r.sources_changed},
                      {"drifted", r.drifted},
                      {"moves", MovesJson(r.moves)},
                      {"sourceMoves", MovesJson(r.source_moves)},
                      {"groups", std::move(groups)},
                      {"reasonsAppearing", ShiftsJson(r.appearing)},
                      {"reasonsVanishing", ShiftsJson(r.vanishing)},
                      {"examples", std::move(examples)},
                      {"durationMs", r.duration_ms}};
}

}  // namespace

void AddWhatIfRoutes(Router& router, const Services& s) {
  const trust::WhatIfService& what_if = s.what_if;
  static const Schema kRequest = Schema::Object({
      Required("changes", Schema::Array(ChangeSchema())
                              .MinItems(1)
                              .MaxItems(static_cast<int64_t>(trust::kMaxWhatIfChanges))
                              .Describe("applied together, in order, over today's configuration")),
      Optional("from", Schema::String().Nullable().Describe(
                           "first day, YYYY-MM-DD (UTC), inclusive; default 29 days before to")),
      Optional("to", Schema::String().Nullable().Describe("last day, YYYY-MM-DD (UTC), inclusive; default today")),
      Optional("appId", Schema::String().Nullable().Describe("only this app's decisions")),
      Optional("channel", Schema::String().Nullable().Describe(
                              "only decisions on this channel (an app's own when the request named none)")),
  });
  router.Add({Method::kPost,
              "/trust-admin/what-if",
              Auth::kTenantAdmin,
              "",
              [&what_if](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kRequest);
                if (!body) return Problem(ctx, body.error());
                auto request = RequestOf(*body);
                if (!request) return Problem(ctx, request.error());
                auto result = what_if.Replay(ctx.Caller(), *request);
                if (!result) return Problem(ctx, result.error());
                return JsonResponse(200, ResultJson(*result));
              },
              {.summary = "What a proposed policy, app policy or sensitivity change would have done to the "
                          "decisions recorded in a window (tenant admins; docs/what-if.md): each decision is "
                          "decided again from its frozen evidence under today's configuration and under today's "
                          "with the change, and the moves, the reasons that appear or vanish and examples are "
                          "answered. Nothing is written.",
               .tag = "trust-admin",
               .request = kRequest,
               .response = ResultSchema(),
               .errors = {400, 403}}});
}

}  // namespace credence::http
