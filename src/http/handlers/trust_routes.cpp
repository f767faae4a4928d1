// The trust endpoints (/api/trust/...; machine credentials with scopes, or a
// signed-in user) and ledger verification (/trust-admin/ledger/verify).
// docs/trust.md.
#include <boost/json/parse.hpp>

#include <charconv>
#include <limits>

#include "core/date_window.h"
#include "core/ids.h"
#include "http/handlers/chain_json.h"
#include "http/handlers/retention_json.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "integrity/chain_heads.h"
#include "trust/evaluation_json.h"
#include "trust/trust_service.h"

namespace credence::http {
namespace json = boost::json;

namespace {

Schema ReasonSchema() {
  return Schema::Object({
      Required("code", Schema::String().Describe("the rule (docs/trust-rules.md)")),
      Required("dimension", Schema::String().Enum(
                                {"freshness", "ownership", "provenance", "policy", "sensitivity", "context"})),
      Required("severity", Schema::String().Enum({"allow", "warn", "block"})),
      Required("message", Schema::String()),
      Required("data", Schema::FreeObject()),
  });
}

Schema SourceDecisionSchema() {
  return Schema::Object({
      Required("sourceId", Schema::String().Describe("as submitted")),
      Required("resolved", Schema::Boolean()),
      Required("entryId", Schema::String().Nullable()),
      Required("title", Schema::String().Nullable()),
      Required("origin", Schema::String().Enum({"Native", "Connected"}).Nullable()),
      Required("decision", Schema::String().Enum({"allow", "warn", "block"})),
      Required("escalated", Schema::Boolean()),
      Required("reasons", Schema::Array(ReasonSchema())),
      Required("freshnessScore", Schema::Integer().Min(0).Max(100)),
      Required("classification",
               Schema::String().Describe("the status a reader sees: Draft, Published, ExpiringSoon, Warning, "
                                         "Expired; or Unresolved")),
      Required("sensitivity", Schema::String().Enum({"Public", "Internal", "Confidential", "Restricted"}).Nullable()),
      Required("policySource", Schema::String().Enum({"tenant-default", "hub", "entry", "app", "none"})),
      Required("recommendedAction", Schema::String()),
      Required("requirements", Schema::Object({
                                   Required("citationRequired", Schema::Boolean()),
                                   Required("disclaimerRequired", Schema::Boolean()),
                                   Required("disclaimerText", Schema::String().Nullable()),
                               })),
  });
}

Schema EvaluateRequestSchema() {
  return Schema::Object({
      Required("sources", Schema::Array(Schema::String().MinLength(1).MaxLength(2048))
                              .MinItems(1)
                              .MaxItems(static_cast<int64_t>(trust::kMaxSourcesPerRequest))
                              .ItemCountCodes("no_sources", "too_many_sources")
                              .Describe("entry:<guid>, <connector_key>:<external_id>, or an http(s) URL; an "
                                        "empty array is 400 no_sources, more than 100 is 400 too_many_sources")),
      Optional("context", Schema::Object({
                              Optional("actorType", Schema::String().MaxLength(200)),
                              Optional("actorLabel", Schema::String().MaxLength(200)),
                              Optional("action", Schema::String().MaxLength(200)),
                              Optional("channel", Schema::String().MaxLength(200)),
                              Optional("externalModel", Schema::Boolean()),
                              Optional("language", Schema::String().MaxLength(16)),
                          })),
  });
}

trust::ContextInput ContextOf(const json::object& body) {
  trust::ContextInput c;
  if (const auto* v = body.if_contains("context"); v && v->is_object()) {
    const auto& o = v->as_object();
    c.actor_type = GetString(o, "actorType");
    c.actor_label = GetString(o, "actorLabel");
    c.action = GetString(o, "action");
    c.channel = GetString(o, "channel");
    c.external_model = GetOptBool(o, "externalModel").value_or(false);
    c.language = GetString(o, "language");
  }
  return c;
}

void AppendResults(std::string& out, const char* key, const std::vector<trust::SourceResult>& results,
                   const std::function<bool(const trust::SourceResult&)>& keep) {
  out += '"';
  out += key;
  out += "\":[";
  bool first = true;
  for (const auto& r : results) {
    if (!keep(r)) continue;
    if (!first) out += ',';
    out += r.json();
    first = false;
  }
  out += ']';
}

HttpResponse RawJson(std::string body) {
  HttpResponse r;
  r.status = 200;
  r.content_type = "application/json";
  r.body = std::move(body);
  return r;
}

// Evaluate and filter-sources: the body validated, the sources decided, and
// `answer` sent once the ledger has the record. No server thread waits for
// the ledger meanwhile (PendingResponse).
HttpResponse EvaluateAndAnswer(const trust::TrustService& trust, RequestContext& ctx, trust::Endpoint endpoint,
                               std::string (*answer)(const trust::Evaluation&)) {
  static const Schema kRequest = EvaluateRequestSchema();
  auto body = ParseBody(ctx.request, kRequest);
  if (!body) return Problem(ctx, body.error());
  auto pending = std::make_shared<PendingResponse>();
  auto started = trust.StartEvaluate(ctx.Caller(), GetStringViews(*body, "sources"), ContextOf(*body), endpoint,
                                     [pending] { pending->Ready(); });
  if (!started) return Problem(ctx, started.error());
  pending->SetFinish([&trust, evaluation = *started, answer, path = std::string(ctx.request.path()),
                      request_id = ctx.request_id, language = TextLanguage(ctx)] {
    auto e = trust.FinishEvaluate(*evaluation);
    if (!e) return ProblemResponse(e.error(), path, request_id, language);
    return RawJson(answer(*e));
  });
  return Deferred(std::move(pending));
}

// The hashed header as stored (so the answer is exactly what the chain
// covers), with the evidence and the record's place in the chain.
json::object DecisionRecordJson(const trust::StoredDecision& d) {
  json::object out = json::parse(d.header_json).as_object();
  if (!out.contains("app")) out["app"] = nullptr;  // recorded before apps existed
  json::array sources;
  for (const auto& e : d.record.evidence) {
    json::value v = json::parse(e);
    json::object source = v.at("result").as_object();
    source["state"] = v.at("state");
    sources.push_back(std::move(source));
  }
  out["sources"] = std::move(sources);
  out["sequence"] = d.seq;
  out["hash"] = d.hash;
  out["previousHash"] = d.prev_hash;
  return out;
}



}  // namespace

void AddTrustRoutes(Router& router, const Services& s) {
  const trust::TrustService& trust = s.trust;
  const Schema counts = Schema::Object({
      Required("total", Schema::Integer().Min(0)),
      Required("allowed", Schema::Integer().Min(0)),
      Required("warned", Schema::Integer().Min(0)),
      Required("blocked", Schema::Integer().Min(0).Describe("includes escalated sources")),
      Required("escalated", Schema::Integer().Min(0)),
  });

  static const Schema kEvaluate = EvaluateRequestSchema();
  router.Add({Method::kPost, "/api/trust/evaluate", Auth::kUserOrMachine, "trust:evaluate",
              [&trust](RequestContext& ctx) {
                return EvaluateAndAnswer(trust, ctx, trust::Endpoint::kEvaluate, trust::EvaluationJson);
              },
              {.summary = "Decide, per source, whether it may be used now by this actor for this purpose; the "
                          "decision is in the ledger before the answer is sent.",
               .tag = "trust",
               .request = kEvaluate,
               .response = Schema::Object({
                   Required("decisionId", Schema::Uuid()),
                   Required("evaluatedAt", Schema::Timestamp()),
                   Required("overallDecision", Schema::String().Enum({"allow", "warn", "block"})),
                   Required("results", Schema::Array(SourceDecisionSchema())),
               }),
               .errors = {400, 403}}});

  router.Add({Method::kPost, "/api/trust/preview", Auth::kUser, "",
              [&trust](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kEvaluate);
                if (!body) return Problem(ctx, body.error());
                std::vector<std::string> sources;
                for (auto id : GetStringViews(*body, "sources")) sources.emplace_back(id);
                auto e = trust.Preview(ctx.Caller(), sources, ContextOf(*body));
                if (!e) return Problem(ctx, e.error());
                std::string out = "{\"evaluatedAt\":\"" + FormatTimestamp(e->evaluated_at) +
                                  "\",\"overallDecision\":\"" + std::string(trust::DecisionName(e->overall)) + "\",";
                AppendResults(out, "results", e->results, [](auto&) { return true; });
                out += '}';
                return RawJson(std::move(out));
              },
              {.summary = "What evaluate would decide now, for a person looking (the web client's trust badge): "
                          "the same body and per-source answers, but recorded nowhere (no ledger record, no "
                          "decisionId, no event). Signed-in people only; applications call evaluate.",
               .tag = "trust",
               .request = kEvaluate,
               .response = Schema::Object({
                   Required("evaluatedAt", Schema::Timestamp()),
                   Required("overallDecision", Schema::String().Enum({"allow", "warn", "block"})),
                   Required("results", Schema::Array(SourceDecisionSchema())),
               }),
               .errors = {400, 403}}});

  router.Add({Method::kPost, "/api/trust/filter-sources", Auth::kUserOrMachine, "trust:evaluate",
              [&trust](RequestContext& ctx) {
                return EvaluateAndAnswer(trust, ctx, trust::Endpoint::kFilterSources, [](const trust::Evaluation& e) {
                  auto is = [](trust::Decision d) {
                    return [d](const trust::SourceResult& r) { return r.decision == d; };
                  };
                  std::string out = trust::EvaluationHead(e);
                  AppendResults(out, "allowed", e.results, is(trust::Decision::kAllow));
                  out += ',';
                  AppendResults(out, "warned", e.results, is(trust::Decision::kWarn));
                  out += ',';
                  AppendResults(out, "blocked", e.results, is(trust::Decision::kBlock));
                  out += '}';
                  return out;
                });
              },
              {.summary = "Evaluate, then partition the sources: allowed, warned (usable with the obligations), "
                          "blocked (escalations included; must not enter a prompt). Order is kept in each.",
               .tag = "trust",
               .request = kEvaluate,
               .response = Schema::Object({
                   Required("decisionId", Schema::Uuid()),
                   Required("evaluatedAt", Schema::Timestamp()),
                   Required("overallDecision", Schema::String().Enum({"allow", "warn", "block"})),
                   Required("allowed", Schema::Array(SourceDecisionSchema())),
                   Required("warned", Schema::Array(SourceDecisionSchema())),
                   Required("blocked", Schema::Array(SourceDecisionSchema())),
               }),
               .errors = {400, 403}}});

  const Schema metadata = Schema::Object({
      Required("sourceId", Schema::String()),
      Required("resolved", Schema::Boolean()),
      Optional("entryId", Schema::String()),
      Optional("title", Schema::String()),
      Optional("origin", Schema::String().Enum({"Native", "Connected"})),
      Optional("status", Schema::String()),
      Optional("version", Schema::Integer()),
      Optional("externalUrl", Schema::String().Nullable()),
      Optional("contentUpdatedAt", Schema::Timestamp()),
      Optional("sensitivity", Schema::String()),
      Optional("policy", Schema::Object({
                             Required("source", Schema::String()),
                             Required("aiRetrievable", Schema::Boolean()),
                             Required("customerFacingAllowed", Schema::Boolean()),
                             Required("internalOnly", Schema::Boolean()),
                             Required("externalModelAllowed", Schema::Boolean()),
                             Required("maxSensitivityForAi", Schema::String()),
                         })),
  });
  auto metadata_handler = [&trust](RequestContext& ctx, const std::string& id) {
    auto m = trust.Metadata(ctx.Caller(), id);
    if (!m) return Problem(ctx, m.error());
    HttpResponse r;
    r.status = 200;
    r.content_type = "application/json";
    r.body = m->json;
    return r;
  };
  router.Add({Method::kGet, "/api/trust/sources/{sourceId}", Auth::kUserOrMachine, "trust:read",
              [metadata_handler](RequestContext& ctx) { return metadata_handler(ctx, ctx.PathParam("sourceId")); },
              {.summary = "Decision-free trust metadata of a source; resolved false for an unknown id. Ids with "
                          "slashes (URLs) use GET /api/trust/sources?sourceId=.",
               .tag = "trust",
               .response = metadata,
               .errors = {400, 403}}});
  router.Add({Method::kGet, "/api/trust/sources", Auth::kUserOrMachine, "trust:read",
              [metadata_handler](RequestContext& ctx) {
                auto id = ctx.request.QueryParam("sourceId");
                if (!id) return Problem(ctx, Error::Validation({{"sourceId", "is required"}}));
                return metadata_handler(ctx, *id);
              },
              {.summary = "Decision-free trust metadata of the source named by ?sourceId= (any form).",
               .tag = "trust",
               .response = metadata,
               .query = {{"sourceId", Schema::String().MinLength(1).MaxLength(2048), true, "the source identifier"}},
               .errors = {400, 403}}});

  router.Add({Method::kGet, "/api/trust/decisions/{decisionId}", Auth::kUserOrMachine, "trust:read",
              [&trust, &s](RequestContext& ctx) {
                const std::string id = CanonicalUuid(ctx.PathParam("decisionId"));
                auto d = trust.GetDecision(ctx.Caller(), id);
                if (!d && d.error().kind == ErrorKind::kNotFound)
                  if (auto archived = ArchivedDecision(s, ctx.Caller().tenant_id, id)) return Problem(ctx, *archived);
                if (!d) return Problem(ctx, d.error());
                return JsonResponse(200, DecisionRecordJson(*d));
              },
              {.summary = "The ledger record of a decision, as it was at decision time, with the per-source "
                          "evidence and its place in the tenant's hash chain.",
               .tag = "trust",
               .response = Schema::Object({
                   Required("decisionId", Schema::Uuid()),
                   Required("evaluatedAt", Schema::Timestamp()),
                   Required("overallDecision", Schema::String()),
                   Required("actorKind", Schema::String().Enum({"machine", "user"})),
                   Required("actorLabel", Schema::String()),
                   Required("actorType", Schema::String()),
                   Required("action", Schema::String()),
                   Required("channel", Schema::String()),
                   Required("endpoint", Schema::String().Enum({"Evaluate", "FilterSources", "Mcp"})),
                   Required("context", Schema::FreeObject()),
                   Required("userId", Schema::String().Nullable()),
                   Required("keyId", Schema::String().Nullable()),
                   Required("appId", Schema::String().Nullable()),
                   Required("app", Schema::Object({
                                       Required("id", Schema::String()),
                                       Required("name", Schema::String()),
                                       Required("ownerId", Schema::String().Nullable()),
                                       Required("channel", Schema::String()),
                                       Required("risk", Schema::String()),
                                   })
                                       .Nullable()
                                       .Describe("the app that made the decision, as it was then")),
                   Required("counts", counts),
                   Required("sources", Schema::Array(Schema::FreeObject())),
                   Required("sequence", Schema::Integer().Min(1)),
                   Required("hash", Schema::String()),
                   Required("previousHash", Schema::String()),
               }),
               .errors = {403, 404, 410},
               .path_params = {{"decisionId", Schema::Uuid()}}}});

  static const Schema kUsage = Schema::Object({
      Optional("decisionId", Schema::Uuid()),
      Optional("actorLabel", Schema::String().MaxLength(200)),
      Optional("action", Schema::String().MaxLength(200)),
      Required("sources", Schema::Array(Schema::String().MinLength(1).MaxLength(2048))
                              .MaxItems(static_cast<int64_t>(trust::kMaxSourcesPerRequest))
                              .ItemCountCodes("", "too_many_sources")),
      Required("outcome", Schema::String().Enum(trust::UsageOutcomes())),
  });
  router.Add({Method::kPost, "/api/trust/usage", Auth::kUserOrMachine, "trust:usage",
              [&trust](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kUsage);
                if (!body) return Problem(ctx, body.error());
                trust::UsageInput u;
                u.decision_id = GetOptString(*body, "decisionId");
                u.actor_label = GetString(*body, "actorLabel");
                u.action = GetString(*body, "action");
                u.sources = GetStringArray(*body, "sources");
                u.outcome = GetString(*body, "outcome");
                auto id = trust.RecordUsage(ctx.Caller(), u);
                if (!id) return Problem(ctx, id.error());
                return JsonResponse(202, {{"usageId", *id}});
              },
              {.summary = "Record that sources were actually relied on, optionally linked to a decision of the "
                          "tenant.",
               .tag = "trust",
               .request = kUsage,
               .response = Schema::Object({Required("usageId", Schema::Uuid())}),
               .success_status = 202,
               .errors = {400, 403}}});

  // Verification: the records, then the chain against its signed heads
  // and, when the query names one, against a head an outside party stored
  // (seq and hash; signature with signedAt and keyId optional, all three or
  // none).
  router.Add({Method::kGet, "/trust-admin/ledger/verify", Auth::kTenantAdmin, "",
              [&trust](RequestContext& ctx) {
                auto from = IntParam(ctx.request, "fromSequence", 1);
                auto to = IntParam(ctx.request, "toSequence", 0);
                if (!from || !to)
                  return Problem(ctx, Error::Validation({{from ? "toSequence" : "fromSequence",
                                                          "must be a non-negative integer"}}));
                auto outside = OutsideHeadParams(ctx.request);
                if (!outside) return Problem(ctx, outside.error());
                auto v = trust.Verify(ctx.Caller(), *from, *to, *outside);
                if (!v) return Problem(ctx, v.error());
                const auto& records = v->records;
                json::object out{{"ok", v->ok()}, {"checked", records.checked}};
                out["firstInvalid"] = records.ok ? json::value(nullptr)
                                                 : json::value(json::object{{"decisionId", *records.first_invalid_decision_id},
                                                                            {"sequence", *records.first_invalid_seq},
                                                                            {"problem", records.problem}});
                out["heads"] = HeadCheckJson(v->heads);
                return JsonResponse(200, out);
              },
              {.summary = "Verify the tenant's decision ledger (tenant admins): recompute every record's hash "
                          "and link over a sequence range, hold every stored column against the hashed record, "
                          "and check the chain against its signed heads (and an outside head, when given); names "
                          "the first record or head that does not verify.",
               .tag = "trust-admin",
               .response = Schema::Object({
                   Required("ok", Schema::Boolean().Describe("the records and the heads verify")),
                   Required("checked", Schema::Integer().Min(0)),
                   Required("firstInvalid", Schema::Object({
                                                Required("decisionId", Schema::Uuid()),
                                                Required("sequence", Schema::Integer()),
                                                Required("problem", Schema::String()),
                                            })
                                                .Nullable()),
                   Required("heads", HeadCheckSchema()),
               }),
               .query = WithOutsideHeadQuery({{"fromSequence", Schema::Integer().Min(1), false, "default 1"},
                                              {"toSequence", Schema::Integer().Min(0), false, "default 0: the end"}}),
               .errors = {400, 403}}});

  router.Add({Method::kGet, "/trust-admin/ledger/decisions", Auth::kTenantAdmin, "",
              [&trust, &s](RequestContext& ctx) {
                const auto& q = ctx.request;
                trust::DecisionFilter filter;
                std::vector<FieldError> errors;
                filter.overall = q.QueryParam("decision");
                if (filter.overall && *filter.overall != "allow" && *filter.overall != "warn" &&
                    *filter.overall != "block")
                  errors.push_back({"decision", "must be allow, warn or block"});
                if (auto app = q.QueryParam("appId")) filter.app_id = CanonicalUuid(*app);
                filter.channel = q.QueryParam("channel");
                // The bounds are days or timestamps; `now` only fills defaults, which a bound has none of.
                if (auto from = q.QueryParam("from")) {
                  filter.from = ParseTimeBound(*from, false, 0);
                  if (!filter.from) errors.push_back({"from", "must be a date YYYY-MM-DD or an RFC 3339 timestamp"});
                }
                if (auto to = q.QueryParam("to")) {
                  filter.to = ParseTimeBound(*to, true, 0);
                  if (!filter.to) errors.push_back({"to", "must be a date YYYY-MM-DD or an RFC 3339 timestamp"});
                }
                const auto limit = IntParam(q, "limit", 50);
                if (!limit || *limit < 1 || *limit > 200) errors.push_back({"limit", "must be an integer from 1 to 200"});
                const auto before = IntParam(q, "cursor", 0);
                if (!before) errors.push_back({"cursor", "must be a non-negative integer"});
                if (!errors.empty()) return Problem(ctx, Error::Validation(std::move(errors)));
                filter.limit = *limit;
                if (*before > 0) filter.before_seq = *before;
                auto list = trust.ListDecisions(ctx.Caller(), filter);
                if (!list) return Problem(ctx, list.error());
                json::array decisions;
                for (const auto& d : *list)
                  decisions.push_back(json::object{
                      {"decisionId", d.decision_id},
                      {"sequence", d.seq},
                      {"evaluatedAt", FormatTimestamp(d.evaluated_at)},
                      {"endpoint", d.endpoint},
                      {"actorKind", d.actor_kind},
                      {"actorLabel", d.actor_label},
                      {"channel", d.channel},
                      {"appId", d.app_id ? json::value(*d.app_id) : json::value(nullptr)},
                      {"overallDecision", d.overall},
                      {"counts", json::object{{"total", d.counts.total},
                                              {"allowed", d.counts.allowed},
                                              {"warned", d.counts.warned},
                                              {"blocked", d.counts.blocked},
                                              {"escalated", d.counts.escalated}}}});
                json::value next = nullptr;
                if (static_cast<int64_t>(list->size()) == filter.limit && !list->empty()) next = list->back().seq;
                return JsonResponse(
                    200, json::object{{"decisions", std::move(decisions)},
                                      {"nextCursor", next},
                                      {"archived", ArchivedWindowJson(s, ctx.Caller().tenant_id, "decisions",
                                                                      filter.from.value_or(0),
                                                                      filter.to.value_or(std::numeric_limits<TimeMs>::max()))}});
              },
              {.summary = "The tenant's decision ledger (tenant admins), newest first: who asked, on which "
                          "channel, with which app, and the overall decision and counts of each record. "
                          "GET /api/trust/decisions/{id} has a record's sources and evidence.",
               .tag = "trust-admin",
               .response = Schema::Object({
                   Required("decisions", Schema::Array(Schema::Object({
                                             Required("decisionId", Schema::Uuid()),
                                             Required("sequence", Schema::Integer()),
                                             Required("evaluatedAt", Schema::Timestamp()),
                                             Required("endpoint", Schema::String()),
                                             Required("actorKind", Schema::String().Enum({"machine", "user"})),
                                             Required("actorLabel", Schema::String()),
                                             Required("channel", Schema::String()),
                                             Required("appId", Schema::Uuid().Nullable()),
                                             Required("overallDecision", Schema::String().Enum({"allow", "warn", "block"})),
                                             Required("counts", counts),
                                         }))),
                   Required("nextCursor", Schema::Integer().Nullable().Describe("the cursor of the next page")),
                   Required("archived", ArchivedWindowSchema()),
               }),
               .query = {{"decision", Schema::String().Enum({"allow", "warn", "block"}), false, "only this overall decision"},
                         {"appId", Schema::Uuid(), false, "only decisions made with this app's keys"},
                         {"channel", Schema::String(), false, "only this channel"},
                         {"from", Schema::String(), false, "YYYY-MM-DD (UTC, from the start of the day) or an RFC 3339 timestamp"},
                         {"to", Schema::String(), false, "YYYY-MM-DD (UTC, the whole day) or an RFC 3339 timestamp; inclusive"},
                         {"cursor", Schema::Integer().Min(0), false, "nextCursor of the previous page"},
                         {"limit", Schema::Integer().Min(1).Max(200), false, "default 50"}},
               .errors = {400, 403}}});

  router.Add({Method::kGet, "/trust-admin/ledger/heads", Auth::kTenantAdmin, "",
              [&trust](RequestContext& ctx) {
                auto limit = IntParam(ctx.request, "limit", 50);
                if (!limit || *limit < 1 || *limit > 500)
                  return Problem(ctx, Error::Validation({{"limit", "must be an integer from 1 to 500"}}));
                auto before = IntParam(ctx.request, "cursor", 0);
                if (!before) return Problem(ctx, Error::Validation({{"cursor", "must be a non-negative integer"}}));
                auto heads = trust.LedgerHeads(ctx.Caller(), *before, *limit);
                if (!heads) return Problem(ctx, heads.error());
                return JsonResponse(200, SignedHeadsJson(*heads, *limit));
              },
              {.summary = "The ledger's signed heads (tenant admins), newest first, for an outside party to "
                          "store. Each signature is Ed25519 over \"credence-chain-head:v1\\n<chain>\\n<tenantId>\\n"
                          "<sequence>\\n<hash>\\n<signedAt>\" with the key keyId of /.well-known/credence-chain-keys.",
               .tag = "trust-admin",
               .response = SignedHeadsSchema(),
               .query = {{"limit", Schema::Integer().Min(1).Max(500), false, "default 50"},
                         {"cursor", Schema::String(), false, "nextCursor of the previous page"}},
               .errors = {400, 403}}});

  // Public: anyone may fetch the keys that sign chain heads, to check the
  // heads they stored without trusting this server later.
  router.Add({Method::kGet, "/.well-known/credence-chain-keys", Auth::kPublic, "",
              [&heads = s.chain_heads](RequestContext&) {
                json::array keys;
                for (const auto& k : heads.Keys())
                  keys.push_back(json::object{
                      {"keyId", k.key_id},
                      {"algorithm", k.algorithm},
                      {"publicKey", k.public_key},
                      {"createdAt", FormatTimestamp(k.created_at)},
                      {"retiredAt", k.retired_at ? json::value(FormatTimestamp(*k.retired_at)) : json::value(nullptr)},
                      {"retiredBy", k.retired_by ? json::value(*k.retired_by) : json::value(nullptr)},
                      {"retirementSignature",
                       k.retirement_signature ? json::value(*k.retirement_signature) : json::value(nullptr)}});
                return JsonResponse(200, json::object{{"currentKeyId", heads.key().key_id()},
                                                      {"currentPublicKeyPem", heads.key().PublicPem()},
                                                      {"keys", std::move(keys)}});
              },
              {.summary = "The Ed25519 public keys that sign chain heads (anyone may read them), newest first; a "
                          "retired key carries the time it was retired and its successor's signature over "
                          "\"credence-chain-key-retired:v1\\n<keyId>\\n<publicKey>\\n<retiredAt>\".",
               .tag = "trust",
               .response = Schema::Object({
                   Required("currentKeyId", Schema::String()),
                   Required("currentPublicKeyPem", Schema::String()),
                   Required("keys", Schema::Array(Schema::Object({
                                        Required("keyId", Schema::String().Describe(
                                                              "first 16 hex digits of SHA-256 of the raw public key")),
                                        Required("algorithm", Schema::String().Enum({"Ed25519"})),
                                        Required("publicKey", Schema::String().Describe("raw 32 bytes, base64url")),
                                        Required("createdAt", Schema::Timestamp()),
                                        Required("retiredAt", Schema::Timestamp().Nullable()),
                                        Required("retiredBy", Schema::String().Nullable()),
                                        Required("retirementSignature", Schema::String().Nullable()),
                                    }))),
               })}});
}

}  // namespace credence::http
